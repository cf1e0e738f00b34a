/**
 * The running bot: a discord.js client (Guilds intent only, no mentions unless a post asks for
 * one), the interaction router, the store and the Eventor access, with a clean shutdown that
 * finishes what is in flight and closes the database.
 */
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { GuildDepartures } from '../app/departures.js';
import { EventorAccess } from '../app/eventor-access.js';
import { Housekeeping } from '../app/housekeeping.js';
import { MemberSweep } from '../app/member-sweep.js';
import { createServices, type Services } from '../app/services.js';
import { databaseUrlSecrets } from '../config/database.js';
import { ConfigError } from '../config/errors.js';
import { formatShards, servesGuild } from '../config/sharding.js';
import type { EventorClient } from '../eventor/client.js';
import { EventorError, InvalidApiKey, Timeout, Unreachable } from '../eventor/errors.js';
import type { SharedResponseCache } from '../eventor/http.js';
import type { EventorInstance } from '../eventor/instances.js';
import { FeedScheduler } from '../feeds/scheduler.js';
import type { Logger } from '../log/logger.js';
import { SecretBox } from '../store/secrets.js';
import type { Store } from '../store/interfaces.js';
import { openStore } from '../store/open.js';
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
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, late?: (value: T) => unknown): Promise<T> {
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

export interface RunningBot {
  client: Client<true>;
  store: Store;
  /** The services commands use (the composition root's). */
  services: Services;
  router: InteractionRouter;
  /** The feed scheduler (its cron runs only when started with `scheduler` on). */
  scheduler: FeedScheduler;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<RunningBot> {
  const { config, log } = options;
  log.redact(config.discordToken);
  log.redact(config.secretKey);
  // The database's password, in whatever form a driver's error could quote it.
  if (config.databaseUrl !== undefined) for (const secret of databaseUrlSecrets(config.databaseUrl)) log.redact(secret);
  const { signal } = options;
  if (signal?.aborted) throw new StartAborted();
  log.debug('opening the database');
  // scrypt (slow on purpose) runs in the thread pool while this thread opens the database.
  const store = await untilAborted(
    openStore(
      {
        databasePath: config.databasePath,
        ...(config.databaseUrl === undefined ? {} : { databaseUrl: config.databaseUrl }),
      },
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
    signal,
    (opened) => opened.close(),
  );
  const eventor = new EventorAccess({
    store,
    defaultEventor: config.defaultEventor,
    defaultGuilds: config.defaultEventorGuilds,
    ...(config.customEventorTimeZones === undefined ? {} : { customTimeZones: config.customEventorTimeZones }),
    ...(config.eventorResponseLimitScale === undefined ? {} : { responseLimitScale: config.eventorResponseLimitScale }),
    ...(config.eventorTimeoutMs === undefined ? {} : { timeoutMs: config.eventorTimeoutMs }),
    log,
    ...(options.createEventorClient ? { createClient: options.createEventorClient } : {}),
  });
  const services = createServices({ store, eventorAccess: eventor, clock: options.now ?? (() => new Date()), log });
  const router = new InteractionRouter({
    commands: options.commands,
    store,
    eventor,
    services,
    log,
    defaultLanguage: config.defaultLanguage,
    defaultTimeZone: config.defaultTimeZone,
    customEventorOrigins: config.customEventorOrigins,
    ...(options.now ? { now: options.now } : {}),
    ...(options.cooldowns !== undefined ? { cooldowns: options.cooldowns } : {}),
    // This bot's own: another bot in the process (tests, the bench) shares no turn, lane or hold with it.
    firstAnswers: new FirstAnswers(),
  });
  // Always explicit: left out, discord.js would read SHARDS and SHARD_COUNT from the environment
  // itself, in its own format (JSON), and ignore /gateway/bot's count anyway (docs/discord.md#sharding).
  const sharding = config.sharding;
  const serves = (guildId: string): boolean => servesGuild(sharding, guildId);
  // discord.js reads SHARD_COUNT even so when the count given is its default (1), and takes a blank
  // one (`SHARD_COUNT=` in .env, unsharded for the configuration) for 0, which it then refuses.
  if (process.env.SHARD_COUNT?.trim() === '') delete process.env.SHARD_COUNT;
  const client = withBotRest(
    new Client({
      intents: [GatewayIntentBits.Guilds],
      allowedMentions: { parse: [] },
      rest: { api: config.discordApiUrl },
      shards: sharding ? [...sharding.shards] : [0],
      shardCount: sharding?.shardCount ?? 1,
    }),
  );
  // An interaction from a server comes from someone in it right now (Discord sends their member
  // object with it), so no command asks Discord whether the member is still there; only what the
  // bot does on its own (personal DMs, the daily sweep) does, through `MemberPresence`.
  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  client.on(Events.Error, (error) => log.error('discord client error', { error }));
  client.on(Events.Warn, (message) => log.warn('discord client warning', { message }));

  // Removed from a server (GUILD_DELETE without `unavailable`) or back in one; an outage
  // (`unavailable: true`) is discord.js's `guildUnavailable`, which changes nothing here.
  // Sharded, Discord lists only this process's shards' servers: the others are not departures.
  const departures = new GuildDepartures({ store, log, serves, ...(options.now ? { now: options.now } : {}) });
  const guarded = (what: string, fn: () => Promise<unknown>): void => {
    fn().catch((error: unknown) => log.error(what, { error }));
  };
  client.on(Events.GuildDelete, (guild) => guarded('recording a removal failed', () => departures.removed(guild.id)));
  client.on(Events.GuildCreate, (guild) => guarded('cancelling a removal failed', () => departures.present(guild.id)));
  client.on(Events.GuildAvailable, () =>
    guarded('looking for servers left while offline failed', () =>
      departures.reconcileIfPending(client.guilds.cache.values()),
    ),
  );

  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  let readyClient: Client<true>;
  try {
    log.debug('logging in to Discord');
    await untilAborted(client.login(config.discordToken), signal);
    log.debug('waiting for Discord to say the bot is ready (READY)');
    readyClient = await untilAborted(ready, signal);
    // READY names the application the token is of: a DISCORD_APPLICATION_ID of another one would
    // make `invite` add another bot (docs/operators.md#discord-the-application-and-its-token).
    const tokenApplication = readyClient.application.id;
    if (config.applicationId !== undefined && config.applicationId !== tokenApplication)
      throw new ConfigError([
        `DISCORD_APPLICATION_ID is ${config.applicationId}, but DISCORD_TOKEN belongs to application ${tokenApplication}: ` +
          `set DISCORD_APPLICATION_ID=${tokenApplication}, or use the token of application ${config.applicationId}`,
      ]);
  } catch (error) {
    await client.destroy();
    await eventor.close();
    await store.close();
    throw error;
  }
  // The pid: the process a service manager or an operator stops (under npm it is not npm's).
  log.info('bot ready', {
    user: readyClient.user.tag,
    guilds: readyClient.guilds.cache.size,
    pid: process.pid,
    ...(sharding ? { shards: formatShards(sharding.shards), shardCount: sharding.shardCount } : {}),
  });
  // Awaited, as it ran before the store was async: the bot is ready once READY's servers are reconciled.
  await departures
    .reconcile(readyClient.guilds.cache.values())
    .catch((error: unknown) => log.error('looking for servers left while offline failed', { error }));
  if (config.defaultEventor) {
    // The operator should see at a glance whom their key serves.
    const named = [...config.defaultEventorGuilds];
    const served = new Set<string>();
    for (const id of named) if (await eventor.usesDefault(id)) served.add(id);
    log.info('default Eventor connection', {
      servesGuilds: named.filter((id) => served.has(id)),
      namedButOwnKey: named.filter((id) => !served.has(id)),
      // Another process's shards' servers are not in this one's list.
      namedButNotJoined: named.filter((id) => serves(id) && !readyClient.guilds.cache.has(id)),
    });
    if (named.length === 0)
      log.warn(
        'EVENTOR_API_KEY is set but EVENTOR_DEFAULT_GUILDS names no server: no server uses the default connection',
      );
  }
  let stopped = false;
  if (config.defaultEventor && options.checkDefaultEventor) {
    // Not awaited: "bot ready" does not wait for Eventor, and the bot serves /setup servers without it.
    const eventorUrl = config.defaultEventor.instance.baseUrl;
    void eventor.defaultOrganisation().then(
      (organisation) => {
        if (!stopped)
          log.info('default Eventor key accepted', { eventor: eventorUrl, organisation: organisation?.name });
      },
      (error: unknown) => {
        // The reason without a stack: the line is for the operator, and the client's messages carry no key.
        const reason = error instanceof Error ? error.message : String(error);
        if (!stopped) log.warn(defaultEventorProblem(error), { eventor: eventorUrl, reason });
      },
    );
  }
  const presence = new MemberPresence({
    client: readyClient,
    store,
    log,
    ...(options.now ? { now: options.now } : {}),
  });
  const housekeeping = new Housekeeping({
    isPresent: (guildId) => readyClient.guilds.cache.has(guildId),
    departures,
    sweep: new MemberSweep({
      presence,
      store,
      isAvailable: (guildId) => readyClient.guilds.cache.get(guildId)?.available === true,
    }),
    log,
    store,
  });
  const scheduler = new FeedScheduler({
    client: readyClient,
    store,
    eventor,
    log,
    defaultLanguage: config.defaultLanguage,
    defaultTimeZone: config.defaultTimeZone,
    membership: presence,
    housekeeping: (now) => housekeeping.run(now),
    // Processes on one database share the feeds by club, with leases on the shards each runs.
    sharding,
    ...(options.now ? { now: options.now } : {}),
  });
  if (options.scheduler !== false) scheduler.start();
  // What `eventor-bot health` reads (docs/operators.md#monitoring).
  const heartbeat = options.heartbeat
    ? new HeartbeatRecorder({
        store: store.heartbeats,
        client: readyClient,
        sources: { feedsRanAt: () => scheduler.tickEndedAt, eventor: () => eventor.health },
        log,
        sharding,
      })
    : null;
  await heartbeat?.start();

  let stopping: Promise<void> | null = null;
  return {
    client: readyClient,
    store,
    services,
    router,
    scheduler,
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        log.info('bot stopping');
        await scheduler.stop();
        client.removeAllListeners(Events.InteractionCreate);
        for (const event of [Events.GuildDelete, Events.GuildCreate, Events.GuildAvailable] as const)
          client.removeAllListeners(event);
        await router.drain();
        await heartbeat?.stop();
        await client.destroy();
        await eventor.close();
        await store.close();
        log.info('bot stopped');
      })();
      return stopping;
    },
  };
}

/** The start-up line for a failed check of the default key: what it means for the operator. */
function defaultEventorProblem(error: unknown): string {
  if (error instanceof InvalidApiKey)
    return 'Eventor refused the default key (EVENTOR_API_KEY): the servers in EVENTOR_DEFAULT_GUILDS cannot use Eventor until it is replaced; the bot keeps running';
  if (error instanceof Unreachable || error instanceof Timeout)
    return 'cannot reach the default Eventor (EVENTOR_BASE_URL or EVENTOR_INSTANCE, and the network): the bot keeps running and asks again when a server needs it';
  if (error instanceof EventorError)
    return 'the default Eventor answered the key check with something unusable: the bot keeps running and asks again when a server needs it';
  return 'checking the default Eventor key failed; the bot keeps running';
}
