/**
 * The feed scheduler: node-cron ticks once a minute and the scheduler decides, per (server, kind),
 * whether a run is due. Cadence follows the club's calendar (`intervalFor`: results every 5 minutes
 * on a day the club races and the day after, start lists every 15 minutes around race days, the
 * rest hourly); runs are aligned to wall-clock slots, so every server
 * of one Eventor client runs in the same tick and its cache answers all but the first. Quiet hours
 * (the server's local hours, daylight saving included) hold runs until they end. A `paused` run or
 * an invalid key pauses the kind and tells the admins once; hourly re-checks resume it when fixed.
 * An Eventor outage backs off exponentially (capped) without any message in club channels; the
 * next successful run catches up (the ledger knows what was posted).
 */
import { ChannelType, Events, PermissionFlagsBits, Routes, type Channel, type Client } from 'discord.js';
import cron, { type ScheduledTask } from 'node-cron';
import type { EventorClient } from '../eventor/client.js';
import { EventorError, InvalidApiKey } from '../eventor/errors.js';
import type { EventorAccess } from '../bot/eventor-access.js';
import { UserFacingError } from '../bot/command.js';
import { serverLanguage, t, type Language } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import { Ledger } from './ledger.js';
import { discordTarget, type PostTarget } from './poster.js';
import { guildsWithSubscribers, runPersonalNotifications, type MembershipCheck } from './personal.js';
import { FEEDS, type FeedRunner } from './registry.js';
import { FeedSettingsStore, type FeedKind, type FeedSettings, type PauseReason } from './settings.js';

const MINUTE = 60_000;
export const FREQUENT_MS = 5 * MINUTE;
export const RARE_MS = 60 * MINUTE;
/** How often a bot-set pause is re-checked. */
export const RECHECK_MS = 60 * MINUTE;
const BACKOFF_BASE_MS = 5 * MINUTE;
const BACKOFF_MAX_MS = 4 * 60 * MINUTE;

export interface FeedSchedulerOptions {
  client: Client;
  store: Store;
  eventor: EventorAccess;
  log: Logger;
  defaultLanguage: Language;
  defaultTimeZone: string;
  now?: () => Date;
  /** For tests: the runners by kind (default: each feed's own in FEEDS). */
  runners?: Partial<Record<FeedKind, FeedRunner | undefined>>;
  /** For tests: where posts go (default the real Discord through the client). */
  target?: PostTarget;
  /** Members' personal DMs (`/notify`); default on. */
  personal?: boolean;
  /** Looks members up in their server before their personal DMs (see `PersonalRunOptions.membership`). */
  membership?: MembershipCheck;
  /**
   * The bot's housekeeping (`bot/housekeeping.ts`: deleting removed servers' data, the member sweep),
   * run beside the feeds on every tick; it keeps its own daily cadence. Never two at once.
   */
  housekeeping?: (now: Date) => Promise<void>;
}

// Making an Intl.DateTimeFormat costs far more than using one: one per zone, made once.
const hourFormats = new Map<string, Intl.DateTimeFormat | null>();
const dateFormats = new Map<string, Intl.DateTimeFormat | null>();

function formatFor(cache: Map<string, Intl.DateTimeFormat | null>, timeZone: string, make: (timeZone: string) => Intl.DateTimeFormat): Intl.DateTimeFormat | null {
  if (!cache.has(timeZone)) {
    let format: Intl.DateTimeFormat | null;
    try {
      format = make(timeZone);
    } catch {
      format = null;
    }
    cache.set(timeZone, format);
  }
  return cache.get(timeZone)!;
}

/** The hour (0-23) of a moment in a time zone; wrong zones count as UTC. */
export function localHour(now: Date, timeZone: string): number {
  const format = formatFor(hourFormats, timeZone, (zone) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }));
  return format ? Number(format.format(now)) : now.getUTCHours();
}

/** The local date (YYYY-MM-DD) of a moment in a time zone; wrong zones count as UTC. */
export function localDate(now: Date, timeZone: string): string {
  const format = formatFor(dateFormats, timeZone, (zone) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }));
  return format ? format.format(now) : now.toISOString().slice(0, 10);
}

