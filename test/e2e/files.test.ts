/**
 * The files econsig writes, through the built binary (docs/cli-contract.md, "Files econsig
 * writes"; issue 23): a symbolic link or a FIFO at any output path is refused (exit 2, the
 * message naming the file) before anything is sent, the link's target untouched; what is
 * written is 0600 and replaces the target whole, leaving no temporary file behind.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { bankOnly, cliEnv, startCountedSandbox, useScratch, writeJson } from './submit-harness.js';

const scratch = useScratch();
const VICTIM = 'the victim file, as it was\n';
let victim: string;

beforeEach(() => {
  victim = join(scratch.dir, 'victim.txt');
  writeFileSync(victim, VICTIM);
  chmodSync(victim, 0o644);
});

const mode = (path: string): number => statSync(path).mode & 0o777;

/** `path` made a symbolic link to the victim, or a FIFO. */
function plant(kind: 'link' | 'fifo', path: string): void {
  if (kind === 'link') symlinkSync(victim, path);
  else execFileSync('mkfifo', [path]);
}

/** The refusal: exit 2, the file named and said to be a link or a FIFO, the victim as it was. */
function expectRefused(run: { code: number | null; stderr: string }, kind: 'link' | 'fifo', path: string): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(`will not write ${path}: it is ${kind === 'link' ? 'a symbolic link' : 'a named pipe (FIFO)'}`);
  expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
  expect(mode(victim)).toBe(0o644);
  expect(kind === 'link' ? lstatSync(path).isSymbolicLink() : lstatSync(path).isFIFO()).toBe(true);
}

/** Two bank-only rows the sandbox accepts. */
function sheet(name: string): string {
  const path = join(scratch.dir, name);
  const header = 'Id da proposta;Naturalidade;Estado civil;E-mail;Telefone;Tipo de documento;Número do documento;Órgão expedidor;UF do documento;Data de emissão;Logradouro;Número;Bairro;Cidade;UF;CEP;Código do banco;Agência;Conta;Tipo de conta';
  const rows = [1, 2].map((i) => `PROP-200${i};Recife;CASADO;w${i}@example.com;+5581987654321;RG;1234567${i};SSP;PE;2015-03-21;Rua da Aurora;${i};Boa Vista;Recife;PE;50050000;341;0123;12345-6;CORRENTE`);
  writeFileSync(path, `${[header, ...rows].join('\r\n')}\r\n`);
  return path;
}

describe.each(['link', 'fifo'] as const)('a %s at an output path: exit 2, named, nothing sent', (kind) => {
  it('the results CSV beside the sheet', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = sheet('lote.csv');
    const target = join(scratch.dir, 'lote.resultados.csv');
    plant(kind, target);
    const run = await runCli(['submit', input], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expectRefused(run, kind, target);
    expect(sbx.requests()).toBe(0);
    expect(readdirSync(scratch.dir).sort()).toEqual(['lote.csv', 'lote.resultados.csv', 'victim.txt']);
  });

  it('the results xlsx (--results)', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = sheet('lote.csv');
    const target = join(scratch.dir, 'saida.xlsx');
    plant(kind, target);
    const run = await runCli(['submit', input, '--results', target, '--json'], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expectRefused(run, kind, target);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { exitCode: 2, message: expect.stringContaining(target) } });
    expect(sbx.requests()).toBe(0);
  });

  it('the partial CSV the results are written to as the batch goes', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = sheet('lote.csv');
    const partial = join(scratch.dir, 'lote.resultados.parcial.csv');
    plant(kind, partial);
    const run = await runCli(['submit', input], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expectRefused(run, kind, partial);
    expect(sbx.requests()).toBe(0);
  });

  it('the JUnit report (--report)', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const file = writeJson(scratch.dir, 'PROP-2001.json', bankOnly('PROP-2001'));
    const report = join(scratch.dir, 'junit.xml');
    plant(kind, report);
    const run = await runCli(['submit', file, '--report', report], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expectRefused(run, kind, report);
    expect(sbx.requests()).toBe(0);
  });

  it('the template (-o), with --force too', async () => {
    const target = join(scratch.dir, 'modelo.xlsx');
    plant(kind, target);
    expectRefused(await runCli(['template', '-o', target]), kind, target);
    expectRefused(await runCli(['template', '--format', 'csv', '-o', target, '--force']), kind, target);
  });

  it("the wizard's --save file: said before the first question", async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const target = join(scratch.dir, 'proposta.json');
    plant(kind, target);
    const run = await runCli(['submit', '-i', '--save', target], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expectRefused(run, kind, target);
    expect(sbx.requests()).toBe(0);
  });

  it('the config file (config set)', async () => {
    const target = join(scratch.home, 'config.json');
    plant(kind, target);
    expectRefused(await runCli(['config', 'set', 'concurrency', '8'], { env: { ECONSIG_HOME: scratch.home } }), kind, target);
  });
});

