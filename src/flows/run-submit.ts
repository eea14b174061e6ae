/**
 * The submit use-case end to end, free of terminal I/O: validated reports in, results out
 * (in input order, invalid files included). `withRecord` opens the store and the result
 * waiter (before any POST) and closes them; `runSubmit` sends with them through an HTTP
 * client of its own, which it closes however it ends.
 */
import { type Message, msg, say } from '../i18n/index.js';
import { AuthError, ExitCode, UsageError } from '../errors.js';
import { type Outcome, exitCodeFor, firstFailure } from '../domain/outcome.js';
import { assertSafeTransport, createServiceClient, describeRequest, type RequestDescription, type RetryInfo } from '../service/client.js';
import { InsecureTransportError, InvalidBaseUrlError, InvalidTokenError } from '../service/errors.js';
import { openStore } from '../record/open.js';
import type { RunInput, Store, StoreNotice } from '../record/record.js';
import type { AnswerKeeper } from '../record/kept-answers.js';
import { storeId } from '../settings/home.js';
import { type ListenerPlace, type ResultWaiter, startResultWaiter } from './result-waiter.js';
import { type BatchProgress, type RunInputs, StoreIncompleteError, type SubmitItem, sendItems } from './submit-batch.js';
import type { TokenSource } from '../service/token-source.js';
import type { TlsConnectOptions } from '../settings/tls-files.js';
import type { SubmitResult, FileReport } from '../domain/report.js';
import type { SheetFormat } from '../sheets/kind.js';

export interface RecordOptions {
  home: string;
  /** The team store (postgres://); undefined: SQLite in `home`. */
  databaseUrl?: string | undefined;
  /** Told what opening the store did that the operator should hear of (record/open.ts). */
  onNotice?: (notice: StoreNotice) => void;
  /** store.payload-retention: older delivery bodies are dropped as the store opens. */
  payloadRetentionMs?: number | undefined;
  /** --wait: where results are learnt; `listen: false` binds no port, results come from the (team) store alone. */
  wait?: { listener: ListenerPlace; listen?: boolean } | undefined;
}

/**
 * Open the store and, with `wait`, the result waiter (listening before any POST), hand them
 * to `use`, and close both however it ends.
 */
export async function withRecord<T>(options: RecordOptions, use: (store: Store, waiter: ResultWaiter | undefined) => Promise<T>): Promise<T> {
  const store = await openStore({ home: options.home, databaseUrl: options.databaseUrl, payloadRetentionMs: options.payloadRetentionMs, onNotice: options.onNotice });
  let waiter: ResultWaiter | undefined;
  try {
    if (options.wait) waiter = await startResultWaiter({ store, storeId: await storeId(options.home, store.location), ...options.wait });
    return await use(store, waiter);
  } finally {
    await waiter?.close();
    await store.close();
  }
}

export interface RunSubmitOptions {
  /** The record the guard claims in; the caller's to open and close. */
  store: Store;
  /** --wait: the result waiter (the caller's to open and close), and how long to wait for each result. */
  wait?: { waiter: ResultWaiter; timeoutMs: number } | undefined;
  profile: string;
  baseUrl: string;
  /** The service the guard keys each claim on (settings/settings.ts, guardService). */
  service: string;
  /** A fixed token; or `tokens` (OAuth2 client credentials), which wins. */
  token?: string;
  tokens?: TokenSource;
  /** Client certificate and CA for undici's `connect`. */
  tls?: TlsConnectOptions;
  requestTimeoutMs: number;
  concurrency: number;
  force: boolean;
  unreachableHint?: Message;
  unauthorizedHint?: Message;
  signal: AbortSignal;
  now?: () => Date;
  onRetry?: (info: RetryInfo) => void;
  progress?: BatchProgress;
  /** Where answers go that the store refuses (record/kept-answers.ts). */
  keeper?: AnswerKeeper;
  /** The run this is (flows/runs.ts): every input recorded in it as its fate is known. */
  run?: RunInputs;
}


/** A file that was not sent because it did not validate (or could not be read). */
export function invalidResult(report: FileReport): SubmitResult {
  const unreadable = report.exitCode === ExitCode.usage;
  return {
    file: report.file,
    ...(report.row !== undefined ? { row: report.row } : {}),
    outcome: unreadable ? 'unreadable' : 'invalid',
    httpStatus: null,
    idContrato: null,
    erros: [],
    result: null,
    message: msg(unreadable ? 'run.unusableNotSent' : 'run.invalidSubmission'),
    exitCode: exitCodeFor(unreadable ? 'unreadable' : 'invalid'),
    warnings: report.warnings,
    errors: report.errors,
    attempts: 0,
    // An invalid file still names its proposal when it has one (issue 24).
    idProposta: report.idProposta ?? null,
  };
}

