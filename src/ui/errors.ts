import { EconsigError, ExitCode } from '../errors.js';
import { type Lang, type MessageKey, type Voice, isMessageKey, say } from '../i18n/index.js';
import { personalText } from './personal.js';
import type { Io } from './io.js';
import { writeWrapped } from './wrap.js';
import { createTheme } from './theme.js';

/**
 * The system's cause of a failure. Its words are the system's (Node's, in English); in
 * another language only its code is shown (EACCES, ENOSPC...), which the message usually
 * names already.
 */
function describeCause(cause: unknown, lang: Lang): string | undefined {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && lang !== 'en') return code;
    return typeof code === 'string' ? `${cause.message} (${code})` : cause.message;
  }
  return cause === undefined ? undefined : String(cause);
}

/**
 * What the boundary says of a failure, in the voice's language: message, cause, hint, and the
 * catalogue key as a stable code. Words that are not ours (a system's, a service's) may quote
 * a person's data: masked as messages are, unless --reveal.
 */
function describeFailure(error: unknown, voice: Voice): { message: string; cause: string | undefined; hint: string | undefined; code: string | null; exitCode: number } {
  const lang = voice;
  const theirs = (text: string | undefined): string | undefined => (text === undefined ? undefined : personalText(voice, text));
  if (!(error instanceof EconsigError)) {
    return {
      message: say(lang, 'cli.internalError', { message: theirs(error instanceof Error ? error.message : String(error)) ?? '' }),
      cause: undefined,
      hint: say(lang, 'cli.bugHint'),
      code: 'cli.internalError',
      exitCode: ExitCode.bug,
    };
  }
  return {
    message: error.text ? say(lang, error.text) : (theirs(error.message) as string),
    cause: theirs(describeCause(error.cause, voice.lang)),
    hint: error.hintText ? say(lang, error.hintText) : theirs(error.hint),
    code: error.text?.key ?? null,
    exitCode: error.exitCode,
  };
}

/**
 * Render a failure once, for people on stderr and, with --json, as one JSON document on
 * stdout. Returns the exit code. A stack trace appears only with --verbose. Texts follow
 * the run's language, in --json too; `code` (the catalogue key) and `exitCode` do not.
 */
export function renderError(error: unknown, io: Io): number {
  const theme = createTheme(io);
  const lang = io.lang;
  const { message, cause, hint, code, exitCode } = describeFailure(error, io);

  // Ctrl-C is what the person asked for: said plainly, not as an error.
  const lines = [exitCode === ExitCode.interrupted ? theme.warning(message) : `${theme.error(say(lang, 'run.errorLabel'))} ${message}`];
  if (cause && !message.includes(cause)) lines.push(`  ${theme.muted(say(lang, 'run.causeLabel'))} ${cause}`);
  if (hint) lines.push(`  ${theme.info(say(lang, 'run.hintLabel'))} ${hint}`);
  if (io.verbose && error instanceof Error && error.stack) lines.push(theme.muted(error.stack));
  writeWrapped(io.stderr, `${lines.join('\n')}\n`);

  if (io.json) {
    const doc = { ok: false, error: { message, cause: cause ?? null, hint: hint ?? null, exitCode, ...(code ? { code } : {}) } };
    io.stdout.write(`${JSON.stringify(doc)}\n`);
  }
  return exitCode;
}

/**
 * A usage error of commander's (unknown option, missing argument...), said in the run's
 * language from its `code` and the names in its English message; then, with --json, the
 * one document on stdout.
 */
export function renderUsageError(io: Io, error: { code: string; message: string }): number {
  const theme = createTheme(io);
  const lang = io.lang;
  const { message, hint } = usageMessage(lang, error);
  io.stderr.write(`${theme.error(say(lang, 'run.errorLabel'))} ${message}\n${hint ? `  ${theme.info(say(lang, 'run.hintLabel'))} ${hint}\n` : ''}`);
  if (io.json) {
    const doc = { ok: false, error: { message, cause: null, hint: hint ?? say(lang, 'cli.seeHelp'), exitCode: ExitCode.usage, code: error.code } };
    io.stdout.write(`${JSON.stringify(doc)}\n`);
  }
  return ExitCode.usage;
}

/** commander's English message turned into the catalogue's text; its own text when its shape is not known. */
export function usageMessage(lang: Lang, error: { code: string; message: string }): { message: string; hint?: string } {
  const english = error.message.replace(/^error: /, '');
  const [first = '', ...rest] = english.split('\n');
  // commander's "(Did you mean --force?)" / "(Did you mean one of a, b?)".
  const suggestion = /^\(Did you mean (?:one of )?(.+)\?\)$/.exec(rest.join(' ').trim())?.[1];
  const hint = suggestion ? say(lang, 'cli.didYouMean', { suggestion }) : undefined;
  const quoted = [...first.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '');
  const said = (key: MessageKey, values: Record<string, string> = {}): { message: string; hint?: string } => ({
    message: say(lang, key, values),
    ...(hint ? { hint } : {}),
  });
  switch (error.code) {
    case 'commander.unknownOption':
      // -v is --version in many tools; ours is -V (issue 24).
      if (quoted[0] === '-v' && !hint) return { message: say(lang, 'cli.unknownOption', { option: '-v' }), hint: say(lang, 'cli.versionHint') };
      return said('cli.unknownOption', { option: quoted[0] ?? '' });
    case 'commander.unknownCommand':
      return said('cli.unknownCommand', { command: quoted[0] ?? '' });
    case 'commander.missingArgument':
      return said('cli.missingArgument', { argument: quoted[0] ?? '' });
    case 'commander.optionMissingArgument':
      return said('cli.optionMissingArgument', { option: quoted[0] ?? '' });
    case 'commander.excessArguments': {
      const got = /but got \d+: (.*)\.$/.exec(first)?.[1] ?? '';
      return said('cli.excessArguments', { arguments: got });
    }
    case 'commander.invalidArgument': {
      // "option '--port <n>' argument 'x' is invalid. <our parser's catalogue key, or commander's choices>".
      const detail = /is invalid(?: for argument '[^']*')?\. (.*)$/.exec(first)?.[1] ?? '';
      const choices = /^Allowed choices are (.*)\.$/.exec(detail)?.[1];
      const reason = choices ? say(lang, 'cli.allowedChoices', { choices }) : isMessageKey(detail) ? say(lang, detail) : detail;
      return first.startsWith('option ')
        ? said('cli.invalidOptionValue', { option: quoted[0] ?? '', value: quoted[1] ?? '', reason })
        : said('cli.invalidArgumentValue', { value: quoted[0] ?? '', reason });
    }
    case 'commander.conflictingOption':
      return said('cli.conflictingOption', { option: quoted[0] ?? '', other: quoted[1] ?? '' });
    default:
      return { message: english, ...(hint ? { hint } : {}) };
  }
}
