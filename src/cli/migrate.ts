import { DEFAULT_DATABASE_PATH } from '../bot/config.js';
import { databaseUrlFromEnv } from '../config/database.js';
import { ConfigError } from '../config/errors.js';
import { StoreError } from '../store/errors.js';
import { copyPostgresToSqlite, copySqliteToPostgres } from '../store/postgres/copy.js';
import { type ParsedArgs, rejectLeftovers, takeString, UsageError } from './args.js';
import { warnedEnvironment } from './environment.js';
import type { Io } from './io.js';

const TARGETS = ['postgres', 'sqlite'] as const;

/**
 * Copies the whole database from SQLite (DATABASE_PATH) into an empty PostgreSQL (DATABASE_URL),
 * or back into a new SQLite file: what an operator who outgrows one machine runs once, with the
 * bot stopped (docs/operators.md#running-at-scale).
 */
export async function runMigrate(args: ParsedArgs, io: Io): Promise<number> {
  const to = takeString(args.flags, 'to');
  if (to === undefined || !(TARGETS as readonly string[]).includes(to))
    throw new UsageError(`say where to copy the database: eventor-bot migrate --to ${TARGETS.join('|')}`);
  const [extra] = args.positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  rejectLeftovers(args.flags);
  const env = warnedEnvironment(io, 'migrate');
  const problems: string[] = [];
  const url = databaseUrlFromEnv(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  if (url === null) throw new ConfigError(['DATABASE_URL must name the PostgreSQL database to copy to or from']);
  const file = env.DATABASE_PATH?.trim() || DEFAULT_DATABASE_PATH;
  try {
    const report = to === 'postgres' ? await copySqliteToPostgres(file, url) : await copyPostgresToSqlite(url, file);
    const total = Object.values(report.rows).reduce((a, b) => a + b, 0);
    const tables = Object.keys(report.rows).length;
    io.out(
      `Copied ${total} row${total === 1 ? '' : 's'} in ${tables} tables into ${report.target}.\n` +
        (to === 'postgres'
          ? 'Set DATABASE_URL for start and tick, with the same SECRET_KEY; keep the SQLite file as a backup.\n'
          : 'Unset DATABASE_URL to run on this file (DATABASE_PATH), with the same SECRET_KEY.\n'),
    );
    return 0;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    io.err(`eventor-bot migrate: ${error.message}\n`);
    return 1;
  }
}
