import { Ledger, type LedgerRow } from '../../src/feeds/delivery/ledger.js';
import { RESULTS_FEED } from '../../src/feeds/kinds/results/results.js';
import { KindSettings } from '../../src/feeds/settings.js';
import type { SandboxDiscord } from '../../harness/sandbox/discord/index.js';
import type { Store } from '../../src/store/interfaces.js';
import { openStore } from '../../src/store/open.js';
import { SecretBox } from '../../src/store/secrets.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.js';

/**
 * A new server of the sandbox Discord with the club-results feed turned on in a channel of its own,
 * written to the bot's database (a file or a `postgres://` URL) as `/setup channel` and `/feeds on` would (the database is closed
 * again, for a bot process to open).
 */
export async function serverWithResultsFeed(
  discord: SandboxDiscord,
  database: string,
  secretKey: string,
  name: string,
): Promise<{ guild: { id: string }; channel: string }> {
  const guild = discord.createGuild({ name });
  const channel = discord.createTextChannel(guild.id, { name: 'resultat' }).id;
  await withStore(database, secretKey, async (store) => {
    await store.servers.setChannel(guild.id, 'results', channel);
    await new KindSettings(store).update(guild.id, 'results', { enabled: true });
  });
  return { guild, channel };
}

/** Opens the bot's SQLite database for `use` alone, closed again whatever happens. */
export async function withDatabase<T>(
  databasePath: string,
  secretKey: string,
  use: (store: SqliteStore) => Promise<T>,
): Promise<T> {
  const store = await openSqliteStore(databasePath, secretKey);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/**
 * Opens the bot's database for `use` alone, closed again whatever happens: `database` is its SQLite
 * file (DATABASE_PATH) or its `postgres://` URL (DATABASE_URL).
 */
export async function withStore<T>(database: string, secretKey: string, use: (store: Store) => Promise<T>): Promise<T> {
  const where = /^postgres(?:ql)?:\/\//i.test(database)
    ? { databasePath: '', databaseUrl: database }
    : { databasePath: database };
  const store = await openStore(where, new SecretBox(secretKey));
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** The ledger's row of the results post of one event in one server (null: none). */
export function resultsLedgerRow(store: Store, guildId: string, eventId: string): Promise<LedgerRow | null> {
  return new Ledger(store).get({ guildId, feed: RESULTS_FEED, itemKey: `${RESULTS_FEED}:${eventId}` });
}