/** An invalid (or unreadable) file or row as its run records it: its first problem, in English (the record's language). */
export function invalidInput(report: FileReport): RunInput {
  const first = report.errors[0];
  const reason = first ? `${first.path ? `${first.path}: ` : ''}${say('en', first.message)}` : null;
  return { file: report.file, row: report.row ?? null, idProposta: null, outcome: 'invalid', ref: null, reason };
}

/**
 * Refuse a base URL the token must not go to (plain http to another host) or that is no
 * URL at all, before anything is sent.
 */
export function checkTarget(baseUrl: string): void {
  try {
    assertSafeTransport(baseUrl);
  } catch (error) {
    if (error instanceof InsecureTransportError) throw new UsageError(msg('submit.insecureTarget', { url: error.baseUrl }), msg('submit.unsafeTargetHint'));
    if (error instanceof InvalidBaseUrlError) throw new UsageError(error.message, msg('submit.unsafeTargetHint'));
    throw error;
  }
}

/** --dry-run: the exact request of each valid file, token redacted. */
export function dryRunRequests(reports: readonly FileReport[], baseUrl: string, token: string | undefined): Array<{ file: string; row?: number; request: RequestDescription }> {
  return reports.flatMap((r) =>
    r.ok && r.value ? [{ file: r.file, ...(r.row !== undefined ? { row: r.row } : {}), request: describeRequest(baseUrl, token || 'none', r.value) }] : [],
  );
}

/** Reports to send: a list, or as they are read (each sheet row read as the batch takes it). */
export type Reports = Iterable<FileReport> | AsyncIterable<FileReport>;

export interface StreamSubmitOptions extends RunSubmitOptions {
  /** The proposals listed more than once among the valid reports (the plan's `repeated`). */
  repeated: ReadonlySet<string>;
  /** Each report's result, once, in any order: `index` is its place among the reports. */
  onResult(index: number, result: SubmitResult): void;
}

/** Every file's result in input order, the invalid ones not sent (submitReports over a list). */
export async function runSubmit(reports: readonly FileReport[], options: RunSubmitOptions): Promise<SubmitResult[]> {
  const results: SubmitResult[] = new Array(reports.length);
  const onResult = (index: number, result: SubmitResult): void => void (results[index] = result);
  if (!reports.some((r) => r.ok && r.value)) {
    reports.forEach((report, index) => onResult(index, invalidResult(report)));
    return results;
  }
  try {
    await submitReports(reports, { ...options, repeated: planReports(reports).repeated, onResult });
  } catch (error) {
    if (error instanceof StoreIncompleteError) throw new StoreIncompleteError(results, error.failure);
    throw error;
  }
  return results;
}

/**
 * Send the valid reports, read as the batch takes them (a sheet is not held), through an
 * HTTP client of its own, closed however it ends; an invalid report's result is told as it
 * is read. StoreIncompleteError (the store failed) comes once every result was told.
 */
export async function submitReports(reports: Reports, options: StreamSubmitOptions): Promise<void> {
  let client;
  try {
    client = createServiceClient({
      baseUrl: options.baseUrl,
      ...(options.tokens ? { tokens: options.tokens } : { token: options.token ?? '' }),
      ...(options.tls ? { tls: options.tls } : {}),
      requestTimeoutMs: options.requestTimeoutMs,
      connections: Math.max(1, Math.min(options.concurrency, 64)),
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    });
  } catch (error) {
    if (error instanceof InvalidTokenError) {
      throw new AuthError(msg('submit.badToken'), msg('submit.badTokenHint', { profile: options.profile }));
    }
    throw error;
  }
  // The batch numbers the items it is given; each is mapped back to its report while in flight.
  const reportOf = new Map<number, number>();
  async function* itemsOf(): AsyncGenerator<SubmitItem> {
    let index = 0;
    let position = 0;
    for await (const report of reports) {
      const at = index++;
      if (!(report.ok && report.value)) {
        options.run?.add(invalidInput(report));
        options.onResult(at, invalidResult(report));
        continue;
      }
      reportOf.set(position++, at);
      yield { file: report.file, ...(report.row !== undefined ? { row: report.row } : {}), body: report.value as SubmitItem['body'], warnings: report.warnings };
    }
  }
  try {
    await sendItems(itemsOf(), {
      client,
      store: options.store,
      profile: options.profile,
      baseUrl: options.baseUrl,
      service: options.service,
      concurrency: options.concurrency,
      force: options.force,
      ...(options.unreachableHint ? { unreachableHint: options.unreachableHint } : {}),
      ...(options.unauthorizedHint ? { unauthorizedHint: options.unauthorizedHint } : {}),
      wait: options.wait,
      signal: options.signal,
      now: options.now ?? (() => new Date()),
      ...(options.progress ? { progress: options.progress } : {}),
      keeper: options.keeper,
      run: options.run,
      repeated: options.repeated,
      onSettled: (position, result) => {
        const at = reportOf.get(position) as number;
        reportOf.delete(position);
        options.onResult(at, result);
      },
    });
  } finally {
    await client.close();
  }
}

