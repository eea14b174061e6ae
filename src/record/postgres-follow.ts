/**
 * Following results in the team store: LISTEN/NOTIFY on a connection of its own, so a
 * waiting desk learns a result within milliseconds of its commit, with a poll as the
 * fallback while that connection is down (and a slower one beside it while it is up).
 * Its reconnect is ours, a few lines: node-postgres's plain `Client` does not reconnect.
 */
import type { Client } from 'pg';
import type { FollowOptions, ResultRecord } from './record.js';
import { type RecordSql, RESULT_COLUMNS, type Row, type Statement, toResult } from './sql.js';

/** The channel results are announced on (the payload: their seqs, comma-separated). */
export const CHANNEL = 'econsig_results';

export interface FollowSource {
  sql: RecordSql;
  /** Runs a statement on the pool; rejects with a StorageError. */
  query(statement: Statement): Promise<Row[]>;
  /** A new connection (not from the pool: a LISTEN lives as long as its connection). */
  client(): Client;
}

/**
 * Results recorded by any machine after this resolves, announced by LISTEN/NOTIFY. LISTEN
 * starts before the starting point is read, so a result committed in between is either
 * read or announced, never neither. While the listening connection is down, a poll every
 * `intervalMs` (default 250 ms) takes over, and it reconnects with backoff. Each result is
 * handed over once (by seq). Stops when the signal aborts.
 */
export async function followResults(source: FollowSource, onResult: (result: ResultRecord) => void, options: FollowOptions): Promise<void> {
  const pollMs = options.intervalMs ?? 250;
  const seen = new Set<number>();
  /** Highest seq handed over (or present when following began). */
  let cursor = -1;
  /** The highest seq when following began: nothing at or below it is handed over. */
  let floor = Number.MAX_SAFE_INTEGER;
  let client: Client | undefined;
  let listening = false;
  let stopped = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let backoff = 100;

  /** `announced`: the row's NOTIFY came after LISTEN, so it committed after following began. */
  const hand = (rows: Row[], announced = false): void => {
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seen.has(seq) || (!announced && seq <= floor)) continue;
      seen.add(seq);
      // Keep the set small: a seq far behind the cursor cannot come again.
      if (seen.size > 10_000) for (const s of seen) if (s < cursor - 5_000) seen.delete(s);
      cursor = Math.max(cursor, seq);
      if (stopped) return;
      onResult(toResult(row));
    }
  };
  /**
   * Results past the cursor, and some before it: sequence values are taken at insert and
   * committed in any order, so a result with a lower seq can appear after a higher one.
   */
  const catchUp = async (): Promise<void> => hand(await source.query(source.sql.resultsAfter(Math.max(floor, cursor - 100))));
  const fetchSeqs = async (seqs: number[]): Promise<void> =>
    hand(await source.query({ sql: `SELECT seq, ${RESULT_COLUMNS} FROM econsig_results WHERE seq = ANY($1::bigint[]) ORDER BY seq`, params: [seqs] }), true);

  const poll = (): void => {
    pollTimer = undefined;
    if (stopped) return;
    const next = (): void => {
      if (!stopped) pollTimer = setTimeout(poll, listening ? pollMs * 8 : pollMs);
    };
    catchUp().then(next, next);
  };

  const connect = async (): Promise<void> => {
    reconnectTimer = undefined;
    if (stopped) return;
    const c = source.client();
    const lost = (): void => {
      if (client !== c) return;
      client = undefined;
      listening = false;
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      if (!stopped) {
        reconnectTimer = setTimeout(() => void connect(), backoff);
        backoff = Math.min(backoff * 2, 2_000);
      }
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (message) => {
      const seqs = (message.payload ?? '').split(',').map(Number).filter((n) => Number.isSafeInteger(n) && !seen.has(n));
      if (seqs.length > 0) fetchSeqs(seqs).catch(() => undefined);
    });
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (client !== c) return;
      listening = true;
      backoff = 100;
      // What committed while we were not listening (nothing to catch up on at the start).
      if (cursor >= 0) await catchUp().catch(() => undefined);
    } catch {
      lost();
    }
  };

  const stop = (): void => {
    stopped = true;
    clearTimeout(pollTimer);
    clearTimeout(reconnectTimer);
    const c = client;
    client = undefined;
    if (c) void c.end().catch(() => undefined);
  };
  options.signal.addEventListener('abort', stop, { once: true });
  if (options.signal.aborted) return stop();
  // LISTEN first, then the starting point: a result that commits in between has a seq past
  // the cursor (read by the poll) or is announced; one committed before is resultOf's.
  await connect();
  try {
    floor = Number((await source.query(source.sql.lastSeq()))[0]?.seq);
    cursor = Math.max(cursor, floor);
  } catch (error) {
    stop();
    throw error;
  }
  pollTimer = setTimeout(poll, listening ? pollMs * 8 : pollMs);
}
