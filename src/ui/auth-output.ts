/**
 * Output of `econsig auth`: human text on stderr, one JSON document on stdout with --json.
 * Only `writeRawToken` ever prints a token, and only for `auth token`.
 */
import type { ResolvedProfile } from '../store/settings.js';
import type { ResolvedToken, TokenReport } from '../store/token.js';
import type { AuthStatusReport } from '../flows/auth-status.js';
import type { Io } from './io.js';
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

function relative(ms: number): string {
  const abs = Math.abs(ms);
  const text =
    abs >= 86_400_000 ? `${Math.round(abs / 86_400_000)} d` : abs >= 3_600_000 ? `${Math.round(abs / 3_600_000)} h` : `${Math.max(1, Math.round(abs / 60_000))} min`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

export function writeAuthStatus(io: Io, view: AuthStatusView, now: Date): void {
  const a = view.auth;
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
      warnings: a.warnings,
      problem: a.problem ? { message: a.problem.message, hint: a.problem.hint ?? null, exitCode: a.problem.exitCode } : null,
    });
    return;
  }
  const t = createTheme(io);
  const lines = [
    `Profile:  ${t.strong(view.profile.name)} ${t.muted(`(${view.profile.source})`)}`,
    `Base URL: ${view.baseUrl ?? t.warning('not set')}`,
    `Method:   ${a.method === 'client-credentials' ? 'OAuth2 client credentials' : 'bearer token'}`,
  ];
  const token = view.token;
  const cc = a.clientCredentials;
  if (cc) {
    lines.push(`Token URL: ${cc.tokenUrl ?? t.warning('not set')}`);
    lines.push(`Client:   ${cc.clientId ?? t.warning('not set')}${cc.scope ? ` scope ${cc.scope}` : ''} ${t.muted(`(client auth ${cc.clientAuth})`)}`);
    lines.push(`Secret:   ${cc.secretSource === null ? t.warning('none') : cc.secretSource === 'env' ? 'from ECONSIG_CLIENT_SECRET' : 'stored (file mode 0600)'}`);
    const c = cc.cachedToken;
    if (c) {
      const left = c.expiresAt === null ? undefined : new Date(c.expiresAt).getTime() - now.getTime();
      lines.push(`Token:    ${c.masked} ${t.muted(`cached in ${c.path}`)}`);
      lines.push(`Expires:  ${c.expiresAt ?? 'unknown'}${left === undefined ? '' : ` (${relative(left)})`}; ${c.usable ? `renewed after ${c.refreshAt}` : 'a new one is fetched on next use'}`);
    } else {
      lines.push(`Token:    ${t.muted('none cached; one is fetched on first use')}`);
    }
  } else if (token.present) {
    const from = token.source === 'env' ? 'ECONSIG_TOKEN' : (token.path ?? 'config file');
    lines.push(`Token:    ${token.masked ?? ''} ${t.muted(`from ${from}`)}`);
    if (token.source === 'file') lines.push(t.muted('          stored in plain text (file mode 0600)'));
    if (view.shadowedFile) lines.push(t.muted(`          (overrides the token stored in ${view.shadowedFile})`));
    if (token.expiresAt !== undefined) {
      const left = new Date(token.expiresAt).getTime() - now.getTime();
      lines.push(`Expires:  ${token.expiresAt} (${relative(left)})`);
      if (token.expired) lines.push(`${t.warning('warning:')} the token has expired; the service will answer 401.`);
      else if (token.warn) lines.push(`${t.warning('warning:')} the token expires within 24 hours.`);
    }
  } else {
    lines.push(`Token:    ${t.warning('none')}`);
  }
  const cert = a.certificate;
  if (cert) {
    lines.push(`Client certificate: ${cert.path} ${t.muted(`(${cert.setting})`)}`);
    lines.push(`  subject ${cert.subject}`, `  issuer  ${cert.issuer}`, `  valid   ${cert.validFrom} to ${cert.validTo} (${relative(new Date(cert.validTo).getTime() - now.getTime())})`);
    if (cert.expired) lines.push(`${t.warning('warning:')} the client certificate has expired; nothing will be sent with it.`);
    else if (cert.notYetValid) lines.push(`${t.warning('warning:')} the client certificate is not valid yet.`);
    else if (cert.expiresSoon) lines.push(`${t.warning('warning:')} the client certificate expires within 30 days: ask the provider for a new one.`);
  } else {
    lines.push(`Client certificate: ${t.muted('none')}`);
  }
  if (a.caPath) lines.push(`Extra CA: ${a.caPath}`);
  for (const warning of a.warnings) lines.push(`${t.warning('warning:')} ${warning}`);
  if (a.problem) lines.push(`${t.warning('problem:')} ${a.problem.message}${a.problem.hint ? `\n  ${a.problem.hint}` : ''}`);
  io.stderr.write(`${lines.join('\n')}\n`);
}

export function writeLoginResult(io: Io, result: { profile: string; path: string; what?: string }): void {
  if (io.json) {
    writeJson(io, { ok: true, profile: result.profile, stored: true, path: result.path });
    return;
  }
  const t = createTheme(io);
  io.stderr.write(
    `${t.success('✓')} ${result.what ?? 'Token'} stored for profile ${t.strong(result.profile)} in ${t.path(result.path)}\n` +
      `  ${t.muted('(plain text, readable only by you: mode 0600)')}\n`,
  );
}

export function writeLogoutResult(io: Io, result: { profile: string; removed: boolean; path: string; what?: string }): void {
  if (io.json) {
    writeJson(io, { ok: true, profile: result.profile, removed: result.removed, path: result.path });
    return;
  }
  const t = createTheme(io);
  io.stderr.write(
    result.removed
      ? `${t.success('✓')} Removed the stored ${result.what ?? 'token'} of profile ${t.strong(result.profile)}.\n`
      : `No stored ${result.what ?? 'token'} for profile ${t.strong(result.profile)}; nothing to remove.\n`,
  );
}

export function writeWarning(io: Io, text: string): void {
  const t = createTheme(io);
  io.stderr.write(`${t.warning('warning:')} ${text}\n`);
}

/** `auth token`: the one place the raw token is printed, to stdout, for scripts. */
export function writeRawToken(io: Io, token: ResolvedToken | { token: string; source: 'client-credentials' }): void {
  if (io.json) {
    writeJson(io, { token: token.token, source: token.source, ...(token.source === 'file' ? { path: token.path } : {}) });
    return;
  }
  io.stdout.write(`${token.token}\n`);
}
