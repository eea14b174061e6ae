import * as fs from 'node:fs';
import { join } from 'node:path';
import { ensureHome } from './home.js';

export type JournalEntry =
  | {
      kind: 'submission';
      ref: string /* client uuid */;
      at: string /* ISO */;
      file: string | null;
      idProposta: string;
      bodyHash: string;
      profile: string;
      baseUrl: string;
    }
  | {
      kind: 'answer';
      ref: string;
      at: string;
      outcome: string;
      httpStatus: number | null;
      idContrato: string | null;
      erros: { codigo: string; msg: string }[];
      message?: string;
    }
  | {
      kind: 'result';
      ref: string | null;
      at: string;
      idContrato: string;
      outcome: string;
      status: string | null;
      reason: string | null;
    } // written by submit --wait when it learns the result
  | {
      kind: 'delivery';
      at: string;
      webhookId: string | null;
      bodyHash: string;
      idContrato: string | null;
      idProposta: string | null;
      status: string | null;
      outcome: 'approved' | 'denied' | 'cancelled' | 'unknown';
      reason: string | null;
      verified: boolean | null;
      payload: unknown;
    };

const FILE_NAME = 'journal.jsonl';
// Overlapping fdatasyncs; libuv's thread pool has 4 threads, so leave room for other fs work.
const MAX_SYNCS = 3;

/** Where the journal of an ECONSIG_HOME lives. */
export function journalPath(home: string): string {
  return join(home, FILE_NAME);
}

interface Pending {
  line: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Writes `buf` from `offset` at the end of `fd`; resolves with the bytes written. A seam for tests (a disk that fills up). */
export type JournalWrite = (fd: number, buf: Buffer, offset: number) => Promise<number>;

export interface JournalOpenOptions {
  write?: JournalWrite;
}

const writeP: JournalWrite = (fd, buf, offset) =>
  new Promise<number>((resolve, reject) => fs.write(fd, buf, offset, buf.length - offset, null, (e, n) => (e ? reject(e) : resolve(n))));
const fdatasyncP = (fd: number) => new Promise<void>((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));

/**
 * The local journal: append-only JSONL shared by several processes (submit and watch run
 * side by side), hence not conf (peer-clis.md §4.2). One instance per process.
 *
 * Durability by group commit (performance-baselines.md §4): appends that arrive while a
 * write+fdatasync is in flight are batched into the next single write() and fdatasync.
 * The file is opened O_APPEND and each batch goes down in one write() of whole lines, so
 * lines of concurrent processes never interleave.
 */
export class Journal {
  private queue: Pending[] = [];
  private writing = false;
  private syncing = 0;
  private idle: (() => void)[] = [];
  private closed = false;
  /** A write failed: part of its batch may be on disk without its newline. */
  private torn = false;

  private constructor(
    private readonly fd: number,
    readonly path: string,
    private readonly write: JournalWrite,
  ) {}

  /** Opens (creating, or tightening, folder 0700 and file 0600) the journal under `home`. */
  static async open(home: string, options: JournalOpenOptions = {}): Promise<Journal> {
    await ensureHome(home);
    const path = journalPath(home);
    const fd = await new Promise<number>((resolve, reject) =>
      fs.open(path, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, 0o600, (e, f) => (e ? reject(e) : resolve(f))),
    );
    try {
      const stat = fs.fstatSync(fd);
      if ((stat.mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600);
      // A crash mid-write can leave a torn last line; end it so the next entry is not glued to it.
      if (stat.size > 0 && lastByte(path, stat.size) !== 0x0a) fs.writeSync(fd, '\n');
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    return new Journal(fd, path, options.write ?? writeP);
  }

  /** Appends one entry; resolves once it is on disk (fdatasync). */
  append(entry: JournalEntry): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal is closed'));
    const line = `${JSON.stringify(entry)}\n`;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.schedulePump();
    });
  }

  private pumpScheduled = false;

