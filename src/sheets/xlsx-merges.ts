/**
 * The merged ranges of a worksheet. exceljs's streaming reader skips `<mergeCell>` (and the
 * sheet's XML lists them after its rows), so they are read beforehand from the worksheet's
 * own part of the zip, through unzipper (the zip reader exceljs's streaming reader is built
 * on): a random-access read of that one part, inflated as a stream, so memory stays small.
 * A merged row inside the data (a section title) is then skipped with a note instead of
 * read as a submission with every field missing.
 */
export interface MergedRange {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const MERGE_CELL = /<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?"/g;

function columnNumber(letters: string): number {
  let n = 0;
  for (const char of letters) n = n * 26 + (char.charCodeAt(0) - 64);
  return n;
}

/**
 * The merged ranges of the worksheet exceljs numbers `sheetId` (it reads worksheets from
 * `xl/worksheets/sheet<N>.xml` only). None when the part is missing.
 */
export async function readMergedRanges(path: string, sheetId: number | string): Promise<MergedRange[]> {
  // unzipper is CommonJS: its exports are the default export when imported (as exceljs's are).
  const unzipper = await import('unzipper');
  const { Open } = (unzipper as unknown as { default?: typeof unzipper }).default ?? unzipper;
  const directory = await Open.file(path);
  const entry = directory.files.find((file) => file.path === `xl/worksheets/sheet${sheetId}.xml`);
  if (entry === undefined) return [];
  const ranges: MergedRange[] = [];
  const take = (text: string): void => {
    for (const m of text.matchAll(MERGE_CELL)) {
      const left = columnNumber(m[1] as string);
      const top = Number(m[2]);
      ranges.push({ top, left, right: m[3] ? columnNumber(m[3]) : left, bottom: m[4] ? Number(m[4]) : top });
    }
  };
  // Latin-1 keeps every byte one character (a chunk may cut a UTF-8 character; the refs are ASCII).
  let rest = '';
  for await (const chunk of entry.stream()) {
    const text = rest + (chunk as Buffer).toString('latin1');
    // Tags are read whole: what follows the last '<' waits for the next chunk.
    const cut = text.lastIndexOf('<');
    take(cut === -1 ? text : text.slice(0, cut));
    rest = cut === -1 ? '' : text.slice(cut);
  }
  take(rest);
  return ranges;
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
