import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { runProgram } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';
import { NEEDS_POSTGRES, usePostgres } from '../support/postgres.js';
import { resultsLedgerRow, serverWithResultsFeed, withStore } from '../support/results-feed.js';
import { recentClubResultsEvent } from '../support/sandbox-events.js';

/** `url` with another database, user or password (the test server's URL has neither of the last two). */
function urlWith(base: string, change: { database?: string; user?: string; password?: string; port?: string }): string {
  const url = new URL(base);
  if (change.database !== undefined) url.pathname = `/${change.database}`;
  if (change.user !== undefined) url.username = change.user;
  if (change.password !== undefined) url.password = change.password;
  if (change.port !== undefined) url.port = change.port;
  return url.toString();
}

const PASSWORD = 'pw-Sekret-7f3a9c';

describe(`DATABASE_URL: start and tick keep the store in PostgreSQL ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();
  let setup: OperatorSetup;
  let admin: pg.Client | null = null;

  beforeAll(async () => {
    setup = await startOperatorSetup('database-url');
  });
  afterAll(async () => {
    await admin?.end();
    await setup?.close();
  });

  async function adminClient(): Promise<pg.Client> {
    if (admin) return admin;
    admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    return admin;
  }

  it('tick as its own process seeds, then posts new results once, all of it kept in PostgreSQL', async () => {
    await (await adminClient()).query('CREATE DATABASE tick_bot');
    const databaseUrl = urlWith(server().url, { database: 'tick_bot' });
    const { discord, eventor } = setup;
    const { guild, channel } = await serverWithResultsFeed(discord, databaseUrl, setup.secretKey, 'Club on PostgreSQL');
    // DATABASE_PATH stays set, as in an operator's .env: with DATABASE_URL its file is never made.
    const env = { ...setup.env, DATABASE_URL: databaseUrl, EVENTOR_DEFAULT_GUILDS: guild.id };
    const event = recentClubResultsEvent(eventor, eventor.now().getTime());

    const seeding = await runProgram(['tick'], { env });
    expect(seeding.stderr).toContain('"msg":"tick done"');
    expect(seeding.code).toBe(0);
    expect(discord.messages(channel)).toHaveLength(0);

    event.hasResults = true;
    event.materialized = null;
    const posting = await runProgram(['tick'], { env });
    expect(posting.code).toBe(0);
    const messages = discord.messages(channel);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]!.title).toContain(event.name);
    expect(
      await withStore(databaseUrl, setup.secretKey, (store) => resultsLedgerRow(store, guild.id, event.id)),
    ).toMatchObject({ state: 'posted', messageId: messages[0]!.id });

    const again = await runProgram(['tick'], { env });
    expect(again.code).toBe(0);
    expect(discord.messages(channel)).toHaveLength(1);
    expect(`${seeding.stderr}${posting.stderr}`).not.toContain(eventor.apiKey);
    expect(existsSync(setup.env.DATABASE_PATH!)).toBe(false);
  });

  it('a server that refuses the connection: one line naming host and port, exit 1, no password', async () => {
    // A port nothing listens on: one bound on loopback a moment ago and released.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = String((closed.address() as { port: number }).port);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const env = { ...setup.env, DATABASE_URL: urlWith(server().url, { user: 'bot', password: PASSWORD, port }) };
    for (const command of ['tick', 'start']) {
      const run = await runProgram([command], { env });
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^eventor-bot ${command}: cannot connect .* on 127\\.0\\.0\\.1:${port} .*nothing accepts connections`,
        ),
      );
      expect(run.stderr).not.toContain(PASSWORD);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a wrong password: one line naming the user, exit 2 (a restart cannot fix it), neither password shown', async () => {
    const client = await adminClient();
    await client.query(`CREATE ROLE pw_bot LOGIN PASSWORD '${PASSWORD}'`);
    await client.query('CREATE DATABASE pw_bot OWNER pw_bot');
    // The test server trusts every loopback connection; this user alone must give its password.
    const hba = `${server().dataDir}/pg_hba.conf`;
    await client.query(
      `COPY (SELECT line FROM (VALUES (1, 'host all pw_bot 127.0.0.1/32 scram-sha-256'), (2, 'host all all 127.0.0.1/32 trust')) AS v(n, line) ORDER BY n) TO '${hba}'`,
    );
    await client.query('SELECT pg_reload_conf()');
    const wrong = 'not-the-Password-41d2';
    const env = {
      ...setup.env,
      DATABASE_URL: urlWith(server().url, { database: 'pw_bot', user: 'pw_bot', password: wrong }),
    };
    const run = await runProgram(['tick'], { env });
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^eventor-bot tick: cannot connect .* as user "pw_bot": the server refused that user or password/,
    );
    expect(run.stderr).not.toContain(wrong);
    expect(run.stderr).not.toContain(PASSWORD);

    // The right one opens it: the refusal above was the password's, not the setup's.
    const right = await runProgram(['tick'], {
      env: { ...env, DATABASE_URL: urlWith(server().url, { database: 'pw_bot', user: 'pw_bot', password: PASSWORD }) },
    });
    expect(right.stderr).toContain('"msg":"tick done"');
    expect(right.code).toBe(0);
  });
});
