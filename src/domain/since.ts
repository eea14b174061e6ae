/**
 * `history --since`: an ISO date or date-time, or a duration back from now (`90s`, `30m`,
 * `2h`, `7d`, `2w`). Pure: the caller passes `now`.
 */
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(\d{1,6})([smhdw])$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant `text` names, as an ISO string (UTC), or null when it is neither form. */
export function sinceInstant(text: string, now: Date): string | null {
  const value = text.trim();
  const duration = DURATION.exec(value);
  if (duration) return new Date(now.getTime() - Number(duration[1]) * (UNIT_MS[duration[2] as string] as number)).toISOString();
  if (!ISO_DATE.test(value)) return null;
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
