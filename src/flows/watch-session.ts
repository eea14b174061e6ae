/** The watch use-case: a listener on the store it is given, and an optional wait for one contract's result. */
import { dropOldBodies } from '../record/open.js';
import type { Store } from '../record/record.js';
import { type Listener, startListener, type ListenerEvent, type ListenerStats } from '../webhook/server.js';
import { type ContractResult, ContractResults, type ListenerPlace, liveResult } from './result-waiter.js';

interface WatchSessionOptions {
  /** Where deliveries and results are recorded; opened and closed by the caller. */
  store: Store;
  /**
   * false (with `contract`): bind no port and wait for the result in the store alone: the
   * team's receiver is on another machine (docs/cli-contract.md "Teams and homologation").
   */
  listen?: boolean;
  listener: ListenerPlace;
  /** Stop at the first final result (approved/denied/cancelled) for this contract, or give up after `timeoutMs`. */
  contract?: { idContrato: string; timeoutMs: number } | undefined;
  /** store.payload-retention: a receiver that stays up drops older delivery bodies once a day. */
  payloadRetentionMs?: number | undefined;
  signal: AbortSignal;
  onListening: (url: string) => void;
  /** Instead of onListening when `listen` is false: where the result is awaited. */
  onFollowing?: (store: string) => void;
  onEvent: (event: ListenerEvent) => void;
}

const DAY_MS = 86_400_000;

type WatchEnd =
  | { reason: 'stopped'; stats: ListenerStats }
  | { reason: 'result'; result: ContractResult; stats: ListenerStats }
  | { reason: 'timeout'; stats: ListenerStats };

/** Resolves when the signal aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Runs the listener until the signal aborts or, with `contract`, until that contract's
 * result is known or the timeout passes. A result already in the store (delivered
 * before this started, or to another process's listener) counts too (docs/peer-clis.md §2
 * item 5). Rejects with ListenError when the port cannot be bound.
 */
export async function runWatchSession(options: WatchSessionOptions): Promise<WatchEnd> {
  const { store, contract } = options;
  const results = new ContractResults(store);
  const stats: ListenerStats = { received: 0, duplicates: 0, rejected: 0, invalid: 0 };
  let listener: Pick<Listener, 'url' | 'close'> = { url: '', close: async () => stats };
  if (options.listen !== false || contract === undefined) {
    listener = await startListener({
      ...options.listener,
      store,
      onEvent: (event) => {
        options.onEvent(event);
        if (contract !== undefined) results.publish(liveResult(event));
      },
    });
  }

  const stopFollowing = new AbortController();
  const retention = options.payloadRetentionMs;
  const daily = retention === undefined ? undefined : setInterval(() => void dropOldBodies(store, retention, new Date()).catch(() => undefined), DAY_MS);
  daily?.unref();
  try {
    if (listener.url) options.onListening(listener.url);
    if (contract === undefined) {
      await aborted(options.signal);
      return { reason: 'stopped', stats: await listener.close() };
    }
    // Our own deliveries are published by the listener; the store adds earlier ones and other processes'.
    await results.follow(stopFollowing.signal);
    // Said once the store is followed, so "ready" means a result from now on is seen.
    if (!listener.url) options.onFollowing?.(store.location);
    const result = await results.waitFor(contract.idContrato, contract.timeoutMs, options.signal);
    const stats = await listener.close();
    if (result) return { reason: 'result', result, stats };
    return options.signal.aborted ? { reason: 'stopped', stats } : { reason: 'timeout', stats };
  } finally {
    clearInterval(daily);
    stopFollowing.abort();
    await listener.close();
  }
}
