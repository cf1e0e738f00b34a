/**
 * The running bot: a discord.js client (Guilds intent only, no mentions unless a post asks for
 * one), the interaction router, the store and the Eventor access, with a clean shutdown that
 * finishes what is in flight and closes the database.
 */
import { Client, Events, GatewayIntentBits } from 'discord.js';
import type { EventorClient } from '../eventor/client.js';
import type { SharedResponseCache } from '../eventor/http.js';
import type { EventorInstance } from '../eventor/instances.js';
import type { Logger } from '../log/logger.js';
import { FeedScheduler } from '../feeds/scheduler.js';
import { Store } from '../store/store.js';
import type { BotCommand } from './command.js';
import type { BotConfig } from './config.js';
import { EventorAccess } from './eventor-access.js';
import { InteractionRouter } from './router.js';

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
}

export interface RunningBot {
  client: Client<true>;
  store: Store;
  router: InteractionRouter;
  /** The feed scheduler (its cron runs only when started with `scheduler` on). */
  scheduler: FeedScheduler;
  stop(): Promise<void>;
}

export async function startBot(options: BotOptions): Promise<RunningBot> {
  const { config, log } = options;
  log.redact(config.discordToken);
  log.redact(config.secretKey);
  const store = Store.open(config.databasePath, config.secretKey, options.now);
  const eventor = new EventorAccess({
    store,
    defaultEventor: config.defaultEventor,
    defaultGuilds: config.defaultEventorGuilds,
    ...(config.eventorResponseLimitScale === undefined ? {} : { responseLimitScale: config.eventorResponseLimitScale }),
    log,
    ...(options.createEventorClient ? { createClient: options.createEventorClient } : {}),
  });
  const router = new InteractionRouter({
    commands: options.commands,
    store,
    eventor,
    log,
    defaultLanguage: config.defaultLanguage,
    defaultTimeZone: config.defaultTimeZone,
    customEventorOrigins: config.customEventorOrigins,
    ...(options.now ? { now: options.now } : {}),
  });
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    allowedMentions: { parse: [] },
    rest: { api: config.discordApiUrl },
  });
  client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
  client.on(Events.Error, (error) => log.error('discord client error', { error }));
  client.on(Events.Warn, (message) => log.warn('discord client warning', { message }));

  const ready = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));
  try {
    await client.login(config.discordToken);
  } catch (error) {
    store.close();
    await eventor.close();
    await client.destroy();
    throw error;
  }
  const readyClient = await ready;
  log.info('bot ready', { user: readyClient.user.tag, guilds: readyClient.guilds.cache.size });
  if (config.defaultEventor) {
    // The operator should see at a glance whom their key serves.
    const named = [...config.defaultEventorGuilds];
    log.info('default Eventor connection', {
      servesGuilds: named.filter((id) => eventor.usesDefault(id)),
      namedButOwnKey: named.filter((id) => !eventor.usesDefault(id)),
      namedButNotJoined: named.filter((id) => !readyClient.guilds.cache.has(id)),
    });
    if (named.length === 0) log.warn('EVENTOR_API_KEY is set but EVENTOR_DEFAULT_GUILDS names no server: no server uses the default connection');
  }
  const scheduler = new FeedScheduler({
    client: readyClient, store, eventor, log, defaultLanguage: config.defaultLanguage, defaultTimeZone: config.defaultTimeZone,
    ...(options.now ? { now: options.now } : {}),
  });
  if (options.scheduler !== false) scheduler.start();

  let stopping: Promise<void> | null = null;
  return {
    client: readyClient,
    store,
    router,
    scheduler,
    stop: () => {
      stopping ??= (async () => {
        log.info('bot stopping');
        await scheduler.stop();
        client.removeAllListeners(Events.InteractionCreate);
        await router.drain();
        await client.destroy();
        await eventor.close();
        store.close();
        log.info('bot stopped');
      })();
      return stopping;
    },
  };
}
