/**
 * The store through the built binary: a submission survives a SIGKILL mid-flight as
 * "unknown" and blocks a blind resend; the guard answers from the store without sending
 * (docs/cli-contract.md, "The guard").
 */
import { spawn } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { binPath, repoRoot, runCli } from './run-cli.js';
import { waitFor } from '../wait-for.js';
import { type CountedSandbox, type Stub, UUID, bankOnly, cliEnv, parseSubmitJson, readFixture, startCountedSandbox, startStub, writeJson, useScratch } from './submit-harness.js';

const BANK_AND_PIX = 'fixtures/valid/bank-and-pix.json'; // PROP-1001

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

interface HistoryDoc {
  entries: Array<{ idProposta: string; idContrato: string | null; file: string | null; outcome: string; httpStatus: number | null; sentAt: string; result: unknown }>;
}

describe('the store across a killed process', () => {
  it('SIGKILL mid-flight: history shows unknown; a resend is refused unless --force', async () => {
    // Accepts the request and never answers: the submission is in flight when we kill.
    stub = await startStub(() => undefined);
    const env = cliEnv(home, stub.url, 'sbx_stub_token_0123456789');

    const child = spawn(process.execPath, [binPath, 'submit', BANK_AND_PIX, '--json'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      // The claim is committed before the POST leaves, so a request at the stub means a claim in the store.
      await waitFor(() => stub!.requests() === 1, 8_000);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');

    const history = await runCli(['history', '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    const doc = JSON.parse(history.stdout) as HistoryDoc;
    expect(doc.entries).toHaveLength(1);
    expect(doc.entries[0]).toMatchObject({ idProposta: 'PROP-1001', file: BANK_AND_PIX, outcome: 'unknown', idContrato: null, httpStatus: null });

    const again = await runCli(['submit', BANK_AND_PIX, '--json'], { env });
    expect(again.code, again.stderr).toBe(5);
    const skipped = parseSubmitJson(again.stdout).results[0]!;
    expect(skipped.outcome).toBe('skipped');
    expect(skipped.httpStatus).toBeNull();
    expect(stub.requests()).toBe(1);

    // --force sends it; the stub still never answers, so it ends unknown after the request timeout.
    const forced = await runCli(['submit', BANK_AND_PIX, '--force', '--request-timeout', '1', '--json'], { env });
    expect(stub.requests()).toBe(2);
    expect(forced.code, forced.stderr).toBe(7);
    expect(parseSubmitJson(forced.stdout).results[0]!.outcome).toBe('unknown');
  });
});

describe('in-progress guard', () => {
  it('same file again: accepted from the store; another body: skipped; --force: sent and refused by the service', async () => {
    sbx = await startCountedSandbox({ delayMs: 30_000 });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);

    const first = await runCli(['submit', BANK_AND_PIX, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const accepted = parseSubmitJson(first.stdout).results[0]!;
    expect(accepted.outcome).toBe('accepted');
    expect(accepted.idContrato).toMatch(UUID);
    expect(sbx.requests()).toBe(1);

    const same = await runCli(['submit', BANK_AND_PIX, '--json'], { env });
    expect(same.code, same.stderr).toBe(0);
    const fromStore = parseSubmitJson(same.stdout).results[0]!;
    expect(fromStore).toMatchObject({ outcome: 'accepted', idContrato: accepted.idContrato, httpStatus: 202 });
    expect(fromStore.message).toMatch(/from the store/);
    expect(sbx.requests()).toBe(1);

    const fixture = readFixture('valid/bank-and-pix.json');
    const changed = writeJson(dir, 'changed.json', { ...fixture, pessoa: { ...fixture.pessoa, email: 'maria.nova@example.com' } });
    const other = await runCli(['submit', changed, '--json'], { env });
    expect(other.code, other.stderr).toBe(5);
    const skipped = parseSubmitJson(other.stdout).results[0]!;
    expect(skipped.outcome).toBe('skipped');
    expect(skipped.idContrato).toBe(accepted.idContrato);
    expect(sbx.requests()).toBe(1);
    const human = await runCli(['submit', changed], { env });
    expect(human.code).toBe(5);
    expect(human.stderr).toMatch(/--force/);
    expect(sbx.requests()).toBe(1);

    const forced = await runCli(['submit', changed, '--force', '--json'], { env });
    expect(forced.code, forced.stderr).toBe(5);
    const refused = parseSubmitJson(forced.stdout).results[0]!;
    expect(refused).toMatchObject({ outcome: 'rejected', httpStatus: 422 });
    expect(refused.erros.map((e) => e.codigo)).toEqual(['SVC_C00001']);
    expect(sbx.requests()).toBe(2);
  });

  it('the same file twice in one batch at --concurrency 2 is sent only once', async () => {
    sbx = await startCountedSandbox({ delayMs: 30_000 });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const run = await runCli(['submit', BANK_AND_PIX, BANK_AND_PIX, '--concurrency', '2', '--json'], { env });
    const doc = parseSubmitJson(run.stdout);
    expect(sbx.requests(), 'POSTs that reached the sandbox for one proposal listed twice').toBe(1);
    // The second copy is answered from the store or by the guard, never by the service.
    expect(doc.results.map((r) => r.httpStatus === 422)).toEqual([false, false]);
    expect(run.code).toBe(0);
  });

  it('one proposal twice with different data: the first is sent, the second skipped (exit 5), whatever the concurrency', async () => {
    sbx = await startCountedSandbox({ delayMs: 30_000 });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const changed = readFixture('valid/bank-and-pix.json');
    changed.pessoa.email = 'outro.email@example.com';
    const second = writeJson(dir, 'changed.json', changed);
    const run = await runCli(['submit', BANK_AND_PIX, second, '--concurrency', '2', '--json'], { env });
    const doc = parseSubmitJson(run.stdout);
    expect(sbx.requests()).toBe(1);
    expect(doc.results.map((r) => r.outcome)).toEqual(['accepted', 'skipped']);
    expect(run.code).toBe(5);
  });
});

describe('Ctrl-C in a batch', () => {
  it('SIGINT: exit 130, what was sent is accepted, the rest skipped; running again sends only the rest', async () => {
    sbx = await startCountedSandbox({ delayMs: 30_000, latencyMs: 200 });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const ids = Array.from({ length: 12 }, (_, i) => `PROP-${2001 + i}`);
    const files = ids.map((id) => writeJson(dir, `${id}.json`, bankOnly(id)));

    const child = spawn(process.execPath, [binPath, 'submit', ...files, '--concurrency', '2', '--json'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await waitFor(() => sbx!.requests() >= 2, 8_000);
      child.kill('SIGINT');
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    expect(await exited).toBe(130);
    const doc = JSON.parse(stdout) as { interrupted?: boolean; results: Array<{ outcome: string }> };
    expect(doc.interrupted).toBe(true);
    // A CI log (--json, no terminal) says why the run stopped.
    expect(stderr).toContain('Interrupted: nothing more is sent');
    const outcomes = doc.results.map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(sbx.requests());
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(12 - sbx.requests());
    expect(sbx.requests()).toBeLessThan(12);

    const again = await runCli(['submit', ...files, '--concurrency', '4', '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(parseSubmitJson(again.stdout).results.every((r) => r.outcome === 'accepted')).toBe(true);
    expect(sbx.requests()).toBe(12);
    expect(new Set(sbx.sandbox.contracts().map((c) => c.idProposta))).toEqual(new Set(ids));
  });

  it('a second Ctrl-C while the sends hang: only the proposals that left are "unknown"; the ones never sent are free for the rerun', async () => {
    // Takes each request and never answers: four sends hang; each of the four more is claimed only when it is sent.
    stub = await startStub(() => undefined);
    const ids = Array.from({ length: 8 }, (_, i) => `PROP-${2001 + i}`);
    const files = ids.map((id) => writeJson(dir, `${id}.json`, bankOnly(id)));
    const child = spawn(process.execPath, [binPath, 'submit', ...files, '--concurrency', '4', '--json'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...cliEnv(home, stub.url, 'sbx_stub_token_0123456789') } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await waitFor(() => stub!.requests() === 4, 8_000);
      child.kill('SIGINT');
      // A person's second press. One within the echo window (src/signals.ts) is taken for the
      // first one's echo and ignored: pressed again until the run ends.
      for (let press = 0; child.exitCode === null && press < 80; press++) {
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 100))]);
      }
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    expect(await exited).toBe(130);
    expect(stub.requests()).toBe(4);

    sbx = await startCountedSandbox({ delayMs: 30_000 });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const history = JSON.parse((await runCli(['history', '--json'], { env })).stdout) as HistoryDoc;
    const unknown = history.entries.filter((e) => e.outcome === 'unknown').map((e) => e.idProposta).sort();
    expect(unknown).toEqual(ids.slice(0, 4));
    // The four never sent were never claimed: nothing holds them, the same command again sends them.
    const rest = history.entries.filter((e) => ids.slice(4).includes(e.idProposta));
    expect(rest, JSON.stringify(rest)).toEqual([]);
  }, 30_000);
});
