/**
 * Copying a whole database between SQLite and PostgreSQL (`eventor-bot migrate`): every table,
 * row for row, ids kept, in one transaction on the side written, into a target that holds nothing.
 * Both schemas have the same tables and columns (a test compares them), so nothing is translated
 * but what the drivers hand back: PostgreSQL's 64-bit ids come as text, SQLite's as numbers.
 * Sealed keys are copied as they are: the same SECRET_KEY opens them on the other side.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import pg from 'pg';
import { StoreError } from '../errors.js';
import { type Db, openDatabase } from '../sqlite/database.js';
import { migrate } from './migrate.js';
import { VERSION_TABLE } from './migrations.js';
import { describeTarget, type Target } from './target.js';

/** Every table, parents before children (guild_channels refers to guild_settings). */
export const COPIED_TABLES = [
  'guild_settings',
  'guild_channels',
  'member_links',
  'link_requests',
  'link_settings',
  'audit_log',
  'posted_items',
  'post_claims',
  'feed_state',
  'feed_settings',
  'notify_subscriptions',
  'throttle_events',
  'guild_departures',
  'leases',
  'member_sweeps',
  'heartbeats',
  'season_events',
  'season_scans',
  'cups',
  'live_races',
  'live_snapshots',
] as const;

/** Rows per INSERT into PostgreSQL: well under its 65535 parameters for the widest table. */
const BATCH_ROWS = 500;

export interface CopyReport {
  /** Rows copied per table, in copy order. */
  rows: Record<string, number>;
  /** What was written: the file, or the PostgreSQL database (no password). */
  target: string;
}

interface PgColumn {
  name: string;
  /** `bigint` comes back as text from pg and goes to SQLite as a number. */
  bigint: boolean;
}

async function postgresColumns(client: pg.ClientBase): Promise<Map<string, PgColumn[]>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name <> $1 ORDER BY table_name, ordinal_position`,
    [VERSION_TABLE],
  );
  const tables = new Map<string, PgColumn[]>();
  for (const r of rows) {
    const list = tables.get(r.table_name) ?? [];
    list.push({ name: r.column_name, bigint: r.data_type === 'bigint' });
    tables.set(r.table_name, list);
  }
  return tables;
}

function sqliteColumns(db: Db, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
}

/**
 * How each PostgreSQL column is read from or written to SQLite: by its name, or, for an `id` that
 * SQLite keeps as its implicit rowid (throttle_events before its explicit key), as `rowid`.
 * Refuses tables or columns that one side has and the other has not: nothing may be left behind.
 */
function columnMap(db: Db, pgColumns: Map<string, PgColumn[]>): Map<string, Array<{ pg: PgColumn; sqlite: string }>> {
  const sqliteTables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{
      name: string;
    }>
  ).map((t) => t.name);
  const expected = [...COPIED_TABLES].sort();
  for (const [side, tables] of [
    ['SQLite', sqliteTables],
    ['PostgreSQL', [...pgColumns.keys()]],
  ] as const) {
    const odd = tables
      .filter((t) => !expected.includes(t as never))
      .concat(expected.filter((t) => !tables.includes(t)));
    if (odd.length > 0)
      throw new StoreError(
        `the ${side} schema does not match this eventor-bot's (tables ${odd.join(', ')}): nothing was copied`,
      );
  }
  const map = new Map<string, Array<{ pg: PgColumn; sqlite: string }>>();
  for (const table of COPIED_TABLES) {
    const inSqlite = sqliteColumns(db, table);
    const columns = pgColumns.get(table)!;
    const pairs = columns.map((c) => ({ pg: c, sqlite: inSqlite.includes(c.name) ? c.name : 'rowid' }));
    const missing = pairs.filter((p) => p.sqlite === 'rowid' && p.pg.name !== 'id').map((p) => p.pg.name);
    const extra = inSqlite.filter((name) => !columns.some((c) => c.name === name));
    if (missing.length > 0 || extra.length > 0)
      throw new StoreError(
        `the column${missing.length + extra.length > 1 ? 's' : ''} ${[...missing, ...extra].map((c) => `${table}.${c}`).join(', ')} ` +
          'are not in both databases: nothing was copied',
      );
    map.set(table, pairs);
  }
  return map;
}

/** Connects for a copy; the database is created or migrated first, so both schemas are this version's. */
async function connectMigrated(url: string): Promise<{ client: pg.Client; target: Target }> {
  const target = describeTarget(url);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  try {
    await migrate(pool, target);
  } finally {
    await pool.end().catch(() => undefined);
  }
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new StoreError(`cannot connect to the ${target.description}: ${target.scrub(error)}`);
  }
  return { client, target };
}

/**
 * Copies the SQLite database `file` (migrated first, as `start` would) into the PostgreSQL database
 * `url`, which must hold no rows; in one transaction, with identity sequences moved past the
 * copied ids. The bot must not be running on either.
 */
