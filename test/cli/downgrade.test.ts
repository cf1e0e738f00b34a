import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { runProgram } from '../support/cli-process.js';

const SECRET = 'downgrade-test-secret-0123456789';

/** A database as a newer eventor-bot would leave it: today's schema, a higher user_version, in the given journal mode. */
async function newerDatabase(file: string, journalMode: 'wal' | 'delete'): Promise<void> {
  const store = await openSqliteStore(file, SECRET);
  await store.servers.setApiKey('123456789012345678', 'a-key-of-the-club', { id: '1', name: 'Newer OK' });
  await store.close();
  const db = new Database(file);
  db.pragma(`user_version = ${MIGRATIONS.length + 3}`);
  db.pragma(`journal_mode = ${journalMode}`);
  db.close();
}

describe('a database newer than the program (a downgrade)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'eventor-bot-downgrade-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  for (const journalMode of ['wal', 'delete'] as const) {
    it(`is refused by start and tick in one line, the file left as it was (${journalMode} mode)`, async () => {
      const file = path.join(dir, `newer-${journalMode}.sqlite`);
      await newerDatabase(file, journalMode);
      const before = readFileSync(file);
      const env = { DISCORD_TOKEN: 'not-used-the-database-is-checked-first', SECRET_KEY: SECRET, DATABASE_PATH: file };
      for (const command of ['start', 'tick']) {
        const { code, stderr } = await runProgram([command], { env });
        // Exit 2: a restart would be refused the same way (docs/operators.md#exit-codes).
        expect(code).toBe(2);
        const newer = MIGRATIONS.length + 3;
        expect(stderr).toBe(
          `eventor-bot ${command}: the database ${file} was written by a newer eventor-bot (schema ${newer}; ` +
            `this one knows schemas up to ${MIGRATIONS.length}) and was left unchanged: upgrade eventor-bot again, ` +
            'or restore a backup made before the upgrade\n',
        );
      }
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(readdirSync(dir).filter((name) => name.startsWith(`newer-${journalMode}.sqlite`))).toEqual([
        `newer-${journalMode}.sqlite`,
      ]);
    });
  }
});
