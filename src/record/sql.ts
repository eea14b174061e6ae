/**
 * The SQL both engines speak, written once: the record's columns, the guard's rule, the
 * writes, history's query and the row → record mapping. What differs between SQLite's own
 * file and PostgreSQL's shared database is handed in as a Dialect: the tables' names
 * (PostgreSQL's start with econsig_, to share a database) and the placeholders. Each
 * statement comes with its parameters, in the order its SQL names them, so an engine only
 * runs it. Migrations stay with each engine (a released one never changes).
 */
import { msg } from '../i18n/index.js';
import { StorageError } from '../settings/home.js';
import type { DeliveryRecord } from '../webhook/delivery.js';
import { type AnswerRecord, type ClaimRequest, type HistoryPage, type HistoryQuery, type LegacyEntry, MORE_CAP, recordedService, type ResultRecord, type StoreNotice, type SubmissionRecord } from './record.js';

export type Row = Record<string, unknown>;

/** SQL and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

export interface Dialect {
  /** What every table's name starts with. */
  prefix: string;
  /** The placeholder of the nth parameter, from 1 (`?1` in SQLite, `$1` in PostgreSQL). */
  param(n: number): string;
  /** The database's clock as the statement runs (after any lock it waited for). */
  now: string;
  /** A subquery of the texts in the JSON array of the nth parameter. */
  each(n: number): string;
}

export const RESULT_COLUMNS = 'id_contrato, at, outcome, status, reason';
const RECORD_COLUMNS = `s.ref, s.id_proposta, s.service, s.base_url, s.body_hash, s.file, s.profile, s.sent_at,
  a.submission_id AS answered, a.at AS answer_at, a.outcome AS answer_outcome, a.http_status, a.id_contrato, a.erros, a.message,
  r.at AS result_at, r.outcome AS result_outcome, r.status AS result_status, r.reason AS result_reason`;

/**
 * The guard's rule (record.ts, holdsProposal) in SQL, over `s` (submissions), `a` (answers)
 * and `r` (results); `bodyHash` is the placeholder of the body being claimed.
 */
const holds = (bodyHash: string): string => `(a.submission_id IS NULL OR a.outcome = 'unknown'
  OR (a.outcome = 'accepted' AND (r.outcome IS NULL OR r.outcome = 'approved'
    OR (r.outcome = 'denied' AND s.body_hash = ${bodyHash}))))`;

/** The statements of the record in one dialect. */
export type RecordSql = ReturnType<typeof recordSql>;