  /**
   * Pumps once the current synchronous run is over, so that the lines appended in it (an
   * answer, then the next submission) share one write and one fdatasync.
   */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Writes are serialised (one write() per batch, in order); up to MAX_SYNCS fdatasyncs
   * overlap, each resolving the batches written before it started. On a disk whose
   * fsync costs ~1 ms, overlapping lets the file system merge commits instead of every
   * batch waiting for the previous sync.
   */
  private pump(): void {
    if (this.writing || this.queue.length === 0 || this.syncing >= MAX_SYNCS) return;
    const batch = this.queue;
    this.queue = [];
    this.writing = true;
    this.syncing++;
    void (async () => {
      try {
        // After a failed write a fragment without newline may end the file: a leading newline
        // ends it, so this batch's first line is not glued to it (an empty line is skipped).
        const lead = this.torn ? '\n' : '';
        const buf = Buffer.from(lead + batch.map((p) => p.line).join(''), 'utf8');
        let done = 0;
        // Regular files take the whole buffer in one write(); the loop only covers a short write (disk full).
        try {
          while (done < buf.length) done += await this.write(this.fd, buf, done);
          this.torn = false;
        } catch (error) {
          this.torn = true;
          throw error;
        } finally {
          this.writing = false;
          this.pump();
        }
        await fdatasyncP(this.fd);
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      } finally {
        this.syncing--;
        this.pump();
        if (!this.writing && this.syncing === 0 && this.queue.length === 0) for (const wake of this.idle.splice(0)) wake();
      }
    })();
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.writing || this.syncing > 0 || this.queue.length > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    await new Promise<void>((resolve, reject) => fs.close(this.fd, (e) => (e ? reject(e) : resolve())));
  }
}

function lastByte(path: string, size: number): number | undefined {
  const fd = fs.openSync(path, 'r');
  try {
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, size - 1);
    return b[0];
  } finally {
    fs.closeSync(fd);
  }
}

function parseLine(line: string): JournalEntry | null {
  if (line.trim() === '') return null;
  try {
    const value = JSON.parse(line) as unknown;
    if (typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string') {
      return value as JournalEntry;
    }
  } catch {
    // A torn or garbled line (crash mid-write): skipped, never fatal.
  }
  return null;
}

/** Splits complete lines off `text`; returns entries and the unterminated tail. */
function splitEntries(text: string): { entries: JournalEntry[]; rest: string } {
  const lines = text.split('\n');
  const rest = lines.pop() ?? '';
  const entries: JournalEntry[] = [];
  for (const line of lines) {
    const entry = parseLine(line);
    if (entry) entries.push(entry);
  }
  return { entries, rest };
}

/**
 * Reads every entry, oldest first. A missing journal is empty; a torn last line (no
 * newline yet) and garbled lines are skipped.
 */
export function readJournal(home: string): JournalEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(journalPath(home), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return splitEntries(text).entries;
}

export interface FollowOptions {
  signal: AbortSignal;
  /** Also deliver the entries already there (synchronously, before returning). */
  fromStart?: boolean;
  intervalMs?: number;
}

/**
 * Tails the journal by polling (works across processes and file systems, unlike
 * fs.watch): calls `onEntry` for each complete line appended after the call (or from the
 * start with `fromStart`) until `signal` aborts. A line still being written waits for
 * its newline. The polling timer keeps the process alive until the signal aborts.
 */
export function followJournal(home: string, onEntry: (e: JournalEntry) => void, options: FollowOptions): void {
  const path = journalPath(home);
  const interval = options.intervalMs ?? 200;
  let offset = 0;
  let rest = Buffer.alloc(0);
  if (!options.fromStart) {
    try {
      offset = fs.statSync(path).size;
    } catch {
      offset = 0;
    }
  }
  let timer: NodeJS.Timeout | undefined;

  /** Reads what was appended since the last poll; I/O errors (file not there yet) wait for the next tick. */
  const readNew = (): Buffer | null => {
    try {
      const size = fs.statSync(path).size;
      if (size < offset) {
        // Replaced or truncated: start over.
        offset = 0;
        rest = Buffer.alloc(0);
      }
      if (size === offset) return null;
      const fd = fs.openSync(path, 'r');
      try {
        const chunk = Buffer.alloc(size - offset);
        const n = fs.readSync(fd, chunk, 0, chunk.length, offset);
        offset += n;
        return chunk.subarray(0, n);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return null;
    }
  };

  const poll = (): void => {
    const chunk = readNew();
    if (!chunk) return;
    // Split on bytes so a multi-byte character cut by the read is rejoined before decoding.
    const data = Buffer.concat([rest, chunk]);
    const end = data.lastIndexOf(0x0a);
    rest = end < 0 ? data : data.subarray(end + 1);
    if (end < 0) return;
    for (const entry of splitEntries(data.subarray(0, end + 1).toString('utf8')).entries) {
      if (options.signal.aborted) return;
      onEntry(entry);
    }
  };

  const tick = (): void => {
    if (options.signal.aborted) return;
    poll();
    if (!options.signal.aborted) timer = setTimeout(tick, interval);
  };
  options.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  tick();
}
