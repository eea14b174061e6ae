/**
 * CSV records from text that arrives in chunks: RFC 4180 as Excel writes it. Fields are
 * separated by the delimiter; records end at CRLF, LF or CR; a field that starts with a
 * quote runs to the quote that is followed by a delimiter or a line end, with `""` for a
 * quote inside (separators and line breaks inside are text). Relaxed as Excel reads: a
 * quote inside an unquoted field is text, and text after a closing quote is kept.
 *
 * Why not csv-parse: in a fresh process (every `econsig validate`) its parser needed about
 * 0.9 s for 10,000 rows of 22 fields before V8 had optimised it (0.2 s once warm); this
 * loop is a few tens of milliseconds cold (bench/sheets.mjs).
 */

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** A record that never ends (a quote that is never closed). */
export class CsvQuoteError extends Error {
  constructor(readonly line: number) {
    super(`a quoted field that starts on line ${line} is never closed`);
    this.name = 'CsvQuoteError';
  }
}

export class CsvSplitter {
  private rest = '';
  /** The file's line where `rest` starts (1-based), for errors. */
  private line = 1;
  private readonly delimiter: number;

  constructor(delimiter: string) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** The complete records of the text so far; `final` when no more text comes. */
  push(text: string, final: boolean): string[][] {
    const s = this.rest + text;
    const n = s.length;
    const records: string[][] = [];
    let start = 0;
    while (start < n) {
      const end = this.record(s, start, final, records);
      if (end === -1) break;
      start = end;
    }
    this.rest = s.slice(start);
    if (final && this.rest !== '') throw new CsvQuoteError(this.line);
    return records;
  }

  /**
   * Read one record from `start` into `records`; the position after it, or -1 when the text
   * ends inside it and more may come.
   */
  private record(s: string, start: number, final: boolean, records: string[][]): number {
    const n = s.length;
    const d = this.delimiter;
    const fields: string[] = [];
    let lines = 0;
    let i = start;
    for (;;) {
      let value: string;
      if (s.charCodeAt(i) === QUOTE) {
        value = '';
        let j = i + 1;
        for (;;) {
          const q = s.indexOf('"', j);
          if (q === -1 || (q + 1 === n && !final)) return -1;
          lines += countLines(s, j, q);
          if (s.charCodeAt(q + 1) === QUOTE) {
            value += s.slice(j, q + 1);
            j = q + 2;
            continue;
          }
          value += s.slice(j, q);
          i = q + 1;
          break;
        }
        // Relaxed: text after the closing quote, up to the separator, is kept.
        const after = i;
        while (i < n) {
          const c = s.charCodeAt(i);
          if (c === d || c === CR || c === LF) break;
          i++;
        }
        if (i > after) value += s.slice(after, i);
      } else {
        const from = i;
        while (i < n) {
          const c = s.charCodeAt(i);
          if (c === d || c === CR || c === LF) break;
          i++;
        }
        value = s.slice(from, i);
      }
      fields.push(value);
      if (i >= n) {
        if (!final) return -1;
        records.push(fields);
        this.line += lines + 1;
        return n;
      }
      const c = s.charCodeAt(i);
      if (c === d) {
        i++;
        // A separator at the very end of the text: the last field is empty.
        if (i === n && final) {
          fields.push('');
          records.push(fields);
          return n;
        }
        continue;
      }
      // A line end: CRLF, LF or CR. A CR at the end of a chunk may be half of a CRLF.
      if (c === CR) {
        if (i + 1 === n && !final) return -1;
        i += s.charCodeAt(i + 1) === LF ? 2 : 1;
      } else {
        i += 1;
      }
      records.push(fields);
      this.line += lines + 1;
      return i;
    }
  }
}

function countLines(s: string, from: number, to: number): number {
  let count = 0;
  for (let k = s.indexOf('\n', from); k !== -1 && k < to; k = s.indexOf('\n', k + 1)) count++;
  return count;
}