/** Inside quiet hours [from, to) in local time (wrapping past midnight when from > to). */
export function inQuietHours(now: Date, timeZone: string, quiet: { from: number; to: number } | null): boolean {
  if (!quiet || quiet.from === quiet.to) return false;
  const hour = localHour(now, timeZone);
  return quiet.from < quiet.to ? hour >= quiet.from && hour < quiet.to : hour >= quiet.from || hour < quiet.to;
}

interface KindState {
  lastRun: number | null;
  /** The last run that asked about the whole window (`FeedRunOptions.full`): one an hour. */
  lastFull: number | null;
  failures: number;
  retryAt: number;
  lastCheck: number;
  /** Whether `lastRun` was read from the ledger (a restart keeps the cadence instead of running everything at once). */
  loaded: boolean;
}

/** What the club's calendar says about a local day: races today or yesterday, races in the next two days. */
interface Calendar {
  date: string;
  raceDay: boolean;
  raceSoon: boolean;
}

/** The scheduler's name for members' personal DMs (`/notify`), run per server like a kind, at the results' cadence. */
export const PERSONAL = 'personal';

/** Start lists are watched more closely in the days before a race and on it. */
export const STARTLISTS_CLOSE_MS = 15 * MINUTE;

/**
 * How often a kind runs: results every 5 minutes on and just after race days, start lists every
 * 15 minutes around them, everything else (deadlines, new events, activities) hourly.
 */
export function intervalFor(kind: FeedKind | typeof PERSONAL, calendar: Pick<Calendar, 'raceDay' | 'raceSoon'> | null): number {
  if ((kind === 'results' || kind === PERSONAL) && calendar?.raceDay) return FREQUENT_MS;
  if (kind === 'startlists' && (calendar?.raceDay || calendar?.raceSoon)) return STARTLISTS_CLOSE_MS;
  return RARE_MS;
}

/** Whether a run asks about the whole window (`FeedRunOptions.full`): the first, then one an hour. */
function isFullRun(state: KindState, now: Date): boolean {
  return state.lastFull === null || Math.floor(now.getTime() / RARE_MS) > Math.floor(state.lastFull / RARE_MS);
}

/** Transient Eventor trouble (outage, timeout, rate limit): back off, no message to anyone. */
function isTransient(error: unknown): boolean {
  return error instanceof EventorError && !(error instanceof InvalidApiKey);
}

