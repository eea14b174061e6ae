/**
 * The team store: PostgreSQL, shared by every machine of a team (clerks' desks, CI runners
 * and the receiver at the callback URL), chosen by a postgres:// `ECONSIG_DATABASE_URL` or
 * config `database-url` (docs/cli-contract.md "The store", "Teams and homologation"; docs/team.md).
 *
 * Client: node-postgres (`pg`). Its errors carry PostgreSQL's SQLSTATE codes, and a broken
 * connection is dropped from its pool and replaced on the next query (so the receiver keeps
 * serving when the database goes away and comes back). Following results (LISTEN/NOTIFY) is
 * postgres-follow.ts; the SQL both engines share is sql.ts.
 *
 * The guard across machines: each proposal has one row in `econsig_proposals` (its primary
 * key is the unique constraint). A claim locks that row (SELECT ... FOR UPDATE) in a READ
 * COMMITTED transaction, then reads the guard and inserts the claim. Claims of the same
 * proposal therefore take turns, and each statement after the lock sees the previous
 * holder's committed claim (READ COMMITTED takes a fresh snapshot per statement). Claims of
 * different proposals never wait for each other. SERIALIZABLE would be correct too, but it
 * makes the losers of a race fail with 40001 and retry (10 desks sending the same 100
 * proposals at once is that race); SQLite's whole-database lock would make every desk
 * wait for every other.
 */
import { type Message, msg } from '../i18n/index.js';
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { packageVersion } from '../package-files.js';
import { redactConnectionString, redactConnectionStringIn } from '../redact.js';
import { StorageError } from '../settings/home.js';
import type { DeliveryFate, DeliveryRecord, ForwardRecord } from '../webhook/delivery.js';
import { CHANNEL, followResults } from './postgres-follow.js';
import { forgetSteps, identifierHash, newSalt, runStepsAsync } from './forget.js';
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
import { closedError, eventsPage, historyPage, keptFate, keyServices, needingIds, recordSql, RESULT_COLUMNS, resultOfDelivery, type Row, runSummaries, type Statement, toCounts, toRecord, toResult, toRun, toRunInput, toStoredDelivery } from './sql.js';

/** Serialises migrations of one database across processes (pg_advisory_xact_lock key). */
const MIGRATION_LOCK = 4_020_015;

