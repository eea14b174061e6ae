/**
 * Rows of an .xlsx workbook through exceljs's streaming reader: one row at a time, so a
 * 10,000-row sheet is read in bounded memory (the whole-workbook reader took 320 MiB for
 * it). Shared strings and styles are cached (styles tell a date cell from a number);
 * formulas come as `{formula, result}` with the value Excel last computed.
 *
 * Before exceljs reads a workbook, every part of its zip is inflated once and measured
 * (xlsx-zip.ts): a damaged zip, a zip bomb and a cell too large are refused there, naming
 * the part or the cell. The same pass reads the merged cells, which the streaming reader
 * does not report (exceljs ignores `mergeCell` there): a row whose filled cells all lie in
 * ranges merged across columns is marked `merged`. A merged title above the header is also
 * found by looking for the header row (docs/spreadsheets.md). Standard input is copied to a
 * temporary file first (spool.ts): the zip is read twice.
 */
import { type RawRow, SheetReadError } from './csv-reader.js';
import { isMergedRow } from './xlsx-merges.js';
import { spoolToFile } from './spool.js';
import { type WorkbookZip, inspectXlsx } from './xlsx-zip.js';

interface StreamRow {
  number: number;
  values: unknown[] | Record<string, unknown>;
}

interface StreamWorksheet extends AsyncIterable<StreamRow> {
  name?: string;
  id: number | string;
}

/**
 * The rows of the first worksheet, or of the one named `sheet` (case and surrounding
 * spaces ignored). Row numbers are the sheet's own; rows Excel did not store are absent.
 */
export async function* readXlsxRows(input: string | AsyncIterable<Buffer | string>, sheet: string | undefined): AsyncGenerator<RawRow> {
  if (typeof input !== 'string') {
    const spooled = await spoolToFile(input);
    try {
      yield* readXlsxRows(spooled.path, sheet);
    } finally {
      spooled.remove();
    }
    return;
  }
  const zip = await inspectXlsx(input);
  // exceljs's streaming reader loses, now and then, the workbook part that Excel and exceljs
  // store last, and then fails on a sound file with "reading 'sheets'" (exceljs issue #3064,
  // a race in its single pass over the zip; open upstream). A file is read again, at most
  // twice more, as long as no row has been handed on.
  for (let attempt = 1; ; attempt++) {
    let handedOn = false;
    try {
      for await (const row of readXlsxRowsOnce(input, sheet, zip)) {
        handedOn = true;
        yield row;
      }
      return;
    } catch (error) {
      const lostWorkbook = error instanceof SheetReadError && error.problem.kind === 'bad-xlsx' && /reading 'sheets'/.test(error.problem.reason);
      if (!lostWorkbook || handedOn || attempt === 3) throw error;
    }
  }
}

async function* readXlsxRowsOnce(input: string, sheet: string | undefined, zip: WorkbookZip): AsyncGenerator<RawRow> {
  const ExcelJS = await loadExcelJs();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const seen: string[] = [];
  const wanted = sheet?.trim().toLowerCase();
  // Iterated by hand: exceljs removes a worksheet's temporary file (it keeps one when the
  // sheet comes before the shared strings in the zip, as Excel and LibreOffice write it)
  // only when asked for the next worksheet. So the reader is always read to its end, also
  // when the caller stops early; worksheets not wanted are read and dropped.
  const worksheets = (reader as unknown as AsyncIterable<StreamWorksheet>)[Symbol.asyncIterator]();
  let rows: AsyncIterator<StreamRow> | undefined;
  let found = false;
  try {
    for (;;) {
      const next = await worksheets.next();
      if (next.done) break;
      const worksheet = next.value;
      const name = worksheet.name ?? `Sheet${worksheet.id}`;
      seen.push(name);
      if (found || (wanted !== undefined && name.trim().toLowerCase() !== wanted)) {
        await drain(worksheet);
        continue;
      }
      found = true;
      const merges = zip.merges(worksheet.id);
      rows = worksheet[Symbol.asyncIterator]();
      for (;;) {
        const row = await rows.next();
        if (row.done) break;
        // exceljs gives `values` 1-based (index 0 empty), as a sparse array.
        const values = Array.isArray(row.value.values) ? row.value.values.slice(1) : [];
        const merged = merges.length > 0 && isMergedRow(row.value.number, values, merges, isFilled);
        yield merged ? { row: row.value.number, cells: values, merged } : { row: row.value.number, cells: values };
      }
      rows = undefined;
    }
  } catch (error) {
    if (error instanceof SheetReadError) throw error;
    throw new SheetReadError({ kind: 'bad-xlsx', reason: (error as Error).message });
  } finally {
    await finishReading(rows, worksheets);
  }
  if (!found && wanted !== undefined) throw new SheetReadError({ kind: 'no-sheet', name: sheet as string, names: seen });
  if (!found) throw new SheetReadError({ kind: 'bad-xlsx', reason: 'no worksheet' });
}

const FILLED = /\S/;

/** A cell with something in it (a merged range's other cells are empty). */
function isFilled(cell: unknown): boolean {
  if (cell === null || cell === undefined) return false;
  return typeof cell === 'string' ? FILLED.test(cell) : true;
}

/**
 * Read a worksheet not wanted to its end. Skipping it unread is not safe: exceljs opens a
 * stream on its temporary copy and then deletes the file, and a stream never read can fail
 * on the missing file with nobody listening (the process then dies).
 */
async function drain(worksheet: StreamWorksheet): Promise<void> {
  for await (const _ of worksheet) void _;
}

/** After an early stop: close the sheet being read, then let exceljs go through the rest (and clean up). */
async function finishReading(rows: AsyncIterator<StreamRow> | undefined, worksheets: AsyncIterator<StreamWorksheet>): Promise<void> {
  try {
    await rows?.return?.();
    for (;;) {
      const next = await worksheets.next();
      if (next.done) break;
      await drain(next.value);
    }
  } catch {
    // The file is broken past the part that was read: nothing more to clean here.
  }
}

/** exceljs is CommonJS: its exports are the default export when imported. */
export async function loadExcelJs(): Promise<typeof import('exceljs')> {
  const mod = await import('exceljs');
  return (mod as unknown as { default?: typeof mod }).default ?? mod;
}
