import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SheetReadError } from '../../../src/sheets/csv-reader.js';
import { type MergedRange, isMergedRow } from '../../../src/sheets/xlsx-merges.js';
import { XLSX_LIMITS, inspectXlsx } from '../../../src/sheets/xlsx-zip.js';
import { repoRoot } from '../../e2e/run-cli.js';
import { type ZipPart, noise, partsOf, writeZip } from '../../zip-file.js';

const fixture = (name: string): string => join(repoRoot, 'fixtures', 'sheets', name);
const dir = mkdtempSync(join(tmpdir(), 'econsig-xlsx-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let parts: ZipPart[];
beforeAll(async () => {
  parts = await partsOf(fixture('numeric-cells.xlsx'));
});

/** numeric-cells.xlsx with `name` replaced (or added). */
function workbook(file: string, name: string, part: Omit<ZipPart, 'name'>): string {
  const path = join(dir, file);
  writeZip(path, [...parts.filter((p) => p.name !== name), { name, ...part }]);
  return path;
}

const sheetXml = (rows: string): Buffer =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`);

async function problemOf(path: string, limits = XLSX_LIMITS): Promise<unknown> {
  try {
    await inspectXlsx(path, limits);
    return undefined;
  } catch (error) {
    if (!(error instanceof SheetReadError)) throw error;
    return error.problem;
  }
}

describe('isMergedRow: a row whose filled cells all lie in ranges merged across columns', () => {
  const filled = (cell: unknown): boolean => cell !== null && cell !== undefined && cell !== '';
  const title: MergedRange = { top: 3, bottom: 3, left: 1, right: 22 };
  const pair: MergedRange = { top: 8, bottom: 8, left: 11, right: 12 };
  const column: MergedRange = { top: 2, bottom: 9, left: 2, right: 2 };
  it.each([
    ['a title merged across the row', 3, ['Filial Curitiba'], [title], true],
    ['the same row without the merge', 3, ['Filial Curitiba'], [], false],
    ['a data row with two cells merged', 8, ['PROP-1004', 'Santos', ...Array(8).fill('x'), 'Rua'], [pair], false],
    ['a row whose only filled cell is merged down a column (one column wide)', 4, [undefined, 'São Paulo'], [column], false],
    ['an empty row inside a merged range', 3, [], [title], false],
    ['a row below the range', 4, ['PROP-1'], [title], false],
  ] as const)('%s: %s', (_what, row, cells, ranges, merged) => {
    expect(isMergedRow(row, cells, ranges, filled)).toBe(merged);
  });
});

describe('inspectXlsx: the merged ranges of each worksheet', () => {
  it.each(['merged-rows.xlsx', 'libreoffice-merged-rows.xlsx'])('reads the ranges of %s (exceljs and LibreOffice writing)', async (name) => {
    const zip = await inspectXlsx(fixture(name));
    expect(zip.merges(1)).toEqual([
      { top: 3, bottom: 3, left: 1, right: 22 },
      { top: 6, bottom: 6, left: 1, right: 22 },
      { top: 8, bottom: 8, left: 11, right: 12 },
    ]);
  });

  it('a worksheet the zip does not have: no ranges', async () => {
    expect((await inspectXlsx(fixture('merged-rows.xlsx'))).merges(9)).toEqual([]);
  });

  it('every workbook of the fixtures passes', async () => {
    for (const name of ['libreoffice-from-csv.xlsx', 'libreoffice-template-filled.xlsx', 'numeric-cells.xlsx', 'two-sheets.xlsx']) {
      expect(await problemOf(fixture(name)), name).toBeUndefined();
    }
  });
});

describe('inspectXlsx: what is refused before exceljs reads it', () => {
  it('a file that is not a zip, and a zip cut short', async () => {
    const text = join(dir, 'text.xlsx');
    writeFileSync(text, 'Id da proposta;CEP\n');
    expect(await problemOf(text)).toEqual({ kind: 'not-zip' });
    const cut = join(dir, 'cut.xlsx');
    const whole = workbook('whole.xlsx', 'xl/worksheets/sheet1.xml', { data: sheetXml('') });
    writeFileSync(cut, (await import('node:fs')).readFileSync(whole).subarray(0, 600));
    expect(await problemOf(cut)).toMatchObject({ kind: 'bad-xlsx' });
  });

  it('a damaged part is named', async () => {
    const path = workbook('damaged.xlsx', 'xl/worksheets/sheet1.xml', { data: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x11]), deflated: true, size: 100 });
    expect(await problemOf(path)).toMatchObject({ kind: 'bad-xlsx', reason: expect.stringMatching(/^xl\/worksheets\/sheet1\.xml: /) });
  });

  it('a sheet that inflates past 200 times its compressed size is a bomb, also when the zip declares a small size', async () => {
    // A million small rows: no cell is large, the sheet is (28 MB from about 60 KB).
    const rows = sheetXml('<row><c t="inlineStr"><is><t>PROP-1</t></is></c></row>'.repeat(600_000));
    const bomb = { kind: 'zip-bomb', part: 'xl/worksheets/sheet1.xml', limit: null, ratio: 200 };
    expect(await problemOf(workbook('bomb.xlsx', 'xl/worksheets/sheet1.xml', { data: rows }))).toEqual(bomb);
    const lying = workbook('lying.xlsx', 'xl/worksheets/sheet1.xml', { data: deflateRawSync(rows), deflated: true, size: 1000 });
    expect(await problemOf(lying)).toEqual(bomb);
  });

  it('a workbook past its expanded limit (1 GiB; here 1 MiB) is a bomb, named at the part that passes it', async () => {
    const path = workbook('big.xlsx', 'xl/worksheets/sheet1.xml', { data: sheetXml(`<row r="2"><c r="A2"><v>${noise(100_000)}</v></c></row>`.repeat(12)) });
    expect(await problemOf(path, { ...XLSX_LIMITS, workbookBytes: 1024 * 1024 })).toEqual({ kind: 'zip-bomb', part: 'xl/worksheets/sheet1.xml', limit: 1024 * 1024, ratio: null });
  });

  it('a cell past 256 KiB is refused naming it, wherever the chunks cut it; one under the limit passes', async () => {
    const big = workbook('cell.xlsx', 'xl/worksheets/sheet1.xml', { data: sheetXml(`<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c><c r="B2" t="inlineStr"><is><t>${noise(300 * 1024)}</t></is></c></row>`) });
    expect(await problemOf(big)).toEqual({ kind: 'cell-too-large', part: 'xl/worksheets/sheet1.xml', cell: 'B2', string: null, limit: 256 * 1024 });
    const fits = workbook('fits.xlsx', 'xl/worksheets/sheet1.xml', { data: sheetXml(`<row r="2"><c r="B2" t="inlineStr"><is><t>${noise(200 * 1024)}</t></is></c><c r="C2"/></row>`) });
    expect(await problemOf(fits)).toBeUndefined();
  });

  it('a shared string past the limit is refused naming its part and number', async () => {
    const strings = Buffer.from(`<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>Id</t></si><si/><si><t>${noise(300 * 1024)}</t></si></sst>`);
    expect(await problemOf(workbook('strings.xlsx', 'xl/sharedStrings.xml', { data: strings }))).toEqual({ kind: 'cell-too-large', part: 'xl/sharedStrings.xml', cell: null, string: 3, limit: 256 * 1024 });
  });
});
