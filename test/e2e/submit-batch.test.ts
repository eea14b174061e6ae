/**
 * A batch of 100 submissions through the built binary (a folder of files, --concurrency 8,
 * --report): all accepted, the JUnit XML agrees, and the store holds every one.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { type CountedSandbox, UUID, bankOnly, cliEnv, parseSubmitJson, startCountedSandbox, writeJson, useScratch } from './submit-harness.js';

let home: string;
let dir: string;
let sbx: CountedSandbox | undefined;
const scratch = useScratch(); // temp home and folder; every sandbox and stub closed after each test
beforeEach(() => {
  ({ home, dir } = scratch);
  sbx = undefined;
});

describe('submit: a batch of 100', () => {
  it('PROP-2001..2100 at --concurrency 8 with --report: exit 0, 100 accepted, JUnit 100 cases 0 failures, history lists 100', async () => {
    sbx = await startCountedSandbox({ delayMs: 1_000 });
    const folder = join(dir, 'submissions');
    mkdirSync(folder);
    const ids = Array.from({ length: 100 }, (_, i) => `PROP-${2001 + i}`);
    // Bank data and no Pix key: PROP-2001..2100 belong to one worker each and no Pix rule applies.
    for (const id of ids) writeJson(folder, `${id}.json`, bankOnly(id));
    const report = join(dir, 'junit.xml');

    const started = Date.now();
    const run = await runCli(['submit', folder, '--concurrency', '8', '--report', report, '--json'], {
      env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token),
      timeoutMs: 30_000,
    });
    const seconds = (Date.now() - started) / 1000;
    expect(run.code, run.stderr).toBe(0);
    const doc = parseSubmitJson(run.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.results).toHaveLength(100);
    expect(doc.results.filter((r) => r.outcome === 'accepted')).toHaveLength(100);
    for (const r of doc.results) expect(r.idContrato).toMatch(UUID);
    expect(new Set(doc.results.map((r) => r.idContrato)).size).toBe(100);
    expect(sbx.requests()).toBe(100);
    expect(new Set(sbx.sandbox.contracts().map((c) => c.idProposta))).toEqual(new Set(ids));

    const xml = readFileSync(report, 'utf8');
    expect(xml.match(/<testcase\b/g)).toHaveLength(100);
    expect(xml).not.toMatch(/<failure\b/);
    expect(xml).toMatch(/<testsuite\b[^>]*\btests="100"[^>]*\bfailures="0"/);
    // Each case has its own time (it was time="0" for all).
    expect(xml).toMatch(/<testcase\b[^>]*\btime="(?!0\.000")\d+\.\d{3}"/);

    const history = await runCli(['history', '--json', '--limit', '200'], { env: { ECONSIG_HOME: home } });
    expect(history.code, history.stderr).toBe(0);
    const entries = (JSON.parse(history.stdout) as { entries: Array<{ idProposta: string; outcome: string; idContrato: string }> }).entries;
    expect(entries).toHaveLength(100);
    expect(new Set(entries.map((e) => e.idProposta))).toEqual(new Set(ids));
    expect(entries.every((e) => e.outcome === 'accepted')).toBe(true);
    // Default --limit is 20.
    const limited = await runCli(['history', '--json'], { env: { ECONSIG_HOME: home } });
    expect((JSON.parse(limited.stdout) as { entries: unknown[] }).entries).toHaveLength(20);
    console.info(`batch of 100 at --concurrency 8: ${seconds.toFixed(2)} s wall (process start included)`);
  });
});
