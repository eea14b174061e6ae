import { EconsigError, ExitCode } from '../errors.js';
import { tr } from '../i18n/index.js';
import type { Io } from './io.js';
import { wrapText } from './wrap.js';
import { createTheme } from './theme.js';

function describeCause(cause: unknown): string | undefined {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${cause.message} (${code})` : cause.message;
  }
  return cause === undefined ? undefined : String(cause);
}

/**
 * Render a failure once, for people on stderr and, with --json, as one JSON document on
 * stdout. Returns the exit code. A stack trace appears only with --verbose.
 */
export function renderError(error: unknown, io: Io): number {
  const theme = createTheme(io);
  const known = error instanceof EconsigError;
  const exitCode = known ? error.exitCode : ExitCode.bug;
  const message = known
    ? error.message
    : `internal error: ${error instanceof Error ? error.message : String(error)}`;
  const cause = known ? describeCause(error.cause) : undefined;
  const hint = known
    ? error.hint
    : 'This is a bug in econsig. Run again with --verbose and report the output.';

  const lang = io.lang ?? 'en';
  const lines = [`${theme.error(tr(lang, 'errorLabel'))} ${message}`];
  if (cause && !message.includes(cause)) lines.push(`  ${theme.muted(tr(lang, 'causeLabel'))} ${cause}`);
  if (hint) lines.push(`  ${theme.info(tr(lang, 'hintLabel'))} ${hint}`);
  if (io.verbose && error instanceof Error && error.stack) lines.push(theme.muted(error.stack));
  const stderr = io.stderr as { isTTY?: boolean; columns?: number };
  io.stderr.write(`${wrapText(lines.join('\n'), stderr.isTTY ? stderr.columns : undefined)}\n`);

  if (io.json) {
    const doc = { ok: false, error: { message, cause: cause ?? null, hint: hint ?? null, exitCode } };
    io.stdout.write(`${JSON.stringify(doc)}\n`);
  }
  return exitCode;
}

/** A usage error commander has already printed on stderr: with --json, its one document on stdout. */
export function writeUsageErrorJson(io: Io, message: string): void {
  const doc = { ok: false, error: { message, cause: null, hint: 'See econsig --help.', exitCode: ExitCode.usage } };
  io.stdout.write(`${JSON.stringify(doc)}\n`);
}
