/** The watch use-case: a listener, the journal and an optional wait for one contract's result. */
import { followJournal, Journal, readJournal, type JournalEntry } from '../store/journal.js';
import type { CallbackAuth } from '../webhook/auth.js';
import type { ExtractOptions, WebhookOutcome } from '../webhook/extract.js';
import { startListener, type ListenerEvent, type ListenerStats } from '../webhook/server.js';

interface WatchSessionOptions {
  home: string;
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
  onEvent: (event: ListenerEvent) => void;
}

type FinalOutcome = Exclude<WebhookOutcome, 'unknown'>;

export interface ContractResult {
  idContrato: string;
  outcome: FinalOutcome;
  status: string | null;
  reason: string | null;
  /** 'live' = delivered to this listener; 'journal' = already recorded (earlier, or by another process). */
  source: 'live' | 'journal';
}

type WatchEnd =
  | { reason: 'stopped'; stats: ListenerStats }
  | { reason: 'result'; result: ContractResult; stats: ListenerStats }
  | { reason: 'timeout'; stats: ListenerStats };

type Ending = { reason: 'stopped' } | { reason: 'result'; result: ContractResult } | { reason: 'timeout' };

/** Deliveries already journaled, so a resend after a restart is still a duplicate. */
export function knownDeliveries(home: string): Array<{ webhookId: string | null; bodyHash: string }> {
  return readJournal(home).flatMap((e) => (e.kind === 'delivery' ? [{ webhookId: e.webhookId, bodyHash: e.bodyHash }] : []));
}

/** approved, denied or cancelled: a result that ends the wait (unknown statuses do not). */
export const isFinal = (o: string): o is FinalOutcome => o === 'approved' || o === 'denied' || o === 'cancelled';

/** A final result about `contract` in a journal entry: a delivery, or a result written by submit --wait. */
export function resultIn(entry: JournalEntry, contract: string): Omit<ContractResult, 'source'> | null {
  if ((entry.kind === 'delivery' || entry.kind === 'result') && entry.idContrato === contract && isFinal(entry.outcome)) {
    return { idContrato: contract, outcome: entry.outcome, status: entry.status, reason: entry.reason };
  }
  return null;
}

/**
 * Runs the listener until the signal aborts or, with `contract`, until that contract's
 * result is known or the timeout passes. A result already in the journal (delivered
 * before this started, or to another process's listener) counts too (peer-clis.md §2
 * item 5). Rejects with ListenError when the port cannot be bound.
 */
export async function runWatchSession(options: WatchSessionOptions): Promise<WatchEnd> {
  const journal = await Journal.open(options.home);
  const known = knownDeliveries(options.home);
  let settle: (end: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => (settle = resolve));
  const contract = options.contract;

  let listener;
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
      journal,
      known,
      onEvent: (event) => {
        options.onEvent(event);
        if (contract !== undefined && event.kind === 'delivery' && event.idContrato === contract && isFinal(event.outcome)) {
          settle({ reason: 'result', result: { idContrato: contract, outcome: event.outcome, status: event.status, reason: event.reason, source: 'live' } });
        }
      },
    });
  } catch (error) {
    await journal.close();
    throw error;
  }

  const stopFollowing = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  try {
    options.onListening(listener.url);
    const onAbort = (): void => settle({ reason: 'stopped' });
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (contract !== undefined) {
      // Our own deliveries reach onEvent first; the journal adds earlier ones and other processes'.
      followJournal(
        options.home,
        (entry) => {
          const found = resultIn(entry, contract);
          if (found) settle({ reason: 'result', result: { ...found, source: 'journal' } });
        },
        { signal: stopFollowing.signal, fromStart: true, intervalMs: 100 },
      );
      if (options.timeoutMs !== undefined) timers.push(setTimeout(() => settle({ reason: 'timeout' }), options.timeoutMs));
    }
    const end = await ended;
    options.signal.removeEventListener('abort', onAbort);
    return { ...end, stats: await listener.close() };
  } finally {
    stopFollowing.abort();
    for (const t of timers) clearTimeout(t);
    await listener.close();
    await journal.close();
  }
}
