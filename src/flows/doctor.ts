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
import { type Message, localTime, msg, say } from '../i18n/index.js';
import { probeTls, type TlsProbeResult } from '../service/tls-probe.js';
import { requireBaseUrl, resolveSettings, type Env, type ResolvedSettings, type SettingsFlags } from '../settings/settings.js';
import { resolveHome } from '../settings/home.js';
import { openStore } from '../record/open.js';
import { modesProtect } from '../safe-file.js';
import { tokenExpiry } from '../settings/token.js';
import { checkCertificateDates, expiresSoon, loadTlsMaterial, type TlsConnectOptions, type TlsMaterial } from '../settings/tls-files.js';
import { authPlanOf, openAuthSession, tlsFailure, tokenFailure } from './auth-session.js';

export const CHECKS = ['settings', 'clock', 'dns', 'tcp', 'tls', 'certificate', 'token', 'receiver', 'store'] as const;
export type CheckName = (typeof CHECKS)[number];

export interface CheckResult {
  name: CheckName;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  /** A catalogue message (said in the run's language by ui/doctor-output.ts), or a system's own words. */
  detail: Message | string;
  hint?: Message | string;
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
  platform?: NodeJS.Platform;
}

const CLOCK_WARN_MS = 30_000;
const CLOCK_FAIL_MS = 5 * 60_000;

function fail(name: CheckName, error: unknown): CheckResult {
  if (error instanceof EconsigError) {
    const hint = error.hintText ?? error.hint;
    return { name, status: 'fail', detail: error.text ?? error.message, ...(hint ? { hint } : {}), exitCode: error.exitCode };
  }
  return { name, status: 'fail', detail: error instanceof Error ? error.message : String(error), exitCode: ExitCode.unavailable };
}

function skip(name: CheckName, detail: Message): CheckResult {
  return { name, status: 'skip', detail };
}

function tcpConnect(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(say('en', 'doctor.noAnswerWithin', { ms: timeoutMs })), { code: 'ETIMEDOUT' }));
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

function ago(ms: number): Message {
  const days = ms / 86_400_000;
  return days >= 2 ? msg('doctor.days', { n: Math.round(days) }) : msg('doctor.hours', { n: Math.max(1, Math.round(ms / 3_600_000)) });
}

