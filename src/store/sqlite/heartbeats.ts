/**
 * Each running process's heartbeat (migration 13, docs/operators.md#monitoring): one row per
 * process, replaced on every beat.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StoreError } from '../errors.js';
import type { Heartbeat, HeartbeatStore } from '../interfaces.js';
import { heartbeatFromRow, HEARTBEAT_COLUMNS, type HeartbeatRow, heartbeatValues } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

export class SqliteHeartbeatStore implements Synchronous<HeartbeatStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  beat(heartbeat: Heartbeat): void {
    prepared(
      this.#ctx.db,
      `INSERT OR REPLACE INTO heartbeats (${HEARTBEAT_COLUMNS.join(', ')}) VALUES (${HEARTBEAT_COLUMNS.map(() => '?').join(', ')})`,
    ).run(...heartbeatValues(heartbeat));
  }

  heartbeats(): Heartbeat[] {
    const rows = prepared(
      this.#ctx.db,
      `SELECT ${HEARTBEAT_COLUMNS.join(', ')} FROM heartbeats ORDER BY process`,
    ).all() as HeartbeatRow[];
    return rows.map(heartbeatFromRow);
  }

  forget(process: string): void {
    prepared(this.#ctx.db, 'DELETE FROM heartbeats WHERE process = ?').run(process);
  }
}

/**
 * The heartbeats in the database file, read without writing anything (`eventor-bot health` must
 * neither create nor migrate a database). An empty list when the database predates them.
 */
export function readSqliteHeartbeats(file: string): Heartbeat[] {
  if (!existsSync(file))
    throw new StoreError(`there is no database at ${file}: the bot has not started with this DATABASE_PATH`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new StoreError(`cannot read the database ${file}: ${(error as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'heartbeats'").get();
    if (table === undefined) return [];
    return new SqliteHeartbeatStore({ db, now: () => new Date(), afterCommit: (fn) => fn() }).heartbeats();
  } catch (error) {
    throw new StoreError(`cannot read the database ${file}: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}
