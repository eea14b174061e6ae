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

/**
 * A text of the message catalogue (src/i18n/), by key: layers below ui/ say what happened
 * this way and the error boundary renders it in the run's language. `en` is the English
 * text, kept as the error's `message` (logs, the store, tests). Built by `text()` of
 * i18n/index.ts, which checks the key; this file imports nothing of ours.
 */
export interface Text {
  readonly key: string;
  readonly values?: Readonly<Record<string, unknown>>;
  readonly en: string;
}

/** A message or hint: plain (already in the reader's language, or a system's own) or a catalogue text. */
export type Message = string | Text;

const english = (said: Message): string => (typeof said === 'string' ? said : said.en);
const textOf = (said: Message | undefined): Text | undefined => (said === undefined || typeof said === 'string' ? undefined : said);

export interface EconsigErrorOptions {
  exitCode: ExitCode;
  /** What the operator should do next. */
  hint?: Message | undefined;
  cause?: unknown;
}

/** An error meant for an operator: a message, an exit code and a hint. */
export class EconsigError extends Error {
  readonly exitCode: ExitCode;
  /** The hint in English (see `hintText` for the catalogue's). */
  readonly hint: string | undefined;
  /** The message as a catalogue text, when it is one: rendered in the run's language. */
  readonly text: Text | undefined;
  readonly hintText: Text | undefined;

  constructor(message: Message, options: EconsigErrorOptions) {
    super(english(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EconsigError';
    this.exitCode = options.exitCode;
    this.hint = options.hint === undefined ? undefined : english(options.hint);
    this.text = textOf(message);
    this.hintText = textOf(options.hint);
  }
}

/** Bad flags, missing arguments, unreadable files, a prompt needed where none is allowed. */
export class UsageError extends EconsigError {
  constructor(message: Message, hint?: Message, cause?: unknown) {
    super(message, { exitCode: ExitCode.usage, hint, cause });
    this.name = 'UsageError';
  }
}

/** No token, or the service said 401. */
export class AuthError extends EconsigError {
  constructor(message: Message, hint?: Message, cause?: unknown) {
    super(message, { exitCode: ExitCode.auth, hint, cause });
    this.name = 'AuthError';
  }
}

/** Ctrl-C (a key in raw mode, or SIGINT) or SIGTERM: exit 130. */
export class InterruptedError extends EconsigError {
  constructor(message: Message = 'Interrupted.', hint?: Message) {
    super(message, { exitCode: ExitCode.interrupted, hint });
    this.name = 'InterruptedError';
  }
}