export function recordSql({ prefix: t, param: p, now, each }: Dialect) {
  const from = `${t}submissions s LEFT JOIN ${t}answers a ON a.submission_id = s.id LEFT JOIN ${t}results r ON r.id_contrato = a.id_contrato`;
  const values = (count: number): string => Array.from({ length: count }, (_, i) => p(i + 1)).join(', ');
  const statement = (sql: string, params: unknown[] = []): Statement => ({ sql, params });
  const sql = {
    /** The newest submission that holds the request's proposal at its service, if any. */
    guard: (request: ClaimRequest) =>
      statement(`SELECT ${RECORD_COLUMNS} FROM ${from} WHERE s.id_proposta = ${p(1)} AND s.service = ${p(2)} AND ${holds(p(3))} ORDER BY s.id DESC LIMIT 1`, [request.idProposta, request.service, request.bodyHash]),
    /** The newest submission of a proposal at a service that is unknown (no answer, or `unknown`): what `settle` answers. */
    unknown: (idProposta: string, service: string) =>
      statement(`SELECT ${RECORD_COLUMNS} FROM ${from} WHERE s.id_proposta = ${p(1)} AND s.service = ${p(2)} AND (a.submission_id IS NULL OR a.outcome = 'unknown') ORDER BY s.id DESC LIMIT 1`, [idProposta, service]),
    /** A claim (a journal's submission again is nothing new: `ref` is unique). */
    insertSubmission: (ref: string, s: Pick<ClaimRequest, 'idProposta' | 'service' | 'baseUrl' | 'bodyHash' | 'file' | 'profile' | 'at'>) =>
      statement(`INSERT INTO ${t}submissions (ref, id_proposta, service, base_url, body_hash, file, profile, sent_at) VALUES (${values(8)}) ON CONFLICT (ref) DO NOTHING`, [ref, s.idProposta, s.service, s.baseUrl, s.bodyHash, s.file, s.profile, s.at]),
    /** The answer of a claim; a second answer replaces the first. */
    upsertAnswer: (ref: string, a: AnswerRecord) =>
      statement(
        `INSERT INTO ${t}answers (submission_id, at, outcome, http_status, id_contrato, erros, message)
         SELECT id, ${values(6)} FROM ${t}submissions WHERE ref = ${p(7)}
         ON CONFLICT (submission_id) DO UPDATE SET at = excluded.at, outcome = excluded.outcome, http_status = excluded.http_status,
           id_contrato = excluded.id_contrato, erros = excluded.erros, message = excluded.message`,
        [a.at, a.outcome, a.httpStatus, a.idContrato, JSON.stringify(a.erros), a.message, ref],
      ),
    /** A contract's result; the first one wins. Returns the seq of a row written (none when one was known). */
    insertResult: (r: ResultRecord) =>
      statement(`INSERT INTO ${t}results (${RESULT_COLUMNS}) VALUES (${values(5)}) ON CONFLICT (id_contrato) DO NOTHING RETURNING seq`, [r.idContrato, r.at, r.outcome, r.status, r.reason]),
    /**
     * A delivery, unshown since now (`shown`: an import's, shown long ago); returns a row (the
     * result it may bring, as RESULT_COLUMNS) when it was stored, none when one with its
     * webhook_id or body_hash (both unique) was.
     */
    insertDelivery: (d: DeliveryRecord, shown = false) =>
      statement(
        `INSERT INTO ${t}deliveries (received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload, unshown_since)
         VALUES (${values(10)}, ${shown ? 'NULL' : now}) ON CONFLICT DO NOTHING RETURNING id_contrato, received_at AS at, outcome, status, reason`,
        [d.receivedAt, d.webhookId, d.bodyHash, d.idContrato, d.idProposta, d.status, d.outcome, d.reason, d.verified, d.payload],
      ),
    /** The kept delivery with this webhook-id or body, if any: its id, body hash, since when it is unshown (null: shown) and the clock now. */
    keptDelivery: (d: Pick<DeliveryRecord, 'webhookId' | 'bodyHash'>) =>
      statement(`SELECT id, body_hash, unshown_since, ${now} AS now FROM ${t}deliveries WHERE webhook_id = ${p(1)} OR body_hash = ${p(2)} ORDER BY id LIMIT 1`, [
        d.webhookId,
        d.bodyHash,
      ]),
    /** Takes an unshown delivery for showing: a row back means this caller has it, none that another took it first. */
    claimDelivery: (id: unknown) => statement(`UPDATE ${t}deliveries SET unshown_since = NULL WHERE id = ${p(1)} AND unshown_since IS NOT NULL RETURNING id`, [id]),
    /** Stored deliveries (by body hash) the receiver has shown. */
    markShown: (bodyHashes: readonly string[]) =>
      statement(`UPDATE ${t}deliveries SET unshown_since = NULL WHERE body_hash IN (${each(1)})`, [JSON.stringify(bodyHashes)]),
    /** A journal line other than a delivery (whose result an engine writes with it). */
    legacy: (e: Exclude<LegacyEntry, { kind: 'delivery' }>): Statement =>
      e.kind === 'submission' ? sql.insertSubmission(e.ref, e) : e.kind === 'answer' ? sql.upsertAnswer(e.ref, e.answer) : sql.insertResult(e.result),
    /** The migration to service keys (issue 22): the base URLs recorded, and each one's service. */
    baseUrls: () => statement(`SELECT DISTINCT base_url FROM ${t}submissions`),
    keyService: (baseUrl: string, service: string) => statement(`UPDATE ${t}submissions SET service = ${p(1)} WHERE base_url = ${p(2)}`, [service, baseUrl]),
    /** Proposals (and their submissions) that were sent under several spellings of one service, now one. */
    merged: () =>
      statement(`SELECT count(*) AS proposals, coalesce(sum(n), 0) AS submissions FROM (SELECT count(*) AS n FROM ${t}submissions GROUP BY id_proposta, service HAVING count(DISTINCT base_url) > 1) AS m`),
    resultOf: (idContrato: string) => statement(`SELECT ${RESULT_COLUMNS} FROM ${t}results WHERE id_contrato = ${p(1)}`, [idContrato]),
    /** Results past `seq`, oldest first, for followers. */
    resultsAfter: (seq: number) => statement(`SELECT seq, ${RESULT_COLUMNS} FROM ${t}results WHERE seq > ${p(1)} ORDER BY seq LIMIT 1000`, [seq]),
    lastSeq: () => statement(`SELECT coalesce(max(seq), 0) AS seq FROM ${t}results`),
    /**
     * The page (newest first) and how many more match, counted up to MORE_CAP so the count
     * costs the same with a million rows as with none; the joins only when a filter needs them.
     */
    history: (query: HistoryQuery): { page: Statement; more: Statement } => {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown): string => p(params.push(value));
      if (query.idProposta !== undefined) where.push(`s.id_proposta = ${param(query.idProposta)}`);
      if (query.idContrato !== undefined) where.push(`a.id_contrato = ${param(query.idContrato)}`);
      if (query.outcome === 'unknown') where.push("(a.outcome IS NULL OR a.outcome = 'unknown')");
      else if (query.outcome !== undefined) where.push(`(a.outcome = ${param(query.outcome)} OR r.outcome = ${param(query.outcome)})`);
      if (query.since !== undefined) where.push(`s.sent_at >= ${param(query.since)}`);
      const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const counted = query.idContrato !== undefined || query.outcome !== undefined ? from : `${t}submissions s`;
      const n = params.length;
      return {
        page: statement(`SELECT ${RECORD_COLUMNS} FROM ${from} ${filter} ORDER BY s.id DESC LIMIT ${p(n + 1)}`, [...params, query.limit]),
        more: statement(`SELECT count(*) AS n FROM (SELECT 1 FROM ${counted} ${filter} ORDER BY s.id DESC LIMIT ${p(n + 1)} OFFSET ${p(n + 2)}) AS more`, [...params, MORE_CAP, query.limit]),
      };
    },
  };
  return sql;
}

