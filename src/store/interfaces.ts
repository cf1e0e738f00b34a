/**
 * What the rest of the program may ask of the store, split by aggregate, with one implementation
 * per database: `sqlite/` (embedded, the default) and `postgres/` (DATABASE_URL). Every method is
 * async because PostgreSQL is; every method is also one atomic step on its own (docs/decisions/
 * store-dialects.md), so a caller never needs a transaction for what one method does. Callers that
 * must change several aggregates together use `Store.transaction`.
 *
 * Rows come out as plain camelCase objects; secrets go in sealed and come out opened, so nothing
 * outside the store handles ciphertext. Domain rules that are not about storage (feed options'
 * schema, ledger key spelling) stay with their callers.
 */

export type Dialect = 'sqlite' | 'postgres';

// --- servers: settings, sealed Eventor keys, channels ---

export interface GuildSettings {
  guildId: string;
  eventorInstance: string | null;
  eventorBaseUrl: string | null;
  /** Whether an API key is stored; the key itself only through `apiKey()`. */
  hasApiKey: boolean;
  organisationId: string | null;
  organisationName: string | null;
  locale: string | null;
  timeZone: string | null;
  channels: Record<string, string>;
  updatedAt: string;
}

export type GuildSettingsUpdate = Partial<
  Pick<
    GuildSettings,
    'eventorInstance' | 'eventorBaseUrl' | 'organisationId' | 'organisationName' | 'locale' | 'timeZone'
  >
>;

export interface EventorConnectionRecord {
  instance: string;
  baseUrl: string | null;
  apiKey: string;
  organisation: { id: string; name: string };
}

export interface ServerStore {
  guildSettings(guildId: string): Promise<GuildSettings | null>;
  updateGuildSettings(guildId: string, update: GuildSettingsUpdate): Promise<GuildSettings>;
  /** Stores the key sealed, together with the organisation it was checked against, in one step. */
  setApiKey(guildId: string, apiKey: string, organisation: { id: string; name: string }): Promise<void>;
  /** Instance, base URL, sealed key and organisation change together or not at all. */
  connectEventor(guildId: string, connection: EventorConnectionRecord): Promise<GuildSettings>;
  apiKey(guildId: string): Promise<string | null>;
  setChannel(guildId: string, kind: string, channelId: string | null): Promise<void>;
}

// --- member links, link requests, the ways a server allows linking ---

/**
 * How a member came to be linked to a person: `credentials` (they gave Eventor the person's user
 * name and password), `admin` (an admin linked them with /admin link) or `approval` (an admin
 * approved their /link request). Only `credentials` proves the member IS the person.
 */
export type LinkMethod = 'credentials' | 'admin' | 'approval';

/** The one way of linking that lets a member act as the person in Eventor (login links, chip changes). */
export const PROVEN_LINK: LinkMethod = 'credentials';

export interface LinkedPerson {
  personId: string;
  isDefault: boolean;
  method: LinkMethod;
  linkedAt: string;
}

export interface LinkingMethods {
  /** Members prove who they are with their Eventor user name and password. */
  credentials: boolean;
  /** Members name themselves and an admin approves. */
  approval: boolean;
}

export interface LinkRequest {
  id: number;
  guildId: string;
  userId: string;
  personId: string;
  /** The requester's language, for the DM with the outcome. */
  locale: string;
  state: 'pending' | 'approved' | 'denied';
  decidedBy: string | null;
  createdAt: string;
  decidedAt: string | null;
}

