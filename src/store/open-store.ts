/**
 * Which store a command gets: the one place that chooses an engine (cli-contract.md,
 * "The store"). SQLite in ECONSIG_HOME by default. An old journal.jsonl in the home is
 * imported the first time.
 */
import { type ImportReport, importJournal } from './import-journal.js';
import { SqliteStore } from './sqlite.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  home: string;
  /** Told when an old journal.jsonl was imported (for a line on stderr). */
  onImport?: (report: ImportReport) => void;
}

/** Opens (creating and migrating) the store; throws StorageError (exit 74) when it cannot. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // TODO(issue 15): a postgres:// ECONSIG_DATABASE_URL opens store/postgres.ts instead.
  const store = await SqliteStore.open(options.home);
  try {
    const report = await importJournal(options.home, store);
    if (report) options.onImport?.(report);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