/**
 * Schema migrations, in order; `econsig_schema` records each one applied. Append only: a
 * released migration never changes (test/unit/record/schema/postgres.txt holds each version).
 * Table names start with econsig_ so the store can share a database with other applications.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE econsig_submissions (
     id BIGSERIAL PRIMARY KEY,
     ref TEXT NOT NULL UNIQUE,
     id_proposta TEXT NOT NULL,
     base_url TEXT NOT NULL,
     body_hash TEXT NOT NULL,
     file TEXT,
     profile TEXT NOT NULL,
     sent_at TIMESTAMPTZ NOT NULL
   );
   CREATE INDEX econsig_submissions_guard ON econsig_submissions (id_proposta, base_url, id);
   CREATE INDEX econsig_submissions_sent_at ON econsig_submissions (sent_at);
   CREATE TABLE econsig_proposals (
     base_url TEXT NOT NULL,
     id_proposta TEXT NOT NULL,
     PRIMARY KEY (base_url, id_proposta)
   );
   CREATE TABLE econsig_answers (
     submission_id BIGINT PRIMARY KEY REFERENCES econsig_submissions (id) ON DELETE CASCADE,
     at TIMESTAMPTZ NOT NULL,
     outcome TEXT NOT NULL,
     http_status INTEGER,
     id_contrato TEXT,
     erros JSONB NOT NULL,
     message TEXT
   );
   CREATE INDEX econsig_answers_contract ON econsig_answers (id_contrato);
   CREATE TABLE econsig_results (
     seq BIGSERIAL PRIMARY KEY,
     id_contrato TEXT NOT NULL UNIQUE,
     at TIMESTAMPTZ NOT NULL,
     outcome TEXT NOT NULL,
     status TEXT,
     reason TEXT
   );
   CREATE TABLE econsig_deliveries (
     id BIGSERIAL PRIMARY KEY,
     received_at TIMESTAMPTZ NOT NULL,
     webhook_id TEXT UNIQUE,
     body_hash TEXT NOT NULL UNIQUE,
     id_contrato TEXT,
     id_proposta TEXT,
     status TEXT,
     outcome TEXT NOT NULL,
     reason TEXT,
     verified BOOLEAN,
     payload TEXT NOT NULL
   );
   CREATE INDEX econsig_deliveries_contract ON econsig_deliveries (id_contrato);
   CREATE INDEX econsig_deliveries_received_at ON econsig_deliveries (received_at);
   -- Every result, however written (a delivery, submit --wait, an import), is announced
   -- when its transaction commits: waiting desks learn it without polling.
   CREATE FUNCTION econsig_announce_result() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('${CHANNEL}', NEW.seq::text);
     RETURN NULL;
   END $$;
   CREATE TRIGGER econsig_results_announce AFTER INSERT ON econsig_results
     FOR EACH ROW EXECUTE FUNCTION econsig_announce_result();`,
  // A NOTIFY inside a transaction serialises commits (PostgreSQL holds its notify queue lock
  // through the commit's WAL flush): with the trigger, the receiver managed ~300 deliveries/s
  // on a disk where plain inserts commit 4,000/s. The writer announces results instead, in
  // a NOTIFY of its own right after their commit (announce).
  `DROP TRIGGER econsig_results_announce ON econsig_results;
   DROP FUNCTION econsig_announce_result();`,
  // Since when a stored delivery waits to be shown; null once the receiver has shown it
  // (issue 22). One left unshown (the answer to its commit was lost, or the receiver stopped
  // first) is shown on its retry. The rows already kept were shown; no default, no rewrite.
  `ALTER TABLE econsig_deliveries ADD COLUMN unshown_since TIMESTAMPTZ;`,
  // Issue 22: the guard keys a proposal on its service (service/base-url.ts), not on the base
  // URL as typed. The data step (keyServices, sql.ts, then the proposals rebuilt) fills the
  // column; no default is left, so a claim from an econsig older than this schema, still
  // running, fails rather than slips past the guard.
  `ALTER TABLE econsig_submissions ADD COLUMN service TEXT NOT NULL DEFAULT '';
   ALTER TABLE econsig_submissions ALTER COLUMN service DROP DEFAULT;
   DROP INDEX econsig_submissions_guard;
   CREATE INDEX econsig_submissions_guard ON econsig_submissions (id_proposta, service, id);
   ALTER TABLE econsig_proposals RENAME COLUMN base_url TO service;`,
  // A delivery's body is kept for a retention period, then dropped (payload NULL, and when).
  // econsig_deletions proves what `store forget` removed; econsig_meta holds the salt of its hashes.
  `ALTER TABLE econsig_deliveries ALTER COLUMN payload DROP NOT NULL;
   ALTER TABLE econsig_deliveries ADD COLUMN payload_dropped_at TIMESTAMPTZ;
   CREATE INDEX econsig_deliveries_kept_bodies ON econsig_deliveries (received_at) WHERE payload IS NOT NULL;
   CREATE TABLE econsig_deletions (
     id BIGSERIAL PRIMARY KEY,
     at TIMESTAMPTZ NOT NULL,
     kind TEXT NOT NULL,
     identifier_hash TEXT NOT NULL,
     row_count INTEGER NOT NULL,
     done_by TEXT
   );
   CREATE INDEX econsig_deletions_identifier ON econsig_deletions (identifier_hash);
   CREATE TABLE econsig_meta (
     name TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Issue 25, `econsig events`: a delivery's headers (credentials redacted), how many copies of
  // it arrived after it, and what the app answered when it was relayed (`watch --forward-to`).
  // Listing by contract, proposal or outcome, newest first, reads an index in the id's order.
  `ALTER TABLE econsig_deliveries ADD COLUMN headers TEXT;
   ALTER TABLE econsig_deliveries ADD COLUMN duplicates INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE econsig_deliveries ADD COLUMN forwarded_at TIMESTAMPTZ;
   ALTER TABLE econsig_deliveries ADD COLUMN forward_url TEXT;
   ALTER TABLE econsig_deliveries ADD COLUMN forward_status INTEGER;
   ALTER TABLE econsig_deliveries ADD COLUMN forward_error TEXT;
   DROP INDEX econsig_deliveries_contract;
   CREATE INDEX econsig_deliveries_contract ON econsig_deliveries (id_contrato, id);
   CREATE INDEX econsig_deliveries_proposal ON econsig_deliveries (id_proposta, id);
   CREATE INDEX econsig_deliveries_outcome ON econsig_deliveries (outcome, id);`,
  // Issue 26: every submit is a run (docs/cli-contract.md, "Runs"): its inputs, each with the
  // submission that speaks for it; a submission names its run, whose lease says it lives.
  `CREATE TABLE econsig_runs (
     id BIGSERIAL PRIMARY KEY,
     run_id TEXT NOT NULL UNIQUE,
     started_at TIMESTAMPTZ NOT NULL,
     ended_at TIMESTAMPTZ,
     command TEXT NOT NULL,
     profile TEXT NOT NULL,
     base_url TEXT NOT NULL,
     service TEXT NOT NULL,
     lang TEXT NOT NULL,
     by_user TEXT,
     by_host TEXT,
     by_ci TEXT,
     pid INTEGER NOT NULL,
     lease_until TIMESTAMPTZ NOT NULL
   );
   CREATE INDEX econsig_runs_started_at ON econsig_runs (started_at);
   CREATE TABLE econsig_run_inputs (
     id BIGSERIAL PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES econsig_runs (run_id),
     file TEXT NOT NULL,
     sheet_row INTEGER,
     id_proposta TEXT,
     outcome TEXT NOT NULL,
     submission_id BIGINT,
     reason TEXT
   );
   CREATE INDEX econsig_run_inputs_run ON econsig_run_inputs (run_id, id);
   ALTER TABLE econsig_submissions ADD COLUMN run_id TEXT;`,
];

/** The migration (its version) after which every submission is keyed on its service. */
export const SERVICE_KEYS = 4;

