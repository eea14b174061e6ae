/**
 * Which store a command gets: the one place that chooses an engine (docs/cli-contract.md,
 * "The store"). SQLite in ECONSIG_HOME by default; the PostgreSQL team store when
 * `database-url` (ECONSIG_DATABASE_URL) is set (docs/team.md). An old journal.jsonl in the
 * home is imported the first time, into whichever store is in force, and a fence against
 * the journal builds is left in its place (import-journal.ts). Answers a batch kept aside
 * when its store failed are recorded (kept-answers.ts).
 */
import { fenceJournal, importJournal } from './import-journal.js';
import { recordKeptAnswers } from './kept-answers.js';
import { SqliteStore } from './sqlite.js';
import type { Store, StoreNotice } from './record.js';

export interface OpenStoreOptions {
  home: string;
  /** A postgres:// URL: the team store (setting database-url); undefined: SQLite in `home`. */
  databaseUrl?: string | undefined;
  /** Told what opening did that the operator should hear of (an import, a migration): a line on stderr. */
  onNotice?: ((notice: StoreNotice) => void) | undefined;
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
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
