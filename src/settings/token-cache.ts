/**
 * The OAuth2 access token of each profile, cached between runs with its expiry:
 * `<home>/oauth-token.<profile>.json`, mode 0600 like the config file, written whole
 * (src/safe-file.ts: a temporary file, then rename) so two runs never read half a file.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { msg } from '../i18n/index.js';
import type { CachedToken } from '../service/token-source.js';
import { FileRefusedError, readRegularFile, writeFileSafely } from '../safe-file.js';

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

/**
 * The cached token, or undefined when there is none or the file is not one of ours. A FIFO,
 * a device or an oversized file in its place is refused (UsageError), never read.
 */
export function readTokenCache(home: string, profile: string): CachedToken | undefined {
  const path = tokenCachePath(home, profile);
  let text: string;
  try {
    text = readRegularFile(path).toString('utf8');
  } catch (error) {
    if (error instanceof FileRefusedError) throw new UsageError(msg('auth.cannotReadCache', { path, why: error.problem }), msg('auth.cannotReadCacheHint', { path }));
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
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
  if (!existsSync(path)) return false;
  rmSync(path, { force: true });
  return true;
}
