/**
 * Callback authentication of the receiver (docs/cli-contract.md "Teams and homologation"): the
 * service's own scheme is not documented, and providers of this product use several
 * (docs/real-providers.md "Callbacks": Bearer, API key, Basic, HMAC). One secret, several ways
 * of presenting it. Every comparison takes constant time: both sides are hashed to 32
 * bytes first, so timingSafeEqual always compares equal lengths and the time reveals
 * neither the secret's length nor how much of it matched.
 */
import { type Message, msg } from '../i18n/index.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { verifyWebhook } from './verify.js';

export const CALLBACK_AUTH_SCHEMES = ['none', 'standard-webhooks', 'bearer', 'api-key', 'basic'] as const;
export type CallbackAuthScheme = (typeof CALLBACK_AUTH_SCHEMES)[number];

export const DEFAULT_API_KEY_HEADER = 'X-API-Key';

/** Why a delivery was refused with 401; also the label of the refusal metric. */
export type AuthFailureReason = 'missing-credential' | 'wrong-credential' | 'missing-headers' | 'bad-timestamp' | 'bad-signature' | 'stale-timestamp';

export type AuthResult =
  | { ok: true; verified: boolean | null }
  | { ok: false; reason: AuthFailureReason; message: string; webhookId: string | null };

type HeaderBag = Record<string, string | string[] | undefined>;

export interface CallbackAuth {
  scheme: CallbackAuthScheme;
  /**
   * One secret, or several while one is being rotated (any may match). standard-webhooks:
   * `whsec_...`; bearer and api-key: the token; basic: `user:password`.
   */
  secret?: string | readonly string[] | undefined;
  /** api-key: the header that carries it (default X-API-Key). */
  apiKeyHeader?: string | undefined;
}

export type Authenticate = (headers: HeaderBag, body: Buffer, nowSeconds: number) => AuthResult;

/** The scheme in force: the one named, else standard-webhooks with a secret and none without. */
export function defaultScheme(named: CallbackAuthScheme | undefined, hasSecret: boolean): CallbackAuthScheme {
  return named ?? (hasSecret ? 'standard-webhooks' : 'none');
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time equality of `given` with any of `expected` (every candidate is compared). */
function matchesAny(given: string, expected: readonly Buffer[]): boolean {
  const g = digest(given);
  let hit = false;
  for (const e of expected) hit = timingSafeEqual(g, e) || hit;
  return hit;
}

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** `Authorization: <scheme> <value>` with the scheme matched case-insensitively (RFC 9110 11.1). */
function authorization(headers: HeaderBag, scheme: string): string | undefined {
  const value = header(headers, 'authorization');
  if (value === undefined) return undefined;
  const space = value.indexOf(' ');
  if (space < 0 || value.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  const rest = value.slice(space + 1).trim();
  return rest === '' ? undefined : rest;
}

/**
 * Checks that configuration makes sense before the receiver starts: every scheme but
 * `none` needs a secret, and basic's secret must be `user:password`. Returns a message
 * naming what is wrong, or undefined.
 */
export function checkCallbackAuth(auth: CallbackAuth): Message | undefined {
  const secrets = auth.secret === undefined ? [] : typeof auth.secret === 'string' ? [auth.secret] : [...auth.secret];
  if (auth.scheme === 'none') return undefined;
  if (secrets.length === 0) return msg('watch.authNeedsSecret', { scheme: auth.scheme });
  if (auth.scheme === 'basic' && secrets.some((s) => !s.includes(':'))) return msg('watch.basicNeedsPair');
  if (auth.scheme === 'api-key' && auth.apiKeyHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(auth.apiKeyHeader)) {
    return msg('watch.badApiKeyHeader', { header: auth.apiKeyHeader });
  }
  return undefined;
}

/** Builds the check that each delivery passes before anything else is done with it. */
export function createAuthenticator(auth: CallbackAuth): Authenticate {
  const secrets = auth.secret === undefined ? [] : typeof auth.secret === 'string' ? [auth.secret] : [...auth.secret];
  const expected = secrets.map(digest);
  const missing = (what: string): AuthResult => ({ ok: false, reason: 'missing-credential', message: `missing credential: ${what}`, webhookId: null });
  const wrong = (what: string): AuthResult => ({ ok: false, reason: 'wrong-credential', message: `wrong credential in ${what}`, webhookId: null });

  switch (auth.scheme) {
    case 'none':
      return () => ({ ok: true, verified: null });
    case 'standard-webhooks':
      return (headers, body, nowSeconds) => {
        const result = verifyWebhook({ secret: secrets, headers, body, nowSeconds });
        return result.ok ? { ok: true, verified: true } : result;
      };
    case 'bearer':
      return (headers) => {
        const token = authorization(headers, 'Bearer');
        if (token === undefined) return missing('Authorization: Bearer header');
        return matchesAny(token, expected) ? { ok: true, verified: true } : wrong('the Authorization header');
      };
    case 'api-key': {
      const name = auth.apiKeyHeader ?? DEFAULT_API_KEY_HEADER;
      return (headers) => {
        const key = header(headers, name);
        if (key === undefined) return missing(`${name} header`);
        return matchesAny(key, expected) ? { ok: true, verified: true } : wrong(`the ${name} header`);
      };
    }
    case 'basic':
      return (headers) => {
        const encoded = authorization(headers, 'Basic');
        if (encoded === undefined) return missing('Authorization: Basic header');
        // RFC 7617: base64 of user:password; a value that is not base64 simply does not match.
        const decoded = Buffer.from(encoded, 'base64').toString('utf8');
        return matchesAny(decoded, expected) ? { ok: true, verified: true } : wrong('the Authorization header');
      };
  }
}
