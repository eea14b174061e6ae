/**
 * The back office, second pass (issue 24): a clerk's sheet comes back whole, and a
 * template-filled sheet's rewrites read as one line per kind. Sheets made as Excel and
 * LibreOffice make them (exceljs for the xlsx: hidden columns, number cells); results
 * read back with exceljs.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot, runCli } from './run-cli.js';
import { waitFor } from '../wait-for.js';
import { cliEnv, startCountedSandbox, useScratch } from './submit-harness.js';

const scratch = useScratch();

const HEADER = ['Id da proposta', 'Naturalidade', 'Estado civil', 'E-mail', 'Telefone', 'Tipo de documento', 'Número do documento', 'Órgão expedidor', 'UF do documento', 'Data de emissão', 'Logradouro', 'Número', 'Bairro', 'Cidade', 'UF', 'CEP', 'Código do banco', 'Agência', 'Conta', 'Tipo de conta'];

/** A row of the catalogue's PROP-2001... as a clerk types it (punctuated CEP and phone). */
function clerkRow(i: number, overrides: Record<string, string> = {}): string[] {
  const row: Record<string, string> = {
    'Id da proposta': `PROP-${2001 + i}`, Naturalidade: 'Recife', 'Estado civil': 'CASADO', 'E-mail': `w${i}@example.com`, Telefone: '(81) 98765-4321',
    'Tipo de documento': 'RG', 'Número do documento': `1234567${i}`, 'Órgão expedidor': 'SSP', 'UF do documento': 'PE', 'Data de emissão': '21/03/2015',
    Logradouro: 'Rua da Aurora', Número: String(i + 1), Bairro: 'Boa Vista', Cidade: 'Recife', UF: 'PE', CEP: '50050-000',
    'Código do banco': '341', Agência: '0123', Conta: '12345-6', 'Tipo de conta': 'CORRENTE', ...overrides,
  };
  return HEADER.map((h) => row[h] as string);
}

function writeCsv(path: string, header: string[], rows: string[][]): string {
  writeFileSync(path, `${[header, ...rows].map((r) => r.join(';')).join('\r\n')}\r\n`);
  return path;
}

describe('warnings summarised for people', () => {
  it('a template-filled sheet: one line per kind of rewrite with its count and first row, errors in full; -q errors only; --json keeps them all', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => clerkRow(i, i === 7 ? { 'E-mail': 'sem-arroba' } : {}));
    const path = writeCsv(join(scratch.dir, 'lote.csv'), HEADER, rows);
    const pt = await runCli(['validate', path], { env: { LANG: 'pt_BR.UTF-8' } });
    expect(pt.code).toBe(1);
    const lines = pt.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`✗ ${path}, linha 9`);
    expect(lines[1]).toMatch(/^ +erro +E-mail \(pessoa\.email\): /);
    expect(pt.stderr).toMatch(/\n +aviso +CEP \(pessoa\.endereco\.cep\): 12 linhas; ex\. linha 2: CEP sem pontuação: "50050-000" → "50050000"\n/);
    expect(pt.stderr).toMatch(/\n +aviso +Telefone \(pessoa\.telefone\): 12 linhas; ex\. linha 2: /);
    expect(pt.stderr).toMatch(/\n +aviso +Data de emissão \(pessoa\.documento\.dataDeEmissao\): 12 linhas; /);
    // Three kinds, a heading, the error row and its error, the total.
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(lines.at(-1)).toBe('12 linhas: 11 válidas, 1 inválida (1 erro, 36 avisos)');

    const quiet = await runCli(['validate', '-q', path], { env: { LANG: 'pt_BR.UTF-8' } });
    expect(quiet.stderr).not.toMatch(/^ +aviso/m);
    expect(quiet.stderr).toContain(`✗ ${path}, linha 9`);

    const json = JSON.parse((await runCli(['validate', path, '--json'])).stdout) as { files: Array<{ row: number; warnings: unknown[] }> };
    expect(json.files.filter((f) => f.row !== 1).map((f) => f.warnings.length)).toEqual(Array(12).fill(3));
  });
});

