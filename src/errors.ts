/**
 * The exit codes of the CLI contract (docs/cli-contract.md, "Exit codes"). Only main.ts
 * turns them into a process exit; everything else throws an EconsigError carrying one.
 */
export const ExitCode = {
  ok: 0,
  invalid: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  rateLimited: 6,
  unavailable: 7,
  denied: 8,
  timeout: 9,
  /** A bug in econsig itself (sysexits EX_SOFTWARE). */
  bug: 70,
  /** Local storage failure: the store, config or an output file (sysexits EX_IOERR). */
  storage: 74,
  /** Interrupted by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface EconsigErrorOptions {
  exitCode: ExitCode;
  /** What the operator should do next. */
  hint?: string;
  cause?: unknown;
}

/** An error meant for an operator: a message, an exit code and a hint. */
export class EconsigError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;

  constructor(message: string, options: EconsigErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EconsigError';
    this.exitCode = options.exitCode;
    this.hint = options.hint;
  }
}

/** Bad flags, missing arguments, unreadable files, a prompt needed where none is allowed. */
export class UsageError extends EconsigError {
  constructor(message: string, hint?: string, cause?: unknown) {
    super(message, { exitCode: ExitCode.usage, hint, cause });
    this.name = 'UsageError';
  }
}

/** No token, or the service said 401. */
export class AuthError extends EconsigError {
  constructor(message: string, hint?: string, cause?: unknown) {
    super(message, { exitCode: ExitCode.auth, hint, cause });
    this.name = 'AuthError';
  }
}

/** Ctrl-C (a key in raw mode, or SIGINT) or SIGTERM: exit 130. */
export class InterruptedError extends EconsigError {
  constructor(message = 'Interrupted.', hint?: string) {
    super(message, { exitCode: ExitCode.interrupted, hint });
    this.name = 'InterruptedError';
  }
}
