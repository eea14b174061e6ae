/**
 * The team store: PostgreSQL, shared by every machine of a team (clerks' desks, CI runners
 * and the receiver at the callback URL), chosen by a postgres:// `ECONSIG_DATABASE_URL` or
 * config `database-url` (docs/cli-contract.md "The store", "Teams and homologation"; docs/team.md).
 *
 * Client: node-postgres (`pg`). Its errors carry PostgreSQL's SQLSTATE codes, a broken
 * connection is dropped from its pool and replaced on the next query (so the receiver keeps
 * serving when the database goes away and comes back), and a plain `Client` receives
 * LISTEN/NOTIFY notifications as events. The reconnect of that one listening connection is
 * ours, a few lines, with a poll as the fallback while it is down.
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
import type { Client, Pool, PoolClient } from 'pg';
import { packageVersion } from '../package-files.js';
import { redactUrl, redactUrlsIn } from '../redact.js';
import { type AnswerRecord, type ClaimRequest, type ClaimResult, type FollowOptions, type HistoryPage, type HistoryQuery, type LegacyEntry, MORE_CAP, type ResultRecord, type Store, type SubmissionRecord } from './record.js';
import type { DeliveryRecord } from '../webhook/delivery.js';
import { StorageError } from '../settings/home.js';

/** Most deliveries written by one statement (a receiver's group commit). */
const MAX_DELIVERY_BATCH = 200;
/**
 * Delivery batches being committed at once (see flushDeliveries). One, like SQLite's single
 * writer: measured here, 2 or 3 made batches smaller and throughput no better.
 */
const DELIVERY_COMMITS = 1;
/** The channel results are announced on (the payload: their seqs, comma-separated). */
const CHANNEL = 'econsig_results';
/** Serialises migrations of one database across processes (pg_advisory_xact_lock key). */
const MIGRATION_LOCK = 4_020_015;

/**
 * Schema migrations, in order; `econsig_schema` records each one applied. Append only: a
 * released migration never changes. Table names start with econsig_ so the store can
 * share a database with other applications.
 */
const MIGRATIONS: readonly string[] = [
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
  // on a disk where plain inserts commit 4,000/s. The writer announces results instead: a
  // receiver's delivery batch with one NOTIFY of all its results in its own statement (its
  // batches commit one at a time anyway), a single result right after its commit (announce).
  `DROP TRIGGER econsig_results_announce ON econsig_results;
   DROP FUNCTION econsig_announce_result();`,
];


const HOLDS_SQL = `(a.submission_id IS NULL OR a.outcome = 'unknown'
  OR (a.outcome = 'accepted' AND (r.outcome IS NULL OR r.outcome = 'approved'
    OR (r.outcome = 'denied' AND s.body_hash = $3))))`;
const RECORD_COLUMNS = `s.ref, s.id_proposta, s.base_url, s.body_hash, s.file, s.profile, s.sent_at,
  a.submission_id AS answered, a.at AS answer_at, a.outcome AS answer_outcome, a.http_status, a.id_contrato, a.erros, a.message,
  r.at AS result_at, r.outcome AS result_outcome, r.status AS result_status, r.reason AS result_reason`;
const RECORD_FROM = `econsig_submissions s LEFT JOIN econsig_answers a ON a.submission_id = s.id LEFT JOIN econsig_results r ON r.id_contrato = a.id_contrato`;

type Row = Record<string, unknown>;


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
  const message = redactUrlsIn(error instanceof Error ? error.message : String(error), url);
  const cause = new Error(message);
  cause.name = error instanceof Error ? error.name : 'Error';
  const code = codeOf(error);
  if (code !== undefined) (cause as Error & { code?: string }).code = code;
  return cause;
}

/** The PostgreSQL team store. Create with `PostgresStore.open(url)`. */
export class PostgresStore implements Store {
  private closed = false;
  private readonly listeners = new Set<() => void>();
  private deliveries: Array<{ delivery: DeliveryRecord; resolve: (r: 'stored' | 'duplicate') => void; reject: (e: unknown) => void }> = [];
  private flushScheduled = false;
  private deliveryCommits = 0;
  private unannounced: number[] = [];
  private announcing = false;
  private readonly pendingWrites = new Set<Promise<unknown>>();

  private constructor(
    private readonly pool: Pool,
    private readonly url: string,
    readonly location: string,
    private readonly pg: (typeof import('pg'))['default'],
  ) {}

