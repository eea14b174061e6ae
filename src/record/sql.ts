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
import type { DeliveryRecord, ForwardRecord } from '../webhook/delivery.js';
import {
  type AnswerRecord,
  type ClaimRequest,
  type DeletionRecord,
  type EventPage,
  type EventQuery,
  type ForgetTarget,
  type HistoryPage,
  type HistoryQuery,
  type LegacyEntry,
  MORE_CAP,
  recordedService,
  type ResultRecord,
  type StoredDelivery,
  type RunInput,
  type RunInputRecord,
  type RunInputsFilter,
  type RunRecord,
  type RunsQuery,
  type RunStart,
  type RunSummary,
  type FinalOutcome,
  type StoreNotice,
  type SubmissionRecord,
} from './record.js';

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
  /** A JSON column as text, for LIKE (PostgreSQL's JSONB needs a cast). */
  text(column: string): string;
  /** A subquery of the integers in the JSON array of the nth parameter. */
  eachInteger(n: number): string;
  /** The non-null values of an expression over a group, joined by commas. */
  joined(expression: string): string;
}

/** The proposals, contracts and deliveries found to hold a person's data (`store forget`). */
export interface ForgetTargets {
  proposals: readonly string[];
  contracts: readonly string[];
  /** Deliveries that quote the person without naming a proposal or contract. */
  deliveries: readonly unknown[];
  /** Runs' inputs that quote the person without naming a proposal (an invalid file's name). */
  runInputs: readonly unknown[];
}

/** The tables `store forget` clears fields of, in the order it clears them. */
export const FORGET_TABLES = ['submissions', 'answers', 'results', 'deliveries', 'run_inputs'] as const;

const DELETION_COLUMNS = 'at, kind, identifier_hash, row_count, done_by';
const DELETION_SALT = 'deletion-salt';

export const RESULT_COLUMNS = 'id_contrato, at, outcome, status, reason';
/** A delivery as `econsig events` reads it (toStoredDelivery). */
const DELIVERY_COLUMNS = `id, received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload, payload_dropped_at,
  headers, duplicates, forwarded_at, forward_url, forward_status, forward_error`;
const RECORD_COLUMNS = `s.ref, s.id_proposta, s.service, s.base_url, s.body_hash, s.file, s.profile, s.sent_at, s.run_id,
  a.submission_id AS answered, a.at AS answer_at, a.outcome AS answer_outcome, a.http_status, a.id_contrato, a.erros, a.message,
  r.at AS result_at, r.outcome AS result_outcome, r.status AS result_status, r.reason AS result_reason`;

const RUN_COLUMNS = 'run_id, started_at, command, profile, base_url, service, lang, by_user, by_host, by_ci, pid, lease_until, ended_at';

/**
 * The outcome that counts for a run's input (`ri`): its submission's answer, `unknown` while
 * it has none (sent, no answer recorded), `not_sent` for a claim released unsent (answer
 * `skipped`); without a submission, the input's own (invalid, not_sent, skipped).
 */
const EFFECTIVE = `CASE WHEN ri.submission_id IS NULL THEN ri.outcome WHEN a.outcome IS NULL THEN 'unknown' WHEN a.outcome = 'skipped' THEN 'not_sent' ELSE a.outcome END`;

/**
 * The guard's rule (record.ts, holdsProposal) in SQL, over `s` (submissions), `a` (answers)
 * and `r` (results); `bodyHash` is the placeholder of the body being claimed.
 */
const holds = (bodyHash: string): string => `(a.submission_id IS NULL OR a.outcome = 'unknown'
  OR (a.outcome = 'accepted' AND (r.outcome IS NULL OR r.outcome = 'approved'
    OR (r.outcome = 'denied' AND s.body_hash = ${bodyHash}))))`;

/** The statements of the record in one dialect. */
export type RecordSql = ReturnType<typeof recordSql>;

