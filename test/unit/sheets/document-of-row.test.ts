import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOfRow } from '../../../src/flows/sheet-inputs.js';
import { expandInputs } from '../../../src/flows/inputs.js';
import { waitFor } from '../../wait-for.js';

const sheets = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'sheets');
const options = { now: new Date('2026-01-10T12:00:00Z'), strict: false, lang: 'en' as const, stdin: { isTTY: false } };
const source = (name: string) => expandInputs([join(sheets, name)], process.cwd())[0]!;

// exceljs removes its temporary copies of worksheets asynchronously; a test worker may end
// before it has. Each test here uses its own temporary folder, removed afterwards.
let savedTmpdir: string | undefined;
let folder = '';
beforeAll(() => {
  savedTmpdir = process.env.TMPDIR;
  folder = mkdtempSync(join(tmpdir(), 'econsig-sheets-unit-'));
  process.env.TMPDIR = folder;
});
afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(folder, { recursive: true, force: true });
});

describe('documentOfRow (the wizard starts from a row)', () => {
  it('row 5 of the xlsx: its cells as a submission document, number cells already text', async () => {
    const document = await documentOfRow(source('numeric-cells.xlsx'), 5, options);
    expect(document).toMatchObject({
      idProposta: 'PROP-1003',
      pessoa: { endereco: { cidade: 'Curitiba', cep: '80020310', numero: 's/n' }, documento: { dataDeEmissao: '2018-07-02' } },
      contaBancaria: { chavePix: 'ana.lima@example.com' },
    });
  });

  it("the coded cells as the service's codes: the wizard's lists then show them chosen (row 2 holds 'união estável')", async () => {
    const document = await documentOfRow(source('excel-ptbr-cp1252.csv'), 2, options);
    expect(document).toMatchObject({ pessoa: { estadoCivil: 'UNIAO_ESTAVEL', documento: { tipoDocumento: 'RG' } }, contaBancaria: { tipo: 'CORRENTE' } });
  });

  it('a row that is not there, and a sheet whose header fails, are usage errors', async () => {
    await expect(documentOfRow(source('numeric-cells.xlsx'), 40, options)).rejects.toThrow('has no data row 40');
    await expect(documentOfRow(source('two-sheets.xlsx'), 2, options)).rejects.toThrow('no known column');
  });
});

describe('reading an xlsx leaves no temporary file', () => {
  it('also when the reading stops at a row before the end (exceljs removes its file only at the end)', async () => {
    const dir = mkdtempSync(join(folder, 'check-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      await documentOfRow(source('numeric-cells.xlsx'), 3, options);
      await documentOfRow(source('libreoffice-from-csv.xlsx'), 2, options);
      // exceljs unlinks its copy without waiting for it (tmp's async remove): wait until it is gone.
      await waitFor(() => readdirSync(dir).length === 0);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
