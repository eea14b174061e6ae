/**
 * `econsig events resend`: stored deliveries POSTed again to a receiver, each body exactly as
 * it was received, signed afresh as Standard Webhooks (webhook/verify.ts, webhookHeaders): the
 * original webhook-id kept, so the receiver can dedupe, and a fresh timestamp, so it is not
 * stale. Oldest first, as they arrived. Free of terminal I/O: it returns what each answered.
 */
import { Pool } from 'undici';
import { EconsigError, ExitCode } from '../errors.js';
import { msg } from '../i18n/index.js';
import type { EventQuery, Store, StoredDelivery } from '../record/record.js';
import { webhookHeaders } from '../webhook/verify.js';

/** Which deliveries: by id (or webhook-id), or every one a query matches. */
export type ResendSelection = { ids: readonly string[] } | { query: Omit<EventQuery, 'limit' | 'pastId' | 'oldestFirst'> };

export interface ResendOptions {
  to: string;
  /** The receiver's Standard Webhooks secret; without one the deliveries go unsigned. */
  secret: string | undefined;
  now?: () => Date;
  /** Requests in flight at once. */
  concurrency?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ResendResult {
  id: number;
  webhookId: string | null;
  idContrato: string | null;
  /** The receiver's status; null when it did not answer, or nothing was sent. */
  httpStatus: number | null;
  ms: number | null;
  error: string | null;
  /** When its body was dropped (nothing could be sent); null while kept. */
  payloadDroppedAt: string | null;
  ok: boolean;
}

const PAGE = 1_000;

/** What a resend will send: how many (counted up to the store's cap, `atLeast` past it), and the pages of deliveries, oldest first. */
export interface Selected {
  count: number;
  atLeast: boolean;
  pages: () => AsyncIterable<readonly StoredDelivery[]>;
}

/**
 * The deliveries selected. By id: each once, looked up at once (an id the store does not have is an
 * error, exit 4, naming it). By query: counted now, read a page at a time as they are sent, so
 * a resend of a month holds one page, not the month.
 */
export async function selectDeliveries(store: Store, selection: ResendSelection, storeLocation: string, pageSize = PAGE): Promise<Selected> {
  if ('ids' in selection) {
    const found: StoredDelivery[] = [];
    // An id named twice (`events resend 7 7`) is one delivery, sent once.
    for (const id of new Set(selection.ids)) {
      const delivery = await store.event(id);
      if (delivery === null) throw new EconsigError(msg('events.notFound', { id, store: storeLocation }), { exitCode: ExitCode.notFound, hint: msg('events.notFoundHint') });
      found.push(delivery);
    }
    return { count: found.length, atLeast: false, pages: async function* () { yield found; } };
  }
  const query = { ...selection.query, oldestFirst: true };
  const first = await store.events({ ...query, limit: pageSize });
  async function* pages(): AsyncIterable<readonly StoredDelivery[]> {
    let page = first;
    for (;;) {
      if (page.events.length > 0) yield page.events;
      if (page.more === 0 || page.events.length === 0) return;
      page = await store.events({ ...query, limit: pageSize, pastId: page.events.at(-1)!.id });
    }
  }
  return { count: first.events.length + first.more, atLeast: first.more >= first.moreCap, pages };
}

/** The id a receiver dedupes on: the delivery's own webhook-id, else one econsig gives it (the same on every resend). */
export function replayId(delivery: Pick<StoredDelivery, 'id' | 'webhookId'>): string {
  return delivery.webhookId ?? `msg_econsig_${delivery.id}`;
}

/**
 * POSTs each delivery to `to`, page after page, `concurrency` at a time on one connection
 * pool; `onResult` hears each as it is answered. Resolves with every result in the deliveries' order.
 */
export async function resendDeliveries(pages: AsyncIterable<readonly StoredDelivery[]>, options: ResendOptions, onResult: (result: ResendResult) => void = () => undefined): Promise<ResendResult[]> {
  const url = new URL(options.to);
  const path = `${url.pathname}${url.search}`;
  const now = options.now ?? (() => new Date());
  const timeout = options.timeoutMs ?? 30_000;
  const concurrency = options.concurrency ?? 16;
  const pool = new Pool(url.origin, { connections: concurrency, headersTimeout: timeout, bodyTimeout: timeout });
  const results: ResendResult[] = [];
  const sendOne = async (delivery: StoredDelivery): Promise<ResendResult> => {
    const base = { id: delivery.id, webhookId: delivery.webhookId, idContrato: delivery.idContrato, payloadDroppedAt: delivery.payloadDroppedAt };
    if (delivery.payload === null) return { ...base, httpStatus: null, ms: null, error: null, ok: false };
    const body = Buffer.from(delivery.payload);
    const headers = { 'content-type': 'application/json', 'user-agent': 'econsig-resend', ...webhookHeaders(options.secret, replayId(delivery), now(), body) };
    const started = performance.now();
    try {
      const res = await pool.request({ path, method: 'POST', headers, body, ...(options.signal ? { signal: options.signal } : {}) });
      await res.body.dump().catch(() => undefined);
      const ms = Math.round(performance.now() - started);
      return { ...base, httpStatus: res.statusCode, ms, error: null, ok: res.statusCode >= 200 && res.statusCode < 300 };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const code = (error as { code?: string }).code;
      const message = error instanceof Error ? error.message : String(error);
      return { ...base, httpStatus: null, ms: Math.round(performance.now() - started), error: code ? `${code}: ${message}` : message, ok: false };
    }
  };
  // Workers take deliveries one by one; the next page is read while this one is sent, so the
  // connections never wait for a page boundary.
  const source = pages[Symbol.asyncIterator]();
  let queue: readonly StoredDelivery[] = [];
  let head = 0;
  let taken = 0;
  let exhausted = false;
  let reading: Promise<void> | undefined;
  /** A page the store could not give: thrown to the workers, never left unhandled by a read ahead. */
  let failed: { error: unknown } | undefined;
  const readPage = (): Promise<void> =>
    (reading ??= source.next().then(
      (next) => {
        reading = undefined;
        if (next.done) exhausted = true;
        else {
          queue = [...queue.slice(head), ...next.value];
          head = 0;
        }
      },
      (error: unknown) => {
        reading = undefined;
        exhausted = true;
        failed = { error };
      },
    ));
  const take = async (): Promise<{ delivery: StoredDelivery; at: number } | undefined> => {
    for (;;) {
      if (failed) throw failed.error;
      if (!exhausted && queue.length - head <= concurrency) void readPage();
      if (head < queue.length) return { delivery: queue[head++]!, at: taken++ };
      if (exhausted) return undefined;
      await readPage();
    }
  };
  const worker = async (): Promise<void> => {
    for (let next = await take(); next !== undefined; next = await take()) {
      const result = await sendOne(next.delivery);
      results[next.at] = result;
      onResult(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await pool.close();
  }
  return results;
}
