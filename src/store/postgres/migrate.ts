/**
 * Preparing a PostgreSQL database: reach it, make sure it is empty or eventor-bot's and not from
 * a newer version, then apply the migrations it lacks. Processes starting at once take turns on
 * an advisory lock, so each migration runs once; each runs in a transaction of its own.
 */
import type pg from 'pg';
import { StoreError } from '../errors.js';
import { checkOut } from './connection.js';
import { POSTGRES_MIGRATIONS, VERSION_TABLE } from './migrations.js';
import type { Target } from './target.js';

/** The advisory lock every eventor-bot holds while it migrates (any fixed name, the same everywhere). */
const MIGRATION_LOCK = 'eventor-bot migrations';
/** How many other tables a refusal names before "and N more". */
const TABLES_SHOWN = 5;

/** Why a connection failed, in the operator's words; never the password (`Target.scrub`). */
function unreachable(error: unknown, target: Target): StoreError {
  const code = String((error as { code?: unknown }).code ?? '');
  const why =
    code === 'ECONNREFUSED'
      ? 'nothing accepts connections there (is PostgreSQL running, on that port?)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `the host name ${target.host} is not known`
        : code === '28P01' || code === '28000'
          ? 'the server refused that user or password'
          : code === '3D000'
            ? 'that database does not exist (create it: createdb)'
            : target.scrub(error);
  // A wrong password or database stays wrong; a server not up yet (a compose start) comes.
  const lasting = ['28P01', '28000', '3D000'].includes(code);
  return new StoreError(`cannot connect to the ${target.description}: ${why}`, { lasting });
}

export async function migrate(
  pool: pg.Pool,
  target: Target,
  migrations: readonly string[] = POSTGRES_MIGRATIONS,
): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await checkOut(pool);
  } catch (error) {
    throw unreachable(error, target);
  }
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [MIGRATION_LOCK]);
    try {
      const current = await versionOf(client, target);
      if (current > migrations.length) {
        throw new StoreError(
          `the ${target.description} was written by a newer eventor-bot (schema ${current}; this one knows schemas up to ${migrations.length}) and was left unchanged: ` +
            'upgrade eventor-bot again, or restore a backup made before the upgrade',
          { lasting: true },
        );
      }
      for (let version = current + 1; version <= migrations.length; version++) {
        await client.query('BEGIN');
        try {
          await client.query(migrations[version - 1]!);
          await client.query(`INSERT INTO ${VERSION_TABLE} (version, applied_at) VALUES ($1, $2)`, [
            version,
            new Date().toISOString(),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [MIGRATION_LOCK]);
    }
  } catch (error) {
    if (!(error instanceof StoreError) && (error as { code?: unknown }).code === undefined) broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * The schema version recorded in the database: 0 for an empty one (the version table is made
 * then). A database with other tables and no version table is someone else's: refused untouched.
 */
async function versionOf(client: pg.PoolClient, target: Target): Promise<number> {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
  );
  const tables = rows.map((r) => r.table_name);
  if (!tables.includes(VERSION_TABLE)) {
    if (tables.length > 0) {
      const shown = tables.slice(0, TABLES_SHOWN).join(', ');
      const more = tables.length > TABLES_SHOWN ? ` and ${tables.length - TABLES_SHOWN} more` : '';
      throw new StoreError(
        `the ${target.description} is not empty and not eventor-bot's (it has tables ${shown}${more} and no ${VERSION_TABLE}); ` +
          'it was left unchanged: give eventor-bot an empty database of its own',
        { lasting: true },
      );
    }
    await client.query(`CREATE TABLE ${VERSION_TABLE} (version integer PRIMARY KEY, applied_at text NOT NULL)`);
    return 0;
  }
  const version = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${VERSION_TABLE}`);
  return version.rows[0]?.v ?? 0;
}
