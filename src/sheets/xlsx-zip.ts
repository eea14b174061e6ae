/**
 * An .xlsx is a zip of XML parts. Before exceljs's streaming reader is given one, every
 * part is inflated once here, as a stream, through unzipper (the zip reader exceljs's
 * streaming reader is built on), and measured, so that what exceljs then reads is bounded:
 *
 * - a file that is not a zip, or a damaged one (exceljs could stop without settling its
 *   promise: the run ended with exit 70 and "Detected unsettled top-level await"), is
 *   refused naming the part;
 * - a zip bomb is refused as it inflates, naming its part: the workbook past 1 GiB
 *   expanded, or a part past 200 times its compressed size (once past 1 MiB; real
 *   workbooks stay under 15 times);
 * - a cell past 256 KiB of XML (Excel holds at most 32,767 characters in a cell) is refused
 *   naming the cell (`A2`), a shared string naming its part: exceljs joins a cell's text
 *   piece by piece, and a 20 MB cell took 14 s.
 *
 * The same pass reads the merged ranges of each worksheet (exceljs's streaming reader skips
 * `<mergeCell>`, which the sheet's XML lists after its rows; xlsx-merges.ts). Every scan
 * is linear: text between tags is counted, never gathered.
 */
import { open } from 'node:fs/promises';
import { SheetReadError } from './csv-reader.js';
import { type MergedRange, rangeOf } from './xlsx-merges.js';

/** The limits of a workbook: docs/spreadsheets.md, "Limits". */
export const XLSX_LIMITS = {
  /** Every part together, inflated. */
  workbookBytes: 1024 * 1024 * 1024,
  /** A part may expand this many times its compressed size... */
  ratio: 200,
  /** ...once it is past this size. */
  ratioFloorBytes: 1024 * 1024,
  /** One cell's XML (or one shared string's). */
  cellBytes: 256 * 1024,
};

export type XlsxLimits = typeof XLSX_LIMITS;

/** What the inspection learnt: the merged ranges of each worksheet, by exceljs's sheet number. */
export interface WorkbookZip {
  merges(sheetId: number | string): MergedRange[];
}

interface ZipEntry {
  path: string;
  type: 'File' | 'Directory';
  compressedSize: number;
  uncompressedSize: number;
  stream(): AsyncIterable<Buffer> & { destroy(): void };
}

const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;
const SHARED_STRINGS = 'xl/sharedStrings.xml';

/** Check every part of the workbook at `path` (throws SheetReadError); the merged ranges of its sheets. */
export async function inspectXlsx(path: string, limits: XlsxLimits = XLSX_LIMITS): Promise<WorkbookZip> {
  const entries = await openZip(path);
  const merges = new Map<string, MergedRange[]>();
  let total = 0;
  for (const entry of entries) {
    if (entry.type === 'Directory') continue;
    // The sizes the zip declares are checked first (a bomb that says so is refused at once),
    // then the bytes as they inflate (one that lies is refused when it passes them).
    const bomb = (expanded: number): SheetReadError | undefined => {
      if (total + expanded > limits.workbookBytes) return new SheetReadError({ kind: 'zip-bomb', part: entry.path, limit: limits.workbookBytes, ratio: null });
      if (expanded > limits.ratioFloorBytes && expanded > limits.ratio * Math.max(1, entry.compressedSize)) {
        return new SheetReadError({ kind: 'zip-bomb', part: entry.path, limit: null, ratio: limits.ratio });
      }
      return undefined;
    };
    const declared = bomb(entry.uncompressedSize);
    if (declared) throw declared;
    const sheet = WORKSHEET.exec(entry.path)?.[1];
    const scanner = sheet !== undefined ? new PartScanner(entry.path, 'c', limits.cellBytes) : entry.path === SHARED_STRINGS ? new PartScanner(entry.path, 'si', limits.cellBytes) : undefined;
    const stream = entry.stream();
    let expanded = 0;
    try {
      for await (const chunk of stream) {
        expanded += chunk.length;
        const tooBig = bomb(expanded);
        if (tooBig) throw tooBig;
        scanner?.write(chunk);
      }
    } catch (error) {
      stream.destroy();
      if (error instanceof SheetReadError) throw error;
      throw new SheetReadError({ kind: 'bad-xlsx', reason: `${entry.path}: ${(error as Error).message}` });
    }
    scanner?.end();
    total += expanded;
    if (sheet !== undefined && scanner) merges.set(sheet, scanner.merges);
  }
  return { merges: (sheetId) => merges.get(String(sheetId)) ?? [] };
}

