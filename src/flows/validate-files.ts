/**
 * `validate`: every problem of every file, in one run. Sends nothing.
 */
import { ExitCode } from '../errors.js';
import type { Issue } from '../domain/normalize.js';
import type { Submission } from '../domain/submission.js';
import { validateSubmission } from '../domain/validate.js';
import { firstFailure } from '../domain/outcome.js';
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
  return report;
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
