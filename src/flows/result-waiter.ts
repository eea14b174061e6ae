/**
 * `submit --wait`: learn each contract's approval result. The listener is up before the
 * first POST leaves, so a fast result is never missed; if another `econsig watch` already
 * holds the port, its journal is followed instead. Either way every delivery lands in the
 * journal, and the journal is read from the start, so a result that arrived early counts.
 */
import { request } from 'undici';
import { followJournal, type Journal, type JournalEntry } from '../store/journal.js';
import type { ExtractOptions } from '../webhook/extract.js';
import { ListenError, type Listener, startListener } from '../webhook/server.js';
import { type ContractResult, isFinal, resultIn } from '../webhook/watch-session.js';

export interface WaiterOptions {
  home: string;
  journal: Journal;
  host: string;
  port: number;
  path: string;
  secret?: string | undefined;
  extractOptions?: ExtractOptions;
}

export interface ResultWaiter {
  /** How results arrive: our own listener, or another process's journal. */
  readonly mode: { kind: 'listening'; url: string } | { kind: 'following'; url: string };
  /** Resolves with the final result, or `null` after `timeoutMs` or when `signal` aborts. */
  waitFor(idContrato: string, timeoutMs: number, signal: AbortSignal): Promise<ContractResult | null>;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** True when an econsig listener answers /healthz on that address. */
async function isEconsigListener(host: string, port: number): Promise<boolean> {
  try {
    const res = await request(`http://${hostForUrl(host)}:${port}/healthz`, { headersTimeout: 1_000, bodyTimeout: 1_000 });
    const text = await res.body.text();
    return res.statusCode === 200 && text.length < 4096;
  } catch {
    return false;
  }
}

/** Start listening (or following a running `econsig watch`) before anything is sent. */
export async function startResultWaiter(options: WaiterOptions): Promise<ResultWaiter> {
  const results = new Map<string, ContractResult>();
  const waiting = new Map<string, Set<(result: ContractResult) => void>>();
  const publish = (result: ContractResult): void => {
    if (results.has(result.idContrato)) return;
    results.set(result.idContrato, result);
    for (const wake of waiting.get(result.idContrato) ?? []) wake(result);
    waiting.delete(result.idContrato);
  };

  let listener: Listener | undefined;
  let mode: ResultWaiter['mode'];
  try {
    listener = await startListener({
      host: options.host,
      port: options.port,
      path: options.path,
      journal: options.journal,
      ...(options.secret === undefined ? {} : { secret: options.secret }),
      ...(options.extractOptions === undefined ? {} : { extractOptions: options.extractOptions }),
      onEvent: (event) => {
        if (event.kind !== 'delivery' || event.idContrato === null || !isFinal(event.outcome)) return;
        const { idContrato, outcome, status, reason } = event;
        publish({ idContrato, outcome, status, reason, source: 'live' });
      },
    });
    mode = { kind: 'listening', url: listener.url };
  } catch (error) {
    if (!(error instanceof ListenError) || error.code !== 'EADDRINUSE' || !(await isEconsigListener(options.host, options.port))) {
      throw error;
    }
    mode = { kind: 'following', url: `http://${hostForUrl(options.host)}:${options.port}${options.path}` };
  }

  const stop = new AbortController();
  followJournal(
    options.home,
    (entry: JournalEntry) => {
      if ((entry.kind === 'delivery' || entry.kind === 'result') && entry.idContrato) {
        const found = resultIn(entry, entry.idContrato);
        if (found) publish({ ...found, source: 'journal' });
      }
    },
    { signal: stop.signal, fromStart: true, intervalMs: 100 },
  );

  return {
    mode,
    waitFor(idContrato, timeoutMs, signal) {
      const known = results.get(idContrato);
      if (known) return Promise.resolve(known);
      return new Promise((resolve) => {
        const done = (result: ContractResult | null): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          waiting.get(idContrato)?.delete(done);
          resolve(result);
        };
        const onAbort = (): void => done(null);
        const timer = setTimeout(() => done(null), timeoutMs);
        signal.addEventListener('abort', onAbort, { once: true });
        const set = waiting.get(idContrato) ?? new Set();
        set.add(done);
        waiting.set(idContrato, set);
      });
    },
    async close() {
      stop.abort();
      await listener?.close();
    },
  };
}