/** The zip's entries from its central directory: not a zip, or a damaged one, is a SheetReadError. */
async function openZip(path: string): Promise<ZipEntry[]> {
  // A zip starts with a local file header ("PK\3\4"), or is an empty zip ("PK\5\6").
  const file = await open(path, 'r');
  const start = Buffer.alloc(4);
  try {
    await file.read(start, 0, 4, 0);
  } finally {
    await file.close();
  }
  if (start.toString('latin1', 0, 2) !== 'PK') throw new SheetReadError({ kind: 'not-zip' });
  // unzipper is CommonJS: its exports are the default export when imported (as exceljs's are).
  const unzipper = await import('unzipper');
  const { Open } = (unzipper as unknown as { default?: typeof unzipper }).default ?? unzipper;
  try {
    return (await Open.file(path)).files as ZipEntry[];
  } catch (error) {
    throw new SheetReadError({ kind: 'bad-xlsx', reason: (error as Error).message });
  }
}

const REF = /\br="([A-Z]+\d+)"/;
const MERGE_REF = /\bref="([A-Z]+\d+(?::[A-Z]+\d+)?)"/;

/**
 * Reads one part chunk by chunk: each `item` (a cell `c` of a worksheet, a string `si` of
 * the shared strings) is measured from its opening tag to its closing one, and refused as
 * soon as it passes `limit`; a worksheet's `<mergeCell>` ranges are kept. Plain string
 * searches (indexOf), a few per item: a regular expression over every tag took 20 times as
 * long. Latin-1 keeps every byte one character (a chunk may cut a UTF-8 character; tags and
 * refs are ASCII), so lengths are bytes.
 */
class PartScanner {
  readonly merges: MergedRange[] = [];
  /** Where the text of the current chunk (after `pending`) starts, in the part. */
  private offset = 0;
  /** A tag cut by the end of a chunk, waiting for the rest. */
  private pending = '';
  /** The item being read across chunks: where it started, and its opening tag. */
  private open: { at: number; tag: string } | undefined;
  private strings = 0;
  private openTag = '';
  private closeTag = '';

  constructor(
    private readonly part: string,
    private readonly item: 'c' | 'si',
    private readonly limit: number,
  ) {}

  write(chunk: Buffer): void {
    let text = this.pending + chunk.toString('latin1');
    if (this.openTag === '') {
      // The tags' namespace prefix, as the root element has it (`<x:worksheet>` makes `<x:c>`).
      const prefix = /<(\w+:)?(?:worksheet|sst)\b/.exec(text)?.[1] ?? '';
      this.openTag = `<${prefix}${this.item}`;
      this.closeTag = `</${prefix}${this.item}>`;
    }
    // Tags are read whole: one whose '>' has not come yet waits for the next chunk.
    const last = text.lastIndexOf('<');
    const cut = last !== -1 && text.indexOf('>', last) === -1 ? last : text.length;
    this.pending = text.slice(cut);
    if (cut < text.length) text = text.slice(0, cut);
    this.scan(text);
    this.offset += text.length;
    if (this.open && this.offset + this.pending.length - this.open.at > this.limit) throw this.tooLarge(this.open.tag);
    if (this.pending.length > this.limit) throw this.tooLarge('');
  }

  end(): void {
    if (this.open) throw new SheetReadError({ kind: 'bad-xlsx', reason: `${this.part} ends inside ${this.open.tag}` });
  }

  private scan(text: string): void {
    let from = 0;
    if (this.open) {
      const close = text.indexOf(this.closeTag);
      if (close === -1) return;
      if (this.offset + close + this.closeTag.length - this.open.at > this.limit) throw this.tooLarge(this.open.tag);
      this.open = undefined;
      from = close + this.closeTag.length;
    }
    for (let at = text.indexOf(this.openTag, from); at !== -1; at = text.indexOf(this.openTag, from)) {
      // `<c ` or `<c>`, not `<col` or `<cfRule`.
      const next = text.charCodeAt(at + this.openTag.length);
      const end = text.indexOf('>', at);
      from = end + 1;
      if (next !== 0x20 && next !== 0x3e && next !== 0x2f) continue;
      this.strings += 1;
      if (text.charCodeAt(end - 1) === 0x2f) continue;
      const close = text.indexOf(this.closeTag, end);
      if (close === -1) {
        this.open = { at: this.offset + at, tag: text.slice(at, end + 1) };
        return;
      }
      from = close + this.closeTag.length;
      if (from - at > this.limit) throw this.tooLarge(text.slice(at, end + 1));
    }
    if (this.item === 'c') {
      for (let at = text.indexOf('mergeCell ', from); at !== -1; at = text.indexOf('mergeCell ', at + 10)) {
        const ref = MERGE_REF.exec(text.slice(at, text.indexOf('>', at)))?.[1];
        if (ref) this.merges.push(rangeOf(ref));
      }
    }
  }

  private tooLarge(tag: string): SheetReadError {
    const cell = this.item === 'c' ? (REF.exec(tag)?.[1] ?? null) : null;
    const string = this.item === 'si' && tag !== '' ? this.strings : null;
    return new SheetReadError({ kind: 'cell-too-large', part: this.part, cell, string, limit: this.limit });
  }
}
