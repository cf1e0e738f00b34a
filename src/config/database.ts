/**
 * DATABASE_URL: a PostgreSQL server instead of the embedded SQLite file, for several bot
 * processes on one database (docs/operators.md#running-at-scale). The URL usually holds a
 * password, so no message quotes it, and a URL the driver would read otherwise than it is written
 * is refused here, before anything connects: how it is read is the PostgreSQL store's one reading
 * of it (`readDatabaseUrl` in src/store/postgres/target.ts, the driver's own parser).
 */
import { databaseUrlProblem, readDatabaseUrl } from '../store/postgres/target.js';
import type { ConfigEnv } from './variables.js';

export { databaseUrlProblem };

/** DATABASE_URL when set (trimmed), else null; a problem is added to `problems` and gives null. */
export function databaseUrlFromEnv(env: ConfigEnv, problems: string[]): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (raw === undefined || raw === '') return null;
  const problem = databaseUrlProblem(raw);
  if (problem === null) return raw;
  problems.push(`DATABASE_URL ${problem}; it is not shown here, since it may hold a password`);
  return null;
}

/** The password of a DATABASE_URL in every form a text could quote it, for the log to mask; none for a URL refused. */
export function databaseUrlSecrets(raw: string): string[] {
  const read = readDatabaseUrl(raw);
  return 'problem' in read ? [raw] : read.secrets;
}
