/**
 * Where the bearer token of each request comes from: a fixed token, or OAuth2 client
 * credentials with a cached, self-renewing access token (docs/cli-contract.md "Authentication
 * for a real homologation").
 */
import type { AccessToken, ClientCredentials } from './oauth.js';

export interface TokenSource {
  /** The token to send now; fetches one (once, however many callers wait) when needed. */
  token(): Promise<string>;
  /**
   * The service answered 401 to `rejected`: a fresh token, fetched at most once for that
   * token however many requests got the 401. Undefined when this source cannot renew.
   */
  renew(rejected: string): Promise<string | undefined>;
  /** Every token handed out, and the client secret: what redaction must hide. */
  secrets(): string[];
  /** Token-endpoint requests made by this source (for --verbose and tests). */
  readonly fetches: number;
}

/** A token that never changes (ECONSIG_TOKEN, `auth login --with-token`). */
export function staticTokenSource(token: string): TokenSource {
  return {
    token: async () => token,
    renew: async () => undefined,
    secrets: () => [token],
    fetches: 0,
  };
}

/** What is kept between runs (0600, per profile): the token and when to stop using it. */
export interface CachedToken {
  accessToken: string;
  obtainedAt: number;
  /** Absent when the endpoint gave no `expires_in`. */
  expiresAt?: number;
  refreshAt: number;
  /** The credentials it was issued for: a changed client id or URL ignores the cache. */
  tokenUrl: string;
  clientId: string;
  scope?: string;
}

/** Life assumed for a token that comes without `expires_in` (RFC 6749 §5.1 says "RECOMMENDED"). */
const UNKNOWN_LIFETIME_MS = 5 * 60_000;

/**
 * When to fetch the next token: at 80% of its life or 60 s before it ends, the earlier
 * (docs/cli-contract.md), but never before half its life: a token living under two minutes
 * (a test's --token-ttl) would otherwise be fetched again for every request.
 */
export function refreshTime(obtainedAt: number, lifetimeMs: number): number {
  const byShare = 0.8 * lifetimeMs;
  const byMargin = lifetimeMs - 60_000;
  return obtainedAt + Math.max(Math.min(byShare, byMargin), 0.5 * lifetimeMs);
}

/** The cache entry of a freshly issued token. Pure. */
export function cacheEntry(token: AccessToken, creds: ClientCredentials): CachedToken {
  const lifetime = token.expiresIn === undefined ? UNKNOWN_LIFETIME_MS : token.expiresIn * 1000;
  return {
    accessToken: token.accessToken,
    obtainedAt: token.obtainedAt,
    ...(token.expiresIn === undefined ? {} : { expiresAt: token.obtainedAt + lifetime }),
    refreshAt: refreshTime(token.obtainedAt, lifetime),
    tokenUrl: creds.tokenUrl,
    clientId: creds.clientId,
    ...(creds.scope ? { scope: creds.scope } : {}),
  };
}

function issuedFor(cached: CachedToken, creds: ClientCredentials): boolean {
  return cached.tokenUrl === creds.tokenUrl && cached.clientId === creds.clientId && (cached.scope ?? '') === (creds.scope ?? '');
}

/** When the token stops working (a token without `expires_in` is taken to live 5 minutes). */
function endOf(cached: CachedToken): number {
  return cached.expiresAt ?? cached.obtainedAt + UNKNOWN_LIFETIME_MS;
}

/** True when `cached` was issued for these credentials and is not due for renewal at `now`. */
export function isUsable(cached: CachedToken | undefined, creds: ClientCredentials, now: number): boolean {
  return cached !== undefined && issuedFor(cached, creds) && now < cached.refreshAt && now < endOf(cached);
}

/**
 * Due for renewal but still valid for a while: it may be sent while its successor is
 * fetched. Not in its last quarter-life (at most 30 s): a request takes time to arrive, and
 * a token that expires on the way is a 401 and a resend.
 */
function isStillValid(cached: CachedToken, creds: ClientCredentials, now: number): boolean {
  const margin = Math.min(30_000, 0.25 * (endOf(cached) - cached.obtainedAt));
  return issuedFor(cached, creds) && now < endOf(cached) - margin;
}

export interface ClientCredentialsSourceOptions {
  credentials: ClientCredentials;
  /** Does the HTTP exchange (service/oauth.ts requestAccessToken, bound to a dispatcher). */
  fetchToken: (creds: ClientCredentials) => Promise<AccessToken>;
  /** The cache as stored; undefined when none. */
  loadCache?: () => CachedToken | undefined;
  /** Persist a new token (best effort: a failure must not fail the request). */
  saveCache?: (entry: CachedToken) => void;
  now?: () => number;
  onFetch?: (entry: CachedToken) => void;
}

/**
 * Client credentials with one cached token. Concurrent callers share one fetch (a single
 * in-flight promise), so 32 submissions in flight cause one token request, not 32. Past its
 * renewal time a token that is still valid keeps being sent while its successor is fetched,
 * so no request waits for a renewal; only a missing or expired token makes callers wait.
 */
export function clientCredentialsSource(options: ClientCredentialsSourceOptions): TokenSource {
  const creds = options.credentials;
  const now = options.now ?? Date.now;
  const issued = new Set<string>();
  let current: CachedToken | undefined = options.loadCache?.();
  if (current) issued.add(current.accessToken);
  let inFlight: Promise<string> | undefined;
  let fetches = 0;

  const fetchNew = (): Promise<string> => {
    inFlight ??= (async () => {
      try {
        fetches += 1;
        const token = await options.fetchToken(creds);
        const entry = cacheEntry(token, creds);
        issued.add(entry.accessToken);
        current = entry;
        options.onFetch?.(entry);
        try {
          options.saveCache?.(entry);
        } catch {
          // The next run fetches its own token; this one goes on.
        }
        return entry.accessToken;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  return {
    async token() {
      const at = now();
      const held = current;
      if (held && isUsable(held, creds, at)) return held.accessToken;
      if (held && isStillValid(held, creds, at)) {
        // A failed renewal here is not this request's failure: the next caller past the
        // token's end fetches again and gets the error.
        if (!inFlight) fetchNew().catch(() => undefined);
        return held.accessToken;
      }
      return inFlight ?? fetchNew();
    },
    async renew(rejected) {
      if (inFlight) return inFlight;
      // Another request already replaced the token the service refused: use that one.
      if (current && current.accessToken !== rejected && isUsable(current, creds, now())) return current.accessToken;
      return fetchNew();
    },
    secrets: () => [creds.clientSecret, ...issued],
    get fetches() {
      return fetches;
    },
  };
}
