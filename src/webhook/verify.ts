import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Said, UsageError } from '../errors.js';
import { msg } from '../i18n/index.js';

/** Standard Webhooks tolerance: ±5 minutes in both directions (docs/peer-clis.md §4.3 item 4). */
const DEFAULT_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export type VerifyFailureReason = 'missing-headers' | 'bad-timestamp' | 'bad-signature' | 'stale-timestamp';

type VerifyResult =
  | { ok: true; webhookId: string; timestamp: number }
  | { ok: false; reason: VerifyFailureReason; message: string; webhookId: string | null };

type HeaderBag = Record<string, string | string[] | undefined>;

interface VerifyInput {
  /** One secret, or several while a secret is being rotated (any may match). */
  secret: string | readonly string[];
  headers: HeaderBag;
  /** The raw request body, exactly as received (re-serialised JSON breaks signatures). */
  body: Uint8Array | string;
  /** Current time in Unix seconds; passed in so this module never reads the clock. */
  nowSeconds: number;
  toleranceSeconds?: number;
}

/**
 * Turns a configured secret into HMAC key bytes.
 * `whsec_<base64>` is the Standard Webhooks form: the part after the prefix is base64-decoded.
 * A secret without the prefix is used as its UTF-8 bytes, so operators can paste a plain
 * shared secret (note: the reference `standardwebhooks` library would base64-decode it instead).
 * Throws on an empty key or a `whsec_` secret that is not valid base64: that is a configuration
 * error, not a bad delivery.
 */
export function decodeSecret(secret: string): Buffer {
  let key: Buffer;
  if (secret.startsWith(SECRET_PREFIX)) {
    const b64 = secret.slice(SECRET_PREFIX.length);
    if (!BASE64.test(b64)) throw new Error('webhook secret after "whsec_" is not valid base64');
    key = Buffer.from(b64, 'base64');
  } else {
    key = Buffer.from(secret, 'utf8');
  }
  if (key.length === 0) throw new Error('webhook secret is empty');
  return key;
}

function toBytes(body: Uint8Array | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function hmacBase64(key: Buffer, id: string, timestamp: number, body: Uint8Array | string): string {
  return createHmac('sha256', key)
    .update(`${id}.${timestamp}.`, 'utf8')
    .update(toBytes(body))
    .digest('base64');
}

/**
 * A configured secret (`--secret`, ECONSIG_WEBHOOK_SECRET, webhook.secret) checked before it is
 * used to verify or sign: a usage error naming where it came from when it cannot be (exit 2).
 */
export function usableSecret(secret: { value: string; source: string }, hint: Said): string {
  try {
    decodeSecret(secret.value);
  } catch (error) {
    throw new UsageError(msg('watch.secretUnusable', { source: secret.source, reason: (error as Error).message }), hint);
  }
  return secret.value;
}

/**
 * Signs a delivery the Standard Webhooks way and returns the `webhook-signature` header value
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`). `timestamp` is Unix seconds or a Date.
 */
export function signWebhook(secret: string, id: string, timestamp: number | Date, body: Uint8Array | string): string {
  const seconds = typeof timestamp === 'number' ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000);
  return `v1,${hmacBase64(decodeSecret(secret), id, seconds, body)}`;
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id`, `webhook-timestamp` and, with a
 * secret, `webhook-signature` over `id.timestamp.body`. A retry or a replay keeps the id (the
 * receiver's idempotency key) and takes a fresh timestamp: the sandbox's sender, `watch
 * --forward-to` and `events resend` all sign with this.
 */
export function webhookHeaders(secret: string | undefined, id: string, timestamp: number | Date, body: Uint8Array | string): Record<string, string> {
  const seconds = typeof timestamp === 'number' ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000);
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(seconds) };
  if (secret !== undefined) headers['webhook-signature'] = signWebhook(secret, id, seconds, body);
  return headers;
}

function header(headers: HeaderBag, name: string): string | undefined {
  let value = headers[name];
  if (value === undefined) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  if (Array.isArray(value)) value = value.join(' ');
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Lists the `v1` signatures of a `webhook-signature` header (space-separated; other versions skipped). */
function v1Signatures(value: string): string[] {
  const out: string[] = [];
  // Node joins repeated headers with ", ", so a trailing comma is tolerated.
  for (const part of value.split(/\s+/)) {
    const entry = part.replace(/,$/, '');
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    out.push(entry.slice(comma + 1));
  }
  return out;
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'ascii');
  const b = Buffer.from(given, 'ascii');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Verifies a Standard Webhooks delivery over its raw body bytes (docs/peer-clis.md §4.3).
 * The signature is checked before the timestamp window, so a correctly signed but stale (or
 * future) delivery is reported as `stale-timestamp` — usually clock skew — rather than as
 * `bad-signature`. Throws only if a configured secret itself is unusable (see decodeSecret).
 */
export function verifyWebhook(input: VerifyInput): VerifyResult {
  const id = header(input.headers, 'webhook-id');
  const ts = header(input.headers, 'webhook-timestamp');
  const sig = header(input.headers, 'webhook-signature');
  const webhookId = id ?? null;
  if (id === undefined || ts === undefined || sig === undefined) {
    const missing = [
      id === undefined ? 'webhook-id' : null,
      ts === undefined ? 'webhook-timestamp' : null,
      sig === undefined ? 'webhook-signature' : null,
    ].filter((h) => h !== null);
    return { ok: false, reason: 'missing-headers', message: `missing headers: ${missing.join(', ')}`, webhookId };
  }
  if (!/^\d{1,15}$/.test(ts)) {
    return { ok: false, reason: 'bad-timestamp', message: `webhook-timestamp is not Unix seconds: ${JSON.stringify(ts.slice(0, 40))}`, webhookId };
  }
  const timestamp = Number(ts);
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  const given = v1Signatures(sig);
  const matched = secrets.some((secret) => {
    const expected = hmacBase64(decodeSecret(secret), id, timestamp, input.body);
    // Every candidate is compared (no early exit) so timing does not reveal which entry matched.
    let hit = false;
    for (const g of given) hit = sameSignature(expected, g) || hit;
    return hit;
  });
  if (!matched) {
    const message = given.length === 0 ? 'bad signature: no v1 signature in webhook-signature' : 'bad signature';
    return { ok: false, reason: 'bad-signature', message, webhookId };
  }
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const skew = input.nowSeconds - timestamp;
  if (Math.abs(skew) > tolerance) {
    const side = skew > 0 ? `${skew} s old` : `${-skew} s in the future`;
    return {
      ok: false,
      reason: 'stale-timestamp',
      message: `valid signature but timestamp outside the ${tolerance / 60}-minute window (${side}; check clocks)`,
      webhookId,
    };
  }
  return { ok: true, webhookId: id, timestamp };
}