export function recordSql({ prefix: t, param: p, now, each, text, eachInteger, joined }: Dialect) {
  const from = `${t}submissions s LEFT JOIN ${t}answers a ON a.submission_id = s.id LEFT JOIN ${t}results r ON r.id_contrato = a.id_contrato`;
  const values = (count: number): string => Array.from({ length: count }, (_, i) => p(i + 1)).join(', ');
  const statement = (sql: string, params: unknown[] = []): Statement => ({ sql, params });
  /** `(p1, p2, ...)` for `IN`, its values pushed onto `params`; `(NULL)`, which matches nothing, for none. */
  const inList = (params: unknown[], values: readonly unknown[]): string =>
    values.length === 0 ? '(NULL)' : `(${values.map((value) => p(params.push(value))).join(', ')})`;
  /**
   * A table's rows holding the targets' personal fields, and what clearing them sets: file
   * names, recorded messages and erros, results' reasons, delivery bodies and reasons. Ids,
   * outcomes, statuses and hashes stay: the guard and history still hold.
   */
  const forgetClause = (table: (typeof FORGET_TABLES)[number], targets: ForgetTargets, at: string): { params: unknown[]; where: string; set: () => string } => {
    const params: unknown[] = [];
    const list = (values: readonly unknown[]): string => inList(params, values);
    switch (table) {
      case 'submissions':
        return { params, where: `id_proposta IN ${list(targets.proposals)} AND file IS NOT NULL`, set: () => 'file = NULL' };
      case 'answers': {
        const none = p(params.push('[]'));
        const where = `submission_id IN (SELECT id FROM ${t}submissions WHERE id_proposta IN ${list(targets.proposals)}) AND (message IS NOT NULL OR erros <> ${none})`;
        return { params, where, set: () => `message = NULL, erros = ${none}` };
      }
      case 'results':
        return { params, where: `id_contrato IN ${list(targets.contracts)} AND reason IS NOT NULL`, set: () => 'reason = NULL' };
      case 'run_inputs':
        // The file name is required: cleared to the empty text.
        return {
          params,
          where: `(id IN ${list(targets.runInputs)} OR id_proposta IN ${list(targets.proposals)}) AND (file <> '' OR reason IS NOT NULL)`,
          set: () => "file = '', reason = NULL",
        };
      case 'deliveries': {
        const where = `(id IN ${list(targets.deliveries)} OR id_proposta IN ${list(targets.proposals)} OR id_contrato IN ${list(targets.contracts)}) AND (payload IS NOT NULL OR reason IS NOT NULL)`;
        // Called only when the statement clears (a count binds no `at`).
        return { params, where, set: () => `payload = NULL, reason = NULL, payload_dropped_at = coalesce(payload_dropped_at, ${p(params.push(at))})` };
      }
    }
  };
  // Joined by the submission's row id (its primary key), not its ref: a run of 100,000 inputs is read in a third of the time.
  const inputsFrom = `${t}run_inputs ri LEFT JOIN ${t}submissions s ON s.id = ri.submission_id LEFT JOIN ${t}answers a ON a.submission_id = ri.submission_id LEFT JOIN ${t}results r ON r.id_contrato = a.id_contrato`;
  const sql = {
    /** The newest submission that holds the request's proposal at its service, if any. */
    guard: (request: ClaimRequest) =>
      statement(`SELECT ${RECORD_COLUMNS} FROM ${from} WHERE s.id_proposta = ${p(1)} AND s.service = ${p(2)} AND ${holds(p(3))} ORDER BY s.id DESC LIMIT 1`, [request.idProposta, request.service, request.bodyHash]),
    /** The newest submission of a proposal at a service that is unknown (no answer, or `unknown`): what `settle` answers. */
    unknown: (idProposta: string, service: string) =>
      statement(`SELECT ${RECORD_COLUMNS} FROM ${from} WHERE s.id_proposta = ${p(1)} AND s.service = ${p(2)} AND (a.submission_id IS NULL OR a.outcome = 'unknown') ORDER BY s.id DESC LIMIT 1`, [idProposta, service]),
    /** A claim (a journal's submission again is nothing new: `ref` is unique). */
    insertSubmission: (ref: string, s: Pick<ClaimRequest, 'idProposta' | 'service' | 'baseUrl' | 'bodyHash' | 'file' | 'profile' | 'at' | 'run'>) =>
      statement(`INSERT INTO ${t}submissions (ref, id_proposta, service, base_url, body_hash, file, profile, sent_at, run_id) VALUES (${values(9)}) ON CONFLICT (ref) DO NOTHING`, [
        ref,
        s.idProposta,
        s.service,
        s.baseUrl,
        s.bodyHash,
        s.file,
        s.profile,
        s.at,
        s.run ?? null,
      ]),
    /** The submission of a claim. */
    submission: (ref: string) => statement(`SELECT ${RECORD_COLUMNS} FROM ${from} WHERE s.ref = ${p(1)}`, [ref]),
    /** A run begins; no row back when its id is taken. */
    insertRun: (r: RunStart) =>
      statement(
        `INSERT INTO ${t}runs (${RUN_COLUMNS}) VALUES (${values(13)}) ON CONFLICT (run_id) DO NOTHING RETURNING run_id`,
        [r.id, r.startedAt, r.command, r.profile, r.baseUrl, r.service, r.lang, r.by.user, r.by.host, r.by.ci, r.pid, r.leaseUntil, null],
      ),
    /** Inputs of a run, in one statement. */
    insertRunInputs: (runId: string, inputs: readonly RunInput[]) => {
      const params: unknown[] = [];
      const param = (value: unknown): string => p(params.push(value));
      // Each names its submission by row id, found by its ref once, here.
      const rows = inputs.map(
        (i) => `(${[runId, i.file, i.row, i.idProposta, i.outcome].map(param).join(', ')}, (SELECT id FROM ${t}submissions WHERE ref = ${param(i.ref)}), ${param(i.reason)})`,
      );
      return statement(`INSERT INTO ${t}run_inputs (run_id, file, sheet_row, id_proposta, outcome, submission_id, reason) VALUES ${rows.join(', ')}`, params);
    },
    renewRun: (runId: string, leaseUntil: string) => statement(`UPDATE ${t}runs SET lease_until = ${p(2)} WHERE run_id = ${p(1)} AND ended_at IS NULL`, [runId, leaseUntil]),
    endRun: (runId: string, endedAt: string) => statement(`UPDATE ${t}runs SET ended_at = ${p(2)} WHERE run_id = ${p(1)}`, [runId, endedAt]),
    /** A run by id; `last`, the newest. */
    run: (id: string) =>
      id === 'last'
        ? statement(`SELECT ${RUN_COLUMNS}, ${now} AS read_at FROM ${t}runs ORDER BY id DESC LIMIT 1`)
        : statement(`SELECT ${RUN_COLUMNS}, ${now} AS read_at FROM ${t}runs WHERE run_id = ${p(1)}`, [id]),
    /** Runs newest first, filtered. */
    runs: (query: RunsQuery) => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (query.since !== undefined) where.push(`started_at >= ${p(params.push(query.since))}`);
      if (query.profile !== undefined) where.push(`profile = ${p(params.push(query.profile))}`);
      const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      return statement(`SELECT ${RUN_COLUMNS}, ${now} AS read_at FROM ${t}runs ${filter} ORDER BY id DESC LIMIT ${p(params.push(query.limit))}`, params);
    },
    /** How many inputs of each run came to each outcome (and result). */
    runCounts: (runIds: readonly string[]) =>
      statement(
        `SELECT ri.run_id, ${EFFECTIVE} AS effective, r.outcome AS result_outcome, count(*) AS n FROM ${inputsFrom} WHERE ri.run_id IN (${each(1)}) GROUP BY ri.run_id, ${EFFECTIVE}, r.outcome`,
        [JSON.stringify(runIds)],
      ),
    /**
     * One run's counts (as runCounts) and, in the same pass, the row ids of the inputs that
     * need a person: denied or cancelled, unknown, accepted and waiting since before `waitingSince`.
     */
    runNeeds: (runId: string, waitingSince: string) =>
      statement(
        `SELECT ${EFFECTIVE} AS effective, r.outcome AS result_outcome, count(*) AS n,
           ${joined(`CASE WHEN r.outcome IN ('denied', 'cancelled') OR (ri.submission_id IS NOT NULL AND (a.outcome IS NULL OR a.outcome = 'unknown'))
             OR (a.outcome = 'accepted' AND r.outcome IS NULL AND s.sent_at < ${p(2)}) THEN ri.id END`)} AS needing
         FROM ${inputsFrom} WHERE ri.run_id = ${p(1)} GROUP BY ${EFFECTIVE}, r.outcome`,
        [runId, waitingSince],
      ),
    /** A run's inputs, in the order recorded, with what their submissions came to: all, those still due, or those of `ids`. */
    runInputs: (runId: string, only?: RunInputsFilter | { kind: 'ids'; ids: readonly number[] }) => {
      const params: unknown[] = [runId];
      let part = '';
      if (only?.kind === 'pending') part = `AND a.outcome = 'accepted' AND a.id_contrato IS NOT NULL AND r.outcome IS NULL`;
      if (only?.kind === 'ids') part = `AND ri.id IN (${eachInteger(params.push(JSON.stringify(only.ids)))})`;
      return statement(`SELECT ${RUN_INPUT_COLUMNS} FROM ${inputsFrom} WHERE ri.run_id = ${p(1)} ${part} ORDER BY ri.id`, params);
    },
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
        `INSERT INTO ${t}deliveries (received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload, headers, unshown_since)
         VALUES (${values(11)}, ${shown ? 'NULL' : now}) ON CONFLICT DO NOTHING RETURNING id_contrato, received_at AS at, outcome, status, reason`,
        [d.receivedAt, d.webhookId, d.bodyHash, d.idContrato, d.idProposta, d.status, d.outcome, d.reason, d.verified, d.payload, d.headers === undefined ? null : JSON.stringify(d.headers)],
      ),
    /** One more copy of a kept delivery arrived (and was answered as a duplicate). */
    countDuplicate: (id: unknown) => statement(`UPDATE ${t}deliveries SET duplicates = duplicates + 1 WHERE id = ${p(1)}`, [id]),
    /** What the app answered when the delivery was relayed to it (the latest forward wins). */
    recordForward: (bodyHash: string, f: ForwardRecord) =>
      statement(`UPDATE ${t}deliveries SET forwarded_at = ${p(1)}, forward_url = ${p(2)}, forward_status = ${p(3)}, forward_error = ${p(4)} WHERE body_hash = ${p(5)}`, [
        f.at,
        f.url,
        f.httpStatus,
        f.error,
        bodyHash,
      ]),
    /**
     * `econsig events`: the page (newest first) and how many more match, counted up to
     * MORE_CAP, as history's; each filter has an index whose order is the id's (docs/store.md).
     */
    events: (query: EventQuery, fewSince = false): { page: Statement; more: Statement } => {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown): string => p(params.push(value));
      if (query.idContrato !== undefined) where.push(`id_contrato = ${param(query.idContrato)}`);
      if (query.idProposta !== undefined) where.push(`id_proposta = ${param(query.idProposta)}`);
      if (query.outcome !== undefined) where.push(`outcome = ${param(query.outcome)}`);
      if (query.since !== undefined) where.push(`received_at >= ${param(query.since)}`);
      if (query.pastId !== undefined) where.push(`id ${query.oldestFirst ? '>' : '<'} ${param(query.pastId)}`);
      const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const n = params.length;
      // `+id` keeps the engine from walking the table backwards in id order: the received_at
      // index finds the few rows since, and they are sorted (eventsPage decides).
      const order = `${fewSince ? '+' : ''}id ${query.oldestFirst ? 'ASC' : 'DESC'}`;
      return {
        page: statement(`SELECT ${DELIVERY_COLUMNS} FROM ${t}deliveries ${filter} ORDER BY ${order} LIMIT ${p(n + 1)}`, [...params, query.limit]),
        more: statement(`SELECT count(*) AS n FROM (SELECT 1 FROM ${t}deliveries ${filter} ORDER BY ${order} LIMIT ${p(n + 1)} OFFSET ${p(n + 2)}) AS more`, [...params, MORE_CAP, query.limit]),
      };
    },
    /** How many deliveries were received since, counted up to `cap` on the received_at index. */
    receivedSince: (since: string, cap: number) =>
      statement(`SELECT count(*) AS n FROM (SELECT 1 FROM ${t}deliveries WHERE received_at >= ${p(1)} LIMIT ${p(2)}) AS since`, [since, cap]),
    /** One delivery by its webhook-id, else by the id `events` gives (a webhook-id wins when both match). */
    event: (key: string) =>
      statement(
        `SELECT ${DELIVERY_COLUMNS} FROM ${t}deliveries WHERE webhook_id = ${p(1)} OR id = ${p(2)} ORDER BY CASE WHEN webhook_id = ${p(1)} THEN 0 ELSE 1 END LIMIT 1`,
        [key, /^\d{1,15}$/.test(key) ? Number(key) : null],
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
    /** Whether a delivery received before `before` still has its body: one row of the partial index, or none. */
    keptBodyBefore: (before: string) => statement(`SELECT 1 AS found FROM ${t}deliveries WHERE payload IS NOT NULL AND received_at < ${p(1)} LIMIT 1`, [before]),
    /** The retention: bodies of deliveries received before `before` dropped, `at` recorded. */
    dropBodies: (before: string, at: string) =>
      statement(`UPDATE ${t}deliveries SET payload = NULL, payload_dropped_at = ${p(2)} WHERE payload IS NOT NULL AND received_at < ${p(1)}`, [before, at]),
    /**
     * `store prune`, in this order: runs started before `before`, with their inputs; deliveries before `before`; submissions before it whose
     * answer frees the proposal (holdsProposal: not accepted, not unknown, answered), then
     * their answers; results before it that no remaining answer names. Each counts its rows.
     */
    prune: (before: string): Array<[name: 'runInputs' | 'runs' | 'deliveries' | 'submissions' | 'answers' | 'results', Statement]> => [
      // Runs started before it, whole (their submissions were all sent before it: some go below).
      ['runInputs', statement(`DELETE FROM ${t}run_inputs WHERE run_id IN (SELECT run_id FROM ${t}runs WHERE started_at < ${p(1)})`, [before])],
      ['runs', statement(`DELETE FROM ${t}runs WHERE started_at < ${p(1)}`, [before])],
      ['deliveries', statement(`DELETE FROM ${t}deliveries WHERE received_at < ${p(1)}`, [before])],
      ['submissions', statement(`DELETE FROM ${t}submissions WHERE sent_at < ${p(1)} AND id IN (SELECT submission_id FROM ${t}answers WHERE outcome NOT IN ('accepted', 'unknown'))`, [before])],
      // PostgreSQL's answers went with their submissions (ON DELETE CASCADE); SQLite's are deleted here.
      ['answers', statement(`DELETE FROM ${t}answers WHERE submission_id NOT IN (SELECT id FROM ${t}submissions)`)],
      ['results', statement(`DELETE FROM ${t}results WHERE at < ${p(1)} AND id_contrato NOT IN (SELECT id_contrato FROM ${t}answers WHERE id_contrato IS NOT NULL)`, [before])],
    ],
    /**
     * Rows that quote the target (`source`, its row id, its proposal and contract): for a CPF,
     * delivery bodies and reasons, file names, recorded messages and erros, results' reasons,
     * in either of its forms (digits, punctuated); for a proposal, its submissions and deliveries.
     */
    forgetFind: (target: ForgetTarget): Statement => {
      if (target.kind === 'proposal') {
        return statement(
          `SELECT 'submission' AS source, s.id, s.id_proposta, a.id_contrato FROM ${t}submissions s LEFT JOIN ${t}answers a ON a.submission_id = s.id WHERE s.id_proposta = ${p(1)}
           UNION ALL SELECT 'delivery', id, id_proposta, id_contrato FROM ${t}deliveries WHERE id_proposta = ${p(1)}
           UNION ALL SELECT 'run_input', id, id_proposta, NULL FROM ${t}run_inputs WHERE id_proposta = ${p(1)}`,
          [target.idProposta],
        );
      }
      const d = target.cpf;
      const forms = [`%${d}%`, `%${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}%`];
      const quotes = (column: string): string => `(${column} LIKE ${p(1)} OR ${column} LIKE ${p(2)})`;
      return statement(
        `SELECT 'delivery' AS source, id, id_proposta, id_contrato FROM ${t}deliveries WHERE ${quotes('payload')} OR ${quotes('reason')}
         UNION ALL SELECT 'submission', id, id_proposta, NULL FROM ${t}submissions WHERE ${quotes('file')}
         UNION ALL SELECT 'answer', s.id, s.id_proposta, a.id_contrato FROM ${t}answers a JOIN ${t}submissions s ON s.id = a.submission_id WHERE ${quotes('a.message')} OR ${quotes(text('a.erros'))}
         UNION ALL SELECT 'result', NULL, NULL, id_contrato FROM ${t}results WHERE ${quotes('reason')}
         UNION ALL SELECT 'run_input', id, id_proposta, NULL FROM ${t}run_inputs WHERE ${quotes('file')} OR ${quotes('reason')}`,
        forms,
      );
    },
    /** The proposals and contracts that go with the found ones (a proposal's contracts, a contract's proposal). */
    forgetRelated: (targets: ForgetTargets): Statement => {
      const params: unknown[] = [];
      const [p1, c1, p2, c2] = [inList(params, targets.proposals), inList(params, targets.contracts), inList(params, targets.proposals), inList(params, targets.contracts)];
      return statement(
        `SELECT s.id_proposta, a.id_contrato FROM ${t}submissions s JOIN ${t}answers a ON a.submission_id = s.id WHERE s.id_proposta IN ${p1} OR a.id_contrato IN ${c1}
         UNION SELECT id_proposta, id_contrato FROM ${t}deliveries WHERE id_proposta IN ${p2} OR id_contrato IN ${c2}`,
        params,
      );
    },
    /** The rows of `table` that would be cleared (--dry-run). */
    forgetCount: (table: (typeof FORGET_TABLES)[number], targets: ForgetTargets): Statement => {
      const { where, params } = forgetClause(table, targets, '');
      return statement(`SELECT 1 AS cleared FROM ${t}${table} WHERE ${where}`, params);
    },
    /** Clears the personal fields of `table`'s rows, a row returned for each. */
    forgetClear: (table: (typeof FORGET_TABLES)[number], targets: ForgetTargets, at: string): Statement => {
      const { where, set, params } = forgetClause(table, targets, at);
      return statement(`UPDATE ${t}${table} SET ${set()} WHERE ${where} RETURNING 1 AS cleared`, params);
    },
    insertDeletion: (d: DeletionRecord) =>
      statement(`INSERT INTO ${t}deletions (${DELETION_COLUMNS}) VALUES (${values(5)})`, [d.at, d.kind, d.identifierHash, d.rows, d.by]),
    deletionsOf: (identifierHash: string) => statement(`SELECT ${DELETION_COLUMNS} FROM ${t}deletions WHERE identifier_hash = ${p(1)} ORDER BY id`, [identifierHash]),
    /** The store's salt for deletion records, made once by whichever process needs it first. */
    insertSalt: (salt: string) => statement(`INSERT INTO ${t}meta (name, value) VALUES (${p(1)}, ${p(2)}) ON CONFLICT (name) DO NOTHING`, [DELETION_SALT, salt]),
    salt: () => statement(`SELECT value FROM ${t}meta WHERE name = ${p(1)}`, [DELETION_SALT]),
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

/** A JSON object of texts (a delivery's headers) from its column, or null when there is none or it cannot be read. */
function headersOf(v: unknown): Record<string, string> | null {
  if (typeof v !== 'string') return null;
  try {
    const parsed = JSON.parse(v) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : null;
  } catch {
    return null;
  }
}

export function toStoredDelivery(row: Row): StoredDelivery {
  const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(row.id),
    receivedAt: str(row.received_at),
    webhookId: strOrNull(row.webhook_id),
    bodyHash: str(row.body_hash),
    idContrato: strOrNull(row.id_contrato),
    idProposta: strOrNull(row.id_proposta),
    status: strOrNull(row.status),
    outcome: str(row.outcome) as StoredDelivery['outcome'],
    reason: strOrNull(row.reason),
    // SQLite keeps a boolean as 1 or 0.
    verified: row.verified === null || row.verified === undefined ? null : Boolean(row.verified),
    payload: strOrNull(row.payload),
    payloadDroppedAt: strOrNull(row.payload_dropped_at),
    headers: headersOf(row.headers),
    duplicates: Number(row.duplicates ?? 0),
    forward:
      row.forwarded_at === null || row.forwarded_at === undefined
        ? null
        : { at: str(row.forwarded_at), url: str(row.forward_url), httpStatus: num(row.forward_status), error: strOrNull(row.forward_error) },
  };
}

