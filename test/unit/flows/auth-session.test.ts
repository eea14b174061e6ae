/**
 * The auth session (flows/auth-session.ts): the token source each plan gives, what `prepare`
 * asks of a token endpoint (a local stub, counted) before anything is sent, the token cache,
 * and the exit code of each failure. Message texts are not asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EconsigError, ExitCode } from '../../../src/errors.js';
import { type AuthSession, openAuthSession, tlsFailure, tokenFailure } from '../../../src/flows/auth-session.js';
import { TokenEndpointUnavailableError, TokenRefusedError } from '../../../src/service/oauth.js';
import type { TlsProbeResult } from '../../../src/service/tls-probe.js';
import { resolveSettings } from '../../../src/settings/settings.js';
import { type Stub, closedPort, startStub } from './fakes.js';

let home: string;
const opened: Array<{ close(): Promise<unknown> }> = [];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'econsig-auth-session-'));
});
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
  rmSync(home, { recursive: true, force: true });
});

async function session(env: Record<string, string | undefined>, options: { useCache?: boolean; fetched?: string[] } = {}): Promise<AuthSession> {
  const full = { ECONSIG_HOME: home, ...env };
  const settings = await resolveSettings({ env: full, globals: { profile: undefined, baseUrl: undefined } });
  const s = openAuthSession({
    settings,
    env: full,
    ...(options.useCache === undefined ? {} : { useCache: options.useCache }),
    ...(options.fetched ? { onTokenFetch: (entry) => options.fetched?.push(entry.tokenUrl) } : {}),
  });
  opened.push(s);
  return s;
}

/** A token endpoint: grants `access-N` for the N-th request, or answers `status` with `body`. */
async function tokenEndpoint(answer?: { status: number; body: object }): Promise<Stub> {
  let n = 0;
  const stub = await startStub((_req, res) => {
    n += 1;
    const { status, body } = answer ?? { status: 200, body: { access_token: `access-${n}`, token_type: 'Bearer', expires_in: 300 } };
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  opened.push(stub);
  return stub;
}

const clientEnv = (tokenUrl: string) => ({ ECONSIG_TOKEN_URL: tokenUrl, ECONSIG_CLIENT_ID: 'clerk', ECONSIG_CLIENT_SECRET: 's3cret-value' });
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as EconsigError);

describe('openAuthSession: a static token', () => {
  it('ECONSIG_TOKEN is the token of every request; prepare against plain http asks nothing of the network', async () => {
    const service = await startStub((_req, res) => res.end());
    opened.push(service);
    const s = await session({ ECONSIG_TOKEN: 'tok-abc' });
    expect(s.plan.method).toBe('token');
    expect(s.tls).toBeUndefined();
    await s.prepare(service.url);
    expect(await s.tokens.token()).toBe('tok-abc');
    expect(service.requests).toEqual([]);
  });

  it('no token anywhere: exit 3 before anything is opened', async () => {
    const error = await failureOf(session({}));
    expect(error).toBeInstanceOf(EconsigError);
    expect(error?.exitCode).toBe(ExitCode.auth);
  });
});

describe('openAuthSession: client credentials', () => {
  it('prepare fetches the first token (one request); the token is then reused, and the next session takes it from the cache', async () => {
    const endpoint = await tokenEndpoint();
    const fetched: string[] = [];
    const first = await session(clientEnv(`${endpoint.url}/oauth/token`), { fetched });
    expect(first.plan.method).toBe('client-credentials');
    await first.prepare('http://127.0.0.1:9');
    expect(await first.tokens.token()).toBe('access-1');
    expect(endpoint.requests).toEqual(['POST /oauth/token']);
    expect(fetched).toHaveLength(1);

    const second = await session(clientEnv(`${endpoint.url}/oauth/token`));
    await second.prepare('http://127.0.0.1:9');
    expect(await second.tokens.token()).toBe('access-1');
    expect(endpoint.requests).toHaveLength(1);
  });

  it('useCache false (doctor): a fresh token although one is cached', async () => {
    const endpoint = await tokenEndpoint();
    await (await session(clientEnv(endpoint.url))).prepare('http://127.0.0.1:9');
    const fresh = await session(clientEnv(endpoint.url), { useCache: false });
    await fresh.prepare('http://127.0.0.1:9');
    expect(await fresh.tokens.token()).toBe('access-2');
    expect(endpoint.requests).toHaveLength(2);
  });

  it.each([
    ['refused (invalid_client)', { status: 400, body: { error: 'invalid_client' } }, ExitCode.auth],
    ['refused (401 without a body of its own)', { status: 401, body: {} }, ExitCode.auth],
    ['failing (503)', { status: 503, body: { oops: true } }, ExitCode.unavailable],
  ])('a token endpoint %s: prepare fails with exit %s, after one request', async (_name, answer, exitCode) => {
    const endpoint = await tokenEndpoint(answer);
    const error = await failureOf((await session(clientEnv(endpoint.url))).prepare('http://127.0.0.1:9'));
    expect(error).toBeInstanceOf(EconsigError);
    expect(error?.exitCode).toBe(exitCode);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('a token endpoint that cannot be reached: exit 7', async () => {
    const error = await failureOf((await session(clientEnv(`http://127.0.0.1:${await closedPort()}/token`))).prepare('http://127.0.0.1:9'));
    expect(error?.exitCode).toBe(ExitCode.unavailable);
  });

  it('a token URL over plain http to another machine: a usage error (exit 2) when the session opens', async () => {
    const error = await failureOf(session(clientEnv('http://auth.example.com/token')));
    expect(error).toBeInstanceOf(EconsigError);
    expect(error?.exitCode).toBe(ExitCode.usage);
  });
});

describe('tokenFailure and tlsFailure: the exit code of each failure', () => {
  it.each([
    ['refused', new TokenRefusedError(400, 'invalid_client', undefined), ExitCode.auth],
    ['scope refused', new TokenRefusedError(400, 'invalid_scope', 'no'), ExitCode.auth],
    ['unavailable', new TokenEndpointUnavailableError('down', 503), ExitCode.unavailable],
  ])('a token %s: exit %s', (_name, error, exitCode) => {
    expect((tokenFailure(error, 'default') as EconsigError).exitCode).toBe(exitCode);
  });

  it('any other failure is passed on as it is', () => {
    const other = new Error('bug');
    expect(tokenFailure(other, 'default')).toBe(other);
  });

  it.each<[string, TlsProbeResult, number | undefined]>([
    ['a trusted server', { ok: true, protocol: 'TLSv1.3', certificateChecked: false }, undefined],
    ['no connection (said by the request itself)', { ok: false, kind: 'connect', code: 'ECONNREFUSED', message: 'refused' }, undefined],
    ['an untrusted server', { ok: false, kind: 'untrusted', code: 'SELF_SIGNED_CERT_IN_CHAIN', message: 'x' }, ExitCode.unavailable],
    ['a client certificate required, none set', { ok: false, kind: 'certificate-required', code: 'x' }, ExitCode.auth],
    ['a client certificate refused, none set', { ok: false, kind: 'certificate-refused', code: 'x' }, ExitCode.auth],
  ])('TLS: %s gives %s', (_name, result, exitCode) => {
    expect(tlsFailure(result, 'https://h', undefined)?.exitCode).toBe(exitCode);
  });
});