/**
 * How long a stored delivery may stay unshown while the receiver that stored it shows it.
 * It marks it shown within milliseconds; one still unshown after this was left unshown (that
 * receiver stopped first, or lost the answer to its write) and is any receiver's to show.
 */
export const SHOWING_GRACE_MS = 5_000;

/**
 * What a kept delivery (keptDelivery's row) means to a caller who found it: null, nothing kept;
 * `duplicate`, shown already, or being shown by this process (`showing`: the body hashes it
 * stored and has not yet marked shown); `showing`, stored a moment ago and being shown by
 * another process (ask again); `claim`, left unshown: take it with claimDelivery.
 */
export function keptFate(row: Row | undefined, showing: ReadonlySet<string>): 'duplicate' | 'showing' | 'claim' | null {
  if (row === undefined) return null;
  if (row.unshown_since === null || showing.has(str(row.body_hash))) return 'duplicate';
  const unshownMs = Date.parse(str(row.now)) - Date.parse(str(row.unshown_since));
  return unshownMs < SHOWING_GRACE_MS ? 'showing' : 'claim';
}

/**
 * The data step of the migration to service keys, in the migration's transaction: every
 * submission keyed on its base URL's service (record.ts, recordedService), and what that
 * merged. `run` runs a statement on the migrating connection.
 */
export async function keyServices(sql: RecordSql, run: (statement: Statement) => Row[] | Promise<Row[]>): Promise<Extract<StoreNotice, { kind: 'servicesMerged' }>> {
  for (const row of await run(sql.baseUrls())) {
    const baseUrl = str(row.base_url);
    await run(sql.keyService(baseUrl, recordedService(baseUrl)));
  }
  const [merged] = await run(sql.merged());
  return { kind: 'servicesMerged', proposals: Number(merged?.proposals ?? 0), submissions: Number(merged?.submissions ?? 0) };
}

/** The result a delivery brings: a final outcome of a named contract, written with it. */
export function resultOfDelivery(d: DeliveryRecord): ResultRecord | null {
  if (d.idContrato === null || d.outcome === 'unknown') return null;
  return { idContrato: d.idContrato, at: d.receivedAt, outcome: d.outcome, status: d.status, reason: d.reason };
}

/** A history page from its rows and its count; a row that cannot be read is described, not fatal. */
export function historyPage(rows: Row[], counted: Row | undefined): HistoryPage {
  const entries: SubmissionRecord[] = [];
  const unreadable: string[] = [];
  for (const row of rows) {
    try {
      entries.push(toRecord(row));
    } catch (error) {
      unreadable.push(`submission ${str(row.ref)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { entries, more: Number(counted?.n ?? 0), moreCap: MORE_CAP, unreadable };
}

/** A column as text (PostgreSQL hands a timestamp over as a Date). */
const str = (v: unknown): string => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : String(v ?? ''));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : str(v));

export function toResult(row: Row): ResultRecord {
  return { idContrato: str(row.id_contrato), at: str(row.at), outcome: str(row.outcome) as ResultRecord['outcome'], status: strOrNull(row.status), reason: strOrNull(row.reason) };
}

export function toRecord(row: Row): SubmissionRecord {
  let answer: AnswerRecord | null = null;
  if (row.answered !== null && row.answered !== undefined) {
    // JSON text in SQLite, already parsed from PostgreSQL's JSONB.
    const erros = typeof row.erros === 'string' ? (JSON.parse(row.erros) as unknown) : row.erros;
    if (!Array.isArray(erros)) throw new Error('its answer has unreadable erros');
    answer = {
      at: str(row.answer_at),
      outcome: str(row.answer_outcome),
      httpStatus: row.http_status === null || row.http_status === undefined ? null : Number(row.http_status),
      idContrato: strOrNull(row.id_contrato),
      erros: erros as AnswerRecord['erros'],
      message: strOrNull(row.message),
    };
  }
  const result =
    row.result_outcome === null || row.result_outcome === undefined
      ? null
      : toResult({ id_contrato: row.id_contrato, at: row.result_at, outcome: row.result_outcome, status: row.result_status, reason: row.result_reason });
  return {
    ref: str(row.ref),
    idProposta: str(row.id_proposta),
    service: str(row.service),
    baseUrl: str(row.base_url),
    bodyHash: str(row.body_hash),
    file: strOrNull(row.file),
    profile: str(row.profile),
    sentAt: str(row.sent_at),
    answer,
    result,
  };
}

/** What a write or read on a closed store gets: a caller used it after close(), a bug. */
export function closedError(location: string): StorageError {
  return new StorageError(location, msg('store.closed'), undefined, msg('store.closedHint'));
}
