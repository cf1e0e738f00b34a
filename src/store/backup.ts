/**
 * A consistent copy of the live database with SQLite's online backup API: safe while the bot runs
 * and writes, since SQLite copies the pages as of one moment and starts over if a write lands
 * mid-copy. The copy appears under its name only when complete, never over an existing file.
 */
import { closeSync, existsSync, linkSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { makeFolders } from './folders.js';

export interface BackupResult {
  /** The copy's schema version (SQLite's user_version). */
  schema: number;
  bytes: number;
}

export async function backupDatabase(source: string, target: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new StoreError(`there is no database at ${source} (check DATABASE_PATH)`);
  if (statSync(source).isDirectory())
    throw new StoreError(`${source} is a folder, not a database (check DATABASE_PATH)`);
  if (existsSync(target)) throw new StoreError(`${target} already exists; name a new file (a backup never overwrites)`);
  const folder = path.dirname(path.resolve(target));
  // `backup backups/$(date +%F).sqlite` (docs/operators.md) works the first time too; the folder
  // is the owner's only, as the database's is.
  makeFolders(folder, 0o700, `the backup ${target}`);

  const db = openSource(source);
  // Written beside the target first (created 0600, before any data is in it), then linked to its
  // name: a failed or interrupted backup never leaves a half-written file under the target's name.
  const temporary = path.join(folder, `.${path.basename(target)}.${process.pid}.partial`);
  try {
    try {
      closeSync(openSync(temporary, 'wx', 0o600));
    } catch (error) {
      throw new StoreError(`cannot write in ${folder}: ${(error as Error).message}`);
    }
    try {
      await db.backup(temporary);
    } catch (error) {
      throw new StoreError(`the backup of ${source} failed: ${(error as Error).message}`);
    }
    const schema = checkCopy(temporary);
    publish(temporary, target);
    return { schema, bytes: statSync(target).size };
  } finally {
    db.close();
    if (existsSync(temporary)) unlinkSync(temporary);
  }
}

/**
 * The live database, opened without a migration or any other write (unlike openDatabase): a backup
 * must leave it as it is. Read-write where allowed, so that when the bot is not running, closing it
 * folds back and removes the -wal and -shm files its opening made; read-only otherwise.
 */
function openSource(source: string): Database.Database {
  try {
    return new Database(source, { fileMustExist: true });
  } catch {
    try {
      return new Database(source, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new StoreError(`cannot open the database ${source}: ${(error as Error).message}`);
    }
  }
}

/**
 * The copy opens and passes SQLite's own check; returns its schema version. It is made one
 * self-contained file (the live database's WAL mode is copied with its pages): `start` turns WAL
 * on again when it opens a restored copy.
 */
function checkCopy(file: string): number {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StoreError(`the copy failed SQLite's check (${String(check)}); try again`);
    return copy.pragma('user_version', { simple: true }) as number;
  } finally {
    copy.close();
  }
}

/** Gives the finished copy its name, refusing (atomically, where the file system links) an existing file. */
function publish(temporary: string, target: string): void {
  try {
    linkSync(temporary, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new StoreError(`${target} already exists; name a new file (a backup never overwrites)`);
    // A file system without hard links: a rename, after checking again.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
  }
  if (existsSync(target)) throw new StoreError(`${target} already exists; name a new file (a backup never overwrites)`);
  renameSync(temporary, target);
}
