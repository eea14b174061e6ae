/**
 * Every input bounded (issue 22), through the built binary: each hostile file with its exit
 * code and message, a folder whose one broken sheet does not stop the other files, and the
 * files named by settings that must be regular files of a bounded size.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';
import { bankOnly, cliEnv, startCountedSandbox, useScratch, writeJson } from './submit-harness.js';
import { type ZipPart, noise, partsOf, writeZip } from '../zip-file.js';

const scratch = useScratch();
const sheets = join(repoRoot, 'fixtures', 'sheets');

let parts: ZipPart[];
beforeAll(async () => {
  parts = await partsOf(join(sheets, 'numeric-cells.xlsx'));
});

/** numeric-cells.xlsx with its sheet replaced. */
function workbook(path: string, sheet: Omit<ZipPart, 'name'>): string {
  writeZip(path, [...parts.filter((p) => p.name !== 'xl/worksheets/sheet1.xml'), { name: 'xl/worksheets/sheet1.xml', ...sheet }]);
  return path;
}

const sheetXml = (rows: string): Buffer =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`);

/** A sound workbook whose sheet part's deflate stream is damaged (it made exceljs stop unsettled: exit 70). */
function damaged(path: string): string {
  return workbook(path, { data: Buffer.concat([deflateRawSync(sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>')).subarray(0, 20), Buffer.from([0xff, 0xff, 0xff, 0xff])]), deflated: true, size: 200 });
}

/** What people read of a file that cannot be read: the line under its name. */
const problemOf = (stderr: string): string => /error\s+\(file\): (.*)/.exec(stderr)?.[1] ?? stderr;

describe('a workbook that cannot be read: exit 2, the file and what is wrong named', () => {
  it.each([
    ['a damaged zip (a part that does not inflate)', (path: string) => damaged(path), /^the file is not a readable \.xlsx workbook \(xl\/worksheets\/sheet1\.xml: /],
    ['a file that is no zip at all', (path: string) => (writeFileSync(path, '<html>Planilha</html>'), path), /^the file is not an \.xlsx workbook: an \.xlsx is a zip, and this is not one/],
    ['a zip bomb: a small zip whose sheet inflates past 200 times its size', (path: string) => workbook(path, { data: sheetXml('<row><c t="inlineStr"><is><t>PROP-1</t></is></c></row>'.repeat(600_000)) }), /^the part xl\/worksheets\/sheet1\.xml expands past 200 times its compressed size: refused as a zip bomb$/],
    ['a cell of 20 MB', (path: string) => workbook(path, { data: sheetXml(`<row r="2"><c r="A2" t="inlineStr"><is><t>PROP-1</t></is></c><c r="B2" t="inlineStr"><is><t>${noise(20_000_000)}</t></is></c></row>`) }), /^cell B2 \(xl\/worksheets\/sheet1\.xml\) holds more than 256 KiB, and Excel holds at most 32,767 characters in a cell: refused$/],
  ])('%s', async (_what, make, said) => {
    const path = make(join(scratch.dir, 'planilha.xlsx'));
    const run = await runCli(['validate', path]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`✗ ${path}`);
    expect(problemOf(run.stderr)).toMatch(said);
    const json = await runCli(['validate', path, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).files).toEqual([{ file: path, ok: false, errors: [{ path: '(file)', message: expect.stringMatching(said) }], warnings: [] }]);
  });
});

describe('CSV encodings', () => {
  const csv = readFileSync(join(sheets, 'excel-utf8-bom.csv'), 'utf8').replace(/^\ufeff/, '');

  it.each([
    ['UTF-16 LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, 'utf16le')])],
    ['UTF-16 BE', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(csv, 'utf16le').swap16()])],
  ])('%s with its byte order mark is read as the UTF-8 file reads', async (_name, bytes) => {
    const utf8 = await runCli(['validate', join(sheets, 'excel-utf8-bom.csv'), '--json']);
    const path = join(scratch.dir, 'planilha.csv');
    writeFileSync(path, bytes);
    const run = await runCli(['validate', path, '--json']);
    expect(run.code, run.stderr).toBe(utf8.code);
    const entries = (stdout: string) => (JSON.parse(stdout) as { files: Array<Record<string, unknown>> }).files.map(({ file: _file, ...entry }) => entry);
    expect(entries(run.stdout)).toEqual(entries(utf8.stdout));
    expect(entries(run.stdout).length).toBeGreaterThan(1);
  });

  it('UTF-16 without its byte order mark: not text, named by its first NUL byte, exit 2', async () => {
    const path = join(scratch.dir, 'planilha.csv');
    writeFileSync(path, Buffer.from(csv, 'utf16le'));
    const run = await runCli(['validate', path]);
    expect(run.code, run.stderr).toBe(2);
    expect(problemOf(run.stderr)).toMatch(/^the file is not text: a NUL byte at offset 1 \(line 1\)/);
  });
});

describe('a folder whose one sheet cannot be read', () => {
  it('the three good files are sent; the run exits 2 for the broken one', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const folder = join(scratch.dir, 'lote');
    mkdirSync(folder);
    writeJson(folder, 'a-proposta.json', bankOnly('PROP-2010'));
    damaged(join(folder, 'b-quebrada.xlsx'));
    const header = 'Id da proposta;Naturalidade;Estado civil;E-mail;Telefone;Tipo de documento;Número do documento;Órgão expedidor;UF do documento;Data de emissão;Logradouro;Número;Bairro;Cidade;UF;CEP;Código do banco;Agência;Conta;Tipo de conta';
    const row = (id: string) => `${id};Recife;CASADO;w@example.com;+5581987654321;RG;1234567;SSP;PE;2015-03-21;Rua da Aurora;1;Boa Vista;Recife;PE;50050000;341;0123;12345-6;CORRENTE`;
    writeFileSync(join(folder, 'c-marco.csv'), `${header}\r\n${row('PROP-2011')}\r\n`);
    // UTF-16 LE, as Excel's "Texto Unicode" (tab-separated) saves it.
    writeFileSync(join(folder, 'd-abril.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${header.replaceAll(';', '\t')}\r\n${row('PROP-2012').replaceAll(';', '\t')}\r\n`, 'utf16le')]));
    const run = await runCli(['submit', folder, '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(2);
    const results = (JSON.parse(run.stdout) as { results: Array<{ file: string; outcome: string; message: string }> }).results;
    expect(results.map((r) => [r.file.slice(folder.length + 1), r.outcome])).toEqual([
      ['a-proposta.json', 'accepted'],
      // A file that cannot be read is its own outcome, whose code is the run's 2 (issue 24).
      ['b-quebrada.xlsx', 'unreadable'],
      ['c-marco.csv', 'accepted'],
      ['d-abril.csv', 'accepted'],
    ]);
    expect(sbx.requests()).toBe(3);
    expect(run.stderr).toMatch(/b-quebrada\.xlsx {2}unreadable/);
  });
});

