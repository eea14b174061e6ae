/**
 * The default store: SQLite through node:sqlite, `$ECONSIG_HOME/econsig.db` (docs/store.md).
 *
 * One connection per process, WAL (readers never wait for the writer), a busy timeout
 * (processes take turns for the write lock), and no write reported done before it would
 * survive a power cut: a claim must be on disk before its POST leaves, and a delivery
 * before its 2xx. Writes are group-committed: every write asked for in one turn of the
 * event loop goes into one transaction.
 *
 * The fsync is ours rather than SQLite's. With synchronous=NORMAL a commit appends to the
 * WAL without syncing it (SQLite still syncs the WAL header when the WAL is reused, and
 * every checkpoint; sqlite.org/pragma.html#pragma_synchronous); a write resolves once an
 * fdatasync of the WAL file that started after its commit has returned, and a WAL whose
 * frames are on disk is replayed after a power cut. The fdatasync runs on libuv's thread
 * pool, so the process keeps sending and answering while the disk works, where
 * synchronous=FULL would stop it for every commit (docs/store.md, "Durability").
 */
import { type Message, msg } from '../i18n/index.js';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ensureHome, FILE_MODE } from '../settings/home.js';
import { type AnswerRecord, type ClaimRequest, type ClaimResult, type FollowOptions, type HistoryPage, type HistoryQuery, type LegacyEntry, MORE_CAP, type ResultRecord, type Store, type SubmissionRecord } from './record.js';
import type { DeliveryRecord } from '../webhook/delivery.js';
import { StorageError, storageHint } from '../settings/home.js';

export const DATABASE_FILE = 'econsig.db';
const BUSY_TIMEOUT_MS = 15_000;
// fdatasyncs of the WAL in flight at once; libuv's pool has 4 threads, leave one for other fs work.
const MAX_SYNCS = 3;
/** How long a write nobody waits on may wait for others to share its commit. */
const LAZY_MS = 20;

/**
 * Schema migrations, in order; PRAGMA user_version counts those applied. Append only:
 * a released migration never changes.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE submissions (
     id INTEGER PRIMARY KEY,
     ref TEXT NOT NULL UNIQUE,
     id_proposta TEXT NOT NULL,
     base_url TEXT NOT NULL,
     body_hash TEXT NOT NULL,
     file TEXT,
     profile TEXT NOT NULL,
     sent_at TEXT NOT NULL
   );
   CREATE INDEX submissions_guard ON submissions (id_proposta, base_url, id);
   CREATE TABLE answers (
     submission_id INTEGER PRIMARY KEY REFERENCES submissions (id),
     at TEXT NOT NULL,
     outcome TEXT NOT NULL,
     http_status INTEGER,
     id_contrato TEXT,
     erros TEXT NOT NULL,
     message TEXT
   );
   CREATE INDEX answers_contract ON answers (id_contrato);
   CREATE TABLE results (
     seq INTEGER PRIMARY KEY,
     id_contrato TEXT NOT NULL UNIQUE,
     at TEXT NOT NULL,
     outcome TEXT NOT NULL,
     status TEXT,
     reason TEXT
   );
   CREATE TABLE deliveries (
     id INTEGER PRIMARY KEY,
     received_at TEXT NOT NULL,
     webhook_id TEXT UNIQUE,
     body_hash TEXT NOT NULL UNIQUE,
     id_contrato TEXT,
     id_proposta TEXT,
     status TEXT,
     outcome TEXT NOT NULL,
     reason TEXT,
     verified INTEGER,
     payload TEXT NOT NULL
   );
   CREATE INDEX deliveries_contract ON deliveries (id_contrato);`,
];

/** The guard's rule (store.ts, holdsProposal) in SQL, over `a` (answers) and `r` (results). */
const HOLDS_SQL = `(a.submission_id IS NULL OR a.outcome = 'unknown'
  OR (a.outcome = 'accepted' AND (r.outcome IS NULL OR r.outcome = 'approved'
    OR (r.outcome = 'denied' AND s.body_hash = ?))))`;

const RECORD_COLUMNS = `s.ref, s.id_proposta, s.base_url, s.body_hash, s.file, s.profile, s.sent_at,
  a.submission_id AS answered, a.at AS answer_at, a.outcome AS answer_outcome, a.http_status, a.id_contrato, a.erros, a.message,
  r.at AS result_at, r.outcome AS result_outcome, r.status AS result_status, r.reason AS result_reason`;
const RECORD_FROM = `submissions s LEFT JOIN answers a ON a.submission_id = s.id LEFT JOIN results r ON r.id_contrato = a.id_contrato`;