export async function copySqliteToPostgres(file: string, url: string): Promise<CopyReport> {
  if (!existsSync(file)) throw new StoreError(`there is no database at ${file} (check DATABASE_PATH)`);
  if (statSync(file).isDirectory()) throw new StoreError(`${file} is a folder, not a database (check DATABASE_PATH)`);
  const db = openDatabase(file);
  try {
    const { client, target } = await connectMigrated(url);
    try {
      const columns = columnMap(db, await postgresColumns(client));
      await client.query('BEGIN');
      try {
        // No other writer while it is checked and filled; a second copy waits, then finds it full.
        await client.query(`LOCK TABLE ${COPIED_TABLES.join(', ')} IN SHARE ROW EXCLUSIVE MODE`);
        const full: string[] = [];
        for (const table of COPIED_TABLES) {
          const { rowCount } = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
          if (rowCount) full.push(table);
        }
        if (full.length > 0)
          throw new StoreError(
            `the ${target.description} is not empty (rows in ${full.join(', ')}): migrate copies only into an empty database, and nothing was copied`,
          );
        const rows: Record<string, number> = {};
        // One read transaction on SQLite: every table from the same moment.
        db.exec('BEGIN');
        try {
          for (const table of COPIED_TABLES) {
            const pairs = columns.get(table)!;
            const select = pairs.map((p) => (p.sqlite === p.pg.name ? p.sqlite : `${p.sqlite} AS ${p.pg.name}`));
            const source = db.prepare(`SELECT ${select.join(', ')} FROM ${table}`).raw(true);
            let batch: unknown[][] = [];
            rows[table] = 0;
            const flush = async () => {
              if (batch.length === 0) return;
              const values = batch.map(
                (_, r) => `(${pairs.map((__, c) => `$${r * pairs.length + c + 1}`).join(', ')})`,
              );
              await client.query(
                `INSERT INTO ${table} (${pairs.map((p) => p.pg.name).join(', ')}) VALUES ${values.join(', ')}`,
                batch.flat(),
              );
              rows[table]! += batch.length;
              batch = [];
            };
            for (const row of source.iterate() as Iterable<unknown[]>) {
              batch.push(row);
              if (batch.length >= BATCH_ROWS) await flush();
            }
            await flush();
          }
        } finally {
          db.exec('ROLLBACK');
        }
        // New rows numbered by PostgreSQL must come after the copied ids.
        for (const table of COPIED_TABLES) {
          if (!columns.get(table)!.some((p) => p.pg.name === 'id')) continue;
          await client.query(
            `SELECT setval(pg_get_serial_sequence($1, 'id'), COALESCE((SELECT max(id) FROM ${table}), 0) + 1, false)`,
            [table],
          );
        }
        await client.query('COMMIT');
        return { rows, target: target.description };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    db.close();
  }
}

/**
 * Copies the PostgreSQL database `url` (migrated first) into a new SQLite file `file`, in one
 * transaction; the file must not exist. The way back, and what proves the copy loses nothing.
 */
export async function copyPostgresToSqlite(url: string, file: string): Promise<CopyReport> {
  if (existsSync(file)) throw new StoreError(`${file} already exists; name a new file (a copy never overwrites)`);
  const { client } = await connectMigrated(url);
  let db: Db | null = null;
  let done = false;
  try {
    const pgColumns = await postgresColumns(client);
    db = openDatabase(file);
    const columns = columnMap(db, pgColumns);
    // Every table from one snapshot of PostgreSQL.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const read = new Map<string, unknown[][]>();
    try {
      for (const table of COPIED_TABLES) {
        const pairs = columns.get(table)!;
        const { rows } = await client.query<unknown[]>({
          text: `SELECT ${pairs.map((p) => p.pg.name).join(', ')} FROM ${table}`,
          rowMode: 'array',
        });
        read.set(
          table,
          rows.map((row) => row.map((value, c) => (pairs[c]!.pg.bigint && value !== null ? Number(value) : value))),
        );
      }
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
    }
    const sqlite = db;
    const rows: Record<string, number> = {};
    sqlite.transaction(() => {
      for (const table of COPIED_TABLES) {
        const pairs = columns.get(table)!;
        const insert = sqlite.prepare(
          `INSERT INTO ${table} (${pairs.map((p) => p.sqlite).join(', ')}) VALUES (${pairs.map(() => '?').join(', ')})`,
        );
        for (const row of read.get(table)!) insert.run(...row);
        rows[table] = read.get(table)!.length;
      }
    })();
    done = true;
    return { rows, target: file };
  } finally {
    db?.close();
    await client.end().catch(() => undefined);
    // A file this copy created and could not fill would look like a database with nothing in it.
    if (!done && db !== null) for (const name of [file, `${file}-wal`, `${file}-shm`]) rmSync(name, { force: true });
  }
}