/** Past this many deliveries since `--since`, they are found walking back from the newest; below it, on the received_at index. */
const FEW_SINCE = 2 * MORE_CAP;

/**
 * An events page, its statements run by `run` in the engine. With `since`, one count on the
 * received_at index first chooses the plan: walking back from the newest passes every older
 * row when few are recent (`--since 1h` of a store of years: the whole table), and sorting
 * what matched is slow when most are; each plan is cheap where it is chosen.
 */
export async function eventsPage(sql: RecordSql, query: EventQuery, run: (statement: Statement) => Row[] | Promise<Row[]>): Promise<EventPage> {
  const few = query.since !== undefined && Number((await run(sql.receivedSince(query.since, FEW_SINCE)))[0]?.n ?? 0) < FEW_SINCE;
  const { page, more } = sql.events(query, few);
  const rows = await run(page);
  const [counted] = await run(more);
  return { events: rows.map(toStoredDelivery), more: Number(counted?.n ?? 0), moreCap: MORE_CAP };
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
    run: strOrNull(row.run_id),
    answer,
    result,
  };
}

export function toRun(row: Row): RunRecord {
  return {
    id: str(row.run_id),
    startedAt: str(row.started_at),
    endedAt: strOrNull(row.ended_at),
    command: str(row.command),
    profile: str(row.profile),
    baseUrl: str(row.base_url),
    service: str(row.service),
    lang: str(row.lang),
    by: { user: strOrNull(row.by_user), host: strOrNull(row.by_host), ci: strOrNull(row.by_ci) },
    pid: Number(row.pid),
    leaseUntil: str(row.lease_until),
    readAt: str(row.read_at),
  };
}

