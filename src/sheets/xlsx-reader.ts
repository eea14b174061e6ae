/**
 * Rows of an .xlsx workbook through exceljs's streaming reader: one row at a time, so a
 * 10,000-row sheet is read in bounded memory (the whole-workbook reader took 320 MiB for
 * it). Shared strings and styles are cached (styles tell a date cell from a number);
 * formulas come as `{formula, result}` with the value Excel last computed.
 *
 * The streaming reader does not report merged cells (exceljs ignores `mergeCell` there):
 * a merged title above the header is found by looking for the header row, and a merged
 * row inside the data reads as a row with one filled cell (docs/spreadsheets.md).
 */
import type { Readable } from 'node:stream';
import { type RawRow, SheetReadError } from './csv-reader.js';

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
export async function* readXlsxRows(input: string | Readable, sheet: string | undefined): AsyncGenerator<RawRow> {
  const ExcelJS = await loadExcelJs();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input as string, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const seen: string[] = [];
  const wanted = sheet?.trim().toLowerCase();
  try {
    for await (const worksheet of reader as unknown as AsyncIterable<StreamWorksheet>) {
      const name = worksheet.name ?? `Sheet${worksheet.id}`;
      seen.push(name);
      if (wanted !== undefined && name.trim().toLowerCase() !== wanted) {
        // Read past it: the zip is one stream, and the next sheet comes after this one.
        for await (const _ of worksheet) void _;
        continue;
      }
      for await (const row of worksheet) {
        // exceljs gives `values` 1-based (index 0 empty), as a sparse array.
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        yield { row: row.number, cells: values };
      }
      return;
    }
  } catch (error) {
    if (error instanceof SheetReadError) throw error;
    throw new SheetReadError({ kind: 'bad-xlsx', reason: (error as Error).message });
  }
  if (wanted !== undefined) throw new SheetReadError({ kind: 'no-sheet', name: sheet as string, names: seen });
  throw new SheetReadError({ kind: 'bad-xlsx', reason: 'no worksheet' });
}

/** exceljs is CommonJS: its exports are the default export when imported. */
export async function loadExcelJs(): Promise<typeof import('exceljs')> {
  const mod = await import('exceljs');
  return (mod as unknown as { default?: typeof mod }).default ?? mod;
}
