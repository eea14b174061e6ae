/**
 * CSV as Excel in Brazil writes it: `;` (the Brazilian Excel default, since `,` is the
 * decimal mark), `,` or tab; UTF-8 with or without a byte order mark, Windows-1252
 * ("CSV (separado por vírgulas)" in a Portuguese Excel), or UTF-16 with its byte order mark
 * ("Texto Unicode"); CRLF; quoted fields with
 * separators, quotes and line breaks inside. Streamed: one chunk at a time, so memory does
 * not grow with the file. csv-parse does the quoting rules; this file detects the encoding
 * and the separator, from the first 64 KiB.
 */
import { TextDecoder } from 'node:util';
import { CsvError, type Parser, parse } from 'csv-parse';

export interface RawRow {
  /** The row as the spreadsheet shows it: the header is row 1. */
  row: number;
  cells: unknown[];
  /** An xlsx row whose filled cells all lie in ranges merged across columns (a title): skipped. */
  merged?: boolean;
}

export type SheetProblem =
  | { kind: 'not-utf8' }
  /** A byte no text encoding we read has (a NUL): a binary file, or UTF-16 without its byte order mark. */
  | { kind: 'not-text'; offset: number; line: number }
  /** A byte order mark of an encoding that is not read (UTF-32). */
  | { kind: 'unknown-encoding'; name: string }
  | { kind: 'quote-not-closed'; line: number }
  | { kind: 'bad-csv'; line: number; reason: string }
  | { kind: 'bad-xlsx'; reason: string }
  /** A `.xlsx` that is not a zip at all (an .xls, a CSV or a web page renamed). */
  | { kind: 'not-zip' }
  /** A part that inflates past the workbook's limit (`limit`), or past `ratio` times its compressed size. */
  | { kind: 'zip-bomb'; part: string; limit: number | null; ratio: number | null }
  /** A cell (`A2`) or a shared string (its number) past `limit` bytes of XML. */
  | { kind: 'cell-too-large'; part: string; cell: string | null; string: number | null; limit: number }
  /** Standard input copied to a file (a sheet read twice, or an xlsx) past `limit` bytes. */
  | { kind: 'stdin-too-large'; limit: number }
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

export type CsvEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

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
 * The encoding a byte order mark names: UTF-8 or UTF-16 (read), UTF-32 (refused, named).
 * UTF-32 LE's mark starts with UTF-16 LE's, so it is looked at first.
 */
function encodingOfBom(sample: Uint8Array): CsvEncoding | { unknown: string } | undefined {
  const [a, b, c, d] = sample;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return { unknown: 'UTF-32 LE' };
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return { unknown: 'UTF-32 BE' };
  if (a === 0xef && b === 0xbb && c === 0xbf) return 'utf-8';
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * Text holds no NUL byte in UTF-8 or Windows-1252: one in the sample is a binary file (an
 * xlsx renamed .csv) or UTF-16 without its mark, which would otherwise read as one column
 * of noise ("missing columns"). Named by its offset and line.
 */
function notText(sample: Uint8Array): SheetReadError | undefined {
  const offset = sample.indexOf(0);
  if (offset === -1) return undefined;
  let line = 1;
  for (let i = 0; i < offset; i++) if (sample[i] === 0x0a) line += 1;
  return new SheetReadError({ kind: 'not-text', offset, line }, 1);
}

/**
 * Decode the byte chunks into text: the encoding chosen from the first 64 KiB (a byte order
 * mark, else UTF-8 or Windows-1252), the mark dropped. A file whose start is UTF-8 and a
 * later part is not fails there.
 */
async function* decode(chunks: AsyncIterable<Buffer | string>, onEncoding: (encoding: CsvEncoding) => void, rowNow: () => number): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let decoder: TextDecoder | undefined;
  const start = (): string => {
    const sample = Buffer.concat(pending);
    pending = [];
    const bom = encodingOfBom(sample);
    if (typeof bom === 'object') throw new SheetReadError({ kind: 'unknown-encoding', name: bom.unknown }, 1);
    if (bom === undefined) {
      const binary = notText(sample);
      if (binary) throw binary;
    }
    const encoding = bom ?? detectEncoding(sample);
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
 * csv-parse's streaming parser, fed one decoded chunk at a time and read empty before the
 * next, so memory holds a chunk's records at most.
 */
export async function* readCsvRows(chunks: AsyncIterable<Buffer | string>, onEncoding: (encoding: CsvEncoding, delimiter: string) => void = () => undefined): AsyncGenerator<RawRow> {
  let row = 0;
  let encoding: CsvEncoding = 'utf-8';
  let parser: Parser | undefined;
  /** The file's line where the next record starts (a quote never closed is named by it). */
  let line = 1;
  const records = function* (from: Parser): Generator<RawRow> {
    for (let read = from.read() as Parsed | null; read !== null; read = from.read() as Parsed | null) {
      line = read.info.lines + 1;
      yield { row: ++row, cells: read.record };
    }
    if (from.errored) throw readError(from.errored, line, row);
  };
  for await (const text of decode(chunks, (found) => (encoding = found), () => row + 1)) {
    if (parser === undefined) {
      // The separator comes from the first decoded text (64 KiB, or the whole file when smaller).
      const delimiter = detectDelimiter(text);
      onEncoding(encoding, delimiter);
      parser = parse({
        delimiter,
        // As Excel reads: a quote inside an unquoted field is text; a line may end in CRLF, LF or CR.
        relax_quotes: true,
        relax_column_count: true,
        record_delimiter: ['\r\n', '\n', '\r'],
        info: true,
      });
      // Errors are read from `errored` after each write; this keeps the stream's own 'error' event quiet.
      parser.on('error', () => undefined);
    }
    parser.write(text);
    yield* records(parser);
  }
  if (parser === undefined) return;
  // The end may hold a last record (no final line end) or the error of a quote never closed.
  parser.end();
  try {
    for await (const read of parser as AsyncIterable<Parsed>) {
      line = read.info.lines + 1;
      yield { row: ++row, cells: read.record };
    }
  } catch (error) {
    throw readError(error, line, row);
  }
}

interface Parsed {
  record: string[];
  info: { lines: number };
}

function readError(error: unknown, line: number, row: number): unknown {
  if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') return new SheetReadError({ kind: 'quote-not-closed', line }, row + 1);
  if (error instanceof CsvError) return new SheetReadError({ kind: 'bad-csv', line, reason: error.message }, row + 1);
  return error;
}