export interface LinkStore {
  /** The Eventor persons a Discord user has linked in a server, the default first. */
  linkedPersons(guildId: string, userId: string): Promise<LinkedPerson[]>;
  /** The first person a user links becomes their default; linking again only ever upgrades to `credentials`. */
  linkPerson(guildId: string, userId: string, personId: string, method: LinkMethod): Promise<void>;
  /** Removes one link; when it was the default, the oldest remaining link becomes the default. */
  unlinkPerson(guildId: string, userId: string, personId: string): Promise<boolean>;
  /** False when that person is not linked. */
  setDefaultPerson(guildId: string, userId: string, personId: string): Promise<boolean>;
  /** Every link in a server, by user, the default first. */
  guildLinks(guildId: string): Promise<Array<LinkedPerson & { userId: string }>>;
  /** Both allowed until an admin says otherwise. */
  linkingMethods(guildId: string): Promise<LinkingMethods>;
  setLinkingMethods(guildId: string, update: Partial<LinkingMethods>): Promise<LinkingMethods>;
  createLinkRequest(request: {
    guildId: string;
    userId: string;
    personId: string;
    locale: string;
  }): Promise<LinkRequest>;
  linkRequest(id: number): Promise<LinkRequest | null>;
  /** A user's pending requests in a server, oldest first. */
  pendingLinkRequests(guildId: string, userId: string): Promise<LinkRequest[]>;
  /** Removes a request that never reached the admins (only while pending). */
  dropLinkRequest(id: number): Promise<void>;
  /**
   * Decides a pending request once: false when it is not pending any more (a second click, or a
   * click racing another admin's, in any process). Approval links the person in the same step.
   */
  decideLinkRequest(id: number, approve: boolean, deciderId: string): Promise<boolean>;
  /** A member's links and link requests in one server. */
  forgetMemberLinks(guildId: string, userId: string): Promise<{ links: number; requests: number }>;
  /** Every link and link request of a server. */
  forgetGuildLinks(guildId: string): Promise<{ links: number; requests: number }>;
}

// --- the audit log ---

export interface AuditEntry {
  actorId: string;
  subjectId: string | null;
  personId: string | null;
  action: string;
  detail: string | null;
  at: string;
}

export interface AuditRecord {
  guildId: string;
  actorId: string;
  subjectId?: string | null;
  personId?: string | null;
  action: string;
  /** Never a login link, a password or a key. */
  detail?: string | null;
}

export interface AuditStore {
  audit(entry: AuditRecord): Promise<void>;
  /** The newest entries of a server, newest first. */
  auditLog(guildId: string, limit?: number): Promise<AuditEntry[]>;
  /** How many times `actorId` did `action` in a server since `since`, and the oldest of them. */
  recentActions(
    guildId: string,
    actorId: string,
    action: string,
    since: Date,
  ): Promise<{ count: number; oldest: string | null }>;
}

// --- limits that hold across servers, accounts and processes ---

export interface ThrottleStore {
  /**
   * Counts attempts of `scope` by `who` within `windowMs` and, when fewer than `limit`, records this
   * one, atomically across every process on the database: `limit` holds however many arrive at
   * once. `who` is stored only as a keyed hash. `attempt` names the record for `giveBackThrottle`.
   */
  takeThrottle(
    scope: string,
    who: string,
    limit: number,
    windowMs: number,
  ): Promise<{ allowed: boolean; retryAt: Date | null; attempt: number | null }>;
  giveBackThrottle(scope: string, who: string, attempt: number): Promise<void>;
  throttled(
    scope: string,
    who: string,
    limit: number,
    windowMs: number,
  ): Promise<{ limited: boolean; retryAt: Date | null }>;
  /** Drops attempts older than `olderThanMs` in every scope; how many. */
  pruneThrottles(olderThanMs: number): Promise<number>;
}

// --- servers the bot was removed from ---

export interface DepartureStore {
  /** An earlier record keeps its time. True when new. */
  recordGuildDeparture(guildId: string): Promise<boolean>;
  /** True when a departure was recorded. */
  cancelGuildDeparture(guildId: string): Promise<boolean>;
  /** Oldest first. */
  guildDepartures(): Promise<Array<{ guildId: string; leftAt: string }>>;
}

// --- whom the store holds something about, and forgetting them ---

