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

  it('a file that starts as UTF-8 and turns into something else fails with a row', async () => {
    const start = Buffer.from(`a;b\n${'x;y\n'.repeat(20_000)}`);
    await expect(rows(Buffer.concat([start, Buffer.from([0xe3, 0x0a])]), 4096)).rejects.toMatchObject({ problem: { kind: 'not-utf8' } });
  });

  it('an unclosed quote is an error naming the line', async () => {
    await expect(rows(Buffer.from('a;b\n"x;y\n'))).rejects.toMatchObject({ problem: { kind: 'bad-csv' } });
  });
});
