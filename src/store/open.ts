/**
 * Opens the bot's store from its configuration: the PostgreSQL database DATABASE_URL names when it
 * is set, otherwise the embedded SQLite file at DATABASE_PATH (docs/operators.md#running-at-scale).
 * `start`, `tick`, the loopback world and the bench all open their store here, so every one of them
 * runs on either database the same way.
 */
import type { Heartbeat, Store } from './interfaces.js';
import type { SecretBox } from './secrets.js';
import type { OpenDatabaseOptions } from './sqlite/database.js';
import { openSqliteStore } from './sqlite/store.js';

export interface StoreLocation {
  /** The SQLite file; used when `databaseUrl` is absent. */
  databasePath: string;
  /** A `postgres://` URL: PostgreSQL instead of the file. It may hold a password: never shown. */
  databaseUrl?: string;
}

/**
 * The store at `where`, created or migrated. `sqlite` holds what only the embedded file has (taking
 * an empty file as new, its permissions); a PostgreSQL server keeps its own. Refusals are
 * `StoreError`s in one sentence, without the URL's password.
 */
export async function openStore(
  where: StoreLocation,
  secrets: SecretBox | Promise<SecretBox>,
  now?: () => Date,
  sqlite: OpenDatabaseOptions = {},
): Promise<Store> {
  if (where.databaseUrl !== undefined) {
    // Loaded only when used: a default install on SQLite never loads the PostgreSQL driver.
    const { openPostgresStore } = await import('./postgres/store.js');
    return openPostgresStore(where.databaseUrl, secrets, now);
  }
  return openSqliteStore(where.databasePath, secrets, now, sqlite);
}

/**
 * Every process's heartbeat in the database at `where` (docs/operators.md#monitoring), read
 * without creating, migrating or writing anything; and which database that was, for the message.
 * A database without heartbeats yet gives none. Refusals are `StoreError`s in one sentence.
 */
export async function readHeartbeats(where: StoreLocation): Promise<{ description: string; beats: Heartbeat[] }> {
  if (where.databaseUrl !== undefined) {
    const { readPostgresHeartbeats } = await import('./postgres/heartbeats.js');
    return readPostgresHeartbeats(where.databaseUrl);
  }
  const { readSqliteHeartbeats } = await import('./sqlite/heartbeats.js');
  return { description: `database ${where.databasePath}`, beats: readSqliteHeartbeats(where.databasePath) };
}
