/**
 * `submit`: send each valid submission, claimed in the store first, and turn every answer
 * into an outcome of the contract. Never a second contract by accident: the claim (the
 * guard and the record in one transaction, store.ts) is durable before the POST leaves,
 * and the answer (or "unknown") is recorded after.
 */
import { createHash } from 'node:crypto';
import { EconsigError, ExitCode } from '../errors.js';
import { exitCodeFor, type Outcome } from '../domain/outcome.js';
import type { Issue } from '../domain/normalize.js';
import {
  AbortedError,
  ConnectionError,
  ProposalNotFoundError,
  RateLimitedError,
  ServerError,
  ServiceError,
  TimeoutError,
  UnauthorizedError,
  UndocumentedAnswerError,
  ValidationRejectedError,
} from '../service/errors.js';
import type { ServiceClient } from '../service/client.js';
import { TokenEndpointUnavailableError, TokenRefusedError } from '../service/oauth.js';
import type { AnswerRecord, RunInput, Store, SubmissionRecord } from '../record/record.js';
import { isLive } from './runs.js';
import type { AnswerKeeper } from '../record/kept-answers.js';
import type { ResultWaiter } from './result-waiter.js';
import { type Message, type Value, localTime, msg, personal, say } from '../i18n/index.js';
import { StorageError } from '../settings/home.js';
import type { ApprovalResult, SubmitResult } from '../domain/report.js';

/** An answer the store refused that could not be kept aside either: the operator records it (`econsig settle`). */
export interface UnrecordedAnswer {
  idProposta: string;
  outcome: string;
  idContrato: string | null;
}

/** Where the answers the store refused went (record/kept-answers.ts). */
export interface AnswersAside {
  /** The file they were kept in; null without a keeper. */
  file: string | null;
  kept: number;
  unrecorded: UnrecordedAnswer[];
}

/** What records an unrecorded answer: its contract, or that it created nothing; null when it stays unknown either way. */
function settleCommand(answer: UnrecordedAnswer): string | null {
  if (answer.outcome === 'unknown') return null;
  if (answer.outcome === 'accepted' && answer.idContrato) return `econsig settle ${answer.idProposta} --contract ${answer.idContrato}`;
  return `econsig settle ${answer.idProposta} --not-sent`;
}

/** What to do after a store failure: where the refused answers went, or the commands that record them. */
function incompleteHint(failure: StorageError, aside: AnswersAside): Message {
  const hint = failure.hintText ?? '';
  const commands = aside.unrecorded.map(settleCommand).filter((c): c is string => c !== null);
  if (commands.length > 0) {
    return msg(commands.length === 1 ? 'run.answersUnrecordedOne' : 'run.answersUnrecorded', { n: commands.length, file: aside.file ?? '—', commands: { items: commands, separator: '\n    ' }, hint });
  }
  if (aside.kept > 0 && aside.file !== null) return msg(aside.kept === 1 ? 'run.answersKeptOne' : 'run.answersKept', { n: aside.kept, file: aside.file, hint });
  return msg('run.storeIncompleteHint', { hint });
}

/**
 * The store failed during the batch (disk full, permissions): some answers are not in it,
 * or some files were not sent because their claim could not be recorded. The results are
 * still the truth of the run: the caller shows them in full, then exits 74. The answers the
 * store refused were kept aside for the next run to record, or are named with the command
 * that records each.
 */
export class StoreIncompleteError extends EconsigError {
  constructor(
    readonly results: SubmitResult[],
    readonly failure: StorageError,
    readonly aside: AnswersAside = { file: null, kept: 0, unrecorded: [] },
  ) {
    super(msg('run.storeIncomplete', { cause: failure.text ?? failure.message }), {
      exitCode: ExitCode.storage,
      hint: incompleteHint(failure, aside),
      cause: failure,
    });
    this.name = 'StoreIncompleteError';
  }
}

/** One submission ready to go: validated and normalised. */
export interface SubmitItem {
  file: string;
  /** A spreadsheet row (src/sheets): its number as the sheet shows it. */
  row?: number;
  body: Record<string, unknown> & { idProposta: string };
  warnings: Issue[];
}

