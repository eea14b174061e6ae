/**
 * submit's results sheets: one per sheet given, opened before the first POST, fed each
 * row as it is read and each row's final result as it comes, finished at the end.
 */
import { UsageError } from '../errors.js';
import { type Lang, msg } from '../i18n/index.js';
import { type ResultsWriter, openResults, resultsPath } from '../sheets/results.js';
import type { SheetInput } from './run-submit.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

export interface SheetResults {
  /** A report as the batch reads it, in input order (a sheet's data rows wait for their results). */
  expect(report: FileReport): void;
  /** A report's final result, in any order. */
  add(result: SubmitResult): void;
  /** The run the rows belong to (their `run` column), before the first result. */
  setRun(id: string): void;
  /** Write the finished files; their paths. */
  finish(): Promise<string[]>;
  /** The sheets given that get no results file: no data row was read (the header failed). */
  unwritten: string[];
}

export async function openSheetResults(sheets: readonly SheetInput[], flag: string | undefined, cwd: string, lang: Lang): Promise<SheetResults> {
  if (flag !== undefined && sheets.length > 1) throw new UsageError(msg('sheet.resultsOneFile'), msg('sheet.resultsOneFileHint'));
  if (flag !== undefined && !/\.(csv|xlsx)$/i.test(flag)) throw new UsageError(msg('sheet.resultsExtension', { flag }), msg('sheet.resultsExtensionHint'));
  const writers = new Map<string, ResultsWriter>();
  for (const sheet of sheets) {
    if (sheet.rows > 0) writers.set(sheet.file, await openResults(sheet, resultsPath(sheet, flag, cwd), lang));
  }
  return {
    unwritten: sheets.filter((sheet) => sheet.rows === 0).map((sheet) => sheet.file),
    expect(report) {
      if (report.row !== undefined && !report.header) writers.get(report.file)?.expect(report);
    },
    add(result) {
      if (result.row !== undefined) writers.get(result.file)?.add(result);
    },
    setRun(id) {
      for (const writer of writers.values()) writer.setRun(id);
    },
    async finish() {
      const paths: string[] = [];
      for (const writer of writers.values()) paths.push(await writer.finish());
      return paths;
    },
  };
}
