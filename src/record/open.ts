/**
 * Which store a command gets: the one place that chooses an engine (docs/cli-contract.md,
 * "The store"). SQLite in ECONSIG_HOME by default; the PostgreSQL team store when
 * `database-url` (ECONSIG_DATABASE_URL) is set (docs/team.md). An old journal.jsonl in the
 * home is imported the first time, into whichever store is in force.
 */
import { type ImportReport, importJournal } from './import-journal.js';
import { SqliteStore } from './sqlite.js';
import type { Store } from './record.js';

export interface OpenStoreOptions {
  home: string;
  /** A postgres:// URL: the team store (setting database-url); undefined: SQLite in `home`. */
  databaseUrl?: string | undefined;
  /** Told when an old journal.jsonl was imported (for a line on stderr). */
  onImport?: (report: ImportReport) => void;
}

/** Opens (creating and migrating) the store; throws StorageError (exit 74) when it cannot. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const store = options.databaseUrl
    ? await (await import('./postgres.js')).PostgresStore.open(options.databaseUrl)
    : await SqliteStore.open(options.home);
  try {
    const report = await importJournal(options.home, store);
    if (report) options.onImport?.(report);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
