/**
 * The guard through the built binary against the sandbox (docs/cli-contract.md, "The guard"):
 * one service however its base URL is spelled; processes started together on one home send
 * each proposal once; a finished batch run again sends nothing; a 422 frees the proposal; a
 * batch killed with SIGKILL at random moments leaves only what may have reached the service
 * unknown, and run again (after settle) POSTs each proposal once in all. Requests are
 * counted at the sandbox or at a counting proxy in front of it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { binPath, repoRoot, runCli, type RunResult } from './run-cli.js';
import {
  type CountedSandbox,
  bankOnly,
  catalogueOf,
  cliEnv,
  freePort,
  parseSubmitJson,
  postsByProposal,
  readFixture,
  startCountedSandbox,
  startCountingProxy,
  useScratch,
  writeJson,
} from './submit-harness.js';

let home: string;
let dir: string;
const scratch = useScratch();
beforeEach(() => {
  ({ home, dir } = scratch);
});

interface HistoryEntry {
  idProposta: string;
  idContrato: string | null;
  outcome: string;
  sentAt: string;
  result: { outcome: string } | null;
}
async function history(args: string[] = []): Promise<HistoryEntry[]> {
  const run = await runCli(['history', '--json', '--limit', '100000', ...args], { env: { ECONSIG_HOME: home }, timeoutMs: 30_000 });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { entries: HistoryEntry[] }).entries;
}

describe('processes started together on one home', () => {
  it.each([2, 6])('%i processes with the same 40 files: each proposal POSTed once', async (processes) => {
    const { ids, catalogue } = catalogueOf(40);
    const sbx = await startCountedSandbox({ delayMs: 60_000, catalogue, latencyMs: 20 });
    const folder = join(dir, 'batch');
    mkdirSync(folder);
    for (const id of ids) writeJson(folder, `${id}.json`, bankOnly(id));
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);

    const runs = await Promise.all(
      Array.from({ length: processes }, () => runCli(['submit', folder, '--concurrency', '4', '--json'], { env, timeoutMs: 60_000 })),
    );
    const posts = postsByProposal(sbx);
    expect(sbx.requests(), 'requests that reached the sandbox').toBe(40);
    expect([...posts.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(posts.keys())).toEqual(new Set(ids));
    for (const run of runs) {
      // Issue 26: a claim of another live run is not a failure: its answer is reported (exit 0, never 5).
      expect(run.code, run.stderr).toBe(0);
      const doc = parseSubmitJson(run.stdout);
      // Every file is accepted: sent by this process, or reported from the store (another run's answer).
      expect(doc.results.every((r) => r.outcome === 'accepted')).toBe(true);
      expect(doc.results.every((r) => r.httpStatus !== 422)).toBe(true);
    }
    const entries = await history();
    expect(entries).toHaveLength(40);
    expect(entries.every((e) => e.outcome === 'accepted')).toBe(true);
  }, 90_000);
});

describe('one service however its base URL is spelled (issue 22)', () => {
  it('six spellings of one sandbox make one POST through a counting proxy; a base URL with a query is exit 2', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const proxy = await startCountingProxy(sbx.sandbox.url);
    const p = proxy.port;
    const spellings = [`http://127.0.0.1:${p}`, `HTTP://127.0.0.1:${p}`, `http://localhost:${p}`, `http://127.0.0.1:${p}/`, `http://127.1:${p}`, `http://0x7f000001:${p}`];
    let contract: string | null = null;
    for (const [n, url] of spellings.entries()) {
      const run = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--json'], { env: cliEnv(home, url, sbx.sandbox.token) });
      expect(run.code, `${url}: ${run.stderr}`).toBe(0);
      const result = parseSubmitJson(run.stdout).results[0]!;
      expect(result.outcome, url).toBe('accepted');
      if (n === 0) contract = result.idContrato;
      else {
        expect(result.idContrato, url).toBe(contract);
        expect(result.message, url).toMatch(/from the store/);
      }
    }
    expect(proxy.posts).toEqual([{ idProposta: 'PROP-1001' }]);
    expect(sbx.requests()).toBe(1);

    for (const [args, origin] of [
      [[], 'ECONSIG_BASE_URL'],
      [['--base-url', `http://127.0.0.1:${p}/?x=1`], '--base-url'],
    ] as const) {
      const run = await runCli([...args, 'submit', 'fixtures/valid/bank-and-pix.json'], { env: cliEnv(home, `http://127.0.0.1:${p}/?x=1`, sbx.sandbox.token) });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`http://127.0.0.1:${p}/?x=1`);
      expect(run.stderr).toContain(origin);
      expect(run.stderr).toMatch(/no query/);
    }
    expect(proxy.posts).toHaveLength(1);
  });

  it('service-id makes two origins one service: the second is reported from the store, one POST', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const proxy = await startCountingProxy(sbx.sandbox.url);
    const env = (url: string) => ({ ...cliEnv(home, url, sbx.sandbox.token), ECONSIG_SERVICE_ID: 'sandbox-one' });
    const first = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--json'], { env: env(proxy.url) });
    expect(first.code, first.stderr).toBe(0);
    const contract = parseSubmitJson(first.stdout).results[0]!.idContrato;
    const second = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--json'], { env: env(sbx.sandbox.url) });
    expect(second.code, second.stderr).toBe(0);
    expect(parseSubmitJson(second.stdout).results[0]).toMatchObject({ outcome: 'accepted', idContrato: contract });
    expect(sbx.requests()).toBe(1);
    // Without it, the sandbox's own address is another service: sent again.
    const other = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--json'], { env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(other.code, other.stderr).toBe(5);
    expect(sbx.requests()).toBe(2);
    const entries = await history(['--proposal', 'PROP-1001']);
    expect(entries.map((e) => (e as unknown as { service: string }).service)).toEqual([sbx.sandbox.url, 'sandbox-one']);
  });
});

describe('a finished batch run again', () => {
  it('after --wait saw it approved, the same command sends nothing and reports approved from the store (exit 0)', async () => {
    const port = await freePort();
    const sbx = await startCountedSandbox({ delayMs: 200, webhookUrl: `http://127.0.0.1:${port}/webhook` });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const args = ['submit', 'fixtures/valid/bank-and-pix.json', '--wait', '--listen', `127.0.0.1:${port}`, '--timeout', '10', '--json'];
    const first = await runCli(args, { env });
    expect(first.code, first.stderr).toBe(0);
    const approved = parseSubmitJson(first.stdout).results[0]!;
    expect(approved.outcome).toBe('approved');
    expect(sbx.requests()).toBe(1);

    for (const again of [await runCli(args, { env }), await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--json'], { env })]) {
      expect(again.code, again.stderr).toBe(0);
      const r = parseSubmitJson(again.stdout).results[0]!;
      expect(r).toMatchObject({ outcome: 'approved', idContrato: approved.idContrato });
      expect(r.message).toMatch(/from the store/);
    }
    expect(sbx.requests()).toBe(1);

    // A changed body for the approved proposal: skipped (exit 5), naming the contract.
    const fixture = readFixture('valid/bank-and-pix.json');
    const changed = writeJson(dir, 'changed.json', { ...fixture, pessoa: { ...fixture.pessoa, email: 'nova@example.com' } });
    const other = await runCli(['submit', changed, '--json'], { env });
    expect(other.code, other.stderr).toBe(5);
    const skipped = parseSubmitJson(other.stdout).results[0]!;
    expect(skipped).toMatchObject({ outcome: 'skipped', idContrato: approved.idContrato });
    expect(skipped.message).toContain(approved.idContrato!);
    expect(sbx.requests()).toBe(1);
    const entries = await history(['--proposal', 'PROP-1001']);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'accepted', result: { outcome: 'approved' } });
  });

  it('a denied proposal is not sent again with the same data (exit 8, from the store); corrected data goes', async () => {
    const port = await freePort();
    const sbx = await startCountedSandbox({ delayMs: 200, webhookUrl: `http://127.0.0.1:${port}/webhook` });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const denied = writeJson(dir, 'PROP-1002.json', { ...readFixture('valid/bank-only.json'), idProposta: 'PROP-1002' });
    const wait = ['--wait', '--listen', `127.0.0.1:${port}`, '--timeout', '10', '--json'];
    const first = await runCli(['submit', denied, ...wait], { env });
    expect(first.code, first.stderr).toBe(8);
    const contract = parseSubmitJson(first.stdout).results[0]!.idContrato;
    expect(sbx.requests()).toBe(1);

    const again = await runCli(['submit', denied, '--json'], { env });
    expect(again.code, again.stderr).toBe(8);
    const r = parseSubmitJson(again.stdout).results[0]!;
    expect(r).toMatchObject({ outcome: 'denied', idContrato: contract });
    expect(r.message).toMatch(/^already denied: .*from the store, not sent again/);
    expect(sbx.requests()).toBe(1);

    const fixture = readFixture('valid/bank-only.json');
    const corrected = writeJson(dir, 'corrected.json', { ...fixture, idProposta: 'PROP-1002', pessoa: { ...fixture.pessoa, email: 'nova@example.com' } });
    const fixed = await runCli(['submit', corrected, '--json'], { env });
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(sbx.requests()).toBe(2);
  });

  it('a 422 frees the proposal: the same file is sent again, and the corrected one is accepted', async () => {
    const sbx = await startCountedSandbox({ delayMs: 60_000 });
    const env = cliEnv(home, sbx.sandbox.url, sbx.sandbox.token);
    const fixture = readFixture('valid/bank-and-pix.json');
    const wrongKey = writeJson(dir, 'wrong-key.json', { ...fixture, contaBancaria: { ...fixture.contaBancaria, chavePix: 'outra.pessoa@example.com' } });
    for (let attempt = 1; attempt <= 2; attempt++) {
      const run = await runCli(['submit', wrongKey, '--json'], { env });
      expect(run.code, run.stderr).toBe(5);
      expect(parseSubmitJson(run.stdout).results[0]).toMatchObject({ outcome: 'rejected', httpStatus: 422 });
      expect(sbx.requests()).toBe(attempt);
    }
    const fixed = await runCli(['submit', 'fixtures/valid/bank-and-pix.json', '--json'], { env });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(parseSubmitJson(fixed.stdout).results[0]).toMatchObject({ outcome: 'accepted', httpStatus: 202 });
    expect(sbx.requests()).toBe(3);
    const outcomes = (await history(['--proposal', 'PROP-1001'])).map((e) => e.outcome);
    expect(outcomes).toEqual(['accepted', 'rejected', 'rejected']);
    expect((await history(['--outcome', 'rejected'])).length).toBe(2);
  });
});

describe('a batch killed with SIGKILL, then run again (issue 22)', () => {
  // 500 files at --concurrency 8 against a sandbox answering in 200 ms, through a counting
  // proxy; killed 10 times at random moments, each kill's unknowns settled from what the
  // proxy and the sandbox saw, then run to the end.
  const FILES = 500;
  const KILLS = 10;
  const CONCURRENCY = 8;
  /**
   * A claim is committed, then its request is written: a kill between the two leaves a claim
   * whose POST never left, and nothing local can tell it from one in flight (only the service
   * could). Such a claim must be one of the last instant before the kill.
   */
  const INSTANT_MS = 1_000;

  it('after each kill at most 8 are unknown, each POSTed or claimed in the last instant; settle closes or frees them; the rerun sends exactly the rest, none twice', async () => {
    const { ids, catalogue } = catalogueOf(FILES);
    const sbx = await startCountedSandbox({ delayMs: 600_000, catalogue, latencyMs: 200 });
    const proxy = await startCountingProxy(sbx.sandbox.url);
    const folder = join(dir, 'batch');
    mkdirSync(folder);
    for (const id of ids) writeJson(folder, `${id}.json`, bankOnly(id));
    const env = cliEnv(home, proxy.url, sbx.sandbox.token);
    const args = [binPath, 'submit', folder, '--concurrency', String(CONCURRENCY), '--json'];

    const rounds: Array<{ posts: number; unknown: number; inFlight: number; window: number[] }> = [];
    for (let round = 0; round < KILLS; round++) {
      const before = proxy.posts.length;
      const child = spawn(process.execPath, args, { cwd: repoRoot, env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...env } as NodeJS.ProcessEnv, stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      // A random moment once sending has begun: after 1 to 60 more POSTs, and 0-150 ms more.
      const target = before + 1 + Math.floor(Math.random() * 60);
      await Promise.race([proxy.whenPosts(target).then(() => new Promise((resolve) => setTimeout(resolve, Math.random() * 150))), exited]);
      const killedAt = Date.now();
      child.kill('SIGKILL');
      await exited;
      // Every byte the killed process wrote has reached the proxy, and every request passed on has its answer.
      await proxy.drained();

      const unknown = await history(['--outcome', 'unknown']);
      expect(unknown.length, `round ${round}: unknown after the kill`).toBeLessThanOrEqual(CONCURRENCY);
      const posted = new Set(proxy.posts.map((p) => p.idProposta));
      const contracts = new Map(sbx.sandbox.contracts().map((c) => [c.idProposta, c.idContrato]));
      const window: number[] = [];
      for (const u of unknown) {
        if (posted.has(u.idProposta)) continue;
        const before = killedAt - Date.parse(u.sentAt);
        window.push(before);
        expect(before, `round ${round}: ${u.idProposta} held, never POSTed, claimed ${before} ms before the kill`).toBeLessThan(INSTANT_MS);
      }
      rounds.push({ posts: proxy.posts.length - before, unknown: unknown.length, inFlight: unknown.length - window.length, window });
      // What the provider would say: the contract of each that arrived; the others never did.
      const settled = await Promise.all(
        unknown.map((u) => {
          const contract = contracts.get(u.idProposta);
          return runCli(['settle', u.idProposta, ...(contract ? ['--contract', contract] : ['--not-sent'])], { env });
        }),
      );
      // Settled, none is held any more: the next round (or the last run) sends only what never left.
      for (const run of settled) expect(run.code, run.stderr).toBe(0);
    }

    const final: RunResult = await runCli(['submit', folder, '--concurrency', String(CONCURRENCY), '--json'], { env, timeoutMs: 60_000 });
    expect(final.code, final.stderr).toBe(0);
    const results = parseSubmitJson(final.stdout).results;
    expect(results.every((r) => r.outcome === 'accepted')).toBe(true);
    // Each proposal reached the service exactly once: the reruns sent exactly what had not left.
    const byProposal = new Map<string, number>();
    for (const post of proxy.posts) byProposal.set(String(post.idProposta), (byProposal.get(String(post.idProposta)) ?? 0) + 1);
    const summary = rounds.map((r, n) => `#${n + 1}: ${r.posts} POSTs, ${r.unknown} unknown (${r.inFlight} in flight, ${r.window.length} claimed not sent${r.window.length ? `: ${r.window.join(', ')} ms before the kill` : ''})`).join('\n');
    expect([...byProposal].filter(([, n]) => n !== 1), summary).toEqual([]);
    expect(new Set(byProposal.keys())).toEqual(new Set(ids));
    // The store and the sandbox agree on every contract.
    const atSandbox = new Map(sbx.sandbox.contracts().map((c) => [c.idProposta, c.idContrato]));
    expect(atSandbox.size).toBe(FILES);
    const entries = await history();
    for (const id of ids) {
      const latest = entries.find((e) => e.idProposta === id);
      expect(latest, id).toMatchObject({ outcome: 'accepted', idContrato: atSandbox.get(id) });
    }
    console.info(`kill -9 rounds (${FILES} files, --concurrency ${CONCURRENCY}, 200 ms latency):\n${summary}`);
  }, 120_000);
});
