/** A JUnit XML report of a submit run (`--report`), one test case per file, for CI; people's text in the run's language, as --json's. */
import { type Lang, type Voice, msg, say } from '../i18n/index.js';
import { maskPersonalText } from '../redact.js';
import { EconsigError, ExitCode } from '../errors.js';
import { writeFileSafely } from '../safe-file.js';
import { isSuccess } from '../domain/outcome.js';
import type { SubmitResult } from '../domain/report.js';

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/**
 * Element text that a parser reads back as it was. A file name or a service message may hold
 * characters XML 1.0 forbids (control characters other than tab, newline and carriage
 * return; lone surrogates; U+FFFE, U+FFFF): they are written as the text `\uXXXX`, so the
 * report still parses and the name stays recognisable.
 */
function xmlText(text: string): string {
  return text
    .replace(/[<>&\r]/g, (c) => ENTITIES[c] ?? c)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An attribute value: also quotes, and tab and newline, which parsers would otherwise turn into spaces. */
function xmlAttribute(text: string): string {
  return xmlText(text).replace(/["'\t\n]/g, (c) => ENTITIES[c] ?? c);
}

export interface JunitOptions {
  seconds: number;
  timestamp: string;
  lang: Lang | Voice;
  /** The run's id, a property of the suite. */
  runId?: string | undefined;
}

/**
 * The JUnit report of a batch, for CI. It ends up beside CI logs, so a person's data in it is
 * masked as in the logs unless `lang` is a Voice that reveals it (--reveal).
 */
export function junitXml(results: readonly SubmitResult[], options: JunitOptions): string {
  const reveal = typeof options.lang === 'object' && options.lang.reveal;
  // A file not sent (the guard, a copy in the batch, Ctrl-C, a 401 earlier) is a skipped
  // case, not a failure, and carries no contract id: the one named is another file's (issue 14).
  const skipped = results.filter((r) => r.outcome === 'skipped').length;
  const failures = results.filter((r) => !isSuccess(r.outcome) && r.outcome !== 'skipped').length;
  const cases = results.map((r) => {
    // A spreadsheet's rows share its file name: the row makes each case's name its own.
    const name = xmlAttribute(r.row === undefined ? r.file : `${r.file}:${r.row}`);
    const time = ((r.elapsedMs ?? 0) / 1000).toFixed(3);
    const open = `    <testcase classname="econsig.submit" name="${name}" time="${time}">`;
    const contract = r.idContrato && r.outcome !== 'skipped' ? ` (idContrato ${r.idContrato})` : '';
    const message = say(options.lang, r.message);
    const out = `      <system-out>${xmlText(`${r.outcome}: ${message}${contract}`)}</system-out>`;
    if (isSuccess(r.outcome)) return `${open}\n${out}\n    </testcase>`;
    if (r.outcome === 'skipped') return `${open}\n      <skipped message="${xmlAttribute(message)}"/>\n${out}\n    </testcase>`;
    const details = [
      ...r.errors.map((e) => `${e.path}: ${say(options.lang, e.message)}`),
      ...r.erros.map((e) => `${e.codigo}: ${reveal ? e.msg : maskPersonalText(e.msg)}`),
      ...(r.hint ? [`${say(options.lang, 'run.hintLabel')} ${say(options.lang, r.hint)}`] : []),
    ].join('\n');
    return `${open}\n      <failure type="${r.outcome}" message="${xmlAttribute(message)}">${xmlText(details)}</failure>\n${out}\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="econsig" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${options.seconds.toFixed(3)}">`,
    `  <testsuite name="econsig submit" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${options.seconds.toFixed(3)}" timestamp="${options.timestamp}">`,
    // The run (docs/cli-contract.md, "Runs"): `econsig runs show <id>` in a later step.
    ...(options.runId ? ['    <properties>', `      <property name="econsig.runId" value="${xmlAttribute(options.runId)}"/>`, '    </properties>'] : []),
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * Write the report file (0600: its messages may quote a person's data); a path that cannot be
 * written is a local storage failure (exit 74), a link or a FIFO there a refusal (exit 2).
 */
export function writeJunitReport(path: string, results: readonly SubmitResult[], options: JunitOptions): void {
  try {
    writeFileSafely(path, junitXml(results, options));
  } catch (error) {
    if (error instanceof EconsigError) throw error;
    throw new EconsigError(msg('submit.reportUnwritable', { path }), { exitCode: ExitCode.storage, hint: msg('submit.reportUnwritableHint'), cause: error });
  }
}