export interface BatchProgress {
  onSending?(item: SubmitItem): void;
  /** The proposal is in flight in another live run: its answer is awaited from the store. */
  onHeldElsewhere?(item: SubmitItem, run: string): void;
  onAnswer?(result: SubmitResult): void;
  onWaiting?(result: SubmitResult): void;
  onResult?(result: SubmitResult): void;
}

export interface BatchOptions {
  client: ServiceClient;
  store: Store;
  profile: string;
  baseUrl: string;
  /** The service the guard keys each claim on (settings/settings.ts, guardService). */
  service: string;
  concurrency: number;
  force: boolean;
  /** What to do when the service cannot be reached (the sandbox's own hint, for one). */
  unreachableHint?: Message;
  /** What to do after a 401, naming where the token came from (flows/auth-session.ts). */
  unauthorizedHint?: Message;
  /** --wait: where results are learnt, and how long to wait for each. */
  wait?: { waiter: ResultWaiter; timeoutMs: number } | undefined;
  signal: AbortSignal;
  now: () => Date;
  progress?: BatchProgress;
  /** Where answers go that the store refuses (record/kept-answers.ts); without one they are only named. */
  keeper?: AnswerKeeper | undefined;
  /** The run this batch is (flows/runs.ts): each claim names it, each item is recorded in it as its fate is known. */
  run?: RunInputs | undefined;
}

/** Where a run records its inputs (flows/runs.ts, RunLog). */
export interface RunInputs {
  readonly id: string;
  add(input: RunInput): void;
}

/**
 * sha256 of the exact JSON sent: the store's way to know "the same submission". Takes
 * the body, or the JSON text already made of it (the one that is sent).
 */
export function bodyHash(body: object | string): string {
  return createHash('sha256').update(typeof body === 'string' ? body : JSON.stringify(body)).digest('hex');
}

function base(item: SubmitItem): Omit<SubmitResult, 'outcome' | 'message' | 'exitCode'> {
  return {
    file: item.file,
    ...(item.row !== undefined ? { row: item.row } : {}),
    httpStatus: null,
    idContrato: null,
    erros: [],
    result: null,
    warnings: item.warnings,
    errors: [],
    attempts: 0,
    idProposta: item.body.idProposta,
  };
}

function withOutcome(
  partial: Omit<SubmitResult, 'outcome' | 'message' | 'exitCode'>,
  outcome: Outcome,
  message: Message,
  hint?: Message,
): SubmitResult {
  return { ...partial, outcome, message, exitCode: exitCodeFor(outcome), ...(hint ? { hint } : {}) };
}

/** Service errors named in a result's message; the rest are in its `erros`. */
const MESSAGE_ERROS = 3;

/** The first service errors, `codigo: msg`, as a result's message names them (a 422 may list thousands, issue 14). */
function errosNamed(erros: ServiceError['erros']): Value {
  if (erros.length === 0) return '—';
  const items: Value[] = erros.slice(0, MESSAGE_ERROS).map((e) => `${e.codigo}: ${e.msg.length > 200 ? `${e.msg.slice(0, 200)}…` : e.msg}`);
  if (erros.length > MESSAGE_ERROS) items.push(msg('run.andMore', { n: erros.length - MESSAGE_ERROS }));
  return { items, separator: '; ' };
}

/** Why a request got no answer: the limit a timeout reached, or the system's code. */
const transportReason = (error: TimeoutError | ConnectionError): Value =>
  error instanceof TimeoutError ? msg(`run.timeout_${error.phase}`, { ms: error.timeoutMs }) : (error.code ?? error.name);

/** A result whose contract may exist: what happened, and how to check before sending again. */
const mayExist = (partial: Omit<SubmitResult, 'outcome' | 'message' | 'exitCode'>, what: Message, id: string): SubmitResult =>
  withOutcome(partial, 'unknown', msg('run.mayExist', { what, id }), msg('run.hintCheck', { id }));

