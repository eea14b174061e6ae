/**
 * CSV as Excel in Brazil writes it: `;` (the Brazilian Excel default, since `,` is the
 * decimal mark), `,` or tab; UTF-8 with or without a byte order mark, or Windows-1252
 * ("CSV (separado por vírgulas)" in a Portuguese Excel); CRLF; quoted fields with
 * separators, quotes and line breaks inside. Streamed: one record at a time, so memory does
 * not grow with the file. csv-split.ts does the quoting rules; this file detects the
 * encoding and the separator, from the first 64 KiB.
 */
import { TextDecoder } from 'node:util';
import { CsvQuoteError, CsvSplitter } from './csv-split.js';

export interface RawRow {
  /** The row as the spreadsheet shows it: the header is row 1. */
  row: number;
  cells: unknown[];
  /** An xlsx row whose filled cells all lie in ranges merged across columns (a title): skipped. */
  merged?: boolean;
}

export type SheetProblem =
  | { kind: 'not-utf8' }
  | { kind: 'bad-csv'; line: number; reason: string }
  | { kind: 'bad-xlsx'; reason: string }
  | { kind: 'no-sheet'; name: string; names: string[] };

/** A file that cannot be read as a sheet; `row` when the trouble starts at a known row. */
export class SheetReadError extends Error {
  constructor(
    readonly problem: SheetProblem,
    readonly row?: number,
  ) {
    super(problem.kind);
    this.name = 'SheetReadError';
  }
}

const SAMPLE_BYTES = 64 * 1024;

export type CsvEncoding = 'utf-8' | 'windows-1252';

/**
 * UTF-8 when the sample decodes as UTF-8 (a strict decode; `stream` so that a character cut
 * at the end of the sample does not count), else Windows-1252: the two encodings Excel
 * writes CSV in. Every byte sequence is valid Windows-1252, so it is the fallback.
 */
export function detectEncoding(sample: Uint8Array): CsvEncoding {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The separator of the header line: the most frequent of `;`, `,` and tab outside quotes (`;` on a tie). */
export function detectDelimiter(text: string): string {
  const counts: Record<string, number> = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char in counts) counts[char] = (counts[char] as number) + 1;
  }
  let best = ';';
  for (const candidate of ['\t', ',', ';']) if ((counts[candidate] as number) > (counts[best] as number)) best = candidate;
  return best;
}

/**
 * Decode the byte chunks into text: the encoding chosen from the first 64 KiB, a UTF-8
 * byte order mark dropped. A file whose start is UTF-8 and a later part is not fails there.
 */
async function* decode(chunks: AsyncIterable<Buffer | string>, onEncoding: (encoding: CsvEncoding) => void, rowNow: () => number): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let decoder: TextDecoder | undefined;
  const start = (): string => {
    const sample = Buffer.concat(pending);
    pending = [];
    const bom = sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf;
    const encoding = bom ? 'utf-8' : detectEncoding(sample);
    onEncoding(encoding);
    decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8', ignoreBOM: false });
    return decoder.decode(sample, { stream: true });
  };
  const step = (chunk: Buffer): string => {
    try {
      return (decoder as TextDecoder).decode(chunk, { stream: true });
    } catch {
      throw new SheetReadError({ kind: 'not-utf8' }, rowNow());
    }
  };
  for await (const raw of chunks) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    if (decoder === undefined) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= SAMPLE_BYTES) yield start();
      continue;
    }
    const text = step(chunk);
    if (text) yield text;
  }
  if (decoder === undefined) {
    const text = start();
    if (text) yield text;
  }
  try {
    const rest = (decoder as TextDecoder).decode();
    if (rest) yield rest;
  } catch {
    throw new SheetReadError({ kind: 'not-utf8' }, rowNow());
  }
}

/**
 * The records of a CSV, each with its row number (the first record is row 1). Records are
 * given as they are, empty ones included: the caller decides what an empty row means.
 */
export async function* readCsvRows(chunks: AsyncIterable<Buffer | string>, onEncoding: (encoding: CsvEncoding, delimiter: string) => void = () => undefined): AsyncGenerator<RawRow> {
  let row = 0;
  let encoding: CsvEncoding = 'utf-8';
  let splitter: CsvSplitter | undefined;
  try {
    for await (const text of decode(chunks, (found) => (encoding = found), () => row + 1)) {
      if (splitter === undefined) {
        // The separator comes from the first decoded text (64 KiB, or the whole file when smaller).
        const delimiter = detectDelimiter(text);
        onEncoding(encoding, delimiter);
        splitter = new CsvSplitter(delimiter);
      }
      for (const cells of splitter.push(text, false)) yield { row: ++row, cells };
    }
    if (splitter !== undefined) for (const cells of splitter.push('', true)) yield { row: ++row, cells };
  } catch (error) {
    if (error instanceof CsvQuoteError) throw new SheetReadError({ kind: 'bad-csv', line: error.line, reason: error.message }, row + 1);
    throw error;
  }
}
