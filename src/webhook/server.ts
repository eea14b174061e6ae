import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { redactHeaders } from '../redact.js';
import { type AuthFailureReason, type CallbackAuth, createAuthenticator, defaultScheme } from './auth.js';
import { extractResult, type ExtractOptions, type WebhookOutcome } from './extract.js';
import { hostForUrl, MAX_BODY_BYTES, readBody } from './http.js';
import { createReceiverMetrics, type ReceiverMetrics } from './metrics.js';
import type { DeliveryFate, DeliveryRecord, DeliverySink } from './delivery.js';
import { webhookHeaders } from './verify.js';

export { hostForUrl };

/** How often a delivery another receiver is showing is asked about again. */
const SHOWING_RETRY_MS = 50;
/** How long after a failed mark (the store away) it is tried again. */
const MARK_RETRY_MS = 1_000;

/** Deeper JSON than this is refused (400): nobody's payload nests so, and printing it would overflow the stack. */
export const MAX_JSON_DEPTH = 256;

export type ListenerEvent =
  /** A delivery stored and shown for the first time (new, or kept earlier but never shown): its record, with the body parsed. */
  | ({ kind: 'delivery'; payload: unknown } & Omit<DeliveryRecord, 'payload'>)
  /** Same webhook-id or same body again: answered 2xx, stored once, not to be shown again. */
  | { kind: 'duplicate'; receivedAt: string; webhookId: string | null; bodyHash: string }
  /** Callback authentication failed: answered 401. */
  | { kind: 'rejected'; receivedAt: string; reason: AuthFailureReason; message: string; webhookId: string | null }
  /** Not JSON (400) or too large (413). */
  | { kind: 'invalid'; receivedAt: string; httpStatus: 400 | 413; message: string }
  /** The store could not take the delivery: answered 503 so the sender retries. */
  | { kind: 'error'; receivedAt: string; message: string }
  | { kind: 'forwarded'; webhookId: string | null; bodyHash: string; idContrato: string | null; httpStatus: number | null; error: string | null; ms: number };

export interface ListenerOptions {
  host: string;
  port: number;
  path: string;
  /** Standard Webhooks secret(s); without one, deliveries are accepted with verified: null. Ignored when `auth` is given. */
  secret?: string | readonly string[] | undefined;
  /** Callback authentication (docs/cli-contract.md "Teams and homologation"); overrides `secret`. */
  auth?: CallbackAuth | undefined;
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: { cert: Buffer | string; key: Buffer | string } | undefined;
  /** Counters behind GET /metrics; one is made when none is given. */
  metrics?: ReceiverMetrics;
  /** Where deliveries are recorded before they are answered 2xx; GET /readyz asks it whether they can be. */
  store: DeliverySink;
  /**
   * What GET /healthz says of the store to anyone: an id that names no path, host or user
   * (settings/home.ts storeId), so `submit --wait` can tell whether this receiver writes its store.
   */
  storeId?: string | undefined;
  extractOptions?: ExtractOptions;
  /**
   * Relay each delivery once it is shown to this URL: the body unchanged, the original headers,
   * and with Standard Webhooks a fresh timestamp and signature of the listener's own secret.
   * What the app answered is recorded with the delivery (DeliverySink.recordForward).
   */
  forwardTo?: string;
  onEvent: (event: ListenerEvent) => void;
  now?: () => Date;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  forwardTimeoutMs?: number;
}

export interface ListenerStats {
  received: number;
  duplicates: number;
  rejected: number;
  invalid: number;
}

export interface Listener {
  url: string;
  port: number;
  stats(): ListenerStats;
  /** Stops accepting, finishes requests in flight and pending forwards; returns the counts. */
  close(): Promise<ListenerStats>;
}

/** Binding failed (EADDRINUSE, EACCES, EADDRNOTAVAIL...): `code` carries the reason. */
export class ListenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
    cause: unknown,
  ) {
    super(`cannot listen on ${host}:${port}: ${code ?? (cause instanceof Error ? cause.message : String(cause))}`, { cause });
    this.name = 'ListenError';
  }
}

// Hop-by-hop and length headers are recomputed by the relay, and not kept with a delivery; everything else passes.
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection', 'te', 'trailer']);

