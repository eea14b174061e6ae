/**
 * The bearer token: where it comes from (ECONSIG_TOKEN, then the profile's stored token;
 * there is no built-in one, docs/cli-contract.md "Environment"), how it is shown (masked), and
 * its expiry when it is a JWT. Pure: callers pass env, stored token and clock.
 */
import { AuthError } from '../errors.js';
import { msg } from '../i18n/index.js';
import { maskSecret } from '../redact.js';

export type ResolvedToken =
  | { token: string; source: 'env' }
  | { token: string; source: 'file'; path: string };

/**
 * Pick the token in force: ECONSIG_TOKEN (trimmed, when not empty) wins over the
 * profile's stored token. Returns undefined when there is none.
 */
export function resolveToken(options: {
  env: Record<string, string | undefined>;
  stored: string | undefined;
  path: string;
}): ResolvedToken | undefined {
  const fromEnv = options.env.ECONSIG_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: 'env' };
  const stored = options.stored?.trim();
  if (stored) return { token: stored, source: 'file', path: options.path };
  return undefined;
}

/** The error for "no token": exit 3, with the way out for this profile. */
export function noTokenError(profile: string): AuthError {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  return new AuthError(msg('auth.noToken', { profile }), msg('auth.noTokenHint', { flag }));
}

/** The token in force, or AuthError (exit 3) naming the profile and how to log in. */
export function requireToken(token: ResolvedToken | undefined, profile: string): ResolvedToken {
  if (token === undefined) throw noTokenError(profile);
  return token;
}

/**
 * The `exp` claim of a JWT, decoded without verification (we only show it).
 * Returns undefined for anything that is not a JWT with a numeric `exp`.
 */
export function decodeJwtExpiry(token: string): Date | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (payload === null || typeof payload !== 'object') return undefined;
    const exp = (payload as { exp?: unknown }).exp;
    if (typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
    const date = new Date(exp * 1000);
    return Number.isNaN(date.getTime()) ? undefined : date;
  } catch {
    return undefined;
  }
}

const EXPIRY_WARNING_MS = 24 * 60 * 60 * 1000;

export interface TokenExpiry {
  expiresAt: Date;
  expired: boolean;
  /** Expired, or expiring within 24 h. */
  warn: boolean;
}

/** Expiry of a JWT token relative to `now`, or undefined when it carries none. */
export function tokenExpiry(token: string, now: Date): TokenExpiry | undefined {
  const expiresAt = decodeJwtExpiry(token);
  if (!expiresAt) return undefined;
  const left = expiresAt.getTime() - now.getTime();
  return { expiresAt, expired: left <= 0, warn: left <= EXPIRY_WARNING_MS };
}

/** What `auth status` reports about the token (the --json `token` object). */
export interface TokenReport {
  present: boolean;
  masked: string | null;
  source: 'env' | 'file' | null;
  path?: string;
  expiresAt?: string;
  expired?: boolean;
  /** Expired or expiring within 24 h; not part of the --json contract. */
  warn?: boolean;
}

/** Describe the token in force for status output: masked, never the token itself. */
export function describeToken(token: ResolvedToken | undefined, now: Date): TokenReport {
  if (token === undefined) return { present: false, masked: null, source: null };
  const report: TokenReport = { present: true, masked: maskSecret(token.token), source: token.source };
  if (token.source === 'file') report.path = token.path;
  const expiry = tokenExpiry(token.token, now);
  if (expiry) {
    report.expiresAt = expiry.expiresAt.toISOString();
    report.expired = expiry.expired;
    report.warn = expiry.warn;
  }
  return report;
}
