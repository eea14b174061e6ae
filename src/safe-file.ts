/**
 * The one way econsig writes a file (docs/cli-contract.md, "Files econsig writes"): the bytes
 * go to a temporary file in the target's folder, created 0600 with O_EXCL|O_NOFOLLOW (so
 * nothing already there is opened, a link least of all), then renamed over the target. A
 * symbolic link or anything but a regular file at the target is refused (exit 2, naming it),
 * never followed: a link planted at `x.resultados.csv` in a shared folder of sheets must not
 * make an operator's run overwrite the file it points to (issue 23). Folders econsig creates
 * are 0700. The one file econsig appends to (appendToFile) is checked the same way.
 *
 * And the way it reads a file a setting or flag names (a CA bundle, a client certificate and
 * key, the config file, the cached token): whole, so only a regular file of bounded size
 * (issue 22). A named pipe with no writer would block the read for ever, and /dev/zero never
 * ends: both are refused at once, before anything is read or sent. Opened with O_NONBLOCK
 * (opening a FIFO does not wait for a writer; a regular file ignores the flag), then fstat'd:
 * the file judged is the file read, whatever a link points to.
 */
import { randomBytes } from 'node:crypto';
import { type Stats, closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './errors.js';
import { type Message, type MessageKey, msg, say } from './i18n/index.js';

/** Every file that may hold personal data or a secret: the owner's alone. */
export const FILE_MODE = 0o600;
/** Every folder econsig creates. */
export const FOLDER_MODE = 0o700;

/**
 * Whether those modes protect anything here. Not on Windows: Node maps a mode to the
 * read-only flag alone, and who may read a file is its folder's ACL (a user's %APPDATA% is
 * theirs), so econsig neither tightens nor warns there (`doctor` says so once).
 */
export function modesProtect(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32';
}

/** A path econsig will not write: a link, a FIFO, a folder, a device or a socket (exit 2). */
export class UnsafeTargetError extends UsageError {
  readonly path: string;

  constructor(path: string, kind: MessageKey) {
    super(msg('file.refused', { path, kind: msg(kind) }), msg('file.refusedHint'));
    this.name = 'UnsafeTargetError';
    this.path = path;
  }
}

function kindOf(stats: Stats): MessageKey | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isSymbolicLink()) return 'file.kindLink';
  if (stats.isFIFO()) return 'file.kindFifo';
  if (stats.isDirectory()) return 'file.kindFolder';
  if (stats.isSocket()) return 'file.kindSocket';
  return 'file.kindDevice';
}

/**
 * Refuse a path econsig will not write (UnsafeTargetError, the only thing it throws);
 * true when a regular file is there. A path that cannot be looked at (no such folder, no
 * permission) is left to the write, whose error says why.
 */
export function checkOutputPath(path: string): boolean {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (stats === undefined) return false;
  const kind = kindOf(stats);
  if (kind !== undefined) throw new UnsafeTargetError(path, kind);
  return true;
}

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * A new file at `path`, open for writing (the descriptor). A regular file already there, left
 * by a run that crashed, is removed first; anything else there is refused. What was there is
 * never opened.
 */
export function createFile(path: string, mode: number = FILE_MODE): number {
  if (checkOutputPath(path)) rmSync(path);
  return openSync(path, CREATE_NEW, mode);
}

/** Create `path` and the folders above it that are missing, 0700; one already there is left as it is. */
export function makeFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: FOLDER_MODE });
}

export interface WriteOptions {
  /** The new file's mode (default 0600; the umask may take more away). */
  mode?: number;
  /** false: a file already at the target stays, and the write fails with EEXIST. */
  replace?: boolean;
  /**
   * The temporary file: by default `<target>.<random>.econsig-tmp` beside it. A writer that
   * streams for long names its own, clearly (a crash leaves it; the next run removes it).
   */
  temporary?: string;
}

/** A file being written: the bytes go to `temporary` until commit renames it over the target. */
export interface PendingFile {
  readonly temporary: string;
  /** The temporary file's descriptor (for a stream: fs.createWriteStream with `fd`, autoClose false). */
  readonly fd: number;
  write(data: string | Uint8Array): void;
  /** Flush to disk, close, and rename over the target (checked again first). */
  commit(): void;
  /** Close and remove the temporary file, leaving the target as it was; nothing after commit. */
  discard(): void;
}

