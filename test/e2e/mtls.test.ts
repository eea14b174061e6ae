/**
 * Client certificates (mTLS) through the built binary against the sandbox over real HTTPS,
 * with certificates generated for this run by openssl (test/e2e/certs.ts): the token
 * endpoint and the service both demand a client certificate signed by the test CA.
 */
import { chmodSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoLeak, startLoggedSandbox, type LoggedSandbox } from './auth-harness.js';
import { makeTestCerts, type TestCerts } from './certs.js';
import { runCli } from './run-cli.js';
import { bankOnly, parseSubmitJson, useScratch, writeJson } from './submit-harness.js';

const scratch = useScratch();
let certs: TestCerts;

beforeAll(() => {
  certs = makeTestCerts();
});
afterAll(() => certs.cleanup());

async function mtlsSandbox(): Promise<LoggedSandbox> {
  return startLoggedSandbox({
    oauth: {},
    tls: { cert: readFileSync(certs.serverCert), key: readFileSync(certs.serverKey), clientCa: readFileSync(certs.ca) },
  });
}

function env(s: LoggedSandbox, tls: Record<string, string | undefined>): Record<string, string | undefined> {
  const o = s.sandbox.oauth!;
  return {
    ECONSIG_HOME: scratch.home,
    ECONSIG_BASE_URL: s.sandbox.url,
    ECONSIG_TOKEN_URL: o.tokenUrl,
    ECONSIG_CLIENT_ID: o.clientId,
    ECONSIG_CLIENT_SECRET: o.clientSecret,
    ...tls,
  };
}

function proposal(id = 'PROP-2001'): string {
  return writeJson(scratch.dir, `${id}.json`, bankOnly(id));
}

describe('mTLS with OAuth2 over HTTPS', () => {
  it('a good PEM certificate and the CA: token and contract over mTLS, exit 0', async () => {
    const s = await mtlsSandbox();
    try {
      expect(s.sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const run = await runCli(['submit', proposal(), '--json'], { env: env(s, { ECONSIG_TLS_CERT: certs.clientCert, ECONSIG_TLS_KEY: certs.clientKey, ECONSIG_TLS_CA: certs.ca }) });
      expect(run.code, run.stderr).toBe(0);
      expect(parseSubmitJson(run.stdout).results[0]?.outcome).toBe('accepted');
      expect(s.tokenRequests().map((e) => e.status)).toEqual([200]);
      expect(s.posts().map((e) => e.status)).toEqual([202]);
      expectNoLeak([s.sandbox.oauth!.clientSecret, ...s.sandbox.oauth!.issuedTokens()], [run.stdout, run.stderr], scratch.home);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('a PKCS#12 bundle with ECONSIG_TLS_PASSPHRASE, set with config (relative paths stored absolute): exit 0; a wrong passphrase: exit 3', async () => {
    const s = await mtlsSandbox();
    try {
      const base = { ECONSIG_HOME: scratch.home };
      // Relative paths are stored absolute: the next run may start in another folder.
      for (const [key, value] of [['tls.pfx', 'client.p12'], ['tls.ca', 'ca.pem']] as const) {
        expect((await runCli(['config', 'set', key, value], { env: base, cwd: certs.dir })).code).toBe(0);
      }
      expect((await runCli(['config', 'get', 'tls.pfx'], { env: base })).stdout.trim()).toBe(certs.pfx);
      const run = await runCli(['submit', proposal()], { env: env(s, { ECONSIG_TLS_PASSPHRASE: certs.pfxPassphrase }) });
      expect(run.code, run.stderr).toBe(0);
      const wrong = await runCli(['submit', proposal('PROP-2002')], { env: env(s, { ECONSIG_TLS_PASSPHRASE: 'not-it' }) });
      expect(wrong.code, wrong.stderr).toBe(3);
      expect(wrong.stderr).toContain(certs.pfx);
      expect(wrong.stderr).toContain('ECONSIG_TLS_PASSPHRASE');
      expect(s.posts()).toHaveLength(1);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('a self-signed client certificate: exit 3 naming the certificate, nothing sent', async () => {
    const s = await mtlsSandbox();
    try {
      const run = await runCli(['submit', proposal()], { env: env(s, { ECONSIG_TLS_CERT: certs.selfSignedCert, ECONSIG_TLS_KEY: certs.selfSignedKey, ECONSIG_TLS_CA: certs.ca }) });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain(`refused the client certificate ${certs.selfSignedCert}`);
      expect(run.stderr).toContain('CN=self-signed client');
      expect(s.log).toHaveLength(0);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('no client certificate where one is demanded: exit 3 saying to set tls.cert', async () => {
    const s = await mtlsSandbox();
    try {
      const run = await runCli(['submit', proposal()], { env: env(s, { ECONSIG_TLS_CA: certs.ca }) });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('demands a client certificate');
      expect(run.stderr).toContain('tls.cert');
      expect(s.log).toHaveLength(0);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('an expired client certificate is refused before any connection, with its dates', async () => {
    const s = await mtlsSandbox();
    try {
      const run = await runCli(['submit', proposal()], { env: env(s, { ECONSIG_TLS_CERT: certs.expiredCert, ECONSIG_TLS_KEY: certs.expiredKey, ECONSIG_TLS_CA: certs.ca }) });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('has expired: valid from 2020-01-01T00:00:00.000Z to 2021-01-01T00:00:00.000Z');
      expect(s.log).toHaveLength(0);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('a server this machine does not trust (no tls.ca, or the wrong CA): exit 7 saying to set tls.ca', async () => {
    const s = await mtlsSandbox();
    try {
      for (const ca of [undefined, certs.otherCa]) {
        const run = await runCli(['submit', proposal()], { env: env(s, { ECONSIG_TLS_CERT: certs.clientCert, ECONSIG_TLS_KEY: certs.clientKey, ECONSIG_TLS_CA: ca }) });
        expect(run.code, run.stderr).toBe(7);
        expect(run.stderr).toContain('does not trust');
        expect(run.stderr).toContain('tls.ca');
      }
      expect(s.log).toHaveLength(0);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('a key file others can read: a warning; auth status shows subject, issuer, expiry and warns within 30 days', async () => {
    const s = await mtlsSandbox();
    try {
      const key = join(scratch.dir, 'client.key');
      copyFileSync(certs.clientKey, key);
      chmodSync(key, 0o644);
      const tls = { ECONSIG_TLS_CERT: certs.clientCert, ECONSIG_TLS_KEY: key, ECONSIG_TLS_CA: certs.ca };
      const run = await runCli(['submit', proposal()], { env: env(s, tls) });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`ECONSIG_TLS_KEY ${key} can be read by other users (mode 0644)`);
      const status = await runCli(['auth', 'status'], { env: env(s, tls) });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stderr).toContain('subject O=Banco Exemplo, CN=econsig test client');
      expect(status.stderr).toContain('issuer  CN=econsig test CA');
      expect(status.stderr).toContain('expires within 30 days');
      const json = JSON.parse((await runCli(['auth', 'status', '--json'], { env: env(s, tls) })).stdout);
      expect(json.certificate).toMatchObject({ subject: 'O=Banco Exemplo, CN=econsig test client', expired: false, expiresSoon: true });
    } finally {
      await s.close();
    }
  }, 30_000);
});
