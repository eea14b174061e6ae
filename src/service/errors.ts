/**
 * Typed failures of the contract submission service (docs/service.md section 7). They speak
 * HTTP (status, code, request id); what a failure means to an operator (outcome, exit code)
 * is decided by the caller. One factory, `errorFromResponse`, builds every HTTP error from
 * status and body, like openai-node's `APIError.generate`.
 */
import { redactToken } from '../redact.js';

/** One entry of the service's `erros` list (docs/service.md section 7). */
export interface ServiceErrorItem {
  codigo: string;
  msg: string;
}

const SNIPPET_LENGTH = 200;

/** A short, single-line, printable and token-free excerpt of an answer body. */
export function snippetOf(text: string, token?: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = redactToken(text, token).replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat;
}

export interface ServiceErrorInit {
  status: number;
  code?: string | number | undefined;
  erros?: ServiceErrorItem[];
  requestId?: string | undefined;
  bodySnippet?: string;
}

/** An HTTP answer from the service (or something in front of it) that is not a 202. */
export class ServiceError extends Error {
  readonly status: number;
  /** First `erros[].codigo` (e.g. `SVC_P00003`) or the numeric `code` of a 401/5xx body. */
  readonly code: string | number | undefined;
  readonly erros: ServiceErrorItem[];
  /** From the `x-request-id` answer header, when the service sends one. */
  readonly requestId: string | undefined;
  /** Start of the body as received, token redacted. */
  readonly bodySnippet: string;
  /** How many requests were made before this answer ended the call (set by the client). */
  attempts = 1;

  constructor(message: string, init: ServiceErrorInit) {
    super(message);
    this.name = 'ServiceError';
    this.status = init.status;
    this.code = init.code;
    this.erros = init.erros ?? [];
    this.requestId = init.requestId;
    this.bodySnippet = init.bodySnippet ?? '';
  }
}

/** 401 from the authentication interface: token invalid or expired (section 5). */
export class UnauthorizedError extends ServiceError {
  override readonly name = 'UnauthorizedError';
}

/** 404 with `SVC_P00003`: `idProposta` matches no proposal (section 4.1, behaviour 2). */
export class ProposalNotFoundError extends ServiceError {
  override readonly name = 'ProposalNotFoundError';
}

/** 422 or another 4xx with an `erros` list: the service refused the data (section 7). */
export class ValidationRejectedError extends ServiceError {
  override readonly name = 'ValidationRejectedError';
}

/** 429: a refusal that was not applied, so it may be retried (section 8). */
export class RateLimitedError extends ServiceError {
  override readonly name = 'RateLimitedError';
  /** From `Retry-After` (seconds or HTTP-date); undefined when absent or unreadable. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, init: ServiceErrorInit & { retryAfterMs: number | undefined }) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx. The request may have been applied: never replayed automatically. */
export class ServerError extends ServiceError {
  override readonly name = 'ServerError';
}

/**
 * An answer that is not of the documented shape: HTML, empty or unparsable body, a 202
 * without a UUID `idContrato`, a redirect, a 4xx without `erros`. Often a wrong base URL
 * or a proxy in the way.
 */
export class UndocumentedAnswerError extends ServiceError {
  override readonly name = 'UndocumentedAnswerError';
}

/** Failures without an HTTP answer. `sent` says whether the request may have reached the service. */
export abstract class TransportError extends Error {
  /** false only when the request certainly never left (connect phase). */
  abstract readonly sent: boolean;
  attempts = 1;
}

/** The connection failed or broke. `sent: false` means certainly not sent (refused, DNS, TLS). */
export class ConnectionError extends TransportError {
  override readonly name = 'ConnectionError';
  readonly code: string | undefined;
  readonly sent: boolean;

