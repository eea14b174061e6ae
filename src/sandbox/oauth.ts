/**
 * The sandbox's OAuth2 token endpoint (`--oauth`): client credentials as Celcoin documents
 * theirs (docs/real-providers.md): `POST /oauth2/token`, HTTP Basic or form client
 * authentication, `grant_type=client_credentials`, short-lived bearer tokens. Also
 * `POST /oauth2/revoke` (RFC 7009), so a test can revoke a token a client still holds.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PATH = '/oauth2/token';
export const REVOKE_PATH = '/oauth2/revoke';

export interface OAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of each access token, seconds (default 3600). */
  tokenTtlSeconds?: number;
}

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface OAuthServer {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tokenTtlSeconds: number;
  /** Answer a POST to /oauth2/token or /oauth2/revoke (form body as text). */
  handle(path: string, authorization: string | undefined, body: string, nowMs: number): TokenAnswer;
  /** True for a token this server issued, not revoked and not expired at `nowMs`. */
  accepts(token: string, nowMs: number): boolean;
  /** Access tokens issued so far. */
  issued(): number;
  /** Every access token issued, oldest first (tests check none leaks). */
  issuedTokens(): string[];
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

export function createOAuthServer(options: OAuthOptions = {}): OAuthServer {
  const clientId = options.clientId ?? 'sandbox-client';
  const clientSecret = options.clientSecret ?? `sbxsecret_${randomBytes(16).toString('hex')}`;
  const ttl = options.tokenTtlSeconds ?? 3600;
  const tokens = new Map<string, number>(); // token → expiry (ms)
  const all: string[] = [];

  const invalidClient = (): TokenAnswer => ({
    status: 401,
    body: { error: 'invalid_client', error_description: 'Client authentication failed.' },
    headers: { 'www-authenticate': 'Basic realm="econsig sandbox"' },
  });

  /** RFC 6749 §2.3.1: Basic (form-encoded id and secret) or client_id/client_secret in the body. */
  const authenticate = (authorization: string | undefined, form: URLSearchParams): boolean => {
    let id: string | undefined;
    let secret: string | undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return false;
      try {
        id = formDecode(decoded.slice(0, colon));
        secret = formDecode(decoded.slice(colon + 1));
      } catch {
        return false;
      }
    } else {
      id = form.get('client_id') ?? undefined;
      secret = form.get('client_secret') ?? undefined;
    }
    return id !== undefined && secret !== undefined && same(id, clientId) && same(secret, clientSecret);
  };

  return {
    clientId,
    clientSecret,
    tokenTtlSeconds: ttl,
    handle(path, authorization, body, nowMs) {
      const form = new URLSearchParams(body);
      if (!authenticate(authorization, form)) return invalidClient();
      if (path === REVOKE_PATH) {
        const token = form.get('token');
        if (token) tokens.delete(token);
        return { status: 200, body: {} };
      }
      const grant = form.get('grant_type');
      if (grant !== 'client_credentials') {
        return { status: 400, body: { error: 'unsupported_grant_type', error_description: `grant_type must be client_credentials, not ${JSON.stringify(grant)}.` } };
      }
      const token = `sbxat_${randomBytes(24).toString('base64url')}`;
      tokens.set(token, nowMs + ttl * 1000);
      all.push(token);
      const scope = form.get('scope');
      return {
        status: 200,
        body: { access_token: token, token_type: 'Bearer', expires_in: ttl, ...(scope ? { scope } : {}) },
        headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
      };
    },
    accepts(token, nowMs) {
      const expiry = tokens.get(token);
      if (expiry === undefined) return false;
      if (nowMs >= expiry) {
        tokens.delete(token);
        return false;
      }
      return true;
    },
    issued: () => all.length,
    issuedTokens: () => [...all],
  };
}
