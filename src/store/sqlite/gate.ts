/**
 * How calls reach the one SQLite connection. Each part's method is one synchronous better-sqlite3
 * step (its own transaction where it writes more than once), wrapped in a promise to meet the
 * async interfaces. `Store.transaction` holds the connection across awaits: while it is open, a
 * call from anywhere else waits in line and runs after the COMMIT or ROLLBACK, since anything it
 * ran on the connection meanwhile would land inside the transaction (and leave with a rollback).
 * Calls made from inside the transaction's own work (found by its async context) join it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database.js';

/** A part's interface with each method's promise taken off: what the synchronous SQLite parts implement. */
export type Synchronous<Part> = {
  [Method in keyof Part]: Part[Method] extends (...args: infer Args) => Promise<infer Result>
    ? (...args: Args) => Result
    : Part[Method];
};

/** What every SQLite part is built on. */
export interface SqliteContext {
  readonly db: Db;
  readonly now: () => Date;
  /** Runs `fn` now, or when a transaction is open, once it has committed (a WAL checkpoint cannot run inside one). */
  afterCommit(fn: () => void): void;
}

function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

export class Gate {
  readonly #db: Db;
  readonly #inside = new AsyncLocalStorage<symbol>();
  /** The open transaction, or null. */
  #open: symbol | null = null;
  /** Queued tasks not yet finished (an open transaction counts): while any, new calls queue behind them. */
  #pending = 0;
  #tail: Promise<unknown> = Promise.resolve();
  #afterCommit: Array<() => void> = [];
  /** Numbers the savepoints of nested transactions. */
  #savepoints = 0;

  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * Runs one synchronous step: at once when nothing is queued (the common case, no await added)
   * or when called from inside the open transaction; otherwise after what is queued.
   */
  run<T>(fn: () => T): Promise<T> {
    if (this.#pending === 0 || this.#joins()) return settle(fn);
    return this.#enqueue(() => settle(fn));
  }

  afterCommit(fn: () => void): void {
    if (this.#open === null) fn();
    else this.#afterCommit.push(fn);
  }

  /**
   * BEGIN IMMEDIATE, `work`, COMMIT (or ROLLBACK when it throws). A call from inside one joins it
   * under a savepoint, as on PostgreSQL: a nested failure the outer work catches undoes only its own writes.
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.#joins()) return this.#nested(work);
    return this.#enqueue(async () => {
      const token = Symbol('transaction');
      this.#db.exec('BEGIN IMMEDIATE');
      this.#open = token;
      let result: T;
      try {
        result = await this.#inside.run(token, work);
        this.#db.exec('COMMIT');
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        this.#afterCommit = [];
        throw error;
      } finally {
        this.#open = null;
        // Node 20 hooks every promise of the process while an AsyncLocalStorage is enabled: this
        // one is on only while a transaction is open (the next `run` turns it on again).
        this.#inside.disable();
      }
      const after = this.#afterCommit;
      this.#afterCommit = [];
      for (const fn of after) fn();
      return result;
    });
  }

  async #nested<T>(work: () => Promise<T>): Promise<T> {
    const savepoint = `nested_${++this.#savepoints}`;
    this.#db.exec(`SAVEPOINT ${savepoint}`);
    try {
      const result = await work();
      this.#db.exec(`RELEASE ${savepoint}`);
      return result;
    } catch (error) {
      if (this.#db.inTransaction) {
        this.#db.exec(`ROLLBACK TO ${savepoint}`);
        this.#db.exec(`RELEASE ${savepoint}`);
      }
      throw error;
    }
  }

  #joins(): boolean {
    return this.#open !== null && this.#inside.getStore() === this.#open;
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(task);
    const done = () => {
      this.#pending--;
    };
    this.#tail = result.then(done, done);
    return result;
  }
}

/**
 * The async face of a synchronous part: each public method runs through `gate`. Built once per
 * store, so a call costs one closure and the promise.
 */
export function gated<Part extends object>(part: Synchronous<Part>, gate: Pick<Gate, 'run'>): Part {
  const face: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(part))) {
    const method = (part as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    face[name] = (...args: unknown[]) => gate.run(() => (method as (...a: unknown[]) => unknown).apply(part, args));
  }
  return face as Part;
}
