/**
 * Everything an authenticated run needs before its first request (docs/cli-contract.md
 * "Authentication for a real homologation"): the token source (static or OAuth2 client
 * credentials, cached per profile), the client certificate and CA for undici's `connect`,
 * and `prepare`, which refuses a bad certificate, an untrusted server or a refused client
 * secret before anything is sent.
 */
import { msg } from '../i18n/index.js';
import { Pool } from 'undici';
import { AuthError, EconsigError, ExitCode, UsageError } from '../errors.js';
import { assertSafeTransport, defaultUserAgent } from '../service/client.js';
import { InsecureTransportError, InvalidBaseUrlError } from '../service/errors.js';
import { TokenEndpointUnavailableError, TokenRefusedError, requestAccessToken, type ClientCredentials } from '../service/oauth.js';
import { probeTls, type TlsProbeResult } from '../service/tls-probe.js';
import { clientCredentialsSource, staticTokenSource, type CachedToken, type TokenSource } from '../service/token-source.js';
import { resolveAuthPlan, type AuthPlan } from '../settings/auth-plan.js';
import type { ResolvedSettings } from '../settings/settings.js';
import { readTokenCache, writeTokenCache } from '../settings/token-cache.js';
import { requireToken } from '../settings/token.js';
import { checkCertificateDates, loadTlsMaterial, type TlsMaterial } from '../settings/tls-files.js';
import type { Message } from '../i18n/index.js';