export class FeedScheduler {
  readonly #options: FeedSchedulerOptions;
  readonly #settings: FeedSettingsStore;
  readonly #ledger: Ledger;
  readonly #target: PostTarget;
  readonly #now: () => Date;
  readonly #state = new Map<string, KindState>();
  readonly #running = new Set<string>();
  readonly #calendars = new Map<EventorClient, Calendar>();
  #task: ScheduledTask | null = null;
  readonly #onChannelDelete = (channel: Channel): void => {
    void this.#channelDeleted(channel).catch((error: unknown) => this.#options.log.error('handling a deleted channel failed', { error }));
  };
  #ticking: Promise<void> | null = null;
  #housekeeping: Promise<void> | null = null;
  #stopped = false;
  #failedRuns = 0;

  /** Runs that failed since this scheduler was made (`tick` exits non-zero on any, so that cron sees it). */
  get failedRuns(): number {
    return this.#failedRuns;
  }

  constructor(options: FeedSchedulerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#settings = new FeedSettingsStore(options.store, this.#now);
    this.#ledger = new Ledger(options.store, this.#now);
    this.#target = options.target ?? discordTarget(options.client);
    // A feed's channel deleted: pause and tell the admins now, not when the next post fails.
    options.client.on(Events.ChannelDelete, this.#onChannelDelete);
  }

  /** Starts the minute tick (node-cron); a tick still running makes the next one skip busy feeds. */
  start(): void {
    if (this.#task || this.#stopped) return;
    this.#task = cron.schedule('* * * * *', () => {
      void this.tick(this.#now()).catch((error: unknown) => this.#options.log.error('feed scheduler tick failed', { error }));
    });
  }

  /** Stops the tick and waits for the runs in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#options.client.off(Events.ChannelDelete, this.#onChannelDelete);
    if (this.#task) {
      await this.#task.stop();
      this.#task = null;
    }
    await this.#ticking;
  }

  /**
   * One tick: every due (server, kind) runs, servers of one Eventor client one after another.
   * `force`: every turned-on, unpaused kind runs now whatever its cadence (quiet hours still hold).
   */
  tick(now: Date = this.#now(), options: { force?: boolean } = {}): Promise<void> {
    const run = this.#tick(now, options.force ?? false);
    const tracked = run.finally(() => {
      if (this.#ticking === tracked) this.#ticking = null;
    });
    this.#ticking = tracked;
    return tracked;
  }

  #localeOf(guildId: string): { timeZone: string; language: Language } {
    const guild = this.#options.store.guildSettings(guildId);
    return {
      timeZone: guild?.timeZone ?? this.#options.defaultTimeZone,
      language: serverLanguage(guild?.locale, this.#options.client.guilds.cache.get(guildId)?.preferredLocale, this.#options.defaultLanguage),
    };
  }

  async #channelDeleted(channel: Channel): Promise<void> {
    if (this.#stopped || !('guildId' in channel) || !channel.guildId) return;
    const { language } = this.#localeOf(channel.guildId);
    for (const settings of this.#settings.all(channel.guildId)) {
      if (settings.enabled && settings.channelId === channel.id && settings.pausedReason === null) {
        await this.#pause(settings, 'channel-missing', this.#now(), language);
      }
    }
  }

  async #tick(now: Date, force: boolean): Promise<void> {
    if (this.#stopped) return;
    await Promise.all([this.#housekeep(now), this.#runFeeds(now, force)]);
  }

  /** Housekeeping beside the feeds (its Discord lookups never hold a feed up); failures are logged. */
  async #housekeep(now: Date): Promise<void> {
    const housekeeping = this.#options.housekeeping;
    if (!housekeeping || this.#housekeeping) return;
    this.#housekeeping = housekeeping(now)
      .catch((error: unknown) => {
        this.#failedRuns += 1;
        this.#options.log.error('housekeeping failed', { error });
      })
      .finally(() => {
        this.#housekeeping = null;
      });
    await this.#housekeeping;
  }

  async #runFeeds(now: Date, force: boolean): Promise<void> {
    const groups = new Map<EventorClient | null, Array<() => Promise<void>>>();
    const subscribed = new Set(guildsWithSubscribers(this.#options.store));
    // A server that removed the bot gets no posts and no DMs: its data only waits to be deleted.
    const departed = new Set(this.#options.store.guildDepartures().map((d) => d.guildId));
    for (const guildId of new Set([...this.#settings.guildsWithFeeds(), ...subscribed])) {
      if (departed.has(guildId)) continue;
      const { timeZone, language } = this.#localeOf(guildId);
      const candidates: FeedSettings[] = [];
      const rechecks: FeedSettings[] = [];
      const all = this.#settings.all(guildId);
      for (const settings of all) {
        const kind = settings.feed;
        if (!settings.enabled || !settings.channelId || !this.#runner(kind)) continue;
        const key = `${guildId}|${kind}`;
        if (this.#running.has(key)) continue;
        const state = this.#stateOf(key);
        if (settings.pausedReason !== null) {
          if (settings.pausedReason !== 'admin' && now.getTime() - state.lastCheck >= RECHECK_MS) rechecks.push(settings);
          continue;
        }
        if (now.getTime() < state.retryAt) continue;
        if (!force && !this.#mayBeDue(key, settings.guildId, kind, now)) continue;
        if (inQuietHours(now, timeZone, settings.options.quietHours)) continue;
        candidates.push(settings);
      }
      const personalKey = `${guildId}|${PERSONAL}`;
      // Members' DMs keep the results feed's quiet hours: nobody wants a DM at 3 a.m. either.
      const personal = this.#options.personal !== false && subscribed.has(guildId) && !this.#running.has(personalKey)
        && now.getTime() >= this.#stateOf(personalKey).retryAt
        && (force || this.#mayBeDue(personalKey, null, PERSONAL, now))
        && !inQuietHours(now, timeZone, all.find((f) => f.feed === 'results')!.options.quietHours);
      if (candidates.length === 0 && rechecks.length === 0 && !personal) continue;
      let access: { client: EventorClient; organisationId: string } | null = null;
      try {
        access = await this.#options.eventor.forGuild(guildId);
      } catch (error) {
        for (const settings of candidates) await this.#failed(settings, now, error, language);
      }
      const client = access?.client ?? null;
      const due = access ? candidates.filter((s) => force || this.#due(s, access.client, now, timeZone)) : [];
      const jobs = groups.get(client) ?? [];
      for (const settings of rechecks) jobs.push(() => this.#recheck(settings, access?.client ?? null, now, language));
      for (const settings of due) jobs.push(() => this.#run(settings, access!, now, language, timeZone));
      // After the club feeds: when they ran in this tick, their start and result lists are in the
      // shared client's cache, so the DMs cost Eventor nothing more.
      if (access && personal && (force || this.#dueAt(personalKey, PERSONAL, access.client, now, timeZone))) {
        jobs.push(() => this.#runPersonal(guildId, access!, now, language, timeZone));
      }
      groups.set(client, jobs);
    }
    // Servers of one client run one after another in this tick (its cache serves the later ones);
    // different clients run side by side.
    await Promise.all([...groups.values()].map(async (jobs) => {
      for (const job of jobs) {
        if (this.#stopped) return;
        await job();
      }
    }));
  }

  #runner(kind: FeedKind): FeedRunner | undefined {
    return this.#options.runners ? this.#options.runners[kind] : FEEDS[kind].run;
  }

  #stateOf(key: string): KindState {
    let state = this.#state.get(key);
    if (!state) {
      state = { lastRun: null, lastFull: null, failures: 0, retryAt: 0, lastCheck: 0, loaded: false };
      this.#state.set(key, state);
    }
    return state;
  }

  /** Due when the run's wall-clock slot (5 minutes or an hour) changed since the last run. */
  #due(settings: FeedSettings, client: EventorClient, now: Date, timeZone: string): boolean {
    return this.#dueAt(`${settings.guildId}|${settings.feed}`, settings.feed, client, now, timeZone);
  }

  /**
   * Whether a run could be due at all: its 5-minute slot (the finest cadence) changed since the
   * last run. Checked before the server's Eventor access is looked up, so most minutes cost no
   * key decryption; `#dueAt` then applies the kind's real cadence. A feed's last run is read from
   * the ledger once, so a restart keeps the cadence.
   */
  #mayBeDue(key: string, guildId: string | null, kind: FeedKind | typeof PERSONAL, now: Date): boolean {
    const state = this.#stateOf(key);
    if (!state.loaded) {
      state.loaded = true;
      const lastRun = guildId !== null && kind !== PERSONAL ? this.#ledger.lastRunAt(guildId, kind) : null;
      if (lastRun !== null && state.lastRun === null) state.lastRun = Date.parse(lastRun);
    }
    return state.lastRun === null || Math.floor(now.getTime() / FREQUENT_MS) > Math.floor(state.lastRun / FREQUENT_MS);
  }

  #dueAt(key: string, kind: FeedKind | typeof PERSONAL, client: EventorClient, now: Date, timeZone: string): boolean {
    const state = this.#stateOf(key);
    if (state.lastRun === null) return true;
    const calendar = this.#calendars.get(client);
    const interval = intervalFor(kind, calendar?.date === localDate(now, timeZone) ? calendar : null);
    return Math.floor(now.getTime() / interval) > Math.floor(state.lastRun / interval);
  }

  /** Whether the club has entries in races today or yesterday, or in the next two days: asked once per local day. */
  async #learnCalendar(client: EventorClient, organisationId: string, now: Date, timeZone: string): Promise<void> {
    const today = localDate(now, timeZone);
    if (this.#calendars.get(client)?.date === today) return;
    const day = (offset: number): string => localDate(new Date(now.getTime() + offset * 86_400_000), timeZone);
    try {
      const [recent, coming] = await Promise.all([
        client.entries({ organisationIds: [organisationId], fromEventDate: day(-1), toEventDate: today }),
        client.entries({ organisationIds: [organisationId], fromEventDate: day(1), toEventDate: day(2) }),
      ]);
      this.#calendars.set(client, { date: today, raceDay: recent.length > 0, raceSoon: coming.length > 0 });
    } catch {
      // Unknown: stay rare and ask again on the next run.
    }
  }

  async #run(settings: FeedSettings, access: { client: EventorClient; organisationId: string }, now: Date, language: Language, timeZone: string): Promise<void> {
    const key = `${settings.guildId}|${settings.feed}`;
    const runner = this.#runner(settings.feed);
    if (!runner || this.#running.has(key)) return;
    this.#running.add(key);
    const state = this.#stateOf(key);
    const full = isFullRun(state, now);
    try {
      let result;
      try {
        result = await runner({
          guildId: settings.guildId, feed: settings.feed, channelId: settings.channelId!, roleId: settings.roleId, options: settings.options,
          client: access.client, organisationId: access.organisationId, ledger: this.#ledger, target: this.#target, now, language, timeZone, full, log: this.#options.log,
        });
      } catch (error) {
        result = { outcome: 'failed' as const, error };
      }
      if (result.outcome === 'paused') {
        await this.#pause(settings, result.reason ?? 'no-permission', now, language);
        return;
      }
      if (result.outcome === 'failed') {
        await this.#failed(settings, now, result.error, language);
        return;
      }
      await this.#succeeded(state, now, full, access, timeZone);
    } finally {
      this.#running.delete(key);
    }
  }

  /**
   * Members' DMs for one server. Discord refusing a member's DMs pauses that member (the run says
   * so itself); an Eventor failure backs off like a feed, without telling anyone (a refused key
   * is the club feeds' to report).
   */
  async #runPersonal(guildId: string, access: { client: EventorClient; organisationId: string }, now: Date, language: Language, timeZone: string): Promise<void> {
    const key = `${guildId}|${PERSONAL}`;
    if (this.#running.has(key)) return;
    this.#running.add(key);
    const state = this.#stateOf(key);
    const full = isFullRun(state, now);
    try {
      await runPersonalNotifications({
        guildId, client: access.client, organisationId: access.organisationId, ledger: this.#ledger, target: this.#target,
        now, language, timeZone, full, store: this.#options.store, discord: this.#options.client, log: this.#options.log,
        ...(this.#options.membership ? { membership: this.#options.membership } : {}),
      });
      await this.#succeeded(state, now, full, access, timeZone);
    } catch (error) {
      this.#backOff(key, now, error, { guildId, feed: PERSONAL });
    } finally {
      this.#running.delete(key);
    }
  }

  /** A run went through: its slot is taken, back-off ends, and the club's calendar is known for today. */
  async #succeeded(state: KindState, now: Date, full: boolean, access: { client: EventorClient; organisationId: string }, timeZone: string): Promise<void> {
    state.lastRun = now.getTime();
    if (full) state.lastFull = now.getTime();
    state.failures = 0;
    state.retryAt = 0;
    await this.#learnCalendar(access.client, access.organisationId, now, timeZone);
  }

  #backOff(key: string, now: Date, error: unknown, context: Record<string, string>): void {
    const state = this.#stateOf(key);
    // A server with no Eventor connection is a state of that server (its admins see it in
    // /status), not a failure for the operator's cron to report on every tick.
    if (!(error instanceof UserFacingError && error.key === 'error.notConfigured')) this.#failedRuns += 1;
    state.failures += 1;
    const delay = Math.min(BACKOFF_BASE_MS * 2 ** (state.failures - 1), BACKOFF_MAX_MS);
    state.retryAt = now.getTime() + delay;
    this.#options.log[isTransient(error) ? 'warn' : 'error']('feed run failed; backing off', { ...context, failures: state.failures, retryInMs: delay, error });
  }

  async #failed(settings: FeedSettings, now: Date, error: unknown, language: Language): Promise<void> {
    if (error instanceof InvalidApiKey) {
      await this.#pause(settings, 'invalid-key', now, language);
      return;
    }
    this.#backOff(`${settings.guildId}|${settings.feed}`, now, error, { guildId: settings.guildId, feed: settings.feed });
  }

  async #pause(settings: FeedSettings, reason: Exclude<PauseReason, 'admin'>, now: Date, language: Language): Promise<void> {
    const current = this.#settings.get(settings.guildId, settings.feed);
    if (current.pausedReason !== null) return;
    this.#settings.update(settings.guildId, settings.feed, { pausedReason: reason });
    this.#stateOf(`${settings.guildId}|${settings.feed}`).lastCheck = now.getTime();
    this.#options.log.warn('feed paused', { guildId: settings.guildId, feed: settings.feed, reason });
    await this.#notify(settings.guildId, language, `scheduler.paused.${reason}`, settings);
  }

  /** A bot-set pause: is the cause gone? Then resume and say so, once. */
  async #recheck(settings: FeedSettings, client: EventorClient | null, now: Date, language: Language): Promise<void> {
    const key = `${settings.guildId}|${settings.feed}`;
    if (this.#running.has(key)) return;
    this.#running.add(key);
    try {
      this.#stateOf(key).lastCheck = now.getTime();
      let fixed: boolean;
      if (settings.pausedReason === 'invalid-key') {
        if (!client) return;
        try {
          await client.call('organisation-apikey', {}, { fresh: true });
          fixed = true;
        } catch {
          fixed = false;
        }
      } else {
        fixed = await this.#canPost(settings.channelId!);
      }
      if (!fixed) return;
      const current = this.#settings.get(settings.guildId, settings.feed);
      if (current.pausedReason !== settings.pausedReason) return;
      this.#settings.update(settings.guildId, settings.feed, { pausedReason: null });
      this.#options.log.info('feed resumed', { guildId: settings.guildId, feed: settings.feed });
      await this.#notify(settings.guildId, language, 'scheduler.resumed', settings);
    } finally {
      this.#running.delete(key);
    }
  }

  async #canPost(channelId: string): Promise<boolean> {
    const client = this.#options.client;
    try {
      const channel = await client.channels.fetch(channelId, { force: true });
      if (!channel || channel.type === ChannelType.DM || !('permissionsFor' in channel) || !client.user) return false;
      const permissions = channel.permissionsFor(client.user);
      return permissions?.has([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.EmbedLinks, PermissionFlagsBits.ReadMessageHistory]) ?? false;
    } catch {
      return false;
    }
  }

  /** To the admin channel, else the server owner by DM; failures are logged, never thrown. */
  async #notify(guildId: string, language: Language, key: `scheduler.paused.${Exclude<PauseReason, 'admin'>}` | 'scheduler.resumed', settings: FeedSettings): Promise<void> {
    const content = t(language, key, { kind: t(language, `scheduler.kind.${settings.feed}`), channel: settings.channelId ?? '' });
    const client = this.#options.client;
    const adminChannel = this.#options.store.guildSettings(guildId)?.channels.admin ?? null;
    if (adminChannel) {
      try {
        await client.rest.post(Routes.channelMessages(adminChannel), { body: { content, allowed_mentions: { parse: [] } } });
        return;
      } catch (error) {
        this.#options.log.warn('admin channel refused a feed notice; trying the owner', { guildId, error });
      }
    }
    try {
      const guild = await client.guilds.fetch(guildId);
      const owner = await guild.fetchOwner();
      await owner.send({ content, allowedMentions: { parse: [] } });
    } catch (error) {
      this.#options.log.warn('could not tell the admins about a feed', { guildId, error });
    }
  }
}