describe('files named by settings: regular files of at most 1 MiB, refused at once before anything is sent', () => {
  it.each([
    ['a FIFO with no writer', (dir: string) => (execFileSync('mkfifo', [join(dir, 'ca.pem')]), join(dir, 'ca.pem')), 'it is a named pipe (FIFO), not a regular file'],
    ['/dev/zero', () => '/dev/zero', 'it is a device, not a regular file'],
    ['a file past 1 MiB', (dir: string) => (writeFileSync(join(dir, 'ca.pem'), Buffer.alloc(1024 * 1024 + 1, 'A')), join(dir, 'ca.pem')), 'it is larger than 1024 KiB, more than a settings file holds'],
  ])('ECONSIG_TLS_CA naming %s: exit 2, its full path named, nothing sent', async (_what, make, said) => {
    const sbx = await startCountedSandbox();
    const ca = make(scratch.dir);
    const input = writeJson(scratch.dir, 'p.json', bankOnly('PROP-2001'));
    const run = await runCli(['submit', input], { env: { ...cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token), ECONSIG_TLS_CA: ca } });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`Cannot read ECONSIG_TLS_CA file ${ca}: ${said}.`);
    expect(sbx.requests()).toBe(0);
  });

  it('a config file past 1 MiB, or a link to a device in its place: exit 2, named, before conf reads it', async () => {
    const config = join(scratch.home, 'config.json');
    writeFileSync(config, JSON.stringify({ profiles: { default: { settings: {} } }, padding: 'x'.repeat(1024 * 1024) }));
    const big = await runCli(['config', 'list'], { env: { ECONSIG_HOME: scratch.home } });
    expect(big.code, big.stderr).toBe(2);
    expect(big.stderr).toContain(`Cannot read the config file ${config}: it is larger than 1024 KiB, more than a settings file holds.`);
    execFileSync('ln', ['-sf', '/dev/zero', config]);
    const device = await runCli(['config', 'list'], { env: { ECONSIG_HOME: scratch.home } });
    expect(device.code, device.stderr).toBe(2);
    // A link there is refused before the file is read or written (issue 23's rule for the files econsig writes).
    expect(device.stderr).toContain(`will not write ${config}: it is a symbolic link`);
  });
});

