/**
 * The store: every submission, answer, delivery and result, behind one interface
 * (docs/cli-contract.md, "The store"). Two engines implement it: SQLite in ECONSIG_HOME
 * (record/sqlite.ts, the default) and PostgreSQL for a team (record/postgres.ts). Flows
 * see only this file's types; which engine runs is decided once, by openStore.
 *
 * Every method returns a Promise, so an engine that talks over the network fits; every
 * write resolves only once it is durable (the engine's commit, with fsync).
 */
import type { DeliveryRecord, DeliverySink, ForwardRecord } from '../webhook/delivery.js';
import { serviceIdentity } from '../service/base-url.js';

/** What one submission got back from the service (or `unknown`: sent, no answer). */
export interface AnswerRecord {
  at: string;
  /** An outcome of the submit `--json` contract: accepted, rejected, not_found, unknown... */
  outcome: string;
  httpStatus: number | null;
  idContrato: string | null;
  erros: { codigo: string; msg: string }[];
  /** What happened, for people (the rejected reason included). */
  message: string | null;
}

export type FinalOutcome = 'approved' | 'denied' | 'cancelled';

/** The approval result of a contract: the first final one a delivery (or submit --wait) brought. */
export interface ResultRecord {
  idContrato: string;
  at: string;
  outcome: FinalOutcome;
  status: string | null;
  reason: string | null;
}

/** A claimed submission, with its answer and its contract's result once they are known. */
export interface SubmissionRecord {
  /** The claim's own id (a UUID), the key answers are recorded under. */
  ref: string;
  idProposta: string;
  /** The service the guard keys it on (`ClaimRequest.service`). */
  service: string;
  /** The base URL it was sent to, as the profile spelled it. */
  baseUrl: string;
  /** sha256 of the exact JSON sent: "the same submission". */
  bodyHash: string;
  file: string | null;
  profile: string;
  /** When the claim was recorded, just before the POST left. */
  sentAt: string;
  /** The run that sent it (null before runs were recorded). */
  run: string | null;
  answer: AnswerRecord | null;
  result: ResultRecord | null;
}

export interface ClaimRequest {
  idProposta: string;
  /**
   * The guard is per service: a proposal sent to the sandbox says nothing about homolog. The
   * base URL's identity (service/base-url.ts, serviceIdentity), or the profile's `service-id`.
   */
  service: string;
  /** Where the request goes, as the profile spells it (history shows it). */
  baseUrl: string;
  bodyHash: string;
  file: string | null;
  profile: string;
  at: string;
  /** --force: claim even when an earlier submission holds the proposal. */
  force: boolean;
  /** The run it is part of. */
  run?: string | null;
}

export type ClaimResult =
  /** Recorded (durably): the POST may leave. `overridden` is what --force went past. */
  | { kind: 'claimed'; ref: string; overridden: SubmissionRecord | null }
  /** Not recorded: `earlier` holds the proposal (see `holdsProposal`). */
  | { kind: 'held'; earlier: SubmissionRecord };

/**
 * The guard's rule (docs/cli-contract.md, "The guard"): a submission holds its proposal while
 * it has no answer (in flight, or the process died: unknown), its answer is `unknown`, or
 * it was accepted and no denied or cancelled result came back. A denied contract holds it
 * against the very same body (`bodyHash`, the one being claimed): running a finished batch
 * again must not make a second contract of an identical denied proposal; corrected data
 * may go. Rejected, not_found, invalid (and every answer that proves nothing was created)
 * free it. Engines apply this rule inside the claim's transaction; it is here as the one
 * statement of it (sql.ts spells it in SQL for both engines).
 */
export function holdsProposal(record: SubmissionRecord, bodyHash: string): boolean {
  if (record.answer === null) return true;
  if (record.answer.outcome === 'unknown') return true;
  if (record.answer.outcome !== 'accepted') return false;
  if (record.result?.outcome === 'denied') return record.bodyHash === bodyHash;
  return record.result === null || record.result.outcome === 'approved';
}

/**
 * The service of a base URL recorded before the guard keyed services (issue 22) or by the old
 * journal: its identity, or the text as written when it is no URL.
 */
export function recordedService(baseUrl: string): string {
  try {
    return serviceIdentity(baseUrl);
  } catch {
    return baseUrl;
  }
}

