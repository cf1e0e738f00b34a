import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, openSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { runStart } from '../../src/cli/start.js';
import { KindSettings } from '../../src/feeds/settings.js';
import type { SandboxDiscord } from '../../harness/sandbox/discord/index.js';
import { openDatabase, StoreError } from '../../src/store/sqlite/database.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { capture, runProgram } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

/**
 * Makes `file` unwritable for this process, as a read-only disk or a wrong owner would. chmod does
 * not stop root, so as root the file is made immutable (chattr +i). Null when neither works here.
 */
function makeReadOnly(file: string): (() => void) | null {
  const restore: Array<() => void> = [];
  if (process.getuid?.() === 0) {
    try {
      execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
      restore.push(() => execFileSync('chattr', ['-i', file], { stdio: 'ignore' }));
    } catch {
      return null;
    }
  } else {
    chmodSync(file, 0o444);
    restore.push(() => chmodSync(file, 0o644));
  }
  try {
    closeSync(openSync(file, 'r+'));
    // Still writable: this machine cannot make it read-only.
    for (const undo of restore) undo();
    return null;
  } catch {
    return () => {
      for (const undo of restore) undo();
    };
  }
}

describe('the database file, as an operator meets it', () => {
  let setup: OperatorSetup;
  let discord: SandboxDiscord;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let SECRET: string;

  beforeAll(async () => {
    setup = await startOperatorSetup('database');
    ({ discord, dir, env, secretKey: SECRET } = setup);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('refuses an existing empty (0-byte) file instead of starting a new database, unless asked to initialise', async () => {
    const file = path.join(dir, 'empty.sqlite');
    writeFileSync(file, '');
    const io = capture({ ...env, DATABASE_PATH: file });
    // Exit 2: a restart would meet the same file (docs/operators.md#exit-codes).
    expect(await main(['tick'], io)).toBe(2);
    expect(io.stderr()).toContain('empty file (0 bytes)');
    expect(io.stderr()).toContain('DATABASE_INIT=1');
    expect(io.stderr()).toContain('--init-database');
    expect(statSync(file).size).toBe(0);

    const asked = capture({ ...env, DATABASE_PATH: file });
    expect(await main(['tick', '--init-database'], asked)).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(0);

    const byVariable = path.join(dir, 'empty-too.sqlite');
    writeFileSync(byVariable, '');
    expect(await main(['tick'], capture({ ...env, DATABASE_PATH: byVariable, DATABASE_INIT: '1' }))).toBe(0);
    expect(statSync(byVariable).size).toBeGreaterThan(0);
  });

  it('a folder that cannot be made (/proc/x): one line and exit 2, at once, not a loop', async () => {
    // Node's recursive mkdir loops for ever under /proc at full CPU, deaf to SIGTERM; the program's own exits.
    const file = '/proc/x/db.sqlite';
    for (const command of ['start', 'tick']) {
      const { code, stderr } = await runProgram([command], { env: { ...env, DATABASE_PATH: file }, timeoutMs: 30_000 });
      expect(code).toBe(2);
      expect(stderr).toBe(
        `eventor-bot ${command}: cannot create the folder /proc/x for the database ${file} (DATABASE_PATH): the system refused (ENOENT)\n`,
      );
    }
    // A file where a folder should be, and a folder this user may not write in, say so.
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, '');
    const io = capture({ ...env, DATABASE_PATH: path.join(blocker, 'sub', 'db.sqlite') });
    expect(await runStart(parseFlags([]), io, Promise.resolve())).toBe(2);
    expect(io.stderr()).toContain(`cannot create the folder ${path.join(blocker)}`);
  });

  it('a read-only database is said to be read-only, with its data intact, not damaged', async (context) => {
    const file = path.join(dir, 'read-only.sqlite');
    const store = await openSqliteStore(file, SECRET);
    await store.servers.setChannel('123456789012345678', 'results', '223456789012345678');
    await store.close();
    for (const extra of ['-wal', '-shm']) expect(existsSync(`${file}${extra}`)).toBe(false);
    const restore = makeReadOnly(file);
    if (!restore) {
      context.skip('this machine cannot make a file read-only for this user (root without chattr)');
      return;
    }
    try {
      const io = capture({ ...env, DATABASE_PATH: file });
      expect(await runStart(parseFlags([]), io, Promise.resolve())).toBe(2);
      expect(io.stderr()).toContain('read-only');
      expect(io.stderr()).toContain('intact');
      expect(io.stderr()).not.toContain('damaged');
      expect(io.stderr()).not.toContain('move it away');
    } finally {
      restore();
    }
    const again = await openSqliteStore(file, SECRET);
    try {
      expect((await new KindSettings(again).get('123456789012345678', 'results')).channelId).toBe('223456789012345678');
    } finally {
      await again.close();
    }
  });

  it('a full disk is said to be a full disk, with the data intact, not damaged', () => {
    const file = path.join(dir, 'full.sqlite');
    openDatabase(file, MIGRATIONS).close();
    // SQLite's page limit stands in for a full disk: the upgrade's write gets SQLITE_FULL.
    const upgrade = [
      ...MIGRATIONS,
      `PRAGMA max_page_count = 1; CREATE TABLE filler (x BLOB); INSERT INTO filler VALUES (randomblob(100000));`,
    ];
    let error: unknown;
    try {
      openDatabase(file, upgrade).close();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain('no space left');
    expect((error as Error).message).toContain('intact');
    expect((error as Error).message).not.toContain('move it away');
    // Intact indeed: it opens at its old schema.
    const db = openDatabase(file, MIGRATIONS);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('a tick process whose runs failed exits non-zero, so that cron sees it', async () => {
    const guild = discord.createGuild({ name: 'Failing tick' });
    const channel = discord.createTextChannel(guild.id, { name: 'resultat' }).id;
    const file = path.join(dir, 'failing-tick.sqlite');
    const store = await openSqliteStore(file, SECRET);
    try {
      await store.servers.setChannel(guild.id, 'results', channel);
      await new KindSettings(store).update(guild.id, 'results', { enabled: true });
    } finally {
      await store.close();
    }
    // An Eventor that is not there: a port that was free a moment ago.
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const failing = await runProgram(['tick'], {
      env: {
        ...env,
        DATABASE_PATH: file,
        EVENTOR_BASE_URL: `http://127.0.0.1:${closedPort}/api`,
        EVENTOR_DEFAULT_GUILDS: guild.id,
        EVENTOR_TIMEOUT_MS: '2000',
      },
    });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/eventor-bot tick: 1 run failed/);
    // The last line is the verdict, one line (the JSON log lines above it say what failed).
    expect(failing.stderr.trimEnd().split('\n').at(-1)).toMatch(/^eventor-bot tick: 1 run failed/);
    expect(discord.messages(channel)).toHaveLength(0);
  });
});