/** The row ids of runNeeds' `needing` column (comma-joined, per group). */
export function needingIds(rows: Row[]): number[] {
  return rows.flatMap((row) => (row.needing === null || row.needing === undefined || row.needing === '' ? [] : String(row.needing).split(',').map(Number)));
}

/** The counts of `runCounts`' rows. */
export function toCounts(rows: Row[]): RunSummary['counts'] {
  return rows.map((row) => ({ effective: str(row.effective), result: strOrNull(row.result_outcome) as FinalOutcome | null, n: Number(row.n) }));
}

/** Runs (newest first) with their counts, from the rows of `runs` and `runCounts`. */
export function runSummaries(runs: Row[], counts: Row[]): RunSummary[] {
  const summaries = runs.map((row) => ({ run: toRun(row), counts: [] as RunSummary['counts'] }));
  const byId = new Map(summaries.map((s) => [s.run.id, s]));
  for (const row of counts) byId.get(str(row.run_id))?.counts.push(...toCounts([row]));
  return summaries;
}

/**
 * A run input's columns, in the order toRunInput reads them: its rows are read as arrays (a
 * run of 100,000 inputs is read whole for --json; an object per row costs twice the read).
 */
const RUN_INPUT_COLUMNS = `ri.file, ri.sheet_row, ri.id_proposta, ri.outcome, s.ref, ri.reason, ${EFFECTIVE} AS effective, s.sent_at, a.id_contrato, a.erros, a.message,
  r.at AS result_at, r.outcome AS result_outcome, r.status AS result_status, r.reason AS result_reason`;

