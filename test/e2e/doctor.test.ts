/**
 * `econsig doctor` through the built binary against the sandbox over HTTPS with mTLS and
 * OAuth2: a good setup passes every check; each broken one fails at the right check,
 * with that check's exit code and what to do.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthEnv, startLoggedSandbox, type LoggedSandbox } from './auth-harness.js';
import { makeTestCerts, type TestCerts } from './certs.js';
import { runCli } from './run-cli.js';
import { freePort, startStub, useScratch } from './submit-harness.js';

const scratch = useScratch();
let certs: TestCerts;
let s: LoggedSandbox;

beforeAll(async () => {
  certs = makeTestCerts();
  s = await startLoggedSandbox({
    oauth: {},
    tls: { cert: readFileSync(certs.serverCert), key: readFileSync(certs.serverKey), clientCa: readFileSync(certs.ca) },
  });
});
afterAll(async () => {
  await s.close();
  certs.cleanup();
});

function goodEnv(): Record<string, string | undefined> {
  return { ECONSIG_HOME: scratch.home, ...oauthEnv(s, certs) };
}

interface Doc {
  ok: boolean;
  exitCode: number;
  checks: Array<{ name: string; status: string; detail: string; hint?: string; exitCode?: number }>;
}

async function doctor(env: Record<string, string | undefined>): Promise<{ code: number | null; doc: Doc; text: string }> {
  const json = await runCli(['doctor', '--json'], { env });
  const text = await runCli(['doctor'], { env });
  expect(text.code).toBe(json.code);
  return { code: json.code, doc: JSON.parse(json.stdout) as Doc, text: text.stderr };
}

const ORDER = ['settings', 'clock', 'dns', 'tcp', 'tls', 'certificate', 'token', 'receiver', 'store'];

describe('econsig doctor', () => {
  it('a good setup: every check passes (the 3-day test certificate warns), exit 0, in the contract order', async () => {
    const receiver = await startStub((req, res) => {
      res.writeHead(req.url === '/readyz' ? 200 : 404).end();
    });
    const { code, doc, text } = await doctor(goodEnv());
    expect(code, text).toBe(0);
    expect(doc.checks.map((c) => c.name)).toEqual(ORDER);
    expect(doc.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(doc.checks.find((c) => c.name === 'certificate')).toMatchObject({ status: 'warn', detail: expect.stringContaining('accepted by the server') });
    expect(doc.checks.find((c) => c.name === 'token')?.detail).toContain('obtained from');
    expect(text).toContain('all checks passed');
    expect(text).not.toContain(s.sandbox.oauth!.clientSecret);
    // With a receiver configured, it is checked too.
    const set = await runCli(['config', 'set', 'receiver-url', `${receiver.url}/webhook`], { env: { ECONSIG_HOME: scratch.home } });
    expect(set.code).toBe(0);
    const checked = JSON.parse((await runCli(['doctor', '--json'], { env: goodEnv() })).stdout) as Doc;
    expect(checked.checks.find((c) => c.name === 'receiver')).toMatchObject({ status: 'ok' });
    await receiver.close();
    const down = await runCli(['doctor', '--json'], { env: goodEnv() });
    expect(down.code).toBe(7);
    expect((JSON.parse(down.stdout) as Doc).checks.find((c) => c.status === 'fail')?.name).toBe('receiver');
  }, 30_000);

  it.each([
    ['a closed port', 'tcp', 7, 'Nothing listens there', async () => ({ ECONSIG_BASE_URL: `https://127.0.0.1:${await freePort()}` })],
    ['the wrong CA', 'tls', 7, 'set tls.ca', async () => ({ ECONSIG_TLS_CA: certs.otherCa })],
    ['no client certificate', 'certificate', 3, 'Set tls.cert and tls.key', async () => ({ ECONSIG_TLS_CERT: undefined, ECONSIG_TLS_KEY: undefined })],
    ['an expired client certificate', 'certificate', 3, 'renewed certificate', async () => ({ ECONSIG_TLS_CERT: certs.expiredCert, ECONSIG_TLS_KEY: certs.expiredKey })],
    ['a bad client secret', 'token', 3, 'Check the client id and secret', async () => ({ ECONSIG_CLIENT_SECRET: 'not-the-secret-123' })],
    ['a half-set certificate', 'settings', 2, 'needs its private key', async () => ({ ECONSIG_TLS_KEY: undefined })],
    ['a team store that is down', 'store', 74, 'is up and reachable', async () => ({ ECONSIG_DATABASE_URL: `postgres://clerk:pw-5ecret@127.0.0.1:${await freePort()}/econsig` })],
  ] as const)('%s: fails at %s with exit %s and says what to do', async (_name, check, exitCode, hint, broken) => {
    const { code, doc, text } = await doctor({ ...goodEnv(), ...(await broken()) });
    expect(code, text).toBe(exitCode);
    const first = doc.checks.find((c) => c.status === 'fail');
    expect(first?.name).toBe(check);
    expect(first?.hint).toContain(hint);
    expect(doc.exitCode).toBe(exitCode);
    expect(text).toContain(`${check} failed (exit ${exitCode})`);
    expect(text).toContain(hint);
    expect(text + JSON.stringify(doc)).not.toContain('pw-5ecret');
  }, 30_000);
});