  /**
   * Connects, then creates or migrates the schema. Throws StorageError (exit 74) naming the
   * database (without its password) and the cause when it cannot.
   */
  static async open(url: string, options: { maxConnections?: number } = {}): Promise<PostgresStore> {
    const location = redactUrl(url);
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 8,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 10_000,
      // A database that stops answering must not hang a delivery or a submit forever.
      query_timeout: 15_000,
      keepAlive: true,
      application_name: 'econsig',
    });
    // An idle connection cut by the server (restart, failover) is reported here; the pool
    // drops it and the next query opens a new one. Unhandled, it would end the process.
    pool.on('error', () => undefined);
    const store = new PostgresStore(pool, url, location, pg);
    try {
      await store.migrate();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw store.failure(msg('store.teamCannotOpen'), error);
    }
    return store;
  }

  private failure(what: Message, error: unknown): StorageError {
    if (error instanceof StorageError) return error;
    const code = codeOf(error);
    const detail = redactUrlsIn(error instanceof Error ? error.message : String(error), this.url);
    return new StorageError(this.location, msg('store.withDetail', { what, detail }), code, hint(code, this.location), safeCause(error, this.url));
  }

  /** Runs `work` in a transaction on one connection; a broken connection is not returned to the pool. */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollback) {
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async migrate(): Promise<void> {
    const current = await this.schemaVersion();
    if (current === MIGRATIONS.length) return;
    if (current !== undefined && current > MIGRATIONS.length) throw this.newer(current);
    await this.transaction(async (client) => {
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
      for (let v = version; v < MIGRATIONS.length; v++) {
        await client.query(MIGRATIONS[v]!);
        await client.query('INSERT INTO econsig_schema (version, econsig) VALUES ($1, $2)', [v + 1, packageVersion()]);
      }
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
    return new StorageError(
      this.location,
      msg('store.teamNewer', { version, known: MIGRATIONS.length }),
      'NEWER',
      hint('NEWER', this.location),
    );
  }

  private async read<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StorageError(this.location, msg('store.closed'), undefined, msg('store.closedHint'));
    try {
      return await work();
    } catch (error) {
      throw this.failure(msg('store.teamCannotRead'), error);
    }
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StorageError(this.location, msg('store.closed'), undefined, msg('store.closedHint'));
    try {
      return await work();
    } catch (error) {
      throw this.failure(msg('store.teamCannotWrite'), error);
    }
  }

  /** Whether the database answers now (the receiver's /readyz). */
  async ping(): Promise<void> {
    await this.read(() => this.pool.query('SELECT 1'));
  }

  claim(request: ClaimRequest): Promise<ClaimResult> {
    return this.write(() =>
      this.transaction(async (client): Promise<ClaimResult> => {
        const key = [request.baseUrl, request.idProposta];
        await client.query('INSERT INTO econsig_proposals (base_url, id_proposta) VALUES ($1, $2) ON CONFLICT DO NOTHING', key);
        // The proposal's row lock: claims of this proposal, from any machine, take turns here.
        await client.query('SELECT 1 FROM econsig_proposals WHERE base_url = $1 AND id_proposta = $2 FOR UPDATE', key);
        const { rows } = await client.query(
          `SELECT ${RECORD_COLUMNS} FROM ${RECORD_FROM}
           WHERE s.id_proposta = $1 AND s.base_url = $2 AND ${HOLDS_SQL}
           ORDER BY s.id DESC LIMIT 1`,
          [request.idProposta, request.baseUrl, request.bodyHash],
        );
        const earlier = rows[0] ? toRecord(rows[0] as Row) : null;
        if (earlier && !request.force) return { kind: 'held', earlier };
        const ref = randomUUID();
        await client.query(
          'INSERT INTO econsig_submissions (ref, id_proposta, base_url, body_hash, file, profile, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [ref, request.idProposta, request.baseUrl, request.bodyHash, request.file, request.profile, request.at],
        );
        return { kind: 'claimed', ref, overridden: earlier };
      }),
    );
  }

  recordAnswer(ref: string, answer: AnswerRecord): Promise<void> {
    return this.write(async () => {
      await insertAnswer(this.pool, ref, answer);
    });
  }

  recordResult(result: ResultRecord): Promise<void> {
    return this.write(async () => {
      this.announce(await insertResult(this.pool, result));
    });
  }

  /**
   * Tells every follower (LISTEN) which results were just committed: a NOTIFY of its own,
   * outside the writing transaction, so commits never wait for each other on the notify
   * queue. Not awaited by the writer; a lost announcement is found by the followers' poll.
   */
  private announce(seqs: readonly number[]): void {
    this.unannounced.push(...seqs);
    if (this.announcing || this.unannounced.length === 0) return;
    // One NOTIFY at a time, carrying every seq committed meanwhile: PostgreSQL commits
    // NOTIFYs one after another (each with a WAL flush), so one per delivery would queue.
    // 800 seqs stay well under the 8,000-byte payload limit.
    const chunk = this.unannounced.splice(0, 800).join(',');
    this.announcing = true;
    const sent = this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, chunk]).then(
      () => undefined,
      () => undefined,
    );
    this.pendingWrites.add(sent);
    void sent.finally(() => {
      this.pendingWrites.delete(sent);
      this.announcing = false;
      this.announce([]);
    });
  }

  /**
   * Group commit: the deliveries that arrive in one turn of the event loop (a receiver under
   * load gets several at once) go into one statement and one commit, each answered only once
   * that commit is durable. A failed commit fails every delivery of its batch (each gets 503).
   */
  recordDelivery(delivery: DeliveryRecord): Promise<'stored' | 'duplicate'> {
    if (this.closed) return Promise.reject(new StorageError(this.location, msg('store.closed'), undefined, msg('store.closedHint')));
    return new Promise((resolve, reject) => {
      this.deliveries.push({ delivery, resolve, reject });
      this.scheduleDeliveries();
    });
  }

  private scheduleDeliveries(): void {
    if (this.flushScheduled || this.deliveries.length === 0 || this.deliveryCommits >= DELIVERY_COMMITS) return;
    this.flushScheduled = true;
    setImmediate(() => this.flushDeliveries());
  }

  /**
   * At most DELIVERY_COMMITS batches are being committed at once; deliveries that arrive
   * meanwhile wait and form the next batch. On a disk whose commit takes a few
   * milliseconds, that is what makes batches grow with the load instead of every delivery
   * paying for a commit of its own.
   */
  private flushDeliveries(): void {
    this.flushScheduled = false;
    const batch = this.deliveries.splice(0, MAX_DELIVERY_BATCH);
    if (batch.length === 0) return;
    this.deliveryCommits++;
    const done = this.write(() => insertDeliveries(this.pool, batch.map((p) => p.delivery)));
    this.pendingWrites.add(done);
    done
      .then(
        ({ answers }) => {
          // Announced by the batch's own NOTIFY, inside its commit (see insertDeliveries).
          batch.forEach((p, i) => p.resolve(answers[i] ?? 'duplicate'));
        },
        (error: unknown) => batch.forEach((p) => p.reject(error)),
      )
      .finally(() => {
        this.pendingWrites.delete(done);
        this.deliveryCommits--;
        this.scheduleDeliveries();
      });
    this.scheduleDeliveries();
  }

  history(query: HistoryQuery): Promise<HistoryPage> {
    return this.read(async () => {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown): string => {
        params.push(value);
        return `$${params.length}`;
      };
      if (query.idProposta !== undefined) where.push(`s.id_proposta = ${param(query.idProposta)}`);
      if (query.idContrato !== undefined) where.push(`a.id_contrato = ${param(query.idContrato)}`);
      if (query.outcome !== undefined) {
        if (query.outcome === 'unknown') where.push("(a.outcome IS NULL OR a.outcome = 'unknown')");
        else {
          const p = param(query.outcome);
          where.push(`(a.outcome = ${p} OR r.outcome = ${p})`);
        }
      }
      if (query.since !== undefined) where.push(`s.sent_at >= ${param(query.since)}`);
      const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const base = params.length;
      const { rows } = await this.pool.query(`SELECT ${RECORD_COLUMNS} FROM ${RECORD_FROM} ${filter} ORDER BY s.id DESC LIMIT $${base + 1}`, [...params, query.limit]);
      // Counted up to a cap, so the count costs the same with a million rows as with none.
      const counted = await this.pool.query(
        `SELECT count(*) AS n FROM (SELECT 1 FROM ${RECORD_FROM} ${filter} ORDER BY s.id DESC LIMIT $${base + 1} OFFSET $${base + 2}) AS more`,
        [...params, MORE_CAP, query.limit],
      );
      const entries: SubmissionRecord[] = [];
      const unreadable: string[] = [];
      for (const row of rows as Row[]) {
        try {
          entries.push(toRecord(row));
        } catch (error) {
          unreadable.push(`submission ${String(row.ref)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return { entries, more: Number((counted.rows[0] as Row).n), moreCap: MORE_CAP, unreadable };
    });
  }

  resultOf(idContrato: string): Promise<ResultRecord | null> {
    return this.read(async () => {
      const { rows } = await this.pool.query('SELECT id_contrato, at, outcome, status, reason FROM econsig_results WHERE id_contrato = $1', [idContrato]);
      return rows[0] ? toResult(rows[0] as Row) : null;
    });
  }

  /**
   * Results recorded by any machine after this resolves, announced by LISTEN/NOTIFY: within
   * milliseconds of the delivery's commit. LISTEN starts before the catch-up read, so a
   * result committed in between is either read or announced, never neither. While the
   * listening connection is down, a poll every `intervalMs` (default 250 ms) takes over,
   * and it reconnects with backoff. Each result is handed over once (by seq).
   */
  async followResults(onResult: (result: ResultRecord) => void, options: FollowOptions): Promise<void> {
    const pollMs = options.intervalMs ?? 250;
    const seen = new Set<number>();
    /** Highest seq handed over (or present when following began). */
    let cursor = -1;
    /** The highest seq when following began: nothing at or below it is handed over. */
    let floor = Number.MAX_SAFE_INTEGER;
    let client: Client | undefined;
    let listening = false;
    let stopped = false;
    let pollTimer: NodeJS.Timeout | undefined;
    let reconnectTimer: NodeJS.Timeout | undefined;
    let backoff = 100;

    /** `announced`: the row's NOTIFY came after LISTEN, so it committed after following began. */
    const hand = (rows: Row[], announced = false): void => {
      for (const row of rows) {
        const seq = Number(row.seq);
        if (seen.has(seq) || (!announced && seq <= floor)) continue;
        seen.add(seq);
        // Keep the set small: a seq far behind the cursor cannot come again.
        if (seen.size > 10_000) for (const s of seen) if (s < cursor - 5_000) seen.delete(s);
        cursor = Math.max(cursor, seq);
        if (stopped || options.signal.aborted) return;
        onResult(toResult(row));
      }
    };
    /**
     * Results past the cursor, and some before it: sequence values are taken at insert and
     * committed in any order, so a result with a lower seq can appear after a higher one.
     */
    const catchUp = async (): Promise<void> => {
      const { rows } = await this.pool.query(
        'SELECT seq, id_contrato, at, outcome, status, reason FROM econsig_results WHERE seq > $1 ORDER BY seq LIMIT 1000',
        [Math.max(floor, cursor - 100)],
      );
      hand(rows as Row[]);
    };
    const fetchSeqs = async (seqs: number[]): Promise<void> => {
      const { rows } = await this.pool.query('SELECT seq, id_contrato, at, outcome, status, reason FROM econsig_results WHERE seq = ANY($1::bigint[]) ORDER BY seq', [seqs]);
      hand(rows as Row[], true);
    };

    const poll = (): void => {
      pollTimer = undefined;
      if (stopped) return;
      const next = (): void => {
        if (!stopped) pollTimer = setTimeout(poll, listening ? pollMs * 8 : pollMs);
      };
      catchUp().then(next, next);
    };

    const connect = async (): Promise<void> => {
      reconnectTimer = undefined;
      if (stopped) return;
      const c = new this.pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, keepAlive: true, application_name: 'econsig-follow' });
      const lost = (): void => {
        if (client !== c) return;
        client = undefined;
        listening = false;
        c.removeAllListeners('notification');
        void c.end().catch(() => undefined);
        if (!stopped) {
          reconnectTimer = setTimeout(() => void connect(), backoff);
          backoff = Math.min(backoff * 2, 2_000);
        }
      };
      c.on('error', lost);
      c.on('end', lost);
      c.on('notification', (message) => {
        const seqs = (message.payload ?? '').split(',').map(Number).filter((n) => Number.isSafeInteger(n) && !seen.has(n));
        if (seqs.length > 0) fetchSeqs(seqs).catch(() => undefined);
      });
      client = c;
      try {
        await c.connect();
        await c.query(`LISTEN ${CHANNEL}`);
        if (client !== c) return;
        listening = true;
        backoff = 100;
        // What committed while we were not listening (nothing to catch up on at the start).
        if (cursor >= 0) await catchUp().catch(() => undefined);
      } catch {
        lost();
      }
    };

    const stop = (): void => {
      stopped = true;
      clearTimeout(pollTimer);
      clearTimeout(reconnectTimer);
      const c = client;
      client = undefined;
      if (c) void c.end().catch(() => undefined);
      this.listeners.delete(stop);
    };
    this.listeners.add(stop);
    options.signal.addEventListener('abort', stop, { once: true });
    if (options.signal.aborted) return stop();
    // LISTEN first, then the starting point: a result that commits in between has a seq past
    // the cursor (read by the poll) or is announced; one committed before is resultOf's.
    await connect();
    try {
      floor = Number(((await this.read(() => this.pool.query('SELECT coalesce(max(seq), 0) AS seq FROM econsig_results'))).rows[0] as Row).seq);
      cursor = Math.max(cursor, floor);
    } catch (error) {
      stop();
      throw error;
    }
    pollTimer = setTimeout(poll, listening ? pollMs * 8 : pollMs);
  }

  importLegacy(entries: readonly LegacyEntry[]): Promise<void> {
    return this.write(() =>
      this.transaction(async (client) => {
        for (const e of entries) {
          switch (e.kind) {
            case 'submission':
              await client.query(
                'INSERT INTO econsig_submissions (ref, id_proposta, base_url, body_hash, file, profile, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (ref) DO NOTHING',
                [e.ref, e.idProposta, e.baseUrl, e.bodyHash, e.file, e.profile, e.at],
              );
              break;
            case 'answer':
              await insertAnswer(client, e.ref, e.answer);
              break;
            case 'result':
              await insertResult(client, e.result);
              break;
            case 'delivery':
              await insertDeliveries(client, [e.delivery]);
              break;
            // An import's results are not announced: they are old, and resultOf finds them.
          }
        }
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Deliveries already accepted for writing are written (and answered) first.
    while (this.deliveries.length > 0 || this.flushScheduled || this.pendingWrites.size > 0) {
      await Promise.allSettled([...this.pendingWrites, new Promise((r) => setImmediate(r))]);
    }
    this.closed = true;
    for (const stop of [...this.listeners]) stop();
    await this.pool.end().catch(() => undefined);
  }
}

type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;

async function insertAnswer(db: Queryable, ref: string, answer: AnswerRecord): Promise<void> {
  await db.query(
    `INSERT INTO econsig_answers (submission_id, at, outcome, http_status, id_contrato, erros, message)
     SELECT id, $1, $2, $3, $4, $5, $6 FROM econsig_submissions WHERE ref = $7
     ON CONFLICT (submission_id) DO UPDATE SET at = EXCLUDED.at, outcome = EXCLUDED.outcome, http_status = EXCLUDED.http_status,
       id_contrato = EXCLUDED.id_contrato, erros = EXCLUDED.erros, message = EXCLUDED.message`,
    [answer.at, answer.outcome, answer.httpStatus, answer.idContrato, JSON.stringify(answer.erros), answer.message, ref],
  );
}

async function insertResult(db: Queryable, result: ResultRecord): Promise<number[]> {
  const { rows } = await db.query('INSERT INTO econsig_results (id_contrato, at, outcome, status, reason) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id_contrato) DO NOTHING RETURNING seq', [
    text(result.idContrato),
    result.at,
    result.outcome,
    text(result.status),
    text(result.reason),
  ]);
  return (rows as Row[]).map((row) => Number(row.seq));
}

/** PostgreSQL text cannot hold U+0000; a payload may carry it escaped (\u0000) in a field we store. */
const text = (v: string | null): string | null => (v === null ? null : v.includes('\u0000') ? v.replace(/\u0000/g, '\uFFFD') : v);

/**
 * One statement, so one atomic commit: the deliveries, the final result each brings, and one
 * NOTIFY naming those results' seqs (delivered to followers when, and only if, it commits).
 * ON CONFLICT DO NOTHING covers both unique columns (webhook_id, body_hash), so the same
 * delivery received by two receivers at once is stored once, by a constraint; within one
 * batch too (a row that conflicts with an earlier row of the batch is skipped). Answers,
 * in input order, which were stored.
 */
async function insertDeliveries(db: Queryable, batch: readonly DeliveryRecord[]): Promise<{ answers: Array<'stored' | 'duplicate'>; seqs: number[] }> {
  const column = <T>(pick: (d: DeliveryRecord) => T): T[] => batch.map(pick);
  const { rows } = await db.query(
    `WITH input AS (
       SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::boolean[], $10::text[])
         WITH ORDINALITY AS t(received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload, ord)
     ), d AS (
       INSERT INTO econsig_deliveries (received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload)
       SELECT received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload FROM input ORDER BY ord
       ON CONFLICT DO NOTHING
       RETURNING id, received_at, webhook_id, body_hash, id_contrato, status, outcome, reason
     ), r AS (
       INSERT INTO econsig_results (id_contrato, at, outcome, status, reason)
       SELECT id_contrato, received_at, outcome, status, reason FROM d
        WHERE id_contrato IS NOT NULL AND outcome <> 'unknown' ORDER BY id
       ON CONFLICT (id_contrato) DO NOTHING
       RETURNING seq
     ), n AS (
       SELECT pg_notify('${CHANNEL}', string_agg(seq::text, ',')) FROM r HAVING count(*) > 0
     )
     SELECT webhook_id, body_hash, NULL::bigint AS seq FROM d
     UNION ALL SELECT NULL, NULL, seq FROM r
     UNION ALL SELECT NULL, NULL, -1 FROM n`,
    [
      column((d) => d.receivedAt),
      column((d) => text(d.webhookId)),
      column((d) => d.bodyHash),
      column((d) => text(d.idContrato)),
      column((d) => text(d.idProposta)),
      column((d) => text(d.status)),
      column((d) => d.outcome),
      column((d) => text(d.reason)),
      column((d) => d.verified),
      column((d) => text(d.payload)),
    ],
  );
  // Each returned row answers the first input row with its (webhook_id, body_hash).
  const stored = new Map<string, number>();
  const seqs: number[] = [];
  for (const row of rows as Row[]) {
    if (row.seq !== null && row.seq !== undefined) {
      if (Number(row.seq) >= 0) seqs.push(Number(row.seq));
      continue;
    }
    const key = `${String(row.webhook_id)}\n${String(row.body_hash)}`;
    stored.set(key, (stored.get(key) ?? 0) + 1);
  }
  const answers = batch.map((d): 'stored' | 'duplicate' => {
    const key = `${String(text(d.webhookId))}\n${d.bodyHash}`;
    const left = stored.get(key) ?? 0;
    if (left === 0) return 'duplicate';
    stored.set(key, left - 1);
    return 'stored';
  });
  return { answers, seqs };
}

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v ?? ''));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function toResult(row: Row): ResultRecord {
  return {
    idContrato: String(row.id_contrato),
    at: iso(row.at),
    outcome: String(row.outcome) as ResultRecord['outcome'],
    status: strOrNull(row.status),
    reason: strOrNull(row.reason),
  };
}

function toRecord(row: Row): SubmissionRecord {
  let answer: AnswerRecord | null = null;
  if (row.answered !== null && row.answered !== undefined) {
    const erros = typeof row.erros === 'string' ? (JSON.parse(row.erros) as unknown) : row.erros;
    if (!Array.isArray(erros)) throw new Error('its answer has unreadable erros');
    answer = {
      at: iso(row.answer_at),
      outcome: String(row.answer_outcome),
      httpStatus: row.http_status === null || row.http_status === undefined ? null : Number(row.http_status),
      idContrato: strOrNull(row.id_contrato),
      erros: erros as AnswerRecord['erros'],
      message: strOrNull(row.message),
    };
  }
  const result: ResultRecord | null =
    row.result_outcome === null || row.result_outcome === undefined
      ? null
      : { idContrato: String(row.id_contrato), at: iso(row.result_at), outcome: String(row.result_outcome) as ResultRecord['outcome'], status: strOrNull(row.result_status), reason: strOrNull(row.result_reason) };
  return {
    ref: String(row.ref),
    idProposta: String(row.id_proposta),
    baseUrl: String(row.base_url),
    bodyHash: String(row.body_hash),
    file: strOrNull(row.file),
    profile: String(row.profile),
    sentAt: iso(row.sent_at),
    answer,
    result,
  };
}