type Row = Record<string, unknown>;

let sqliteModule: Promise<typeof import('node:sqlite')> | undefined;

/**
 * node:sqlite, loaded on first use. Node 22 prints an ExperimentalWarning when it loads;
 * that one warning is dropped (an operator cannot act on it), every other passes.
 */
function loadSqlite(): Promise<typeof import('node:sqlite')> {
  sqliteModule ??= (async () => {
    const emitWarning = process.emitWarning;
    process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
      const text = typeof warning === 'string' ? warning : warning.message;
      if (/^SQLite is an experimental feature/.test(text)) return;
      return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
    } as typeof process.emitWarning;
    try {
      return await import('node:sqlite');
    } finally {
      process.emitWarning = emitWarning;
    }
  })();
  return sqliteModule;
}

/** A system or SQLite failure as the operator's cause: EACCES, ENOSPC, CORRUPT... */
export function causeCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; errcode?: unknown };
  if (e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    // Primary result codes (the low byte of an extended code), sqlite.org/rescode.html.
    switch (e.errcode & 0xff) {
      case 3:
        return 'EACCES';
      case 5:
      case 6:
        return 'BUSY';
      case 8:
        return 'READONLY';
      case 10:
        return 'EIO';
      case 11:
      case 26:
        return 'CORRUPT';
      case 13:
        return 'ENOSPC';
      case 14:
        return 'CANTOPEN';
      default:
        return `SQLITE_${e.errcode}`;
    }
  }
  return typeof e?.code === 'string' ? e.code : undefined;
}

/**
 * SQLite reports a full disk as SQLITE_FULL only when a write says so; creating the WAL or
 * its shared memory on a full disk comes back as a plain I/O error. Ask the file system.
 */
function diskIsFull(location: string): boolean {
  try {
    const fsStats = fs.statfsSync(dirname(location));
    return fsStats.bavail * fsStats.bsize < LOW_SPACE_BYTES;
  } catch {
    return false;
  }
}
const LOW_SPACE_BYTES = 1024 * 1024;

function storageError(location: string, what: Message, error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  let code = causeCode(error);
  if ((code === 'EIO' || code === 'CANTOPEN' || code === 'ENOSPC') && diskIsFull(location)) code = 'ENOSPC';
  const detail = (error as { errstr?: unknown })?.errstr;
  const said = typeof detail === 'string' && code !== undefined && !code.startsWith('E') ? msg('store.withDetail', { what, detail }) : what;
  return new StorageError(location, said, code, storageHint(code, location), error);
}

interface Op {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A committed write waiting for the WAL to be on disk. */
interface Committed {
  op: Op;
  value: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const numOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null);

/** The SQLite store. Create with `SqliteStore.open(home)`. */
export class SqliteStore implements Store {
  private queue: Op[] = [];
  private scheduled: false | 'now' | 'lazy' = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly statements = new Map<string, StatementSync>();
  /** Committed, not yet covered by an fdatasync that started after their commit. */
  private unsynced: Committed[] = [];
  private syncing = 0;
  private idle: Array<() => void> = [];

  private constructor(
    private readonly db: DatabaseSync,
    readonly location: string,
    /** SQLite's WAL file: it is deleted only when the last connection closes, and ours stays open until close(). */
    private readonly walFd: number,
  ) {}

  /**
   * Opens (creating, 0600 in a 0700 folder) and migrates the store under `home`. Throws
   * StorageError (exit 74) naming the path and the cause when it cannot.
   */
  static async open(home: string): Promise<SqliteStore> {
    const path = join(home, DATABASE_FILE);
    try {
      await ensureHome(home);
    } catch (error) {
      throw storageError(home, msg('store.cannotUseHome'), error);
    }
    // Opened once by hand first: SQLite says only "unable to open", the system says why.
    try {
      const fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_CREAT, FILE_MODE);
      try {
        if ((fs.fstatSync(fd).mode & 0o077) !== 0) fs.fchmodSync(fd, FILE_MODE);
      } finally {
        fs.closeSync(fd);
      }
      // WAL needs to create its -wal and -shm files beside the database.
      fs.accessSync(home, fs.constants.W_OK);
    } catch (error) {
      throw storageError(path, msg('store.cannotOpen'), error);
    }
    const { DatabaseSync } = await loadSqlite();
    let db: DatabaseSync | undefined;
    let walFd: number;
    try {
      db = new DatabaseSync(path);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // Processes opening a new store at the same moment: switching to WAL needs the
      // database alone, and SQLite answers BUSY at once rather than wait (its busy handler
      // is skipped where waiting could deadlock). Tried again until the busy timeout.
      const connection = db;
      await untilNotBusy(() => {
        connection.exec('PRAGMA journal_mode = WAL');
        // Migrations are rare: SQLite syncs those commits itself.
        connection.exec('PRAGMA synchronous = FULL');
        migrate(connection, path);
      });
      db.exec('PRAGMA synchronous = NORMAL');
      walFd = fs.openSync(`${path}-wal`, fs.constants.O_RDONLY | fs.constants.O_CREAT, FILE_MODE);
    } catch (error) {
      db?.close();
      throw storageError(path, msg('store.cannotOpen'), error);
    }
    return new SqliteStore(db, path, walFd);
  }

