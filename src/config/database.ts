/**
 * DATABASE_URL: a PostgreSQL server instead of the embedded SQLite file, for several bot
 * processes on one database (docs/operators.md#running-at-scale). The URL usually holds a
 * password, so no message quotes it and what is shown of it has the password taken out.
 */
import type { ConfigEnv } from './variables.js';

const EXAMPLE = 'postgres://eventor-bot:<password>@db.example.org:5432/eventor';

/** What is wrong with a DATABASE_URL, or null; never quoting it. */
export function databaseUrlProblem(raw: string): string | null {
  if (!/^postgres(?:ql)?:\/\//i.test(raw)) return `must start with postgres:// or postgresql:// (e.g. ${EXAMPLE})`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `is not a valid URL (expected e.g. ${EXAMPLE}; a password with @, : or / in it must be percent-encoded)`;
  }
  if (url.hostname === '' && !url.searchParams.has('host')) return `names no host (expected e.g. ${EXAMPLE})`;
  return null;
}

/** DATABASE_URL when set (trimmed), else null; a problem is added to `problems` and gives null. */
export function databaseUrlFromEnv(env: ConfigEnv, problems: string[]): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (raw === undefined || raw === '') return null;
  const problem = databaseUrlProblem(raw);
  if (problem === null) return raw;
  problems.push(`DATABASE_URL ${problem}; it is not shown here, since it may hold a password`);
  return null;
}

/** The URL as it may be shown (logs, messages): its password replaced by `***`. */
export function shownDatabaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return '(an invalid DATABASE_URL)';
  }
}
