/**
 * The default store: SQLite through node:sqlite, `$ECONSIG_HOME/econsig.db` (docs/store.md).
 *
 * One connection per process, WAL (readers never wait for the writer), a busy timeout
 * (processes take turns for the write lock), and `synchronous=FULL`: SQLite syncs the WAL
 * at every commit, so a write reported done survives a power cut (a claim is on disk before
 * its POST leaves, a delivery before its 2xx). Writes are group-committed: every write asked
 * for in one turn of the event loop goes into one transaction, and each resolves when that
 * commit returns.
 */
import { type Message, msg } from '../i18n/index.js';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { ensureHome, FILE_MODE, StorageError, storageHint } from '../settings/home.js';
import type { DeliveryFate, DeliveryRecord, ForwardRecord } from '../webhook/delivery.js';
import { forgetSteps, identifierHash, newSalt, runSteps } from './forget.js';
import type {
  AnswerRecord,
  ClaimRequest,
  ClaimResult,
  EventPage,
  EventQuery,
  FollowOptions,
  ForgetReport,
  ForgetRequest,
  HistoryPage,
  HistoryQuery,
  LegacyEntry,
  PruneReport,
  ResultRecord,
  RunInput,
  RunInputRecord,
  RunInputsFilter,
  RunRecord,
  RunsQuery,
  RunStart,
  RunSummary,
  SettleRequest,
  Store,
  StoredDelivery,
  StoreNotice,
  SubmissionRecord,
} from './record.js';
import { closedError, eventsPage, historyPage, keptFate, keyServices, needingIds, recordSql, resultOfDelivery, type Row, runSummaries, type Statement, toCounts, toRecord, toResult, toRun, toRunInput, toStoredDelivery } from './sql.js';

export const DATABASE_FILE = 'econsig.db';
const BUSY_TIMEOUT_MS = 15_000;

/**
 * Schema migrations, in order; PRAGMA user_version counts those applied. Append only:
 * a released migration never changes (test/unit/record/schema/sqlite.txt holds each version).
 */