/** Turn a failure of the client into an outcome: the one place that reads service errors. */
function outcomeOfError(
  item: SubmitItem,
  error: unknown,
  profile: string,
  unreachableHint?: Message,
  unauthorizedHint?: Message,
): SubmitResult {
  const partial = base(item);
  const id = item.body.idProposta;
  if (error instanceof ServiceError) {
    partial.httpStatus = error.status;
    partial.erros = error.erros;
    partial.attempts = error.attempts;
    if (error instanceof UnauthorizedError) {
      return withOutcome(partial, 'unauthorized', msg('run.unauthorized'), unauthorizedHint ?? msg('run.hintLogInAgain', { profile }));
    }
    if (error instanceof ProposalNotFoundError) {
      return withOutcome(partial, 'not_found', msg('run.notFound', { id, codes: errosNamed(error.erros) }), msg('run.hintNotFound'));
    }
    if (error instanceof RateLimitedError) {
      return withOutcome(partial, 'rate_limited', msg('run.rateLimited', { n: error.attempts }), msg('run.hintRateLimited'));
    }
    if (error instanceof ValidationRejectedError) {
      return withOutcome(partial, 'rejected', msg('run.rejected', { status: error.status, codes: errosNamed(error.erros) }), msg('run.hintRejected'));
    }
    if (error instanceof ServerError) return mayExist(partial, msg('run.serverError', { status: error.status }), id);
    if (error instanceof UndocumentedAnswerError) {
      const undocumented = msg('run.undocumented', { status: error.status, snippet: reasonOf(error.bodySnippet) });
      const may = error.status >= 500 || (error.status >= 200 && error.status < 300);
      return may ? mayExist(partial, undocumented, id) : withOutcome(partial, 'unavailable', undocumented, msg('run.hintBaseUrl'));
    }
    return withOutcome(partial, 'rejected', msg('run.rejectedOther', { status: error.status, message: personal('text', error.message) }));
  }
  if (error instanceof AbortedError) {
    partial.attempts = error.attempts;
    return error.sent
      ? mayExist(partial, msg('run.interruptedInFlight'), id)
      : withOutcome(partial, 'skipped', msg('run.interruptedNotSent'), msg('run.hintInterrupted'));
  }
  // A token that could not be renewed mid-batch: the POST never left.
  if (error instanceof TokenRefusedError) {
    const refused = error.errorDescription ? `${error.error}: ${error.errorDescription}` : error.error;
    return withOutcome(partial, 'unauthorized', msg('run.tokenRefused', { error: refused, status: error.status }), msg('run.hintClientCredentials', { profile }));
  }
  if (error instanceof TokenEndpointUnavailableError) {
    return withOutcome(partial, 'unavailable', msg('run.tokenUnavailable', { reason: error.message }), msg('run.hintTokenUrl'));
  }
  if (error instanceof TimeoutError || error instanceof ConnectionError) {
    partial.attempts = error.attempts;
    if (!error.sent) return withOutcome(partial, 'unavailable', msg('run.unavailable', { reason: transportReason(error) }), unreachableHint ?? msg('run.hintUnreachable'));
    return mayExist(partial, msg('run.noAnswer', { reason: transportReason(error) }), id);
  }
  throw error;
}

/**
 * A proposal held by an earlier submission (docs/cli-contract.md, "The guard"): the very same
 * body already accepted is reported from the store with its contract (exit 0); anything
 * else is skipped (exit 5), naming the earlier submission.
 */
