import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/store/secrets.js';
import { NEEDS_POSTGRES } from '../support/postgres.js';
import { postgresDialect, TEST_SECRET } from '../support/stores.js';

/**
 * What SECURITY.md promises of the database, on PostgreSQL: servers' Eventor keys are stored only
 * sealed, and whoever a throttle counts only as a keyed hash. Nothing sends them to the server in
 * clear, so neither the rows nor the server's files (tables and write-ahead log) hold them.
 */

const API_KEY = '5f0c1d7e9a8b4c3d2e1f0a9b8c7d6e5f';
/** Counted by a throttle, and named nowhere else. */
const COUNTED_USER = '998877665544332211';

/** Every file under `dir` that holds `needle`, by path relative to it. */
async function filesHolding(dir: string, needle: Buffer): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(file).catch(() => Buffer.alloc(0));
    if (bytes.includes(needle)) found.push(path.relative(dir, file));
  }
  return found;
}

describe(`sealed keys and hashed throttles on PostgreSQL ${NEEDS_POSTGRES}`, () => {
  const stores = postgresDialect.use();

  it("are not in clear text in any row, nor in the server's files", async () => {
    const factory = stores();
    const store = await factory.fresh();
    await store.servers.setApiKey('g1', API_KEY, { id: '1', name: 'OK Sealed' });
    await store.servers.connectEventor('g2', {
      instance: 'se',
      baseUrl: null,
      apiKey: API_KEY,
      organisation: { id: '2', name: 'IK Sealed' },
    });
    for (let i = 0; i < 3; i++) await store.throttles.takeThrottle('login-link', COUNTED_USER, 5, 600_000);
    expect(await store.servers.apiKey('g2')).toBe(API_KEY);

    const client = new pg.Client({ connectionString: factory.location(store) });
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()',
      );
      let rows = 0;
      for (const { table_name } of tables.rows) {
        const all = await client.query<{ row: unknown }>(`SELECT row_to_json(t) AS row FROM ${table_name} t`);
        rows += all.rowCount ?? 0;
        for (const { row } of all.rows) {
          expect(JSON.stringify(row)).not.toContain(API_KEY);
          expect(JSON.stringify(row)).not.toContain(COUNTED_USER);
        }
      }
      expect(rows).toBeGreaterThanOrEqual(5);
      const sealed = await client.query<{ api_key_sealed: string }>(
        'SELECT api_key_sealed FROM guild_settings ORDER BY guild_id',
      );
      const box = new SecretBox(TEST_SECRET);
      for (const { api_key_sealed } of sealed.rows) {
        expect(api_key_sealed).toMatch(/^v1:/);
        expect(box.open(api_key_sealed)).toBe(API_KEY);
      }
      const subjects = await client.query<{ subject: string }>('SELECT subject FROM throttle_events');
      expect(subjects.rows).toHaveLength(3);
      for (const { subject } of subjects.rows) expect(subject).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // Nor in the server's files: tables and the write-ahead log, flushed to disk.
      await client.query('CHECKPOINT');
      const { rows: dir } = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
      expect(await filesHolding(dir[0]!.dir, Buffer.from(API_KEY))).toEqual([]);
      expect(await filesHolding(dir[0]!.dir, Buffer.from(COUNTED_USER))).toEqual([]);
      // The search itself finds what is there: the sealed key's bytes are in some file.
      expect((await filesHolding(dir[0]!.dir, Buffer.from(sealed.rows[0]!.api_key_sealed))).length).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });
});
