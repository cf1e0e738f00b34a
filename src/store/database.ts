/**
 * Opening the embedded database: creates it on a fresh start, migrates an old one, and refuses
 * (with a clear message) a file that is corrupt, unreadable or from a newer version, rather than
 * silently starting empty.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export class StoreError extends Error {
  override name = 'StoreError';
}

export function openDatabase(file: string, migrations: readonly string[] = MIGRATIONS): Db {
  if (file !== ':memory:') {
    try {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    } catch (error) {
      throw new StoreError(`cannot create the folder for the database ${file}: ${(error as Error).message}`);
    }
  }
  let db: Db;
  try {
    db = new Database(file, { fileMustExist: false });
  } catch (error) {
    throw new StoreError(`cannot open the database ${file}: ${(error as Error).message}`);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StoreError(`the database ${file} is damaged (${String(check)}); restore a backup or move it away`);
    migrate(db, migrations, file);
    reuseStatements(db);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(`the database ${file} cannot be used: ${(error as Error).message}. It may be damaged or not a database; restore a backup or move it away`);
  }
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

function migrate(db: Db, migrations: readonly string[], file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new StoreError(`the database ${file} was written by a newer eventor-bot (schema ${current}, this one knows ${migrations.length}); upgrade eventor-bot`);
  }
  for (let version = current + 1; version <= migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version - 1]!);
      db.pragma(`user_version = ${version}`);
    })();
  }
}