function reply(res: ServerResponse, status: number, body: object, extra: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}

/** The request's headers, one text each (a repeated header joined as Node joins it), without the hop-by-hop ones. */
function endToEnd(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name)) kept[name] = Array.isArray(value) ? value.join(', ') : value;
  return kept;
}

function firstHeader(headers: IncomingHttpHeaders, name: string): string | null {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === '' ? null : s.trim();
}

/**
 * Starts the webhook listener (docs/cli-contract.md "Listener", docs/peer-clis.md §4.3): POST on
 * `path` only, GET /healthz (status and the store's id; its location only with the callback
 * credentials), 413 past 1 MiB, signature check on the raw bytes, 400 for
 * non-JSON, dedupe by webhook-id or body hash (the store's unique constraints, so across
 * processes too), and a 2xx only once the delivery is durable in the store and shown. A
 * delivery is shown once: a retry of one that was stored but never shown (its 2xx was lost
 * with the store's answer, or the receiver stopped first) is shown then. Rejects with
 * ListenError when the port cannot be bound.
 */
export async function startListener(options: ListenerOptions): Promise<Listener> {
  const now = options.now ?? (() => new Date());
  const secrets = options.secret === undefined ? [] : typeof options.secret === 'string' ? [options.secret] : [...options.secret];
  const auth: CallbackAuth = options.auth ?? { scheme: defaultScheme(undefined, secrets.length > 0), secret: secrets };
  const authenticate = createAuthenticator(auth);
  // The api-key header is a credential whatever it is called (webhook.api-key-header): never kept.
  const credentialHeaders = auth.scheme === 'api-key' && auth.apiKeyHeader !== undefined ? [auth.apiKeyHeader] : [];
  const metrics = options.metrics ?? createReceiverMetrics();
  const stats: ListenerStats = { received: 0, duplicates: 0, rejected: 0, invalid: 0 };
  const health = { ok: true, service: 'econsig-watch', ...(options.storeId === undefined ? {} : { storeId: options.storeId }) };
  // The store's location (a path, or a database's host and user) only to a caller holding the callback credentials.
  const withDetails = (headers: IncomingHttpHeaders): object =>
    auth.scheme !== 'none' && authenticate(headers, Buffer.alloc(0), Math.floor(now().getTime() / 1000)).ok ? { ...health, store: options.store.location } : health;
  const forwardPool = options.forwardTo ? new Pool(new URL(options.forwardTo).origin, { connections: 8 }) : null;
  const forwardPath = options.forwardTo ? new URL(options.forwardTo).pathname + new URL(options.forwardTo).search : '/';
  const forwards = new Set<Promise<void>>();
  // Deliveries shown whose mark is not yet stored: tried again while the listener runs.
  const marks = new Set<Promise<void>>();
  let stopping = false;
  // Handlers still running (e.g. awaiting the store after the client went away), so close() counts them.
  const inFlight = new Set<Promise<void>>();
  const emit = (event: ListenerEvent): void => {
    try {
      options.onEvent(event);
    } catch {
      // A rendering failure must not take the listener down.
    }
  };

  // The app verifies what it is relayed as the sender's deliveries are verified: signed again with this listener's secret.
  const resignWith = auth.scheme === 'standard-webhooks' ? (typeof auth.secret === 'string' ? auth.secret : auth.secret?.[0]) : undefined;
  const forward = (headers: IncomingHttpHeaders, body: Buffer, delivery: { webhookId: string | null; bodyHash: string; idContrato: string | null }): void => {
    if (!forwardPool || !options.forwardTo) return;
    const url = options.forwardTo;
    const relayed = endToEnd(headers);
    if (resignWith !== undefined && delivery.webhookId !== null) Object.assign(relayed, webhookHeaders(resignWith, delivery.webhookId, now(), body));
    const started = performance.now();
    const timeout = options.forwardTimeoutMs ?? 30_000;
    const answered = (httpStatus: number | null, error: string | null): Promise<void> => {
      emit({ kind: 'forwarded', ...delivery, httpStatus, error, ms: Math.round(performance.now() - started) });
      // Best effort: a forward the store could not note is still shown, and the delivery itself is kept.
      return options.store.recordForward(delivery.bodyHash, { at: now().toISOString(), url, httpStatus, error }).catch(() => metrics.storeError());
    };
    const p = forwardPool
      .request({ path: forwardPath, method: 'POST', headers: relayed, body, headersTimeout: timeout, bodyTimeout: timeout })
      .then(
        async (res): Promise<[number | null, string | null]> => {
          await res.body.dump().catch(() => undefined);
          return [res.statusCode, null];
        },
        (error: unknown): [number | null, string | null] => {
          const code = (error as { code?: string }).code;
          const message = error instanceof Error ? error.message : String(error);
          return [null, code ? `${code}: ${message}` : message];
        },
      )
      .then(([httpStatus, error]) => answered(httpStatus, error))
      .finally(() => forwards.delete(p));
    forwards.add(p);
  };

  /** Tells the store a delivery was shown, again after a failure until it is stored or the listener closes. */
  const markShown = (bodyHash: string): void => {
    const p = (async () => {
      for (;;) {
        try {
          return await options.store.markShown(bodyHash);
        } catch {
          metrics.storeError();
          if (stopping) return;
          await delay(MARK_RETRY_MS);
        }
      }
    })().finally(() => marks.delete(p));
    marks.add(p);
  };

  const handleDelivery = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const receivedAt = now();
    const at = receivedAt.toISOString();
    const body = await readBody(req);
    if (body === null) {
      const declared = Number(req.headers['content-length']);
      stats.invalid++;
      metrics.refused('too-large');
      reply(res, 413, { error: 'body larger than 1 MiB' }, { connection: 'close' });
      const size = Number.isFinite(declared) && declared > MAX_BODY_BYTES ? `of ${declared} bytes ` : '';
      emit({ kind: 'invalid', receivedAt: at, httpStatus: 413, message: `body ${size}is over 1 MiB` });
      return;
    }
    const raw: Buffer = body;

    // Raw bytes, before any parsing (re-serialised JSON breaks signatures).
    const checked = authenticate(req.headers, body, Math.floor(receivedAt.getTime() / 1000));
    if (!checked.ok) {
      stats.rejected++;
      metrics.refused(checked.reason);
      const challenge: Record<string, string> =
        auth.scheme === 'bearer' ? { 'www-authenticate': 'Bearer' } : auth.scheme === 'basic' ? { 'www-authenticate': 'Basic realm="econsig"' } : {};
      reply(res, 401, { error: checked.message }, challenge);
      emit({ kind: 'rejected', receivedAt: at, reason: checked.reason, message: checked.message, webhookId: checked.webhookId ?? firstHeader(req.headers, 'webhook-id') });
      return;
    }
    const verified = checked.verified;

    let payload: unknown;
    const text = body.toString('utf8');
    try {
      payload = JSON.parse(text);
    } catch {
      stats.invalid++;
      metrics.refused('not-json');
      reply(res, 400, { error: 'body is not JSON' });
      emit({ kind: 'invalid', receivedAt: at, httpStatus: 400, message: `body is not JSON (${body.length} bytes)` });
      return;
    }
    if (nestedDeeperThan(payload, MAX_JSON_DEPTH)) {
      stats.invalid++;
      metrics.refused('too-deep');
      reply(res, 400, { error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` });
      emit({ kind: 'invalid', receivedAt: at, httpStatus: 400, message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels (${body.length} bytes)` });
      return;
    }

    const webhookId = firstHeader(req.headers, 'webhook-id');
    const bodyHash = createHash('sha256').update(body).digest('hex');
    const found = extractResult(payload, options.extractOptions);
    const delivery = { webhookId, bodyHash, ...found, verified };
    const record: DeliveryRecord = { receivedAt: at, ...delivery, payload: text, headers: redactHeaders(endToEnd(req.headers), credentialHeaders) };
    let fate: DeliveryFate;
    try {
      fate = await options.store.recordDelivery(record);
      // Another receiver stored it a moment ago and is showing it: asked again until it says so
      // (or, after a few seconds unshown, the sink hands it to this one).
      while (fate === 'showing') {
        await delay(SHOWING_RETRY_MS);
        fate = await options.store.recordDelivery(record);
      }
    } catch (error) {
      // Not recorded, so not acknowledged: the sender retries later.
      metrics.storeError();
      metrics.refused('store-unavailable');
      reply(res, 503, { error: 'could not record the delivery; retry' }, { 'retry-after': '5' });
      emit({ kind: 'error', receivedAt: at, message: `the store could not record the delivery: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    if (fate === 'duplicate') {
      stats.duplicates++;
      metrics.delivery('duplicate');
      reply(res, 200, { ok: true, duplicate: true });
      emit({ kind: 'duplicate', receivedAt: at, webhookId, bodyHash });
      return;
    }
    // Shown, then answered: a receiver stopped in between is sent the delivery again and shows it then.
    stats.received++;
    metrics.delivery(found.outcome);
    emit({ kind: 'delivery', receivedAt: at, ...delivery, payload });
    reply(res, 200, { ok: true });
    forward(req.headers, raw, { webhookId, bodyHash, idContrato: found.idContrato });
    // An unshown one was marked as it was claimed. One never marked (the listener stopped first) is shown again by a retry.
    if (fate === 'stored') markShown(bodyHash);
  };

  /** GET /readyz: 200 while deliveries can be stored, 503 otherwise (a slow answer counts as none). */
  const readiness = async (): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2_000)));
    try {
      return await Promise.race([options.store.ping().then(() => true, () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  };

  const serverOptions = {
    headersTimeout: options.headersTimeoutMs ?? 10_000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    // Node checks both timeouts only this often (default 30 s).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor((options.headersTimeoutMs ?? 10_000) / 4))),
    keepAliveTimeout: 5_000,
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    const fail = (error: unknown): void => {
      reply(res, 500, { error: 'internal error' });
      emit({ kind: 'error', receivedAt: now().toISOString(), message: error instanceof Error ? error.message : String(error) });
    };
    try {
      if (path === '/healthz') {
        if (req.method === 'GET' || req.method === 'HEAD') reply(res, 200, withDetails(req.headers));
        else reply(res, 405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });
        return;
      }
      if (path === '/readyz' || path === '/metrics') {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          reply(res, 405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });
          return;
        }
        void readiness().then((ready) => {
          if (path === '/readyz') {
            reply(res, ready ? 200 : 503, ready ? { ok: true } : { ok: false, error: 'deliveries cannot be stored now' });
            return;
          }
          const text = metrics.render({ ready, inFlight: inFlight.size });
          res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(text) });
          res.end(text);
        }, fail);
        return;
      }
      if (path !== options.path) {
        reply(res, 404, { error: `not found; webhooks go to POST ${options.path}` });
        return;
      }
      if (req.method !== 'POST') {
        reply(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
        return;
      }
      const started = performance.now();
      res.once('finish', () => metrics.observe((performance.now() - started) / 1000, res.statusCode));
      const handling = handleDelivery(req, res).catch(fail);
      inFlight.add(handling);
      void handling.finally(() => inFlight.delete(handling));
    } catch (error) {
      fail(error);
    }
  };
  const server = options.tls
    ? createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, handle)
    : createServer(serverOptions, handle);
  // An aborted client or a socket error must never stop the listener.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      void forwardPool?.close();
      reject(new ListenError(options.host, options.port, error.code, error));
    };
    server.once('error', onError);
    server.listen({ host: options.host, port: options.port }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', (error) => emit({ kind: 'error', receivedAt: now().toISOString(), message: error.message }));

  const port = (server.address() as AddressInfo).port;
  let closing: Promise<ListenerStats> | null = null;
  return {
    url: `${options.tls ? 'https' : 'http'}://${hostForUrl(options.host)}:${port}${options.path}`,
    port,
    stats: () => ({ ...stats }),
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Requests in flight finish (their store writes complete); a hung client is cut after a grace period.
        const grace = setTimeout(() => server.closeAllConnections(), 2_000);
        await closed;
        clearTimeout(grace);
        await Promise.allSettled([...inFlight]);
        stopping = true;
        await Promise.race([Promise.allSettled([...forwards, ...marks]), new Promise((r) => setTimeout(r, 5_000).unref())]);
        await forwardPool?.destroy();
        return { ...stats };
      })()),
  };
}

/** Whether `value` nests objects or arrays deeper than `max` (counted without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