/** What to do about a PostgreSQL failure, by SQLSTATE or system code. */
function hint(code: string | undefined, location: string): Message {
  switch (code) {
    case 'ECONNREFUSED':
    case 'ECONNRESET':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'CONNECT_TIMEOUT':
    case '57P01':
    case '57P02':
    case '57P03':
    case '08006':
    case '08001':
      return msg('store.hintDbDown', { location });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return msg('store.hintDbHost', { location });
    case '28P01':
    case '28000':
      return msg('store.hintDbLogin');
    case '3D000':
      return msg('store.hintDbMissing');
    case '42501':
      return msg('store.hintDbPermission');
    case '53300':
      return msg('store.hintDbFull');
    case 'NEWER':
      return msg('store.hintDbNewer');
    default:
      return msg('store.hintDbOther', { location });
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string') return code;
  if (error instanceof Error && /timeout/i.test(error.message) && /connect/i.test(error.message)) return 'CONNECT_TIMEOUT';
  return undefined;
}

/** A cause with the password cut out of its message, so not even --verbose prints it. */
function safeCause(error: unknown, url: string): Error {
  const message = redactConnectionStringIn(error instanceof Error ? error.message : String(error), url);
  const cause = new Error(message);
  cause.name = error instanceof Error ? error.name : 'Error';
  const code = codeOf(error);
  if (code !== undefined) (cause as Error & { code?: string }).code = code;
  return cause;
}

type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;

/** PostgreSQL text cannot hold U+0000 (a payload may carry it escaped, \u0000): it is stored as U+FFFD. */
const textSafe = (params: readonly unknown[]): unknown[] => params.map((v) => (typeof v === 'string' && v.includes('\u0000') ? v.replace(/\u0000/g, '\uFFFD') : v));

/** The PostgreSQL team store. Create with `PostgresStore.open(url)`. */
export class PostgresStore implements Store {
  private closed = false;
  /** Aborted by close(): ends every follower. */
  private readonly closing = new AbortController();
  /** Writes and announcements under way, which close() waits for. */
  private readonly pending = new Set<Promise<unknown>>();
  private unannounced: number[] = [];
  /** Deliveries stored by this process and not yet marked shown: their callers are showing them. */
  private readonly showing = new Set<string>();
  /** Deliveries shown and waiting for their mark; `marking` while one UPDATE is under way. */
  private unmarked: Array<{ bodyHash: string; resolve: () => void; reject: (error: unknown) => void }> = [];
  private marking = false;
  private announcing = false;
  private readonly sql = recordSql({
    prefix: 'econsig_',
    param: (n) => `$${n}`,
    now: 'clock_timestamp()',
    each: (n) => `SELECT jsonb_array_elements_text($${n}::jsonb)`,
    text: (column) => `${column}::text`,
    eachInteger: (n) => `SELECT jsonb_array_elements_text($${n}::jsonb)::bigint`,
    joined: (expression) => `string_agg((${expression})::text, ',')`,
  });

  private constructor(
    private readonly pool: Pool,
    private readonly url: string,
    readonly location: string,
    private readonly pg: (typeof import('pg'))['default'],
  ) {}

  /**
   * Connects, then creates or migrates the schema. Throws StorageError (exit 74) naming the
   * database (without its password) and the cause when it cannot. `onNotice` hears what a
   * migration did that the operator should know.
   */
  static async open(url: string, options: { maxConnections?: number; queryTimeoutMs?: number; onNotice?: (notice: StoreNotice) => void } = {}): Promise<PostgresStore> {
    const location = redactConnectionString(url);
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 8,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 10_000,
      // A database that stops answering must not hang a delivery or a submit forever.
      query_timeout: options.queryTimeoutMs ?? 15_000,
      keepAlive: true,
      application_name: 'econsig',
    });
    // An idle connection cut by the server (restart, failover) is reported here; the pool
    // drops it and the next query opens a new one. Unhandled, it would end the process.
    pool.on('error', () => undefined);
    const store = new PostgresStore(pool, url, location, pg);
    try {
      const merged = await store.migrate();
      if (merged && merged.proposals > 0) options.onNotice?.(merged);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw store.failure(msg('store.teamCannotOpen'), error);
    }
    return store;
  }

  private failure(what: Message, error: unknown): StorageError {
    if (error instanceof StorageError) return error;
    const code = codeOf(error);
    const detail = redactConnectionStringIn(error instanceof Error ? error.message : String(error), this.url);
    return new StorageError(this.location, msg('store.withDetail', { what, detail }), code, hint(code, this.location), safeCause(error, this.url));
  }

  /** Runs a statement. */
  private async query({ sql, params }: Statement, db: Queryable = this.pool): Promise<Row[]> {
    return (await db.query(sql, textSafe(params))).rows as Row[];
  }

  /** Runs a statement and returns its rows as arrays, columns in the SELECT's order (no object per row). */
  private async arrays({ sql, params }: Statement): Promise<unknown[][]> {
    return (await this.pool.query({ text: sql, values: textSafe(params), rowMode: 'array' })).rows as unknown[][];
  }

  /** Runs `work` in a transaction on one connection; a broken connection is not returned to the pool. */
  private transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const value = await work(client);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        // A ROLLBACK that fails too leaves the connection broken: withClient drops it.
        await client.query('ROLLBACK');
        throw error;
      }
    });
  }

  /**
   * Runs `work` on a connection of the pool's; a connection whose work failed is dropped, not
   * returned (it may have broken, or still be running a statement given up at the timeout).
   */
  private async withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A connection lost while checked out is also emitted as 'error' (the query's rejection
    // carries it): unheard, that event would end the process.
    const heard = (): void => undefined;
    client.on('error', heard);
    let failed: Error | undefined;
    try {
      return await work(client);
    } catch (error) {
      failed = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.off('error', heard);
      client.release(failed);
    }
  }

  /** Applies the migrations the database lacks; what the data step of the migration to service keys merged, when it ran. */
  private async migrate(): Promise<Extract<StoreNotice, { kind: 'servicesMerged' }> | undefined> {
    const current = await this.schemaVersion();
    if (current === MIGRATIONS.length) return undefined;
    if (current !== undefined && current > MIGRATIONS.length) throw this.newer(current);
    return this.transaction(async (client) => {
      // Several econsig processes may start on a new database at once: one migrates.
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS econsig_schema (
           version INTEGER PRIMARY KEY,
           applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
           econsig TEXT
         )`,
      );
      const { rows } = await client.query('SELECT coalesce(max(version), 0) AS v FROM econsig_schema');
      const version = Number((rows[0] as Row).v);
      if (version > MIGRATIONS.length) throw this.newer(version);
      let merged: Extract<StoreNotice, { kind: 'servicesMerged' }> | undefined;
      for (let v = version; v < MIGRATIONS.length; v++) {
        await client.query(MIGRATIONS[v]!);
        if (v + 1 === SERVICE_KEYS) {
          merged = await keyServices(this.sql, (statement) => this.query(statement, client));
          // One row per proposal and service: the spellings of one service merge into one.
          await client.query('DELETE FROM econsig_proposals');
          await client.query('INSERT INTO econsig_proposals (service, id_proposta) SELECT DISTINCT service, id_proposta FROM econsig_submissions');
        }
        await client.query('INSERT INTO econsig_schema (version, econsig) VALUES ($1, $2)', [v + 1, packageVersion()]);
      }
      return merged;
    });
  }

  /** The schema version recorded in the database; undefined before the first migration. */
  private async schemaVersion(): Promise<number | undefined> {
    try {
      const { rows } = await this.pool.query('SELECT coalesce(max(version), 0) AS v FROM econsig_schema');
      return Number((rows[0] as Row).v);
    } catch (error) {
      if (codeOf(error) === '42P01') return undefined; // undefined_table: a new database
      throw error;
    }
  }

  private newer(version: number): StorageError {
    return new StorageError(this.location, msg('store.teamNewer', { version, known: MIGRATIONS.length }), 'NEWER', hint('NEWER', this.location));
  }

  /** Runs `work` unless the store is closed, its failure as a StorageError saying `what`; close() waits for it. */
  private use<T>(what: Message, work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(closedError(this.location));
    const done = work().catch((error: unknown) => {
      throw this.failure(what, error);
    });
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done)).catch(() => undefined);
    return done;
  }

  /** Whether the database answers now (the receiver's /readyz). */
  async ping(): Promise<void> {
    await this.use(msg('store.teamCannotRead'), () => this.pool.query('SELECT 1'));
  }

  claim(request: ClaimRequest): Promise<ClaimResult> {
    return this.use(msg('store.teamCannotWrite'), () =>
      this.transaction(async (client): Promise<ClaimResult> => {
        await this.lockProposal(client, request.service, request.idProposta);
        const [row] = await this.query(this.sql.guard(request), client);
        const earlier = row ? toRecord(row) : null;
        if (earlier && !request.force) return { kind: 'held', earlier };
        const ref = randomUUID();
        await this.query(this.sql.insertSubmission(ref, request), client);
        return { kind: 'claimed', ref, overridden: earlier };
      }),
    );
  }

  /** The proposal's row lock: claims (and settlements) of this proposal at this service, from any machine, take turns here. */
  private async lockProposal(client: PoolClient, service: string, idProposta: string): Promise<void> {
    const key = [service, idProposta];
    await client.query('INSERT INTO econsig_proposals (service, id_proposta) VALUES ($1, $2) ON CONFLICT DO NOTHING', key);
    await client.query('SELECT 1 FROM econsig_proposals WHERE service = $1 AND id_proposta = $2 FOR UPDATE', key);
  }

  settle(request: SettleRequest): Promise<SubmissionRecord | null> {
    return this.use(msg('store.teamCannotWrite'), () =>
      this.transaction(async (client) => {
        await this.lockProposal(client, request.service, request.idProposta);
        const [row] = await this.query(this.sql.unknown(request.idProposta, request.service), client);
        if (!row) return null;
        const unknown = toRecord(row);
        await this.query(this.sql.upsertAnswer(unknown.ref, request.answer), client);
        return { ...unknown, answer: request.answer };
      }),
    );
  }

  recordAnswer(ref: string, answer: AnswerRecord): Promise<void> {
    return this.use(msg('store.teamCannotWrite'), async () => void (await this.query(this.sql.upsertAnswer(ref, answer))));
  }

  recordResult(result: ResultRecord): Promise<void> {
    return this.use(msg('store.teamCannotWrite'), async () => this.announce(await this.query(this.sql.insertResult(result))));
  }

  /**
   * The delivery's one statement, on a connection of its own. When that connection breaks or
   * times out after the statement was sent, the commit's fate is unknown: the delivery is
   * looked up before it is answered (issue 22), and found, it is this caller's to show.
   */
  recordDelivery(delivery: DeliveryRecord): Promise<DeliveryFate> {
    return this.use(msg('store.teamCannotWrite'), async () => {
      let sent = false;
      let written: 'duplicate' | Row[];
      try {
        written = await this.withClient((client) => {
          sent = true;
          return this.insertDelivery(delivery, client);
        });
      } catch (error) {
        // Not sent (no connection could be had), or refused by the server: not kept.
        if (!sent || !this.mayHaveCommitted(error)) throw error;
        const found = await this.findDelivery(delivery).catch(() => null);
        if (found === null) throw error;
        return found;
      }
      if (written === 'duplicate') return (await this.findDelivery(delivery, true)) ?? 'duplicate';
      this.showing.add(delivery.bodyHash);
      this.announce(written);
      return 'stored';
    });
  }

  /**
   * Whether a statement that failed after it was sent may have committed all the same: yes
   * when the connection broke or timed out (no answer from the server), or the server was
   * stopping (57P01, 57P02: its commit may have come first); no when the server refused the
   * statement (any other SQLSTATE: rolled back).
   */
  private mayHaveCommitted(error: unknown): boolean {
    if (!(error instanceof this.pg.DatabaseError)) return true;
    return error.code === '57P01' || error.code === '57P02';
  }

  /**
   * A delivery already kept (by webhook-id or body); claimed when it was never shown. null: not
   * kept. `copy`: this is another copy of it (not our own write whose answer was lost), counted
   * on the kept one when it is answered as a duplicate.
   */
  private async findDelivery(delivery: Pick<DeliveryRecord, 'webhookId' | 'bodyHash'>, copy = false): Promise<Exclude<DeliveryFate, 'stored'> | null> {
    const [kept] = await this.query(this.sql.keptDelivery(delivery));
    const fate = keptFate(kept, this.showing);
    if (fate === null || fate === 'showing') return fate;
    if (fate === 'claim' && (await this.query(this.sql.claimDelivery(kept!.id))).length > 0) return 'unshown';
    if (copy) await this.query(this.sql.countDuplicate(kept!.id));
    return 'duplicate';
  }

  /**
   * One UPDATE at a time, carrying every delivery shown meanwhile: a commit of its own per
   * delivery took half the receiver's throughput (the pool's connections and the WAL flushes
   * went to marks).
   */
  markShown(bodyHash: string): Promise<void> {
    const marked = new Promise<void>((resolve, reject) => this.unmarked.push({ bodyHash, resolve, reject }));
    this.markSome();
    // Until it is stored, a copy of it here is still a duplicate: it was shown.
    return marked.then(() => void this.showing.delete(bodyHash));
  }

  private markSome(): void {
    if (this.marking || this.unmarked.length === 0) return;
    const batch = this.unmarked.splice(0, 1_000);
    this.marking = true;
    this.use(msg('store.teamCannotWrite'), () => this.query(this.sql.markShown(batch.map((b) => b.bodyHash))))
      .then(
        () => batch.forEach((b) => b.resolve()),
        (error: unknown) => batch.forEach((b) => b.reject(error)),
      )
      .finally(() => {
        this.marking = false;
        this.markSome();
      });
  }

  /**
   * `duplicate`, or the rows of the result it wrote. One statement, so one round trip and one
   * atomic commit: the delivery and, if it was stored, the result it brings.
   */
  private async insertDelivery(delivery: DeliveryRecord, db: Queryable, shown = false): Promise<'duplicate' | Row[]> {
    const insert = this.sql.insertDelivery(delivery, shown);
    const sql = !resultOfDelivery(delivery)
      ? insert.sql
      : `WITH d AS (${insert.sql}),
         r AS (INSERT INTO econsig_results (${RESULT_COLUMNS}) SELECT ${RESULT_COLUMNS} FROM d ON CONFLICT (id_contrato) DO NOTHING RETURNING seq)
         SELECT NULL AS seq FROM d UNION ALL SELECT seq FROM r`;
    const rows = await this.query({ sql, params: insert.params }, db);
    return rows.length === 0 ? 'duplicate' : rows.filter((row) => row.seq !== null && row.seq !== undefined);
  }

  /**
   * Tells every follower (LISTEN) which results were just committed: a NOTIFY of its own,
   * outside the writing transaction, because a NOTIFY inside one serialises commits (see
   * migration 2). Not awaited by the writer; a lost announcement is found by the followers' poll.
   */
  private announce(written: Row[]): void {
    this.unannounced.push(...written.map((row) => Number(row.seq)));
    if (this.announcing || this.unannounced.length === 0) return;
    // One NOTIFY at a time, carrying every seq committed meanwhile: PostgreSQL commits
    // NOTIFYs one after another (each with a WAL flush), so one per result would queue.
    // 800 seqs stay well under the 8,000-byte payload limit.
    const chunk = this.unannounced.splice(0, 800).join(',');
    this.announcing = true;
    const sent = this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, chunk]).catch(() => undefined);
    this.pending.add(sent);
    void sent.finally(() => {
      this.pending.delete(sent);
      this.announcing = false;
      this.announce([]);
    });
  }

  history(query: HistoryQuery): Promise<HistoryPage> {
    const { page, more } = this.sql.history(query);
    return this.use(msg('store.teamCannotRead'), async () => historyPage(await this.query(page), (await this.query(more))[0]));
  }

  events(query: EventQuery): Promise<EventPage> {
    return this.use(msg('store.teamCannotRead'), () => eventsPage(this.sql, query, (statement) => this.query(statement)));
  }

  event(key: string): Promise<StoredDelivery | null> {
    return this.use(msg('store.teamCannotRead'), async () => {
      const [row] = await this.query(this.sql.event(key));
      return row ? toStoredDelivery(row) : null;
    });
  }

  recordForward(bodyHash: string, forward: ForwardRecord): Promise<void> {
    return this.use(msg('store.teamCannotWrite'), async () => void (await this.query(this.sql.recordForward(bodyHash, forward))));
  }

  resultOf(idContrato: string): Promise<ResultRecord | null> {
    return this.use(msg('store.teamCannotRead'), async () => {
      const [row] = await this.query(this.sql.resultOf(idContrato));
      return row ? toResult(row) : null;
    });
  }

  followResults(onResult: (result: ResultRecord) => void, options: FollowOptions): Promise<void> {
    const source = {
      sql: this.sql,
      query: (statement: Statement) => this.use(msg('store.teamCannotRead'), () => this.query(statement)),
      client: () => new this.pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, keepAlive: true, application_name: 'econsig-follow' }),
    };
    return followResults(source, onResult, { ...options, signal: AbortSignal.any([options.signal, this.closing.signal]) });
  }

  dropBodies(before: string, at: string): Promise<number> {
    return this.use(msg('store.teamCannotWrite'), async () => {
      if ((await this.query(this.sql.keptBodyBefore(before))).length === 0) return 0;
      const { sql, params } = this.sql.dropBodies(before, at);
      return (await this.pool.query(sql, params)).rowCount ?? 0;
    });
  }

  prune(before: string): Promise<PruneReport> {
    return this.use(msg('store.teamCannotWrite'), () =>
      this.transaction(async (client) => {
        const counts: Record<string, number> = {};
        for (const [name, { sql, params }] of this.sql.prune(before)) counts[name] = (await client.query(sql, params)).rowCount ?? 0;
        return { before, deliveries: counts.deliveries ?? 0, submissions: counts.submissions ?? 0, results: counts.results ?? 0 };
      }),
    );
  }

  forget(request: ForgetRequest): Promise<ForgetReport> {
    return this.use(msg(request.dryRun ? 'store.teamCannotRead' : 'store.teamCannotWrite'), async () => {
      // The salt is made by the first forget that writes, from any desk; a dry run only reads it.
      if (!request.dryRun) await this.query(this.sql.insertSalt(newSalt()));
      const salt = (await this.query(this.sql.salt()))[0]?.value;
      const hash = typeof salt === 'string' ? await identifierHash(salt, request.target) : null;
      return this.transaction((client) => runStepsAsync(forgetSteps(this.sql, request, hash), (statement) => this.query(statement, client)));
    });
  }

  startRun(run: RunStart): Promise<boolean> {
    return this.use(msg('store.teamCannotWrite'), async () => (await this.query(this.sql.insertRun(run))).length > 0);
  }

  recordRunInputs(runId: string, inputs: readonly RunInput[]): Promise<void> {
    if (inputs.length === 0) return Promise.resolve();
    return this.use(msg('store.teamCannotWrite'), () =>
      this.transaction(async (client) => {
        // PostgreSQL binds at most 65,535 parameters: 7 a row.
        for (let i = 0; i < inputs.length; i += 5_000) await this.query(this.sql.insertRunInputs(runId, inputs.slice(i, i + 5_000)), client);
      }),
    );
  }

  renewRun(runId: string, leaseUntil: string): Promise<void> {
    return this.use(msg('store.teamCannotWrite'), async () => void (await this.query(this.sql.renewRun(runId, leaseUntil))));
  }

  endRun(runId: string, endedAt: string): Promise<void> {
    return this.use(msg('store.teamCannotWrite'), async () => void (await this.query(this.sql.endRun(runId, endedAt))));
  }

  runs(query: RunsQuery): Promise<RunSummary[]> {
    return this.use(msg('store.teamCannotRead'), async () => {
      const runs = await this.query(this.sql.runs(query));
      return runSummaries(runs, runs.length === 0 ? [] : await this.query(this.sql.runCounts(runs.map((r) => String(r.run_id)))));
    });
  }

  run(id: string): Promise<RunRecord | null> {
    return this.use(msg('store.teamCannotRead'), async () => {
      const [row] = await this.query(this.sql.run(id));
      return row ? toRun(row) : null;
    });
  }

  runInputs(runId: string, only?: RunInputsFilter): Promise<RunInputRecord[]> {
    return this.use(msg('store.teamCannotRead'), async () => (await this.arrays(this.sql.runInputs(runId, only))).map(toRunInput));
  }

  runNeeds(runId: string, waitingSince: string): Promise<{ counts: RunSummary['counts']; needing: RunInputRecord[] }> {
    return this.use(msg('store.teamCannotRead'), async () => {
      const rows = await this.query(this.sql.runNeeds(runId, waitingSince));
      const ids = needingIds(rows);
      return { counts: toCounts(rows), needing: ids.length === 0 ? [] : (await this.arrays(this.sql.runInputs(runId, { kind: 'ids', ids }))).map(toRunInput) };
    });
  }

  submission(ref: string): Promise<SubmissionRecord | null> {
    return this.use(msg('store.teamCannotRead'), async () => {
      const [row] = await this.query(this.sql.submission(ref));
      return row ? toRecord(row) : null;
    });
  }

  /** In one transaction. An import's results are not announced: they are old, and resultOf finds them. */
  importLegacy(entries: readonly LegacyEntry[]): Promise<void> {
    return this.use(msg('store.teamCannotWrite'), () =>
      this.transaction(async (client) => {
        // The journal's deliveries were shown by the build that wrote them.
        for (const e of entries) await (e.kind === 'delivery' ? this.insertDelivery(e.delivery, client, true) : this.query(this.sql.legacy(e), client));
      }),
    );
  }

  /** Waits for the writes under way (deliveries already taken are answered), then closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    this.closing.abort();
    await this.pool.end().catch(() => undefined);
  }
}

