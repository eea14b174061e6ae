import { describe, expect, it } from 'vitest';
import { detectDelimiter, detectEncoding, readCsvRows } from '../../../src/sheets/csv-reader.js';

async function rows(bytes: Buffer, chunk = bytes.length): Promise<Array<{ row: number; cells: unknown[] }>> {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const out = [];
  for await (const row of readCsvRows(chunks())) out.push(row);
  return out;
}

describe('detectDelimiter', () => {
  it.each([
    ['a;b;c\r\n1;2;3', ';'],
    ['a,b,c\n1,2,3', ','],
    ['a\tb\tc\n', '\t'],
    ['"x;y",b,c\n', ','],
    ['a\n;;;;;;', ';'],
    ['a;b,c\n', ';'],
  ])('%j → %j', (text, expected) => expect(detectDelimiter(text)).toBe(expected));
});

describe('detectEncoding', () => {
  it('UTF-8 text is UTF-8, also with a character cut at the end of the sample', () => {
    expect(detectEncoding(Buffer.from('São Paulo', 'utf8'))).toBe('utf-8');
    expect(detectEncoding(Buffer.from('São', 'utf8').subarray(0, 2))).toBe('utf-8');
  });
  it('Windows-1252 bytes are Windows-1252', () => {
    expect(detectEncoding(Buffer.from([0x53, 0xe3, 0x6f]))).toBe('windows-1252');
  });
});

describe('readCsvRows', () => {
  it('Windows-1252, `;`, CRLF, quotes with separators and line breaks; rows numbered as Excel shows them', async () => {
    const text = 'Cidade;Complemento\r\nS\xe3o Paulo;"Apto 1; bloco ""B""\r\nfundos"\r\n;\r\nBel\xe9m;x\r\n';
    const result = await rows(Buffer.from(text, 'latin1'), 7);
    expect(result).toEqual([
      { row: 1, cells: ['Cidade', 'Complemento'] },
      { row: 2, cells: ['São Paulo', 'Apto 1; bloco "B"\r\nfundos'] },
      { row: 3, cells: ['', ''] },
      { row: 4, cells: ['Belém', 'x'] },
    ]);
  });

  it('UTF-8 with a BOM: the BOM is not part of the first header', async () => {
    const result = await rows(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('CEP,Agência\n01310100,0001\n')]), 3);
    expect(result[0]!.cells).toEqual(['CEP', 'Agência']);
    expect(result[1]!.cells).toEqual(['01310100', '0001']);
  });

  it.each([
    ['UTF-16 LE', Buffer.from([0xff, 0xfe]), (text: string) => Buffer.from(text, 'utf16le')],
    ['UTF-16 BE', Buffer.from([0xfe, 0xff]), (text: string) => Buffer.from(text, 'utf16le').swap16()],
  ])('%s with its byte order mark ("Texto Unicode"): read, whatever the chunks cut', async (_name, bom, encode) => {
    const bytes = Buffer.concat([bom, encode('CEP;Agência\r\n01310100;São Paulo\r\n')]);
    // Chunks of 7 bytes cut code units and the byte order mark itself.
    for (const chunk of [bytes.length, 7]) {
      const result = await rows(bytes, chunk);
      expect(result.map((r) => r.cells)).toEqual([['CEP', 'Agência'], ['01310100', 'São Paulo']]);
    }
  });

  it('a NUL byte in the first 64 KiB: not text (UTF-16 without its mark, a binary file), named by offset and line', async () => {
    await expect(rows(Buffer.from('CEP;Agência\n', 'utf16le'))).rejects.toMatchObject({ problem: { kind: 'not-text', offset: 1, line: 1 } });
    await expect(rows(Buffer.from('a;b\n1;2\nx\u0000y\n'))).rejects.toMatchObject({ problem: { kind: 'not-text', offset: 9, line: 3 } });
  });

  it('UTF-32 (by its byte order mark) is named and not read', async () => {
    await expect(rows(Buffer.from([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0]))).rejects.toMatchObject({ problem: { kind: 'unknown-encoding', name: 'UTF-32 LE' } });
  });

  it('a file that starts as UTF-8 and turns into something else fails with a row', async () => {
    const start = Buffer.from(`a;b\n${'x;y\n'.repeat(20_000)}`);
    await expect(rows(Buffer.concat([start, Buffer.from([0xe3, 0x0a])]), 4096)).rejects.toMatchObject({ problem: { kind: 'not-utf8' } });
  });

  it('an unclosed quote is an error naming the line where its record starts, and the row', async () => {
    await expect(rows(Buffer.from('a;b\n1;"2\nx"\n"x;y\nz\n'))).rejects.toMatchObject({ problem: { kind: 'quote-not-closed', line: 4 }, row: 3 });
  });

  const cases: Array<[string, string, string[][]]> = [
    ['plain, CRLF', 'a;b\r\n1;2\r\n', [['a', 'b'], ['1', '2']]],
    ['LF and no final line end', 'a;b\n1;2', [['a', 'b'], ['1', '2']]],
    ['CR alone', 'a;b\r1;2\r', [['a', 'b'], ['1', '2']]],
    ['line ends mixed', 'a;b\r\n1;2\n3;4\r5;6\r\n', [['a', 'b'], ['1', '2'], ['3', '4'], ['5', '6']]],
    ['empty fields and a trailing separator', ';x;\r\n;;\r\n', [['', 'x', ''], ['', '', '']]],
    ['quoted separator, quote and line break', '"a;b";"say ""hi""";"1\r\n2"\r\n', [['a;b', 'say "hi"', '1\r\n2']]],
    ['empty quoted field', '"";x\n', [['', 'x']]],
    ['a quote inside an unquoted field is text', 'polegada 5";x\n', [['polegada 5"', 'x']]],
    ['an empty line is a record of one empty field', 'a\n\nb\n', [['a'], [''], ['b']]],
  ];

  it.each(cases)('%s', async (_name, text, expected) => {
    expect((await rows(Buffer.from(text))).map((r) => r.cells)).toEqual(expected);
  });

  it('a file of many chunks (past the 64 KiB sample): records cut anywhere by a chunk come whole, rows counted', async () => {
    const record = (i: number): string => `PROP-${i};"Apto ${i}; bloco ""B""\r\nfundos";${'x'.repeat(i % 50)}`;
    const text = `Id;Complemento;Nota\r\n${Array.from({ length: 3000 }, (_, i) => record(i)).join('\r\n')}\r\n`;
    expect(text.length).toBeGreaterThan(3 * 64 * 1024);
    for (const chunk of [1000, 4093]) {
      const result = await rows(Buffer.from(text), chunk);
      expect(result).toHaveLength(3001);
      expect(result[2999]).toEqual({ row: 3000, cells: ['PROP-2998', 'Apto 2998; bloco "B"\r\nfundos', 'x'.repeat(2998 % 50)] });
      expect(result[3000]!.row).toBe(3001);
    }
  });

  it('a tab-separated file and a comma-separated one', async () => {
    expect((await rows(Buffer.from('a\tb\n"x\ty"\tz\n'))).map((r) => r.cells)).toEqual([['a', 'b'], ['x\ty', 'z']]);
    expect((await rows(Buffer.from('a,b\n"1,5",2\n'))).map((r) => r.cells)).toEqual([['a', 'b'], ['1,5', '2']]);
  });
});
