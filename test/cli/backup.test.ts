import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import { main } from '../../src/cli/main.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { startProgram } from '../support/bot-process.js';
import { capture, PROGRAM, runProgram } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

describe('eventor-bot backup: a copy of the live database that a bot starts on', () => {
  let setup: OperatorSetup;
  beforeAll(async () => {
    setup = await startOperatorSetup('backup');
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('copies while the bot runs and another connection writes; the bot started on the copy serves the server set up before', async () => {
    const { discord, eventor, dir } = setup;
    const club = eventor.dataset.homeClub;
    // A server that brought its own key (as /setup eventor stores it), and one that did not.
    const configured = discord.createGuild({ name: 'Backed up' });
    const channel = discord.createTextChannel(configured.id, { name: 'general' });
    const member = discord.createMember(configured.id, { username: 'runner', locale: 'en-US' });
    const env: NodeJS.ProcessEnv = { ...setup.env, EVENTOR_CUSTOM_URLS: eventor.baseUrl };
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS, guildId: configured.id });

    const bot = startProgram(['start'], { env });
    try {
      expect(await bot.waitFor('"msg":"bot ready"')).toBe(true);
      // A second connection, as /setup's would be: the server's connection, then a stream of
      // writes that goes on while the backup runs.
      const store = await openSqliteStore(env.DATABASE_PATH!, setup.secretKey);
      let written = 0;
      try {
        await store.servers.connectEventor(configured.id, {
          instance: 'custom',
          baseUrl: eventor.baseUrl,
          apiKey: eventor.apiKey,
          organisation: { id: club.id, name: club.name },
        });
        const copy = path.join(dir, 'copy.sqlite');
        const backup = runProgram(['backup', copy], { env });
        let finished = false;
        void backup.then(() => {
          finished = true;
        });
        for (let i = 0; i < 5_000 && !finished; i++) {
          await store.audit.audit({ guildId: configured.id, actorId: 'writer', action: 'link', detail: `write ${i}` });
          written++;
          await new Promise((r) => setImmediate(r));
        }
        const { code, stderr } = await backup;
        expect(stderr).toBe('');
        expect(code).toBe(0);
        expect(statSync(copy).mode & 0o777).toBe(0o600);
        // One file, whole: SQLite's check passes, and the writes it holds are a prefix of those made.
        const raw = new Database(copy, { readonly: true });
        expect(raw.pragma('quick_check', { simple: true })).toBe('ok');
        const kept = raw.prepare("SELECT count(*) AS n FROM audit_log WHERE actor_id = 'writer'").get() as {
          n: number;
        };
        raw.close();
        expect(written).toBeGreaterThan(0);
        expect(kept.n).toBeLessThanOrEqual(written);
        expect(existsSync(`${copy}-wal`)).toBe(false);
      } finally {
        await store.close();
      }
    } finally {
      expect(await bot.stop()).toBe(0);
    }

    // Restore: the copy is the database of a new start, with the same SECRET_KEY.
    const restored = startProgram(['start'], { env: { ...env, DATABASE_PATH: path.join(dir, 'copy.sqlite') } });
    try {
      expect(await restored.waitFor('"msg":"bot ready"')).toBe(true);
      const reply = await discord
        .runCommand({ guildId: configured.id, channelId: channel.id, user: member, name: 'status' })
        .reply({ timeoutMs: 10_000 });
      expect(renderMessageText(reply)).toContain(`The API key works for ${club.name}`);
    } finally {
      expect(await restored.stop()).toBe(0);
    }
    expect(restored.stderr()).not.toContain(eventor.apiKey);
  });

  it('the guide’s command, run as written in a folder without backups/, makes the folder (0700) and the copy', async () => {
    const guide = readFileSync('docs/operators.md', 'utf8');
    const documented = /^npx eventor-bot backup (backups\/.+)$/m.exec(guide);
    expect(documented).not.toBeNull();
    const dir = await mkdtemp(path.join(setup.dir, 'documented-'));
    const database = path.join(dir, 'live.sqlite');
    await (await openSqliteStore(database, setup.secretKey)).close();
    // The shell expands $(date +%F) as the operator's would; npx stands for this checkout's program.
    const output = execFileSync(
      'sh',
      ['-c', documented![0].replace(/^npx eventor-bot/, `"${process.execPath}" "${PROGRAM}"`)],
      {
        cwd: dir,
        env: { PATH: process.env.PATH, DATABASE_PATH: database },
        encoding: 'utf8',
      },
    );
    expect(output).toMatch(/^Backed up .*live\.sqlite to backups\/eventor-bot-\d{4}-\d{2}-\d{2}\.sqlite \(schema \d+/);
    expect(statSync(path.join(dir, 'backups')).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.join(dir, 'backups'))).toHaveLength(1);
  });

  it('refuses to overwrite a file, and says so in one line', async () => {
    const target = path.join(setup.dir, 'taken.sqlite');
    writeFileSync(target, 'keep me');
    const io = capture({ DATABASE_PATH: setup.env.DATABASE_PATH! });
    expect(await main(['backup', target], io)).toBe(1);
    expect(io.stderr()).toMatch(/^eventor-bot backup: .*taken\.sqlite already exists.*\n$/);
    expect(statSync(target).size).toBe('keep me'.length);
  });

  it('names a missing database, and asks for the file when none is given', async () => {
    const missing = capture({ DATABASE_PATH: path.join(setup.dir, 'nowhere.sqlite') });
    expect(await main(['backup', path.join(setup.dir, 'x.sqlite')], missing)).toBe(1);
    expect(missing.stderr()).toContain('there is no database at');
    expect(existsSync(path.join(setup.dir, 'x.sqlite'))).toBe(false);
    const bare = capture({});
    expect(await main(['backup'], bare)).toBe(2);
    expect(bare.stderr()).toContain('eventor-bot backup <file>');
  });

  it('with DATABASE_URL set: copies the SQLite file still, after one line pointing to pg_dump, never the password', async () => {
    const password = 'pw-in-the-url-5c1e';
    const file = path.join(setup.dir, 'before-migrating.sqlite');
    await (await openSqliteStore(file, setup.secretKey)).close();
    const io = capture({
      DATABASE_PATH: file,
      DATABASE_URL: `postgres://bot:${password}@db.example.org:5432/eventor`,
    });
    const target = path.join(setup.dir, 'before-migrating-copy.sqlite');
    expect(await main(['backup', target], io)).toBe(0);
    const lines = io.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^eventor-bot backup: note: this copies the SQLite file .* only; .*pg_dump/);
    expect(io.stderr()).not.toContain(password);
    expect(io.stdout()).toContain(`Backed up ${file} to ${target}`);
    expect(existsSync(target)).toBe(true);
  });
});
