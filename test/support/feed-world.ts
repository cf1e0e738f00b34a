import { EventorAccess } from '../../src/club/eventor-access.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget, type PostTarget } from '../../src/feeds/delivery/poster.js';
import { FeedScheduler } from '../../src/feeds/scheduler.js';
import type { Language } from '../../src/i18n/index.js';
import { createLogger } from '../../src/log/logger.js';
import type { Store } from '../../src/store/interfaces.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';

/** The loopback world and what a feed's run takes from it, all on the test's clock. */
export interface FeedWorld {
  world: LoopbackWorld;
  /** The real client against the sandbox Eventor, with the home club's key. */
  client: EventorClient;
  ledger: Ledger;
  /** The bot's own discord.js client as the poster's target. */
  target: PostTarget;
  /** The sandbox's home club id. */
  home: string;
}

/** Starts the loopback world on `clock` and builds the client, ledger and post target feed runs take. */
export async function startFeedWorld(clock: () => Date): Promise<FeedWorld> {
  const world = await startLoopbackWorld({ now: clock });
  const client = new EventorClient({
    instance: customInstance(world.eventor.baseUrl),
    apiKey: world.eventor.apiKey,
    now: () => clock().getTime(),
    timeoutMs: 10_000,
  });
  return {
    world,
    client,
    ledger: new Ledger(world.bot.store),
    target: discordTarget(world.bot.client),
    home: world.eventor.dataset.homeClub.id,
  };
}

/**
 * A second feed scheduler on the world's store, with an Eventor access of its own: the bot's after
 * a restart (nothing in memory from before). `stop()` ends both. `store`: another store on the same
 * database, as a new process opens it; `followClock`: its Eventor clients' caches follow `now`, as
 * the world's do with `eventorFollowsClock`.
 */
export function restartedScheduler(
  world: LoopbackWorld,
  now: () => Date,
  defaultLanguage: Language = 'sv',
  { store = world.bot.store, followClock = false }: { store?: Store; followClock?: boolean } = {},
): { restarted: FeedScheduler; access: EventorAccess; stop(): Promise<void> } {
  const log = createLogger({ level: 'error', write: () => undefined });
  const access = new EventorAccess({
    store,
    defaultEventor: world.config.defaultEventor,
    defaultGuilds: world.config.defaultEventorGuilds,
    log,
    ...(followClock
      ? {
          createClient: (instance, apiKey, shared) =>
            new EventorClient({ instance, apiKey, shared, now: () => now().getTime(), retries: 0 }),
        }
      : {}),
  });
  const restarted = new FeedScheduler({
    client: world.bot.client,
    store,
    eventor: access,
    log,
    defaultLanguage,
    defaultTimeZone: 'Europe/Stockholm',
    now,
  });
  return {
    restarted,
    access,
    async stop() {
      await restarted.stop();
      await access.close();
    },
  };
}
