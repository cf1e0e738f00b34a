import { chmodSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/args.js';
import { runStart } from '../../src/cli/start.js';
import { openDatabase, type PermissionNotice } from '../../src/store/sqlite/database.js';
import { capture } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe('the database and its -wal and -shm files are the owner’s alone', () => {
  let setup: OperatorSetup;
  let dir: string;
  let umask: number;

  beforeAll(async () => {
    setup = await startOperatorSetup('modes');
    dir = setup.dir;
  });
  afterAll(async () => {
    await setup?.close();
  });
  beforeEach(() => {
    // The usual permissive umask: without the bot's own modes, new files would be 0644.
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('creates all three files 0600 (and a folder it makes 0700) whatever the umask', () => {
    const file = path.join(dir, 'fresh', 'bot.sqlite');
    const db = openDatabase(file);
    try {
      // A write while open: the -wal and -shm files exist now.
      db.exec("CREATE TABLE probe (x); INSERT INTO probe VALUES ('a row')");
      for (const name of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(name).toString(8)).toBe('600');
      expect(modeOf(path.dirname(file)).toString(8)).toBe('700');
    } finally {
      db.close();
    }
  });

  it('tightens an existing database that others could read, its -wal and -shm too, and says so', () => {
    const file = path.join(dir, 'loose.sqlite');
    // Another connection (a backup, say) keeps the database open, so its -wal and -shm stay.
    const other = new Database(file);
    try {
      other.pragma('journal_mode = WAL');
      other.exec("CREATE TABLE probe (x); INSERT INTO probe VALUES ('a row')");
      for (const name of [file, `${file}-wal`, `${file}-shm`]) chmodSync(name, 0o644);
      const notices: PermissionNotice[] = [];
      const db = openDatabase(file, undefined, { onPermissions: (n) => notices.push(n) });
      try {
        expect(db.prepare('SELECT x FROM probe').get()).toEqual({ x: 'a row' });
        for (const name of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(name).toString(8)).toBe('600');
        expect(notices.map((n) => [path.basename(n.file), n.was, n.tightened]).sort()).toEqual([
          ['loose.sqlite', '0644', true],
          ['loose.sqlite-shm', '0644', true],
          ['loose.sqlite-wal', '0644', true],
        ]);
      } finally {
        db.close();
      }
    } finally {
      other.close();
    }
    // Already the owner's: nothing to say the next time.
    const notices: PermissionNotice[] = [];
    openDatabase(file, undefined, { onPermissions: (n) => notices.push(n) }).close();
    expect(notices).toEqual([]);
  });

  it('start logs the tightening in one line and keeps going', async () => {
    const file = path.join(dir, 'start-loose.sqlite');
    openDatabase(file).close();
    chmodSync(file, 0o664);
    const io = capture({ ...setup.env, DATABASE_PATH: file });
    // Stops as soon as it is ready.
    expect(await runStart(parseFlags([]), io, Promise.resolve())).toBe(0);
    const lines = io
      .stderr()
      .split('\n')
      .filter((l) => l.includes('readable by other users'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', file, mode: '0664' });
    expect(io.stderr()).toContain('"msg":"bot stopped"');
    expect(modeOf(file).toString(8)).toBe('600');
  });
});
