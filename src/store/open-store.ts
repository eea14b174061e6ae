/**
 * Which store a command gets: the one place that chooses an engine (cli-contract.md,
 * "The store"). SQLite in ECONSIG_HOME by default.
 */
import { SqliteStore } from './sqlite.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  home: string;
}

/** Opens (creating and migrating) the store; throws StorageError (exit 74) when it cannot. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // TODO(issue 15): a postgres:// ECONSIG_DATABASE_URL opens store/postgres.ts instead.
  return SqliteStore.open(options.home);
}