describe('the results sheet keeps every column the clerk gave', () => {
  it('CSV: an unknown column (Observações) keeps its values, in order, then the results', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const header = [...HEADER.slice(0, 3), 'Observações', ...HEADER.slice(3)];
    const rows = [0, 1].map((i) => { const r = clerkRow(i); return [...r.slice(0, 3), i === 0 ? 'cliente pediu urgência' : 'ligar à tarde', ...r.slice(3)]; });
    const path = writeCsv(join(scratch.dir, 'notas.csv'), header, rows);
    const run = await runCli(['submit', path], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(join(scratch.dir, 'notas.resultados.csv'), 'utf8').slice(1).trimEnd().split('\r\n').map((l) => l.split(';'));
    expect(lines[0]!.slice(0, 5)).toEqual(['Id da proposta', 'Naturalidade', 'Estado civil', 'Observações', 'E-mail']);
    expect(lines.slice(1).map((l) => l[3])).toEqual(['cliente pediu urgência', 'ligar à tarde']);
  });

  it('pt-BR: econsig\'s columns in Portuguese, a Situação in words beside the stable outcome code; a skipped copy of a row carries no contract id', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const rows = [clerkRow(0), clerkRow(1), clerkRow(0, { Número: '99' })];
    const path = writeCsv(join(scratch.dir, 'lote.csv'), HEADER, rows);
    const run = await runCli(['submit', path], { env: { ...cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token), LANG: 'pt_BR.UTF-8' } });
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toContain('mantenha uma das duas linhas');
    const lines = readFileSync(join(scratch.dir, 'lote.resultados.csv'), 'utf8').slice(1).trimEnd().split('\r\n').map((l) => l.split(';'));
    expect(lines[0]!.slice(HEADER.length)).toEqual(['Execução', 'Id do contrato', 'Situação', 'outcome', 'Status HTTP', 'Erros', 'Resultado']);
    // The run's id first, the same on every row.
    expect(new Set(lines.slice(1).map((l) => l[HEADER.length]))).toEqual(new Set([expect.stringMatching(/^r-\d{8}-\d{4}-/)]));
    expect(lines.slice(1).map((l) => l.slice(HEADER.length + 2, HEADER.length + 4))).toEqual([['aceita', 'accepted'], ['aceita', 'accepted'], ['não enviada', 'skipped']]);
    expect(lines[3]![HEADER.length + 1]).toBe('');
  });

  it('xlsx made by Excel\'s rules: a hidden "Controle interno" column and an unknown one come back with their values', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Propostas');
    sheet.addRow(['Controle interno', ...HEADER, 'Observações']);
    sheet.addRow(['CI-77', ...clerkRow(0), 'cliente pediu urgência']);
    sheet.getColumn(1).hidden = true;
    const path = join(scratch.dir, 'lote.xlsx');
    await workbook.xlsx.writeFile(path);
    const run = await runCli(['submit', path], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(0);
    const back = new ExcelJS.Workbook();
    await back.xlsx.readFile(join(scratch.dir, 'lote.resultados.xlsx'));
    const values = (n: number): unknown[] => (back.worksheets[0]!.getRow(n).values as unknown[]).slice(1);
    expect(values(1)[0]).toBe('Controle interno');
    expect(values(1)[HEADER.length + 1]).toBe('Observações');
    expect(values(2)[0]).toBe('CI-77');
    expect(values(2)[HEADER.length + 1]).toBe('cliente pediu urgência');
  });
});

interface RowEntry {
  row: number;
  ok: boolean;
  errors: Array<{ path: string; column: string | null; message: string }>;
  warnings: Array<{ path: string; column: string | null; message: string }>;
}

/**
 * fixtures/sheets/clerk-typed-cp1252.csv as a clerk typed it, and libreoffice-clerk.xlsx, the
 * same opened and saved by LibreOffice with pt-BR settings (its CPF key and agência number
 * cells, its dates date cells). See scripts/make-sheet-fixtures.mjs.
 */