  constructor(message: string, init: { code: string | undefined; sent: boolean; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.sent = init.sent;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body';

/** No connection, no answer headers or no complete body within the limit. */
export class TimeoutError extends TransportError {
  override readonly name = 'TimeoutError';
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;

  constructor(message: string, init: { phase: TimeoutPhase; timeoutMs: number; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.phase = init.phase;
    this.timeoutMs = init.timeoutMs;
  }

  /** A connect timeout means the request never left; later phases mean it may have arrived. */
  get sent(): boolean {
    return this.phase !== 'connect';
  }
}

/** The caller's AbortSignal fired. `sent` as for the other transport errors. */
export class AbortedError extends TransportError {
  override readonly name = 'AbortedError';
  readonly sent: boolean;

  constructor(message: string, init: { sent: boolean; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.sent = init.sent;
  }
}

/** A base URL that would send the bearer token over plain http to another machine. */
export class InsecureTransportError extends Error {
  override readonly name = 'InsecureTransportError';
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    super(
      `Refusing to send the token over plain http to ${baseUrl}: use https://, ` +
        'or http:// only to this machine (127.0.0.0/8, ::1, localhost).',
    );
    this.baseUrl = baseUrl;
  }
}

/** A token that cannot be sent as a bearer credential. The message never quotes it. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/** A base URL that is not an absolute http(s) URL. */
export class InvalidBaseUrlError extends Error {
  override readonly name = 'InvalidBaseUrlError';
}

// ---------------------------------------------------------------------------
// The factory.
// ---------------------------------------------------------------------------

export type HeaderValue = string | string[] | undefined;
export type AnswerHeaders = Record<string, HeaderValue>;

export interface AnswerInput {
  status: number;
  /** Body text as received (may be empty). */
  body: string;
  headers?: AnswerHeaders;
  /** Redacted from the snippet and messages, in case something echoes it back. */
  token?: string;
  /** Milliseconds since the epoch, for an HTTP-date `Retry-After`. */
  now?: number;
}

/** First value of a header, by lower-case name. */
export function headerValue(headers: AnswerHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Milliseconds to wait from a `Retry-After` value: delay-seconds or an HTTP-date (RFC 9110
 * section 10.2.3). A date in the past gives 0. Anything else gives undefined.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only date-shaped text: V8's Date.parse also accepts things like "1.5".
  if (!/^[A-Za-z]{3,9},? /.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `erros` list of a service error body, or undefined when the body has none. */
function errosOf(json: unknown, token: string | undefined): ServiceErrorItem[] | undefined {
  if (!isRecord(json) || !Array.isArray(json.erros)) return undefined;
  const items: ServiceErrorItem[] = [];
  for (const item of json.erros) {
    if (!isRecord(item) || typeof item.codigo !== 'string') return undefined;
    const msg = typeof item.msg === 'string' ? redactToken(item.msg, token) : '';
    items.push({ codigo: redactToken(item.codigo, token), msg });
  }
  return items;
}

/** `{code: integer, message: string}` of 401 and 500 bodies (section 7). */
function codeMessageOf(json: unknown): { code: number; message: string } | undefined {
  if (!isRecord(json) || !Number.isInteger(json.code)) return undefined;
  if (json.message !== undefined && typeof json.message !== 'string') return undefined;
  return { code: json.code as number, message: (json.message as string | undefined) ?? '' };
}

function describeErros(erros: ServiceErrorItem[], token: string | undefined): string {
  const first = erros[0];
  if (!first) return '';
  const more = erros.length > 1 ? ` (+${erros.length - 1} more)` : '';
  return `: ${first.codigo}${first.msg ? ` ${snippetOf(first.msg, token)}` : ''}${more}`;
}

/**
 * Build the typed error for a non-202 answer, or for a 202 that is not of the documented
 * shape. Decisions beyond the spec: any 401 is Unauthorized and any 5xx a ServerError
 * whatever the body (the status alone tells the meaning); a 429 needs no body (its body is
 * "not shown"); a 404 without `SVC_P00003` is not "proposal not found" (a wrong base URL
 * also gives 404), and any status with a body not of the documented shape is undocumented.
 */
export function errorFromResponse(input: AnswerInput): ServiceError {
  const { status, body, token } = input;
  const requestId = headerValue(input.headers, 'x-request-id');
  const bodySnippet = snippetOf(body, token);
  const json = parseJson(body);
  const erros = errosOf(json, token);
  const base = { status, requestId, bodySnippet };
  const undocumented = (why: string): UndocumentedAnswerError =>
    new UndocumentedAnswerError(
      `HTTP ${status}: answer not of the documented shape (${why})${bodySnippet ? `: ${bodySnippet}` : ''}`,
      base,
    );

  if (status === 401) {
    const auth = codeMessageOf(json);
    const detail = auth?.message ? `: ${snippetOf(auth.message, token)}` : '';
    return new UnauthorizedError(`HTTP 401 unauthorized: token invalid or expired${detail}`, {
      ...base,
      code: auth?.code,
    });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headerValue(input.headers, 'retry-after'), input.now ?? Date.now());
    return new RateLimitedError(`HTTP 429 too many requests`, {
      ...base,
      code: erros?.[0]?.codigo,
      erros,
      retryAfterMs,
    });
  }
  if (status >= 500 && status <= 599) {
    const failure = codeMessageOf(json);
    const detail = failure ? `: ${failure.code}${failure.message ? ` ${snippetOf(failure.message, token)}` : ''}` : '';
    return new ServerError(`HTTP ${status} server error${detail}`, { ...base, code: failure?.code });
  }
  if (status >= 400 && status <= 499) {
    if (!erros) return undocumented(body.trim() === '' ? 'empty body' : 'no erros list');
    const init = { ...base, code: erros[0]?.codigo, erros };
    if (status === 404) {
      if (erros.some((e) => e.codigo === 'SVC_P00003')) {
        return new ProposalNotFoundError(`HTTP 404 proposal not found${describeErros(erros, token)}`, init);
      }
      if (erros.length === 0) return undocumented('404 with an empty erros list');
    }
    return new ValidationRejectedError(`HTTP ${status} rejected${describeErros(erros, token)}`, init);
  }
  if (status === 202) return undocumented(body.trim() === '' ? 'empty body' : 'no UUID idContrato or no empty erros');
  return undocumented(`unexpected status ${status}`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `idContrato` of a documented 202 body (section 2.6), or undefined when it is not one. */
export function acceptedContractId(body: string): string | undefined {
  const json = parseJson(body);
  if (!isRecord(json) || typeof json.idContrato !== 'string' || !UUID.test(json.idContrato)) return undefined;
  if (!Array.isArray(json.erros) || json.erros.length !== 0) return undefined;
  return json.idContrato;
}
