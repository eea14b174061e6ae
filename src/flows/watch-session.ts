/** The watch use-case: a listener, the store and an optional wait for one contract's result. */
import { openStore, type OpenStoreOptions } from '../record/open.js';
import type { ResultRecord } from '../record/record.js';
import type { CallbackAuth } from '../webhook/auth.js';
import type { ExtractOptions, WebhookOutcome } from '../webhook/extract.js';
import { type Listener, startListener, type ListenerEvent, type ListenerStats } from '../webhook/server.js';

interface WatchSessionOptions {
  home: string;
  /** The team store (postgres://); undefined: SQLite in `home`. */
  databaseUrl?: string | undefined;
  /**
   * false (with `contract`): bind no port and wait for the result in the store alone: the
   * team's receiver is on another machine (docs/cli-contract.md "Teams and homologation").
   */
  listen?: boolean;
  /** Told when the store imported an old journal.jsonl on opening. */
  onImport?: OpenStoreOptions['onImport'];
  host: string;
  port: number;
  path: string;
  secret?: string | undefined;
  auth?: CallbackAuth | undefined;
  tls?: { cert: Buffer; key: Buffer } | undefined;
  forwardTo?: string | undefined;
  extractOptions?: ExtractOptions;
  /** Stop at the first final result (approved/denied/cancelled) for this contract. */
  contract?: string | undefined;
  /** With `contract`: give up after this long. */
  timeoutMs?: number | undefined;
  signal: AbortSignal;
  now?: () => Date;
  onListening: (url: string) => void;
  /** Instead of onListening when `listen` is false: where the result is awaited. */
  onFollowing?: (store: string) => void;
  onEvent: (event: ListenerEvent) => void;
}

type FinalOutcome = Exclude<WebhookOutcome, 'unknown'>;

export interface ContractResult {
  idContrato: string;
  outcome: FinalOutcome;
  status: string | null;
  reason: string | null;
  /** 'live' = delivered to this listener; 'store' = already recorded (earlier, or by another process). */
  source: 'live' | 'store';
}

type WatchEnd =
  | { reason: 'stopped'; stats: ListenerStats }
  | { reason: 'result'; result: ContractResult; stats: ListenerStats }
  | { reason: 'timeout'; stats: ListenerStats };

type Ending = { reason: 'stopped' } | { reason: 'result'; result: ContractResult } | { reason: 'timeout' };

/** approved, denied or cancelled: a result that ends the wait (unknown statuses do not). */
export const isFinal = (o: string): o is FinalOutcome => o === 'approved' || o === 'denied' || o === 'cancelled';

/** A recorded result as the waiters see it. */
export function fromStore(result: ResultRecord): ContractResult {
  return { idContrato: result.idContrato, outcome: result.outcome, status: result.status, reason: result.reason, source: 'store' };
}

/**
 * Runs the listener until the signal aborts or, with `contract`, until that contract's
 * result is known or the timeout passes. A result already in the store (delivered
 * before this started, or to another process's listener) counts too (docs/peer-clis.md §2
 * item 5). Rejects with ListenError when the port cannot be bound.
 */
export async function runWatchSession(options: WatchSessionOptions): Promise<WatchEnd> {
  const store = await openStore({ home: options.home, databaseUrl: options.databaseUrl, ...(options.onImport ? { onImport: options.onImport } : {}) });
  let settle: (end: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => (settle = resolve));
  const contract = options.contract;

  const ping = store.ping?.bind(store);
  const stats: ListenerStats = { received: 0, duplicates: 0, rejected: 0, invalid: 0 };
  let listener: Pick<Listener, 'url' | 'close'> = { url: '', close: async () => stats };
  if (options.listen !== false || contract === undefined) {
    try {
      listener = await startListener({
        host: options.host,
        port: options.port,
        path: options.path,
        secret: options.secret,
        auth: options.auth,
        tls: options.tls,
        forwardTo: options.forwardTo,
        extractOptions: options.extractOptions,
        now: options.now,
        store,
        // GET /readyz: 200 only while the store answers (a team store can go away).
        ...(ping ? { ready: () => ping().then(() => true) } : {}),
        onEvent: (event) => {
          options.onEvent(event);
          if (contract !== undefined && event.kind === 'delivery' && event.idContrato === contract && isFinal(event.outcome)) {
            settle({ reason: 'result', result: { idContrato: contract, outcome: event.outcome, status: event.status, reason: event.reason, source: 'live' } });
          }
        },
      });
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  const stopFollowing = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  try {
    if (listener.url) options.onListening(listener.url);
    const onAbort = (): void => settle({ reason: 'stopped' });
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (contract !== undefined) {
      // Our own deliveries reach onEvent first; the store adds earlier ones and other processes'.
      const onResult = (r: ResultRecord): void => {
        if (r.idContrato === contract) settle({ reason: 'result', result: fromStore(r) });
      };
      await store.followResults(onResult, { signal: stopFollowing.signal });
      const earlier = await store.resultOf(contract);
      if (earlier) settle({ reason: 'result', result: fromStore(earlier) });
      // Said once the store is followed, so "ready" means a result from now on is seen.
      if (!listener.url) options.onFollowing?.(store.location);
      if (options.timeoutMs !== undefined) timers.push(setTimeout(() => settle({ reason: 'timeout' }), options.timeoutMs));
    }
    const end = await ended;
    options.signal.removeEventListener('abort', onAbort);
    return { ...end, stats: await listener.close() };
  } finally {
    stopFollowing.abort();
    for (const t of timers) clearTimeout(t);
    await listener.close();
    await store.close();
  }
}
