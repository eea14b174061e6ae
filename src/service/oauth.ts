/**
 * OAuth2 client credentials (RFC 6749 §4.4): one POST of a form to the token endpoint.
 *
 * Own code rather than a library: the grant is one form POST and one JSON answer. The
 * well-kept clients (openid-client, oauth4webapi) bring discovery, PKCE, DPoP and JOSE we do
 * not use, speak fetch rather than our undici dispatcher (which carries the mTLS client
 * certificate), and their errors quote bodies we must redact ourselves anyway.
 */
import type { Dispatcher } from 'undici';
import { isSecretName, redactToken } from '../redact.js';
import { snippetOf } from './errors.js';

export type ClientAuthMethod = 'basic' | 'post';

export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string | undefined;
  /** RFC 6749 §2.3.1: HTTP Basic (the default) or client_id/client_secret in the form. */
  clientAuth: ClientAuthMethod;
}

export interface AccessToken {
  accessToken: string;
  tokenType: string;
  /** Seconds, as the endpoint said (`expires_in`); undefined when it did not. */
  expiresIn: number | undefined;
  /** When the answer arrived (ms since the epoch). */
  obtainedAt: number;
}

/** The token endpoint refused (RFC 6749 §5.2): `error` and `error_description`. */
export class TokenRefusedError extends Error {
  readonly status: number;
  readonly error: string;
  readonly errorDescription: string | undefined;
  constructor(status: number, error: string, errorDescription: string | undefined) {
    super(`the token endpoint refused: ${error}${errorDescription ? ` (${errorDescription})` : ''} [HTTP ${status}]`);
    this.name = 'TokenRefusedError';
    this.status = status;
    this.error = error;
    this.errorDescription = errorDescription;
  }
}

/** The token endpoint could not be reached, failed (5xx) or answered something undocumented. */
export class TokenEndpointUnavailableError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'TokenEndpointUnavailableError';
    this.status = status;
  }
}

/** RFC 6749 Appendix B: the Basic credentials are form-encoded before base64. */
function formEncode(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}

/** The form body and headers of a client-credentials request (exported for tests and --verbose). */
export function tokenRequest(creds: ClientCredentials): { headers: Record<string, string>; body: string } {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (creds.scope) form.set('scope', creds.scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (creds.clientAuth === 'post') {
    form.set('client_id', creds.clientId);
    form.set('client_secret', creds.clientSecret);
  } else {
    const basic = Buffer.from(`${formEncode(creds.clientId)}:${formEncode(creds.clientSecret)}`).toString('base64');
    headers.authorization = `Basic ${basic}`;
  }
  return { headers, body: form.toString() };
}

function field(doc: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(doc, name) ? doc[name] : undefined;
}

/** Parse the token endpoint's answer; throws the typed errors above. Pure. */
export function parseTokenAnswer(status: number, text: string, creds: ClientCredentials, obtainedAt: number): AccessToken {
  let doc: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) doc = parsed as Record<string, unknown>;
  } catch {
    doc = undefined;
  }
  // An endpoint that echoes our request back must not show the secret, even base64-encoded;
  // nor may its words repeat a token the same answer carries (access_token, refresh_token...).
  const tokens = doc ? Object.entries(doc).flatMap(([name, value]) => (isSecretName(name) && typeof value === 'string' ? [value] : [])) : [];
  const redact = (s: string): string =>
    tokens.reduce((text, token) => redactToken(text, token), redactToken(s, creds.clientSecret).replace(/(Basic\s+)[A-Za-z0-9+/=]{8,}/gi, '$1[redacted]'));
  if (status === 200 && doc) {
    const accessToken = field(doc, 'access_token');
    const tokenType = field(doc, 'token_type');
    const expiresIn = field(doc, 'expires_in');
    if (typeof accessToken === 'string' && /^[\x21-\x7e]+$/.test(accessToken)) {
      // RFC 6749 §5.1: token_type is case-insensitive; we can only send bearer tokens.
      if (typeof tokenType === 'string' && tokenType.toLowerCase() !== 'bearer') {
        throw new TokenEndpointUnavailableError(`the token endpoint issued a "${redact(tokenType)}" token; econsig sends only Bearer tokens`, status);
      }
      const seconds = typeof expiresIn === 'string' ? Number(expiresIn) : expiresIn;
      return {
        accessToken,
        tokenType: 'Bearer',
        expiresIn: typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined,
        obtainedAt,
      };
    }
  }
  const error = doc ? field(doc, 'error') : undefined;
  if (status >= 400 && status < 500 && typeof error === 'string') {
    const description = doc ? field(doc, 'error_description') : undefined;
    throw new TokenRefusedError(status, redact(error), typeof description === 'string' ? redact(description) : undefined);
  }
  if (status === 401 || status === 403) throw new TokenRefusedError(status, status === 401 ? 'invalid_client' : 'access_denied', undefined);
  const shown = doc ? summaryOf(doc, redact) : redact(snippetOf(text, creds.clientSecret));
  throw new TokenEndpointUnavailableError(
    status >= 500
      ? `the token endpoint failed with HTTP ${status}${shown ? `: ${shown}` : ''}`
      : `the token endpoint answered HTTP ${status} without an access token${shown ? `: ${shown}` : ''}`,
    status,
  );
}

/**
 * An odd answer as an error quotes it: its `error` and `error_description` (RFC 6749 §5.2)
 * and the names of its other fields, never their values (one may be a token).
 */
function summaryOf(doc: Record<string, unknown>, redact: (s: string) => string): string {
  const parts: string[] = [];
  for (const name of ['error', 'error_description']) {
    const value = field(doc, name);
    if (typeof value === 'string') parts.push(`${name} "${snippetOf(redact(value))}"`);
  }
  const others = Object.keys(doc).filter((name) => name !== 'error' && name !== 'error_description');
  const names = others.filter((name) => /^[\w.-]{1,40}$/.test(name)).slice(0, 10);
  if (names.length > 0) parts.push(`fields ${names.join(', ')}${others.length > names.length ? ', …' : ''}`);
  return parts.join('; ');
}

/** POST the client-credentials grant through `dispatcher` and return the access token. */
export async function requestAccessToken(
  creds: ClientCredentials,
  options: { dispatcher: Dispatcher; timeoutMs: number; now?: () => number; userAgent?: string },
): Promise<AccessToken> {
  const now = options.now ?? Date.now;
  const url = new URL(creds.tokenUrl);
  const { headers, body } = tokenRequest(creds);
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  let status: number;
  let text: string;
  try {
    const response = await options.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers,
      body,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const detail = redactToken(error instanceof Error ? error.message : String(error), creds.clientSecret);
    throw new TokenEndpointUnavailableError(
      `cannot reach the token endpoint ${url.origin}${url.pathname}: ${typeof code === 'string' && !detail.includes(code) ? `${code} ` : ''}${detail}`,
      undefined,
      error,
    );
  }
  return parseTokenAnswer(status, text, creds, now());
}
