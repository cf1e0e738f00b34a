/**
 * The composition root: the one place that builds the bot's parts from its configuration — the
 * store, the Eventor access, the services, the discord.js client and the router, what watches
 * servers and members (departures, presence, the daily housekeeping) and the feed scheduler — and
 * hands them to `startBot`, which attaches them to Discord. Nothing else in src/bot reaches the
 * store: everything below the router asks the services (docs/architecture.md#the-dependency-rule).
 */
import { Client, GatewayIntentBits } from 'discord.js';
import { GuildDepartures } from '../app/departures.js';
import { Housekeeping } from '../app/housekeeping.js';
import { MemberSweep } from '../app/member-sweep.js';
import { createServices, type Services } from '../app/services.js';
import { EventorAccess } from '../club/eventor-access.js';
import { databaseUrlSecrets } from '../config/database.js';
import { servesGuild } from '../config/sharding.js';
import type { EventorClient } from '../eventor/client.js';
import { type SharedResponseCache, USER_AGENT } from '../eventor/http.js';
import type { EventorInstance } from '../eventor/instances.js';
import type { FeedKind } from '../feeds/kind.js';
import { LiveReads } from '../feeds/kinds/live/access.js';
import { LivePoller } from '../feeds/kinds/live/poller.js';
import { FeedScheduler } from '../feeds/scheduler.js';
import { createLiveSources, LiveClient } from '../live/client.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/interfaces.js';
import { openStore } from '../store/open.js';
import { SecretBox } from '../store/secrets.js';
import type { BotCommand } from './command.js';
import type { BotConfig } from './config.js';
import { FirstAnswers } from './first-answer.js';
import { HeartbeatRecorder } from './heartbeat.js';
import { withBotRest } from './interaction-rest.js';
import { MemberPresence } from './membership.js';
import { InteractionRouter, type MemberCooldowns } from './router.js';

export interface BotOptions {
  config: BotConfig;
  log: Logger;
  /** The slash commands (commands/index.ts); passed in so the core does not depend on them. */
  commands: readonly BotCommand[];
  /** The kinds of automatic post (default: the registry's; `commands` must be built for the same). */
  kinds?: readonly FeedKind[];
  now?: () => Date;
  /** How Eventor clients are made (tests); `shared` is the instance's cache, for the client's `shared` option. */
  createEventorClient?: (instance: EventorInstance, apiKey: string, shared: SharedResponseCache) => EventorClient;
  /** Run the feed scheduler (node-cron, every minute). Default true; tests pass false or drive `scheduler.tick`. */
  scheduler?: boolean;
  /** The router's per-member budgets (default its `MEMBER_COOLDOWNS`; null: off). */
  cooldowns?: MemberCooldowns | null;
  /**
   * The box sealing stored keys, when the caller began deriving it from `config.secretKey` earlier
   * (`start` does, while the bot's modules load). Default: derived here, while the database opens.
   */
  secretBox?: Promise<SecretBox>;
  /**
   * After "bot ready", ask Eventor whether the default key (EVENTOR_API_KEY) works, and log one line
   * if Eventor refuses it or cannot be reached (`start` does; default off).
   */
  checkDefaultEventor?: boolean;
  /**
   * Record this process's heartbeat for `eventor-bot health` (`start` does; default off: a `tick`
   * beside a running bot must not stand for it, and tests' bots are no process to watch).
   */
  heartbeat?: boolean;
  /**
   * Aborts the start (a stop signal while it runs): whatever is still being opened (the database,
   * Discord's login, its READY) is not waited for, what was opened is closed, and `startBot`
   * rejects with {@link StartAborted}. Once the bot is ready, `stop()` is the way.
   */
  signal?: AbortSignal;
}

/** `startBot`'s rejection when its `signal` aborted the start. */
export class StartAborted extends Error {
  override name = 'StartAborted';
  constructor() {
    super('the start was aborted');
  }
}

/**
 * `work`, unless `signal` aborts first: then a rejection with {@link StartAborted} at once, and
 * `late` gets what `work` still brings (to close it).
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  late?: (value: T) => unknown,
): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      work.then(late).catch(() => undefined);
      reject(new StartAborted());
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** The bot's parts, built and connected to each other, not yet to Discord. */
export interface BotParts {
  store: Store;
  eventor: EventorAccess;
  services: Services;
  /** The discord.js client, not logged in (Guilds intent only, no mentions unless a post asks for one). */
  client: Client;
  router: InteractionRouter;
  departures: GuildDepartures;
  scheduler: FeedScheduler;
  /** The live pollers (race day, live); null when the configuration has no LiveResultat. */
  live: LivePoller | null;
  /** What `eventor-bot health` reads (docs/operators.md#monitoring); null when not asked for. */
  heartbeat: HeartbeatRecorder | null;
  /** Whether this process runs the server's shard. */
  serves(guildId: string): boolean;
  /** Closes what the parts opened (the Eventor clients and the store), for a bot that never logged in. */
  close(): Promise<void>;
  /** Closes the LiveResultat connections (a stopping bot, once its pollers stopped). */
  closeLive(): Promise<void>;
}

