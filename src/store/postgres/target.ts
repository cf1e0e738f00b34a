/**
 * DATABASE_URL as the PostgreSQL driver reads it, and what may be said of it: the one reading of
 * the URL, for the configuration's check, every message to the operator (`Store.description`,
 * the refusals at start) and for scrubbing a driver's error (docs/operators.md#running-at-scale).
 *
 * A URL the driver would read otherwise than it is written is refused before anything connects: a
 * password holding an unencoded `/`, `?` or `#` ends the address's user and password early, and
 * the rest of the password then reads as a host, a port or a database name, which a message about
 * the connection would name.
 */
import { userInfo } from 'node:os';
import { unescape as percentDecoded } from 'node:querystring';
import { parse as driverParse } from 'pg-connection-string';
import { StoreError } from '../errors.js';

const EXAMPLE = 'postgres://eventor-bot:<password>@db.example.org:5432/eventor';
const ENCODE =
  'a password (or user name) holding / ? # @ : or % must have them percent-encoded (%2F %3F %23 %40 %3A %25)';

/** The parts of a DATABASE_URL that may be shown: everything but the password. */
export interface DatabaseParts {
  host: string;
  port: string;
  database: string;
  user: string;
}

/** A DATABASE_URL read: its parts, and its password in every form it can take in a text. */
export interface DatabaseUrl extends DatabaseParts {
  /** The password as the driver reads it and as it is written in the URL; none when it has none. */
  secrets: string[];
}

export interface Target extends DatabaseParts {
  /** `PostgreSQL database "eventor" on db.example.org:5432 as user "bot"`: never the password. */
  description: string;
  /** An error's message with the password (and the URL) taken out, in one line. */
  scrub(error: unknown): string;
}

/** Whether `raw` is a URL PostgreSQL's driver takes: postgres:// or postgresql://. */
export function isPostgresUrl(raw: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(raw.trim());
}

interface Reading {
  user: string;
  password: string;
  host: string;
  port: string;
  database: string;
}

/**
 * The URL as a person reads it: the WHATWG URL parser's parts (as the driver's own parser finds
 * them), each percent-decoded where it is a valid encoding and left as written where it is not.
 * The query's `user`, `password`, `host` and `port` count before the address's, as for libpq.
 */
function asWritten(url: URL): Reading {
  const query = url.searchParams;
  return {
    user: query.get('user') || percentDecoded(url.username),
    password: query.get('password') || percentDecoded(url.password),
    host: query.get('host') || percentDecoded(url.hostname.replace(/^\[(.+)\]$/, '$1')),
    port: query.get('port') || url.port,
    database: percentDecoded(url.pathname.replace(/^\//, '')),
  };
}

/**
 * The URL as the driver reads it: pg-connection-string's `parse`, which `pg` calls; a problem
 * when it cannot (it also reads the files `sslcert`, `sslkey` and `sslrootcert` name).
 */
function asTheDriverReads(raw: string): Reading | { problem: string } {
  let parsed: ReturnType<typeof driverParse>;
  try {
    parsed = driverParse(raw);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR'
      ? { problem: `names a file (sslcert, sslkey or sslrootcert) that cannot be read (${code})` }
      : { problem: `is not a URL the PostgreSQL driver can read (${ENCODE})` };
  }
  return {
    user: parsed.user ?? '',
    password: parsed.password ?? '',
    host: parsed.host ?? '',
    port: parsed.port ?? '',
    database: parsed.database ?? '',
  };
}

const PART_NAMES: Record<keyof Reading, string> = {
  user: 'user name',
  password: 'password',
  host: 'host',
  port: 'port',
  database: 'database name',
};

/**
 * What is wrong with a DATABASE_URL (never quoting it), or what it names. Refused: anything but
 * postgres:// or postgresql://, a URL the WHATWG parser refuses, no host, and a URL the driver
 * would read otherwise than it is written: an `@` after the address (it ended early: a `/`, `?` or
 * `#` in the password), a `#` (the driver ignores it and what follows), or any part the driver
 * decodes to something else than what is written (a stray `%` beside a percent-encoded character).
 */
export function readDatabaseUrl(raw: string): DatabaseUrl | { problem: string } {
  const trimmed = raw.trim();
  if (!isPostgresUrl(trimmed)) return { problem: `must start with postgres:// or postgresql:// (e.g. ${EXAMPLE})` };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { problem: `is not a valid URL (expected e.g. ${EXAMPLE}; ${ENCODE})` };
  }
  if (url.pathname.includes('@') || url.search.includes('@'))
    return {
      problem: `is read differently by the PostgreSQL driver than it is written: an @ comes after the address, which a / ? or # ends (${ENCODE})`,
    };
  if (url.hash !== '')
    return {
      problem: `is read differently by the PostgreSQL driver than it is written: it ignores a # and all after it (${ENCODE})`,
    };
  if (url.hostname === '' && !url.searchParams.has('host'))
    return { problem: `names no host (expected e.g. ${EXAMPLE})` };
  const written = asWritten(url);
  const read = asTheDriverReads(trimmed);
  if ('problem' in read) return read;
  const differing = (Object.keys(PART_NAMES) as Array<keyof Reading>).filter((part) => written[part] !== read[part]);
  if (differing.length > 0)
    return {
      problem: `is read differently by the PostgreSQL driver than it is written (its ${differing.map((p) => PART_NAMES[p]).join(', ')}; ${ENCODE})`,
    };
  // Defaults as `pg` applies them: localhost, 5432, the user's name for the user and the database.
  const user = read.user || process.env.PGUSER || userInfo().username;
  // PGPASSWORD: the password the driver takes when the URL holds none (deploy/compose.postgres.yaml).
  const secrets = [
    ...(read.password === '' ? [] : passwordForms(read.password, url, trimmed)),
    ...(process.env.PGPASSWORD ? [process.env.PGPASSWORD] : []),
  ];
  return {
    host: read.host || 'localhost',
    port: read.port || '5432',
    database: read.database || user,
    user,
    secrets,
  };
}

/**
 * The password as the driver reads it and as the URL writes it (in the address or the query, as
 * typed or as the URL parser percent-encodes it), and the URL itself: whatever a message could quote.
 */
function passwordForms(password: string, url: URL, raw: string): string[] {
  const inQuery = url.search
    .slice(1)
    .split('&')
    .find((pair) => pair.startsWith('password='))
    ?.slice('password='.length);
  return [raw, password, url.password, encodeURIComponent(password), inQuery ?? ''].filter((form) => form !== '');
}

/** The problem with a DATABASE_URL, or null; never quoting it. */
export function databaseUrlProblem(raw: string): string | null {
  const read = readDatabaseUrl(raw);
  return 'problem' in read ? read.problem : null;
}

/** Which database a DATABASE_URL names, said without its password; a StoreError for a URL refused. */
export function describeTarget(raw: string): Target {
  const read = readDatabaseUrl(raw);
  if ('problem' in read) throw new StoreError(`the database URL (DATABASE_URL) ${read.problem}`);
  const { host, port, database, user, secrets } = read;
  // Longest first, so the URL goes whole before its password alone is looked for.
  const hidden = [...secrets].sort((a, b) => b.length - a.length);
  return {
    host,
    port,
    database,
    user,
    description: `PostgreSQL database "${database}" on ${host}:${port} as user "${user}"`,
    scrub(error: unknown) {
      let message = error instanceof Error ? error.message : String(error);
      for (const secret of hidden) message = message.split(secret).join('[hidden]');
      return message.replace(/\s+/g, ' ').trim();
    },
  };
}