describe.each(['clerk-typed-cp1252.csv', 'libreoffice-clerk.xlsx'])('what a clerk types, read as meant: %s', (name) => {
  it('a bank by name, D/M/YYYY, a CPF key without its zero; a CEP without its zero named; the same proposal twice and an ambiguous bank refused', async () => {
    const run = await runCli(['validate', join(repoRoot, 'fixtures', 'sheets', name), '--json', '--reveal']);
    expect(run.code).toBe(1);
    const rows = (JSON.parse(run.stdout) as { files: RowEntry[] }).files.filter((f) => f.row > 1);
    const byRow = (n: number): RowEntry => rows.find((r) => r.row === n) as RowEntry;
    expect(rows.map((r) => [r.row, r.ok])).toEqual([[2, true], [3, true], [4, false], [5, false], [6, false]]);
    expect(byRow(2).warnings).toContainEqual({ path: 'contaBancaria.compe', column: 'Código do banco', message: 'the bank "Itaú" read as its code 341 (ITAÚ UNIBANCO S.A.)' });
    expect(byRow(3).warnings).toContainEqual(expect.objectContaining({ path: 'contaBancaria.chavePix', message: expect.stringContaining('read as the CPF 01234567890') }));
    expect(byRow(4).errors).toEqual([expect.objectContaining({ path: 'pessoa.endereco.cep', message: expect.stringContaining('the value would be "01310100"') })]);
    expect(byRow(5).errors).toEqual([{ path: 'idProposta', column: null, message: 'proposal PROP-2001 is also in row 2: one contract per proposal; keep one of the two' }]);
    expect(byRow(6).errors).toEqual([expect.objectContaining({ path: 'contaBancaria.compe', message: expect.stringMatching(/"Caixa" fits several banks: 104 CAIXA ECONOMICA FEDERAL; 473 Banco Caixa Geral/) })]);
  });
});

it('a CSV: a two-digit year is read as the one of 19yy and 20yy that is neither in the future nor a century ago', async () => {
  const run = await runCli(['validate', join(repoRoot, 'fixtures', 'sheets', 'clerk-typed-cp1252.csv'), '--json']);
  const row6 = (JSON.parse(run.stdout) as { files: RowEntry[] }).files.find((f) => f.row === 6) as RowEntry;
  expect(row6.warnings).toContainEqual(expect.objectContaining({ path: 'pessoa.documento.dataDeEmissao', message: expect.stringContaining('"05/08/19" read as "2019-08-05"') }));
});

it('a punctuated CPF key with wrong check digits is judged as a CPF, not taken for a phone', async () => {
  const path = writeCsv(join(scratch.dir, 'cpf.csv'), [...HEADER.slice(0, 16), 'Chave Pix'], [clerkRow(0).slice(0, 16).concat('529.982.247-24')]);
  const run = await runCli(['validate', path, '--json', '--reveal']);
  const row = (JSON.parse(run.stdout) as { files: RowEntry[] }).files.find((f) => f.row === 2) as RowEntry;
  expect(row.errors).toEqual([expect.objectContaining({ path: 'contaBancaria.chavePix', message: expect.stringContaining('check digits') })]);
  expect(JSON.stringify(row.warnings)).not.toContain('phone');
});

it('a sheet whose header fails: the run says plainly that no results file was written', async () => {
  const path = writeCsv(join(scratch.dir, 'cabecalho.csv'), ['Id da proposta', 'Naturalidade'], [['PROP-2001', 'Recife']]);
  const run = await runCli(['submit', path], { env: { ...cliEnv(scratch.home, 'http://127.0.0.1:9', 'token'), LANG: 'pt_BR.UTF-8' } });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`nenhum arquivo de resultados para ${path}: nenhuma linha foi lida, pois o cabeçalho tem erros`);
});

