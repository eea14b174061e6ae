/**
 * The HTTP client of the contract submission service (docs/service.md section 4.1). It
 * speaks HTTP only: it throws the typed errors of ./errors.ts and leaves outcomes and exit
 * codes to the caller. One undici Pool per origin keeps connections alive across a batch.
 */
import { packageVersion } from '../package-files.js';
import { maskSecret, redactToken } from '../redact.js';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { Pool, type Dispatcher } from 'undici';
import {
  AbortedError,
  ConnectionError,
  InsecureTransportError,
  InvalidBaseUrlError,
  InvalidTokenError,
  ServiceError,
  TimeoutError,
  TransportError,
  UnauthorizedError,
  UndocumentedAnswerError,
  acceptedContractId,
  errorFromResponse,
  headerValue,
  snippetOf,
} from './errors.js';
import { isLoopbackHost, parseBaseUrl } from './base-url.js';
import { defaultRetryPolicy, failureOf, nextRetryDelay, type RetryPolicy } from './retry.js';
import { isUntrustedServerCode } from './tls-probe.js';
import { staticTokenSource, type TokenSource } from './token-source.js';


/** Path of the submission endpoint, appended to the base URL (section 4.1). */
export const CONTRACTS_PATH = '/api/v1/e-consignado/contratos';

/** Answers larger than this are not of the documented shape (section 2.6 is two fields). */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface SubmitAccepted {
  status: 202;
  idContrato: string;
  erros: [];
  requestId?: string;
  /** Requests made, retries included. */
  attempts: number;
}

export interface RetryInfo {
  /** The attempt that just failed (1 = the first request). */
  attempt: number;
  /** The most attempts the policy allows for this kind of failure. */
  maxAttempts: number;
  delayMs: number;
  reason: 'rate_limited' | 'not_sent';
  /** The failure that is being retried; its message is token-free. */
  error: ServiceError | TransportError;
}

export interface ServiceClientOptions {
  baseUrl: string;
  /** A fixed bearer token; or give `tokens`. */
  token?: string;
  /** Where each request's token comes from (OAuth2 client credentials); wins over `token`. */
  tokens?: TokenSource;
  /** TLS options of undici's `connect` (client certificate, extra CA). Ignored with `dispatcher`. */
  tls?: { cert?: Buffer; key?: Buffer; pfx?: Buffer; passphrase?: string; ca?: Array<string | Buffer> };
  /** Limit for answer headers after sending, and for reading the whole body. */
  requestTimeoutMs: number;
  /** Limit for opening the connection; default min(10 s, requestTimeoutMs). Ignored with `dispatcher`. */
  connectTimeoutMs?: number;
  /** Connections of the Pool (default 8). Ignored with `dispatcher`. */
  connections?: number;
  /** Use this dispatcher instead of an own Pool; `close()` leaves it open. */
  dispatcher?: Dispatcher;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** [0, 1), for backoff jitter. */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  onRetry?: (info: RetryInfo) => void;
}

export interface ServiceClient {
  /** The full submission URL. */
  readonly url: string;
  /**
   * POST one submission (an object, or the JSON text already made of it, sent as is).
   * Resolves only for a documented 202; otherwise throws a
   * ServiceError subclass, ConnectionError, TimeoutError or AbortedError, each with
   * `attempts` set. Retries only as ./retry.ts allows.
   */
  submit(body: object | string, opts?: SubmitOptions): Promise<SubmitAccepted>;
  /** Close the own Pool (waits for requests in flight, at most about a second). */
  close(): Promise<void>;
}

export interface SubmitOptions {
  /** Aborts the exchange in flight too (the request may then have arrived). */
  signal?: AbortSignal;
  /**
   * Stops retrying, never the exchange in flight: a wait before a retry ends, and no new
   * attempt starts (AbortedError, sent = false). Ctrl-C in a batch uses this.
   */
  stopRetries?: AbortSignal;
}

export interface RequestDescription {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: object;
}

/** `econsig/<version>` from package.json. */
export function defaultUserAgent(): string {
  return `econsig/${packageVersion()}`;
}