export const MIGRATIONS: readonly string[] = [
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
  // Since when a stored delivery waits to be shown; null once the receiver has shown it
  // (issue 22). One left unshown (the receiver stopped first) is shown on its retry. The rows
  // already kept were shown.
  `ALTER TABLE deliveries ADD COLUMN unshown_since TEXT;`,
  // Issue 22: the guard keys a proposal on its service (service/base-url.ts), not on the base
  // URL as typed. The data step (keyServices, sql.ts) fills the column; a claim without one
  // (an econsig older than this schema, still running on the store) is refused.
  `ALTER TABLE submissions ADD COLUMN service TEXT;
   DROP INDEX submissions_guard;
   CREATE INDEX submissions_guard ON submissions (id_proposta, service, id);
   CREATE TRIGGER submissions_service_required BEFORE INSERT ON submissions WHEN NEW.service IS NULL
   BEGIN SELECT RAISE(ABORT, 'a submission without its service: an older econsig is writing to this store'); END;`,
  // A delivery's body is kept for a retention period, then dropped (payload NULL, and when):
  // SQLite cannot drop a NOT NULL in place, so the table is made again
  // (sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes").
  // `deletions` proves what `store forget` removed; `meta` holds the salt of its hashes.
  `ALTER TABLE deliveries RENAME TO deliveries_v1;
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
     payload TEXT,
     unshown_since TEXT,
     payload_dropped_at TEXT
   );
   INSERT INTO deliveries (id, received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload, unshown_since)
     SELECT id, received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload, unshown_since FROM deliveries_v1;
   DROP TABLE deliveries_v1;
   CREATE INDEX deliveries_contract ON deliveries (id_contrato);
   CREATE INDEX deliveries_received_at ON deliveries (received_at);
   CREATE INDEX deliveries_kept_bodies ON deliveries (received_at) WHERE payload IS NOT NULL;
   CREATE INDEX submissions_sent_at ON submissions (sent_at);
   CREATE TABLE deletions (
     id INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     kind TEXT NOT NULL,
     identifier_hash TEXT NOT NULL,
     row_count INTEGER NOT NULL,
     done_by TEXT
   );
   CREATE INDEX deletions_identifier ON deletions (identifier_hash);
   CREATE TABLE meta (
     name TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Issue 25, `econsig events`: a delivery's headers (credentials redacted), how many copies of
  // it arrived after it, and what the app answered when it was relayed (`watch --forward-to`).
  // Listing by proposal or outcome, newest first, reads an index (each ends with the rowid).
  `ALTER TABLE deliveries ADD COLUMN headers TEXT;
   ALTER TABLE deliveries ADD COLUMN duplicates INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE deliveries ADD COLUMN forwarded_at TEXT;
   ALTER TABLE deliveries ADD COLUMN forward_url TEXT;
   ALTER TABLE deliveries ADD COLUMN forward_status INTEGER;
   ALTER TABLE deliveries ADD COLUMN forward_error TEXT;
   CREATE INDEX deliveries_proposal ON deliveries (id_proposta);
   CREATE INDEX deliveries_outcome ON deliveries (outcome);`,
  // Issue 26: every submit is a run (docs/cli-contract.md, "Runs"): its inputs, each with the
  // submission that speaks for it; a submission names its run, whose lease says it lives.
  `CREATE TABLE runs (
     id INTEGER PRIMARY KEY,
     run_id TEXT NOT NULL UNIQUE,
     started_at TEXT NOT NULL,
     ended_at TEXT,
     command TEXT NOT NULL,
     profile TEXT NOT NULL,
     base_url TEXT NOT NULL,
     service TEXT NOT NULL,
     lang TEXT NOT NULL,
     by_user TEXT,
     by_host TEXT,
     by_ci TEXT,
     pid INTEGER NOT NULL,
     lease_until TEXT NOT NULL
   );
   CREATE INDEX runs_started_at ON runs (started_at);
   CREATE TABLE run_inputs (
     id INTEGER PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (run_id),
     file TEXT NOT NULL,
     sheet_row INTEGER,
     id_proposta TEXT,
     outcome TEXT NOT NULL,
     submission_id INTEGER,
     reason TEXT
   );
   CREATE INDEX run_inputs_run ON run_inputs (run_id, id);
   ALTER TABLE submissions ADD COLUMN run_id TEXT;`,
];

/** The migration (its version) after which every submission is keyed on its service. */
export const SERVICE_KEYS = 3;

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
 * Whether the file system holding `location` has less than LOW_SPACE_BYTES free. SQLite
 * reports a full disk as SQLITE_FULL only when a write says so; creating the WAL or its
 * shared memory on a full disk comes back as a plain I/O error. Ask the file system.
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
/** How long a write that failed for want of space keeps the store not ready (ping), unless a write succeeds first. */
const FULL_FOR_MS = 10_000;
/** How long a mark may wait for a write to share its commit. */
const LATER_MS = 50;

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

const SQL = recordSql({
  prefix: '',
  param: (n) => `?${n}`,
  now: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
  each: (n) => `SELECT value FROM json_each(?${n})`,
  text: (column) => column,
  eachInteger: (n) => `SELECT value FROM json_each(?${n})`,
  joined: (expression) => `group_concat(${expression})`,
});

/** The SQLite store. Create with `SqliteStore.open(home)`. */
export class SqliteStore implements Store {
  private queue: Op[] = [];
  private flushSoon: NodeJS.Immediate | undefined;
  private flushLater: NodeJS.Timeout | undefined;
  private closed = false;
  /** When a write last failed for want of space (0: none since the last write that succeeded). */
  private fullAt = 0;
  /** Deliveries stored by this process and not yet marked shown: their callers are showing them. */
  private readonly showing = new Set<string>();
  /** Deliveries shown and waiting for their mark (markShown). */
  private unmarked: Array<{ bodyHash: string; resolve: () => void; reject: (error: unknown) => void }> = [];
  private readonly statements = new Map<string, StatementSync>();
  private readonly sql = SQL;

  private constructor(
    private readonly db: DatabaseSync,
    readonly location: string,
  ) {}

  /**
   * Opens (creating, 0600 in a 0700 folder) and migrates the store under `home`. Throws
   * StorageError (exit 74) naming the path and the cause when it cannot. `onNotice` hears
   * what a migration did that the operator should know.
   */
  static async open(home: string, options: { onNotice?: (notice: StoreNotice) => void } = {}): Promise<SqliteStore> {
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
    try {
      db = new DatabaseSync(path);
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // In WAL mode, FULL syncs the WAL at each commit (NORMAL only at checkpoints).
      db.exec('PRAGMA synchronous = FULL');
      // A dropped body or a forgotten field is overwritten with zeros, not left in a free
      // part of a page for anyone who reads the file (docs/privacy.md).
      db.exec('PRAGMA secure_delete = ON');
      // Processes opening a new store at the same moment: switching to WAL needs the
      // database alone, and SQLite answers BUSY at once rather than wait (its busy handler
      // is skipped where waiting could deadlock). Tried again until the busy timeout.
      const connection = db;
      const merged = await untilNotBusy(() => {
        connection.exec('PRAGMA journal_mode = WAL');
        return migrate(connection, path);
      });
      if (merged && merged.proposals > 0) options.onNotice?.(merged);
    } catch (error) {
      db?.close();
      throw storageError(path, msg('store.cannotOpen'), error);
    }
    return new SqliteStore(db, path);
  }

  /** A statement prepared once, and its parameters as node:sqlite binds them. */
  private prepared({ sql, params }: Statement): [StatementSync, SQLInputValue[]] {
    let prepared = this.statements.get(sql);
    if (!prepared) this.statements.set(sql, (prepared = this.db.prepare(sql)));
    // node:sqlite binds no booleans (a delivery's `verified`): 1 and 0, as the column holds them.
    return [prepared, params.map((v) => (typeof v === 'boolean' ? Number(v) : v) as SQLInputValue)];
  }

  /** Runs a statement and returns its rows. */
  private all(statement: Statement): Row[] {
    const [prepared, params] = this.prepared(statement);
    return prepared.all(...params) as Row[];
  }

  /** Runs a statement and returns its rows as arrays, columns in the SELECT's order (no object per row). */
  private arrays(statement: Statement): unknown[][] {
    const [prepared, params] = this.prepared(statement);
    prepared.setReturnArrays(true);
    try {
      return prepared.all(...params) as unknown as unknown[][];
    } finally {
      prepared.setReturnArrays(false);
    }
  }

  /** Runs a write that returns no rows (a DELETE of any size); how many rows it changed. */
  private changes(statement: Statement): number {
    const [prepared, params] = this.prepared(statement);
    return Number(prepared.run(...params).changes);
  }

  /** Queue a write for this turn's transaction; resolves once it is committed (and synced). */
  private write<T>(run: () => T): Promise<T> {
    if (this.closed) return Promise.reject(closedError(this.location));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
      // setImmediate, not a microtask: every answer and delivery that arrived in this poll phase joins.
      this.flushSoon ??= setImmediate(() => this.flush());
    });
  }

  /**
   * One transaction for the whole queue. BEGIN IMMEDIATE takes the write lock before the
   * guard reads, so no other process can claim between the read and the insert. Each
   * write of several runs in a savepoint: one that fails is rolled back alone.
   */
  private flush(): void {
    clearImmediate(this.flushSoon);
    clearTimeout(this.flushLater);
    this.flushSoon = this.flushLater = undefined;
    const batch = this.queue;
    this.queue = [];
    const marks = this.unmarked;
    this.unmarked = [];
    if (marks.length > 0) {
      batch.push({
        run: () => this.all(this.sql.markShown(marks.map((m) => m.bodyHash))),
        resolve: () => marks.forEach((m) => m.resolve()),
        reject: (error) => marks.forEach((m) => m.reject(error)),
      });
    }
    if (batch.length === 0) return;
    const fail = (error: unknown, ops: readonly Op[]): void => {
      const mapped = storageError(this.location, msg('store.cannotWrite'), error);
      if (mapped.code === 'ENOSPC') this.fullAt = Date.now();
      for (const op of ops) op.reject(mapped);
    };
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      return fail(error, batch);
    }
    const done: Array<{ op: Op; value: unknown }> = [];
    // A lone write needs no savepoint: if it fails, the whole transaction is its own.
    const alone = batch.length === 1;
    for (const op of batch) {
      try {
        if (!alone) this.all({ sql: 'SAVEPOINT op', params: [] });
        const value = op.run();
        if (!alone) this.all({ sql: 'RELEASE op', params: [] });
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
    if (done.length > 0) this.fullAt = 0;
    for (const { op, value } of done) op.resolve(value);
  }

  /** Reads run outside any transaction, on WAL's latest committed snapshot (several statements: each on the latest). */
  private read<T>(run: () => T | Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(closedError(this.location));
    const failed = (error: unknown): Promise<never> => Promise.reject(storageError(this.location, msg('store.cannotRead'), error));
    try {
      return Promise.resolve(run()).catch(failed);
    } catch (error) {
      return failed(error);
    }
  }

  claim(request: ClaimRequest): Promise<ClaimResult> {
    return this.write((): ClaimResult => {
      const [row] = this.all(this.sql.guard(request));
      const earlier = row ? toRecord(row) : null;
      if (earlier && !request.force) return { kind: 'held', earlier };
      const ref = randomUUID();
      this.all(this.sql.insertSubmission(ref, request));
      return { kind: 'claimed', ref, overridden: earlier };
    });
  }

  recordAnswer(ref: string, answer: AnswerRecord): Promise<void> {
    return this.write(() => void this.all(this.sql.upsertAnswer(ref, answer)));
  }

  settle(request: SettleRequest): Promise<SubmissionRecord | null> {
    return this.write(() => {
      const [row] = this.all(this.sql.unknown(request.idProposta, request.service));
      if (!row) return null;
      const unknown = toRecord(row);
      this.all(this.sql.upsertAnswer(unknown.ref, request.answer));
      return { ...unknown, answer: request.answer };
    });
  }

  recordResult(result: ResultRecord): Promise<void> {
    return this.write(() => void this.all(this.sql.insertResult(result)));
  }

  /** A duplicate that was never shown is claimed in the same transaction (SQLite's commit never leaves its fate unknown). */
  recordDelivery(delivery: DeliveryRecord): Promise<DeliveryFate> {
    let stored = false;
    const written = this.write((): DeliveryFate => {
      if (this.insertDelivery(delivery)) {
        // Said at once, not at the commit: a copy later in this same transaction is a duplicate.
        this.showing.add(delivery.bodyHash);
        stored = true;
        return 'stored';
      }
      const [kept] = this.all(this.sql.keptDelivery(delivery));
      const fate = keptFate(kept, this.showing);
      if (fate === 'showing') return fate;
      if (fate === 'claim' && this.all(this.sql.claimDelivery(kept!.id)).length > 0) return 'unshown';
      // Shown already (or taken by another caller a moment ago): one more copy, answered as a duplicate.
      if (kept) this.all(this.sql.countDuplicate(kept.id));
      return 'duplicate';
    });
    return written.catch((error: unknown) => {
      if (stored) this.showing.delete(delivery.bodyHash);
      throw error;
    });
  }

  /**
   * Nobody waits on a mark: the marks of the moment go in one UPDATE with the next write's
   * commit, or in a commit of their own after LATER_MS. A stream of deliveries adds no sync.
   */
  markShown(bodyHash: string): Promise<void> {
    if (this.closed) return Promise.reject(closedError(this.location));
    const marked = new Promise<void>((resolve, reject) => this.unmarked.push({ bodyHash, resolve, reject }));
    this.flushLater ??= setTimeout(() => this.flush(), LATER_MS);
    // Until it is stored, a copy of it here is still a duplicate: it was shown.
    return marked.then(() => void this.showing.delete(bodyHash));
  }

  recordForward(bodyHash: string, forward: ForwardRecord): Promise<void> {
    return this.write(() => void this.all(this.sql.recordForward(bodyHash, forward)));
  }

  /** Whether the delivery was new (stored now, with the result it brings). */
  private insertDelivery(delivery: DeliveryRecord, shown = false): boolean {
    if (this.all(this.sql.insertDelivery(delivery, shown)).length === 0) return false;
    const result = resultOfDelivery(delivery);
    if (result) this.all(this.sql.insertResult(result));
    return true;
  }

  history(query: HistoryQuery): Promise<HistoryPage> {
    const { page, more } = this.sql.history(query);
    return this.read(() => historyPage(this.all(page), this.all(more)[0]));
  }

  events(query: EventQuery): Promise<EventPage> {
    return this.read(() => eventsPage(this.sql, query, (statement) => this.all(statement)));
  }

  event(key: string): Promise<StoredDelivery | null> {
    return this.read(() => {
      const [row] = this.all(this.sql.event(key));
      return row ? toStoredDelivery(row) : null;
    });
  }

  resultOf(idContrato: string): Promise<ResultRecord | null> {
    return this.read(() => {
      const [row] = this.all(this.sql.resultOf(idContrato));
      return row ? toResult(row) : null;
    });
  }

  /** Polls for results committed by any process after it started, every `intervalMs` (100 ms). */
  async followResults(onResult: (result: ResultRecord) => void, options: FollowOptions): Promise<void> {
    let cursor = await this.read(() => Number(this.all(this.sql.lastSeq())[0]?.seq));
    const interval = options.intervalMs ?? 100;
    let timer: NodeJS.Timeout | undefined;
    const tick = (): void => {
      if (options.signal.aborted || this.closed) return;
      try {
        for (const row of this.all(this.sql.resultsAfter(cursor))) {
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

  async dropBodies(before: string, at: string): Promise<number> {
    if ((await this.read(() => this.all(this.sql.keptBodyBefore(before)))).length === 0) return 0;
    const dropped = await this.write(() => this.changes(this.sql.dropBodies(before, at)));
    this.emptyWal();
    return dropped;
  }

  async prune(before: string): Promise<PruneReport> {
    const report = await this.write((): PruneReport => {
      // A submission goes before its answers (sql.ts prune), as PostgreSQL's ON DELETE CASCADE
      // has it: the foreign key is checked at the commit, when both are gone.
      this.db.exec('PRAGMA defer_foreign_keys = ON');
      const counts = Object.fromEntries(this.sql.prune(before).map(([name, statement]) => [name, this.changes(statement)]));
      return { before, deliveries: counts.deliveries ?? 0, submissions: counts.submissions ?? 0, results: counts.results ?? 0 };
    });
    this.emptyWal();
    return report;
  }

  /**
   * Copies the WAL into the database and truncates it: the page images from before a prune
   * or a forget, which still hold what was removed, leave the disk now rather than when the
   * WAL is next overwritten. Best effort: a reader of another process may hold part of it.
   */
  private emptyWal(): void {
    try {
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Busy: SQLite's own checkpoints finish the job as the WAL is reused.
    }
  }

  async forget(request: ForgetRequest): Promise<ForgetReport> {
    // The salt is made by the first forget that writes; a dry run only reads it.
    const salt = request.dryRun
      ? await this.read(() => this.all(this.sql.salt())[0]?.value)
      : await this.write(() => {
          this.all(this.sql.insertSalt(newSalt()));
          return this.all(this.sql.salt())[0]?.value;
        });
    const hash = typeof salt === 'string' ? await identifierHash(salt, request.target) : null;
    const steps = (): ForgetReport => runSteps(forgetSteps(this.sql, request, hash), (statement) => this.all(statement));
    if (request.dryRun) return this.read(steps);
    const report = await this.write(steps);
    this.emptyWal();
    return report;
  }

  async startRun(run: RunStart): Promise<boolean> {
    return this.write(() => this.all(this.sql.insertRun(run)).length > 0);
  }

  recordRunInputs(runId: string, inputs: readonly RunInput[]): Promise<void> {
    if (inputs.length === 0) return Promise.resolve();
    return this.write(() => {
      // SQLite binds at most 32,766 parameters: 7 a row.
      for (let i = 0; i < inputs.length; i += 4_000) this.all(this.sql.insertRunInputs(runId, inputs.slice(i, i + 4_000)));
    });
  }

  renewRun(runId: string, leaseUntil: string): Promise<void> {
    return this.write(() => void this.all(this.sql.renewRun(runId, leaseUntil)));
  }

  endRun(runId: string, endedAt: string): Promise<void> {
    return this.write(() => void this.all(this.sql.endRun(runId, endedAt)));
  }

  runs(query: RunsQuery): Promise<RunSummary[]> {
    return this.read(() => {
      const runs = this.all(this.sql.runs(query));
      return runSummaries(runs, runs.length === 0 ? [] : this.all(this.sql.runCounts(runs.map((r) => String(r.run_id)))));
    });
  }

  run(id: string): Promise<RunRecord | null> {
    return this.read(() => {
      const [row] = this.all(this.sql.run(id));
      return row ? toRun(row) : null;
    });
  }

  runInputs(runId: string, only?: RunInputsFilter): Promise<RunInputRecord[]> {
    return this.read(() => this.arrays(this.sql.runInputs(runId, only)).map(toRunInput));
  }

  runNeeds(runId: string, waitingSince: string): Promise<{ counts: RunSummary['counts']; needing: RunInputRecord[] }> {
    return this.read(() => {
      const rows = this.all(this.sql.runNeeds(runId, waitingSince));
      const ids = needingIds(rows);
      return { counts: toCounts(rows), needing: ids.length === 0 ? [] : this.arrays(this.sql.runInputs(runId, { kind: 'ids', ids })).map(toRunInput) };
    });
  }

  submission(ref: string): Promise<SubmissionRecord | null> {
    return this.read(() => {
      const [row] = this.all(this.sql.submission(ref));
      return row ? toRecord(row) : null;
    });
  }

  importLegacy(entries: readonly LegacyEntry[]): Promise<void> {
    return this.write(() => {
      for (const e of entries) {
        // The journal's deliveries were shown by the build that wrote them.
        if (e.kind === 'delivery') this.insertDelivery(e.delivery, true);
        else this.all(this.sql.legacy(e));
      }
    });
  }

  /**
   * Whether deliveries can be stored now (the receiver's GET /readyz): not while a write failed
   * for want of space in the last FULL_FOR_MS (none succeeding since), nor while the file system
   * has less than LOW_SPACE_BYTES free; and the database must read.
   */
  async ping(): Promise<void> {
    if (this.closed) throw closedError(this.location);
    if ((this.fullAt > 0 && Date.now() - this.fullAt < FULL_FOR_MS) || diskIsFull(this.location)) {
      throw new StorageError(this.location, msg('store.cannotWrite'), 'ENOSPC', storageHint('ENOSPC', this.location));
    }
    await this.read(() => this.all({ sql: 'PRAGMA user_version', params: [] }));
  }

  /** Commits the writes already asked for, then closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    try {
      this.db.close();
    } catch {
      // Closing releases locks and files; a failure here leaves nothing to recover.
    }
  }
}

/** Runs `step` again while SQLite answers BUSY, for up to BUSY_TIMEOUT_MS. */
async function untilNotBusy<T>(step: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (causeCode(error) !== 'BUSY' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}

/**
 * Applies the migrations this database lacks, in one write transaction; what the data step
 * of the migration to service keys merged, when it ran.
 */
async function migrate(db: DatabaseSync, path: string): Promise<Extract<StoreNotice, { kind: 'servicesMerged' }> | undefined> {
  const version = (): number => Number((db.prepare('PRAGMA user_version').get() as Row).user_version);
  if (version() === MIGRATIONS.length) return undefined;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have migrated while this one waited for the lock.
    const current = version();
    if (current > MIGRATIONS.length) {
      throw new StorageError(path, msg('store.newer'), 'NEWER', msg('store.newerHint'));
    }
    let merged: Extract<StoreNotice, { kind: 'servicesMerged' }> | undefined;
    for (let v = current; v < MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v] as string);
      if (v + 1 === SERVICE_KEYS) merged = await keyServices(SQL, ({ sql, params }) => db.prepare(sql).all(...(params as SQLInputValue[])) as Row[]);
    }
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
    db.exec('COMMIT');
    return merged;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // SQLite already rolled it back.
    }
    throw error;
  }
}
