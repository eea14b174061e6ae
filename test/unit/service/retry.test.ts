import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  ServerError,
  TimeoutError,
  RateLimitedError,
  UndocumentedAnswerError,
  ValidationRejectedError,
  UnauthorizedError,
  parseRetryAfter,
} from '../../../src/service/errors.js';
import {
  defaultRetryPolicy,
  delayFor,
  failureOf,
  nextRetryDelay,
  shouldRetry,
  type Failure,
  type RetryPolicy,
} from '../../../src/service/retry.js';

const policy: RetryPolicy = {
  maxConnectAttempts: 3,
  maxRateLimitAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  budgetMs: 120_000,
};

const conn = (code: string, sent: boolean) => new ConnectionError('x', { code, sent });
const timeout = (phase: 'connect' | 'headers' | 'body') => new TimeoutError('x', { phase, timeoutMs: 1 });
const limited = (retryAfterMs: number | undefined) => new RateLimitedError('x', { status: 429, retryAfterMs });

describe('failureOf', () => {
  it.each([
    ['429 with Retry-After', limited(2000), { kind: 'rate_limited', retryAfterMs: 2000 }],
    ['429 without Retry-After', limited(undefined), { kind: 'rate_limited', retryAfterMs: undefined }],
    ['ECONNREFUSED', conn('ECONNREFUSED', false), { kind: 'not_sent', code: 'ECONNREFUSED' }],
    ['ENOTFOUND', conn('ENOTFOUND', false), { kind: 'not_sent', code: 'ENOTFOUND' }],
    ['EAI_AGAIN', conn('EAI_AGAIN', false), { kind: 'not_sent', code: 'EAI_AGAIN' }],
    ['connect timeout', timeout('connect'), { kind: 'not_sent', code: 'UND_ERR_CONNECT_TIMEOUT' }],
    ['TLS failure: not sent, but will not heal', conn('CERT_HAS_EXPIRED', false), { kind: 'final' }],
    ['ECONNRESET after write', conn('ECONNRESET', true), { kind: 'final' }],
    ['UND_ERR_SOCKET after write', conn('UND_ERR_SOCKET', true), { kind: 'final' }],
    ['refused code but flagged sent (body phase)', conn('ECONNREFUSED', true), { kind: 'final' }],
    ['headers timeout', timeout('headers'), { kind: 'final' }],
    ['body timeout', timeout('body'), { kind: 'final' }],
    ['500', new ServerError('x', { status: 500 }), { kind: 'final' }],
    ['503', new ServerError('x', { status: 503 }), { kind: 'final' }],
    ['401', new UnauthorizedError('x', { status: 401 }), { kind: 'final' }],
    ['422', new ValidationRejectedError('x', { status: 422 }), { kind: 'final' }],
    ['undocumented', new UndocumentedAnswerError('x', { status: 200 }), { kind: 'final' }],
    ['plain Error', new Error('boom'), { kind: 'final' }],
  ] as const)('%s', (_name, error, expected) => {
    expect(failureOf(error)).toEqual(expected);
  });
});

describe('shouldRetry', () => {
  const rl = (ms?: number): Failure => ({ kind: 'rate_limited', retryAfterMs: ms });
  const ns: Failure = { kind: 'not_sent', code: 'ECONNREFUSED' };
  it.each([
    ['429 first attempt', rl(1000), 1, true],
    ['429 fourth attempt', rl(1000), 4, true],
    ['429 attempts spent', rl(1000), 5, false],
    ['429 without Retry-After', rl(), 1, true],
    ['429 Retry-After at the cap', rl(60_000), 1, true],
    ['429 Retry-After beyond the cap: give up, do not hammer', rl(60_001), 1, false],
    ['not sent, first attempt', ns, 1, true],
    ['not sent, second attempt', ns, 2, true],
    ['not sent, attempts spent', ns, 3, false],
    ['final (5xx, timeout after send, reset after write)', { kind: 'final' } as Failure, 1, false],
  ] as const)('%s', (_name, failure, attempt, expected) => {
    expect(shouldRetry(failure, attempt, policy)).toBe(expected);
  });
});

describe('delayFor', () => {
  it.each([
    ['Retry-After honoured', 1, 2000, 0.5, 2000],
    ['Retry-After 0', 1, 0, 0.5, 0],
    ['Retry-After capped', 1, 90_000, 0.5, 60_000],
    ['negative Retry-After clamped', 1, -5, 0.5, 0],
    ['backoff attempt 1, random 0.5: half of 500', 1, undefined, 0.5, 250],
    ['backoff attempt 2, random 0.5: half of 1000', 2, undefined, 0.5, 500],
    ['backoff attempt 3, random 0.999', 3, undefined, 0.999, 1998],
    ['full jitter can be 0', 3, undefined, 0, 0],
    ['backoff capped by maxDelayMs', 10, undefined, 0.5, 5000],
  ] as const)('%s', (_name, attempt, retryAfter, r, expected) => {
    expect(delayFor(attempt, retryAfter, policy, () => r)).toBe(expected);
  });
});

describe('nextRetryDelay', () => {
  it.each([
    ['429 within budget', { kind: 'rate_limited', retryAfterMs: 3000 } as Failure, 1, 0, 3000],
    ['429 past the budget', { kind: 'rate_limited', retryAfterMs: 30_000 } as Failure, 2, 100_000, undefined],
    ['429 exactly at the budget', { kind: 'rate_limited', retryAfterMs: 20_000 } as Failure, 2, 100_000, 20_000],
    ['not sent with jitter', { kind: 'not_sent', code: 'ECONNREFUSED' } as Failure, 1, 0, 250],
    ['not sent, attempts spent', { kind: 'not_sent', code: 'ECONNREFUSED' } as Failure, 3, 0, undefined],
    ['final', { kind: 'final' } as Failure, 1, 0, undefined],
  ] as const)('%s', (_name, failure, attempt, waited, expected) => {
    expect(nextRetryDelay(failure, attempt, waited, policy, () => 0.5)).toBe(expected);
  });

  it('the defaults are bounded', () => {
    expect(defaultRetryPolicy.maxRetryAfterMs).toBeLessThanOrEqual(60_000);
    expect(defaultRetryPolicy.maxConnectAttempts).toBeLessThanOrEqual(3);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it.each([
    ['seconds', '5', 5000],
    ['zero', '0', 0],
    ['spaces', ' 7 ', 7000],
    ['IMF-fixdate ahead', 'Sun, 22 Nov 2026 12:00:30 GMT', 30_000],
    ['IMF-fixdate in the past', 'Sun, 22 Nov 2026 11:00:00 GMT', 0],
    ['RFC 850 date', 'Sunday, 22-Nov-26 12:00:10 GMT', 10_000],
    ['absent', undefined, undefined],
    ['empty', '', undefined],
    ['negative', '-1', undefined],
    ['decimal (not delay-seconds)', '1.5', undefined],
    ['garbage', 'soon', undefined],
    ['bad date', 'Sun, 99 Foo 2026 GMT', undefined],
  ] as const)('%s', (_name, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