/** Run every check; never throws for a failed check (each becomes a line). */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.stepTimeoutMs ?? 2_500;
  const results = new Map<CheckName, CheckResult>();
  const set = (result: CheckResult): void => void results.set(result.name, result);
  const report = (profile: string | null, baseUrl: string | null): DoctorReport => {
    const checks = CHECKS.map((name) => results.get(name) ?? skip(name, msg('doctor.notChecked')));
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
    for (const name of CHECKS.slice(1, -1)) set(skip(name, msg('doctor.needsSettings')));
    set(await checkStore(resolveHome(options.env), options.env.ECONSIG_DATABASE_URL || undefined, options.platform));
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
  else {
    const method = msg(settings.values['auth.method'] === 'client-credentials' || options.env.ECONSIG_CLIENT_SECRET ? 'doctor.methodClientCredentials' : 'doctor.methodToken');
    set({ name: 'settings', status: 'ok', detail: msg('doctor.settingsOk', { profile, url: baseUrl, method }) });
  }

  // 2-4. DNS, TCP.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let reachable = false;
  if (isIP(host)) {
    set({ name: 'dns', status: 'ok', detail: msg('doctor.isIp', { host }) });
  } else {
    try {
      const { address } = await lookup(host);
      set({ name: 'dns', status: 'ok', detail: msg('doctor.resolves', { host, address }) });
    } catch (error) {
      set(fail('dns', new EconsigError(msg('doctor.noDns', { host, code: (error as NodeJS.ErrnoException).code ?? 'error' }), { exitCode: ExitCode.unavailable, hint: msg('doctor.noDnsHint') })));
    }
  }
  if (results.get('dns')?.status === 'ok') {
    try {
      await tcpConnect(host, port, timeoutMs);
      reachable = true;
      set({ name: 'tcp', status: 'ok', detail: msg('doctor.tcpOk', { address: `${host}:${port}` }) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      set(fail('tcp', new EconsigError(msg('doctor.tcpFail', { address: `${host}:${port}`, code }), {
        exitCode: ExitCode.unavailable,
        hint: msg(code === 'ECONNREFUSED' ? 'doctor.tcpRefusedHint' : 'doctor.tcpOtherHint'),
      })));
    }
  } else {
    set(skip('tcp', msg('doctor.needsDns')));
  }

  // 5-6. TLS: server trust, then our client certificate.
  let probe: TlsProbeResult | undefined;
  const cert = tls?.certificate;
  if (!reachable) {
    set(skip('tls', msg('doctor.needsTcp')));
  } else if (url.protocol !== 'https:') {
    set({ name: 'tls', status: 'skip', detail: msg('doctor.plainHttp') });
  } else {
    probe = await probeTls(url, { ...tls?.connect }, timeoutMs);
    if (!probe.ok && probe.kind === 'untrusted') set(fail('tls', tlsFailure(probe, url.origin, tls)));
    else if (!probe.ok && probe.kind === 'connect') {
      set(fail('tls', new EconsigError(msg('doctor.noHandshake', { origin: url.origin, message: probe.message, code: String(probe.code) }), { exitCode: ExitCode.unavailable, hint: msg('doctor.noHandshakeHint') })));
    } else {
      const ca = tls?.caPath ? msg('doctor.withCa', { path: tls.caPath }) : '';
      set({ name: 'tls', status: 'ok', detail: msg('doctor.trusted', { origin: url.origin, ca, protocol: probe.ok && probe.protocol ? `, ${probe.protocol}` : '' }) });
    }
  }
  if (tlsError !== undefined && !settingsProblem) {
    set(fail('certificate', tlsError));
  } else if (cert && checkCertificateDates(cert, now())) {
    set(fail('certificate', checkCertificateDates(cert, now())));
  } else if (probe && !probe.ok && (probe.kind === 'certificate-refused' || probe.kind === 'certificate-required')) {
    set(fail('certificate', tlsFailure(probe, url.origin, tls)));
  } else if (cert) {
    const left = cert.validTo.getTime() - now().getTime();
    const accepted = msg(probe?.ok ? (probe.certificateChecked ? 'doctor.certAccepted' : 'doctor.certSent') : 'doctor.certNotTried');
    set({
      name: 'certificate',
      status: expiresSoon(cert, now()) ? 'warn' : 'ok',
      detail: msg('doctor.certOk', { subject: cert.subject, issuer: cert.issuer, accepted, when: localTime(cert.validTo.toISOString()), left: ago(left) }),
      ...(expiresSoon(cert, now()) ? { hint: msg('doctor.certSoonHint') } : {}),
    });
  } else {
    set({ name: 'certificate', status: 'skip', detail: msg(url.protocol === 'https:' && probe?.ok ? 'doctor.certNoneAsked' : 'doctor.certNone') });
  }

  // 2 (measured here). Clock: the server's Date header against ours.
  const certificateOk = results.get('certificate')?.status !== 'fail' && results.get('tls')?.status !== 'fail';
  if (reachable && certificateOk) set(await checkClock(url, tls, now, timeoutMs));
  else set(skip('clock', msg('doctor.needsAnswer')));

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
  if (results.get('settings')?.status === 'fail') set(skip('token', msg('doctor.needsSettings')));
  else if (blocked && sameHost) set(skip('token', msg('doctor.needs', { check: msg(`doctor.name_${blocked}`) })));
  else set(await checkToken(settings, options.env, now));

  // 8. Receiver.
  const receiver = settings.values['receiver-url'];
  set(receiver === undefined ? skip('receiver', msg('doctor.receiverNotSet')) : await checkReceiver(receiver, tls, timeoutMs));

  // 9. Store.
  set(await checkStore(settings.paths.home, settings.values['database-url'], options.platform));
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
    if (Number.isNaN(server)) return { name: 'clock', status: 'skip', detail: msg('doctor.noDate') };
    // Date has whole seconds: up to 1 s of the difference is its rounding.
    const skew = date.middle - server;
    const abs = Math.max(0, Math.abs(skew) - 1_000);
    const how = abs === 0 ? msg('doctor.clockWithin') : msg(skew > 0 ? 'doctor.clockAhead' : 'doctor.clockBehind', { s: Math.round(abs / 1000) });
    const detail = msg('doctor.clock', { how });
    if (abs > CLOCK_FAIL_MS) return { name: 'clock', status: 'fail', detail, hint: msg('doctor.clockFailHint'), exitCode: ExitCode.auth };
    return abs > CLOCK_WARN_MS ? { name: 'clock', status: 'warn', detail, hint: msg('doctor.clockWarnHint') } : { name: 'clock', status: 'ok', detail };
  } catch (error) {
    return { name: 'clock', status: 'skip', detail: msg('doctor.clockNoAnswer', { url: `${url.origin}${url.pathname}`, code: (error as { code?: string }).code ?? (error as Error).message }) };
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
      const from = msg(resolved?.source === 'env' ? 'doctor.fromEnv' : 'doctor.fromStored');
      const expiry = resolved ? tokenExpiry(resolved.token, now()) : undefined;
      if (expiry?.expired) {
        return { name: 'token', status: 'fail', detail: msg('doctor.tokenExpired', { from, when: localTime(expiry.expiresAt.toISOString()) }), hint: msg('doctor.tokenExpiredHint'), exitCode: ExitCode.auth };
      }
      // Never ✓: the service has no harmless authenticated call, so a wrong token shows only
      // at the first submit (issue 24). Its expiry, when it can be read, is said.
      const read = expiry ? msg('doctor.tokenExpires', { from, when: localTime(expiry.expiresAt.toISOString()) }) : msg('doctor.tokenNoExpiry', { from });
      return { name: 'token', status: 'warn', detail: msg('doctor.tokenNotChecked', { read }), hint: msg('doctor.tokenNotCheckedHint') };
    }
    const started = Date.now();
    await session.tokens.token();
    const creds = session.plan.credentials;
    return { name: 'token', status: 'ok', detail: msg('doctor.tokenObtained', { url: creds.tokenUrl, client: creds.clientId, ms: Date.now() - started }) };
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
    if (status === 200) return { name: 'receiver', status: 'ok', detail: msg('doctor.receiverOk', { url: ready.href }) };
    return {
      name: 'receiver',
      status: 'fail',
      detail: msg('doctor.receiverAnswers', { url: ready.href, status }),
      hint: msg(status === 503 ? 'doctor.receiverStoreHint' : 'doctor.receiverUrlHint'),
      exitCode: ExitCode.unavailable,
    };
  } catch (error) {
    return {
      name: 'receiver',
      status: 'fail',
      detail: msg('doctor.receiverUnreachable', { url: ready.href, code: (error as { code?: string }).code ?? (error as Error).message }),
      hint: msg('doctor.receiverStartHint'),
      exitCode: ExitCode.unavailable,
    };
  }
}

async function checkStore(home: string, databaseUrl: string | undefined, platform: NodeJS.Platform = process.platform): Promise<CheckResult> {
  try {
    // The team store when database-url is set (its location never shows the password).
    const store = await openStore({ home, databaseUrl });
    try {
      await store.history({ limit: 1 });
      const detail = msg('doctor.storeOk', { location: store.location });
      // The one place econsig says that its 0600 and 0700 do nothing on Windows (safe-file.ts modesProtect).
      return { name: 'store', status: 'ok', detail: modesProtect(platform) ? detail : msg('doctor.noModes', { detail, home }) };
    } finally {
      await store.close();
    }
  } catch (error) {
    return fail('store', error);
  }
}