function heldResult(item: SubmitItem, hash: string, earlier: SubmissionRecord): SubmitResult {
  const partial = base(item);
  const id = item.body.idProposta;
  const when = localTime(earlier.sentAt);
  const contract = earlier.answer?.idContrato ?? null;
  partial.idContrato = contract;
  if (earlier.answer === null) {
    return withOutcome(partial, 'skipped', msg('run.heldUnanswered', { id, when }), msg('run.hintCheck', { id }));
  }
  if (earlier.answer.outcome === 'unknown') {
    return withOutcome(partial, 'skipped', msg('run.heldUnknown', { id, when }), msg('run.hintCheck', { id }));
  }
  const approved = earlier.result?.outcome === 'approved';
  if (earlier.bodyHash === hash && earlier.result?.outcome === 'denied') {
    // The same body was denied: sent again it would be a second contract, denied the same way.
    partial.httpStatus = earlier.answer.httpStatus;
    partial.result = { outcome: 'denied', status: earlier.result.status, reason: earlier.result.reason, source: 'store' };
    return withOutcome(partial, 'denied', msg('run.alreadyDenied', { id: contract ?? '', when, reason: reasonOf(earlier.result.reason) }), msg('run.hintDeniedAgain'));
  }
  if (earlier.bodyHash === hash) {
    partial.httpStatus = earlier.answer.httpStatus;
    if (approved && earlier.result) {
      partial.result = { outcome: 'approved', status: earlier.result.status, reason: earlier.result.reason, source: 'store' };
      return withOutcome(partial, 'approved', msg('run.alreadyApproved', { id: contract ?? '', when }));
    }
    return withOutcome(partial, 'accepted', msg('run.alreadyAccepted', { id: contract ?? '', when }));
  }
  return withOutcome(partial, 'skipped', msg(approved ? 'run.heldApproved' : 'run.heldAccepted', { id, contract: contract ?? '', when }), msg('run.hintOneContract', { id }));
}

type Prepared =
  /** Held by an earlier submission: `earlier` speaks for the item when the result reports it (or it is unknown). */
  | { kind: 'settled'; result: SubmitResult; earlier: SubmissionRecord | null }
  | { kind: 'ready'; ref: string; payload: string; overridden: SubmissionRecord | null };

/** Answers of a claim whose request created nothing: the proposal is free again. */
const NOTHING_SENT: readonly string[] = ['skipped', 'unauthorized', 'unavailable', 'rate_limited'];

/** How often a proposal in flight in another live run is looked at again. */
const IN_FLIGHT_POLL_MS = 100;

/**
 * A proposal claimed by another run that still lives (its lease renewed) and not answered
 * yet: its answer is awaited from the store, then reported as this item's (issue 26: the
 * second of two runs started together does not call the first's claims a failure). The
 * submission as it stands once answered, once its run is gone (then it is unknown), or on abort.
 */
async function answeredElsewhere(earlier: SubmissionRecord, options: BatchOptions): Promise<SubmissionRecord> {
  let latest = earlier;
  while (latest.answer === null && latest.run !== null && !options.signal.aborted) {
    const run = await options.store.run(latest.run);
    if (!run || !isLive(run)) break;
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
    latest = (await options.store.submission(latest.ref)) ?? latest;
  }
  return latest;
}

/** The item's result from the other run's answer, said as in flight in that run. */
function inFlightResult(item: SubmitItem, hash: string, answered: SubmissionRecord): SubmitResult {
  const answer = answered.answer as AnswerRecord;
  const run = answered.run ?? '';
  if (answer.outcome === 'accepted') {
    const held = heldResult(item, hash, answered);
    return { ...held, message: msg('runs.inFlight', { run, message: held.message }) };
  }
  const partial = base(item);
  partial.httpStatus = answer.httpStatus;
  partial.erros = answer.erros;
  partial.idContrato = answer.idContrato;
  return withOutcome(partial, answer.outcome as Outcome, msg('runs.inFlight', { run, message: answer.message ?? answer.outcome }));
}

/** The guard and the claim, in one store transaction: what must hold before a POST may leave. */
async function prepare(item: SubmitItem, options: BatchOptions): Promise<Prepared> {
  // Serialised once: hashed for the store, and sent as is.
  const payload = JSON.stringify(item.body);
  const hash = bodyHash(payload);
  const claim = await options.store.claim({
    idProposta: item.body.idProposta,
    service: options.service,
    baseUrl: options.baseUrl,
    bodyHash: hash,
    file: item.file,
    profile: options.profile,
    at: options.now().toISOString(),
    force: options.force,
    run: options.run?.id ?? null,
  });
  if (claim.kind === 'claimed') return { kind: 'ready', ref: claim.ref, payload, overridden: claim.overridden };
  if (claim.earlier.answer !== null || claim.earlier.run === null) return settledBy(item, hash, claim.earlier);
  options.progress?.onHeldElsewhere?.(item, claim.earlier.run);
  const answered = await answeredElsewhere(claim.earlier, options);
  if (answered.answer === null) return settledBy(item, hash, answered);
  // The other run's answer says nothing was sent (interrupted, a 401, unreachable, 429): this run claims it.
  if (NOTHING_SENT.includes(answered.answer.outcome)) return prepare(item, options);
  return { kind: 'settled', result: inFlightResult(item, hash, answered), earlier: answered };
}

