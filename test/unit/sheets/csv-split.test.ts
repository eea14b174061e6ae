import { describe, expect, it } from 'vitest';
import { CsvQuoteError, CsvSplitter } from '../../../src/sheets/csv-split.js';

/** Records of `text` fed in two pieces split at `at` (every position is tried by the caller). */
function split(text: string, delimiter = ';', at = text.length): string[][] {
  const splitter = new CsvSplitter(delimiter);
  return [...splitter.push(text.slice(0, at), false), ...splitter.push(text.slice(at), false), ...splitter.push('', true)];
}

const cases: Array<[string, string, string[][]]> = [
  ['plain, CRLF', 'a;b\r\n1;2\r\n', [['a', 'b'], ['1', '2']]],
  ['LF and no final line end', 'a;b\n1;2', [['a', 'b'], ['1', '2']]],
  ['CR alone', 'a;b\r1;2\r', [['a', 'b'], ['1', '2']]],
  ['empty fields and a trailing separator', ';x;\r\n;;\r\n', [['', 'x', ''], ['', '', '']]],
  ['quoted separator, quote and line break', '"a;b";"say ""hi""";"1\r\n2"\r\n', [['a;b', 'say "hi"', '1\r\n2']]],
  ['empty quoted field', '"";x\n', [['', 'x']]],
  ['a quote inside an unquoted field is text', 'polegada 5";x\n', [['polegada 5"', 'x']]],
  ['text after a closing quote is kept', '"ab"cd;x\n', [['abcd', 'x']]],
  ['an empty line is a record of one empty field', 'a\n\nb\n', [['a'], [''], ['b']]],
];

describe('CsvSplitter', () => {
  it.each(cases)('%s, at every chunk boundary', (_name, text, expected) => {
    for (let at = 0; at <= text.length; at++) expect(split(text, ';', at), `split at ${at}`).toEqual(expected);
  });

  it('tab and comma delimiters', () => {
    expect(split('a\tb\n"x\ty"\tz\n', '\t')).toEqual([['a', 'b'], ['x\ty', 'z']]);
    expect(split('a,"1,5"\n', ',')).toEqual([['a', '1,5']]);
  });

  it('a quote never closed is an error naming its line', () => {
    expect(() => split('a;b\n1;2\n"open;x\ny\n')).toThrow(CsvQuoteError);
    expect(() => split('a;b\n1;2\n"open;x\ny\n')).toThrow('starts on line 3');
  });
});