describe('submit says a run for people', () => {
  it('-q: errors only (no warnings, no line per accepted row), the summary stays; the rewrites of many rows are one line per kind', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const rows = Array.from({ length: 4 }, (_, i) => clerkRow(i, i === 3 ? { 'E-mail': 'sem-arroba' } : {}));
    const path = writeCsv(join(scratch.dir, 'lote.csv'), HEADER, rows);
    const env = { ...cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token), LANG: 'pt_BR.UTF-8' };
    const loud = await runCli(['submit', path], { env });
    expect(loud.code).toBe(1);
    expect(loud.stderr).toMatch(/\n +aviso +CEP \(pessoa\.endereco\.cep\): 4 linhas; ex\. linha 2: /);
    expect(loud.stderr.match(/CEP sem pontuação/g), loud.stderr).toHaveLength(1);
    // A second sandbox: the first has these workers' contracts in progress.
    const fresh = await startCountedSandbox({ delayMs: 60_000 });
    const quiet = await runCli(['submit', path, '-q', '--results', join(scratch.dir, 'q.csv')], { env: cliEnv(join(scratch.home, 'q'), fresh.sandbox.url, fresh.sandbox.token) });
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).not.toMatch(/^ +warning/m);
    expect(quiet.stderr).not.toMatch(/^✓/m);
    expect(quiet.stderr).toContain(`✗ ${path}, row 5`);
    expect(quiet.stderr).toMatch(/4 submissions: 3 accepted, 1 invalid/);
  });

  it('Ctrl-C in a batch: about a screenful of results after the stop, then one line counting the rest (--verbose lists all)', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000, latencyMs: 300 });
    const path = writeCsv(join(scratch.dir, 'lote.csv'), HEADER, Array.from({ length: 30 }, (_, i) => clerkRow(i)));
    const partial = join(scratch.dir, 'lote.resultados.parcial.csv');
    const child = spawn(process.execPath, [binPath, 'submit', path, '--concurrency', '1'], { env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) } as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await waitFor(() => existsSync(partial) && readFileSync(partial, 'utf8').split('\r\n').length >= 3, 10_000);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    const skipped = stderr.split('\n').filter((l) => /^✗ .*row \d+ +skipped/.test(l));
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.length).toBeLessThanOrEqual(10);
    expect(stderr).toMatch(/… and \d+ more after the stop, not listed: \d+ skipped \(--verbose lists every one/);
  });
});

describe('the contract a CI job reads', () => {
  it('submit --json: a missing file is its own outcome (unreadable, exit 2); an invalid file names its idProposta; every result\'s exitCode is its outcome\'s', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const invalid = join(scratch.dir, 'invalida.json');
    writeFileSync(invalid, JSON.stringify({ idProposta: 'PROP-2001', pessoa: { naturalidade: 'Recife' } }));
    const missing = await runCli(['submit', join(scratch.dir, 'nao-existe.json'), '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).results).toEqual([expect.objectContaining({ outcome: 'unreadable', idProposta: null })]);
    const bad = await runCli(['submit', invalid, '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).results).toEqual([expect.objectContaining({ outcome: 'invalid', idProposta: 'PROP-2001' })]);
  });

  it('submit --json with a wrong token: the hint is on stderr too, not only in the document', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const path = writeCsv(join(scratch.dir, 'lote.csv'), HEADER, [clerkRow(0)]);
    const run = await runCli(['submit', path, '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, 'not-the-token') });
    expect(run.code).toBe(3);
    const hint = (JSON.parse(run.stdout).results[0] as { hint: string }).hint;
    expect(hint).toBeTruthy();
    expect(run.stderr).toContain(hint);
  });

  it('validate --row checks one row of a sheet; a row that is not a data row exits 2', async () => {
    const sheet = join(repoRoot, 'fixtures', 'sheets', 'clerk-typed-cp1252.csv');
    const one = await runCli(['validate', sheet, '--row', '4', '--json']);
    expect(one.code).toBe(1);
    expect((JSON.parse(one.stdout) as { files: RowEntry[] }).files.filter((f) => f.row > 1).map((f) => f.row)).toEqual([4]);
    const none = await runCli(['validate', sheet, '--row', '40']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('has no data row 40');
  });

  it('validate - with a CSV and no --format: the JSON error says to add --format csv', async () => {
    const run = await runCli(['validate', '-'], { input: readFileSync(join(repoRoot, 'fixtures', 'sheets', 'excel-utf8-bom.csv'), 'utf8'), env: { LANG: 'pt_BR.UTF-8' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('acrescente --format csv');
  });
});