function alreadyThere(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EEXIST: file already exists, '${path}'`), { code: 'EEXIST', path });
}

/** Start writing `target`: refused now if econsig will not write it (or, with replace false, if it exists). */
export function openPendingFile(target: string, options: WriteOptions = {}): PendingFile {
  const check = (): void => {
    if (checkOutputPath(target) && options.replace === false) throw alreadyThere(target);
  };
  check();
  const temporary = options.temporary ?? join(dirname(target), `${basename(target)}.${randomBytes(6).toString('hex')}.econsig-tmp`);
  const fd = createFile(temporary, options.mode ?? FILE_MODE);
  let open = true;
  let settled = false;
  const close = (): void => {
    if (open) {
      open = false;
      closeSync(fd);
    }
  };
  const discard = (): void => {
    if (settled) return;
    settled = true;
    close();
    rmSync(temporary, { force: true });
  };
  return {
    temporary,
    fd,
    write(data) {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    },
    commit() {
      try {
        fsyncSync(fd);
        close();
        check();
        renameSync(temporary, target);
        settled = true;
      } finally {
        discard();
      }
    },
    discard,
  };
}

/** Write `data` to `target` whole: a temporary file beside it, then renamed over it. */
export function writeFileSafely(target: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  const file = openPendingFile(target, options);
  try {
    file.write(data);
    file.commit();
  } finally {
    file.discard();
  }
}

/**
 * Append `data` to `path` (created 0600 if new) and sync it before returning: for the one
 * append-only file econsig keeps, the answers a failing store could not take
 * (record/kept-answers.ts), where a crash must cost at most the line being written. What is
 * at `path` is refused as for every write unless it is a regular file; a link is never
 * followed (O_NOFOLLOW).
 */
export function appendToFile(path: string, data: string): void {
  checkOutputPath(path);
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, FILE_MODE);
  try {
    const kind = kindOf(fstatSync(fd));
    if (kind !== undefined) throw new UnsafeTargetError(path, kind);
    const bytes = Buffer.from(data, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file named by a setting is small: certificates, keys, a CA bundle, profiles and tokens. */
export const SETTING_FILE_MAX_BYTES = 1024 * 1024;

/** A file econsig will not read: not a regular file, or past its limit. `problem` says which, for people. */
export class FileRefusedError extends Error {
  constructor(
    readonly path: string,
    readonly problem: Message,
  ) {
    super(`${path}: ${say('en', problem)}`);
    this.name = 'FileRefusedError';
  }
}

const tooLarge = (path: string, maxBytes: number): FileRefusedError => new FileRefusedError(path, msg('file.tooLarge', { limit: `${Math.round(maxBytes / 1024)} KiB` }));

function refuseUnlessSmallRegular(path: string, stats: Stats, maxBytes: number): void {
  const kind = kindOf(stats);
  if (kind !== undefined) throw new FileRefusedError(path, msg('file.notRegular', { kind: msg(kind) }));
  if (stats.size > maxBytes) throw tooLarge(path, maxBytes);
}

const OPEN_TO_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of a regular file of at most `maxBytes`. Throws FileRefusedError for anything
 * else (a FIFO, a device, a socket, a folder, a larger file), and the system's error
 * (ENOENT, EACCES...) when it cannot be opened.
 */
export function readRegularFile(path: string, maxBytes: number = SETTING_FILE_MAX_BYTES): Buffer {
  const fd = openSync(path, OPEN_TO_READ);
  try {
    refuseUnlessSmallRegular(path, fstatSync(fd), maxBytes);
    // Read to the end, not to the size fstat gave: a file that grows meanwhile is refused.
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw tooLarge(path, maxBytes);
    }
    return Buffer.from(buffer.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/**
 * For a file another library reads whole (conf reads config.json): refused as
 * readRegularFile would refuse it, read by nobody here. False when there is no such file.
 */
export function checkRegularFile(path: string, maxBytes: number = SETTING_FILE_MAX_BYTES): boolean {
  let fd: number;
  try {
    fd = openSync(path, OPEN_TO_READ);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    refuseUnlessSmallRegular(path, fstatSync(fd), maxBytes);
    return true;
  } finally {
    closeSync(fd);
  }
}
