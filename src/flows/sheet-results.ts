/**
 * submit's results sheets: one per sheet given, opened before the first POST, fed each
 * row's final result as the batch goes, finished with the whole run's results.
 */
import { UsageError } from '../errors.js';
import { type Lang, msg } from '../i18n/index.js';
import { type ResultsWriter, openResults, resultsPath } from '../sheets/results.js';
import type { SheetInput } from './sheet-inputs.js';
import type { BatchProgress } from './submit-batch.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

export interface SheetResults {
  /** The progress of the batch, also writing each row's final result. */
  tee<P extends BatchProgress>(progress: P, waiting: boolean): P;
  /** Write the finished files; their paths. */
  finish(results: readonly SubmitResult[]): Promise<string[]>;
}

export function openSheetResults(sheets: readonly SheetInput[], reports: readonly FileReport[], flag: string | undefined, cwd: string, lang: Lang): SheetResults {
  if (flag !== undefined && sheets.length > 1) throw new UsageError(msg('sheet.resultsOneFile'), msg('sheet.resultsOneFileHint'));
  if (flag !== undefined && !/\.(csv|xlsx)$/i.test(flag)) throw new UsageError(msg('sheet.resultsExtension', { flag }), msg('sheet.resultsExtensionHint'));
  const writers = new Map<string, ResultsWriter>();
  for (const sheet of sheets) {
    const rows = reports.filter((r) => r.file === sheet.file && r.row !== undefined && !r.header);
    if (rows.length === 0) continue;
    writers.set(sheet.file, openResults(sheet, rows, resultsPath(sheet, flag, cwd), lang));
  }
  const add = (result: SubmitResult): void => {
    if (result.row !== undefined) writers.get(result.file)?.add(result);
  };
  return {
    tee(progress, waiting) {
      return {
        ...progress,
        onAnswer: (r: SubmitResult) => {
          progress.onAnswer?.(r);
          // With --wait an accepted row is final only once its result comes (or not).
          if (!(waiting && r.outcome === 'accepted')) add(r);
        },
        onResult: (r: SubmitResult) => {
          progress.onResult?.(r);
          add(r);
        },
      };
    },
    async finish(results) {
      const paths: string[] = [];
      for (const [file, writer] of writers) paths.push(await writer.finish(results.filter((r) => r.file === file)));
      return paths;
    },
  };
}
