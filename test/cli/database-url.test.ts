import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startProgram } from '../support/bot-process.js';
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

/**
 * Passwords holding the characters that end a URL's parts, each piece between them a token found
 * nowhere else, so that any piece shown anywhere is found: the first a port's digits, as in
 * `postgres://user:47/pw@host/db`, which the driver reads as host `user`, port 47.
 */
const SPECIAL_PASSWORDS = [
  '60547/Hj4Tq-Lx',
  'Mf8Rw@Pq2Zn',
  'Vc5Kd:Yt7Gs',
  '58213?Wn6Jb',
  '47392#Ud3Fe',
  'Ks9Lv%Ox4Ma',
  'Rb6Q/Gk1W@Fy3E:Cw9R?Dh4T#Ej5Y%Tz8U',
];
/** Passwords a driver reads as a person does even unencoded: the last @ ends them, the first : begins them, a stray % is a %. */
const READ_AS_WRITTEN = new Set(['Mf8Rw@Pq2Zn', 'Vc5Kd:Yt7Gs', 'Ks9Lv%Ox4Ma']);

/** Every piece of a password that may not be shown: each run between its special characters, and it whole. */
function pieces(password: string): string[] {
  return [password, encodeURIComponent(password), ...password.split(/[/@:?#%]/).filter((p) => p.length >= 4)];
}

/** The pieces of `password` found in `text` (digits only as a whole number, not inside another). */
function shownPieces(text: string, password: string): string[] {
  return pieces(password).filter((piece) =>
    /^\d+$/.test(piece) ? new RegExp(`(?<!\\d)${piece}(?!\\d)`).test(text) : text.includes(piece),
  );
}

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

  /**
   * A password with / @ : ? # % in it, through every command that reads DATABASE_URL, as its own
   * process: percent-encoded, it opens the database and nothing shows it; written as it is, a URL
   * the driver would read otherwise (the password's pieces as host, port, database or query) is
   * refused before anything connects, in one line that quotes none of it.
   */
  describe('a password with / @ : ? # % in it', () => {
    const base = (): URL => new URL(server().url);
    /** The URL with the password as given (encoded or not): built by hand, since URL would encode it. */
    const urlFor = (user: string, password: string, database: string): string =>
      `postgres://${user}:${password}@${base().hostname}:${base().port}/${database}`;
    const outputs: Array<{ what: string; password: string; text: string }> = [];
    /** The tables of a database, read as the test server's own user. */
    const tablesIn = async (database: string): Promise<string[]> => {
      const client = new pg.Client({ connectionString: urlWith(server().url, { database }) });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
        );
        return rows.map((r) => r.name);
      } finally {
        await client.end();
      }
    };
    const keep = (what: string, password: string, run: { stderr: string; stdout: string }): void => {
      outputs.push({ what, password, text: `${run.stdout}\n${run.stderr}` });
    };

    beforeAll(async () => {
      const client = await adminClient();
      for (const [i, password] of SPECIAL_PASSWORDS.entries()) {
        await client.query(`CREATE ROLE pw_${i} LOGIN PASSWORD ${client.escapeLiteral(password)}`);
        await client.query(`CREATE DATABASE pw_${i} OWNER pw_${i}`);
        await client.query(`CREATE DATABASE pw_${i}_copy OWNER pw_${i}`);
      }
      // These users (and pw_bot above) must give their password; the test server trusts the rest.
      const users = ['pw_bot', ...SPECIAL_PASSWORDS.map((_, i) => `pw_${i}`)].join(',');
      const hba = `${server().dataDir}/pg_hba.conf`;
      await client.query(
        `COPY (SELECT line FROM (VALUES (1, 'host all ${users} 127.0.0.1/32 scram-sha-256'), (2, 'host all all 127.0.0.1/32 trust')) AS v(n, line) ORDER BY n) TO '${hba}'`,
      );
      await client.query('SELECT pg_reload_conf()');
    });

    it('percent-encoded: tick opens the database with it, and no piece of it is shown', async () => {
      for (const [i, password] of SPECIAL_PASSWORDS.entries()) {
        const env = {
          ...setup.env,
          LOG_LEVEL: 'debug',
          DATABASE_URL: urlFor(`pw_${i}`, encodeURIComponent(password), `pw_${i}`),
        };
        const run = await runProgram(['tick'], { env });
        keep(`tick, encoded`, password, run);
        expect(run.stderr, password).toContain('"msg":"tick done"');
        expect(run.code, password).toBe(0);
        // It ran on that database: eventor-bot's tables are there.
        expect(await tablesIn(`pw_${i}`), password).toContain('guild_settings');
      }
    });

    it('percent-encoded but not the user’s: one line, exit 2 (a restart cannot fix it), no piece of it', async () => {
      const password = SPECIAL_PASSWORDS.at(-1)!;
      // pw_0's own password is another: this one is refused by the server.
      const env = { ...setup.env, DATABASE_URL: urlFor('pw_0', encodeURIComponent(password), 'pw_0') };
      for (const command of ['tick', 'start']) {
        const run = await runProgram([command], { env });
        keep(`${command}, wrong password`, password, run);
        expect(run.code).toBe(2);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(/as user "pw_0": the server refused that user or password/);
      }
    });

    it('written as it is: what the driver reads the same opens the database; the rest is refused before connecting', async () => {
      for (const [i, password] of SPECIAL_PASSWORDS.entries()) {
        const env = { ...setup.env, LOG_LEVEL: 'debug', DATABASE_URL: urlFor(`pw_${i}`, password, `pw_${i}`) };
        if (READ_AS_WRITTEN.has(password)) {
          const run = await runProgram(['tick'], { env });
          keep('tick, as written', password, run);
          expect(run.stderr, password).toContain('"msg":"tick done"');
          expect(run.code, password).toBe(0);
          continue;
        }
        const dir = path.join(setup.dir, `refused-${i}`);
        for (const args of [['start'], ['tick'], ['migrate', '--to', 'postgres'], ['migrate', '--to', 'sqlite']]) {
          const run = await runProgram(args, { env: { ...env, DATABASE_PATH: path.join(dir, 'bot.sqlite') } });
          keep(`${args.join(' ')}, as written`, password, run);
          expect(run.code, `${args.join(' ')} ${password}`).toBe(2);
          const lines = run.stderr.trim().split('\n');
          expect(lines, `${args.join(' ')} ${password}`).toHaveLength(1);
          expect(lines[0]).toMatch(
            /DATABASE_URL is .*percent-encoded .*it is not shown here, since it may hold a password/,
          );
        }
        // Refused before anything was opened or written.
        expect(existsSync(dir), password).toBe(false);
      }
    });

    it('start runs on it, and migrate copies into and out of it, without showing it', async () => {
      const i = SPECIAL_PASSWORDS.length - 1;
      const password = SPECIAL_PASSWORDS[i]!;
      const url = urlFor(`pw_${i}`, encodeURIComponent(password), `pw_${i}`);
      const env = { ...setup.env, LOG_LEVEL: 'debug', DATABASE_URL: url };
      const bot = startProgram(['start'], { env });
      try {
        expect(await bot.waitFor('"msg":"bot ready"')).toBe(true);
      } finally {
        expect(await bot.stop()).toBe(0);
        keep('start', password, { stdout: bot.stdout(), stderr: bot.stderr() });
      }
      // The bot's SQLite file copied into the empty database beside it, and that back into a new file.
      const file = path.join(setup.dir, 'migrated.sqlite');
      const sqlite = await runProgram(['tick'], { env: { ...setup.env, DATABASE_PATH: file } });
      expect(sqlite.code).toBe(0);
      const copy = { ...env, DATABASE_URL: urlFor(`pw_${i}`, encodeURIComponent(password), `pw_${i}_copy`) };
      const there = await runProgram(['migrate', '--to', 'postgres'], { env: { ...copy, DATABASE_PATH: file } });
      keep('migrate --to postgres', password, there);
      expect(there.stdout).toMatch(
        /^Copied \d+ rows? in \d+ tables into PostgreSQL database "pw_6_copy" .* as user "pw_6"/,
      );
      expect(there.code).toBe(0);
      const back = path.join(setup.dir, 'back.sqlite');
      const home = await runProgram(['migrate', '--to', 'sqlite'], { env: { ...copy, DATABASE_PATH: back } });
      keep('migrate --to sqlite', password, home);
      expect(home.code).toBe(0);
      expect(existsSync(back)).toBe(true);
      // backup copies the SQLite file only, and says so, with either form of the URL set.
      for (const form of [url, urlFor(`pw_${i}`, password, `pw_${i}`)]) {
        const run = await runProgram(['backup', path.join(setup.dir, `backup-${outputs.length}.sqlite`)], {
          env: { ...setup.env, DATABASE_PATH: file, DATABASE_URL: form },
        });
        keep('backup', password, run);
        expect(run.stderr).toContain('DATABASE_URL is set');
        expect(run.code).toBe(0);
      }
    });

    it('across every run: no piece of any password in anything a command wrote', () => {
      expect(outputs.length).toBeGreaterThan(20);
      const shown = outputs.flatMap(({ what, password, text }) =>
        shownPieces(text, password).map((piece) => `${what} (${password}): ${piece}`),
      );
      expect(shown).toEqual([]);
    });
  });
});
