import { DEFAULT_DATABASE_PATH } from '../bot/config.js';
import { backupDatabase } from '../store/backup.js';
import { StoreError } from '../store/sqlite/database.js';
import { type ParsedArgs, rejectLeftovers, UsageError } from './args.js';
import { warnedEnvironment } from './environment.js';
import type { Io } from './io.js';

/** Copies the database named by DATABASE_PATH to a new file, safely while the bot runs. */
export async function runBackup(args: ParsedArgs, io: Io): Promise<number> {
  const [target, extra] = args.positionals;
  if (target === undefined) throw new UsageError('name the file to write the backup to: eventor-bot backup <file>');
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  rejectLeftovers(args.flags);
  const env = warnedEnvironment(io, 'backup');
  // Only the database's place: a backup needs no token or key, so it works from a bare shell too.
  const source = env.DATABASE_PATH?.trim() || DEFAULT_DATABASE_PATH;
  // Still the SQLite file (a backup before `migrate --to postgres` has both set), but the bot's
  // store is elsewhere: said before anything, so that nobody takes this for a backup of PostgreSQL.
  const onPostgres = Boolean(env.DATABASE_URL?.trim());
  const pgDump =
    'DATABASE_URL is set, so the bot keeps its data in PostgreSQL, which this command does not copy: ' +
    'back it up with pg_dump (docs/operators.md#running-at-scale)';
  if (onPostgres) io.err(`eventor-bot backup: note: this copies the SQLite file ${source} only; ${pgDump}\n`);
  try {
    const { schema, bytes } = await backupDatabase(source, target);
    io.out(
      `Backed up ${source} to ${target} (schema ${schema}, ${Math.max(1, Math.round(bytes / 1024))} KiB).\n` +
        'Keep SECRET_KEY with it, somewhere else: the Eventor keys in it are sealed with it.\n',
    );
    return 0;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    io.err(`eventor-bot backup: ${error.message}\n`);
    return 1;
  }
}