/** What the operator learned from the provider about a proposal left unknown (`econsig settle`). */
export interface SettleRequest {
  idProposta: string;
  service: string;
  /** The answer to record: `accepted` with the contract, or `skipped` (it never arrived). */
  answer: AnswerRecord;
}

/** What importing an old `journal.jsonl` did (import-journal.ts). */
export interface ImportReport {
  journal: string;
  renamedTo: string;
  lines: number;
  imported: number;
  /** Lines that were not JSON or not a journal entry (a crash mid-write, a hand edit). */
  skipped: number;
}

/** What recording the kept answers did: how many went into the store, how many lines stay in the file. */
export interface KeptAnswersReport {
  file: string;
  recorded: number;
  /** Lines for another store, or unreadable (a line cut by a crash): left in the file. */
  left: number;
}

/** What opening the store did that the operator should hear of, once (a line on stderr). */
export type StoreNotice =
  /** An old journal.jsonl was imported. */
  | { kind: 'journalImported'; report: ImportReport }
  /** The migration to service keys found proposals sent under several spellings of one service: now one. */
  | { kind: 'servicesMerged'; proposals: number; submissions: number }
  /** Answers a failing store could not take, kept aside by a batch (kept-answers.ts), now recorded. */
  | { kind: 'answersRecorded'; report: KeptAnswersReport };

export interface HistoryQuery {
  idProposta?: string;
  idContrato?: string;
  /** Matches the answer's outcome or the result's (`approved`, `denied`...); `unknown` also matches no answer. */
  outcome?: string;
  /** ISO timestamp: submissions sent at or after it. */
  since?: string;
  limit: number;
}

export interface HistoryPage {
  /** Newest first. */
  entries: SubmissionRecord[];
  /** How many more match beyond `limit`, counted up to `moreCap`. */
  more: number;
  /** `more` stopped counting here: there are at least this many. */
  moreCap: number;
  /** Rows that could not be read (a damaged column), skipped and described here. */
  unreadable: string[];
}

/** A delivery as the record keeps it (`econsig events`): what the receiver saw, and what became of it since. */
export interface StoredDelivery extends Omit<DeliveryRecord, 'payload' | 'headers'> {
  /** The record's own id of it: what `events` lists and `events show`/`resend` take. */
  id: number;
  /** The body as received; null once dropped (store.payload-retention, store forget). */
  payload: string | null;
  /** When the body was dropped; null while it is kept. */
  payloadDroppedAt: string | null;
  /** The headers as received, credentials and signatures redacted; null when none were kept. */
  headers: Record<string, string> | null;
  /** Copies of it that arrived after it was kept (same webhook-id or same body), each answered as a duplicate. */
  duplicates: number;
  /** The latest relay of it to an app (`watch --forward-to`), if any. */
  forward: ForwardRecord | null;
}

/** `econsig events`: which deliveries, newest first (or oldest first). */
export interface EventQuery {
  idContrato?: string;
  idProposta?: string;
  /** The delivery's outcome: approved, denied, cancelled or unknown. */
  outcome?: string;
  /** ISO timestamp: deliveries received at or after it. */
  since?: string;
  /** Oldest first instead (`events resend`: as they arrived). */
  oldestFirst?: boolean;
  /** Only deliveries past this one (its id) in the listing's order: the next page. */
  pastId?: number;
  limit: number;
}

export interface EventPage {
  /** Newest first. */
  events: StoredDelivery[];
  /** How many more match beyond `limit`, counted up to `moreCap`. */
  more: number;
  moreCap: number;
}

/** How many extra matches `history` counts before it says "at least": the count stays cheap at any size. */
export const MORE_CAP = 10_000;

/** A line of the retired journal.jsonl, as the import hands it over (already checked for shape). */
export type LegacyEntry =
  | { kind: 'submission'; ref: string; at: string; file: string | null; idProposta: string; service: string; bodyHash: string; profile: string; baseUrl: string }
  | { kind: 'answer'; ref: string; answer: AnswerRecord }
  | { kind: 'result'; result: ResultRecord }
  | { kind: 'delivery'; delivery: DeliveryRecord };

/** `store prune --before`: what went, by table (docs/privacy.md). */
export interface PruneReport {
  before: string;
  /** Deliveries received before it, body and all. */
  deliveries: number;
  /** Submissions sent before it that hold no proposal any more (rejected, not found...), with their answers. */
  submissions: number;
  /** Results before it that no kept submission names. */
  results: number;
}

