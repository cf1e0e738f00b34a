/**
 * Opening the embedded database: creates it on a fresh start, migrates an old one, and refuses
 * (with a clear message) a file that is corrupt, unreadable or from a newer version, rather than
 * silently starting empty.
 */
import { chmodSync, closeSync, existsSync, fchmodSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../errors.js';
import { makeFolders } from '../folders.js';
import { MIGRATIONS } from './migrations.js';

export { StoreError };

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /**
   * Take an existing empty (0-byte) file as a new database. Off by default: a truncated file or a
   * failed copy looks exactly like that, and starting empty would drop every server's keys and
   * settings without a word. The operator turns it on with DATABASE_INIT=1 or --init-database.
   */
  initialiseEmptyFile?: boolean;
  /**
   * Told when an existing database file (or its -wal, -shm or -journal file) could be read by the
   * group or others and was made the owner's only, or could not be.
   */
  onPermissions?: (notice: PermissionNotice) => void;
}

/** An existing database file whose mode let others read it: what it was, and whether it was tightened. */
export interface PermissionNotice {
  file: string;
  /** The mode it had, e.g. `0644`. */
  was: string;
  tightened: boolean;
}

/** The database holds the servers' sealed keys and members' links: the owner's alone, whatever the umask. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** What SQLite may keep beside the database. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

export function openDatabase(
  file: string,
  migrations: readonly string[] = MIGRATIONS,
  options: OpenDatabaseOptions = {},
): Db {
  if (file !== ':memory:') {
    makeFolders(path.dirname(path.resolve(file)), FOLDER_MODE, `the database ${file} (DATABASE_PATH)`);
    if (!options.initialiseEmptyFile && isEmptyFile(file) && isEmptyFile(`${file}-wal`, { missing: true })) {
      throw new StoreError(
        `the database ${file} is an empty file (0 bytes), not a database: the servers' keys and settings are not in it. ` +
          'If it was restored or copied, the copy failed: restore it again. To start with a new, empty database on purpose, ' +
          'set DATABASE_INIT=1 or run with --init-database (or delete the file)',
        { lasting: true },
      );
    }
    ownerOnly(file, options.onPermissions);
  }
  let db: Db;
  try {
    db = new Database(file, { fileMustExist: false });
  } catch (error) {
    throw (
      writeProblem(error, file) ??
      new StoreError(`cannot open the database ${file}: ${(error as Error).message}`, { lasting: true })
    );
  }
  try {
    // Before anything writes: a newer database (a restored copy in rollback mode too) stays as it was.
    refuseNewer(db, migrations, file);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Deleted rows are overwritten in the file, not only unlinked: forgetting a member or a server
    // must not leave their data readable in free pages (docs/decisions/store-dialects.md).
    db.pragma('secure_delete = ON');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok')
      throw new StoreError(`the database ${file} is damaged (${String(check)}); restore a backup or move it away`, {
        lasting: true,
      });
    migrate(db, migrations, file);
    reuseStatements(db);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    const problem = writeProblem(error, file);
    if (problem) throw problem;
    throw new StoreError(
      `the database ${file} cannot be used: ${(error as Error).message}. It may be damaged or not a database; restore a backup or move it away`,
      { lasting: true },
    );
  }
}

/**
 * Creates a missing database file mode 0600 before SQLite opens it (SQLite would make it 0644 less
 * the umask), and takes group and other bits off an existing one and its companions. SQLite gives
 * a new -wal, -shm or -journal file the database file's own mode, so those follow.
 */
function ownerOnly(file: string, onPermissions: OpenDatabaseOptions['onPermissions']): void {
  try {
    const fd = openSync(file, 'wx', FILE_MODE);
    try {
      // The umask can only have taken bits away; this puts back exactly 0600.
      fchmodSync(fd, FILE_MODE);
    } finally {
      closeSync(fd);
    }
    return;
  } catch (error) {
    // EEXIST: an existing database, looked at below. Anything else SQLite reports in its own words.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
  }
  for (const name of [file, ...COMPANIONS.map((suffix) => `${file}${suffix}`)]) {
    let mode: number;
    try {
      const stat = statSync(name);
      if (!stat.isFile()) continue;
      mode = stat.mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o077) === 0) continue;
    let tightened = true;
    try {
      chmodSync(name, mode & ~0o077);
    } catch {
      // Another user's file, or a read-only file system: it still opens, the operator is told.
      tightened = false;
    }
    onPermissions?.({ file: name, was: `0${mode.toString(8)}`, tightened });
  }
}

/** Whether `file` exists with 0 bytes (or, with `missing`, does not exist at all). */
function isEmptyFile(file: string, { missing = false } = {}): boolean {
  if (!existsSync(file)) return missing;
  try {
    return statSync(file).size === 0;
  } catch {
    return false;
  }
}

/**
 * The database could not be written for a reason outside it (a full disk, a read-only file or
 * folder): said as such, since the data is intact and the advice for a damaged file (move it
 * away) would be the wrong one. Null for any other error.
 */
export function writeProblem(error: unknown, file: string): StoreError | null {
  const code = String((error as { code?: unknown }).code ?? '');
  if (code.startsWith('SQLITE_FULL')) {
    return new StoreError(
      `the database ${file} cannot be written: no space left on the disk. The data in it is intact; free some space and start again`,
    );
  }
  if (
    code.startsWith('SQLITE_READONLY') ||
    code === 'EACCES' ||
    code === 'EPERM' ||
    code === 'EROFS' ||
    code.startsWith('SQLITE_PERM')
  ) {
    return new StoreError(
      `the database ${file} cannot be written: the file or its folder is read-only, or this user has no permission to write it. ` +
        'The data in it is intact; give the bot write access to both and start again',
      { lasting: true },
    );
  }
  return null;
}

/**
 * Makes `db.prepare` hand back one statement per SQL text: the scheduler asks for the same few
 * statements thousands of times an hour, and compiling each time was most of its cost. Safe
 * because no caller keeps a statement iterating while it prepares the same SQL again.
 */
function reuseStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }) as Db['prepare'];
}

/** A database from a newer eventor-bot (a downgrade) is refused: its schema is unknown here. */
function refuseNewer(db: Db, migrations: readonly string[], file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new StoreError(
      `the database ${file} was written by a newer eventor-bot (schema ${current}; this one knows schemas up to ${migrations.length}) and was left unchanged: ` +
        'upgrade eventor-bot again, or restore a backup made before the upgrade',
      { lasting: true },
    );
  }
}

function migrate(db: Db, migrations: readonly string[], file: string): void {
  refuseNewer(db, migrations, file);
  const current = db.pragma('user_version', { simple: true }) as number;
  // Writing the version it has costs nothing and finds a read-only file or folder now, at the
  // start, rather than at the first post (SQLite opens such a file read-only without a word).
  db.pragma(`user_version = ${current}`);
  for (let version = current + 1; version <= migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version - 1]!);
      db.pragma(`user_version = ${version}`);
    })();
  }
}