/** Held by an earlier submission: reported from it; it speaks for the item unless it holds other data (a skip). */
function settledBy(item: SubmitItem, hash: string, earlier: SubmissionRecord): Prepared {
  const result = heldResult(item, hash, earlier);
  const unknown = earlier.answer === null || earlier.answer.outcome === 'unknown';
  return { kind: 'settled', result, earlier: result.outcome !== 'skipped' || unknown ? earlier : null };
}

/** The answer of a claim whose POST never left: `skipped`, which frees its proposal for the next run. */
const released = (options: BatchOptions): AnswerRecord => ({
  at: options.now().toISOString(),
  outcome: 'skipped',
  httpStatus: null,
  idContrato: null,
  erros: [],
  message: say('en', 'run.claimReleased'),
});

const interrupted = (item: SubmitItem): SubmitResult => withOutcome(base(item), 'skipped', msg('run.interruptedNotSent'), msg('run.hintInterrupted'));

/** What the store records of a result. The message is English whatever the run's language (history --json's `message`). */
const answerOf = (result: SubmitResult, options: BatchOptions): AnswerRecord => ({
  at: options.now().toISOString(),
  outcome: result.outcome,
  httpStatus: result.httpStatus,
  idContrato: result.idContrato,
  erros: result.erros,
  message: say('en', result.message),
});

/** --force went past an earlier submission: say so in the result. */
function forced(result: SubmitResult, overridden: SubmissionRecord | null): SubmitResult {
  if (!overridden) return result;
  const id = overridden.answer?.idContrato;
  const earlier = id ? msg('run.forcedContract', { id }) : msg('run.forcedSubmission', { when: localTime(overridden.sentAt) });
  return { ...result, message: msg('run.forced', { message: result.message, earlier }) };
}

/** POST one prepared submission and turn the answer into a result. */
async function send(item: SubmitItem, payload: string, options: BatchOptions): Promise<SubmitResult> {
  options.progress?.onSending?.(item);
  try {
    // The POST is not aborted by Ctrl-C: an answer in flight is worth waiting for, and
    // each exchange is bounded by the request timeout.
    const accepted = await options.client.submit(payload, { stopRetries: options.signal });
    const partial = base(item);
    partial.httpStatus = accepted.status;
    partial.idContrato = accepted.idContrato;
    partial.attempts = accepted.attempts;
    return withOutcome(partial, 'accepted', msg('run.accepted', { id: accepted.idContrato }));
  } catch (error) {
    return outcomeOfError(item, error, options.profile, options.unreachableHint, options.unauthorizedHint);
  }
}

async function waitForResult(result: SubmitResult, options: BatchOptions): Promise<SubmitResult> {
  const wait = options.wait;
  if (!wait || result.outcome !== 'accepted' || !result.idContrato) return result;
  options.progress?.onWaiting?.(result);
  const found = await wait.waiter.waitFor(result.idContrato, wait.timeoutMs, options.signal);
  if (!found) {
    const seconds = Math.round(wait.timeoutMs / 1000);
    return options.signal.aborted
      ? { ...result, message: msg('run.stoppedWaiting', { message: result.message }), hint: msg('run.hintStoppedWaiting') }
      : {
          ...result,
          outcome: 'timeout',
          exitCode: exitCodeFor('timeout'),
          message: msg('run.noResultWithin', { message: result.message, seconds }),
          hint: msg('run.hintTimeout', { id: result.idContrato }),
        };
  }
  const approval: ApprovalResult = { outcome: found.outcome, status: found.status, reason: found.reason, source: found.source };
  if (found.source === 'live') {
    await options.store.recordResult({ idContrato: found.idContrato, at: options.now().toISOString(), outcome: found.outcome, status: found.status, reason: found.reason });
  }
  const outcome: Outcome = found.outcome === 'approved' ? 'approved' : 'denied';
  const key = found.outcome === 'approved' ? 'run.resultApproved' : found.outcome === 'denied' ? 'run.resultDenied' : 'run.resultCancelled';
  const message = msg(key, { id: result.idContrato, reason: reasonOf(found.reason) });
  return { ...result, outcome, exitCode: exitCodeFor(outcome), result: approval, message };
}

