/**
 * SQL statements compiled once per database: better-sqlite3 compiles a statement on every
 * `prepare` (about four times the cost of running a small one), and the feed scheduler reads the
 * settings and the post ledger of every server on every tick.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

const compiled = new WeakMap<Db, Map<string, Statement>>();

/** The statement for `sql` on `db`, compiled on first use. No caller changes its mode (`pluck`, `raw`). */
export function prepared(db: Db, sql: string): Statement {
  let statements = compiled.get(db);
  if (!statements) {
    statements = new Map();
    compiled.set(db, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
