/**
 * Output of `econsig auth`: human text on stderr, one JSON document on stdout with --json.
 * Only `writeRawToken` ever prints a token, and only for `auth token`.
 */
import type { ResolvedProfile } from '../settings/settings.js';
import type { ResolvedToken, TokenReport } from '../settings/token.js';
import type { AuthStatusReport } from '../flows/auth-status.js';
import { type Lang, type Message, type MessageKey, localTime, say } from '../i18n/index.js';
import type { Io } from './io.js';
import { sourceName } from './config-output.js';
import { createTheme } from './theme.js';

export interface AuthStatusView {
  profile: ResolvedProfile;
  baseUrl: string | null;
  token: TokenReport;
  /** A stored token exists but ECONSIG_TOKEN takes precedence over it. */
  shadowedFile?: string;
  auth: AuthStatusReport;
}

function writeJson(io: Io, doc: unknown): void {
  io.stdout.write(`${JSON.stringify(doc)}\n`);
}

function relative(lang: Lang, ms: number): string {
  const abs = Math.abs(ms);
  const time =
    abs >= 86_400_000
      ? say(lang, 'auth.days', { n: Math.round(abs / 86_400_000) })
      : abs >= 3_600_000
        ? say(lang, 'auth.hours', { n: Math.round(abs / 3_600_000) })
        : say(lang, 'auth.minutes', { n: Math.max(1, Math.round(abs / 60_000)) });
  return say(lang, ms >= 0 ? 'auth.in' : 'auth.ago', { time });
}

/** An error's message and hint in `lang` (a catalogue text, or its own words). */
function problemText(lang: Lang, problem: NonNullable<AuthStatusReport['problem']>): { message: string; hint: string | undefined } {
  return {
    message: problem.text ? say(lang, problem.text) : problem.message,
    hint: problem.hintText ? say(lang, problem.hintText) : problem.hint,
  };
}

export function writeAuthStatus(io: Io, view: AuthStatusView, now: Date): void {
  const a = view.auth;
  const lang: Lang = io.lang;
  if (io.json) {
    const { warn: _warn, ...token } = view.token;
    writeJson(io, {
      profile: view.profile.name,
      baseUrl: view.baseUrl,
      method: a.method,
      token,
      ...(a.clientCredentials ? { clientCredentials: a.clientCredentials } : {}),
      certificate: a.certificate,
      ca: a.caPath,
      warnings: a.warnings.map((w) => say(lang, w)),
      problem: a.problem
        ? { message: problemText(lang, a.problem).message, hint: problemText(lang, a.problem).hint ?? null, exitCode: a.problem.exitCode, ...(a.problem.text ? { code: a.problem.text.key } : {}) }
        : null,
    });
    return;
  }
  const t = createTheme(io);
  const notSet = t.warning(say(lang, 'auth.notSet'));
  const none = t.warning(say(lang, 'auth.none'));
  const warning = (key: MessageKey): string => `${t.warning(say(lang, 'run.warningLabel'))} ${say(lang, key)}`;
  const lines = [
    say(lang, 'auth.profile', { profile: t.strong(view.profile.name), source: t.muted(`(${sourceName(lang, view.profile.source)})`) }),
    say(lang, 'auth.baseUrl', { url: view.baseUrl ?? notSet }),
    say(lang, 'auth.method', { method: say(lang, a.method === 'client-credentials' ? 'auth.methodClientCredentials' : 'auth.methodToken') }),
  ];
  const token = view.token;
  const cc = a.clientCredentials;
  if (cc) {
    lines.push(say(lang, 'auth.tokenUrl', { url: cc.tokenUrl ?? notSet }));
    lines.push(say(lang, 'auth.client', { client: cc.clientId ?? notSet, scope: cc.scope ? say(lang, 'auth.scope', { scope: cc.scope }) : '', clientAuth: t.muted(say(lang, 'auth.clientAuth', { how: cc.clientAuth })) }));
    lines.push(say(lang, 'auth.secret', { secret: cc.secretSource === null ? none : cc.secretSource === 'env' ? say(lang, 'auth.secretFromEnv') : say(lang, 'auth.secretStored') }));
    const c = cc.cachedToken;
    if (c) {
      const left = c.expiresAt === null ? undefined : new Date(c.expiresAt).getTime() - now.getTime();
      lines.push(say(lang, 'auth.token', { token: c.masked, where: t.muted(say(lang, 'auth.cachedIn', { path: c.path })) }));
      const next = c.usable ? say(lang, 'auth.expiresRenewed', { when: localTime(c.refreshAt) }) : say(lang, 'auth.expiresRefetch');
      lines.push(say(lang, 'auth.expires', { when: c.expiresAt === null ? say(lang, 'auth.unknown') : localTime(c.expiresAt), left: `${left === undefined ? '' : ` (${relative(lang, left)})`}${next}` }));
    } else {
      lines.push(say(lang, 'auth.tokenNone', { none: t.muted(say(lang, 'auth.noneCached')) }));
    }
  } else if (token.present) {
    const from = token.source === 'env' ? 'ECONSIG_TOKEN' : (token.path ?? say(lang, 'auth.configFile'));
    lines.push(say(lang, 'auth.token', { token: token.masked ?? '', where: t.muted(say(lang, 'auth.from', { source: from })) }));
    if (token.source === 'file') lines.push(t.muted(say(lang, 'auth.plainText')));
    if (view.shadowedFile) lines.push(t.muted(say(lang, 'auth.overrides', { path: view.shadowedFile })));
    if (token.expiresAt !== undefined) {
      const left = new Date(token.expiresAt).getTime() - now.getTime();
      lines.push(say(lang, 'auth.expires', { when: localTime(token.expiresAt), left: ` (${relative(lang, left)})` }));
      if (token.expired) lines.push(warning('auth.expired'));
      else if (token.warn) lines.push(warning('auth.expiresSoon'));
    }
  } else {
    lines.push(say(lang, 'auth.tokenNone', { none }));
  }
  const cert = a.certificate;
  if (cert) {
    lines.push(say(lang, 'auth.certificate', { path: cert.path, setting: t.muted(`(${cert.setting})`) }));
    lines.push(
      say(lang, 'auth.subject', { subject: cert.subject }),
      say(lang, 'auth.issuer', { issuer: cert.issuer }),
      say(lang, 'auth.valid', { from: cert.validFrom, to: cert.validTo, left: relative(lang, new Date(cert.validTo).getTime() - now.getTime()) }),
    );
    if (cert.expired) lines.push(warning('auth.certExpired'));
    else if (cert.notYetValid) lines.push(warning('auth.certNotYetValid'));
    else if (cert.expiresSoon) lines.push(warning('auth.certExpiresSoon'));
  } else {
    lines.push(say(lang, 'auth.certificateNone', { none: t.muted(say(lang, 'auth.none')) }));
  }
  if (a.caPath) lines.push(say(lang, 'auth.extraCa', { path: a.caPath }));
  for (const w of a.warnings) lines.push(`${t.warning(say(lang, 'run.warningLabel'))} ${say(lang, w)}`);
  if (a.problem) {
    const { message, hint } = problemText(lang, a.problem);
    lines.push(`${t.warning(say(lang, 'auth.problemLabel'))} ${message}${hint ? `\n  ${hint}` : ''}`);
  }
  io.stderr.write(`${lines.join('\n')}\n`);
}