/** A result's reason after a colon, as the service wrote it: free text that may quote a person's data. */
const reasonOf = (reason: string | null): Value => (reason ? { items: [': ', personal('text', reason)], separator: '' } : '');

/** A file, or a sheet's row. */
const where = (item: { file: string; row?: number }): Value => (item.row === undefined ? item.file : msg('sheet.fileRow', { file: item.file, row: item.row }));

/** The first of a proposal listed more than once: where it is, and the hash of its body. */
interface First {
  file: string;
  row?: number;
  hash: string;
}

/** The settlement of a later copy of a proposal already in this batch. */
function copyOf(item: SubmitItem, first: First, settled: SubmitResult): SubmitResult {
  if (bodyHash(item.body) === first.hash) {
    return { ...settled, file: item.file, row: item.row, warnings: item.warnings, message: msg('run.sameAs', { file: where(first), message: settled.message }) };
  }
  const partial = base(item);
  partial.idContrato = settled.idContrato;
  return withOutcome(partial, 'skipped', msg('run.alsoIn', { id: item.body.idProposta, file: where(first) }), msg(item.row === undefined ? 'run.hintAlsoIn' : 'run.hintAlsoInRow'));
}

/** Items to send: a list, or as they are read (a sheet of a million rows, one row at a time). */
export type BatchItems = Iterable<SubmitItem> | AsyncIterable<SubmitItem>;

export interface StreamOptions extends BatchOptions {
  /**
   * The proposals listed more than once among the items (run-submit.ts's plan): only for
   * them is the first's result kept, to settle its copies. The items themselves are not kept.
   */
  repeated: ReadonlySet<string>;
  /** Each item's final result, once, in any order: `position` is its place among the items. */
  onSettled(position: number, result: SubmitResult): void;
}

/** Every item's result, in the order of `items` (sendItems over a list). */
export async function submitBatch(items: readonly SubmitItem[], options: BatchOptions): Promise<SubmitResult[]> {
  const results: SubmitResult[] = new Array(items.length);
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const item of items) (seen.has(item.body.idProposta) ? repeated : seen).add(item.body.idProposta);
  try {
    await sendItems(items, { ...options, repeated, onSettled: (position, result) => void (results[position] = result) });
  } catch (error) {
    if (error instanceof StoreIncompleteError) throw new StoreIncompleteError(results, error.failure, error.aside);
    throw error;
  }
  return results;
}

/**
 * Send every item with at most `concurrency` in flight, in input order of start; wait for
 * each result with a waiter, without holding a slot. Items are taken from `items` only as a
 * slot frees, so a sheet is read as fast as it is sent and nothing is held but what is in
 * flight (and the first result of a proposal listed twice). On abort, or after a 401,
 * nothing new is sent; what is in flight finishes and is recorded, and every item not taken
 * is still settled (skipped). When the store fails, nothing new is sent either (a claim that
 * cannot be recorded is never sent): what is in flight finishes, and StoreIncompleteError
 * says so once every result is settled.
 */
