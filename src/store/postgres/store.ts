/**
 * The store on PostgreSQL (DATABASE_URL): every part of `interfaces.ts` over one `pg` pool, each
 * method one atomic step across every process on the database (docs/decisions/store-dialects.md).
 * Opening refuses, in one sentence that never holds the password, a server it cannot reach, a
 * database from a newer eventor-bot, and a database that holds something else.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { StoreError } from '../errors.js';
import type { Store, StoreParts } from '../interfaces.js';
import type { SecretBox } from '../secrets.js';
import { PostgresAuditStore } from './audit.js';
import { PostgresCupStore } from './cups.js';
import { BoundDb, type Db, inTransaction, type PartContext, PoolDb } from './connection.js';
import { PostgresDepartureStore } from './departures.js';
import { PostgresFeedSettingsStore } from './feed-settings.js';
import { PostgresHeartbeatStore } from './heartbeats.js';
import { PostgresLeaseStore, PostgresSweepStore } from './leases.js';
import { PostgresLedgerStore } from './ledger.js';
import { PostgresLinkStore } from './links.js';
import { PostgresLiveStore } from './live.js';
import { migrate } from './migrate.js';
import { PostgresPeopleStore } from './people.js';
import { PostgresSeasonStore } from './season.js';
import { PostgresServerStore } from './servers.js';
import { SharedServerReads } from './shared-reads.js';
import { PostgresSubscriptionStore } from './subscriptions.js';
import { PostgresThrottleStore } from './throttles.js';
import { describeTarget } from './target.js';

/** Connections per process: several steps at once (interactions beside the feeds), few enough for many processes. */
const POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 10_000;

function partsOn(db: Db, now: () => Date, secrets: SecretBox, serverSettingsRemoved?: () => void): StoreParts {
  const ctx: PartContext = serverSettingsRemoved ? { db, now, serverSettingsRemoved } : { db, now };
  return {
    servers: new PostgresServerStore(ctx, secrets),
    links: new PostgresLinkStore(ctx),
    audit: new PostgresAuditStore(ctx),
    throttles: new PostgresThrottleStore(ctx, secrets),
    departures: new PostgresDepartureStore(ctx),
    people: new PostgresPeopleStore(ctx),
    feedSettings: new PostgresFeedSettingsStore(ctx),
    subscriptions: new PostgresSubscriptionStore(ctx),
    ledger: new PostgresLedgerStore(ctx),
    leases: new PostgresLeaseStore(ctx),
    sweeps: new PostgresSweepStore(ctx),
    heartbeats: new PostgresHeartbeatStore(ctx),
    season: new PostgresSeasonStore(ctx),
    cups: new PostgresCupStore(ctx),
    live: new PostgresLiveStore(ctx),
  };
}

/** A transaction in progress: its connection, the parts bound to it, and whether it has ended. */
interface Frame {
  client: pg.PoolClient;
  parts: StoreParts;
  ended: boolean;
  savepoints: number;
}

class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  readonly description: string;
  readonly servers: SharedServerReads;
  readonly links;
  readonly audit;
  readonly throttles;
  readonly departures;
  readonly people;
  readonly feedSettings;
  readonly subscriptions;
  readonly ledger;
  readonly leases;
  readonly sweeps;
  readonly heartbeats;
  readonly season;
  readonly cups;
  readonly live;
  readonly #pool: pg.Pool;
  readonly #now: () => Date;
  readonly #secrets: SecretBox;
  /** The transaction `work` runs in, so that a `transaction` called from inside it joins it. */
  readonly #current = new AsyncLocalStorage<Frame>();
  #closed: Promise<void> | null = null;

  constructor(pool: pg.Pool, secrets: SecretBox, now: () => Date, description: string) {
    this.#pool = pool;
    this.#now = now;
    this.#secrets = secrets;
    this.description = description;
    // Forgetting a server (the people part) drops the reads of its settings on their way too.
    const parts = partsOn(new PoolDb(pool), now, secrets, () => this.servers.written());
    this.servers = new SharedServerReads(parts.servers);
    this.links = parts.links;
    this.audit = parts.audit;
    this.throttles = parts.throttles;
    this.departures = parts.departures;
    this.people = parts.people;
    this.feedSettings = parts.feedSettings;
    this.subscriptions = parts.subscriptions;
    this.ledger = parts.ledger;
    this.leases = parts.leases;
    this.sweeps = parts.sweeps;
    this.heartbeats = parts.heartbeats;
    this.season = parts.season;
    this.cups = parts.cups;
    this.live = parts.live;
  }

  async transaction<T>(work: (parts: StoreParts) => Promise<T>): Promise<T> {
    const outer = this.#current.getStore();
    if (outer && !outer.ended) return this.#nested(outer, work);
    try {
      return await this.#outermost(work);
    } finally {
      // What it wrote (committed or not) is read afresh by whoever asks from now on.
      this.servers.written();
    }
  }

  #outermost<T>(work: (parts: StoreParts) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, async (client) => {
      const bound = new BoundDb(client);
      const frame: Frame = {
        client,
        parts: partsOn(bound, this.#now, this.#secrets),
        ended: false,
        savepoints: 0,
      };
      try {
        return await this.#current.run(frame, () => work(frame.parts));
      } finally {
        // Anything `work` left running that calls `transaction` later starts a transaction of its own.
        frame.ended = true;
        bound.end();
      }
    });
  }

  /**
   * Joins the outer transaction. A savepoint around it lets a caller that catches the inner
   * failure go on with the outer one, as SQLite's nested transactions allow.
   */
  async #nested<T>(outer: Frame, work: (parts: StoreParts) => Promise<T>): Promise<T> {
    const savepoint = `nested_${++outer.savepoints}`;
    await outer.client.query(`SAVEPOINT ${savepoint}`);
    try {
      const result = await work(outer.parts);
      await outer.client.query(`RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (error) {
      await outer.client.query(`ROLLBACK TO SAVEPOINT ${savepoint}`).catch(() => undefined);
      throw error;
    }
  }

  close(): Promise<void> {
    return (this.#closed ??= this.#pool.end());
  }
}

/**
 * Connects to the PostgreSQL `url` names, checks the database is empty or eventor-bot's and not
 * from a newer version, migrates it, and returns the store. `secrets` may still be deriving: the
 * database is checked meanwhile, and its failure is the one told when both fail.
 */
export async function openPostgresStore(
  url: string,
  secrets: SecretBox | Promise<SecretBox>,
  now: () => Date = () => new Date(),
): Promise<Store> {
  const pending = Promise.resolve(secrets);
  // Failing while the database is being prepared is not unhandled: it is told once that is done.
  pending.catch(() => undefined);
  const target = describeTarget(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'eventor-bot',
  });
  // A pooled connection the server drops while idle reports it here; the pool replaces it, and
  // the next step that needs the server says what is wrong.
  pool.on('error', () => undefined);
  try {
    await migrate(pool, target);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error instanceof StoreError
      ? error
      : new StoreError(`cannot use the ${target.description}: ${target.scrub(error)}`);
  }
  try {
    return new PostgresStore(pool, await pending, now, target.description);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
