/**
 * The OAuth2 access token of each profile, cached between runs with its expiry:
 * `<home>/oauth-token.<profile>.json`, mode 0600 like the config file, written whole
 * (src/safe-file.ts: a temporary file, then rename) so two runs never read half a file.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CachedToken } from '../service/token-source.js';
import { writeFileSafely } from '../safe-file.js';

export function tokenCachePath(home: string, profile: string): string {
  return join(home, `oauth-token.${profile}.json`);
}

function isCachedToken(value: unknown): value is CachedToken {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.accessToken === 'string' &&
    typeof v.obtainedAt === 'number' &&
    typeof v.refreshAt === 'number' &&
    (v.expiresAt === undefined || typeof v.expiresAt === 'number') &&
    typeof v.tokenUrl === 'string' &&
    typeof v.clientId === 'string'
  );
}

/** The cached token, or undefined when there is none or the file is not one of ours. */
export function readTokenCache(home: string, profile: string): CachedToken | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(tokenCachePath(home, profile), 'utf8'));
    return isCachedToken(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Replace the cached token (0600; the home is already 0700). */
export function writeTokenCache(home: string, profile: string, entry: CachedToken): void {
  writeFileSafely(tokenCachePath(home, profile), `${JSON.stringify(entry)}\n`);
}

/** Remove the cached token; false when there was none. */
export function deleteTokenCache(home: string, profile: string): boolean {
  const path = tokenCachePath(home, profile);
  try {
    readFileSync(path);
  } catch {
    return false;
  }
  rmSync(path, { force: true });
  return true;
}
