/**
 * `econsig doctor` (docs/cli-contract.md "Authentication for a real homologation"): each step
 * between this machine and an accepted contract, checked in order, so a failure names the
 * one that is wrong: settings, clock, DNS, TCP, TLS server trust, client certificate,
 * token, receiver, store. Sends no submission: the service has no harmless authenticated
 * operation (docs/service.md documents one POST), so the token is checked at its endpoint.
 */
import { lookup } from 'node:dns/promises';
import { isIP, connect as netConnect } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { EconsigError, ExitCode } from '../errors.js';
import { probeTls, type TlsProbeResult } from '../service/tls-probe.js';
import { requireBaseUrl, resolveSettings, type Env, type ResolvedSettings, type SettingsFlags } from '../store/settings.js';
import { resolveHome } from '../store/home.js';
import { openStore } from '../store/open-store.js';
import { tokenExpiry } from '../store/token.js';
import { checkCertificateDates, expiresSoon, loadTlsMaterial, type TlsConnectOptions, type TlsMaterial } from '../store/tls-files.js';
import { authPlanOf, openAuthSession, tlsFailure, tokenFailure } from './auth-session.js';

export const CHECKS = ['settings', 'clock', 'dns', 'tcp', 'tls', 'certificate', 'token', 'receiver', 'store'] as const;
export type CheckName = (typeof CHECKS)[number];

export interface CheckResult {
  name: CheckName;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  hint?: string;
  /** The exit code a failure stands for (docs/cli-contract.md "Exit codes"). */
  exitCode?: number;
}

export interface DoctorReport {
  ok: boolean;
  profile: string | null;
  baseUrl: string | null;
  checks: CheckResult[];
  /** 0 when nothing failed, else the code of the first failure in CHECKS order. */
  exitCode: number;
}

export interface DoctorOptions {
  env: Env;
  globals: SettingsFlags;
  now?: () => Date;
  /** Limit for each network step (default 2.5 s: the doctor answers within seconds). */
  stepTimeoutMs?: number;
}

const CLOCK_WARN_MS = 30_000;
const CLOCK_FAIL_MS = 5 * 60_000;

function fail(name: CheckName, error: unknown): CheckResult {
  if (error instanceof EconsigError) return { name, status: 'fail', detail: error.message, ...(error.hint ? { hint: error.hint } : {}), exitCode: error.exitCode };
  return { name, status: 'fail', detail: error instanceof Error ? error.message : String(error), exitCode: ExitCode.unavailable };
}

function skip(name: CheckName, detail: string): CheckResult {
  return { name, status: 'skip', detail };
}

