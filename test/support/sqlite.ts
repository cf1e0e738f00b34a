import type { Store } from '../../src/store/interfaces.js';
import type { Db } from '../../src/store/sqlite/database.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';

/** The SQLite connection under a store, for tests that look at the file's rows themselves. */
export function sqliteDb(store: Store): Db {
  if (!(store instanceof SqliteStore)) throw new Error(`this test reads SQLite rows; the store is ${store.dialect}`);
  return store.db;
}
