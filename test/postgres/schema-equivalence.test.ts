import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/store/sqlite/database.js';
import { VERSION_TABLE } from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { NEEDS_POSTGRES, usePostgres } from '../support/postgres.js';
import { testSecrets } from '../support/stores.js';

/**
 * Both databases' migrations give the same schema (docs/decisions/store-dialects.md): the same
 * tables, columns (types mapped, nullability, defaults), primary keys, indexes and foreign keys,
 * so that the same code and a copy from one to the other work on both.
 */

/** A column as both databases can say it: `integer` or `text`, and a default in SQL. */
interface Column {
  type: string;
  notNull: boolean;
  /** The default as written, `generated` for a column the database numbers itself, or null. */
  default: string | null;
}

interface Table {
  columns: Record<string, Column>;
  primaryKey: string[];
  /** Indexes other than the primary key's: name → columns in order. */
  indexes: Record<string, string[]>;
  /** `column -> table(column) ON DELETE action` */
  foreignKeys: string[];
}

type Schema = Record<string, Table>;

function sqliteSchema(db: Db): Schema {
  const schema: Schema = {};
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as Array<{ name: string }>;
  for (const { name } of tables) {
    const info = db.prepare(`PRAGMA table_info(${name})`).all() as Array<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>;
    const primaryKey = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const columns: Record<string, Column> = {};
    for (const c of info) {
      // A lone INTEGER PRIMARY KEY is the rowid: SQLite numbers it.
      const generated = primaryKey.length === 1 && primaryKey[0] === c.name && c.type === 'INTEGER';
      columns[c.name] = {
        type: c.type.toLowerCase(),
        notNull: c.notnull === 1 || c.pk > 0,
        default: generated ? 'generated' : c.dflt_value,
      };
    }
    const indexes: Record<string, string[]> = {};
    const list = db.prepare(`PRAGMA index_list(${name})`).all() as Array<{ name: string; origin: string }>;
    for (const index of list.filter((i) => i.origin === 'c')) {
      const cols = db.prepare(`PRAGMA index_info(${index.name})`).all() as Array<{ seqno: number; name: string }>;
      indexes[index.name] = cols.sort((a, b) => a.seqno - b.seqno).map((c) => c.name);
    }
    const foreignKeys = (
      db.prepare(`PRAGMA foreign_key_list(${name})`).all() as Array<{
        table: string;
        from: string;
        to: string;
        on_delete: string;
      }>
    ).map((f) => `${f.from} -> ${f.table}(${f.to}) ON DELETE ${f.on_delete}`);
    schema[name] = { columns, primaryKey, indexes, foreignKeys };
  }
  return schema;
}

const PG_TYPES: Record<string, string> = { text: 'text', integer: 'integer', bigint: 'integer', smallint: 'integer' };
const PG_DELETE_ACTIONS: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

async function postgresSchema(client: pg.Client): Promise<Schema> {
  const schema: Schema = {};
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity
     FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> $1
     ORDER BY table_name, ordinal_position`,
    [VERSION_TABLE],
  );
  for (const c of columns.rows) {
    const table = (schema[c.table_name] ??= { columns: {}, primaryKey: [], indexes: {}, foreignKeys: [] });
    table.columns[c.column_name] = {
      type: PG_TYPES[c.data_type] ?? c.data_type,
      notNull: c.is_nullable === 'NO',
      // `'{}'::text` is SQLite's `'{}'`.
      default: c.is_identity === 'YES' ? 'generated' : (c.column_default?.replace(/::[a-z ]+$/, '') ?? null),
    };
  }
  const indexes = await client.query<{ table: string; index: string; columns: string[]; primary: boolean }>(
    `SELECT t.relname AS table, i.relname AS index, ix.indisprimary AS primary,
            array_agg(a.attname::text ORDER BY k.ord) AS columns
     FROM pg_index ix
     JOIN pg_class i ON i.oid = ix.indexrelid
     JOIN pg_class t ON t.oid = ix.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k (attnum, ord)
     JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
     WHERE n.nspname = current_schema() AND t.relname <> $1
     GROUP BY t.relname, i.relname, ix.indisprimary`,
    [VERSION_TABLE],
  );
  for (const index of indexes.rows) {
    const table = schema[index.table]!;
    if (index.primary) table.primaryKey = index.columns;
    else table.indexes[index.index] = index.columns;
  }
  const foreignKeys = await client.query<{
    table: string;
    column: string;
    ref: string;
    ref_column: string;
    action: string;
  }>(
    `SELECT t.relname AS table, a.attname AS column, rt.relname AS ref, ra.attname AS ref_column, c.confdeltype AS action
     FROM pg_constraint c
     JOIN pg_class t ON t.oid = c.conrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     JOIN pg_class rt ON rt.oid = c.confrelid
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
     WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  for (const f of foreignKeys.rows)
    schema[f.table]!.foreignKeys.push(
      `${f.column} -> ${f.ref}(${f.ref_column}) ON DELETE ${PG_DELETE_ACTIONS[f.action]}`,
    );
  return schema;
}

describe(`the SQLite and PostgreSQL schemas ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-schemas-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('have the same tables, columns, keys, indexes and foreign keys', async () => {
    const db = openDatabase(path.join(dir, 'fresh.sqlite'));
    let sqlite: Schema;
    try {
      sqlite = sqliteSchema(db);
    } finally {
      db.close();
    }

    const store = await openPostgresStore(server().url, testSecrets());
    await store.close();
    const client = new pg.Client({ connectionString: server().url });
    await client.connect();
    let postgres: Schema;
    try {
      postgres = await postgresSchema(client);
    } finally {
      await client.end();
    }

    // The comparison only means something if it saw the whole schema.
    expect(Object.keys(sqlite)).toHaveLength(21);
    expect(sqlite.throttle_events!.primaryKey).toEqual(['id']);
    expect(sqlite.guild_channels!.foreignKeys).toEqual(['guild_id -> guild_settings(guild_id) ON DELETE CASCADE']);
    expect(Object.keys(postgres).sort()).toEqual(Object.keys(sqlite).sort());
    for (const name of Object.keys(sqlite)) expect(postgres[name], name).toEqual(sqlite[name]);
  });
});
