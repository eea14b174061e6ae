/**
 * `history --since`, `events --since`, `store prune --before`: an ISO date or date-time, or a
 * duration back from now (`90s`, `30m`, `2h`, `7d`, `2w`, src/duration.ts). Pure: the caller
 * passes `now`. With the check of `--outcome`, the filters `history` and `events` share.
 */
import { durationMs } from '../duration.js';
import { UsageError } from '../errors.js';
import { msg } from '../i18n/index.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant `text` names, as an ISO string (UTC), or null when it is neither form. */
export function sinceInstant(text: string, now: Date): string | null {
  const value = text.trim();
  const duration = durationMs(value);
  if (duration !== null) return new Date(now.getTime() - duration).toISOString();
  if (!ISO_DATE.test(value)) return null;
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** `--since` as typed, as an instant; a usage error (exit 2) when it is neither form. */
export function sinceFlag(text: string | undefined, now: Date): string | undefined {
  if (text === undefined) return undefined;
  const since = sinceInstant(text, now);
  if (since === null) throw new UsageError(msg('history.badSince', { value: JSON.stringify(text) }), msg('history.badSinceHint'));
  return since;
}

/** `--outcome` checked against the outcomes a command can filter on; a usage error naming them. */
export function outcomeFlag(value: string | undefined, outcomes: readonly string[]): string | undefined {
  if (value !== undefined && !outcomes.includes(value)) throw new UsageError(msg('history.badOutcome', { value: JSON.stringify(value) }), msg('history.badOutcomeHint', { outcomes: outcomes.join(', ') }));
  return value;
}