export interface PeopleStore {
  /** Every server the store holds anything about. */
  knownGuildIds(): Promise<string[]>;
  /** The Discord users a server's data names: links, link requests and `/notify` subscriptions. */
  memberIds(guildId: string): Promise<string[]>;
  /** Members held about (a link, a pending request or a subscription), with a Discord locale when known. */
  guildMembersHeld(guildId: string): Promise<Array<{ userId: string; locale: string | null }>>;
  /**
   * /forget-me: links, link requests (the user's; as decider only their name goes), audit entries
   * naming them, subscriptions, and ledger rows of feeds starting with `personalFeedPrefix`, in
   * every server, in one step; erased as thoroughly as the database allows.
   */
  forgetUser(
    userId: string,
    personalFeedPrefix: string,
  ): Promise<{ links: number; requests: number; auditEntries: number; subscriptions: number }>;
  /** Everything held for a server, settings and sealed key included, and its departure record. */
  forgetGuild(guildId: string): Promise<void>;
}

// --- the feeds' settings per server and kind ---

/** A kind's stored settings; `options` is the stored JSON text, parsed by the feeds. */
export interface FeedSettingsRow {
  enabled: boolean;
  pausedReason: string | null;
  pausedAt: string | null;
  roleId: string | null;
  options: string;
}

export interface FeedSettingsStore {
  get(guildId: string, feed: string): Promise<FeedSettingsRow | null>;
  all(guildId: string): Promise<Array<FeedSettingsRow & { feed: string }>>;
  /** Servers with at least one kind turned on, ordered. */
  guildsWithFeeds(): Promise<string[]>;
  /**
   * Read-modify-write of one kind in one atomic step (no other process's change is lost between
   * the read and the write): `change` gets the stored row (null: never configured) and returns the
   * row to store. `change` must be synchronous and pure.
   */
  update(
    guildId: string,
    feed: string,
    change: (current: FeedSettingsRow | null) => FeedSettingsRow,
  ): Promise<FeedSettingsRow>;
}

// --- personal DM subscriptions (/notify) ---

export type NotifyPause = 'dms-closed' | 'dm-unavailable';

