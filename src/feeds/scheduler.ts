/**
 * The feed scheduler dispatches: node-cron ticks once a minute, and every (server, feed) that is
 * due runs, each feed of the registry (`registry.ts`) the same way through the `Feed` contract.
 * What "due" means lives beside it: the cadence given the club's calendar and quiet hours
 * (`cadence.ts`), back-off after a failure (`backoff.ts`), pauses and their hourly re-check
 * (`pauses.ts`), the admins' notices (`notices.ts`). Runs are aligned to wall-clock slots, so every
 * server of one Eventor client runs in the same tick and its cache answers all but the first.
 */
import { type Channel, type Client, Events } from 'discord.js';
import cron, { type ScheduledTask } from 'node-cron';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { EventorAccess } from '../club/eventor-access.js';
import type { EventorClient } from '../eventor/client.js';
import { InvalidApiKey } from '../eventor/errors.js';
import { type Language, serverLanguage } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { Sharding } from '../config/sharding.js';
import type { GuildSettings, Store } from '../store/interfaces.js';
import { BackOffs, isTransient } from './backoff.js';
import { ClubCalendars, FREQUENT_MS, inQuietHours, isFullRun, slotChanged } from './cadence.js';
import { ClubShares } from './club-share.js';
import { Ledger } from './delivery/ledger.js';
import { discordTarget, type PostTarget } from './delivery/poster.js';
import type { Feed, FeedContext, FeedName, FeedRunResult, MembershipCheck } from './feed.js';
import { clubOf, FeedLeases, type LeaseTick } from './leases.js';
import { AdminNotices } from './notices.js';
import { Pauses } from './pauses.js';
import type { FeedKind } from './kind.js';
import type { LiveAccess } from './kinds/live/access.js';
import { feedsOf, KINDS } from './registry.js';
import { type FeedSettings, KindSettings } from './settings.js';

export interface FeedSchedulerOptions {
  client: Client;
  store: Store;
  eventor: EventorAccess;
  log: Logger;
  defaultLanguage: Language;
  defaultTimeZone: string;
  now?: () => Date;
  /** For tests: where posts go (default the real Discord through the client). */
  target?: PostTarget;
  /** Looks members up in their server before their personal DMs (see `MembershipCheck`). */
  membership?: MembershipCheck;
  /**
   * The bot's housekeeping (`bot/housekeeping.ts`: deleting removed servers' data, the member sweep),
   * run beside the feeds on every tick; it keeps its own daily cadence. Never two at once.
   */
  housekeeping?: (now: Date) => Promise<void>;
  /**
   * The gateway shards this process runs (default: unsharded, shard 0 of 1). Processes on one
   * database share the feeds by club with leases (`leases.ts`): a club's servers run in one process.
   */
  sharding?: Sharding | null;
  /** For tests: the feed leases' time to live (default `FEED_LEASE_TTL_MS`). */
  leaseTtlMs?: number;
  /** The kinds of automatic post (default: the registry's). */
  kinds?: readonly FeedKind[];
  /** LiveResultat on the operator's addresses, for the live kind's matching; absent or null: live results off. */
  live?: LiveAccess | null;
}

/** When a (server, feed) last ran, and last asked about its whole window. */
interface RunState {
  lastRun: number | null;
  /** The last run that asked about the whole window (`FeedRunOptions.full`): one an hour. */
  lastFull: number | null;
  /** Whether `lastRun` was read from the ledger (a restart keeps the cadence instead of running everything at once). */
  loaded: boolean;
}

/** What one tick ran (`tick` logs it): the feed runs, in how many servers, what they sent and edited. */
export interface TickSummary {
  /** (server, feed) runs, the failed ones too. */
  feedsRun: number;
  /** Servers with at least one run. */
  servers: number;
  /** New messages: channel posts and members' DMs. */
  posts: number;
  edits: number;
  /** Runs (and housekeeping) that failed, as `failedRuns` counts them. */
  failed: number;
}

