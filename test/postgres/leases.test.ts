import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NEEDS_POSTGRES, PORT_ATTEMPTS, PostgresUnavailable, startPostgres, usePostgres } from '../support/postgres.js';

/**
 * The primitive the exactly-once ledger will use across processes on PostgreSQL
 * (docs/decisions/postgres-leases.md): items claimed with `FOR UPDATE SKIP LOCKED`, each claim a
 * lease row with an owner and an expiry on the database's clock, finished only by its owner.
 */

const ITEMS = 120;

const SCHEMA = `
  CREATE TABLE items (
    id integer PRIMARY KEY,
    owner text,
    lease_until timestamptz,
    done_by text
  );
  -- Every piece of work done, without a unique key, so that a duplicate would show as a second row.
  CREATE TABLE work_log (item_id integer NOT NULL REFERENCES items (id), owner text NOT NULL);
`;

/** Up to `limit` unfinished items whose lease is absent or ran out, leased to `owner` for `leaseMs`. */
const CLAIM = `
  WITH next AS (
    SELECT id FROM items
    WHERE done_by IS NULL AND (lease_until IS NULL OR lease_until <= clock_timestamp())
    ORDER BY id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  UPDATE items SET owner = $1, lease_until = clock_timestamp() + make_interval(secs => $3::double precision / 1000)
  FROM next WHERE items.id = next.id
  RETURNING items.id`;

/** Finishes an item only while `owner` still holds its lease: a holder whose lease was taken over changes nothing. */
const FINISH = `
  UPDATE items SET done_by = owner, owner = NULL, lease_until = NULL
  WHERE id = $1 AND owner = $2 AND done_by IS NULL
  RETURNING id`;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A connection the test terminates reports an error event; it is expected, not a crash.
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function claim(client: pg.Client, owner: string, limit: number, leaseMs: number): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(CLAIM, [owner, limit, leaseMs]);
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

