/**
 * `validate`: every problem of every file, in one run. Sends nothing.
 */
import { createHash } from 'node:crypto';
import { ExitCode } from '../errors.js';
import type { Issue } from '../domain/normalize.js';
import type { Submission } from '../domain/submission.js';
import { validateSubmission } from '../domain/validate.js';
import { firstFailure } from '../domain/outcome.js';
import { msg } from '../i18n/index.js';
import { type StdinReader, expandInputs, loadSource } from './inputs.js';
import type { FileReport, Source } from '../domain/report.js';

export interface ValidateFilesOptions {
  cwd: string;
  stdin: StdinReader;
  now: Date;
  strict: boolean;
  /** Keep the normalised submission of valid files (submit needs it; validate does not). */
  keepValues?: boolean;
}

/** The report of one parsed document. `strict`: warnings make the file fail. */
export function reportOf(file: string, document: unknown, options: Pick<ValidateFilesOptions, 'now' | 'strict' | 'keepValues'>): FileReport {
  const result = validateSubmission(document, { now: options.now });
  const ok = result.errors.length === 0 && !(options.strict && result.warnings.length > 0);
  const report: FileReport = {
    file,
    ok,
    errors: result.errors,
    warnings: result.warnings,
    exitCode: ok ? ExitCode.ok : ExitCode.invalid,
  };
  if (ok && result.value && options.keepValues) report.value = result.value;
  const id = (document as { idProposta?: unknown } | null)?.idProposta;
  if (typeof id === 'string' && id.trim() !== '') report.idProposta = id.trim();
  return report;
}

/**
 * The same idProposta twice in one run's inputs (two rows, two files) with different data:
 * the service keeps one contract per proposal, and submit would send the first and skip the
 * other (run.alsoIn). validate says so beforehand: the second is an error naming the first
 * (issue 24). An identical copy is sent once and is no error. Give it every report in input
 * order (valid ones with their value: keepValues); it changes the reports that clash.
 */
export function createDuplicateCheck(): (report: FileReport) => void {
  const seen = new Map<string, { file: string; row?: number; hash: string }>();
  return (report) => {
    if (report.header || !report.ok || report.value === undefined) return;
    const id = report.value.idProposta;
    const hash = createHash('sha256').update(JSON.stringify(report.value)).digest('base64');
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, report.row === undefined ? { file: report.file, hash } : { file: report.file, row: report.row, hash });
      return;
    }
    if (first.hash === hash) return;
    const where = first.row === undefined ? msg('input.duplicateFile', { file: first.file }) : first.file === report.file ? msg('input.duplicateRow', { row: first.row }) : msg('input.duplicateFileRow', { file: first.file, row: first.row });
    // A sheet's issue names its column (the --json contract); idProposta's is the sheet's to know.
    const column = report.row === undefined ? {} : { column: null };
    report.errors = [...report.errors, { path: 'idProposta', ...column, message: msg('input.duplicateProposal', { id, where }) }];
    report.ok = false;
    report.exitCode = ExitCode.invalid;
  };
}

/** Read, parse and check one source. */
export function checkSource(source: Source, options: ValidateFilesOptions): FileReport {
  const loaded = loadSource(source, options.stdin);
  if (!loaded.ok) {
    return { file: loaded.file, ok: false, errors: loaded.errors, warnings: [], exitCode: loaded.exitCode };
  }
  return reportOf(loaded.file, loaded.document, options);
}

/** Validate every file, `-` and folder given. */
export function validateFiles(paths: readonly string[], options: ValidateFilesOptions): FileReport[] {
  return expandInputs(paths, options.cwd).map((source) => checkSource(source, options));
}

/** 0 when every file passed; otherwise the code of the first file, in input order, that did not. */
export function reportsExitCode(reports: readonly FileReport[]): number {
  return firstFailure(reports.map((report) => report.exitCode));
}
