/**
 * OAuth2 client credentials through the built binary against the sandbox's token endpoint
 * (docs/cli-contract.md "Authentication for a real homologation"): tokens renewed before they
 * expire across a long batch, one renewal and one resend after a 401, a refused secret
 * and an unreachable token endpoint stopping the run before any POST, and no secret or
 * access token in any output or in any file others can read.
 */
import { describe, expect, it } from 'vitest';
import { CONTRACTS, expectNoLeak, startLoggedSandbox, type LoggedSandbox } from './auth-harness.js';
import { runCli } from './run-cli.js';
import { bankOnly, freePort, parseSubmitJson, useScratch, writeJson } from './submit-harness.js';

const scratch = useScratch();

function oauthEnv(s: LoggedSandbox, secret?: string): Record<string, string | undefined> {
  const o = s.sandbox.oauth!;
  return {
    ECONSIG_HOME: scratch.home,
    ECONSIG_BASE_URL: s.sandbox.url,
    ECONSIG_TOKEN_URL: o.tokenUrl,
    ECONSIG_CLIENT_ID: o.clientId,
    ECONSIG_CLIENT_SECRET: secret ?? o.clientSecret,
  };
}

function files(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => writeJson(scratch.dir, `p${from + i}.json`, bankOnly(`PROP-${from + i}`)));
}