/** Whose data `store forget` removes: a CPF (11 digits) or a proposal id. */
export type ForgetTarget = { kind: 'cpf'; cpf: string } | { kind: 'proposal'; idProposta: string };

export interface ForgetRequest {
  target: ForgetTarget;
  /** List what would go; change nothing, record nothing. */
  dryRun: boolean;
  at: string;
  /** Who asked (the system user), for the deletion record. */
  by: string | null;
}

/** A deletion record (table `deletions`): proof of a forget without the data it removed. */
export interface DeletionRecord {
  at: string;
  kind: ForgetTarget['kind'];
  /** scrypt of the identifier with the store's salt (record/forget.ts). */
  identifierHash: string;
  rows: number;
  by: string | null;
}

export interface ForgetReport {
  target: ForgetTarget;
  dryRun: boolean;
  /** The proposals and contracts found to be the person's; their ids stay (the guard needs them). */
  proposals: string[];
  contracts: string[];
  /** Rows that had a personal field cleared (or would have, with dryRun), by table. */
  rows: { submissions: number; answers: number; results: number; deliveries: number; runInputs: number };
  /** The record written (none with dryRun). */
  deletion: DeletionRecord | null;
  /** Earlier deletions of the same identifier, found by its hash. */
  earlier: DeletionRecord[];
}

/**
 * A run: one `submit` as a whole (docs/cli-contract.md, "Runs"). Its id is short and
 * typeable (`r-20261127-1700-a3f`, at most 32 characters of [A-Za-z0-9._:-]).
 */
export interface RunStart {
  id: string;
  startedAt: string;
  /** The command line, secrets redacted. */
  command: string;
  profile: string;
  baseUrl: string;
  service: string;
  /** The run's language: its reports speak it. */
  lang: string;
  by: RunBy;
  /** The process that runs it, and until when its lease holds (renewed while it lives). */
  pid: number;
  leaseUntil: string;
}

/** Who ran it: the system user and host, and the CI job when CI said so. */
export interface RunBy {
  user: string | null;
  host: string | null;
  ci: string | null;
}

/** One input of a run as it is recorded, once its fate in the run is known. */
export interface RunInput {
  file: string;
  /** A sheet's row. */
  row: number | null;
  idProposta: string | null;
  /**
   * What the run made of it without the service: `invalid`, `not_sent` (never sent:
   * interrupted, refused earlier), `skipped` (held by another submission); `sent` when
   * `ref` is its submission's: the answer and result are that submission's.
   */
  outcome: string;
  /** The submission that speaks for it: this run's claim, or the earlier one it reports (in flight in another run, the same body accepted). */
  ref: string | null;
  /** Why, when no submission says it (an invalid file's first problem). English. */
  reason: string | null;
}

export interface RunRecord extends RunStart {
  endedAt: string | null;
  /** The database's clock when it was read: a lease older than it has lapsed (the run died). */
  readAt: string;
}

/** One input with what its submission came to. */
export interface RunInputRecord extends RunInput {
  /** The outcome that counts: the submission's answer (`unknown` when none), else the input's own. */
  effective: string;
  idContrato: string | null;
  result: ResultRecord | null;
  erros: AnswerRecord['erros'];
  message: string | null;
  sentAt: string | null;
}

/** A run with how many inputs came to each outcome (effective outcome, and the result when accepted). */
export interface RunSummary {
  run: RunRecord;
  counts: Array<{ effective: string; result: FinalOutcome | null; n: number }>;
}

/** Part of a run's inputs: `pending`, accepted and its contract's result not in. */
export type RunInputsFilter = { kind: 'pending' };

export interface RunsQuery {
  since?: string;
  profile?: string;
  limit: number;
}

export interface FollowOptions {
  signal: AbortSignal;
  intervalMs?: number;
}

