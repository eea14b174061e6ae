/**
 * ECONSIG_HOME: the one folder for settings, token and store (docs/cli-contract.md
 * "Environment"). It holds a bearer token, so it is kept 0700 (docs/peer-clis.md §2.4).
 */
import { type Message, msg } from '../i18n/index.js';
import { EconsigError, ExitCode } from '../errors.js';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { chmod, link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { FILE_MODE, FOLDER_MODE, makeFolder, modesProtect } from '../safe-file.js';
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

/** The mode of the store's files too (record/sqlite.ts). */
export { FILE_MODE };

export interface HomePaths {
  home: string;
  /** The settings-and-token file (config-file.ts). */
  config: string;
  /** The SQLite store (record/sqlite.ts). */
  store: string;
}

/**
 * The econsig home: ECONSIG_HOME, else `$XDG_CONFIG_HOME/econsig`, else `~/.config/econsig`,
 * or on Windows `%APPDATA%\econsig` (where Windows programs keep a user's settings). A
 * relative XDG_CONFIG_HOME or APPDATA is ignored, as the XDG spec says of its variables.
 */
export function resolveHome(env: Record<string, string | undefined>, userHome: string = homedir(), platform: NodeJS.Platform = process.platform): string {
  const path = platform === 'win32' ? win32 : posix;
  const usable = (folder: string | undefined): folder is string => folder !== undefined && folder !== '' && path.isAbsolute(folder);
  const explicit = env.ECONSIG_HOME;
  if (explicit !== undefined && explicit.trim() !== '') return path.resolve(explicit);
  if (usable(env.XDG_CONFIG_HOME)) return path.join(env.XDG_CONFIG_HOME, 'econsig');
  if (platform !== 'win32') return path.join(userHome, '.config', 'econsig');
  return path.join(usable(env.APPDATA) ? env.APPDATA : path.join(userHome, 'AppData', 'Roaming'), 'econsig');
}

export function homePaths(home: string): HomePaths {
  return { home, config: join(home, 'config.json'), store: join(home, 'econsig.db') };
}

/**
 * Create the home 0700, or tighten an existing one that group or others can read
 * (as stripe-cli PR #226 does for old files). A folder we do not own is left alone.
 */
export async function ensureHome(home: string): Promise<void> {
  try {
    makeFolder(home);
    await tightenMode(home, FOLDER_MODE);
  } catch (error) {
    // Exit 74 naming the folder (a file where the home should be, no permission), not a bug's 70.
    const code = (error as NodeJS.ErrnoException).code;
    throw new StorageError(home, msg('store.cannotUseHome'), code, storageHint(code, home), error);
  }
}

/**
 * What the receiver's GET /healthz says of its store, so that `submit --wait` follows a running
 * `econsig watch` only when it writes the same store: an HMAC of the store's location under a
 * random salt kept in this home (0600, made once). Every process of this home on that store
 * gets the same id; anyone else learns nothing from it, and cannot check a guessed path, host
 * or user against it. A home where the salt cannot be kept gets a salt of this process only:
 * its id then matches no other process, which is only a refusal to follow.
 */
export async function storeId(home: string, location: string): Promise<string> {
  let salt: Buffer;
  try {
    salt = await homeSalt(home);
  } catch {
    salt = randomBytes(32);
  }
  return createHmac('sha256', salt).update(location).digest('hex').slice(0, 32);
}

/** The home's salt, written whole under a temporary name and linked into place, so a reader never sees half of it. */
async function homeSalt(home: string): Promise<Buffer> {
  const path = join(home, 'store-id.salt');
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await ensureHome(home);
  const temporary = `${path}.${randomUUID()}`;
  await writeFile(temporary, randomBytes(32), { mode: FILE_MODE, flag: 'wx' });
  try {
    // Two processes starting at once: the first link wins and both read its salt.
    await link(temporary, path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  } finally {
    await unlink(temporary);
  }
  return readFile(path);
}

/** chmod `path` to `mode` when it grants anything to group or others; no-op when missing, and on Windows. */
export async function tightenMode(path: string, mode: number, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (!modesProtect(platform)) return;
  let current: number;
  try {
    current = (await stat(path)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((current & 0o077) === 0) return;
  try {
    await chmod(path, mode);
  } catch (error) {
    // Someone else's folder (e.g. a shared ECONSIG_HOME): use it as it is.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/**
 * The store cannot be read or written (exit 74): names the place, the system's cause
 * (EACCES, EROFS, ENOSPC, EISDIR, a corrupt database...) and what to do.
 */
export class StorageError extends EconsigError {
  readonly location: string;
  readonly code: string | undefined;

  constructor(location: string, what: Message, code: string | undefined, hint: Message, cause?: unknown) {
    super(msg('store.failed', { what, location, code: code ? ` (${code})` : '' }), { exitCode: ExitCode.storage, hint, cause });
    this.name = 'StorageError';
    this.location = location;
    this.code = code;
  }
}

/** What to do about a storage failure, by system cause. */
export function storageHint(code: string | undefined, location: string): Message {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return msg('store.hintAccess', { location });
    case 'EROFS':
      return msg('store.hintReadOnly');
    case 'ENOSPC':
    case 'EDQUOT':
      return msg('store.hintFull');
    case 'EISDIR':
      return msg('store.hintIsDir', { location });
    case 'EEXIST':
    case 'ENOTDIR':
      return msg('store.hintNotDir', { location });
    case 'CORRUPT':
      return msg('store.hintCorrupt', { location });
    case 'BUSY':
      return msg('store.hintBusy');
    default:
      return msg('store.hintOther', { location });
  }
}
