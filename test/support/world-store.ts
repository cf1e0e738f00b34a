import Database from 'better-sqlite3';
import pg from 'pg';
import type { LoopbackWorld } from '../../harness/loopback/world.js';
import type { Store } from '../../src/store/interfaces.js';
import { openStore } from '../../src/store/open.js';
import { SecretBox } from '../../src/store/secrets.js';

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
 * One SQL statement on the world's database, on a connection of its own (so also while the world's
 * bot is stopped), `?` for each parameter (as SQLite writes them; turned into `$1, $2, …` for
 * PostgreSQL). The rows it returns, none for a statement that returns none.
 */
export async function worldSql(world: LoopbackWorld, sql: string, params: unknown[] = []): Promise<unknown[]> {
  if (world.databaseUrl === undefined) {
    const db = new Database(world.databasePath, { fileMustExist: true });
    try {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params);
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
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

/** Rows holding `guildId` in every table of the world's database that has a `guild_id` column. */
export async function guildRows(world: LoopbackWorld, guildId: string): Promise<Record<string, number>> {
  const tables = (await worldSql(
    world,
    world.databaseUrl === undefined
      ? "SELECT m.name AS name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'guild_id'"
      : "SELECT table_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'guild_id'",
  )) as Array<{ name: string }>;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = (await worldSql(world, `SELECT COUNT(*) AS n FROM ${name} WHERE guild_id = ?`, [guildId])) as Array<{
      n: number | string;
    }>;
    // PostgreSQL's count is a bigint, which its driver gives as a string.
    counts[name] = Number(row!.n);
  }
  return counts;
}

/** The names of the store's tables in the world's database (SQLite's own left out). */
export async function worldTables(world: LoopbackWorld): Promise<string[]> {
  const rows = (await worldSql(
    world,
    world.databaseUrl === undefined
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  )) as Array<{ name: string }>;
  return rows.map((r) => r.name);
}
