/**
 * How a secret (token, webhook secret) is shown anywhere: at most its last 4 characters,
 * and none of a short one, where 4 characters would give too much away.
 */
export function maskSecret(value: string): string {
  return value.length < 12 ? '****' : `****${value.slice(-4)}`;
}
