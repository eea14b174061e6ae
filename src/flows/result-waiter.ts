/**
 * `submit --wait`: learn each contract's approval result. The listener is up before the
 * first POST leaves, so a fast result is never missed; if another `econsig watch` already
 * holds the port, its journal is followed instead. Either way every delivery lands in the
 * journal, and the journal is read from the start, so a result that arrived early counts.
 */
import { request } from 'undici';
import { resolve } from 'node:path';
import { EconsigError, ExitCode } from '../errors.js';
import { followJournal, journalPath, type Journal, type JournalEntry } from '../store/journal.js';
import type { ExtractOptions } from '../webhook/extract.js';
import { ListenError, type Listener, hostForUrl, startListener } from '../webhook/server.js';
import { type ContractResult, isFinal, knownDeliveries, resultIn } from './watch-session.js';

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

/** The journal an `econsig watch` on that address writes to, from its /healthz; undefined if it is not one. */
async function watchJournalAt(host: string, port: number): Promise<string | undefined> {
  try {
    const res = await request(`http://${hostForUrl(host)}:${port}/healthz`, { headersTimeout: 1_000, bodyTimeout: 1_000 });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text.length > 4096) return undefined;
    const body = JSON.parse(text) as { service?: unknown; journal?: unknown };
    return body.service === 'econsig-watch' && typeof body.journal === 'string' ? body.journal : undefined;
  } catch {
    return undefined;
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
      known: knownDeliveries(options.home),
      secret: options.secret,
      extractOptions: options.extractOptions,
      onEvent: (event) => {
        if (event.kind !== 'delivery' || event.idContrato === null || !isFinal(event.outcome)) return;
        const { idContrato, outcome, status, reason } = event;
        publish({ idContrato, outcome, status, reason, source: 'live' });
      },
    });
    mode = { kind: 'listening', url: listener.url };
  } catch (error) {
    if (!(error instanceof ListenError) || error.code !== 'EADDRINUSE') throw error;
    // Only a watch that writes to this very journal brings the results here.
    const theirs = await watchJournalAt(options.host, options.port);
    if (theirs === undefined) throw error;
    if (resolve(theirs) !== journalPath(options.home)) {
      throw new EconsigError(`--wait cannot use ${options.host}:${options.port}: the \`econsig watch\` there writes to ${theirs}, not to this ECONSIG_HOME's journal`, {
        exitCode: ExitCode.usage,
        hint: 'Run submit with the same ECONSIG_HOME as that watch, or give --listen a free port that the sender targets.',
      });
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
      // An abort listener added to a signal that already fired never runs.
      if (signal.aborted) return Promise.resolve(null);
      return new Promise((resolve) => {
        const done = (result: ContractResult | null): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          waiting.get(idContrato)?.delete(done);
          resolve(result);
        };
        const onAbort = (): void => done(null);
        // setTimeout overflows past 2^31-1 ms (and would fire at once).
        const timer = setTimeout(() => done(null), Math.min(timeoutMs, 2_147_483_647));
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
