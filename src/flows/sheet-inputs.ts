/**
 * The hook between the input reading of `validate` and `submit` and the sheet code: a
 * `.csv`, `.xlsx` (or `-` with `--format`) becomes one report per row. Loaded only when an
 * input is a sheet, so JSON-only runs start as before. submit reads its sheets twice (plan,
 * then send), so that a sheet of a million rows is never held (issue 22).
 */
import { ExitCode, UsageError } from '../errors.js';
import { type SheetOptions, type SheetReport, checkSheet, problemOfSheet } from '../sheets/check-sheet.js';
import { type SheetFormat, sheetFormatOf } from '../sheets/kind.js';
import { type Spooled, spoolToFile } from '../sheets/spool.js';
import { type Message, msg } from '../i18n/index.js';
import type { StdinReader } from './inputs.js';
import { type SheetInput, type SubmitInputs, createPlanner } from './run-submit.js';
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

type ReadOptions = SheetInputOptions & { cwd: string };

/**
 * submit's reading of its inputs, in order: JSON files as before (or their report from
 * `held`, by the source's place), each sheet as one report per data row (cells kept for the
 * results sheet). The header entries are not submissions: a sound header goes to
 * `onHeader` (its warnings and notes are shown once), a header with problems is a failed
 * report of the file. `--row` keeps that row of each sheet only.
 */
async function* readReports(
  sources: readonly Source[],
  options: ReadOptions,
  onHeader: (report: SheetReport, format: SheetFormat, source: number) => void,
  held: ReadonlyMap<number, FileReport>,
): AsyncGenerator<{ report: FileReport; source: number }> {
  for (const [at, source] of sources.entries()) {
    const format = sheetFormatOf(source.file, options.format);
    if (format === undefined) {
      yield { report: held.get(at) ?? checkSource(source, { ...options, stdin: options.stdin as StdinReader }), source: at };
      continue;
    }
    for await (const report of onlyRow(checkSheetSource(source, { ...options, keepCells: true, keepValues: true }), options.row, source.file)) {
      const row = report as SheetReport;
      if (row.header) {
        if (typeof format === 'string') onHeader(row, format, at);
        if (row.ok) continue;
      }
      yield { report, source: at };
    }
  }
}

/**
 * `--row <n>` (validate and submit): of a sheet's reports, the header's and row n's only. A
 * sheet without that data row is a usage error (exit 2) naming the row and the file.
 */
export async function* onlyRow<T extends FileReport>(reports: AsyncIterable<T>, row: number | undefined, file: string): AsyncGenerator<T> {
  if (row === undefined) {
    yield* reports;
    return;
  }
  let found = false;
  for await (const report of reports) {
    if (report.row !== undefined && !report.header && report.row !== row) continue;
    if (report.row === row && !(report.header && report.ok)) found = true;
    yield report;
  }
  if (!found) throw new UsageError(msg('sheet.noDataRow', { row, file }), msg('sheet.noDataRowHint'));
}

/**
 * submit's inputs when one is a sheet: read once to plan (each report shown to `onReport`
 * as it comes, header notes included; the ids counted, the rows not kept), then again, row
 * by row, as the batch sends. The JSON files among them are small and held as before (read
 * once). A sheet on standard input is copied to a temporary file, to be read twice.
 */
export async function readSheetInputs(sources: readonly Source[], options: ReadOptions, onReport: (report: FileReport) => void): Promise<SubmitInputs> {
  const stdin = options.stdin as { isTTY?: boolean } & AsyncIterable<Buffer | string>;
  let spooled: Spooled | undefined;
  // What is read: standard input's sheet from its copy. What is shown stays `-`.
  const read: Source[] = [];
  for (const source of sources) {
    if (source.absolute !== null || sheetFormatOf(source.file, options.format) === undefined || stdin.isTTY) {
      read.push(source);
      continue;
    }
    try {
      spooled ??= await spoolToFile(stdin);
      read.push({ ...source, absolute: spooled.path });
    } catch (error) {
      read.push({ ...source, problem: problemOfSheet(error, source).message });
    }
  }
  const close = (): void => spooled?.remove();
  try {
    const planner = createPlanner();
    const sheets: SheetInput[] = [];
    const held = new Map<number, FileReport>();
    const onHeader = (header: SheetReport, format: SheetFormat, at: number): void => {
      if (header.cells && !sheets.some((s) => s.file === header.file)) {
        sheets.push({ file: header.file, absolute: (sources[at] as Source).absolute, format, header: header.cells, headerRow: header.row, rows: 0 });
      }
      if (header.ok && (header.warnings.length > 0 || header.notes?.length)) onReport(header);
    };
    for await (const { report, source } of readReports(read, options, onHeader, held)) {
      planner.add(report);
      onReport(report);
      if (sheetFormatOf(report.file, options.format) === undefined) held.set(source, report);
      else if (!report.header) {
        const sheet = sheets.find((s) => s.file === report.file);
        if (sheet) sheet.rows += 1;
      }
    }
    async function* reports(): AsyncGenerator<FileReport> {
      for await (const { report } of readReports(read, options, () => undefined, held)) yield report;
    }
    return { plan: planner.plan(), sheets, reports, close };
  } catch (error) {
    close();
    throw error;
  }
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