/** A tick's counts while it runs. */
interface TickCounts {
  feedsRun: number;
  servers: Set<string>;
  posts: number;
  edits: number;
  failed: number;
}

/** A (server, feed) due to run. */
interface Due {
  key: string;
  feed: Feed;
  /** The `/feeds` settings it follows (`Feed.settingsOf`). */
  settings: FeedSettings;
}

/** The scheduler's name for one feed of one server (its run state, back-off, pause re-checks). */
function runKey(guildId: string, feed: FeedName): string {
  return `${guildId}|${feed}`;
}

export class FeedScheduler {
  readonly #options: FeedSchedulerOptions;
  readonly #settings: KindSettings;
  /** Every feed it runs, in the registry's order (`registry.ts`). */
  readonly #feeds: readonly Feed[];
  readonly #ledger: Ledger;
  readonly #target: PostTarget;
  readonly #now: () => Date;
  readonly #runs = new Map<string, RunState>();
  readonly #running = new Set<string>();
  readonly #calendars = new ClubCalendars();
  /** What the runs of one club share within a tick and within the hour (one entries request per run, the day's events). */
  readonly #clubShares = new ClubShares();
  readonly #backOffs = new BackOffs();
  readonly #pauses: Pauses;
  readonly #notices: AdminNotices;
  /** Which clubs this process runs when several share the database. */
  readonly #leases: FeedLeases;
  #task: ScheduledTask | null = null;
  readonly #onChannelDelete = (channel: Channel): void => {
    void this.#channelDeleted(channel).catch((error: unknown) =>
      this.#options.log.error('handling a deleted channel failed', { error }),
    );
  };
  #ticking: Promise<unknown> | null = null;
  #housekeeping: Promise<void> | null = null;
  #stopped = false;
  #failedRuns = 0;
  #tickEndedAt: Date | null = null;

  /** Runs that failed since this scheduler was made (`tick` exits non-zero on any, so that cron sees it). */
  get failedRuns(): number {
    return this.#failedRuns;
  }

  /**
   * When the last tick ended, by the wall clock (not the scheduler's own, which tests and
   * simulations move): the heartbeat reports it (docs/operators.md#monitoring).
   */
  get tickEndedAt(): Date | null {
    return this.#tickEndedAt;
  }

  constructor(options: FeedSchedulerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#settings = new KindSettings(options.store, this.#now, options.kinds ?? KINDS);
    this.#feeds = feedsOf(options.kinds ?? KINDS);
    this.#ledger = new Ledger(options.store);
    this.#target = options.target ?? discordTarget(options.client);
    this.#notices = new AdminNotices(options.client, options.store, options.log);
    this.#pauses = new Pauses(this.#settings, this.#notices, options.client, options.log);
    this.#leases = new FeedLeases({
      store: options.store.leases,
      sharding: options.sharding ?? null,
      ttlMs: options.leaseTtlMs,
    });
    // A feed's channel deleted: pause and tell the admins now, not when the next post fails.
    options.client.on(Events.ChannelDelete, this.#onChannelDelete);
  }

  /** Starts the minute tick (node-cron); a tick still running makes the next one skip busy feeds. */
  start(): void {
    if (this.#task || this.#stopped) return;
    this.#task = cron.schedule('* * * * *', () => {
      void this.tick(this.#now()).catch((error: unknown) =>
        this.#options.log.error('feed scheduler tick failed', { error }),
      );
    });
  }

  /** Stops the tick, waits for the runs in flight and gives back this process's leases (others take over at once). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#options.client.off(Events.ChannelDelete, this.#onChannelDelete);
    if (this.#task) {
      await this.#task.stop();
      this.#task = null;
    }
    await this.#ticking;
    await this.#leases.releaseAll();
  }

  /**
   * One tick: every due (server, feed) runs, servers of one Eventor client one after another.
   * `force`: every turned-on, unpaused feed runs now whatever its cadence (quiet hours still hold).
   * Resolves with what it ran.
   */
  tick(now: Date = this.#now(), options: { force?: boolean } = {}): Promise<TickSummary> {
    const counts: TickCounts = { feedsRun: 0, servers: new Set(), posts: 0, edits: 0, failed: 0 };
    const run = this.#tick(now, options.force ?? false, counts).then((): TickSummary => ({
      ...counts,
      servers: counts.servers.size,
    }));
    const tracked = run.finally(() => {
      this.#tickEndedAt = new Date();
      if (this.#ticking === tracked) this.#ticking = null;
    });
    this.#ticking = tracked;
    return tracked;
  }

  /** The server's zone and language; `guild`: its settings when the caller has just read them. */
  #localeOf(guildId: string, guild: GuildSettings | null): { timeZone: string; language: Language } {
    return {
      timeZone: guild?.timeZone ?? this.#options.defaultTimeZone,
      language: serverLanguage(
        guild?.locale,
        this.#options.client.guilds.cache.get(guildId)?.preferredLocale,
        this.#options.defaultLanguage,
      ),
    };
  }

  async #channelDeleted(channel: Channel): Promise<void> {
    if (this.#stopped || !('guildId' in channel) || !channel.guildId) return;
    const guild = await this.#options.store.servers.guildSettings(channel.guildId);
    const { language } = this.#localeOf(channel.guildId, guild);
    for (const settings of await this.#settings.all(channel.guildId, guild)) {
      if (settings.enabled && settings.channelId === channel.id && settings.pausedReason === null) {
        await this.#pauses.pause(
          runKey(settings.guildId, settings.feed),
          settings,
          'channel-missing',
          this.#now(),
          language,
        );
      }
    }
  }

  async #tick(now: Date, force: boolean, counts: TickCounts): Promise<void> {
    if (this.#stopped) return;
    await Promise.all([this.#housekeep(now, counts), this.#runFeeds(now, force, counts)]);
  }

  /** Housekeeping beside the feeds (its Discord lookups never hold a feed up); failures are logged. */
  async #housekeep(now: Date, counts: TickCounts): Promise<void> {
    const housekeeping = this.#options.housekeeping;
    if (!housekeeping || this.#housekeeping) return;
    this.#housekeeping = housekeeping(now)
      .catch((error: unknown) => {
        this.#failedRuns += 1;
        counts.failed += 1;
        this.#options.log.error('housekeeping failed', { error });
      })
      .finally(() => {
        this.#housekeeping = null;
      });
    await this.#housekeeping;
  }

  async #runFeeds(now: Date, force: boolean, counts: TickCounts): Promise<void> {
    // Feeds for members (their DMs) run in the servers where someone wants them, kinds of their own where turned on.
    const memberServers = new Map<Feed, ReadonlySet<string>>();
    for (const feed of this.#feeds)
      if (feed.servers) memberServers.set(feed, new Set(await feed.servers(this.#options.store)));
    // A server that removed the bot gets no posts and no DMs: its data only waits to be deleted.
    const departed = new Set((await this.#options.store.departures.guildDepartures()).map((d) => d.guildId));
    // One read of each server's settings: its club (for the leases), zone, language and channels.
    const servers = new Map<string, GuildSettings | null>();
    for (const guildId of new Set([
      ...(await this.#settings.guildsWithFeeds()),
      ...[...memberServers.values()].flatMap((s) => [...s]),
    ]))
      if (!departed.has(guildId)) servers.set(guildId, await this.#options.store.servers.guildSettings(guildId));
    const clubs = new Map([...servers].map(([guildId, guild]) => [guildId, clubOf(guildId, guild)]));
    const leases = await this.#leases.begin(clubs, now);
    await this.#runServers(servers, clubs, leases, memberServers, now, force, counts);
  }

  async #runServers(
    servers: ReadonlyMap<string, GuildSettings | null>,
    clubs: ReadonlyMap<string, string>,
    leases: LeaseTick,
    memberServers: ReadonlyMap<Feed, ReadonlySet<string>>,
    now: Date,
    force: boolean,
    counts: TickCounts,
  ): Promise<void> {
    const groups = new Map<EventorClient | null, Array<() => Promise<void>>>();
    for (const [guildId, guild] of servers) {
      // Another process runs this club (its Eventor requests are made once, there).
      if (!(await leases.runs(clubs.get(guildId)!))) continue;
      const { timeZone, language } = this.#localeOf(guildId, guild);
      const candidates: Due[] = [];
      const rechecks: Due[] = [];
      const all = await this.#settings.all(guildId, guild);
      for (const feed of this.#feeds) {
        const settings = all.find((s) => s.feed === feed.settingsOf)!;
        const key = runKey(guildId, feed.name);
        if (
          feed.audience === 'members'
            ? !memberServers.get(feed)?.has(guildId)
            : !settings.enabled || (feed.audience === 'channel' && !settings.channelId)
        )
          continue;
        if (this.#running.has(key)) continue;
        // A pause is of a kind (its channel, or the server for `server` kinds); members' DMs are paused member by member.
        if (feed.audience !== 'members' && settings.pausedReason !== null) {
          if (this.#pauses.recheckDue(key, settings, now)) rechecks.push({ key, feed, settings });
          continue;
        }
        if (this.#backOffs.waiting(key, now)) continue;
        if (!force) {
          const state = this.#runState(key);
          if (!state.loaded) await this.#loadLastRun(state, guildId, feed);
          if (!slotChanged(state.lastRun, now, FREQUENT_MS)) continue;
        }
        if (inQuietHours(now, timeZone, settings.quietHours)) continue;
        candidates.push({ key, feed, settings });
      }
      if (candidates.length === 0 && rechecks.length === 0) continue;
      let access: { client: EventorClient; organisationId: string } | null = null;
      try {
        access = await this.#options.eventor.forGuild(guildId);
      } catch (error) {
        // Reported by the kinds of the server (pause or back-off); members' DMs just wait for the connection.
        for (const due of candidates)
          if (due.feed.audience !== 'members') await this.#failed(due, now, error, language, counts);
      }
      const client = access?.client ?? null;
      const jobs = groups.get(client) ?? [];
      for (const due of rechecks) jobs.push(() => this.#recheck(due, client, now, language));
      if (access) {
        const { client: eventor } = access;
        // A process started again on a race day finds its last runs in the ledger but not yet the
        // club's calendar: unknown, the cadence would be hourly and the results wait for the next
        // hour. So the calendar is learnt first then (a no-op once known for the day).
        if (!force && candidates.some((due) => this.#runState(due.key).lastRun !== null))
          await this.#calendars.learn(eventor, access.organisationId, now, timeZone);
        for (const due of candidates) {
          // In the registry's order: members' DMs after the kinds, whose lists are then in the shared client's cache.
          if (force || this.#dueAt(due, eventor, now, timeZone))
            jobs.push(() => this.#run(due, access, now, language, timeZone, counts));
        }
      }
      groups.set(client, jobs);
    }
    // Servers of one client run one after another in this tick (its cache serves the later ones);
    // different clients run side by side.
    await Promise.all(
      [...groups.values()].map(async (jobs) => {
        for (const job of jobs) {
          if (this.#stopped) return;
          await job();
        }
      }),
    );
  }

  #runState(key: string): RunState {
    let state = this.#runs.get(key);
    if (!state) {
      state = { lastRun: null, lastFull: null, loaded: false };
      this.#runs.set(key, state);
    }
    return state;
  }

  /**
   * A run could be due at all only when its 5-minute slot (the finest cadence) changed since the
   * last run: checked (in `#runFeeds`) before the server's Eventor access is looked up, so most
   * minutes cost no key decryption; `#dueAt` then applies the feed's real cadence. A feed's last
   * run is read from the ledger once, so a restart keeps the cadence.
   */
  async #loadLastRun(state: RunState, guildId: string, feed: Feed): Promise<void> {
    state.loaded = true;
    const lastRun = await this.#ledger.lastRunAt(guildId, feed.name);
    if (lastRun !== null && state.lastRun === null) state.lastRun = Date.parse(lastRun);
  }

  /** Due when the run's wall-clock slot (the feed's cadence, given the club's calendar) changed since the last run. */
  #dueAt(due: Due, client: EventorClient, now: Date, timeZone: string): boolean {
    const state = this.#runState(due.key);
    if (state.lastRun === null) return true;
    return slotChanged(state.lastRun, now, due.feed.cadence(this.#calendars.today(client, now, timeZone)));
  }

  async #run(
    due: Due,
    access: { client: EventorClient; organisationId: string },
    now: Date,
    language: Language,
    timeZone: string,
    counts: TickCounts,
  ): Promise<void> {
    const { key, feed } = due;
    if (this.#running.has(key)) return;
    this.#running.add(key);
    counts.feedsRun += 1;
    counts.servers.add(due.settings.guildId);
    const state = this.#runState(key);
    const full = isFullRun(state.lastFull, now);
    try {
      const ctx: FeedContext = {
        guildId: due.settings.guildId,
        settings: due.settings,
        client: access.client,
        organisationId: access.organisationId,
        ledger: this.#ledger,
        target: this.#target,
        now,
        language,
        timeZone,
        club: this.#clubShares.of(access.client, access.organisationId, now),
        full,
        log: this.#options.log,
        store: this.#options.store,
        discord: this.#options.client,
        membership: this.#options.membership,
        live: this.#options.live ?? undefined,
      };
      let result: FeedRunResult;
      try {
        const data = await feed.fetch(ctx);
        result = await feed.deliver(feed.items(data, ctx), data, ctx);
      } catch (error) {
        result = { outcome: 'failed', error };
      }
      counts.posts += result.posts ?? 0;
      counts.edits += result.edits ?? 0;
      if (result.notice) {
        const { noticeLabel } = this.#settings.kind(due.settings.feed);
        await this.#notices.tell(due.settings.guildId, language, result.notice, { noticeLabel, ...due.settings });
      }
      if (result.outcome === 'paused') {
        await this.#pauses.pause(key, due.settings, result.reason ?? 'no-permission', now, language);
        return;
      }
      if (result.outcome === 'failed') {
        await this.#failed(due, now, result.error, language, counts);
        return;
      }
      // The run went through: its slot is taken, back-off ends, and the club's calendar is known for today.
      state.lastRun = now.getTime();
      if (full) state.lastFull = now.getTime();
      this.#backOffs.succeeded(key);
      await this.#calendars.learn(access.client, access.organisationId, now, timeZone);
    } finally {
      this.#running.delete(key);
    }
  }

  /** A refused key pauses a kind (its admins are told); anything else backs off, without a word in club channels. */
  async #failed(due: Due, now: Date, error: unknown, language: Language, counts: TickCounts): Promise<void> {
    if (error instanceof InvalidApiKey && due.feed.audience !== 'members') {
      await this.#pauses.pause(due.key, due.settings, 'invalid-key', now, language);
      return;
    }
    // A server with no Eventor connection is a state of that server (its admins see it in
    // /status), not a failure for the operator's cron to report on every tick.
    if (!(error instanceof UserFacingError && error.key === 'error.notConfigured')) {
      this.#failedRuns += 1;
      counts.failed += 1;
    }
    const { failures, delay } = this.#backOffs.failed(due.key, now);
    this.#options.log[isTransient(error) ? 'warn' : 'error']('feed run failed; backing off', {
      guildId: due.settings.guildId,
      feed: due.feed.name,
      failures,
      retryInMs: delay,
      error,
    });
  }

  async #recheck(due: Due, client: EventorClient | null, now: Date, language: Language): Promise<void> {
    if (this.#running.has(due.key)) return;
    this.#running.add(due.key);
    try {
      await this.#pauses.recheck(due.key, due.settings, client, now, language);
    } finally {
      this.#running.delete(due.key);
    }
  }
}
