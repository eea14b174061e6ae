/**
 * The Linux single executable (dist/exe/econsig-linux-x64) at a desk without Node: no `node`
 * on PATH, no node_modules above it (test/exe/desk.ts). demo, validate of a folder and a
 * sheet (the same document as the npm install's), the sandbox, watch receiving a signed
 * delivery while submit --wait follows it, the store reused by a second run, the wizard in
 * Portuguese in tmux, and OAuth2 with mTLS. `npm run test:exe` builds it first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { oauthEnv, startLoggedSandbox } from '../e2e/auth-harness.js';
import { makeTestCerts } from '../e2e/certs.js';
import { repoRoot, runCli } from '../e2e/run-cli.js';
import { bankOnly, parseSubmitJson } from '../e2e/submit-harness.js';
import { hasTmux, runInTerminal, skipTerminal } from '../e2e/tmux-harness.js';
import { killWatches, startWatch } from '../e2e/watch-process.js';
import { type Desk, exeDir, makeDesk, nodeModulesAbove, startSandboxProcess } from './desk.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
let desk: Desk;
const run = (args: string[], env: Record<string, string | undefined> = {}, cwd = desk.dir) => runCli(args, { env: desk.env(env), cwd, program: desk.program, timeoutMs: 30_000 });
const cleanups: Array<() => unknown> = [];

beforeAll(() => {
  desk = makeDesk('econsig-linux-x64');
  for (const name of ['bank-and-pix.json', 'bank-only.json', 'pix-only.json']) copyFileSync(join(repoRoot, 'fixtures', 'valid', name), join(desk.dir, name));
  copyFileSync(join(repoRoot, 'fixtures', 'invalid', 'cep-too-short.json'), join(desk.dir, 'cep-too-short.json'));
  copyFileSync(join(repoRoot, 'fixtures', 'sheets', 'numeric-cells.xlsx'), join(desk.dir, 'planilha.xlsx'));
});
afterAll(() => desk.cleanup());
afterEach(async () => {
  killWatches();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the Linux single executable at a desk without Node', () => {
  it('is what SHA256SUMS names, and the desk has no node and no node_modules', () => {
    const sums = readFileSync(join(exeDir, 'SHA256SUMS'), 'utf8');
    const hash = createHash('sha256').update(readFileSync(join(exeDir, 'econsig-linux-x64'))).digest('hex');
    expect(sums).toContain(`${hash}  econsig-linux-x64\n`);
    expect(spawnSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH: desk.env().PATH } }).status).not.toBe(0);
    expect(nodeModulesAbove(desk.dir)).toEqual([]);
  });

  it('--version: the package version, then the single-file build and its Node; nothing else on the screen', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${pkg.version.replace(/\./g, '\\.')}\\nsingle-file build on Node 26\\.\\d+\\.\\d+\\n$`));
    expect(r.stderr).toBe('');
    // Through commander too (more than one argument).
    expect((await run(['--version', '--lang', 'pt-BR'])).stdout).toBe(r.stdout);
  });

  it('demo: the whole flow, exit 0, and no experimental warning', async () => {
    const r = await run(['demo', '--delay', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Demo complete');
    expect(r.stderr).not.toMatch(/warning:|ExperimentalWarning|single executable/i);
  });

  it('validate of a folder and of a sheet: the same document as the npm install', async () => {
    const folder = await run(['validate', '.', '--json']);
    expect(folder.code).toBe(1);
    const files = (JSON.parse(folder.stdout) as { files: Array<{ file: string; row?: number; ok: boolean }> }).files;
    // Rows 3 and 5 hold proposals also in bank-and-pix.json and pix-only.json (issue 24: the same proposal twice in one input is an error); row 6 is invalid.
    expect(files.filter((f) => !f.ok).map((f) => `${f.file}${f.row === undefined ? '' : `:${f.row}`}`)).toEqual(['cep-too-short.json', 'planilha.xlsx:3', 'planilha.xlsx:5', 'planilha.xlsx:6']);
    expect(folder.stdout).toBe((await runCli(['validate', '.', '--json'], { cwd: desk.dir })).stdout);
    const sheet = await run(['validate', 'planilha.xlsx', '--json']);
    const npm = await runCli(['validate', 'planilha.xlsx', '--json'], { cwd: desk.dir });
    expect(sheet.code).toBe(1);
    expect(sheet.stdout).toBe(npm.stdout);
    // The template's labels travel inside the executable.
    const template = await run(['template', '--format', 'csv', '-o', '-'], { LANG: 'pt_BR.UTF-8' });
    expect(template.stdout).toBe((await runCli(['template', '--format', 'csv', '-o', '-'], { env: { LANG: 'pt_BR.UTF-8' } })).stdout);
    expect(template.stdout).toContain('Número');
  });

  it('watch takes a signed delivery while submit --wait follows it; a second run finds the contract in the store and sends nothing', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const watch = startWatch(['--port', '0', '--json'], desk.env({ ECONSIG_WEBHOOK_SECRET: secret }), desk.program);
    const url = new URL(await watch.url());
    const sandbox = await startSandboxProcess(desk.program, ['--webhook-url', url.href, '--secret', secret, '--delay', '0.2'], desk.env());
    cleanups.push(() => sandbox.stop());
    const service = { ECONSIG_BASE_URL: sandbox.baseUrl, ECONSIG_TOKEN: sandbox.token };

    const first = await run(['submit', 'bank-and-pix.json', '--wait', '--listen', url.host, '--timeout', '20', '--json'], service);
    expect(first.code, first.stderr).toBe(0);
    const [sent] = parseSubmitJson(first.stdout).results;
    expect(sent).toMatchObject({ outcome: 'approved', httpStatus: 202 });
    expect(JSON.parse(await watch.nextLine())).toMatchObject({ idContrato: sent?.idContrato, verified: true });

    const again = await run(['submit', 'bank-and-pix.json', '--json'], service);
    expect(again.code, again.stderr).toBe(0);
    expect(parseSubmitJson(again.stdout).results[0]?.idContrato).toBe(sent?.idContrato);
    const history = await run(['history', '--json']);
    expect(history.stdout).toContain(sent?.idContrato as string);
    expect(sandbox.log.filter((line) => (JSON.parse(line) as { method?: string }).method === 'POST')).toHaveLength(1);
    await watch.stop();
  });

  it.skipIf(skipTerminal)('the wizard in Portuguese, in a terminal: the accents typed and shown, the contract accepted', async () => {
    expect(hasTmux).toBe(true);
    const sandbox = await startSandboxProcess(desk.program, ['--delay', '60'], desk.env());
    cleanups.push(() => sandbox.stop());
    const partial = JSON.parse(readFileSync(join(desk.dir, 'pix-only.json'), 'utf8')) as { pessoa: Record<string, unknown> };
    delete partial.pessoa.naturalidade;
    writeFileSync(join(desk.dir, 'partial.json'), JSON.stringify(partial));
    const env = { PATH: desk.env().PATH, ECONSIG_TOKEN: sandbox.token, ECONSIG_BASE_URL: sandbox.baseUrl, LANG: 'pt_BR.UTF-8' };
    const terminal = runInTerminal(desk.home, env, `submit -i --file partial.json`, { cols: 100, rows: 40 }, { program: desk.program, cwd: desk.dir });
    cleanups.push(terminal.cleanup);
    await terminal.term.answer('Naturalidade', 'São João');
    const summary = await terminal.term.waitFor('? E agora?');
    expect(summary).toContain('São João');
    terminal.term.keys('Enter'); // Enviar
    await terminal.waitExit(15_000);
    const screen = terminal.term.pane(true);
    expect(terminal.exitCode(), screen).toBe('0');
    expect(screen.replace(/\s+/g, ' ')).toMatch(/aceita 202 aceita: contrato /);
  });

  it('OAuth2 client credentials and a client certificate, over HTTPS: accepted', async () => {
    const certs = makeTestCerts();
    cleanups.push(() => certs.cleanup());
    const s = await startLoggedSandbox({ oauth: {}, tls: { cert: readFileSync(certs.serverCert), key: readFileSync(certs.serverKey), clientCa: readFileSync(certs.ca) } });
    cleanups.push(() => s.close());
    const file = join(desk.dir, 'PROP-2001.json');
    writeFileSync(file, JSON.stringify(bankOnly('PROP-2001')));
    const r = await run(['submit', file, '--json'], oauthEnv(s, certs));
    expect(r.code, r.stderr).toBe(0);
    expect(parseSubmitJson(r.stdout).results[0]?.outcome).toBe('accepted');
    expect(s.tokenRequests().map((e) => e.status)).toEqual([200]);
    expect(s.posts().map((e) => e.status)).toEqual([202]);
  });
});