  private statement(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * Queue a write for this turn's transaction; resolves once it is committed and on disk. A write
   * nobody waits on (`urgent: false`: an answer, whose claim is already durable) may wait
   * up to LAZY_MS for company, so that answers arriving one by one share commits; any
   * urgent write flushes them at once.
   */
  private write<T>(run: () => T, urgent = true): Promise<T> {
    if (this.closed) return Promise.reject(new StorageError(this.location, msg('store.closed'), undefined, msg('store.closedHint')));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
      if (urgent && this.scheduled !== 'now') {
        clearTimeout(this.lazyTimer);
        this.scheduled = 'now';
        // setImmediate, not a microtask: every answer that arrived in this poll phase joins.
        setImmediate(() => this.flush());
      } else if (!this.scheduled) {
        this.scheduled = 'lazy';
        this.lazyTimer = setTimeout(() => this.flush(), LAZY_MS);
      }
    });
  }

  /**
   * One transaction for the whole queue. BEGIN IMMEDIATE takes the write lock before the
   * guard reads, so no other process can claim between the read and the insert. Each
   * write of several runs in a savepoint: one that fails is rolled back alone.
   */
  private flush(): void {
    this.scheduled = false;
    clearTimeout(this.lazyTimer);
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const fail = (error: unknown, ops: readonly Op[]): void => {
      const mapped = storageError(this.location, msg('store.cannotWrite'), error);
      for (const op of ops) op.reject(mapped);
    };
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      return fail(error, batch);
    }
    const done: Committed[] = [];
    // A lone write needs no savepoint: if it fails, the whole transaction is its own.
    const alone = batch.length === 1;
    for (const op of batch) {
      try {
        if (!alone) this.statement('SAVEPOINT op').run();
        const value = op.run();
        if (!alone) this.statement('RELEASE op').run();
        done.push({ op, value });
      } catch (error) {
        try {
          if (!alone) this.db.exec('ROLLBACK TO op; RELEASE op');
        } catch {
          // The transaction is gone (SQLite rolled it back): COMMIT below fails the rest.
        }
        fail(error, [op]);
      }
    }
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // Already rolled back by SQLite.
      }
      return fail(error, done.map((d) => d.op));
    }
    this.unsynced.push(...done);
    this.sync();
  }

  /**
   * fdatasync the WAL for the writes committed so far: a write resolves only by a sync that
   * started after its commit. With MAX_SYNCS in flight, the next one waits and then covers
   * everything committed meanwhile in one call.
   */
  private sync(): void {
    if (this.syncing >= MAX_SYNCS || this.unsynced.length === 0) return;
    const covered = this.unsynced;
    this.unsynced = [];
    this.syncing++;
    fs.fdatasync(this.walFd, (error) => {
      this.syncing--;
      if (error) {
        const mapped = storageError(this.location, msg('store.cannotWrite'), error);
        for (const { op } of covered) op.reject(mapped);
      } else {
        for (const { op, value } of covered) op.resolve(value);
      }
      this.sync();
      if (this.syncing === 0 && this.unsynced.length === 0) for (const wake of this.idle.splice(0)) wake();
    });
  }

  /** Reads run outside any transaction, on WAL's latest committed snapshot. */
  private read<T>(run: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new StorageError(this.location, msg('store.closed'), undefined, msg('store.closedHint')));
    try {
      return Promise.resolve(run());
    } catch (error) {
      return Promise.reject(storageError(this.location, msg('store.cannotRead'), error));
    }
  }

  claim(request: ClaimRequest): Promise<ClaimResult> {
    return this.write((): ClaimResult => {
      const row = this.statement(
        `SELECT ${RECORD_COLUMNS} FROM ${RECORD_FROM}
         WHERE s.id_proposta = ? AND s.base_url = ? AND ${HOLDS_SQL}
         ORDER BY s.id DESC LIMIT 1`,
      ).get(request.idProposta, request.baseUrl, request.bodyHash) as Row | undefined;
      const earlier = row ? toRecord(row) : null;
      if (earlier && !request.force) return { kind: 'held', earlier };
      const ref = randomUUID();
      this.statement(
        'INSERT INTO submissions (ref, id_proposta, base_url, body_hash, file, profile, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(ref, request.idProposta, request.baseUrl, request.bodyHash, request.file, request.profile, request.at);
      return { kind: 'claimed', ref, overridden: earlier };
    });
  }

  recordAnswer(ref: string, answer: AnswerRecord): Promise<void> {
    return this.write(() => this.insertAnswer(ref, answer), false);
  }

  private insertAnswer(ref: string, answer: AnswerRecord): void {
    this.statement(
      `INSERT OR REPLACE INTO answers (submission_id, at, outcome, http_status, id_contrato, erros, message)
       SELECT id, ?, ?, ?, ?, ?, ? FROM submissions WHERE ref = ?`,
    ).run(answer.at, answer.outcome, answer.httpStatus, answer.idContrato, JSON.stringify(answer.erros), answer.message, ref);
  }

  recordResult(result: ResultRecord): Promise<void> {
    return this.write(() => this.insertResult(result));
  }

  private insertResult(result: ResultRecord): void {
    this.statement('INSERT OR IGNORE INTO results (id_contrato, at, outcome, status, reason) VALUES (?, ?, ?, ?, ?)').run(
      result.idContrato,
      result.at,
      result.outcome,
      result.status,
      result.reason,
    );
  }

  recordDelivery(delivery: DeliveryRecord): Promise<'stored' | 'duplicate'> {
    return this.write(() => this.insertDelivery(delivery));
  }

  private insertDelivery(d: DeliveryRecord): 'stored' | 'duplicate' {
    // OR IGNORE: a row with the same webhook_id or body_hash (unique) is a duplicate.
    const { changes } = this.statement(
      `INSERT OR IGNORE INTO deliveries (received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(d.receivedAt, d.webhookId, d.bodyHash, d.idContrato, d.idProposta, d.status, d.outcome, d.reason, d.verified === null ? null : d.verified ? 1 : 0, d.payload);
    if (Number(changes) === 0) return 'duplicate';
    if (d.idContrato !== null && d.outcome !== 'unknown') {
      this.insertResult({ idContrato: d.idContrato, at: d.receivedAt, outcome: d.outcome, status: d.status, reason: d.reason });
    }
    return 'stored';
  }

  history(query: HistoryQuery): Promise<HistoryPage> {
    return this.read(() => {
      const where: string[] = [];
      const params: Array<string | number> = [];
      if (query.idProposta !== undefined) {
        where.push('s.id_proposta = ?');
        params.push(query.idProposta);
      }
      if (query.idContrato !== undefined) {
        where.push('a.id_contrato = ?');
        params.push(query.idContrato);
      }
      if (query.outcome !== undefined) {
        where.push(query.outcome === 'unknown' ? "(a.outcome IS NULL OR a.outcome = 'unknown')" : '(a.outcome = ? OR r.outcome = ?)');
        if (query.outcome !== 'unknown') params.push(query.outcome, query.outcome);
      }
      if (query.since !== undefined) {
        where.push('s.sent_at >= ?');
        params.push(query.since);
      }
      const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const rows = this.statement(`SELECT ${RECORD_COLUMNS} FROM ${RECORD_FROM} ${filter} ORDER BY s.id DESC LIMIT ?`).all(...params, query.limit) as Row[];
      // Counted up to a cap, so the count costs the same with a million rows as with none;
      // the joins only when a filter needs them.
      const from = query.idContrato !== undefined || query.outcome !== undefined ? RECORD_FROM : 'submissions s';
      const counted = this.statement(`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} ${filter} ORDER BY s.id DESC LIMIT ? OFFSET ?)`).get(
        ...params,
        MORE_CAP,
        query.limit,
      ) as Row;
      const entries: SubmissionRecord[] = [];
      const unreadable: string[] = [];
      for (const row of rows) {
        try {
          entries.push(toRecord(row));
        } catch (error) {
          unreadable.push(`submission ${str(row.ref)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return { entries, more: Number(counted.n), moreCap: MORE_CAP, unreadable };
    });
  }

  resultOf(idContrato: string): Promise<ResultRecord | null> {
    return this.read(() => {
      const row = this.statement('SELECT id_contrato, at, outcome, status, reason FROM results WHERE id_contrato = ?').get(idContrato) as Row | undefined;
      return row ? toResult(row) : null;
    });
  }

  async followResults(onResult: (result: ResultRecord) => void, options: FollowOptions): Promise<void> {
    let cursor = await this.read(() => Number((this.statement('SELECT coalesce(max(seq), 0) AS seq FROM results').get() as Row).seq));
    const interval = options.intervalMs ?? 100;
    let timer: NodeJS.Timeout | undefined;
    const tick = (): void => {
      if (options.signal.aborted || this.closed) return;
      try {
        const rows = this.statement('SELECT seq, id_contrato, at, outcome, status, reason FROM results WHERE seq > ? ORDER BY seq LIMIT 1000').all(cursor) as Row[];
        for (const row of rows) {
          cursor = Number(row.seq);
          if (options.signal.aborted) return;
          onResult(toResult(row));
        }
      } catch {
        // Busy or briefly unreadable: the next tick tries again.
      }
      timer = setTimeout(tick, interval);
    };
    options.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    timer = setTimeout(tick, interval);
  }

  importLegacy(entries: readonly LegacyEntry[]): Promise<void> {
    return this.write(() => {
      const insertSubmission = this.statement(
        'INSERT OR IGNORE INTO submissions (ref, id_proposta, base_url, body_hash, file, profile, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const e of entries) {
        switch (e.kind) {
          case 'submission':
            insertSubmission.run(e.ref, e.idProposta, e.baseUrl, e.bodyHash, e.file, e.profile, e.at);
            break;
          case 'answer':
            this.insertAnswer(e.ref, e.answer);
            break;
          case 'result':
            this.insertResult(e.result);
            break;
          case 'delivery':
            this.insertDelivery(e.delivery);
            break;
        }
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.queue.length > 0 || this.scheduled) await this.write(() => undefined).catch(() => undefined);
    if (this.syncing > 0 || this.unsynced.length > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    this.closed = true;
    try {
      this.db.close();
      fs.closeSync(this.walFd);
    } catch {
      // Closing releases locks and files; a failure here leaves nothing to recover.
    }
  }
}

/** Runs `step` again while SQLite answers BUSY, for up to BUSY_TIMEOUT_MS. */
async function untilNotBusy(step: () => void): Promise<void> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (causeCode(error) !== 'BUSY' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}

/** Applies the migrations this database lacks, in one write transaction. */
function migrate(db: DatabaseSync, path: string): void {
  const version = (): number => Number((db.prepare('PRAGMA user_version').get() as Row).user_version);
  if (version() === MIGRATIONS.length) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have migrated while this one waited for the lock.
    const current = version();
    if (current > MIGRATIONS.length) {
      throw new StorageError(path, msg('store.newer'), 'NEWER', msg('store.newerHint'));
    }
    for (const sql of MIGRATIONS.slice(current)) db.exec(sql);
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
    db.exec('COMMIT');
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // SQLite already rolled it back.
    }
    throw error;
  }
}

