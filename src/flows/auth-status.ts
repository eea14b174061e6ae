/**
 * What `auth status` reports: the method, where the token (or client secret) comes from,
 * when the token expires, and the client certificate. Reads files, sends nothing.
 */
import type { Message } from '../i18n/index.js';
import { EconsigError } from '../errors.js';
import { isUsable } from '../service/token-source.js';
import type { AuthPlan } from '../settings/auth-plan.js';
import type { ResolvedSettings } from '../settings/settings.js';
import { readTokenCache, tokenCachePath } from '../settings/token-cache.js';
import { describeToken, type TokenReport } from '../settings/token.js';
import { expiresSoon, loadTlsMaterial } from '../settings/tls-files.js';
import { maskSecret } from '../redact.js';
import { authPlanOf } from './auth-session.js';

export interface ClientCredentialsReport {
  tokenUrl: string | null;
  clientId: string | null;
  scope: string | null;
  clientAuth: 'basic' | 'post';
  /** Where the client secret comes from; null when there is none. */
  secretSource: 'env' | 'file' | null;
  /** The cached access token: masked, its expiry; null when none is cached. */
  cachedToken: { masked: string; path: string; obtainedAt: string; expiresAt: string | null; refreshAt: string; usable: boolean } | null;
}

export interface CertificateReport {
  path: string;
  setting: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  expired: boolean;
  notYetValid: boolean;
  /** Ends within 30 days. */
  expiresSoon: boolean;
}

export interface AuthStatusReport {
  method: 'token' | 'client-credentials';
  token: TokenReport;
  clientCredentials?: ClientCredentialsReport;
  certificate: CertificateReport | null;
  caPath: string | null;
  /** Message in the reader's language by ui/auth-output.ts. */
  warnings: Message[];
  /** Why the profile cannot authenticate as set up (missing secret, setting, file); null when it can. */
  problem: EconsigError | null;
}

export function authStatus(settings: ResolvedSettings, env: Record<string, string | undefined>, now: Date): AuthStatusReport {
  const profile = settings.profile.name;
  let plan: AuthPlan | undefined;
  let problem: EconsigError | null = null;
  try {
    plan = authPlanOf(settings, env);
  } catch (error) {
    if (!(error instanceof EconsigError)) throw error;
    problem = error;
  }
  const method = plan?.method ?? (settings.values['auth.method'] === 'client-credentials' || env.ECONSIG_CLIENT_SECRET ? 'client-credentials' : 'token');
  const report: AuthStatusReport = { method, token: describeToken(plan?.method === 'token' ? plan.token : undefined, now), certificate: null, caPath: null, warnings: [], problem };
  if (method === 'client-credentials') {
    const v = settings.values;
    const cached = readTokenCache(settings.paths.home, profile);
    const creds = plan?.method === 'client-credentials' ? plan.credentials : undefined;
    report.clientCredentials = {
      tokenUrl: v['auth.token-url'] ?? null,
      clientId: v['auth.client-id'] ?? null,
      scope: v['auth.scope'] ?? null,
      clientAuth: v['auth.client-auth'],
      secretSource: plan?.method === 'client-credentials' ? plan.secretSource : null,
      cachedToken: cached
        ? {
            masked: maskSecret(cached.accessToken),
            path: tokenCachePath(settings.paths.home, profile),
            obtainedAt: new Date(cached.obtainedAt).toISOString(),
            expiresAt: cached.expiresAt === undefined ? null : new Date(cached.expiresAt).toISOString(),
            refreshAt: new Date(cached.refreshAt).toISOString(),
            usable: creds !== undefined && isUsable(cached, creds, now.getTime()),
          }
        : null,
    };
  }
  try {
    const tls = loadTlsMaterial(settings.values, settings.sources, env);
    report.caPath = tls?.caPath ?? null;
    report.warnings.push(...(tls?.warnings ?? []));
    const cert = tls?.certificate;
    if (cert) {
      report.certificate = {
        path: cert.path,
        setting: cert.setting,
        subject: cert.subject,
        issuer: cert.issuer,
        validFrom: cert.validFrom.toISOString(),
        validTo: cert.validTo.toISOString(),
        expired: now.getTime() > cert.validTo.getTime(),
        notYetValid: now.getTime() < cert.validFrom.getTime(),
        expiresSoon: expiresSoon(cert, now),
      };
    }
  } catch (error) {
    if (!(error instanceof EconsigError)) throw error;
    report.problem ??= error;
  }
  return report;
}