export function writeLoginResult(io: Io, result: { profile: string; path: string; what?: 'token' | 'clientCredentials' }): void {
  if (io.json) {
    writeJson(io, { ok: true, profile: result.profile, stored: true, path: result.path });
    return;
  }
  const t = createTheme(io);
  const lang: Lang = io.lang;
  const stored = say(lang, result.what === 'clientCredentials' ? 'auth.storedClient' : 'auth.stored', { profile: t.strong(result.profile), path: t.path(result.path) });
  io.stderr.write(
    `${t.success('✓')} ${stored}\n` +
      `  ${t.muted(say(lang, 'auth.storedNote'))}\n`,
  );
}

export function writeLogoutResult(io: Io, result: { profile: string; removed: boolean; path: string; what?: 'token' | 'oauth' | 'tokenAndOauth' }): void {
  if (io.json) {
    writeJson(io, { ok: true, profile: result.profile, removed: result.removed, path: result.path });
    return;
  }
  const t = createTheme(io);
  const lang: Lang = io.lang;
  const what = say(lang, result.what === 'oauth' ? 'auth.thing_oauth' : result.what === 'tokenAndOauth' ? 'auth.thing_tokenAndOauth' : 'auth.thing_token');
  const values = { what, profile: t.strong(result.profile) };
  io.stderr.write(result.removed ? `${t.success('✓')} ${say(lang, 'auth.removed', values)}\n` : `${say(lang, 'auth.nothingToRemove', values)}\n`);
}

/** A warning for people on stderr. */
export function writeWarning(io: Io, warning: Message): void {
  const t = createTheme(io);
  io.stderr.write(`${t.warning(say(io.lang, 'run.warningLabel'))} ${say(io.lang, warning)}\n`);
}

/** `auth token`: the one place the raw token is printed, to stdout, for scripts. */
export function writeRawToken(io: Io, token: ResolvedToken | { token: string; source: 'client-credentials' }): void {
  if (io.json) {
    writeJson(io, { token: token.token, source: token.source, ...(token.source === 'file' ? { path: token.path } : {}) });
    return;
  }
  io.stdout.write(`${token.token}\n`);
}