/** What a run will try to send (the target line, issue 14), counted report by report. */
export interface SendPlan {
  /** The valid reports, less the later copies of a proposal already in the batch (sent once). */
  toSend: number;
  /** Reports not sent: invalid or unreadable. */
  invalid: number;
  /** Later copies of a proposal already in the batch. */
  duplicates: number;
  /** The proposals listed more than once among the valid reports. */
  repeated: Set<string>;
}

/**
 * Plan a run as its reports are read: `add` each, in input order. Holds the proposal ids
 * (to find the copies), not the reports.
 */
export function createPlanner(): { add(report: FileReport): void; plan(): SendPlan } {
  const seen = new Set<string>();
  const plan: SendPlan = { toSend: 0, invalid: 0, duplicates: 0, repeated: new Set() };
  return {
    add(report) {
      if (!report.ok || !report.value) {
        plan.invalid += 1;
        return;
      }
      const id = (report.value as { idProposta: string }).idProposta;
      if (seen.has(id)) {
        plan.duplicates += 1;
        plan.repeated.add(id);
      } else {
        seen.add(id);
        plan.toSend += 1;
      }
    },
    plan: () => plan,
  };
}

/** The plan of a list of reports. */
export function planReports(reports: readonly FileReport[]): SendPlan {
  const planner = createPlanner();
  for (const report of reports) planner.add(report);
  return planner.plan();
}

/**
 * What a run came to, told result by result in any order: the count of each outcome, the
 * exit code of the first file in input order that did not succeed, and, when `keep` (--json,
 * --report, the wizard), every result in input order. Without `keep` it holds no result.
 */
export interface RunTally {
  add(index: number, result: SubmitResult): void;
  readonly total: number;
  /** Each outcome's count, in the order of its first file in input order (the summary's order). */
  readonly counts: ReadonlyMap<Outcome, number>;
  exitCode(): number;
  /** Every result in input order (only when kept). */
  readonly results: SubmitResult[] | undefined;
}

export function createTally(keep: boolean): RunTally {
  const counts = new Map<Outcome, { n: number; first: number }>();
  const results: SubmitResult[] | undefined = keep ? [] : undefined;
  let total = 0;
  let failure: { index: number; code: number } | undefined;
  return {
    add(index, result) {
      total += 1;
      const count = counts.get(result.outcome);
      if (count === undefined) counts.set(result.outcome, { n: 1, first: index });
      else {
        count.n += 1;
        count.first = Math.min(count.first, index);
      }
      if (result.exitCode !== ExitCode.ok && (failure === undefined || index < failure.index)) failure = { index, code: result.exitCode };
      if (results) results[index] = result;
    },
    get total() {
      return total;
    },
    get counts() {
      return new Map([...counts].sort(([, a], [, b]) => a.first - b.first).map(([outcome, count]) => [outcome, count.n]));
    },
    exitCode: () => failure?.code ?? ExitCode.ok,
    results,
  };
}

/** 0 when every file succeeded; otherwise the code of the first that did not. */
export function submitExitCode(results: readonly SubmitResult[]): number {
  return firstFailure(results.map((r) => r.exitCode));
}

/** A sheet given to submit: where its rows' results go back. */
export interface SheetInput {
  file: string;
  absolute: string | null;
  format: SheetFormat;
  /** The header as the sheet shows it, by column. */
  header: string[];
  /** The row number of the header. */
  headerRow: number;
  /** Its data rows (those of `--row` only). */
  rows: number;
}

/**
 * submit's inputs, planned before anything is sent: the plan (the target line, the
 * confirmation, the copies to send once), the sheets whose results go back, and the reports
 * again, in input order, as the batch sends (issue 22: a sheet is read twice, never held).
 */
export interface SubmitInputs {
  plan: SendPlan;
  sheets: SheetInput[];
  reports(): Reports;
  /** Remove what reading left (standard input's temporary copy). */
  close(): void;
}

/** Reports already in memory (JSON files, the wizard's one document), each shown to `onReport` as it is planned. */
export function heldInputs(reports: readonly FileReport[], onReport: (report: FileReport) => void): SubmitInputs {
  const planner = createPlanner();
  for (const report of reports) {
    planner.add(report);
    onReport(report);
  }
  return { plan: planner.plan(), sheets: [], reports: () => reports, close: () => undefined };
}
