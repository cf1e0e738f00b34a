/**
 * Which PostgreSQL a DATABASE_URL names, said without its password: for every message to the
 * operator (`Store.description`, the refusals at start) and for scrubbing a driver's error.
 */
import { userInfo } from 'node:os';
import { StoreError } from '../errors.js';

export interface Target {
  host: string;
  port: string;
  database: string;
  user: string;
  /** `PostgreSQL database "eventor" on db.example.org:5432 as user "bot"`: never the password. */
  description: string;
  /** An error's message with the password (and the URL) taken out, in one line. */
  scrub(error: unknown): string;
}

/** Whether `raw` is a URL PostgreSQL's driver takes: postgres:// or postgresql://. */
export function isPostgresUrl(raw: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(raw.trim());
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Defaults as `pg` applies them: localhost, 5432, the user's name for the user and the database. */
export function describeTarget(raw: string): Target {
  if (!isPostgresUrl(raw)) throw new StoreError('the database URL must start with postgres:// or postgresql://');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new StoreError('the database URL (postgres://…) is not a valid URL');
  }
  const password = decoded(url.password);
  const user = decoded(url.username) || process.env.PGUSER || userInfo().username;
  const host = url.searchParams.get('host') ?? (decoded(url.hostname) || 'localhost');
  const port = url.port || url.searchParams.get('port') || '5432';
  const database = decoded(url.pathname.replace(/^\//, '')) || user;
  // PGPASSWORD: the password the driver takes when the URL holds none (deploy/compose.postgres.yaml).
  const secrets = [raw, raw.trim(), url.password, password, process.env.PGPASSWORD ?? ''].filter((s) => s.length > 0);
  return {
    host,
    port,
    database,
    user,
    description: `PostgreSQL database "${database}" on ${host}:${port} as user "${user}"`,
    scrub(error: unknown) {
      let message = error instanceof Error ? error.message : String(error);
      // Longest first, so the URL goes whole before its password alone is looked for.
      for (const secret of secrets.sort((a, b) => b.length - a.length))
        message = message.split(secret).join('[hidden]');
      return message.replace(/\s+/g, ' ').trim();
    },
  };
}
