/**
 * Merged cells. exceljs's streaming reader skips `<mergeCell>` (and the sheet's XML lists
 * them after its rows), so they are read beforehand, in the pass over the workbook's zip
 * (xlsx-zip.ts). A merged row inside the data (a section title) is then skipped with a
 * note instead of read as a submission with every field missing.
 */
export interface MergedRange {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** `A` → 1, `AB` → 28. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const char of letters) n = n * 26 + (char.charCodeAt(0) - 64);
  return n;
}

/** The range of a `<mergeCell ref="A3:V3">` (a single cell `B2` too). */
export function rangeOf(ref: string): MergedRange {
  const m = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/.exec(ref);
  if (m === null) return { top: 0, bottom: 0, left: 0, right: 0 };
  const left = columnNumber(m[1] as string);
  const top = Number(m[2]);
  return { top, left, right: m[3] ? columnNumber(m[3]) : left, bottom: m[4] ? Number(m[4]) : top };
}

/**
 * A row is a merged row when it has filled cells and each of them lies in a range merged
 * across two columns or more (a title over the row). A data row with a few merged cells
 * still has cells of its own, and is read as a row.
 */
export function isMergedRow(row: number, cells: readonly unknown[], ranges: readonly MergedRange[], filled: (cell: unknown) => boolean): boolean {
  const across = ranges.filter((r) => r.top <= row && row <= r.bottom && r.right > r.left);
  if (across.length === 0) return false;
  let any = false;
  for (let i = 0; i < cells.length; i++) {
    if (!filled(cells[i])) continue;
    const column = i + 1;
    if (!across.some((r) => r.left <= column && column <= r.right)) return false;
    any = true;
  }
  return any;
}