export interface Subscription {
  guildId: string;
  userId: string;
  starts: boolean;
  results: boolean;
  /** The day-before reminder of each race a linked person has entered (migration 12). */
  tomorrow: boolean;
  /** A DM when a linked person finishes on race day, from the live results (migration 16). */
  live: boolean;
  /** The member's Discord locale when they last used /notify: DMs are in that language. */
  locale: string;
  dmChannelId: string | null;
  pausedReason: NotifyPause | null;
  pausedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SubscriptionStore {
  get(guildId: string, userId: string): Promise<Subscription | null>;
  /**
   * Sets the kinds (all false: the row is deleted) in one atomic step with forgetting the ledger
   * feeds of `dropFeedPrefixes`. `resume` clears a pause (and a DM channel that could not be used).
   * `tomorrow` and `live` absent are off.
   */
  set(
    guildId: string,
    userId: string,
    next: { starts: boolean; results: boolean; tomorrow?: boolean; live?: boolean; locale: string; resume: boolean },
    dropFeedPrefixes: readonly string[],
  ): Promise<Subscription | null>;
  /** Members with at least one kind on and no pause, ordered by user. */
  active(guildId: string): Promise<Subscription[]>;
  guildsWithSubscribers(): Promise<string[]>;
  setDmChannel(guildId: string, userId: string, channelId: string | null): Promise<void>;
  /** False when there is nothing to pause. */
  pause(guildId: string, userId: string, reason: NotifyPause): Promise<boolean>;
  /** Deletes subscriptions (one member, or all of a server) and ledger feeds starting with `feedPrefix`, together. */
  forget(guildId: string, userId: string | null, feedPrefix: string): Promise<number>;
}

// --- the ledger of automatic posts (docs/decisions/exactly-once-ledger.md) ---

export type LedgerState = 'seeded' | 'posting' | 'posted';

export interface LedgerRow {
  guildId: string;
  feed: string;
  itemKey: string;
  contentHash: string;
  channelId: string;
  messageId: string | null;
  state: LedgerState;
  nonce: string | null;
  /** While `posting`: the message as JSON, so the post can be finished without recomputing it. */
  pendingPayload: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ItemRef {
  guildId: string;
  feed: string;
  itemKey: string;
}

export interface LedgerStore {
  /**
   * Claims the item for `owner` until `now + leaseMs`: false while another owner holds a claim
   * that has not expired and `mayBeAlive(thatOwner)` says may still run. The check and the write
   * are one atomic step across processes.
   */
  claim(ref: ItemRef, owner: string, leaseMs: number, mayBeAlive: (owner: string) => boolean): Promise<boolean>;
  /** Gives up `owner`'s claim (another owner's stays). */
  release(ref: ItemRef, owner: string): Promise<void>;
  get(ref: ItemRef): Promise<LedgerRow | null>;
  rows(guildId: string, feed: string): Promise<LedgerRow[]>;
  feedStartedAt(guildId: string, feed: string): Promise<string | null>;
  /** Records the items as `seeded` and the feed's start together (existing rows stay). */
  seed(
    guildId: string,
    feed: string,
    channelId: string,
    items: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): Promise<void>;
  /** The intent to post (`posting`, nonce, payload) and the items it covers (`seeded`), together. */
  intend(
    ref: ItemRef,
    channelId: string,
    contentHash: string,
    nonce: string,
    payload: string | null,
    covers: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): Promise<void>;
  posted(ref: ItemRef, messageId: string, contentHash: string): Promise<void>;
  unfinished(guildId: string, feed: string): Promise<LedgerRow[]>;
  postedElsewhere(ref: ItemRef): Promise<boolean>;
  startedFeeds(guildId: string, prefix: string): Promise<string[]>;
  /** Items, start and claims of feeds starting with `prefix` (or exactly it), in one server or (null) all. */
  forgetFeeds(guildId: string | null, prefix: string, options?: { exact?: boolean }): Promise<void>;
  lastRunAt(guildId: string, feed: string): Promise<string | null>;
  ranAt(guildId: string, feed: string, at: Date): Promise<void>;
  updateHash(ref: ItemRef, contentHash: string): Promise<void>;
}

// --- leases: which process does a shared piece of work (docs/decisions/feed-leases.md) ---

export interface LeaseHolder {
  owner: string;
  /** ISO-8601 text from the store's clock. */
  expiresAt: string;
}

export interface LeaseStore {
  /**
   * Takes the lease `name` for `owner` until `now + ttlMs` when it is free, expired or already
   * `owner`'s (then it is renewed); false while another owner holds it. One atomic step across
   * every process on the database.
   */
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives up `owner`'s lease (another owner's stays). */
  release(name: string, owner: string): Promise<void>;
  /** Who holds `name` and until when; null when nobody does or the lease has expired. */
  holder(name: string): Promise<LeaseHolder | null>;
  /** Every live lease whose name starts with `prefix`, by name. */
  held(prefix: string): Promise<Array<LeaseHolder & { name: string }>>;
}

// --- the daily member sweep's progress (src/app/member-sweep.ts) ---

export interface SweepStore {
  /**
   * Records that a server's daily sweep starts `at` (the scheduler tick's time), when its last one
   * started at least `intervalMs` before (or never): true then, false when it is not due. One
   * atomic step, so of several processes (or a restarted one) only one queues a server's sweep per
   * interval.
   */
  startSweep(guildId: string, at: Date, intervalMs: number): Promise<boolean>;
  /** When the server's last sweep started, or null. */
  sweptAt(guildId: string): Promise<string | null>;
}

// --- each running process's heartbeat (docs/operators.md#monitoring) ---

/** The gateway as a process last saw it: every shard of it ready, or not. */
export type GatewayState = 'ready' | 'connecting' | 'disconnected';

/**
 * What a running bot process last said of itself; `eventor-bot health` judges it. Times are
 * ISO-8601 text from the wall clock of the process that wrote them.
 */
export interface Heartbeat {
  /** Which process: its shards and their count (`0-1/4`; `0/1` unsharded). */
  process: string;
  shardCount: number;
  /** Its shards as `formatShards` writes them (`0-1`). */
  shards: string;
  pid: number;
  host: string;
  startedAt: string;
  beatAt: string;
  /** When it stopped cleanly; null while it runs (or after it died without stopping). */
  stoppedAt: string | null;
  gateway: GatewayState;
  /** Since when the gateway has been in that state. */
  gatewaySince: string;
  /** When the feed scheduler's last tick ended; null before the first. */
  feedsRanAt: string | null;
  eventorOkAt: string | null;
  eventorFailedAt: string | null;
  discordOkAt: string | null;
  discordFailedAt: string | null;
}

export interface HeartbeatStore {
  /** Records `heartbeat` as its process's latest (replacing the one before). */
  beat(heartbeat: Heartbeat): Promise<void>;
  /** Every process's latest, by process. */
  heartbeats(): Promise<Heartbeat[]>;
  /** Drops a process's heartbeat (one of a configuration no longer in use). */
  forget(process: string): Promise<void>;
}

// --- the season: the club's races found and their results kept (docs/season.md#what-it-asks-eventor) ---

/**
 * An event of a server's season as the store keeps it. `source` names whose season it is (the
 * Eventor and the club: ids are per instance and per club), so a server that moved club never
 * reads the old club's rows. `event` and `races` are JSON the season service writes and reads.
 */
export interface SeasonEventRow {
  eventId: string;
  /** Local day (YYYY-MM-DD, the server's zone) of the event's first race: what range reads go by. */
  firstDay: string;
  event: string;
  /** The event's races with the club's results; null until asked. */
  races: string | null;
  /** When its results were last asked (store clock); null until then. */
  fetchedAt: string | null;
  /** Asked once the days of corrections were over: never asked again. */
  settled: boolean;
}

/** How far looking for a year's events has come: the last local day looked at, and when. */
export interface SeasonScan {
  scannedThrough: string;
  scannedAt: string;
}

export interface SeasonStore {
  /** The events of `source` in the server whose first race is between two local days, inclusive, by day. */
  events(guildId: string, source: string, fromDay: string, toDay: string): Promise<SeasonEventRow[]>;
  scan(guildId: string, source: string, year: number): Promise<SeasonScan | null>;
  /**
   * Records one look for a year's events in one step: the events found (an event already known
   * keeps its results; its text and day are replaced), how far the look reached (`scannedAt` the
   * store's clock), and the server's rows of any other source (a club it no longer is) forgotten.
   */
  recordScan(
    guildId: string,
    source: string,
    year: number,
    scannedThrough: string,
    found: ReadonlyArray<{ eventId: string; firstDay: string; event: string }>,
  ): Promise<void>;
  /** Keeps an event's results (`fetchedAt` the store's clock); false when the event is not known. */
  putResults(guildId: string, source: string, eventId: string, races: string, settled: boolean): Promise<boolean>;
}

// --- the club cups admins define (docs/admins.md#cups) ---

export interface CupRow {
  id: number;
  guildId: string;
  name: string;
  /** The cup's rules as JSON (the season's `CupRules`). */
  rules: string;
  /** Whether the cup standings kind posts its standings (docs/admins.md#cup-standings-posts). */
  postStandings: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What a cup is made of as the store is given it; `postStandings` absent: off (new), unchanged (update). */
export interface CupFields {
  name: string;
  nameKey: string;
  rules: string;
  postStandings?: boolean;
}

export interface CupStore {
  /** A server's cups, by name. */
  list(guildId: string): Promise<CupRow[]>;
  get(guildId: string, id: number): Promise<CupRow | null>;
  /**
   * Adds a cup in one step, unless the server has one whose `nameKey` (the name as the caller
   * compares names) is the same, or already `max` cups.
   */
  create(guildId: string, cup: CupFields, max: number): Promise<CupRow | 'exists' | 'full'>;
  /**
   * Replaces a cup's name and rules (and `postStandings` when given) in one step: `gone` when it is
   * not there, `exists` when another cup has the name.
   */
  update(guildId: string, id: number, cup: CupFields): Promise<CupRow | 'gone' | 'exists'>;
  /** False when it was not there. */
  delete(guildId: string, id: number): Promise<boolean>;
}

// --- race day, live: which live competition each server's race is (docs/live-results.md#race-day-in-discord) ---

/** How a race's live competition was found: by the event's link, a confident search, an admin; or not yet. */
export type LiveMatchHow = 'link' | 'search' | 'admin' | 'uncertain' | 'none';

/**
 * One race of a server's club on its race day and the live competition it is. `race` and
 * `candidates` are JSON the live kind writes and reads (the race's names, the club's names and its
 * runners in Eventor; the competitions offered when unsure).
 */
export interface LiveRaceRow {
  guildId: string;
  eventId: string;
  raceId: string;
  /** The race's local day (YYYY-MM-DD): what the reads go by. */
  raceDay: string;
  race: string;
  /** The live competition followed; null while none is chosen. */
  competitionId: number | null;
  how: LiveMatchHow;
  candidates: string;
  /** When the board turned final (store clock); null while it is live. */
  finalAt: string | null;
  /** The Discord link of the results post the final board points to, when there is one. */
  resultsUrl: string | null;
  updatedAt: string;
}

/** What one poller last read of a live competition, for every process to show (`/live`). */
export interface LiveSnapshotRow {
  competitionId: number;
  /** JSON the poller writes: the competition and the followed clubs' runners. */
  state: string;
  /** When it was read (store clock). */
  readAt: string;
  /** When a runner last changed, if ever. */
  changedAt: string | null;
}

export interface LiveStore {
  /** A server's races of the local days between `fromDay` and `toDay`, inclusive, by day. */
  races(guildId: string, fromDay: string, toDay: string): Promise<LiveRaceRow[]>;
  race(guildId: string, eventId: string, raceId: string): Promise<LiveRaceRow | null>;
  /** Every server's races of those days that follow a competition: what the pollers read. */
  followed(fromDay: string, toDay: string): Promise<LiveRaceRow[]>;
  /**
   * Records what matching found, in one step: a new race, or a known one's text, and its
   * competition unless an admin chose it (`admin` is kept; its text is still replaced). A change
   * of competition makes the board live again.
   */
  putMatch(row: Omit<LiveRaceRow, 'finalAt' | 'resultsUrl' | 'updatedAt'>): Promise<LiveRaceRow>;
  /** An admin's choice (`how` becomes `admin`), a race not yet known included; the board is live again. */
  choose(
    row: Pick<LiveRaceRow, 'guildId' | 'eventId' | 'raceId' | 'raceDay' | 'race'>,
    competitionId: number,
  ): Promise<LiveRaceRow>;
  /**
   * The board is final from now (kept when it already was), with the results post's link when one is
   * given (a link given later replaces none); false when the race is not known.
   */
  markFinal(guildId: string, eventId: string, raceId: string, resultsUrl: string | null): Promise<boolean>;
  snapshot(competitionId: number): Promise<LiveSnapshotRow | null>;
  /** Replaces a competition's snapshot (`readAt` the store's clock). */
  putSnapshot(competitionId: number, state: string, changedAt: string | null): Promise<void>;
  /** Forgets races of days before `beforeDay` and snapshots read before it; how many rows went. */
  prune(beforeDay: string): Promise<number>;
}

// --- the whole store ---

export interface StoreParts {
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
}

export interface Store extends StoreParts {
  readonly dialect: Dialect;
  /** For messages to the operator: the file, or the PostgreSQL server and database (never a password). */
  readonly description: string;
  /**
   * Runs `work` with parts bound to one transaction: all of it or nothing. Inside, use only the
   * parts `work` is given. SQLite: one IMMEDIATE transaction, other callers wait for it; PostgreSQL:
   * one connection from the pool. A nested call joins the outer transaction.
   */
  transaction<T>(work: (parts: StoreParts) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