export async function sendItems(items: BatchItems, options: StreamOptions): Promise<void> {
  const source: Iterator<SubmitItem> | AsyncIterator<SubmitItem> = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  // One proposal listed twice in a batch is sent once, whatever the concurrency: the later
  // copies are settled from the first (deterministic, in input order), as soon as it is.
  const firsts = new Map<string, First & { position: number; settled?: SubmitResult; copies: Array<{ position: number; item: SubmitItem }> }>();
  /** The item's fate in the run: the submission that speaks for it, or what the run made of it alone. */
  const record = (item: SubmitItem, outcome: 'sent' | 'skipped' | 'not_sent', ref: string | null = null, reason: Message | null = null): void =>
    options.run?.add({ file: item.file, row: item.row ?? null, idProposta: item.body.idProposta, outcome, ref, reason: reason && say('en', reason) });
  const settleCopy = (position: number, item: SubmitItem, first: First, settled: SubmitResult): void => {
    const result = copyOf(item, first, settled);
    // A later copy of a proposal in this run: sent once, under its first input.
    record(item, 'skipped', null, result.message);
    options.onSettled(position, result);
    options.progress?.onAnswer?.(result);
  };
  const settle = (position: number, item: SubmitItem, result: SubmitResult): void => {
    options.onSettled(position, result);
    const first = options.repeated.has(item.body.idProposta) ? firsts.get(item.body.idProposta) : undefined;
    if (first?.position !== position) return;
    first.settled = result;
    for (const copy of first.copies.splice(0)) settleCopy(copy.position, copy.item, first, result);
  };
  // Taken one at a time, in input order, however many workers ask at once.
  let taken = 0;
  let exhausted = false;
  const takeNow = async (): Promise<{ position: number; item: SubmitItem } | undefined> => {
    while (!exhausted) {
      const step = await source.next();
      if (step.done) {
        exhausted = true;
        break;
      }
      const position = taken++;
      const item = step.value;
      const id = item.body.idProposta;
      if (!options.repeated.has(id)) return { position, item };
      const first = firsts.get(id);
      if (first === undefined) {
        firsts.set(id, { file: item.file, ...(item.row !== undefined ? { row: item.row } : {}), hash: bodyHash(item.body), position, copies: [] });
        return { position, item };
      }
      if (first.settled) settleCopy(position, item, first, first.settled);
      else first.copies.push({ position, item });
    }
    return undefined;
  };
  let queue: Promise<unknown> = Promise.resolve();
  const take = (): Promise<{ position: number; item: SubmitItem } | undefined> => {
    const next = queue.then(takeNow);
    queue = next.catch(() => undefined);
    return next;
  };
  // Answers are not awaited one by one; all of them are before this returns. The claim had
  // to be durable before the POST; the answer need not hold up the next send: lost in a
  // crash, the claim reads as unanswered, which the guard treats as "may exist". Each is
  // handled at once, so a failed write is never an unhandled rejection; an answer the store
  // refuses is kept aside (options.keeper) or named for the operator to record. A write
  // leaves the set once done: a run of a million rows holds only those in flight.
  const writes = new Set<Promise<void>>();
  let writeError: unknown;
  const aside: AnswersAside = { file: options.keeper?.file ?? null, kept: 0, unrecorded: [] };
  const recordAnswer = (ref: string, item: SubmitItem, answer: AnswerRecord): void => {
    const refused = (error: unknown): void => {
      writeError ??= error;
      if (!(error instanceof StorageError)) return;
      try {
        if (!options.keeper) throw error;
        options.keeper.keep(ref, item.body.idProposta, answer);
        aside.kept++;
      } catch {
        aside.unrecorded.push({ idProposta: item.body.idProposta, outcome: answer.outcome, idContrato: answer.idContrato });
      }
    };
    const pending: Promise<void> = options.store
      .recordAnswer(ref, answer)
      .catch(refused)
      .finally(() => writes.delete(pending));
    writes.add(pending);
  };
  // A 401 means the token is wrong for every file: nothing more is sent (issue 14). So does a
  // service that cannot be reached once the retries are spent: the next file would wait the same.
  let refused: SubmitResult | undefined;
  let unreachable: SubmitResult | undefined;
  const stopped = (): boolean => options.signal.aborted || writeError !== undefined || refused !== undefined || unreachable !== undefined;
  /** An item not sent because the batch stopped: interrupted, refused (401), unreachable, or the store failed. */
  const notSent = (item: SubmitItem): SubmitResult => {
    if (options.signal.aborted) return interrupted(item);
    if (refused) return withOutcome(base(item), 'skipped', msg('run.refusedEarlier', { file: where(refused) }));
    if (unreachable) return withOutcome(base(item), 'skipped', msg('run.unreachableEarlier', { file: where(unreachable) }));
    return withOutcome(base(item), 'skipped', msg('run.storeFailedEarlier'));
  };
  // --wait: a result is awaited outside the worker, so a slot is free for the next send as
  // soon as the 202 is in; the batch takes about the send time plus one result's delay.
  const waits = new Set<Promise<void>>();
  let waitError: unknown;
  const awaitResult = (position: number, item: SubmitItem, accepted: SubmitResult, started: number): void => {
    const waiting: Promise<void> = waitForResult(accepted, options)
      .then(
        (found) => {
          const final = { ...found, elapsedMs: options.now().getTime() - started };
          settle(position, item, final);
          options.progress?.onResult?.(final);
        },
        (error: unknown) => {
          if (error instanceof StorageError) writeError ??= error;
          else waitError ??= error;
          settle(position, item, accepted);
        },
      )
      .finally(() => waits.delete(waiting));
    waits.add(waiting);
  };
  // Each worker claims its proposal right before sending it: the claims of the workers that
  // start together fall into one commit of the store (it groups the writes of one turn).
  const worker = async (): Promise<void> => {
    while (!stopped()) {
      const next = await take();
      if (next === undefined) return;
      const { position, item } = next;
      if (stopped()) {
        // Taken as the batch stopped: not sent, not claimed.
        const result = notSent(item);
        record(item, 'not_sent', null, result.message);
        settle(position, item, result);
        options.progress?.onAnswer?.(result);
        return;
      }
      const started = options.now().getTime();
      let ready: Prepared;
      try {
        ready = await prepare(item, options);
      } catch (error) {
        if (!(error instanceof StorageError)) throw error;
        writeError ??= error;
        const result = withOutcome(base(item), 'skipped', msg('run.claimNotRecorded', { cause: error.text ?? error.message }), error.hintText);
        record(item, 'not_sent', null, result.message);
        settle(position, item, result);
        continue;
      }
      if (ready.kind === 'ready') record(item, 'sent', ready.ref);
      else if (ready.earlier) record(item, 'sent', ready.earlier.ref);
      else record(item, 'skipped', null, ready.result.message);
      let result: SubmitResult;
      if (ready.kind === 'settled') {
        result = ready.result;
      } else if (options.signal.aborted) {
        // Interrupted while its claim was being recorded: not sent, and the claim freed.
        recordAnswer(ready.ref, item, released(options));
        result = interrupted(item);
      } else {
        result = { ...forced(await send(item, ready.payload, options), ready.overridden), elapsedMs: options.now().getTime() - started };
        recordAnswer(ready.ref, item, answerOf(result, options));
        if (result.outcome === 'unauthorized') refused ??= result;
        if (result.outcome === 'unavailable') unreachable ??= result;
      }
      options.progress?.onAnswer?.(result);
      if (options.wait && result.outcome === 'accepted' && !options.signal.aborted) awaitResult(position, item, result, started);
      else settle(position, item, result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // Interrupted, refused (401), unreachable or the store failed: what was never taken is not
  // sent (and not recorded), yet every file gets its line (issue 14), those never sent included.
  for (let next = await take(); next !== undefined; next = await take()) {
    const result = notSent(next.item);
    record(next.item, 'not_sent', null, result.message);
    settle(next.position, next.item, result);
    options.progress?.onAnswer?.(result);
  }
  await Promise.all([...waits]);
  if (waitError !== undefined) throw waitError;
  await Promise.all([...writes]);
  if (writeError !== undefined) {
    const failure = writeError instanceof StorageError ? writeError : new StorageError(options.store.location, msg('store.cannotWrite'), undefined, msg('store.hintOther', { location: options.store.location }), writeError);
    throw new StoreIncompleteError([], failure, aside);
  }
}
