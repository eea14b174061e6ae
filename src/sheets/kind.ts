/**
 * Which inputs are spreadsheets. Import-light on purpose: every run of validate and submit
 * asks this, and only a sheet loads the readers (and exceljs with them).
 */
export type SheetFormat = 'csv' | 'xlsx';

/** Formats people have that are not read, and what to say about them. */
const OLD_FORMATS = ['.xls', '.xlsm', '.xlsb', '.ods', '.numbers'];

/**
 * The sheet format of an input: by its extension, or `--format` for `-` (stdin). An
 * unread spreadsheet format (.xls, .ods...) is returned as `unsupported` to be refused clearly.
 */
export function sheetFormatOf(file: string, format: SheetFormat | undefined): SheetFormat | { unsupported: string } | undefined {
  if (file === '-') return format;
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv') || lower.endsWith('.txt') && format === 'csv') return 'csv';
  if (lower.endsWith('.xlsx')) return 'xlsx';
  const old = OLD_FORMATS.find((ext) => lower.endsWith(ext));
  return old ? { unsupported: old } : undefined;
}

export function isSheetInput(file: string, format: SheetFormat | undefined): boolean {
  return sheetFormatOf(file, format) !== undefined;
}
