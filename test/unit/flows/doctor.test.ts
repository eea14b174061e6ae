/**
 * `econsig doctor` (flows/doctor.ts) in this process, against small local servers (a service
 * that answers with its Date, a token endpoint, a receiver), a temporary home and a given
 * clock: each check's status, the first failure's exit code, and what was asked of each
 * server. HTTPS and client certificates are checked end to end (test/e2e/doctor.test.ts).
 * Message texts are not asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { CHECKS, type DoctorReport, runDoctor } from '../../../src/flows/doctor.js';
import { type Message, say } from '../../../src/i18n/index.js';
import { resolveSettings } from '../../../src/settings/settings.js';
import { type Stub, closedPort, startStub } from './fakes.js';

let home: string;
let service: Stub;
const opened: Stub[] = [];
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'econsig-doctor-'));
  service = await stub((_req, res) => res.writeHead(404).end());
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  rmSync(home, { recursive: true, force: true });
});

async function stub(handler: Parameters<typeof startStub>[0]): Promise<Stub> {
  const s = await startStub(handler);
  opened.push(s);
  return s;
}

/** An unsigned JWT whose `exp` is `at`: the shape tokenExpiry reads. */
const jwt = (at: Date): string => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part({ exp: Math.floor(at.getTime() / 1000) })}.sig`;
};

function doctor(env: Record<string, string | undefined>, options: { skewMs?: number; profile?: string; platform?: NodeJS.Platform } = {}): Promise<DoctorReport> {
  const skew = options.skewMs ?? 0;
  return runDoctor({
    env: { ECONSIG_HOME: home, ECONSIG_BASE_URL: service.url, ECONSIG_TOKEN: 'tok-abc', ...env },
    globals: { profile: options.profile, baseUrl: undefined },
    now: () => new Date(Date.now() + skew),
    stepTimeoutMs: 2_000,
    ...(options.platform ? { platform: options.platform } : {}),
  });
}

const statuses = (report: DoctorReport) => Object.fromEntries(report.checks.map((c) => [c.name, c.status]));
const failed = (report: DoctorReport) => report.checks.filter((c) => c.status === 'fail').map((c) => [c.name, c.exitCode]);

describe('runDoctor', () => {
  it('a plain-http service on this machine with a static token: every check that applies passes, exit 0; one GET asked of the service', async () => {
    const report = await doctor({});
    expect(report.checks.map((c) => c.name)).toEqual([...CHECKS]);
    // A static token cannot be checked without sending: a warning, never ✓ (issue 24).
    expect(statuses(report)).toEqual({ settings: 'ok', clock: 'ok', dns: 'ok', tcp: 'ok', tls: 'skip', certificate: 'skip', token: 'warn', receiver: 'skip', store: 'ok' });
    expect(report).toMatchObject({ ok: true, exitCode: ExitCode.ok, profile: 'default', baseUrl: service.url });
    expect(service.requests).toEqual(['GET /']);
  });

  it('on Windows the store line says, once, that 0600 and 0700 mean nothing there; nothing fails for it', async () => {
    const store = (report: DoctorReport) => report.checks.find((c) => c.name === 'store');
    const windows = await doctor({}, { platform: 'win32' });
    expect(windows.exitCode).toBe(ExitCode.ok);
    expect(store(windows)?.status).toBe('ok');
    const said = say('en', store(windows)?.detail as Message);
    expect(said).toContain('opens and answers; on Windows the modes econsig gives its files (0600) and folders (0700) mean nothing');
    expect(said).toContain(home);
    expect(say('en', store(await doctor({}, { platform: 'linux' }))?.detail as Message)).not.toContain('Windows');
  });

  it.each([
    ['a minute', 'warn', ExitCode.ok, 60_000],
    ['ten minutes', 'fail', ExitCode.auth, 600_000],
  ])('a clock %s ahead of the server\'s Date: clock %s, exit %s', async (_name, status, exitCode, skewMs) => {
    const report = await doctor({}, { skewMs });
    expect(statuses(report).clock).toBe(status);
    expect(report.exitCode).toBe(exitCode);
  });

  it('no base URL for the profile: settings fails (exit 2), the network checks are skipped, the store is still checked', async () => {
    const report = await doctor({ ECONSIG_BASE_URL: undefined }, { profile: 'homolog' });
    expect(failed(report)).toEqual([['settings', ExitCode.usage]]);
    expect(statuses(report)).toMatchObject({ clock: 'skip', dns: 'skip', tcp: 'skip', tls: 'skip', certificate: 'skip', token: 'skip', receiver: 'skip', store: 'ok' });
    expect(report).toMatchObject({ ok: false, exitCode: ExitCode.usage, profile: null, baseUrl: null });
    expect(service.requests).toEqual([]);
  });

  it('nothing listens at the service: tcp fails (exit 7), TLS and the clock are skipped, the token is still checked', async () => {
    const report = await doctor({ ECONSIG_BASE_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(failed(report)).toEqual([['tcp', ExitCode.unavailable]]);
    expect(statuses(report)).toMatchObject({ tls: 'skip', clock: 'skip', token: 'warn', store: 'ok' });
    expect(report.exitCode).toBe(ExitCode.unavailable);
  });

  it.each([
    ['expired an hour ago', 'fail', ExitCode.auth, -3_600_000],
    ['valid for a day (not checked: a warning)', 'warn', ExitCode.ok, 86_400_000],
  ])('a static token %s: token %s, exit %s', async (_name, status, exitCode, inMs) => {
    const report = await doctor({ ECONSIG_TOKEN: jwt(new Date(Date.now() + inMs)) });
    expect(statuses(report).token).toBe(status);
    expect(report.exitCode).toBe(exitCode);
  });

  describe('client credentials', () => {
    const clientEnv = (tokenUrl: string) => ({ ECONSIG_TOKEN: undefined, ECONSIG_TOKEN_URL: tokenUrl, ECONSIG_CLIENT_ID: 'clerk', ECONSIG_CLIENT_SECRET: 's3cret-value' });

    it('a token is fetched at every run, never taken from the cache (the point is to prove the secret)', async () => {
      let n = 0;
      const endpoint = await stub((_req, res) => {
        n += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `access-${n}`, token_type: 'Bearer', expires_in: 300 }));
      });
      expect(statuses(await doctor(clientEnv(endpoint.url))).token).toBe('ok');
      expect(statuses(await doctor(clientEnv(endpoint.url))).token).toBe('ok');
      expect(endpoint.requests).toEqual(['POST /', 'POST /']);
    });

    it('a refused client secret: token fails with exit 3', async () => {
      const endpoint = await stub((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' })));
      const report = await doctor(clientEnv(endpoint.url));
      expect(failed(report)).toEqual([['token', ExitCode.auth]]);
      expect(endpoint.requests).toHaveLength(1);
    });

    it('a token endpoint on the service\'s host, which cannot be reached: token skipped, not failed twice', async () => {
      const port = await closedPort();
      const report = await doctor({ ...clientEnv(`http://127.0.0.1:${port}/token`), ECONSIG_BASE_URL: `http://127.0.0.1:${port}` });
      expect(failed(report)).toEqual([['tcp', ExitCode.unavailable]]);
      expect(statuses(report).token).toBe('skip');
    });
  });

  it.each([
    ['ready (200)', 'ok', ExitCode.ok, 200],
    ['not ready (503)', 'fail', ExitCode.unavailable, 503],
  ])('a receiver that is %s: receiver %s, exit %s; asked GET /readyz once', async (_name, status, exitCode, code) => {
    const receiver = await stub((_req, res) => res.writeHead(code).end());
    const settings = await resolveSettings({ env: { ECONSIG_HOME: home }, globals: { profile: undefined, baseUrl: undefined } });
    settings.file.setSetting('default', 'receiver-url', `${receiver.url}/webhook`);
    const report = await doctor({});
    expect(statuses(report).receiver).toBe(status);
    expect(report.exitCode).toBe(exitCode);
    expect(receiver.requests).toEqual(['GET /readyz']);
  });

  it('a receiver that cannot be reached: receiver fails, exit 7', async () => {
    const settings = await resolveSettings({ env: { ECONSIG_HOME: home }, globals: { profile: undefined, baseUrl: undefined } });
    settings.file.setSetting('default', 'receiver-url', `http://127.0.0.1:${await closedPort()}/webhook`);
    expect(failed(await doctor({}))).toEqual([['receiver', ExitCode.unavailable]]);
  });

  it('a team store that is down: store fails with exit 74', async () => {
    const report = await doctor({ ECONSIG_DATABASE_URL: `postgres://clerk:pw@127.0.0.1:${await closedPort()}/econsig` });
    expect(failed(report)).toEqual([['store', ExitCode.storage]]);
    expect(report.exitCode).toBe(ExitCode.storage);
  });
});
