import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import type { Store } from '../../src/store/interfaces.js';
import { POSTGRES_MIGRATIONS, VERSION_TABLE } from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { SecretBox } from '../../src/store/secrets.js';
import { NEEDS_POSTGRES, usePostgres } from '../support/postgres.js';
import { testSecrets } from '../support/stores.js';

/**
 * Opening the PostgreSQL store: it migrates an empty database once however many processes start
 * at once, and refuses in one sentence, without the password, a server it cannot reach, a
 * database from a newer eventor-bot, and one that holds something else.
 */

const PASSWORD = 'pa55-w0rd-never-shown';

/** A loopback port nothing listens on (bound a moment ago, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function refusal(opening: Promise<Store>): Promise<StoreError> {
  const error = await opening.then(
    async (store) => {
      await store.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  const message = (error as StoreError).message;
  expect(message).not.toContain(PASSWORD);
  expect(message).not.toContain('\n');
  return error as StoreError;
}

describe(`opening the PostgreSQL store ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();
  let admin: pg.Client;
  let count = 0;

  /** A new empty database; its URL with a user and password (the test server trusts any). */
  const database = async (): Promise<{ name: string; url: string }> => {
    const name = `open_${++count}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server().url);
    url.pathname = `/${name}`;
    url.password = PASSWORD;
    return { name, url: url.toString() };
  };
  const query = async <R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(sql)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    try {
      admin = new pg.Client({ connectionString: server().url });
    } catch {
      return;
    }
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
  });

  it('migrates an empty database once when three processes open it at once, and says which without the password', async () => {
    const { url, name } = await database();
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresStore(url, testSecrets())));
    try {
      for (const store of stores) {
        expect(store.dialect).toBe('postgres');
        expect(store.description).toBe(
          `PostgreSQL database "${name}" on 127.0.0.1:${new URL(url).port} as user "postgres"`,
        );
      }
      const versions = await query<{ version: number }>(url, `SELECT version FROM ${VERSION_TABLE} ORDER BY version`);
      expect(versions.map((v) => v.version)).toEqual(POSTGRES_MIGRATIONS.map((_, i) => i + 1));
      // Each works on the same data.
      await stores[0]!.departures.recordGuildDeparture('g1');
      expect(await stores[2]!.departures.guildDepartures()).toHaveLength(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
    // Opened again, nothing is migrated twice.
    const again = await openPostgresStore(url, testSecrets());
    await again.close();
    expect(await query(url, `SELECT version FROM ${VERSION_TABLE}`)).toHaveLength(POSTGRES_MIGRATIONS.length);
  });

  it('takes a key still being derived, and closes the pool when the key fails', async () => {
    const { url } = await database();
    const store = await openPostgresStore(url, SecretBox.derive('a-test-secret-key-that-is-long-enough'));
    await store.servers.setApiKey('g1', 'key', { id: '1', name: 'OK' });
    expect(await store.servers.apiKey('g1')).toBe('key');
    await store.close();
    await store.close();
    await expect(openPostgresStore(url, Promise.reject(new Error('the key failed')))).rejects.toThrow('the key failed');
  });

  it('refuses a server it cannot reach, naming host, port, database and user', async () => {
    const port = await closedPort();
    const error = await refusal(
      openPostgresStore(`postgres://bot:${PASSWORD}@127.0.0.1:${port}/eventor`, testSecrets()),
    );
    expect(error.message).toBe(
      `cannot connect to the PostgreSQL database "eventor" on 127.0.0.1:${port} as user "bot": ` +
        'nothing accepts connections there (is PostgreSQL running, on that port?)',
    );
  });

  it('refuses a database that does not exist', async () => {
    const url = new URL(server().url);
    url.pathname = '/missing';
    url.password = PASSWORD;
    const error = await refusal(openPostgresStore(url.toString(), testSecrets()));
    expect(error.message).toMatch(
      /^cannot connect to the PostgreSQL database "missing" on .*: that database does not exist/,
    );
  });

  it('refuses a URL that is not postgres://', async () => {
    const error = await refusal(openPostgresStore(`mysql://bot:${PASSWORD}@127.0.0.1/x`, testSecrets()));
    expect(error.message).toMatch(
      /^the database URL \(DATABASE_URL\) must start with postgres:\/\/ or postgresql:\/\//,
    );
    expect(error.message).not.toContain(PASSWORD);
  });

  it('refuses a database from a newer eventor-bot and leaves it as it was', async () => {
    const { url } = await database();
    await (await openPostgresStore(url, testSecrets())).close();
    const newer = POSTGRES_MIGRATIONS.length + 3;
    await query(url, `INSERT INTO ${VERSION_TABLE} (version, applied_at) VALUES (${newer}, 'later')`);
    const error = await refusal(openPostgresStore(url, testSecrets()));
    expect(error.message).toMatch(
      new RegExp(
        `was written by a newer eventor-bot \\(schema ${newer}; this one knows schemas up to ${POSTGRES_MIGRATIONS.length}\\)`,
      ),
    );
    expect(await query(url, `SELECT version FROM ${VERSION_TABLE} WHERE version = ${newer}`)).toHaveLength(1);
  });

  it("refuses a database that holds another program's tables and leaves it untouched", async () => {
    const { url } = await database();
    await query(url, 'CREATE TABLE accounts (id integer PRIMARY KEY); INSERT INTO accounts VALUES (1)');
    const error = await refusal(openPostgresStore(url, testSecrets()));
    expect(error.message).toMatch(
      /is not empty and not eventor-bot's \(it has tables accounts and no eventor_bot_migrations\)/,
    );
    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables).toEqual([{ table_name: 'accounts' }]);
  });
});