describe('standard input', () => {
  it('a CSV piped to submit is read twice from its temporary copy: every row sent once, a copy of a row not sent again, results in the working folder', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const header = 'Id da proposta;Naturalidade;Estado civil;E-mail;Telefone;Tipo de documento;Número do documento;Órgão expedidor;UF do documento;Data de emissão;Logradouro;Número;Bairro;Cidade;UF;CEP;Código do banco;Agência;Conta;Tipo de conta';
    const row = (id: string) => `${id};Recife;CASADO;w@example.com;+5581987654321;RG;1234567;SSP;PE;2015-03-21;Rua da Aurora;1;Boa Vista;Recife;PE;50050000;341;0123;12345-6;CORRENTE`;
    const csv = `${[header, row('PROP-2020'), row('PROP-2021'), row('PROP-2020')].join('\r\n')}\r\n`;
    const run = await runCli(['submit', '-', '--format', 'csv', '--json'], { input: csv, cwd: scratch.dir, env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(0);
    const results = (JSON.parse(run.stdout) as { results: Array<{ file: string; row: number; outcome: string; idContrato: string }> }).results;
    expect(results.map((r) => [r.file, r.row, r.outcome])).toEqual([['-', 2, 'accepted'], ['-', 3, 'accepted'], ['-', 4, 'accepted']]);
    expect(results[2]?.idContrato).toBe(results[0]?.idContrato);
    expect(sbx.requests()).toBe(2);
    const written = readFileSync(join(scratch.dir, 'resultados.csv'), 'utf8').trimEnd().split('\r\n');
    expect(written.slice(1).map((line) => line.split(';').slice(0, 1).concat(line.split(';').slice(-4, -3)))).toEqual([['PROP-2020', 'accepted'], ['PROP-2021', 'accepted'], ['PROP-2020', 'accepted']]);
  });

  it('an xlsx piped in is read (copied to a temporary file first: its zip is read twice)', async () => {
    const path = join(scratch.dir, 'planilha.xlsx');
    copyFileSync(join(sheets, 'numeric-cells.xlsx'), path);
    const piped = await runCli(['validate', '-', '--format', 'xlsx', '--json'], { input: readFileSync(path) });
    const direct = await runCli(['validate', path, '--json']);
    expect(piped.code, piped.stderr).toBe(direct.code);
    const rows = (stdout: string) => (JSON.parse(stdout) as { files: Array<{ row: number; ok: boolean }> }).files.map((f) => [f.row, f.ok]);
    expect(rows(piped.stdout)).toEqual(rows(direct.stdout));
  });
});
