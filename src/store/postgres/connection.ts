/**
 * How the PostgreSQL parts reach the database: through the pool (each atomic step on a connection
 * of its own, in a transaction of its own), or bound to one connection inside `Store.transaction`
 * (each step joins that transaction). The parts are written once against {@link Db} and do not
 * know which.
 */
import type pg from 'pg';

/** Anything that runs a query: a pooled connection inside a transaction, or the pool itself. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface Db extends Queryable {
  /**
   * Runs `step` as one transaction (joins the surrounding one when bound to it): what it reads and
   * writes lands together or not at all.
   */
  atomic<T>(step: (q: Queryable) => Promise<T>): Promise<T>;
}

/** Ignores a connection's error events while checked out: the step's own query reports the failure. */
function ignoreError(): void {}

/**
 * A connection from the pool for a transaction. The pool listens for a connection's errors only
 * while it is idle; one the server drops between two statements of a transaction would otherwise
 * be an unhandled 'error' event and end the process. Its next query fails instead.
 */
export async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  client.on('error', ignoreError);
  const release = client.release.bind(client);
  client.release = (err?: Error | boolean) => {
    client.removeListener('error', ignoreError);
    release(err);
  };
  return client;
}

/** The database through the pool: a single query runs on any free connection, a step in its own transaction. */
export class PoolDb implements Db {
  constructor(readonly pool: pg.Pool) {}

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(sql, params);
  }

  atomic<T>(step: (q: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, step);
  }
}

/**
 * Runs `body` on one connection from the pool between BEGIN and COMMIT (ROLLBACK when it throws),
 * then gives the connection back, or drops it when the rollback itself failed (the connection is
 * broken and must not go back to the pool).
 */
export async function inTransaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await checkOut(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollback) {
      broken = rollback as Error;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

/** The database as one connection with a transaction open: every step joins it. */
export class BoundDb implements Db {
  #ended = false;

  constructor(readonly client: Queryable) {}

  /**
   * The transaction is over and its connection back in the pool, perhaps in another's
   * transaction: a part `work` kept and used later must fail rather than write there.
   */
  end(): void {
    this.#ended = true;
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.#ended) return Promise.reject(new Error('a store part was used after its transaction ended'));
    return this.client.query<R>(sql, params);
  }

  atomic<T>(step: (q: Queryable) => Promise<T>): Promise<T> {
    return step(this);
  }
}

/**
 * Holds a transaction-scoped advisory lock named by `name` until the transaction ends: for what has
 * no row to lock yet (a member's first link, a kind's first settings, a throttle's first attempt).
 * The name is what it guards (a table) and its key, so two kinds of lock never share a name.
 */
export async function lockName(q: Queryable, ...name: string[]): Promise<void> {
  // JSON keeps the parts apart whatever they hold (PostgreSQL's text cannot hold a NUL separator).
  await q.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(name)]);
}

/** What every part needs: the database and the store's clock (the parts that seal or hash get the secret box too). */
export interface PartContext {
  db: Db;
  now: () => Date;
  /**
   * Called after a part outside `servers` removed a server's settings or key, so that reads of
   * them on their way are dropped (`shared-reads.ts`); absent inside a transaction, whose end drops them.
   */
  serverSettingsRemoved?: () => void;
}

/** `count(*)` and identity columns come back from pg as strings (bigint): as numbers. */
export function int(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}