/** A row of RUN_INPUT_COLUMNS, read as an array. */
export function toRunInput(row: readonly unknown[]): RunInputRecord {
  const [file, sheetRow, idProposta, outcome, ref, reason, effective, sentAt, idContrato, erros, message, resultAt, resultOutcome, resultStatus, resultReason] = row;
  return {
    file: str(file),
    row: sheetRow === null || sheetRow === undefined ? null : Number(sheetRow),
    idProposta: strOrNull(idProposta),
    outcome: str(outcome),
    ref: strOrNull(ref),
    reason: strOrNull(reason),
    effective: str(effective),
    idContrato: strOrNull(idContrato),
    result:
      resultOutcome === null || resultOutcome === undefined
        ? null
        : toResult({ id_contrato: idContrato, at: resultAt, outcome: resultOutcome, status: resultStatus, reason: resultReason }),
    // SQLite keeps erros as text ('[]' for most), PostgreSQL as jsonb (parsed by pg).
    erros: erros === '[]' ? [] : typeof erros === 'string' ? (JSON.parse(erros) as AnswerRecord['erros']) : ((erros as AnswerRecord['erros'] | null) ?? []),
    message: strOrNull(message),
    sentAt: strOrNull(sentAt),
  };
}

/** What a write or read on a closed store gets: a caller used it after close(), a bug. */
export function closedError(location: string): StorageError {
  return new StorageError(location, msg('store.closed'), undefined, msg('store.closedHint'));
}

export function toDeletion(row: Row): DeletionRecord {
  return { at: str(row.at), kind: str(row.kind) as DeletionRecord['kind'], identifierHash: str(row.identifier_hash), rows: Number(row.row_count), by: strOrNull(row.done_by) };
}
