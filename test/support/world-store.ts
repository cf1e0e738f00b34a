import pg from 'pg';
import type { LoopbackWorld } from '../../src/loopback/world.js';
import type { Store } from '../../src/store/interfaces.js';
import { openStore } from '../../src/store/open.js';
import { SecretBox } from '../../src/store/secrets.js';
import { sqliteDb } from './sqlite.js';

/**
 * The loopback world's database, whichever it is on (its SQLite file, or its PostgreSQL database in
 * the `postgres-feeds` project): opened again as another process would, or read and written row by
 * row for tests that set up or check what the store itself offers no method for.
 */

/** Another store (its own connections) on the world's database, with its own clock. */
export function reopenWorldStore(world: LoopbackWorld, now?: () => Date): Promise<Store> {
  return openStore(
    {
      databasePath: world.databasePath,
      ...(world.databaseUrl === undefined ? {} : { databaseUrl: world.databaseUrl }),
    },
    new SecretBox(world.config.secretKey),
    now,
  );
}

/**
 * One SQL statement on the world's database, `?` for each parameter (as SQLite writes them; turned
 * into `$1, $2, …` for PostgreSQL). The rows it returns, none for a statement that returns none.
 */
export async function worldSql(world: LoopbackWorld, sql: string, params: unknown[] = []): Promise<unknown[]> {
  if (world.databaseUrl === undefined) {
    const statement = sqliteDb(world.bot.store).prepare(sql);
    if (statement.reader) return statement.all(...params);
    statement.run(...params);
    return [];
  }
  const client = new pg.Client({ connectionString: world.databaseUrl });
  await client.connect();
  try {
    let n = 0;
    const { rows } = await client.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
    return rows;
  } finally {
    await client.end();
  }
}