describe('OAuth2 client credentials', () => {
  it('a batch of 60 at concurrency 2 outlives three token lifetimes: all accepted, no 401, about one token per lifetime', async () => {
    // The sandbox's latency comes before its token check, as a network's would: a token sent
    // in its last quarter-life could expire on the way; econsig waits for the new one instead.
    // 60 sends of 300 ms at concurrency 2 span three lifetimes of 3 s.
    const ttl = 3;
    const s = await startLoggedSandbox({ oauth: { tokenTtlSeconds: ttl }, latencyMs: 300 });
    try {
      const run = await runCli(['submit', ...files(2001, 60), '--concurrency', '2', '--json'], { env: oauthEnv(s), timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      const doc = parseSubmitJson(run.stdout);
      expect(doc.results.map((r) => r.outcome)).toEqual(Array(60).fill('accepted'));
      // From the first token request to the last POST, as the sandbox saw them.
      const lifetimes = (s.log.at(-1)!.at - s.log[0]!.at) / 1000 / ttl;
      expect(lifetimes).toBeGreaterThan(3);
      // No 401 in the service's answers, so none could reach the operator.
      expect(s.posts().map((e) => e.status)).toEqual(Array(60).fill(202));
      // Renewed at half-life for tokens this short, in the background while the old one is
      // still valid (src/service/token-source.ts): about one token per lifetime.
      const fetches = s.tokenRequests().length;
      expect(fetches).toBeGreaterThanOrEqual(Math.floor(lifetimes));
      expect(fetches).toBeLessThanOrEqual(Math.ceil(lifetimes) + 2);
      expectNoLeak([s.sandbox.oauth!.clientSecret, ...s.sandbox.oauth!.issuedTokens()], [run.stdout, run.stderr], scratch.home);
    } finally {
      await s.close();
    }
  }, 60_000);

  it('a token revoked at the provider: one 401, one new token, one resend, exit 0', async () => {
    const s = await startLoggedSandbox({ oauth: {} });
    try {
      const o = s.sandbox.oauth!;
      const env = { ECONSIG_HOME: scratch.home, ECONSIG_BASE_URL: s.sandbox.url };
      const login = await runCli(['auth', 'login', '--client-credentials', '--token-url', o.tokenUrl, '--client-id', o.clientId, '--with-secret'], { env, input: o.clientSecret });
      expect(login.code, login.stderr).toBe(0);
      const first = await runCli(['submit', ...files(2031, 1)], { env });
      expect(first.code, first.stderr).toBe(0);
      // `auth token` gives the cached token without a new fetch.
      const printed = await runCli(['auth', 'token'], { env });
      expect(printed.code, printed.stderr).toBe(0);
      const cached = printed.stdout.trim();
      expect(cached).toBe(o.issuedTokens()[0]);
      expect(s.tokenRequests()).toHaveLength(1);
      const revoke = await fetch(`${s.sandbox.url}/oauth2/revoke`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: cached }).toString(),
      });
      expect(revoke.status).toBe(200);

      const second = await runCli(['submit', ...files(2032, 1), '--json'], { env });
      expect(second.code, second.stderr).toBe(0);
      expect(parseSubmitJson(second.stdout).results[0]?.outcome).toBe('accepted');
      expect(s.log.map((e) => `${e.path === CONTRACTS ? 'POST' : e.path} ${e.status}`)).toEqual([
        '/oauth2/token 200',
        'POST 202',
        '/oauth2/revoke 200',
        'POST 401',
        '/oauth2/token 200',
        'POST 202',
      ]);
      const holders = expectNoLeak([o.clientSecret, ...o.issuedTokens()], [login.stdout, login.stderr, first.stdout, first.stderr, second.stdout, second.stderr], scratch.home);
      expect(holders.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('a service that refuses every token: one renewal and one resend, never more; exit 3', async () => {
    const issuer = await startLoggedSandbox({ oauth: {} });
    const service = await startLoggedSandbox({ oauth: {} });
    try {
      const env = { ...oauthEnv(issuer), ECONSIG_BASE_URL: service.sandbox.url };
      const run = await runCli(['submit', ...files(2033, 1), '--json'], { env });
      expect(run.code, run.stderr).toBe(3);
      expect(parseSubmitJson(run.stdout).results[0]?.outcome).toBe('unauthorized');
      expect(service.posts().map((e) => e.status)).toEqual([401, 401]);
      expect(issuer.tokenRequests()).toHaveLength(2);
    } finally {
      await issuer.close();
      await service.close();
    }
  }, 30_000);

  it('a wrong client secret: exit 3 with the endpoint\'s error and description, zero POSTs, secret not shown', async () => {
    const s = await startLoggedSandbox({ oauth: {} });
    try {
      const wrong = 'wrong-secret-5d1f0c2e9b';
      const run = await runCli(['submit', ...files(2034, 2)], { env: oauthEnv(s, wrong) });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('invalid_client: Client authentication failed');
      expect(s.posts()).toHaveLength(0);
      expectNoLeak([wrong, s.sandbox.oauth!.clientSecret], [run.stdout, run.stderr], scratch.home);
      const json = await runCli(['submit', ...files(2036, 1), '--json'], { env: oauthEnv(s, wrong) });
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { exitCode: 3 } });
    } finally {
      await s.close();
    }
  }, 30_000);

  it('a token endpoint that is down: exit 7, zero POSTs', async () => {
    const s = await startLoggedSandbox({ oauth: {} });
    try {
      const closed = await freePort();
      const env = { ...oauthEnv(s), ECONSIG_TOKEN_URL: `http://127.0.0.1:${closed}/oauth2/token` };
      const run = await runCli(['submit', ...files(2037, 1)], { env });
      expect(run.code, run.stderr).toBe(7);
      expect(run.stderr).toMatch(/token endpoint.*ECONNREFUSED/);
      expect(s.posts()).toHaveLength(0);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('client auth "post" sends id and secret in the form; auth status and logout', async () => {
    const s = await startLoggedSandbox({ oauth: {} });
    try {
      const o = s.sandbox.oauth!;
      const env = { ECONSIG_HOME: scratch.home, ECONSIG_BASE_URL: s.sandbox.url };
      const login = await runCli(['auth', 'login', '--client-credentials', '--token-url', o.tokenUrl, '--client-id', o.clientId, '--client-auth', 'post', '--scope', 'contratos', '--with-secret'], { env, input: `${o.clientSecret}\n` });
      expect(login.code, login.stderr).toBe(0);
      expect((await runCli(['submit', ...files(2038, 1)], { env })).code).toBe(0);
      const status = await runCli(['auth', 'status', '--json'], { env });
      expect(status.code, status.stderr).toBe(0);
      const doc = JSON.parse(status.stdout);
      expect(doc).toMatchObject({ method: 'client-credentials', clientCredentials: { clientId: o.clientId, clientAuth: 'post', scope: 'contratos', secretSource: 'file' } });
      expect(doc.clientCredentials.cachedToken.usable).toBe(true);
      expect(new Date(doc.clientCredentials.cachedToken.expiresAt).getTime()).toBeGreaterThan(Date.now());
      const logout = await runCli(['auth', 'logout'], { env });
      expect(logout.code).toBe(0);
      const after = await runCli(['submit', ...files(2039, 1)], { env });
      expect(after.code).toBe(3);
      expect(after.stderr).toContain('No client secret');
      expectNoLeak([o.clientSecret, ...o.issuedTokens()], [login.stderr, status.stdout, logout.stderr, after.stderr], scratch.home);
    } finally {
      await s.close();
    }
  }, 30_000);
});