export async function composeBot(options: BotOptions): Promise<BotParts> {
  const { config, log } = options;
  const now = options.now ?? (() => new Date());
  log.redact(config.discordToken);
  log.redact(config.secretKey);
  // The database's password, in whatever form a driver's error could quote it.
  if (config.databaseUrl !== undefined) for (const secret of databaseUrlSecrets(config.databaseUrl)) log.redact(secret);
  if (options.signal?.aborted) throw new StartAborted();
  log.debug('opening the database');
  // scrypt (slow on purpose) runs in the thread pool while this thread opens the database.
  const store = await untilAborted(
    openStore(
      { databasePath: config.databasePath, databaseUrl: config.databaseUrl },
      options.secretBox ?? SecretBox.derive(config.secretKey),
      options.now,
      {
        initialiseEmptyFile: config.initialiseDatabase === true,
        onPermissions: ({ file, was, tightened }) =>
          log.warn(
            tightened
              ? 'database file was readable by other users; made it readable by this user only (0600)'
              : 'database file is readable by other users and could not be changed; make it 0600 (chmod 600)',
            { file, mode: was },
          ),
      },
    ),
    options.signal,
    (opened) => opened.close(),
  );
  const eventor = new EventorAccess({
    store,
    defaultEventor: config.defaultEventor,
    defaultGuilds: config.defaultEventorGuilds,
    customTimeZones: config.customEventorTimeZones,
    responseLimitScale: config.eventorResponseLimitScale,
    timeoutMs: config.eventorTimeoutMs,
    log,
    now,
    createClient: options.createEventorClient,
  });
  // LiveResultat on the operator's addresses only (docs/live-results.md#the-two-apis); one client per process.
  const liveEndpoints = config.liveEndpoints ?? null;
  const liveSources = liveEndpoints === null ? null : createLiveSources(liveEndpoints, { userAgent: USER_AGENT });
  const liveReads =
    liveSources === null || liveEndpoints === null
      ? null
      : new LiveReads(new LiveClient({ ...liveSources, now: () => now().getTime() }), liveEndpoints, () =>
          now().getTime(),
        );
  const services = createServices({
    store,
    eventorAccess: eventor,
    clock: now,
    log,
    kinds: options.kinds,
    live: liveReads,
  });
  // This bot's own: another bot in the process (tests, the bench) shares no turn, lane or hold with it.
  const firstAnswers = new FirstAnswers();
  const router = new InteractionRouter({
    commands: options.commands,
    eventor,
    services,
    log,
    defaultLanguage: config.defaultLanguage,
    defaultTimeZone: config.defaultTimeZone,
    customEventorOrigins: config.customEventorOrigins,
    now,
    cooldowns: options.cooldowns,
    firstAnswers,
  });
  const sharding = config.sharding;
  const serves = (guildId: string): boolean => servesGuild(sharding, guildId);
  const client = discordClient(config);
  // Sharded, Discord lists only this process's shards' servers: the others are not departures.
  const departures = new GuildDepartures({ store, log, serves, now });
  const presence = new MemberPresence({ client, privacy: services.privacy, log, now });
  const housekeeping = new Housekeeping({
    isPresent: (guildId) => client.guilds.cache.has(guildId),
    departures,
    sweep: new MemberSweep({
      presence,
      store,
      isAvailable: (guildId) => client.guilds.cache.get(guildId)?.available === true,
    }),
    log,
    store,
  });
  const scheduler = new FeedScheduler({
    client,
    store,
    eventor,
    log,
    defaultLanguage: config.defaultLanguage,
    defaultTimeZone: config.defaultTimeZone,
    membership: presence,
    housekeeping: (at) => housekeeping.run(at),
    // Processes on one database share the feeds by club, with leases on the shards each runs.
    sharding,
    now,
    kinds: options.kinds,
    live: liveReads,
  });
  const live =
    liveReads === null
      ? null
      : new LivePoller({
          store,
          live: liveReads,
          client,
          log,
          now,
          membership: presence,
          defaultLanguage: config.defaultLanguage,
          defaultTimeZone: config.defaultTimeZone,
          ...(options.kinds ? { kinds: options.kinds } : {}),
          // A member's acknowledgement goes before the boards' edits.
          yieldTo: () => firstAnswers.unsent(),
        });
  const closeLive = async (): Promise<void> => {
    await liveSources?.rest.close();
    await liveSources?.legacy.close();
  };
  const heartbeat = options.heartbeat
    ? new HeartbeatRecorder({
        store: store.heartbeats,
        client,
        sources: { feedsRanAt: () => scheduler.tickEndedAt, eventor: () => eventor.health },
        log,
        sharding,
      })
    : null;
  return {
    store,
    eventor,
    services,
    client,
    router,
    departures,
    scheduler,
    live,
    heartbeat,
    serves,
    closeLive,
    async close() {
      await live?.stop();
      await scheduler.stop();
      await closeLive();
      await client.destroy();
      await eventor.close();
      await store.close();
    },
  };
}

/**
 * The discord.js client: Guilds intent only, no mentions unless a post asks for one, requests made
 * with an interaction's token outside the global limit (`interaction-rest.ts`).
 */
function discordClient(config: BotConfig): Client {
  // Always explicit: left out, discord.js would read SHARDS and SHARD_COUNT from the environment
  // itself, in its own format (JSON), and ignore /gateway/bot's count anyway (docs/discord.md#sharding).
  // It reads SHARD_COUNT even so when the count given is its default (1), and takes a blank one
  // (`SHARD_COUNT=` in .env, unsharded for the configuration) for 0, which it then refuses.
  if (process.env.SHARD_COUNT?.trim() === '') delete process.env.SHARD_COUNT;
  return withBotRest(
    new Client({
      intents: [GatewayIntentBits.Guilds],
      allowedMentions: { parse: [] },
      rest: { api: config.discordApiUrl },
      shards: config.sharding ? [...config.sharding.shards] : [0],
      shardCount: config.sharding?.shardCount ?? 1,
    }),
  );
}
