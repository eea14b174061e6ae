/**
 * Contracts' approval results as they become known. `submit --wait` and `watch --contract`
 * learn them from their own listener's deliveries and from the store (results recorded
 * earlier, or by another process's listener). For `submit --wait` the listener is up before
 * the first POST leaves, so a fast result is never missed; if another `econsig watch`
 * already holds the port, the store it writes to is followed instead.
 */
import { msg } from '../i18n/index.js';
import { request } from 'undici';
import { EconsigError, ExitCode } from '../errors.js';
import type { FinalOutcome, ResultRecord, Store } from '../record/record.js';
import { cannotBind } from '../webhook/http.js';
import { ListenError, type Listener, type ListenerEvent, type ListenerOptions, hostForUrl, startListener } from '../webhook/server.js';

export interface ContractResult {
  idContrato: string;
  outcome: FinalOutcome;
  status: string | null;
  reason: string | null;
  /** 'live' = delivered to this listener; 'store' = already recorded (earlier, or by another process). */
  source: 'live' | 'store';
}

/** approved, denied or cancelled: a result that ends the wait (unknown statuses do not). */
export const isFinal = (o: string): o is FinalOutcome => o === 'approved' || o === 'denied' || o === 'cancelled';

/** A recorded result as the waiters see it. */
export function fromStore(result: ResultRecord): ContractResult {
  return { idContrato: result.idContrato, outcome: result.outcome, status: result.status, reason: result.reason, source: 'store' };
}

/** The final result a listener's event brings, if it brings one. */
export function liveResult(event: ListenerEvent): ContractResult | undefined {
  if (event.kind !== 'delivery' || event.idContrato === null || !isFinal(event.outcome)) return undefined;
  return { idContrato: event.idContrato, outcome: event.outcome, status: event.status, reason: event.reason, source: 'live' };
}

/** What the listener is given besides the store and the event handler. */
export type ListenerPlace = Omit<ListenerOptions, 'store' | 'onEvent'>;

/**
 * The results known so far, by contract, and the waits for them. Results come from `publish`
 * (a listener's deliveries) and from the store once `follow` is called; a wait also asks the
 * store for a result recorded before.
 */
export class ContractResults {
  private readonly known = new Map<string, ContractResult>();
  private readonly waiting = new Map<string, Set<(result: ContractResult) => void>>();

  constructor(private readonly store: Store) {}

  /** The first result of a contract wins. */
  publish(result: ContractResult | undefined): void {
    if (!result || this.known.has(result.idContrato)) return;
    this.known.set(result.idContrato, result);
    for (const wake of this.waiting.get(result.idContrato) ?? []) wake(result);
    this.waiting.delete(result.idContrato);
  }

  /** Publishes every result recorded (by any process) after this resolves, until `signal` aborts. */
  follow(signal: AbortSignal): Promise<void> {
    return this.store.followResults((result) => this.publish(fromStore(result)), { signal });
  }

  /** Resolves with the final result, or `null` after `timeoutMs` or when `signal` aborts. */
  async waitFor(idContrato: string, timeoutMs: number, signal: AbortSignal): Promise<ContractResult | null> {
    // Asked again after the await: the follower may have published it meanwhile.
    const known = this.known.get(idContrato) ?? (await this.earlier(idContrato)) ?? this.known.get(idContrato);
    if (known) return known;
    // An abort listener added to a signal that already fired never runs.
    if (signal.aborted) return null;
    return new Promise((resolve) => {
      const done = (result: ContractResult | null): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiting.get(idContrato)?.delete(done);
        resolve(result);
      };
      const onAbort = (): void => done(null);
      // setTimeout overflows past 2^31-1 ms (and would fire at once).
      const timer = setTimeout(() => done(null), Math.min(timeoutMs, 2_147_483_647));
      signal.addEventListener('abort', onAbort, { once: true });
      const set = this.waiting.get(idContrato) ?? new Set();
      set.add(done);
      this.waiting.set(idContrato, set);
    });
  }

  /** A result already in the store (it came before the wait began); a store that cannot answer is asked again by the follower. */
  private async earlier(idContrato: string): Promise<ContractResult | null> {
    try {
      const found = await this.store.resultOf(idContrato);
      return found ? fromStore(found) : null;
    } catch {
      return null;
    }
  }
}

export interface WaiterOptions {
  store: Store;
  /** The store's id (settings/home.ts storeId): our listener's /healthz says it, and a running watch's must match it. */
  storeId: string;
  /**
   * false: bind no port, learn results from the store alone (a team store, whose receiver
   * is on another machine: docs/cli-contract.md "Teams and homologation").
   */
  listen?: boolean;
  listener: ListenerPlace;
}

export interface ResultWaiter {
  /** How results arrive: our own listener, or the store another process's listener writes. */
  readonly mode: { kind: 'listening'; url: string } | { kind: 'following'; url: string } | { kind: 'store'; url: string };
  /** Resolves with the final result, or `null` after `timeoutMs` or when `signal` aborts. */
  waitFor(idContrato: string, timeoutMs: number, signal: AbortSignal): Promise<ContractResult | null>;
  close(): Promise<void>;
}

/** The id of the store an `econsig watch` on that address writes to, from its /healthz; undefined if it is not one. */
async function watchStoreAt(host: string, port: number): Promise<string | undefined> {
  try {
    const res = await request(`http://${hostForUrl(host)}:${port}/healthz`, { headersTimeout: 1_000, bodyTimeout: 1_000 });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text.length > 4096) return undefined;
    const body = JSON.parse(text) as { service?: unknown; storeId?: unknown };
    return body.service === 'econsig-watch' && typeof body.storeId === 'string' ? body.storeId : undefined;
  } catch {
    return undefined;
  }
}

/** Start listening (or following a running `econsig watch`) before anything is sent. */
export async function startResultWaiter(options: WaiterOptions): Promise<ResultWaiter> {
  const { store } = options;
  const { host, port, path } = options.listener;
  const results = new ContractResults(store);
  let listener: Listener | undefined;
  let mode: ResultWaiter['mode'] = { kind: 'store', url: store.location };
  if (options.listen !== false) {
    try {
      listener = await startListener({ ...options.listener, store, storeId: options.storeId, onEvent: (event) => results.publish(liveResult(event)) });
      mode = { kind: 'listening', url: listener.url };
    } catch (error) {
      if (!(error instanceof ListenError)) throw error;
      // Only a watch that writes to this very store brings the results here.
      const theirs = error.code === 'EADDRINUSE' ? await watchStoreAt(host, port) : undefined;
      if (theirs === undefined) throw cannotBind(host, port, error.code, error.cause, 'listen');
      if (theirs !== options.storeId) {
        throw new EconsigError(msg('submit.waitOtherStore', { address: `${host}:${port}`, ours: store.location }), {
          exitCode: ExitCode.usage,
          hint: msg('submit.waitOtherStoreHint'),
        });
      }
      mode = { kind: 'following', url: `http://${hostForUrl(host)}:${port}${path}` };
    }
  }

  // Followed from now on; what was recorded before is asked for by contract in waitFor.
  const stop = new AbortController();
  try {
    await results.follow(stop.signal);
  } catch (error) {
    await listener?.close();
    throw error;
  }

  return {
    mode,
    waitFor: (idContrato, timeoutMs, signal) => results.waitFor(idContrato, timeoutMs, signal),
    async close() {
      stop.abort();
      await listener?.close();
    },
  };
}
