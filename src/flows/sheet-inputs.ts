/**
 * The hook between the input reading of `validate` and `submit` and the sheet code: a
 * `.csv`, `.xlsx` (or `-` with `--format`) becomes one report per row. Loaded only when an
 * input is a sheet, so JSON-only runs start as before.
 */
import { ExitCode, UsageError } from '../errors.js';
import { type SheetOptions, type SheetReport, checkSheet } from '../sheets/check-sheet.js';
import { type SheetFormat, sheetFormatOf } from '../sheets/kind.js';
import { type Message, msg } from '../i18n/index.js';
import type { StdinReader } from './inputs.js';
import { checkSource } from './validate-files.js';
import type { Source, FileReport } from '../domain/report.js';

export type { SheetReport } from '../sheets/check-sheet.js';

export interface SheetInputOptions extends Omit<SheetOptions, 'stdin'> {
  stdin: StdinReader | NodeJS.ReadableStream;
  format?: SheetFormat | undefined;
  /** Only this row of each sheet (`--row`). */
  row?: number | undefined;
}

/** Every report of one sheet source, in order (a header entry, then one per data row). */
export async function* checkSheetSource(source: Source, options: SheetInputOptions): AsyncGenerator<FileReport | SheetReport> {
  const format = sheetFormatOf(source.file, options.format);
  if (format === undefined) return;
  if (typeof format === 'object') {
    const message = msg('sheet.oldFormat', { ext: format.unsupported });
    yield { file: source.file, ok: false, errors: [{ path: '(file)', message }], warnings: [], exitCode: ExitCode.usage };
    return;
  }
  yield* checkSheet(source, format, { ...options, stdin: options.stdin as SheetOptions['stdin'] });
}

/** A sheet given to submit: where its rows' results go back. */
export interface SheetInput {
  file: string;
  absolute: string | null;
  format: SheetFormat;
  /** The header as the sheet shows it, by column. */
  header: string[];
  /** The row number of the header. */
  headerRow: number;
}

/**
 * submit's reading of its inputs: JSON files as before, each sheet as one report per data
 * row (cells kept for the results sheet). The header entries are not submissions: a
 * header with problems becomes a failed report of the file.
 */
export async function validateInputs(
  sources: readonly Source[],
  options: SheetInputOptions & { cwd: string },
): Promise<{ reports: FileReport[]; notices: FileReport[]; sheets: SheetInput[] }> {
  const reports: FileReport[] = [];
  const notices: FileReport[] = [];
  const sheets: SheetInput[] = [];
  for (const source of sources) {
    const format = sheetFormatOf(source.file, options.format);
    if (format === undefined) {
      reports.push(checkSource(source, { ...options, stdin: options.stdin as StdinReader }));
      continue;
    }
    for await (const report of checkSheetSource(source, { ...options, keepCells: true, keepValues: true })) {
      const row = report as SheetReport;
      if (row.header) {
        if (typeof format === 'string' && row.cells && !sheets.some((s) => s.file === source.file)) {
          sheets.push({ file: source.file, absolute: source.absolute, format, header: row.cells, headerRow: row.row });
        }
        // A sound header is no submission; its warnings and notes are still shown.
        if (row.ok) {
          if (row.warnings.length > 0 || row.notes?.length) notices.push(row);
          continue;
        }
      }
      if (options.row !== undefined && row.row !== undefined && row.row !== options.row && !row.header) continue;
      reports.push(report);
    }
    if (options.row !== undefined && !reports.some((r) => r.file === source.file && r.row === options.row)) {
      throw new UsageError(msg('sheet.noDataRow', { row: options.row, file: source.file }), msg('sheet.noDataRowHint'));
    }
  }
  return { reports, notices, sheets };
}

/**
 * The document one row of a sheet makes, as its cells give it (before normalisation): what
 * `submit -i --file planilha.xlsx --row 7` starts the wizard from.
 */
export async function documentOfRow(source: Source, row: number, options: SheetInputOptions): Promise<Record<string, unknown>> {
  const problems: Message[] = [];
  for await (const report of checkSheetSource(source, { ...options, keepDocument: true })) {
    const entry = report as SheetReport;
    if (entry.row === row && entry.document) return entry.document;
    if (!entry.ok && (entry.header || entry.row === undefined)) problems.push(...entry.errors.map((e) => e.message));
  }
  if (problems.length > 0) throw new UsageError(msg('sheet.cannotPrefill', { file: source.file, problems: { items: problems, separator: '; ' } }), msg('sheet.cannotPrefillHint'));
  throw new UsageError(msg('sheet.noDataRow', { row, file: source.file }), msg('sheet.noDataRowHint'));
}
