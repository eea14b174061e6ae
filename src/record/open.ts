/**
 * Which store a command gets: the one place that chooses an engine (docs/cli-contract.md,
 * "The store"). SQLite in ECONSIG_HOME by default; the PostgreSQL team store when
 * `database-url` (ECONSIG_DATABASE_URL) is set (docs/team.md). An old journal.jsonl in the
 * home is imported the first time, into whichever store is in force, and a fence against
 * the journal builds is left in its place (import-journal.ts). Answers a batch kept aside
 * when its store failed are recorded (kept-answers.ts). Delivery bodies older than the
 * retention are dropped when the store opens (docs/privacy.md).
 */
import { fenceJournal, importJournal } from './import-journal.js';
import { recordKeptAnswers } from './kept-answers.js';
import { SqliteStore } from './sqlite.js';
import { StorageError } from '../settings/home.js';
import { payloadRetentionMs, type ResolvedSettings } from '../settings/settings.js';
import type { Store, StoreNotice } from './record.js';

export interface OpenStoreOptions {
  home: string;
  /** A postgres:// URL: the team store (setting database-url); undefined: SQLite in `home`. */
  databaseUrl?: string | undefined;
  /** Told what opening did that the operator should hear of (an import, a migration): a line on stderr. */
  onNotice?: ((notice: StoreNotice) => void) | undefined;
  /** store.payload-retention: delivery bodies older than this are dropped as the store opens; undefined: none is. */
  payloadRetentionMs?: number | undefined;
  now?: () => Date;
}

/**
 * Drops the bodies of deliveries older than the retention: one indexed read when there are
 * none, so it is done whenever a store opens, and once a day by a receiver that stays up.
 * Housekeeping does not fail the command: a store this process may not write (a read-only
 * database role) keeps its bodies until a process that may write opens it.
 */
export async function dropOldBodies(store: Store, retentionMs: number, now: Date): Promise<number> {
  try {
    return await store.dropBodies(new Date(now.getTime() - retentionMs).toISOString(), now.toISOString());
  } catch (error) {
    if (error instanceof StorageError) return 0;
    throw error;
  }
}

/** Opens (creating and migrating) the store; throws StorageError (exit 74) when it cannot. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const engine = { ...(options.onNotice ? { onNotice: options.onNotice } : {}) };
  const store = options.databaseUrl
    ? await (await import('./postgres.js')).PostgresStore.open(options.databaseUrl, engine)
    : await SqliteStore.open(options.home, engine);
  try {
    const report = await importJournal(options.home, store);
    if (report) options.onNotice?.({ kind: 'journalImported', report });
    // Every home this version opens a store from stops the journal builds from sending.
    await fenceJournal(options.home);
    const kept = await recordKeptAnswers(options.home, store);
    if (kept && kept.recorded > 0) options.onNotice?.({ kind: 'answersRecorded', report: kept });
    if (options.payloadRetentionMs !== undefined) await dropOldBodies(store, options.payloadRetentionMs, options.now?.() ?? new Date());
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** The store of a profile's settings: the team store of database-url, else SQLite in the home; the retention applied. */
export function openSettingsStore(settings: Pick<ResolvedSettings, 'paths' | 'values'>, onNotice?: (notice: StoreNotice) => void): Promise<Store> {
  return openStore({
    home: settings.paths.home,
    databaseUrl: settings.values['database-url'],
    payloadRetentionMs: payloadRetentionMs(settings.values),
    onNotice,
  });
}