/** The receiver's part (DeliverySink: deliveries, whether they were shown, readiness) and the rest. */
export interface Store extends DeliverySink {
  /** Where the store is, for messages: a file path, or a URL without its password. */
  readonly location: string;
  /**
   * The guard and the claim, in one transaction: either the proposal is free (or `force`)
   * and the claim is durably recorded, or the submission that holds it is returned.
   * Any number of processes claiming the same proposal at once: exactly one gets `claimed`.
   */
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /** The answer to a claimed submission (once; a second answer replaces the first). */
  recordAnswer(ref: string, answer: AnswerRecord): Promise<void>;
  /**
   * The answer the operator learned (`econsig settle`), given to the newest submission of the
   * proposal at the service that is unknown (no answer, or `unknown`), in one transaction
   * with finding it; that submission, answered, or null when none is unknown.
   */
  settle(request: SettleRequest): Promise<SubmissionRecord | null>;
  /** A final result learnt by submit --wait (the first result of a contract wins). */
  recordResult(result: ResultRecord): Promise<void>;
  /**
   * A webhook delivery (DeliverySink): `stored`, or, when one with the same webhook-id or the
   * same body is already kept (a unique constraint, so also across processes), `duplicate` or
   * `unshown`. A final result in it is recorded as the contract's result in the same transaction.
   * A `duplicate` is counted on the kept delivery (StoredDelivery.duplicates).
   */
  recordDelivery: DeliverySink['recordDelivery'];
  /** Submissions matching `query`, newest first, with answers and results. */
  history(query: HistoryQuery): Promise<HistoryPage>;
  /** Deliveries matching `query`, newest first, whole (headers and body, while kept). */
  events(query: EventQuery): Promise<EventPage>;
  /** One delivery by its webhook-id or by the id `events` gives it; null when there is none. */
  event(key: string): Promise<StoredDelivery | null>;
  /** The recorded result of a contract, if any. */
  resultOf(idContrato: string): Promise<ResultRecord | null>;
  /**
   * Calls `onResult` for each result recorded (by any process) after this resolves, until
   * the signal aborts. Pair with `resultOf` for results that came before.
   */
  followResults(onResult: (result: ResultRecord) => void, options: FollowOptions): Promise<void>;
  /**
   * Drops the bodies of deliveries received before `before` (store.payload-retention): the
   * payload becomes null, `at` says when; ids, status, reason, verification and hashes
   * stay. Returns how many; costs one indexed read when there are none.
   */
  dropBodies(before: string, at: string): Promise<number>;
  /**
   * `store prune`: deletes what is older than `before` and no longer needed. Every
   * submission that holds a proposal (holdsProposal) stays, and so does its contract's result.
   */
  prune(before: string): Promise<PruneReport>;
  /**
   * `store forget`: clears every personal field of a person (delivery bodies and reasons,
   * file names, recorded messages and erros, results' reasons) in one transaction, and
   * writes a deletion record. Ids, outcomes and body hashes stay: the guard still holds.
   */
  forget(request: ForgetRequest): Promise<ForgetReport>;
  /** A run begins: recorded with its lease. False when its id is taken already (make another). */
  startRun(run: RunStart): Promise<boolean>;
  /** Inputs of a run, appended as the run learns their fate (in one write). */
  recordRunInputs(runId: string, inputs: readonly RunInput[]): Promise<void>;
  /** The run still lives: its lease runs until `leaseUntil`. */
  renewRun(runId: string, leaseUntil: string): Promise<void>;
  endRun(runId: string, endedAt: string): Promise<void>;
  /** Runs, newest first, each with its counts. */
  runs(query: RunsQuery): Promise<RunSummary[]>;
  /** A run by id, or `last` (the newest); null when there is none. */
  run(id: string): Promise<RunRecord | null>;
  /**
   * A run's inputs in the order they were recorded, with their submissions' answers and
   * results: all of them, or `only` those still waiting for their result.
   */
  runInputs(runId: string, only?: RunInputsFilter): Promise<RunInputRecord[]>;
  /**
   * How many inputs of a run came to each outcome (and result), and the inputs that need a
   * person (denied or cancelled, unknown, accepted and waiting since before `waitingSince`):
   * one pass over the run's inputs, whatever its size, then those rows alone.
   */
  runNeeds(runId: string, waitingSince: string): Promise<{ counts: RunSummary['counts']; needing: RunInputRecord[] }>;
  /** The submission of a claim, as it stands now. */
  submission(ref: string): Promise<SubmissionRecord | null>;
  /** Old journal lines, in file order, in one transaction; idempotent (a re-run adds nothing). */
  importLegacy(entries: readonly LegacyEntry[]): Promise<void>;
  /** Waits for pending writes, then closes. */
  close(): Promise<void>;
}
