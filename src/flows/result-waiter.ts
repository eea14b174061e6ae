/**
 * `submit --wait`: learn each contract's approval result. The listener is up before the
 * first POST leaves, so a fast result is never missed; if another `econsig watch` already
 * holds the port, the store it writes to is followed instead. Either way every delivery
 * lands in the store, and a result recorded before the wait began counts too.
 */
import { text } from '../i18n/index.js';
import { request } from 'undici';
import { EconsigError, ExitCode } from '../errors.js';
import type { Store } from '../record/record.js';
import type { ExtractOptions } from '../webhook/extract.js';
import { ListenError, type Listener, hostForUrl, startListener } from '../webhook/server.js';
import { type ContractResult, fromStore, isFinal } from './watch-session.js';

export interface WaiterOptions {
  store: Store;
  /**
   * false: bind no port, learn results from the store alone (a team store, whose receiver
   * is on another machine: docs/cli-contract.md "Teams and homologation").
   */
  listen?: boolean;
  host: string;
  port: number;
  path: string;
  secret?: string | undefined;
  extractOptions?: ExtractOptions;
}

export interface ResultWaiter {
  /** How results arrive: our own listener, or the store another process's listener writes. */
  readonly mode: { kind: 'listening'; url: string } | { kind: 'following'; url: string } | { kind: 'store'; url: string };
  /** Resolves with the final result, or `null` after `timeoutMs` or when `signal` aborts. */
  waitFor(idContrato: string, timeoutMs: number, signal: AbortSignal): Promise<ContractResult | null>;
  close(): Promise<void>;
}

/** The store an `econsig watch` on that address writes to, from its /healthz; undefined if it is not one. */
async function watchStoreAt(host: string, port: number): Promise<string | undefined> {
  try {
    const res = await request(`http://${hostForUrl(host)}:${port}/healthz`, { headersTimeout: 1_000, bodyTimeout: 1_000 });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text.length > 4096) return undefined;
    const body = JSON.parse(text) as { service?: unknown; store?: unknown };
    return body.service === 'econsig-watch' && typeof body.store === 'string' ? body.store : undefined;
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
  let mode: ResultWaiter['mode'] = { kind: 'store', url: options.store.location };
  if (options.listen !== false) {
    try {
      listener = await startListener({
        host: options.host,
        port: options.port,
        path: options.path,
        store: options.store,
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
      // Only a watch that writes to this very store brings the results here.
      const theirs = await watchStoreAt(options.host, options.port);
      if (theirs === undefined) throw error;
      if (theirs !== options.store.location) {
        throw new EconsigError(text('submit.waitOtherStore', { address: `${options.host}:${options.port}`, theirs, ours: options.store.location }), {
          exitCode: ExitCode.usage,
          hint: text('submit.waitOtherStoreHint'),
        });
      }
      mode = { kind: 'following', url: `http://${hostForUrl(options.host)}:${options.port}${options.path}` };
    }
  }

  // Followed from now on; what was recorded before is asked for by contract in waitFor.
  const stop = new AbortController();
  try {
    await options.store.followResults((result) => publish(fromStore(result)), { signal: stop.signal });
  } catch (error) {
    await listener?.close();
    throw error;
  }

  return {
    mode,
    async waitFor(idContrato, timeoutMs, signal) {
      // Asked again after the await: the follower may have published it meanwhile.
      const known = results.get(idContrato) ?? (await earlierResult(options.store, idContrato)) ?? results.get(idContrato);
      if (known) return known;
      // An abort listener added to a signal that already fired never runs.
      if (signal.aborted) return null;
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

/** A result already in the store (it came before the wait began); a store that cannot answer is asked again by the follower. */
async function earlierResult(store: Store, idContrato: string): Promise<ContractResult | null> {
  try {
    const found = await store.resultOf(idContrato);
    return found ? fromStore(found) : null;
  } catch {
    return null;
  }
}
