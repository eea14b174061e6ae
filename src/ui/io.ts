/**
 * The one place that decides how this run talks to people: whether it may prompt,
 * animate or colour. Built once at start-up from the environment, the streams and the
 * global flags (docs/design.md habit 7). Import-light: no chalk, no ora here.
 */
import type { Lang } from '../i18n/index.js';
export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}
export interface OutStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  /** A terminal's width (Node sets it on a TTY stream). */
  columns?: number;
}

export interface Io {
  readonly stdin: InStream;
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  /** Prompts allowed: stdin and stdout are terminals, not CI, not --json. */
  readonly canPrompt: boolean;
  /** Spinners and redrawn progress allowed: stderr is a terminal and not CI. */
  readonly canAnimate: boolean;
  /** Colour on stderr (human output). */
  readonly color: boolean;
  /** Colour on stdout (lines that are the command's data): only on a terminal, or forced. */
  readonly colorStdout: boolean;
  /** stdout carries one JSON document; people's text goes to stderr. */
  readonly json: boolean;
  readonly verbose: boolean;
  /** People's language (i18n/), decided once by main.ts: the global --lang, else the locale. */
  readonly lang: Lang;
  /**
   * --reveal: a person's data is said whole; masked otherwise (docs/privacy.md). With `lang`,
   * the Io is the Voice `say` takes.
   */
  readonly reveal: boolean;
}

export interface IoOptions {
  env: Record<string, string | undefined>;
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  json?: boolean;
  /** false when --no-color was given. */
  color?: boolean;
  verbose?: boolean;
  lang: Lang;
  reveal?: boolean;
}

/** True when the variable is set to something other than empty, "0" or "false". */
export function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Decide colour: --no-color and NO_COLOR win, FORCE_COLOR forces, CI and pipes turn it off. */
export function decideColor(options: IoOptions, stream: OutStream = options.stderr): boolean {
  if (options.color === false) return false;
  const noColor = options.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  const force = options.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (isTruthyEnv(options.env.CI)) return false;
  return stream.isTTY === true && options.env.TERM !== 'dumb';
}

export function createIo(options: IoOptions): Io {
  const ci = isTruthyEnv(options.env.CI);
  const json = options.json === true;
  return {
    stdin: options.stdin,
    stdout: options.stdout,
    stderr: options.stderr,
    canPrompt: !ci && !json && options.stdin.isTTY === true && options.stdout.isTTY === true,
    canAnimate: !ci && options.stderr.isTTY === true && options.env.TERM !== 'dumb',
    color: decideColor(options),
    colorStdout: decideColor(options, options.stdout),
    json,
    verbose: options.verbose === true,
    lang: options.lang,
    reveal: options.reveal === true,
  };
}