function tcpConnect(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function ago(ms: number): string {
  const days = ms / 86_400_000;
  return days >= 2 ? `${Math.round(days)} days` : `${Math.max(1, Math.round(ms / 3_600_000))} h`;
}

/** Run every check; never throws for a failed check (each becomes a line). */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.stepTimeoutMs ?? 2_500;
  const results = new Map<CheckName, CheckResult>();
  const set = (result: CheckResult): void => void results.set(result.name, result);
  const report = (profile: string | null, baseUrl: string | null): DoctorReport => {
    const checks = CHECKS.map((name) => results.get(name) ?? skip(name, 'not checked'));
    const firstFailure = checks.find((c) => c.status === 'fail');
    return { ok: firstFailure === undefined, profile, baseUrl, checks, exitCode: firstFailure?.exitCode ?? ExitCode.ok };
  };

  // 1. settings: the profile, the base URL, the TLS files and the auth settings all load.
  let settings: ResolvedSettings;
  let baseUrl: string;
  let tls: TlsMaterial | undefined;
  let tlsError: unknown;
  try {
    settings = await resolveSettings({ env: options.env, globals: options.globals });
    baseUrl = requireBaseUrl(settings);
  } catch (error) {
    set(fail('settings', error));
    for (const name of CHECKS.slice(1, -1)) set(skip(name, 'needs the settings'));
    set(await checkStore(resolveHome(options.env), options.env.ECONSIG_DATABASE_URL || undefined));
    return report(null, null);
  }
  try {
    tls = loadTlsMaterial(settings.values, settings.sources, options.env);
  } catch (error) {
    tlsError = error;
  }
  const profile = settings.profile.name;
  const url = new URL(baseUrl);
  const settingsProblem = tlsError instanceof EconsigError && tlsError.exitCode === ExitCode.usage ? tlsError : undefined;
  if (settingsProblem) set(fail('settings', settingsProblem));
  else set({ name: 'settings', status: 'ok', detail: `profile ${profile}, base URL ${baseUrl}, ${settings.values['auth.method'] === 'client-credentials' || options.env.ECONSIG_CLIENT_SECRET ? 'OAuth2 client credentials' : 'bearer token'}` });

  // 2-4. DNS, TCP.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let reachable = false;
  if (isIP(host)) {
    set({ name: 'dns', status: 'ok', detail: `${host} is an IP address` });
  } else {
    try {
      const { address } = await lookup(host);
      set({ name: 'dns', status: 'ok', detail: `${host} → ${address}` });
    } catch (error) {
      set(fail('dns', new EconsigError(`${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, { exitCode: ExitCode.unavailable, hint: 'Check the host name in base-url and this machine\'s DNS (VPN?).' })));
    }
  }
  if (results.get('dns')?.status === 'ok') {
    try {
      await tcpConnect(host, port, timeoutMs);
      reachable = true;
      set({ name: 'tcp', status: 'ok', detail: `${host}:${port} accepts connections` });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      set(fail('tcp', new EconsigError(`${host}:${port} does not accept connections (${code}).`, {
        exitCode: ExitCode.unavailable,
        hint: code === 'ECONNREFUSED' ? 'Nothing listens there: check the port in base-url, and that the service (or `econsig sandbox`) runs.' : 'Check the network path: firewall, VPN, or an IP allowlist at the provider.',
      })));
    }
  } else {
    set(skip('tcp', 'needs DNS'));
  }

  // 5-6. TLS: server trust, then our client certificate.
  let probe: TlsProbeResult | undefined;
  const cert = tls?.certificate;
  if (!reachable) {
    set(skip('tls', 'needs TCP'));
  } else if (url.protocol !== 'https:') {
    set({ name: 'tls', status: 'skip', detail: 'plain http (allowed only to this machine)' });
  } else {
    probe = await probeTls(url, { ...tls?.connect }, timeoutMs);
    if (!probe.ok && probe.kind === 'untrusted') set(fail('tls', tlsFailure(probe, url.origin, tls)));
    else if (!probe.ok && probe.kind === 'connect') set(fail('tls', new EconsigError(`No TLS handshake with ${url.origin}: ${probe.message} (${probe.code}).`, { exitCode: ExitCode.unavailable, hint: 'Is the port an https one? Check base-url.' })));
    else set({ name: 'tls', status: 'ok', detail: `${url.origin} is trusted${tls?.caPath ? ` (with tls.ca ${tls.caPath})` : ''}${probe.ok && probe.protocol ? `, ${probe.protocol}` : ''}` });
  }
  if (tlsError !== undefined && !settingsProblem) {
    set(fail('certificate', tlsError));
  } else if (cert && checkCertificateDates(cert, now())) {
    set(fail('certificate', checkCertificateDates(cert, now())));
  } else if (probe && !probe.ok && (probe.kind === 'certificate-refused' || probe.kind === 'certificate-required')) {
    set(fail('certificate', tlsFailure(probe, url.origin, tls)));
  } else if (cert) {
    const left = cert.validTo.getTime() - now().getTime();
    const accepted = probe?.ok ? (probe.certificateChecked ? 'accepted by the server' : 'sent (the server gave no verdict)') : 'not tried';
    set({
      name: 'certificate',
      status: expiresSoon(cert, now()) ? 'warn' : 'ok',
      detail: `${cert.subject}, issued by ${cert.issuer}, ${accepted}; expires ${cert.validTo.toISOString()} (in ${ago(left)})`,
      ...(expiresSoon(cert, now()) ? { hint: 'It expires within 30 days: ask the provider for a new one.' } : {}),
    });
  } else {
    set({ name: 'certificate', status: 'skip', detail: url.protocol === 'https:' && probe?.ok ? 'none set; the server did not ask for one' : 'none set' });
  }

  // 2 (measured here). Clock: the server's Date header against ours.
  const certificateOk = results.get('certificate')?.status !== 'fail' && results.get('tls')?.status !== 'fail';
  if (reachable && certificateOk) set(await checkClock(url, tls, now, timeoutMs));
  else set(skip('clock', 'needs an answer from the server'));

  // 7. Token.
  // A token endpoint on the host that just failed would fail the same way: skip, not fail twice.
  const plan = (() => {
    try {
      return authPlanOf(settings, options.env);
    } catch {
      return undefined;
    }
  })();
  const sameHost = plan?.method === 'client-credentials' && new URL(plan.credentials.tokenUrl).origin === url.origin;
  const blocked = (['tcp', 'tls', 'certificate'] as const).find((name) => results.get(name)?.status === 'fail');
  if (results.get('settings')?.status === 'fail') set(skip('token', 'needs the settings'));
  else if (blocked && sameHost) set(skip('token', `needs ${blocked}`));
  else set(await checkToken(settings, options.env, now));

  // 8. Receiver.
  const receiver = settings.values['receiver-url'];
  set(receiver === undefined ? skip('receiver', 'receiver-url not set') : await checkReceiver(receiver, tls, timeoutMs));

  // 9. Store.
  set(await checkStore(settings.paths.home, settings.values['database-url']));
  return report(profile, baseUrl);
}

async function withAgent<T>(connect: TlsConnectOptions | undefined, timeoutMs: number, use: (agent: Dispatcher) => Promise<T>): Promise<T> {
  const agent = new Agent({ connect: { timeout: timeoutMs, ...connect }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    return await use(agent);
  } finally {
    await agent.destroy();
  }
}

async function checkClock(url: URL, tls: TlsMaterial | undefined, now: () => Date, timeoutMs: number): Promise<CheckResult> {
  try {
    const date = await withAgent(tls?.connect, timeoutMs, async (agent) => {
      const started = now().getTime();
      const response = await agent.request({ origin: url.origin, path: url.pathname, method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
      await response.body.dump();
      const header = response.headers.date;
      return { header: typeof header === 'string' ? header : undefined, middle: (started + now().getTime()) / 2 };
    });
    const server = date.header === undefined ? NaN : Date.parse(date.header);
    if (Number.isNaN(server)) return { name: 'clock', status: 'skip', detail: 'the server sent no Date header' };
    // Date has whole seconds: up to 1 s of the difference is its rounding.
    const skew = date.middle - server;
    const abs = Math.max(0, Math.abs(skew) - 1_000);
    const text = abs === 0 ? 'within a second of the server\'s' : `${Math.round(abs / 1000)} s ${skew > 0 ? 'ahead of' : 'behind'} the server's`;
    if (abs > CLOCK_FAIL_MS) {
      return { name: 'clock', status: 'fail', detail: `this machine's clock is ${text}`, hint: 'Token and certificate times are judged by clocks: synchronise this machine (NTP).', exitCode: ExitCode.auth };
    }
    return abs > CLOCK_WARN_MS
      ? { name: 'clock', status: 'warn', detail: `this machine's clock is ${text}`, hint: 'Synchronise this machine (NTP): tokens may look expired early or late.' }
      : { name: 'clock', status: 'ok', detail: `this machine's clock is ${text}` };
  } catch (error) {
    return { name: 'clock', status: 'skip', detail: `no answer to GET ${url.origin}${url.pathname} (${(error as { code?: string }).code ?? (error as Error).message})` };
  }
}

async function checkToken(settings: ResolvedSettings, env: Env, now: () => Date): Promise<CheckResult> {
  let session;
  try {
    // A fresh token, not the cached one: the point is to prove the client secret works.
    session = openAuthSession({ settings, env, now, useCache: false });
  } catch (error) {
    return fail('token', error);
  }
  try {
    if (session.plan.method === 'token') {
      const resolved = session.plan.token;
      const from = resolved?.source === 'env' ? 'ECONSIG_TOKEN' : 'the stored token';
      const expiry = resolved ? tokenExpiry(resolved.token, now()) : undefined;
      if (expiry?.expired) {
        return { name: 'token', status: 'fail', detail: `${from} expired at ${expiry.expiresAt.toISOString()}`, hint: 'Get a new token and run `econsig auth login`.', exitCode: ExitCode.auth };
      }
      return { name: 'token', status: 'ok', detail: `${from}${expiry ? `, expires ${expiry.expiresAt.toISOString()}` : ' (no expiry it can read; the service decides)'}` };
    }
    const started = Date.now();
    await session.tokens.token();
    const creds = session.plan.credentials;
    return { name: 'token', status: 'ok', detail: `obtained from ${creds.tokenUrl} for client ${creds.clientId} in ${Date.now() - started} ms` };
  } catch (error) {
    return fail('token', tokenFailure(error, settings.profile.name));
  } finally {
    await session.close();
  }
}

async function checkReceiver(receiver: string, tls: TlsMaterial | undefined, timeoutMs: number): Promise<CheckResult> {
  const ready = new URL('/readyz', receiver);
  try {
    // Our own receiver: trust tls.ca, but it asks for no client certificate.
    const status = await withAgent(tls?.connect.ca ? { ca: tls.connect.ca } : undefined, timeoutMs, async (agent) => {
      const response = await agent.request({ origin: ready.origin, path: ready.pathname, method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
      await response.body.dump();
      return response.statusCode;
    });
    if (status === 200) return { name: 'receiver', status: 'ok', detail: `${ready.href} answers 200 (ready)` };
    return {
      name: 'receiver',
      status: 'fail',
      detail: `${ready.href} answers ${status}`,
      hint: status === 503 ? 'The receiver runs but its store does not answer: check the team database.' : 'Check receiver-url: it should be the host where `econsig watch` runs.',
      exitCode: ExitCode.unavailable,
    };
  } catch (error) {
    return {
      name: 'receiver',
      status: 'fail',
      detail: `${ready.href} cannot be reached (${(error as { code?: string }).code ?? (error as Error).message})`,
      hint: 'Start `econsig watch` on the receiver host, or correct receiver-url.',
      exitCode: ExitCode.unavailable,
    };
  }
}

async function checkStore(home: string, databaseUrl: string | undefined): Promise<CheckResult> {
  try {
    // The team store when database-url is set (its location never shows the password).
    const store = await openStore({ home, databaseUrl });
    try {
      await store.history({ limit: 1 });
      return { name: 'store', status: 'ok', detail: `${store.location} opens and answers` };
    } finally {
      await store.close();
    }
  } catch (error) {
    return fail('store', error);
  }
}
