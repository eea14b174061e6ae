import { type Message, say } from './i18n/index.js';

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

/** What happened, or what to do: a message of the catalogue, or words not ours to translate (the sandbox's), said as they are. */
export type Said = Message | string;

const english = (said: Said): string => (typeof said === 'string' ? said : say('en', said));
const messageOf = (said: Said | undefined): Message | undefined => (said === undefined || typeof said === 'string' ? undefined : said);

export interface EconsigErrorOptions {
  exitCode: ExitCode;
  /** What the operator should do next. */
  hint?: Said | undefined;
  cause?: unknown;
}

/**
 * An error meant for an operator: a message, an exit code and a hint. The error boundary
 * (ui/errors.ts) says `text` and `hintText` in the run's language; `message` and `hint` are
 * their English, for logs, --verbose and tests.
 */
export class EconsigError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  /** The message as a catalogue message, when it is one. */
  readonly text: Message | undefined;
  readonly hintText: Message | undefined;

  constructor(message: Said, options: EconsigErrorOptions) {
    super(english(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EconsigError';
    this.exitCode = options.exitCode;
    this.hint = options.hint === undefined ? undefined : english(options.hint);
    this.text = messageOf(message);
    this.hintText = messageOf(options.hint);
  }
}

/** Bad flags, missing arguments, unreadable files, a prompt needed where none is allowed. */
export class UsageError extends EconsigError {
  constructor(message: Said, hint?: Said, cause?: unknown) {
    super(message, { exitCode: ExitCode.usage, hint, cause });
    this.name = 'UsageError';
  }
}

/** No token, or the service said 401. */
export class AuthError extends EconsigError {
  constructor(message: Said, hint?: Said, cause?: unknown) {
    super(message, { exitCode: ExitCode.auth, hint, cause });
    this.name = 'AuthError';
  }
}

/** Ctrl-C (a key in raw mode, or SIGINT) or SIGTERM: exit 130. */
export class InterruptedError extends EconsigError {
  constructor(message: Said, hint?: Said) {
    super(message, { exitCode: ExitCode.interrupted, hint });
    this.name = 'InterruptedError';
  }
}