async function inTransaction<T>(client: pg.Client, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

describe(`leases on a real PostgreSQL with pg ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  const open = async () => {
    const client = await connect(server().url);
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    admin = await open();
    await admin.query('DROP TABLE IF EXISTS work_log, items');
    await admin.query(SCHEMA);
    await admin.query('INSERT INTO items (id) SELECT generate_series(1, $1::integer)', [ITEMS]);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
  });

  it('connects with pg to the server the harness started, in its own temporary folder', async () => {
    const { rows } = await admin.query<{ version: string; dir: string }>(
      "SELECT version() AS version, current_setting('data_directory') AS dir",
    );
    expect(rows).toEqual([{ version: expect.stringMatching(/^PostgreSQL \d+/), dir: server().dataDir }]);
    expect(server().url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  });

  it('skips what another open transaction holds: two connections never claim the same item', async () => {
    const a = await open();
    const b = await open();
    await a.query('BEGIN');
    const first = await claim(a, 'a', 5, 60_000);
    // A's claim is not committed: its rows are locked, and B passes over them instead of waiting.
    await b.query('BEGIN');
    const second = await claim(b, 'b', 5, 60_000);
    expect(first).toEqual([1, 2, 3, 4, 5]);
    expect(second).toEqual([6, 7, 8, 9, 10]);
    await a.query('COMMIT');
    await b.query('COMMIT');
    const { rows } = await admin.query<{ owner: string; n: number }>(
      'SELECT owner, count(*)::integer AS n FROM items WHERE owner IS NOT NULL GROUP BY owner ORDER BY owner',
    );
    expect(rows).toEqual([
      { owner: 'a', n: 5 },
      { owner: 'b', n: 5 },
    ]);
  });

  it('two workers racing over every item do each exactly once', async () => {
    // Both connections are open before either starts, so that their rounds interleave from the first.
    const [first, second] = [await open(), await open()];
    const worker = async (client: pg.Client, owner: string) => {
      const mine: number[] = [];
      // Bounded: at most one round per item, and each round claims at least one or stops.
      for (let round = 0; round < ITEMS; round++) {
        const got = await inTransaction(client, async () => {
          const ids = await claim(client, owner, 3, 60_000);
          for (const id of ids) {
            await client.query('INSERT INTO work_log (item_id, owner) VALUES ($1, $2)', [id, owner]);
            expect((await client.query(FINISH, [id, owner])).rowCount).toBe(1);
          }
          return ids;
        });
        if (got.length === 0) break;
        mine.push(...got);
      }
      return mine;
    };
    const [a, b] = await Promise.all([worker(first, 'a'), worker(second, 'b')]);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(Array.from({ length: ITEMS }, (_, i) => i + 1));
    const { rows } = await admin.query<{ rows: number; items: number; open: number }>(
      `SELECT (SELECT count(*)::integer FROM work_log) AS rows,
              (SELECT count(DISTINCT item_id)::integer FROM work_log) AS items,
              (SELECT count(*)::integer FROM items WHERE done_by IS NULL) AS open`,
    );
    expect(rows[0]).toEqual({ rows: ITEMS, items: ITEMS, open: 0 });
  });

  it('without the lock and the lease, the same race does an item twice (the check above can fail)', async () => {
    const a = await open();
    const b = await open();
    // Reading what is free, then taking it, as two steps: both read before either writes.
    const free = 'SELECT id FROM items WHERE done_by IS NULL ORDER BY id LIMIT 1';
    const [seenByA] = (await a.query<{ id: number }>(free)).rows.map((r) => r.id);
    const [seenByB] = (await b.query<{ id: number }>(free)).rows.map((r) => r.id);
    expect(seenByA).toBe(seenByB);
    await a.query('INSERT INTO work_log (item_id, owner) VALUES ($1, $2)', [seenByA, 'a']);
    await b.query('INSERT INTO work_log (item_id, owner) VALUES ($1, $2)', [seenByB, 'b']);
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM work_log GROUP BY item_id HAVING count(*) > 1',
    );
    expect(rows).toEqual([{ n: 2 }]);
  });

  it("keeps a dead holder's lease until it runs out, then another takes it over and the old holder cannot finish", async () => {
    await admin.query('DELETE FROM items WHERE id > 2');
    const a = await open();
    const [pid] = (await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows.map((r) => r.pid);
    // Item 1 for a minute (it must outlast the test), item 2 for a moment (it runs out during the test).
    expect(await inTransaction(a, () => claim(a, 'a', 1, 60_000))).toEqual([1]);
    expect(await inTransaction(a, () => claim(a, 'a', 1, 300))).toEqual([2]);
    // A's process dies: its connection is gone, and no row lock is left; only the lease rows hold the items.
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const b = await open();
    // Poll until item 2's lease has run out on the database's clock: bounded in count and time.
    let taken: number[] = [];
    for (let attempt = 0; attempt < 100 && !taken.includes(2); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      taken = await inTransaction(b, () => claim(b, 'b', 2, 60_000));
      expect(taken).not.toContain(1);
    }
    expect(taken).toEqual([2]);
    // A comes back (a new connection, the same owner) and tries to finish item 2: the lease is B's now.
    const late = await open();
    expect((await late.query(FINISH, [2, 'a'])).rowCount).toBe(0);
    expect((await b.query(FINISH, [2, 'b'])).rowCount).toBe(1);
    const { rows } = await admin.query('SELECT id, owner, done_by FROM items ORDER BY id');
    expect(rows).toEqual([
      { id: 1, owner: 'a', done_by: null },
      { id: 2, owner: null, done_by: 'b' },
    ]);
  });

  it('leaves nothing of a transaction that fails half-way, or whose connection dies half-way', async () => {
    const a = await open();
    await expect(
      inTransaction(a, async () => {
        const ids = await claim(a, 'a', 2, 60_000);
        await a.query('INSERT INTO work_log (item_id, owner) VALUES ($1, $2)', [ids[0], 'a']);
        // A later step fails: here a row that breaks the foreign key.
        await a.query('INSERT INTO work_log (item_id, owner) VALUES ($1, $2)', [ITEMS + 1, 'a']);
      }),
    ).rejects.toThrow(/foreign key/);

    const b = await open();
    const [pid] = (await b.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows.map((r) => r.pid);
    await b.query('BEGIN');
    expect(await claim(b, 'b', 2, 60_000)).toEqual([1, 2]);
    await b.query('INSERT INTO work_log (item_id, owner) VALUES (1, $1)', ['b']);
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await expect(b.query('COMMIT')).rejects.toThrow();

    const { rows } = await admin.query<{ leased: number; logged: number }>(
      `SELECT (SELECT count(*)::integer FROM items WHERE owner IS NOT NULL OR done_by IS NOT NULL) AS leased,
              (SELECT count(*)::integer FROM work_log) AS logged`,
    );
    expect(rows[0]).toEqual({ leased: 0, logged: 0 });
    // The same items are free for the next claimant at once: nothing waits for a lease that never was.
    const c = await open();
    expect(await inTransaction(c, () => claim(c, 'c', 2, 60_000))).toEqual([1, 2]);
  });
});

describe(`the PostgreSQL harness ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();

  it('stop() shuts a server down and removes its folder; a second stop() is harmless', async () => {
    // A second server beside the file's own: each test file may start its own without clashing.
    const other = await startPostgres();
    expect(other.url).not.toBe(server().url);
    const client = await connect(other.url);
    expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await client.end();
    await other.stop();
    await other.stop();
    expect(existsSync(other.dataDir)).toBe(false);
    await expect(connect(other.url)).rejects.toThrow(/ECONNREFUSED/);
  });

  describe('when the server cannot start', () => {
    let fakes: string;
    beforeEach(() => {
      // Stand-ins for initdb and postgres, run by the same user as the real ones (hence readable by all).
      fakes = mkdtempSync(path.join(tmpdir(), 'eventor-bot-pg-fakes-'));
      chmodSync(fakes, 0o777);
    });
    afterEach(() => rmSync(fakes, { recursive: true, force: true }));

    const script = (name: string, body: string) => {
      writeFileSync(path.join(fakes, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    };

    it('says in one line that initdb failed, and removes its folder', async () => {
      // initdb is called as `initdb -D <folder>/data …`: the stand-in notes the folder, then fails.
      script('initdb', `echo "$2" > ${fakes}/data-dir; echo "initdb: error: the disk is full" >&2; exit 1`);
      script('postgres', 'exit 1');
      const error = await startPostgres({ binaries: fakes }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PostgresUnavailable);
      expect((error as Error).message).toBe('initdb failed: initdb: error: the disk is full');
      const dataDir = readFileSync(path.join(fakes, 'data-dir'), 'utf8').trim();
      expect(dataDir).toMatch(/eventor-bot-pg-.+\/data$/);
      expect(existsSync(path.dirname(dataDir))).toBe(false);
    });

    it('tries another port when its port is taken, a bounded number of times, then says why', async () => {
      script('initdb', 'mkdir -p "$2"');
      script(
        'postgres',
        `echo "$4" >> ${fakes}/ports; echo 'LOG:  could not bind IPv4 address "127.0.0.1": Address already in use' >&2; exit 1`,
      );
      const error = await startPostgres({ binaries: fakes }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PostgresUnavailable);
      expect((error as Error).message).toMatch(/^the server did not start: .*Address already in use$/);
      const ports = readFileSync(path.join(fakes, 'ports'), 'utf8').trim().split('\n');
      expect(ports).toHaveLength(PORT_ATTEMPTS);
      expect(ports.every((port) => /^\d+$/.test(port))).toBe(true);
    });
  });
});
