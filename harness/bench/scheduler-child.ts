// One bot process's feed work for the `processes` section: opens the database the bench filled
// (every server of it), runs one scheduler tick at the given time against the sandbox Eventor the
// bench runs, and prints its resident memory, so that the figure is one process's and not the
// bench's (which also holds both sandboxes). Discord is a client that never logs in: the tick's
// Eventor work and the store are what is measured; the servers' feeds are seeded already.
import { Client, GatewayIntentBits } from 'discord.js';
import { EventorAccess } from '../../src/club/eventor-access.js';
import { FeedScheduler } from '../../src/feeds/scheduler.js';
import { createLogger } from '../../src/log/logger.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';

const [databasePath, secretKey, at] = process.argv.slice(2) as [string, string, string];
const now = () => new Date(at);
const store = await openSqliteStore(databasePath, secretKey, now);
const log = createLogger({ level: 'error', write: () => undefined, now });
const client = new Client({ intents: [GatewayIntentBits.Guilds] });
const eventor = new EventorAccess({ store, defaultEventor: null, defaultGuilds: new Set(), log });
const scheduler = new FeedScheduler({
  client,
  store,
  eventor,
  log,
  defaultLanguage: 'sv',
  defaultTimeZone: 'Europe/Stockholm',
  now,
});
const summary = await scheduler.tick(now());
const rssBytes = process.memoryUsage().rss;
await scheduler.stop();
await eventor.close();
await store.close();
await client.destroy();
process.stdout.write(JSON.stringify({ rssBytes, servers: (await Promise.resolve(summary)).servers }));
