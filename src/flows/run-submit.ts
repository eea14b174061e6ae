/**
 * The submit use-case end to end, free of terminal I/O: validated reports in, results out
 * (in input order, invalid files included). `withRecord` opens the store and the result
 * waiter (before any POST) and closes them; `runSubmit` sends with them through an HTTP
 * client of its own, which it closes however it ends.
 */
import { type Message, msg } from '../i18n/index.js';
import { AuthError, ExitCode, UsageError } from '../errors.js';
import { exitCodeFor, firstFailure } from '../domain/outcome.js';
import { assertSafeTransport, createServiceClient, describeRequest, type RequestDescription, type RetryInfo } from '../service/client.js';
import { InsecureTransportError, InvalidBaseUrlError, InvalidTokenError } from '../service/errors.js';
import { openStore } from '../record/open.js';
import type { Store, StoreNotice } from '../record/record.js';
import type { AnswerKeeper } from '../record/kept-answers.js';
import { storeId } from '../settings/home.js';
import { type ListenerPlace, type ResultWaiter, startResultWaiter } from './result-waiter.js';
import { type BatchProgress, type SubmitItem, submitBatch } from './submit-batch.js';
import type { TokenSource } from '../service/token-source.js';
import type { TlsConnectOptions } from '../settings/tls-files.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

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
}


/** A file that was not sent because it did not validate (or could not be read). */
export function invalidResult(report: FileReport): SubmitResult {
  return {
    file: report.file,
    ...(report.row !== undefined ? { row: report.row } : {}),
    outcome: 'invalid',
    httpStatus: null,
    idContrato: null,
    erros: [],
    result: null,
    message: msg(report.exitCode === ExitCode.usage ? 'run.unusableNotSent' : 'run.invalidSubmission'),
    exitCode: report.exitCode === ExitCode.usage ? ExitCode.usage : exitCodeFor('invalid'),
    warnings: report.warnings,
    errors: report.errors,
    attempts: 0,
    idProposta: null,
  };
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

export async function runSubmit(reports: readonly FileReport[], options: RunSubmitOptions): Promise<SubmitResult[]> {
  const items: SubmitItem[] = reports.flatMap((r) =>
    r.ok && r.value ? [{ file: r.file, ...(r.row !== undefined ? { row: r.row } : {}), body: r.value as SubmitItem['body'], warnings: r.warnings }] : [],
  );
  if (items.length === 0) return inInputOrder(reports, []);
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
  try {
    const sent = await submitBatch(items, {
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
    });
    return inInputOrder(reports, sent);
  } finally {
    await client.close();
  }
}

/**
 * What a run will try to send (the target line, issue 14): the valid files, less the later
 * copies of a proposal already in the batch (sent once); and what is not sent.
 */
export function sendPlan(reports: readonly FileReport[]): { toSend: number; invalid: number; duplicates: number } {
  const seen = new Set<string>();
  let toSend = 0;
  let duplicates = 0;
  for (const report of reports) {
    if (!report.ok || !report.value) continue;
    const id = (report.value as { idProposta: string }).idProposta;
    if (seen.has(id)) duplicates += 1;
    else {
      seen.add(id);
      toSend += 1;
    }
  }
  return { toSend, invalid: reports.length - toSend - duplicates, duplicates };
}

/** Every file's result in input order: the sent ones from `sent` (same order), the others invalid. */
export function inInputOrder(reports: readonly FileReport[], sent: readonly SubmitResult[]): SubmitResult[] {
  let next = 0;
  return reports.map((report) => (report.ok && report.value ? (sent[next++] as SubmitResult) : invalidResult(report)));
}

/** 0 when every file succeeded; otherwise the code of the first that did not. */
export function submitExitCode(results: readonly SubmitResult[]): number {
  return firstFailure(results.map((r) => r.exitCode));
}
