/**
 * A duration as people write it on the command line and in settings: a whole number and a
 * unit, `90s`, `30m`, `2h`, `30d`, `2w` (`history --since`, `store prune --before`,
 * store.payload-retention). A leaf: imports nothing of ours.
 */
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(\d{1,6})([smhdw])$/;

/** The duration `text` names, in milliseconds; null when it is not one. */
export function durationMs(text: string): number | null {
  const match = DURATION.exec(text.trim());
  return match ? Number(match[1]) * (UNIT_MS[match[2] as string] as number) : null;
}