describe('what econsig writes', () => {
  it('results CSV and xlsx, JUnit report: 0600, replacing an older 0644 file whole; no temporary or partial file left', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = sheet('lote.csv');
    const csv = join(scratch.dir, 'lote.resultados.csv');
    writeFileSync(csv, 'an older results file\r\n');
    chmodSync(csv, 0o644);
    const report = join(scratch.dir, 'junit.xml');
    const env = cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token);
    const first = await runCli(['submit', input, '--report', report], { env });
    expect(first.code, first.stderr).toBe(0);
    const xlsx = join(scratch.dir, 'saida.xlsx');
    // The same rows again: answered from the store, written to an xlsx this time.
    const second = await runCli(['submit', input, '--results', xlsx], { env });
    expect(second.code, second.stderr).toBe(0);
    for (const path of [csv, xlsx, report]) expect([path, mode(path)]).toEqual([path, 0o600]);
    expect(readFileSync(csv, 'utf8')).toMatch(/^\ufeffId da proposta;.*\r\nPROP-2001;.*;accepted;202;;\r\n/);
    expect(readdirSync(scratch.dir).sort()).toEqual(['junit.xml', 'lote.csv', 'lote.resultados.csv', 'saida.xlsx', 'victim.txt']);
    expect(sbx.requests()).toBe(2);
  });

  it('a partial CSV left by a crashed run is replaced by the next run, then removed', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = sheet('lote.csv');
    writeFileSync(join(scratch.dir, 'lote.resultados.parcial.csv'), 'rows of a run that was killed\r\n');
    const run = await runCli(['submit', input], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(scratch.dir).sort()).toEqual(['lote.csv', 'lote.resultados.csv', 'victim.txt']);
  });

  it('the config file 0600 in a home created 0700', async () => {
    const home = join(scratch.dir, 'new-home');
    const run = await runCli(['config', 'set', 'concurrency', '8'], { env: { ECONSIG_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, 'config.json'))).toBe(0o600);
    expect(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'))).toEqual({ profiles: { default: { settings: { concurrency: 8 } } } });
    expect(readdirSync(home)).toEqual(['config.json']);
  });

  it('the template: an existing file is kept without --force, replaced with it', async () => {
    const target = join(scratch.dir, 'modelo.csv');
    writeFileSync(target, 'mine\n');
    const kept = await runCli(['template', '--format', 'csv', '-o', target]);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain(`${target} already exists`);
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
    const replaced = await runCli(['template', '--format', 'csv', '-o', target, '--force']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^\ufeffProposal id;/);
    expect(readdirSync(scratch.dir).sort()).toEqual(['modelo.csv', 'victim.txt']);
  });

  it('a folder at the results path is refused too', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const input = sheet('lote.csv');
    const target = join(scratch.dir, 'lote.resultados.csv');
    mkdirSync(target);
    const run = await runCli(['submit', input], { env: cliEnv(scratch.home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`will not write ${target}: it is a folder`);
    expect(sbx.requests()).toBe(0);
  });
});
