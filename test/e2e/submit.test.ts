/**
 * `econsig submit` through the built binary against the sandbox over real HTTP: one test
 * per answer of the service (docs/cli-contract.md "Exit codes"), each checking the exit code,
 * the --json document and, where it matters, stderr and how many requests arrived.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import {
  type CountedSandbox,
  type Stub,
  UUID,
  bankOnly,
  cliEnv,
  freePort,
  parseSubmitJson,
  readFixture,
  startCountedSandbox,
  startStub,
  writeJson,
  useScratch,
} from './submit-harness.js';

const BANK_AND_PIX = 'fixtures/valid/bank-and-pix.json'; // PROP-1001, Maria, her own CPF key

let home: string;
let dir: string;
let sbx: CountedSandbox | undefined;
let stub: Stub | undefined;
const scratch = useScratch(); // temp home and folder; every sandbox and stub closed after each test
beforeEach(() => {
  ({ home, dir } = scratch);
  sbx = undefined;
  stub = undefined;
});

const env = (token?: string): Record<string, string | undefined> => cliEnv(home, sbx!.sandbox.url, token ?? sbx!.sandbox.token);

describe('submit: answers of the service', () => {
  it('202: accepted, exit 0, target line names profile and base URL', async () => {
    sbx = await startCountedSandbox({ delayMs: 500 });
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const doc = parseSubmitJson(run.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.results).toHaveLength(1);
    expect(doc.results[0]).toMatchObject({ file: BANK_AND_PIX, outcome: 'accepted', httpStatus: 202, erros: [], result: null });
    expect(doc.results[0]!.idContrato).toMatch(UUID);
    expect(sbx.sandbox.contracts().map((c) => c.idContrato)).toEqual([doc.results[0]!.idContrato]);
    expect(run.stderr).toContain(sbx.sandbox.url);
    expect(run.stderr).toMatch(/profile default/);
    expect(sbx.requests()).toBe(1);
  });

  it('401 with a wrong token: exit 3, unauthorized, the token shown nowhere even with --verbose', async () => {
    sbx = await startCountedSandbox();
    const wrong = 'sbx_wrong_e2e_token_5f1c9a7d3b2e4f60';
    for (const args of [['--json'], ['--verbose'], ['--json', '--verbose']]) {
      const run = await runCli(['submit', BANK_AND_PIX, ...args], { env: env(wrong) });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stdout + run.stderr).not.toContain(wrong);
      // Not even a long piece of it.
      expect(run.stdout + run.stderr).not.toContain(wrong.slice(0, 16));
      if (args.includes('--json')) {
        const doc = parseSubmitJson(run.stdout);
        expect(doc.ok).toBe(false);
        expect(doc.results[0]).toMatchObject({ outcome: 'unauthorized', httpStatus: 401, idContrato: null });
      } else {
        expect(run.stderr).toMatch(/unauthorized/);
        expect(run.stderr).toMatch(/The token came from ECONSIG_TOKEN/);
      }
    }
    expect(sbx.requests()).toBe(3);
  });

  it('no token at all: exit 3 before anything is sent, says how to log in', async () => {
    sbx = await startCountedSandbox();
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env: cliEnv(home, sbx.sandbox.url, undefined) });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/econsig auth login|ECONSIG_TOKEN/);
    expect(sbx.requests()).toBe(0);
  });

  it('404 unknown proposal: exit 4, not_found with SVC_P00003', async () => {
    sbx = await startCountedSandbox();
    const file = writeJson(dir, 'unknown.json', { ...readFixture('valid/bank-only.json'), idProposta: 'PROP-9999' });
    const run = await runCli(['submit', file, '--json'], { env: env() });
    expect(run.code, run.stderr).toBe(4);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r).toMatchObject({ file, outcome: 'not_found', httpStatus: 404, idContrato: null });
    expect(r.erros.map((e) => e.codigo)).toContain('SVC_P00003');
    expect(sbx.requests()).toBe(1);
  });

  it('422 in progress: a second contract of the same worker (PROP-1004 after PROP-1001) exits 5 with the service code', async () => {
    sbx = await startCountedSandbox({ delayMs: 30_000 });
    const first = await runCli(['submit', BANK_AND_PIX, '--json'], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    const file = writeJson(dir, 'prop-1004.json', { ...readFixture('valid/bank-and-pix.json'), idProposta: 'PROP-1004' });
    const run = await runCli(['submit', file, '--json'], { env: env() });
    expect(run.code, run.stderr).toBe(5);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r).toMatchObject({ outcome: 'rejected', httpStatus: 422, idContrato: null });
    expect(r.erros.map((e) => e.codigo)).toEqual(['SVC_C00001']);
    expect(sbx.requests()).toBe(2);
  });

  it('422 Pix key not linked to the worker: exit 5, rejected, stderr names the code', async () => {
    sbx = await startCountedSandbox();
    const fixture = readFixture('valid/bank-and-pix.json');
    const file = writeJson(dir, 'other-key.json', { ...fixture, contaBancaria: { ...fixture.contaBancaria, chavePix: 'outra.pessoa@example.com' } });
    const run = await runCli(['submit', file, '--json'], { env: env() });
    expect(run.code, run.stderr).toBe(5);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r).toMatchObject({ outcome: 'rejected', httpStatus: 422 });
    expect(r.erros.map((e) => e.codigo)).toEqual(['SVC_B00001']);
    const human = await runCli(['submit', file], { env: env() });
    expect(human.code).toBe(5);
    expect(human.stderr).toContain('SVC_B00001');
  });

  it('500: outcome unknown, exit 7, sent exactly once (never retried), hint says how to check', async () => {
    sbx = await startCountedSandbox({ failRate: 1 });
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env: env() });
    expect(run.code, run.stderr).toBe(7);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r).toMatchObject({ outcome: 'unknown', httpStatus: 500, idContrato: null });
    expect(sbx.requests()).toBe(1);
    const human = await runCli(['submit', BANK_AND_PIX, '--force'], { env: env() });
    expect(human.code).toBe(7);
    expect(human.stderr).toContain('econsig history --proposal PROP-1001');
    expect(sbx.requests()).toBe(2);
  });

  it('undocumented answers (200 HTML, 502 HTML): exit 7, the request not repeated', async () => {
    for (const status of [200, 502]) {
      stub = await startStub((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<html><body>Gateway says hello</body></html>');
      });
      const run = await runCli(['submit', BANK_AND_PIX, '--json', '--force'], { env: cliEnv(home, stub.url, 'sbx_stub_token_0123456789') });
      expect(run.code, `${status}: ${run.stderr}`).toBe(7);
      const r = parseSubmitJson(run.stdout).results[0]!;
      // Sent and answered oddly: the contract may exist, so "unknown" (not "unavailable").
      expect(r.outcome).toBe('unknown');
      expect(r.httpStatus).toBe(status);
      expect(r.idContrato).toBeNull();
      expect(stub.requests()).toBe(1);
      await stub.close();
      stub = undefined;
    }
  });

  it('connection refused: exit 7, outcome unavailable, nothing created', async () => {
    const port = await freePort();
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env: cliEnv(home, `http://127.0.0.1:${port}`, 'sbx_stub_token_0123456789') });
    expect(run.code, run.stderr).toBe(7);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r).toMatchObject({ outcome: 'unavailable', httpStatus: null, idContrato: null });
  });
});

describe('submit: batches', () => {
  it('valid, invalid and 404 files: exit code of the first failing file in input order', async () => {
    sbx = await startCountedSandbox();
    const valid = writeJson(dir, 'a-valid.json', bankOnly('PROP-1002'));
    const invalid = join('fixtures', 'invalid', 'cep-too-short.json');
    const missing = writeJson(dir, 'c-missing.json', bankOnly('PROP-9999'));

    const run = await runCli(['submit', valid, invalid, missing, '--json'], { env: env() });
    expect(run.code, run.stderr).toBe(1);
    const doc = parseSubmitJson(run.stdout);
    expect(doc.ok).toBe(false);
    expect(doc.results.map((r) => [r.file, r.outcome])).toEqual([
      [valid, 'accepted'],
      [invalid, 'invalid'],
      [missing, 'not_found'],
    ]);
    expect(sbx.requests()).toBe(2); // the invalid file is never sent

    // The same files, the 404 first among the failures: its code wins.
    const swapped = await runCli(['submit', missing, invalid, '--json'], { env: env() });
    expect(swapped.code, swapped.stderr).toBe(4);
    expect(parseSubmitJson(swapped.stdout).results.map((r) => r.outcome)).toEqual(['not_found', 'invalid']);
  });
});

describe('submit: before sending', () => {
  it('--dry-run: method, URL, headers with the token redacted, body; nothing sent', async () => {
    sbx = await startCountedSandbox();
    const token = sbx.sandbox.token;
    const run = await runCli(['submit', BANK_AND_PIX, '--dry-run'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`POST ${sbx.sandbox.url}/api/v1/e-consignado/contratos`);
    expect(run.stdout).toMatch(/^content-type: application\/json$/m);
    expect(run.stdout).toMatch(/^authorization: Bearer \S+$/m);
    expect(run.stdout + run.stderr).not.toContain(token);
    expect(run.stdout).toContain('"idProposta": "PROP-1001"');
    expect(run.stdout).toContain('"chavePix": "52998224725"');

    const json = await runCli(['submit', BANK_AND_PIX, '--dry-run', '--json'], { env: env() });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout + json.stderr).not.toContain(token);
    const doc = JSON.parse(json.stdout) as { requests: Array<{ method: string; url: string; headers: Record<string, string>; body: { idProposta: string } }> };
    expect(doc.requests).toHaveLength(1);
    expect(doc.requests[0]).toMatchObject({ method: 'POST', url: `${sbx.sandbox.url}/api/v1/e-consignado/contratos` });
    expect(doc.requests[0]!.headers.authorization).toMatch(/^Bearer /);
    expect(doc.requests[0]!.body.idProposta).toBe('PROP-1001');
    expect(sbx.requests()).toBe(0);
    expect(existsSync(join(home, 'econsig.db'))).toBe(false);
  });

  it('plain http to a host that is not this machine: exit 2, nothing sent', async () => {
    const run = await runCli(['submit', BANK_AND_PIX, '--json'], { env: cliEnv(home, 'http://example.com', 'sbx_stub_token_0123456789') });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/plain http/);
    // --json: the failure is the one document on stdout.
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { exitCode: 2 } });
    expect(existsSync(join(home, 'econsig.db'))).toBe(false);

    // 0.0.0.0 reaches this machine's sockets but is not a loopback name: still refused, and
    // a stub listening there proves that no request left.
    stub = await startStub((_req, res) => res.end());
    const port = new URL(stub.url).port;
    const other = await runCli(['submit', BANK_AND_PIX], { env: cliEnv(home, `http://0.0.0.0:${port}`, 'sbx_stub_token_0123456789') });
    expect(other.code, other.stderr).toBe(2);
    expect(stub.requests()).toBe(0);
  });

  it('no file in CI: exit 2, says to pass --file', async () => {
    sbx = await startCountedSandbox();
    const run = await runCli(['submit'], { env: env() });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('--file');
    expect(sbx.requests()).toBe(0);
  });
});