/** A base URL fit for messages: no user info, query or fragment. */
function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * `{baseUrl}/api/v1/e-consignado/contratos`, keeping any path prefix of the base URL
 * (`https://h/gw/` gives `https://h/gw/api/v1/...`). Query and fragment are dropped.
 */
export function contractsUrl(baseUrl: string): string {
  const url = parseBaseUrl(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}${CONTRACTS_PATH}`;
}

/** True when the base URL points at this machine (the sandbox, a local stub). */
export function isLoopbackUrl(baseUrl: string): boolean {
  return isLoopbackHost(parseBaseUrl(baseUrl).hostname);
}

/**
 * Throw InsecureTransportError when `baseUrl` is plain http to a host that is not this
 * machine: the bearer token must never cross a network unencrypted. InvalidBaseUrlError
 * when it is not an absolute http(s) URL.
 */
export function assertSafeTransport(baseUrl: string): void {
  const url = parseBaseUrl(baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) throw new InsecureTransportError(displayUrl(url));
}


function requestHeaders(authorization: string, userAgent: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json',
    authorization,
    'user-agent': userAgent,
  };
}

/** The exact request `submit` would send, token masked: for `--dry-run`. */
export function describeRequest(
  baseUrl: string,
  token: string,
  body: object,
  options: { userAgent?: string } = {},
): RequestDescription {
  return {
    method: 'POST',
    url: contractsUrl(baseUrl),
    headers: requestHeaders(`Bearer ${maskSecret(token)}`, options.userAgent ?? defaultUserAgent()),
    body,
  };
}

// Connect-phase codes: the request cannot have left. TLS verification fails during the
// handshake, before any byte of the request is written.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

class BodyDeadline extends Error {}
class AnswerTooLarge extends Error {}

export interface TransportContext {
  target: string;
  token: string;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  /** Status when the failure came while reading the body. */
  status?: number;
}

/**
 * Map a thrown undici/Node error to ConnectionError or TimeoutError, deciding from its
 * code and phase whether the request may have reached the service.
 */
export function transportErrorOf(error: unknown, ctx: TransportContext): TransportError {
  const code = codeOf(error);
  const during = ctx.status === undefined ? '' : ` (after HTTP ${ctx.status} headers arrived)`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError(`No connection to ${ctx.target} within ${ctx.connectTimeoutMs} ms; nothing was sent.`, {
      phase: 'connect',
      timeoutMs: ctx.connectTimeoutMs,
      cause: error,
    });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new TimeoutError(
      `No answer from ${ctx.target} within ${ctx.requestTimeoutMs} ms after sending; the request may have arrived.`,
      { phase: 'headers', timeoutMs: ctx.requestTimeoutMs, cause: error },
    );
  }
  if (code === 'UND_ERR_BODY_TIMEOUT' || error instanceof BodyDeadline) {
    return new TimeoutError(
      `The answer body from ${ctx.target} did not complete within ${ctx.requestTimeoutMs} ms${during}; the request arrived.`,
      { phase: 'body', timeoutMs: ctx.requestTimeoutMs, cause: error },
    );
  }
  const detail = redactToken(error instanceof Error ? error.message : String(error), ctx.token);
  if (code !== undefined && NOT_SENT_CODES.has(code) && ctx.status === undefined) {
    // docs/cli-contract.md: an untrusted server certificate says to set tls.ca.
    const trust = isUntrustedServerCode(code)
      ? ' The server\'s certificate is not trusted here: if it comes from a private CA, set tls.ca (econsig config set tls.ca /path/ca.pem, or ECONSIG_TLS_CA).'
      : '';
    return new ConnectionError(`Could not connect to ${ctx.target}: ${detail}; nothing was sent.${trust}`, {
      code,
      sent: false,
      cause: error,
    });
  }
  return new ConnectionError(
    `Connection to ${ctx.target} failed${during}: ${detail}; the request may have arrived.`,
    { code, sent: true, cause: error },
  );
}

/**
 * The answer body as text, with a deadline on the whole body (bodyTimeout only bounds the
 * gap between chunks) and a size cap. Plain stream events: an async iterator costs more
 * than the tiny answers of a batch.
 */
function readText(body: Dispatcher.ResponseData['body'], timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: unknown, text?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error === undefined) resolve(text as string);
      else reject(error);
    };
    const timer = setTimeout(() => body.destroy(new BodyDeadline('body deadline')), timeoutMs);
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size > MAX_ANSWER_BYTES) {
        body.destroy();
        settle(new AnswerTooLarge(Buffer.concat(chunks).subarray(0, 512).toString('utf8')));
      }
    });
    body.once('end', () => settle(undefined, (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8')));
    body.once('error', (error) => settle(error));
    body.once('close', () => {
      // After 'end' or 'error' this changes nothing; an Error (and its stack) only when it does.
      if (!settled) settle(new Error('the answer body was closed before its end'));
    });
  });
}

/** Build the submission client. Throws InsecureTransportError / InvalidBaseUrlError for a bad base URL. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  assertSafeTransport(options.baseUrl);
  const url = contractsUrl(options.baseUrl);
  const { origin, pathname: path } = new URL(url);
  const target = displayUrl(parseBaseUrl(options.baseUrl));
  // undici would refuse the header later as if the request had failed in flight.
  if (!options.tokens && !/^[\x21-\x7e]+$/.test(options.token ?? '')) {
    throw new InvalidTokenError('The token is empty or has characters that cannot go in an HTTP header (spaces, line breaks, non-ASCII).');
  }
  const tokens = options.tokens ?? staticTokenSource(options.token as string);
  const requestTimeoutMs = options.requestTimeoutMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? Math.min(10_000, requestTimeoutMs);
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...options.retry };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleepFor(ms, undefined, { signal }));
  const userAgent = options.userAgent ?? defaultUserAgent();
  const ownPool = options.dispatcher
    ? undefined
    : new Pool(origin, {
        connections: options.connections ?? 8,
        // One request per connection at a time: a pipelined POST behind a failed one is ambiguous.
        pipelining: 1,
        connect: { timeout: connectTimeoutMs, ...options.tls },
        headersTimeout: requestTimeoutMs,
        bodyTimeout: requestTimeoutMs,
        // Short idle life: a socket the server already closed fails the next POST with an
        // ambiguous reset (docs/peer-clis.md 4.2); a busy batch still reuses its sockets.
        keepAliveTimeout: 2_000,
      });
  const dispatcher: Dispatcher = options.dispatcher ?? (ownPool as Pool);
  const transportFor = (token: string): TransportContext => ({ target, token, connectTimeoutMs, requestTimeoutMs });
  // A 429 pauses every submission of this client, not just the one that got it (docs/peer-clis.md 4.2).
  let resumeAt = 0;

  const aborted = (sent: boolean, signal: AbortSignal): AbortedError =>
    new AbortedError(
      sent ? 'Aborted while the request was in flight; it may have arrived.' : 'Aborted before the request was sent.',
      { sent, cause: signal.reason },
    );

  async function exchange(payload: string, token: string, signal: AbortSignal | undefined): Promise<Omit<SubmitAccepted, 'attempts'>> {
    const transport = transportFor(token);
    const headers = requestHeaders(`Bearer ${token}`, userAgent);
    let response: Dispatcher.ResponseData;
    try {
      // The dispatcher's own request(): the top-level one parses the URL on every call.
      response = await dispatcher.request({
        origin,
        path,
        method: 'POST',
        headers,
        body: payload,
        signal,
        headersTimeout: requestTimeoutMs,
        bodyTimeout: requestTimeoutMs,
      });
    } catch (error) {
      // undici rejects with signal.reason on abort; by then the request may be on the wire.
      if (signal?.aborted) throw aborted(true, signal);
      throw transportErrorOf(error, transport);
    }
    const status = response.statusCode;
    const answerHeaders = response.headers as Record<string, string | string[] | undefined>;
    const requestId = headerValue(answerHeaders, 'x-request-id');
    let text: string;
    try {
      text = await readText(response.body, requestTimeoutMs);
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        throw new UndocumentedAnswerError(
          `HTTP ${status}: answer not of the documented shape (larger than ${MAX_ANSWER_BYTES} bytes)`,
          { status, requestId, bodySnippet: snippetOf(error.message, token) },
        );
      }
      if (signal?.aborted) throw aborted(true, signal);
      throw transportErrorOf(error, { ...transport, status });
    }
    if (status === 202) {
      const idContrato = acceptedContractId(text);
      if (idContrato !== undefined) {
        return requestId === undefined ? { status, idContrato, erros: [] } : { status, idContrato, erros: [], requestId };
      }
    }
    throw errorFromResponse({ status, body: text, headers: answerHeaders, token, now: now() });
  }

  async function submit(body: object | string, opts: SubmitOptions = {}): Promise<SubmitAccepted> {
    const { signal } = opts;
    const stop = opts.stopRetries && signal ? AbortSignal.any([opts.stopRetries, signal]) : (opts.stopRetries ?? signal);
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    let attempt = 0;
    let waitedMs = 0;
    let ownDelay = 0;
    let lastError: ServiceError | TransportError | undefined;
    // A 401 proves no contract was created: one new token and one resend, never more.
    let renewed = false;
    for (;;) {
      const wait = Math.max(ownDelay, resumeAt - now());
      if (wait > 0) {
        // A pause set by another submission's 429 may outlast this one's budget.
        if (lastError && waitedMs + wait > policy.budgetMs) throw lastError;
        try {
          await sleep(wait, stop);
        } catch (error) {
          if (stop?.aborted) throw aborted(false, stop);
          throw error;
        }
        waitedMs += wait;
      }
      if (stop?.aborted) throw aborted(false, stop);
      attempt += 1;
      const token = await tokens.token();
      try {
        const accepted = await exchange(payload, token, signal);
        return { ...accepted, attempts: attempt };
      } catch (error) {
        if (!(error instanceof ServiceError || error instanceof TransportError)) throw error;
        error.attempts = attempt;
        if (error instanceof UnauthorizedError && !renewed) {
          renewed = true;
          // The next tokens.token() is the renewed one.
          if ((await renewAfter401(error, token)) !== undefined) {
            ownDelay = 0;
            continue;
          }
        }
        const failure = failureOf(error);
        const delay = nextRetryDelay(failure, attempt, waitedMs, policy, random);
        if (delay === undefined || failure.kind === 'final') throw error;
        if (failure.kind === 'rate_limited') resumeAt = Math.max(resumeAt, now() + delay);
        ownDelay = delay;
        lastError = error;
        options.onRetry?.({
          attempt,
          maxAttempts: failure.kind === 'rate_limited' ? policy.maxRateLimitAttempts : policy.maxConnectAttempts,
          delayMs: delay,
          reason: failure.kind,
          error,
        });
      }
    }
  }

  /** A fresh token after a 401, or undefined when the source cannot renew; a failed renewal ends the call with the 401. */
  async function renewAfter401(error: UnauthorizedError, rejected: string): Promise<string | undefined> {
    try {
      return await tokens.renew(rejected);
    } catch (renewError) {
      const why = renewError instanceof Error ? renewError.message : String(renewError);
      const failed = new UnauthorizedError(`${error.message}; no new token could be obtained: ${why}`, {
        status: error.status,
        code: error.code,
        requestId: error.requestId,
        bodySnippet: error.bodySnippet,
      });
      failed.attempts = error.attempts;
      throw failed;
    }
  }

  async function close(): Promise<void> {
    if (!ownPool || ownPool.closed || ownPool.destroyed) return;
    let timer: NodeJS.Timeout | undefined;
    const forced = new Promise<void>((resolve) => {
      timer = setTimeout(() => void ownPool.destroy().then(resolve, resolve), 1_000);
      timer.unref();
    });
    await Promise.race([ownPool.close(), forced]);
    clearTimeout(timer);
  }

  return { url, submit, close };
}
