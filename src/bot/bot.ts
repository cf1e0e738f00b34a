/**
 * The running bot: the parts the composition root builds (`compose.ts`) attached to Discord —
 * interactions to the router, servers left and rejoined to the departures — logged in, reconciled
 * with READY, its schedule started, and a clean shutdown that finishes what is in flight and
 * closes the database.
 */
import { type Client, Events } from 'discord.js';
import type { Services } from '../app/services.js';
import type { EventorAccess } from '../club/eventor-access.js';
import { ConfigError } from '../config/errors.js';
import { formatShards } from '../config/sharding.js';
import { EventorError, InvalidApiKey, Timeout, Unreachable } from '../eventor/errors.js';
import type { LivePoller } from '../feeds/kinds/live/poller.js';
import type { FeedScheduler } from '../feeds/scheduler.js';
import type { Logger } from '../log/logger.js';
import { type BotOptions, type BotParts, composeBot, untilAborted } from './compose.js';
import type { BotConfig } from './config.js';
import type { InteractionRouter } from './router.js';

export interface RunningBot {
  client: Client<true>;
  store: BotParts['store'];
  /** The services commands use (the composition root's). */
  services: Services;
  router: InteractionRouter;
  /** The feed scheduler (its cron runs only when started with `scheduler` on). */
  scheduler: FeedScheduler;
  /** The live pollers (their turns run only when started with `scheduler` on); null without LiveResultat. */
  live: LivePoller | null;
  stop(): Promise<void>;
}

export { type BotOptions, StartAborted } from './compose.js';

/** Starts the bot: its parts from the composition root, attached to Discord, logged in and ready. */
export async function startBot(options: BotOptions): Promise<RunningBot> {
  const parts = await composeBot(options);
  const { log } = options;
  attachToDiscord(parts, log);
  let ready: Client<true>;
  try {
    ready = await logIn(parts.client, options.config, log, options.signal);
  } catch (error) {
    await parts.close();
    throw error;
  }
  // The pid: the process a service manager or an operator stops (under npm it is not npm's).
  const sharding = options.config.sharding;
  log.info('bot ready', {
    user: ready.user.tag,
    guilds: ready.guilds.cache.size,
    pid: process.pid,
    ...(sharding ? { shards: formatShards(sharding.shards), shardCount: sharding.shardCount } : {}),
  });
  // Awaited, as it ran before the store was async: the bot is ready once READY's servers are reconciled.
  await parts.departures
    .reconcile(ready.guilds.cache.values())
    .catch((error: unknown) => log.error('looking for servers left while offline failed', { error }));
  await reportDefaultEventor(parts, options.config, ready, log);
  let stopped = false;
  if (options.config.defaultEventor && options.checkDefaultEventor)
    checkDefaultKey(parts.eventor, options.config.defaultEventor.instance.baseUrl, log, () => stopped);
  if (options.scheduler !== false) {
    parts.scheduler.start();
    parts.live?.start();
  }
  await parts.heartbeat?.start();

  let stopping: Promise<void> | null = null;
  return {
    client: ready,
    store: parts.store,
    services: parts.services,
    router: parts.router,
    scheduler: parts.scheduler,
    live: parts.live,
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        log.info('bot stopping');
        await parts.live?.stop();
        await parts.scheduler.stop();
        detachFromDiscord(parts.client);
        await parts.router.drain();
        await parts.heartbeat?.stop();
        await parts.client.destroy();
        await parts.eventor.close();
        await parts.closeLive();
        await parts.store.close();
        log.info('bot stopped');
      })();
      return stopping;
    },
  };
}

/** The server events the bot answers: interactions through the router, and servers it leaves or rejoins. */
function attachToDiscord(parts: BotParts, log: Logger): void {
  const { client, router, departures } = parts;
  // An interaction from a server comes from someone in it right now (Discord sends their member
  // object with it), so no command asks Discord whether the member is still there; only what the
  // bot does on its own (personal DMs, the daily sweep) does, through `MemberPresence`.
  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  client.on(Events.Error, (error) => log.error('discord client error', { error }));
  client.on(Events.Warn, (message) => log.warn('discord client warning', { message }));
  // Removed from a server (GUILD_DELETE without `unavailable`) or back in one; an outage
  // (`unavailable: true`) is discord.js's `guildUnavailable`, which changes nothing here.
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
}

/** Stops listening before the client goes: nothing new starts while what is in flight finishes. */
function detachFromDiscord(client: Client): void {
  client.removeAllListeners(Events.InteractionCreate);
  for (const event of [Events.GuildDelete, Events.GuildCreate, Events.GuildAvailable] as const)
    client.removeAllListeners(event);
}

/**
 * Logs in and waits for READY, unless `signal` aborts the start; refuses a DISCORD_APPLICATION_ID of
 * another application than the token's, which would make `invite` add another bot
 * (docs/operators.md#discord-the-application-and-its-token).
 */
async function logIn(client: Client, config: BotConfig, log: Logger, signal?: AbortSignal): Promise<Client<true>> {
  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  log.debug('logging in to Discord');
  await untilAborted(client.login(config.discordToken), signal);
  log.debug('waiting for Discord to say the bot is ready (READY)');
  const readyClient = await untilAborted(ready, signal);
  // READY names the application the token is of.
  const tokenApplication = readyClient.application.id;
  if (config.applicationId !== undefined && config.applicationId !== tokenApplication)
    throw new ConfigError([
      `DISCORD_APPLICATION_ID is ${config.applicationId}, but DISCORD_TOKEN belongs to application ${tokenApplication}: ` +
        `set DISCORD_APPLICATION_ID=${tokenApplication}, or use the token of application ${config.applicationId}`,
    ]);
  return readyClient;
}

/** Whom the operator's default key serves, at a glance, and a warning when it serves no server. */
async function reportDefaultEventor(
  parts: BotParts,
  config: BotConfig,
  ready: Client<true>,
  log: Logger,
): Promise<void> {
  if (!config.defaultEventor) return;
  const named = [...config.defaultEventorGuilds];
  const served = new Set<string>();
  for (const id of named) if (await parts.eventor.usesDefault(id)) served.add(id);
  log.info('default Eventor connection', {
    servesGuilds: named.filter((id) => served.has(id)),
    namedButOwnKey: named.filter((id) => !served.has(id)),
    // Another process's shards' servers are not in this one's list.
    namedButNotJoined: named.filter((id) => parts.serves(id) && !ready.guilds.cache.has(id)),
  });
  if (named.length === 0)
    log.warn(
      'EVENTOR_API_KEY is set but EVENTOR_DEFAULT_GUILDS names no server: no server uses the default connection',
    );
}

/** Asks Eventor whether the default key works, not awaited: "bot ready" does not wait for Eventor. */
function checkDefaultKey(eventor: EventorAccess, eventorUrl: string, log: Logger, stopped: () => boolean): void {
  void eventor.defaultOrganisation().then(
    (organisation) => {
      if (!stopped())
        log.info('default Eventor key accepted', { eventor: eventorUrl, organisation: organisation?.name });
    },
    (error: unknown) => {
      // The reason without a stack: the line is for the operator, and the client's messages carry no key.
      const reason = error instanceof Error ? error.message : String(error);
      if (!stopped()) log.warn(defaultEventorProblem(error), { eventor: eventorUrl, reason });
    },
  );
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
