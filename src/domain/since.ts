/**
 * `history --since`, `store prune --before`: an ISO date or date-time, or a duration back
 * from now (`90s`, `30m`, `2h`, `7d`, `2w`, src/duration.ts). Pure: the caller passes `now`.
 */
import { durationMs } from '../duration.js';

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