export interface AuthSession {
  plan: AuthPlan;
  tokens: TokenSource;
  tls: TlsMaterial | undefined;
  /**
   * Before the first POST: the client certificate's dates, one TLS handshake with each
   * https host (service, token endpoint), and the first access token. Throws the
   * operator's error (3 auth, 7 unavailable) when any of them fails.
   */
  prepare(baseUrl: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenAuthSessionOptions {
  settings: Pick<ResolvedSettings, 'values' | 'sources' | 'profile' | 'token' | 'file' | 'paths'>;
  env: Record<string, string | undefined>;
  now?: () => Date;
  /** Told about every token fetched (never the token itself is shown). */
  onTokenFetch?: (entry: CachedToken) => void;
  /** false: ignore the cached token and fetch a new one (doctor proves the secret works). */
  useCache?: boolean;
}

/** The profile's plan, or the operator's error when it is incomplete. */
export function authPlanOf(settings: OpenAuthSessionOptions['settings'], env: Record<string, string | undefined>): AuthPlan {
  return resolveAuthPlan({
    profile: settings.profile.name,
    env,
    values: settings.values,
    sources: settings.sources,
    token: settings.token,
    storedSecret: settings.file.clientSecret(settings.profile.name),
  });
}

/**
 * What to do after a 401, naming where the token came from (issue 14: the hint said
 * `econsig auth login` when the token was ECONSIG_TOKEN's).
 */
export function unauthorizedHint(plan: AuthPlan, profile: string): Message {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  if (plan.method === 'client-credentials') {
    const secret: Message = plan.secretSource === 'env' ? msg('run.secretFromEnv') : msg('run.secretStored', { profile });
    return msg('run.hintTokenFromClient', { secret, flag });
  }
  if (plan.token?.source === 'env') return msg('run.hintTokenFromEnv', { profile });
  return msg('run.hintTokenStored', { profile, flag, path: plan.token ? ` (${plan.token.path})` : '' });
}

/** Refuse sending the client secret over plain http to another machine, as the token. */
function checkTokenUrl(tokenUrl: string): void {
  try {
    assertSafeTransport(tokenUrl);
  } catch (error) {
    if (error instanceof InsecureTransportError) throw new UsageError(msg('service.insecureTokenUrl', { url: error.baseUrl }), msg('service.tokenUrlHint'));
    if (error instanceof InvalidBaseUrlError) throw new UsageError(error.message, msg('service.tokenUrlHint'));
    throw error;
  }
}

/** Turn a failed token request into the operator's error: 3 when refused (RFC 6749 §5.2), 7 when unreachable. */
export function tokenFailure(error: unknown, profile: string): unknown {
  if (error instanceof TokenRefusedError) {
    const reason = (error.errorDescription ? `${error.error}: ${error.errorDescription}` : error.error).replace(/\.+$/, '');
    return new AuthError(
      msg('service.tokenRefused', { profile, reason }),
      msg(error.error === 'invalid_client' ? 'service.tokenRefusedClientHint' : 'service.tokenRefusedScopeHint'),
    );
  }
  if (error instanceof TokenEndpointUnavailableError) {
    return new EconsigError(msg('service.noAccessToken', { reason: error.message }), {
      exitCode: ExitCode.unavailable,
      hint: msg('service.noAccessTokenHint'),
    });
  }
  return error;
}

/** The operator's error for a TLS handshake that failed, or undefined when it may go on. */
export function tlsFailure(result: TlsProbeResult, origin: string, tls: TlsMaterial | undefined): EconsigError | undefined {
  if (result.ok || result.kind === 'connect') return undefined;
  if (result.kind === 'untrusted') {
    return new EconsigError(msg('service.untrusted', { origin, code: result.code }), {
      exitCode: ExitCode.unavailable,
      hint: msg('service.untrustedHint'),
    });
  }
  const cert = tls?.certificate;
  if (result.kind === 'certificate-required' || !cert) {
    return new AuthError(msg('service.certRequired', { origin, code: result.code }), msg('service.certRequiredHint'));
  }
  const closed = result.code.endsWith('during the handshake');
  const values = { origin, path: cert.path, setting: cert.setting, subject: cert.subject, issuer: cert.issuer, code: result.code };
  return new AuthError(msg(closed ? 'service.certClosed' : 'service.certRefused', values), msg('service.certRefusedHint'));
}

/** Build the session; reads the TLS files and the cached token, sends nothing. */
export function openAuthSession(options: OpenAuthSessionOptions): AuthSession {
  const { settings, env } = options;
  const now = options.now ?? (() => new Date());
  const profile = settings.profile.name;
  const tls = loadTlsMaterial(settings.values, settings.sources, env);
  const plan = authPlanOf(settings, env);
  const connectTimeoutMs = Math.min(10_000, settings.values['request-timeout'] * 1000);
  let tokenPool: Pool | undefined;
  let tokens: TokenSource;
  let credentials: ClientCredentials | undefined;

  if (plan.method === 'token') {
    tokens = staticTokenSource(requireToken(plan.token, profile).token);
  } else {
    credentials = plan.credentials;
    checkTokenUrl(credentials.tokenUrl);
    const pool = new Pool(new URL(credentials.tokenUrl).origin, {
      connections: 1,
      connect: { timeout: connectTimeoutMs, ...tls?.connect },
      keepAliveTimeout: 2_000,
    });
    tokenPool = pool;
    const home = settings.paths.home;
    tokens = clientCredentialsSource({
      credentials,
      fetchToken: (creds) =>
        requestAccessToken(creds, { dispatcher: pool, timeoutMs: settings.values['request-timeout'] * 1000, userAgent: defaultUserAgent() }),
      loadCache: () => (options.useCache === false ? undefined : readTokenCache(home, profile)),
      saveCache: (entry) => writeTokenCache(home, profile, entry),
      ...(options.onTokenFetch ? { onFetch: options.onTokenFetch } : {}),
    });
  }

  async function prepare(baseUrl: string): Promise<void> {
    const cert = tls?.certificate;
    if (cert) {
      const refused = checkCertificateDates(cert, now());
      if (refused) throw refused;
    }
    const origins = new Set([baseUrl, ...(credentials ? [credentials.tokenUrl] : [])].map((u) => new URL(u)).filter((u) => u.protocol === 'https:').map((u) => u.origin));
    for (const origin of origins) {
      const result = await probeTls(new URL(origin), { ...tls?.connect }, connectTimeoutMs);
      const failure = tlsFailure(result, origin, tls);
      if (failure) throw failure;
    }
    try {
      await tokens.token();
    } catch (error) {
      throw tokenFailure(error, profile);
    }
  }

  return {
    plan,
    tokens,
    tls,
    prepare,
    async close() {
      await tokenPool?.close();
    },
  };
}
