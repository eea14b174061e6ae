/**
 * The retry policy for `POST /contratos`, which has no idempotency key (docs/peer-clis.md 4.2,
 * RFC 9110 section 9.2.2): retry a 429 (a refusal that was not applied) and failures where
 * the request certainly never left; never a 5xx, a timeout after sending, or a reset after
 * bytes were written, since the contract may then exist. Pure: no clock, no randomness of
 * its own.
 */
import { ConnectionError, RateLimitedError, TimeoutError } from './errors.js';


export interface RetryPolicy {
  /** Most requests in all for connect-phase failures (the first one included). */
  maxConnectAttempts: number;
  /** Most requests in all when the service keeps answering 429. */
  maxRateLimitAttempts: number;
  /** First backoff step; doubles each attempt (full jitter picks within it). */
  baseDelayMs: number;
  /** Cap of one backoff step without Retry-After. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the 429 is returned at once (as got's maxRetryAfter). */
  maxRetryAfterMs: number;
  /** Cap on the sum of all waits of one submission. */
  budgetMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxConnectAttempts: 3,
  maxRateLimitAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  budgetMs: 120_000,
};

/** What the policy needs to know about one failed attempt. */
export type Failure =
  | { kind: 'rate_limited'; retryAfterMs: number | undefined }
  /** Certainly never sent and likely transient (refused, DNS, connect timeout). */
  | { kind: 'not_sent'; code: string }
  /** Anything else: an answer, or a failure after the request may have arrived. */
  | { kind: 'final' };

/** Connect-phase codes worth another try (docs/peer-clis.md 4.2). TLS failures are not sent either, but will not heal. */
const RETRYABLE_CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** Classify a thrown client error for the policy. */
export function failureOf(error: unknown): Failure {
  if (error instanceof RateLimitedError) return { kind: 'rate_limited', retryAfterMs: error.retryAfterMs };
  if (error instanceof TimeoutError && error.phase === 'connect') return { kind: 'not_sent', code: 'UND_ERR_CONNECT_TIMEOUT' };
  if (error instanceof ConnectionError && !error.sent && error.code && RETRYABLE_CONNECT_CODES.has(error.code)) {
    return { kind: 'not_sent', code: error.code };
  }
  return { kind: 'final' };
}

/**
 * Whether to try again after `attempt` requests (1 = the first one failed) ended in
 * `failure`. The time budget is checked separately by `nextRetryDelay`.
 */
export function shouldRetry(failure: Failure, attempt: number, policy: RetryPolicy): boolean {
  switch (failure.kind) {
    case 'rate_limited':
      if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs) return false;
      return attempt < policy.maxRateLimitAttempts;
    case 'not_sent':
      return attempt < policy.maxConnectAttempts;
    case 'final':
      return false;
  }
}

/**
 * Milliseconds to wait before request `attempt + 1`: the server's Retry-After when given
 * (capped at `maxRetryAfterMs`), else exponential backoff with full jitter
 * (`random() * min(maxDelayMs, baseDelayMs * 2^(attempt-1))`), so that a batch's workers
 * do not come back in step. `random` returns [0, 1).
 */
export function delayFor(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next request, or undefined to give up: `shouldRetry` and
 * `delayFor` together, within the budget (`waitedMs` = time already spent waiting).
 */
export function nextRetryDelay(
  failure: Failure,
  attempt: number,
  waitedMs: number,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (!shouldRetry(failure, attempt, policy)) return undefined;
  const delay = delayFor(attempt, failure.kind === 'rate_limited' ? failure.retryAfterMs : undefined, policy, random);
  return waitedMs + delay > policy.budgetMs ? undefined : delay;
}
