import { widthOf, wrapText } from './wrap.js';
import { type Voice, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { entryLabel, issueJson, issueWhere } from './sheet-labels.js';
import { createTheme } from './theme.js';
import { createWarningSummary } from './warning-summary.js';
import type { FileReport } from '../domain/report.js';
import type { Issue } from '../domain/issue.js';

/** Files listed one by one up to this count; past it, only files with problems. */
const LIST_CLEAN_FILES_UP_TO = 20;

/** People's text is written in pieces of about this many characters, not line by line. */
const TEXT_PIECE_CHARS = 64 * 1024;

export interface ValidationOutput {
  /** One file's report, in input order. */
  add(report: FileReport): void;
  /** Everything that is still to be written, and the summary. */
  finish(): void;
}

/**
 * --json: the contract's document, `{"ok", "files"}`, on stdout once every file is known
 * (`ok` comes first). Otherwise people's text on stderr, grouped by file, as it comes.
 */
export function createValidationOutput(io: Io, options: { strict: boolean; total: number; quiet?: boolean }): ValidationOutput {
  return io.json ? jsonOutput(io) : textOutput(io, options);
}

function jsonOutput(io: Io): ValidationOutput {
  // Each report is turned into its JSON as it comes, so the reports themselves are not kept.
  const files: string[] = [];
  let ok = true;
  return {
    add(r) {
      ok &&= r.ok;
      if (isQuietHeader(r)) return;
      files.push(r.row === undefined ? reportJson(r, io) : rowReportJson(r, io));
    },
    finish() {
      // Three writes rather than one string: no second copy of a document that can be megabytes.
      io.stdout.write(`{"ok":${ok},"files":[`);
      io.stdout.write(files.join(','));
      io.stdout.write(']}\n');
    },
  };
}

function reportJson(r: FileReport, lang: Voice): string {
  return JSON.stringify({ file: r.file, ok: r.ok, errors: r.errors.map((e) => issueJson(e, lang, false)), warnings: r.warnings.map((w) => issueJson(w, lang, false)) });
}

/** A spreadsheet row: `row`, and `column` in each issue (docs/cli-contract.md, "Spreadsheets"). */
function rowReportJson(r: FileReport, lang: Voice): string {
  return JSON.stringify({
    file: r.file,
    row: r.row,
    ...(r.header ? { header: true } : {}),
    ok: r.ok,
    errors: r.errors.map((e) => issueJson(e, lang, true)),
    warnings: r.warnings.map((w) => issueJson(w, lang, true)),
    ...(r.notes?.length ? { notes: r.notes.map((note) => say(lang, note)) } : {}),
  });
}

/** A sheet's header row with nothing to say is not an entry of the output. */
function isQuietHeader(r: FileReport): boolean {
  return r.header === true && r.errors.length === 0 && r.warnings.length === 0 && !r.notes?.length;
}

function textOutput(io: Io, options: { strict: boolean; total: number; quiet?: boolean }): ValidationOutput {
  const t = createTheme(io);
  // The run's language, and whether a person's data is shown whole (--reveal).
  const lang: Voice = io;
  // --quiet: only the files with something to say, and the summary (issue 14).
  const listClean = options.quiet !== true && options.total <= LIST_CLEAN_FILES_UP_TO;
  let pending = '';
  let files = 0;
  let rows = 0;
  let valid = 0;
  let errors = 0;
  let warnings = 0;
  // On a terminal, broken between words at its width (a long message broke mid-word at 80 columns).
  const width = widthOf(io.stderr);
  const line = (text: string): void => {
    pending += `${width ? wrapText(text, width) : text}\n`;
    if (pending.length >= TEXT_PIECE_CHARS) {
      io.stderr.write(pending);
      pending = '';
    }
  };
  // The markers of a whole file or document, in the reader's words (--json keeps them as they are).
  const where = (issue: Issue): string => issueWhere(issue, lang);
  // The warnings of a sheet's rows, one line per kind at the end; the errors in full as they
  // come (issue 24). --quiet: errors only. A file's warnings are its own, said with it.
  const summary = createWarningSummary(lang);
  const summarised = (report: FileReport): boolean => !report.header && report.row !== undefined;
  const warningLabel = options.strict ? t.error(say(lang, 'run.warningLine')) : t.warning(say(lang, 'run.warningLine'));
  const issues = (report: FileReport): void => {
    for (const e of report.errors) line(`    ${t.error(say(lang, 'run.errorLine'))} ${t.path(where(e))}: ${say(lang, e.message)}`);
    // With --strict a warning fails its row: said in full, as an error is.
    const inFull = !summarised(report) || (options.strict && !report.ok);
    if (inFull && options.quiet !== true) for (const w of report.warnings) line(`    ${warningLabel} ${t.path(where(w))}: ${say(lang, w.message)}`);
    if (options.quiet !== true) for (const note of report.notes ?? []) line(`    ${t.muted(say(lang, 'validate.noteLabel'))} ${say(lang, note)}`);
  };
  /** A sheet's header row: its column problems count as the file's (a missing column fails the file). */
  const sheetHeader = (report: FileReport): void => {
    errors += report.errors.length;
    warnings += report.warnings.length;
    if (!report.ok) files += 1;
    line(`${report.ok ? t.muted('•') : t.error('✗')} ${t.strong(entryLabel(report, lang))}`);
    issues(report);
  };
  return {
    add(report) {
      if (report.header) {
        if (!isQuietHeader(report) && !(options.quiet === true && report.errors.length === 0)) sheetHeader(report);
        return;
      }
      files += 1;
      if (report.row !== undefined) rows += 1;
      if (report.ok) valid += 1;
      errors += report.errors.length;
      warnings += report.warnings.length;
      if (summarised(report)) summary.add(report);
      // A sound row of a sheet with notes (rows skipped before it) is still shown, but for
      // --quiet; its warnings are in the summary at the end.
      const warningsShown = report.warnings.length > 0 && !summarised(report) && options.quiet !== true;
      if (report.ok && !warningsShown && (options.quiet === true || !report.notes?.length)) {
        if (listClean) line(`${t.success('✓')} ${report.file}`);
        return;
      }
      line(`${report.ok ? t.success('✓') : t.error('✗')} ${t.strong(entryLabel(report, lang))}`);
      issues(report);
    },
    finish() {
      const byRow = rows === files && rows > 0;
      const invalid = files - valid;
      // Portuguese agrees in gender and number: "1 arquivo válido", "2 linhas inválidas".
      const text = say(lang, 'validate.summary', {
        counted: byRow ? say(lang, rows === 1 ? 'validate.rowOne' : 'validate.rowMany', { n: rows }) : say(lang, files === 1 ? 'validate.fileOne' : 'validate.fileMany', { n: files }),
        valid: byRow ? say(lang, valid === 1 ? 'validate.validRow' : 'validate.validRows', { n: valid }) : say(lang, valid === 1 ? 'validate.validFile' : 'validate.validFiles', { n: valid }),
        invalid: byRow ? say(lang, invalid === 1 ? 'validate.invalidRow' : 'validate.invalidRows', { n: invalid }) : say(lang, invalid === 1 ? 'validate.invalidFile' : 'validate.invalidFiles', { n: invalid }),
        errors: say(lang, errors === 1 ? 'validate.errorOne' : 'validate.errorMany', { n: errors }),
        warnings: say(lang, warnings === 1 ? 'validate.warningOne' : 'validate.warningMany', { n: warnings }),
        strict: options.strict && warnings ? say(lang, 'validate.strictCounted') : '',
      });
      const kinds = options.quiet === true ? [] : summary.lines();
      if (kinds.length > 0) line(t.strong(say(lang, 'validate.warningsHeading')));
      for (const kind of kinds) line(`    ${warningLabel} ${kind}`);
      line(valid === files ? t.success(text) : t.error(text));
      io.stderr.write(pending);
    },
  };
}
