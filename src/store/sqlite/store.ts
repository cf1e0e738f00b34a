/**
 * The embedded store: every part over one better-sqlite3 connection (docs/decisions/store-dialects.md).
 * Each method is one synchronous step on the connection, so it is atomic as it always was;
 * `transaction` holds the connection for several parts and makes every other caller wait.
 */
import type {
  AuditStore,
  CupStore,
  DepartureStore,
  Dialect,
  FeedSettingsStore,
  HeartbeatStore,
  LeaseStore,
  LedgerStore,
  LinkStore,
  LiveStore,
  PeopleStore,
  SeasonStore,
  ServerStore,
  Store,
  StoreParts,
  SubscriptionStore,
  SweepStore,
  ThrottleStore,
} from '../interfaces.js';
import { SecretBox } from '../secrets.js';
import { SqliteAuditStore } from './audit.js';
import { SqliteCupStore } from './cups.js';
import { type Db, type OpenDatabaseOptions, openDatabase } from './database.js';
import { SqliteDepartureStore } from './departures.js';
import { SqliteFeedSettingsStore } from './feed-settings.js';
import { Gate, gated, type SqliteContext } from './gate.js';
import { SqliteHeartbeatStore } from './heartbeats.js';
import { SqliteLeaseStore, SqliteSweepStore } from './leases.js';
import { SqliteLedgerStore } from './ledger.js';
import { SqliteLinkStore } from './links.js';
import { SqliteLiveStore } from './live.js';
import { SqlitePeopleStore } from './people.js';
import { SqliteSeasonStore } from './season.js';
import { SqliteServerStore } from './servers.js';
import { SqliteSubscriptionStore } from './subscriptions.js';
import { SqliteThrottleStore } from './throttles.js';

export class SqliteStore implements Store {
  readonly dialect: Dialect = 'sqlite';
  readonly description: string;
  readonly servers: ServerStore;
  readonly links: LinkStore;
  readonly audit: AuditStore;
  readonly throttles: ThrottleStore;
  readonly departures: DepartureStore;
  readonly people: PeopleStore;
  readonly feedSettings: FeedSettingsStore;
  readonly subscriptions: SubscriptionStore;
  readonly ledger: LedgerStore;
  readonly leases: LeaseStore;
  readonly sweeps: SweepStore;
  readonly heartbeats: HeartbeatStore;
  readonly season: SeasonStore;
  readonly cups: CupStore;
  readonly live: LiveStore;

  readonly #db: Db;
  readonly #gate: Gate;
  readonly #parts: StoreParts;

  constructor(db: Db, secrets: SecretBox, now: () => Date = () => new Date(), description: string = db.name) {
    this.#db = db;
    this.description = description;
    const gate = new Gate(db);
    this.#gate = gate;
    const ctx: SqliteContext = { db, now, afterCommit: (fn) => gate.afterCommit(fn) };
    const ledger = new SqliteLedgerStore(ctx);
    this.servers = gated<ServerStore>(new SqliteServerStore(ctx, secrets), gate);
    this.links = gated<LinkStore>(new SqliteLinkStore(ctx), gate);
    this.audit = gated<AuditStore>(new SqliteAuditStore(ctx), gate);
    this.throttles = gated<ThrottleStore>(new SqliteThrottleStore(ctx, secrets), gate);
    this.departures = gated<DepartureStore>(new SqliteDepartureStore(ctx), gate);
    this.people = gated<PeopleStore>(new SqlitePeopleStore(ctx, ledger), gate);
    this.feedSettings = gated<FeedSettingsStore>(new SqliteFeedSettingsStore(ctx), gate);
    this.subscriptions = gated<SubscriptionStore>(new SqliteSubscriptionStore(ctx, ledger), gate);
    this.ledger = gated<LedgerStore>(ledger, gate);
    this.leases = gated<LeaseStore>(new SqliteLeaseStore(ctx), gate);
    this.sweeps = gated<SweepStore>(new SqliteSweepStore(ctx), gate);
    this.heartbeats = gated<HeartbeatStore>(new SqliteHeartbeatStore(ctx), gate);
    this.season = gated<SeasonStore>(new SqliteSeasonStore(ctx), gate);
    this.cups = gated<CupStore>(new SqliteCupStore(ctx), gate);
    this.live = gated<LiveStore>(new SqliteLiveStore(ctx), gate);
    // Inside `transaction` the same parts serve: calls from the transaction's own work join it.
    this.#parts = {
      servers: this.servers,
      links: this.links,
      audit: this.audit,
      throttles: this.throttles,
      departures: this.departures,
      people: this.people,
      feedSettings: this.feedSettings,
      subscriptions: this.subscriptions,
      ledger: this.ledger,
      leases: this.leases,
      sweeps: this.sweeps,
      heartbeats: this.heartbeats,
      season: this.season,
      cups: this.cups,
      live: this.live,
    };
  }

  /** The connection, for SQLite-only tools and tests that look at the file's rows (nothing else writes SQL). */
  get db(): Db {
    return this.#db;
  }

  transaction<T>(work: (parts: StoreParts) => Promise<T>): Promise<T> {
    return this.#gate.transaction(() => work(this.#parts));
  }

  async close(): Promise<void> {
    // After a transaction still open (its work awaiting something), so it commits or rolls back first.
    await this.#gate.run(() => undefined);
    if (this.#db.open) this.#db.close();
  }
}

/**
 * Opens (creating or migrating) the database file and the store over it. The key may still be
 * being derived (`SecretBox.derive`): the database is opened and migrated on this thread while
 * scrypt runs in the thread pool; when the key fails, the database is closed again.
 */
export async function openSqliteStore(
  file: string,
  secrets: string | SecretBox | Promise<SecretBox>,
  now?: () => Date,
  options: OpenDatabaseOptions = {},
): Promise<SqliteStore> {
  const box = typeof secrets === 'string' ? new SecretBox(secrets) : secrets;
  let db: Db;
  try {
    db = openDatabase(file, undefined, options);
  } catch (error) {
    // The database's failure is the one to tell; the key's would only hide it.
    if (box instanceof Promise) box.catch(() => undefined);
    throw error;
  }
  try {
    return new SqliteStore(db, await box, now, file);
  } catch (error) {
    db.close();
    throw error;
  }
}