function toResult(row: Row): ResultRecord {
  return { idContrato: str(row.id_contrato), at: str(row.at), outcome: str(row.outcome) as ResultRecord['outcome'], status: strOrNull(row.status), reason: strOrNull(row.reason) };
}

function toRecord(row: Row): SubmissionRecord {
  let answer: AnswerRecord | null = null;
  if (row.answered !== null && row.answered !== undefined) {
    const erros = JSON.parse(str(row.erros)) as unknown;
    if (!Array.isArray(erros)) throw new Error('its answer has unreadable erros');
    answer = {
      at: str(row.answer_at),
      outcome: str(row.answer_outcome),
      httpStatus: numOrNull(row.http_status),
      idContrato: strOrNull(row.id_contrato),
      erros: erros as AnswerRecord['erros'],
      message: strOrNull(row.message),
    };
  }
  const result: ResultRecord | null =
    row.result_outcome === null || row.result_outcome === undefined
      ? null
      : { idContrato: str(row.id_contrato), at: str(row.result_at), outcome: str(row.result_outcome) as ResultRecord['outcome'], status: strOrNull(row.result_status), reason: strOrNull(row.result_reason) };
  return {
    ref: str(row.ref),
    idProposta: str(row.id_proposta),
    baseUrl: str(row.base_url),
    bodyHash: str(row.body_hash),
    file: strOrNull(row.file),
    profile: str(row.profile),
    sentAt: str(row.sent_at),
    answer,
    result,
  };
}
