/**
 * 429 through the built binary: a rate-limited sandbox lets a batch through in the end
 * (retries counted at the server), and a server that always answers 429 gets exactly the
 * retry limit of requests, then exit 6 (docs/cli-contract.md "Exit codes", retry.ts policy).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { type CountedSandbox, type Stub, UUID, bankOnly, cliEnv, parseSubmitJson, startCountedSandbox, startStub, writeJson, useScratch } from './submit-harness.js';

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

describe('submit: 429', () => {
  it('rate limit 1/s, 3 files at --concurrency 3: all accepted after retries', async () => {
    sbx = await startCountedSandbox({ rateLimit: 1, delayMs: 500 });
    const files = ['PROP-2001', 'PROP-2002', 'PROP-2003'].map((id) => writeJson(dir, `${id}.json`, bankOnly(id)));
    const run = await runCli(['submit', ...files, '--concurrency', '3', '--json'], { env: cliEnv(home, sbx.sandbox.url, sbx.sandbox.token) });
    expect(run.code, run.stderr).toBe(0);
    const doc = parseSubmitJson(run.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.results.map((r) => r.outcome)).toEqual(['accepted', 'accepted', 'accepted']);
    for (const r of doc.results) expect(r.idContrato).toMatch(UUID);
    expect(new Set(doc.results.map((r) => r.idContrato)).size).toBe(3);
    // Each 429 is a request too: more than one per file reached the sandbox.
    expect(sbx.requests()).toBeGreaterThan(3);
    expect(sbx.log.filter((e) => e.status === 429).length).toBe(sbx.requests() - 3);
    expect(sbx.sandbox.contracts()).toHaveLength(3);
    expect(run.stderr).toMatch(/retrying in/);
  });

  it('always 429 (Retry-After: 0): exit 6 after the retry limit, rate_limited', async () => {
    stub = await startStub((_req, res) => {
      const body = JSON.stringify({ erros: [{ codigo: 'SVC_R00429', msg: 'Limite de requisições atingido.' }] });
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(body);
    });
    const file = writeJson(dir, 'one.json', bankOnly('PROP-2001'));
    const run = await runCli(['submit', file, '--json'], { env: cliEnv(home, stub.url, 'sbx_stub_token_0123456789') });
    expect(run.code, run.stderr).toBe(6);
    const r = parseSubmitJson(run.stdout).results[0]!;
    expect(r).toMatchObject({ outcome: 'rate_limited', httpStatus: 429, idContrato: null });
    // retry.ts defaultRetryPolicy.maxRateLimitAttempts: 5 requests in all, then give up.
    expect(stub.requests()).toBe(5);
    expect(r.message).toMatch(/5 attempt/);
  });
});
