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
  FeedSettingsStoreRows,
  HeartbeatStore,
  LeaseStore,
  LedgerStore,
  LinkStore,
  PeopleStore,
  SeasonStore,
  ServerStore,
  Store,
  StoreParts,
  SubscriptionStoreRows,
  SweepStore,
  ThrottleStore,
} from '../interfaces.js';
import { SecretBox } from '../secrets.js';
import { SqliteAudit } from './audit.js';
import { SqliteCups } from './cups.js';
import { type Db, type OpenDatabaseOptions, openDatabase } from './database.js';
import { SqliteDepartures } from './departures.js';
import { SqliteFeedSettings } from './feed-settings.js';
import { Gate, gated, type SqliteContext } from './gate.js';
import { SqliteHeartbeats } from './heartbeats.js';
import { SqliteLeases, SqliteSweeps } from './leases.js';
import { SqliteLedger } from './ledger.js';
import { SqliteLinks } from './links.js';
import { SqlitePeople } from './people.js';
import { SqliteSeason } from './season.js';
import { SqliteServers } from './servers.js';
import { SqliteSubscriptions } from './subscriptions.js';
import { SqliteThrottles } from './throttles.js';

export class SqliteStore implements Store {
  readonly dialect: Dialect = 'sqlite';
  readonly description: string;
  readonly servers: ServerStore;
  readonly links: LinkStore;
  readonly audit: AuditStore;
  readonly throttles: ThrottleStore;
  readonly departures: DepartureStore;
  readonly people: PeopleStore;
  readonly feedSettings: FeedSettingsStoreRows;
  readonly subscriptions: SubscriptionStoreRows;
  readonly ledger: LedgerStore;
  readonly leases: LeaseStore;
  readonly sweeps: SweepStore;
  readonly heartbeats: HeartbeatStore;
  readonly season: SeasonStore;
  readonly cups: CupStore;

  readonly #db: Db;
  readonly #gate: Gate;
  readonly #parts: StoreParts;

  constructor(db: Db, secrets: SecretBox, now: () => Date = () => new Date(), description: string = db.name) {
    this.#db = db;
    this.description = description;
    const gate = new Gate(db);
    this.#gate = gate;
    const ctx: SqliteContext = { db, now, afterCommit: (fn) => gate.afterCommit(fn) };
    const ledger = new SqliteLedger(ctx);
    this.servers = gated<ServerStore>(new SqliteServers(ctx, secrets), gate);
    this.links = gated<LinkStore>(new SqliteLinks(ctx), gate);
    this.audit = gated<AuditStore>(new SqliteAudit(ctx), gate);
    this.throttles = gated<ThrottleStore>(new SqliteThrottles(ctx, secrets), gate);
    this.departures = gated<DepartureStore>(new SqliteDepartures(ctx), gate);
    this.people = gated<PeopleStore>(new SqlitePeople(ctx, ledger), gate);
    this.feedSettings = gated<FeedSettingsStoreRows>(new SqliteFeedSettings(ctx), gate);
    this.subscriptions = gated<SubscriptionStoreRows>(new SqliteSubscriptions(ctx, ledger), gate);
    this.ledger = gated<LedgerStore>(ledger, gate);
    this.leases = gated<LeaseStore>(new SqliteLeases(ctx), gate);
    this.sweeps = gated<SweepStore>(new SqliteSweeps(ctx), gate);
    this.heartbeats = gated<HeartbeatStore>(new SqliteHeartbeats(ctx), gate);
    this.season = gated<SeasonStore>(new SqliteSeason(ctx), gate);
    this.cups = gated<CupStore>(new SqliteCups(ctx), gate);
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
