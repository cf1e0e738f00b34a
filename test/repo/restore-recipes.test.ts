import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDatabase } from '../../src/store/backup.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { NEEDS_POSTGRES, postgresBinaries, usePostgres } from '../support/postgres.js';
import { TEST_SECRET, testSecrets } from '../support/stores.js';

/**
 * The restore recipes of docs/operators.md for Docker, run for real where Docker is not needed:
 * the shell script the one-off container runs (on a folder standing for the volume, as an
 * unprivileged user standing for the image's `node`), and the pg_dump and pg_restore commands the
 * PostgreSQL container runs (against a real PostgreSQL, with the guide's own options).
 */

const guide = readFileSync(path.resolve('docs/operators.md'), 'utf8');
const GUILD = '123456789012345678';
/** The unprivileged user standing for the image's `node`. */
const NOBODY = 65534;

describe("the guide's restore recipes for Docker", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('SQLite in the volume: the backup sent on standard input becomes the bot’s file, 0600; the old one is kept aside', async (ctx) => {
    if (process.getuid?.() !== 0) {
      ctx.skip('needs root, to run the recipe as another user (nobody)');
      return;
    }
    const script = /--entrypoint sh eventor-bot -c \\\n\s+'([^']+)' \\\n\s+< backups\//.exec(guide)?.[1];
    expect(script, 'the recipe in docs/operators.md#restoring').toBeDefined();
    expect(script).toContain('cd /data');

    const dir = mkdtempSync(path.join(tmpdir(), 'eventor-bot-restore-'));
    dirs.push(dir);
    chmodSync(dir, 0o755);
    // The volume: the image's user's folder, holding the database the restore replaces.
    const volume = path.join(dir, 'data');
    const live = path.join(volume, 'eventor-bot.sqlite');
    const old = await openSqliteStore(live, TEST_SECRET);
    await old.servers.updateGuildSettings(GUILD, { locale: 'en-US' });
    await old.close();
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, volume]);
    // The backup: root's, 0600, as `eventor-bot backup` run by root leaves it.
    const source = await openSqliteStore(path.join(dir, 'source.sqlite'), TEST_SECRET);
    await source.servers.updateGuildSettings(GUILD, { locale: 'sv-SE' });
    await source.close();
    const backup = path.join(dir, 'backup.sqlite');
    await backupDatabase(path.join(dir, 'source.sqlite'), backup);
    expect(statSync(backup).uid).toBe(0);

    execFileSync('sh', ['-c', script!.replaceAll('/data', volume)], {
      input: readFileSync(backup),
      uid: NOBODY,
      gid: NOBODY,
    });
    const restored = statSync(live);
    expect(restored.uid).toBe(NOBODY);
    expect(restored.mode & 0o777).toBe(0o600);
    expect(existsSync(`${live}.before-restore`)).toBe(true);
    const store = await openSqliteStore(live, TEST_SECRET);
    try {
      expect((await store.servers.guildSettings(GUILD))?.locale).toBe('sv-SE');
    } finally {
      await store.close();
    }
    const kept = await openSqliteStore(`${live}.before-restore`, TEST_SECRET);
    try {
      expect((await kept.servers.guildSettings(GUILD))?.locale).toBe('en-US');
    } finally {
      await kept.close();
    }
  });

  describe(`PostgreSQL in compose: pg_dump and pg_restore as the guide runs them ${NEEDS_POSTGRES}`, () => {
    const server = usePostgres();

    it('the dump taken with the guide’s options restores over a changed database, whole', async (ctx) => {
      const bin = postgresBinaries();
      if (bin === null || !existsSync(path.join(bin, 'pg_dump'))) {
        ctx.skip('pg_dump is not installed here');
        return;
      }
      /** The arguments the guide gives `tool` inside the container (up to the redirection). */
      const argsOf = (tool: string): string[] => {
        const line = new RegExp(`exec -T postgres ${tool} ([^<>\\n]+?) [<>]`).exec(guide)?.[1];
        expect(line, `${tool} in docs/operators.md#restoring`).toBeDefined();
        return line!.split(/\s+/);
      };
      const admin = new pg.Client({ connectionString: server().url });
      await admin.connect();
      try {
        await admin.query('CREATE ROLE "eventor-bot" LOGIN');
        await admin.query('CREATE DATABASE eventor OWNER "eventor-bot"');
      } finally {
        await admin.end();
      }
      const url = new URL(server().url);
      url.username = 'eventor-bot';
      url.pathname = '/eventor';
      const store = await openPostgresStore(url.toString(), testSecrets());
      try {
        await store.servers.updateGuildSettings(GUILD, { locale: 'sv-SE' });
      } finally {
        await store.close();
      }
      // The container's socket is this server's loopback port here.
      const env = { PATH: process.env.PATH, PGHOST: '127.0.0.1', PGPORT: new URL(server().url).port };
      const dump = execFileSync(path.join(bin, 'pg_dump'), argsOf('pg_dump'), { env, maxBuffer: 64 * 1024 * 1024 });
      const dir = mkdtempSync(path.join(tmpdir(), 'eventor-bot-pg-restore-'));
      dirs.push(dir);
      writeFileSync(path.join(dir, 'eventor.dump'), dump);

      const changed = await openPostgresStore(url.toString(), testSecrets());
      try {
        await changed.servers.updateGuildSettings(GUILD, { locale: 'nb-NO' });
        await changed.servers.updateGuildSettings('223456789012345678', { locale: 'en-US' });
      } finally {
        await changed.close();
      }
      execFileSync(path.join(bin, 'pg_restore'), argsOf('pg_restore'), { env, input: dump });

      const back = await openPostgresStore(url.toString(), testSecrets());
      try {
        expect((await back.servers.guildSettings(GUILD))?.locale).toBe('sv-SE');
        expect(await back.servers.guildSettings('223456789012345678')).toBeNull();
      } finally {
        await back.close();
      }
    });
  });
});
