import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Heartbeat } from '../../src/store/interfaces.js';
import { readHeartbeats } from '../../src/store/open.js';
import { testNow } from '../support/clock.js';
import { describeEachDialect } from '../support/stores.js';

/**
 * The heartbeats part on every database (docs/operators.md#monitoring): each process's latest
 * replaces its earlier one, two processes keep one each, and `eventor-bot health`'s read takes
 * them from another connection without writing anything.
 */

const at = (ms: number): string => new Date(testNow().getTime() + ms).toISOString();

function beat(shards: string, shardCount: number, beatAtMs: number, change: Partial<Heartbeat> = {}): Heartbeat {
  return {
    process: `${shards}/${shardCount}`,
    shardCount,
    shards,
    pid: 100 + Number(shards.slice(0, 1)),
    host: 'host-å',
    startedAt: at(0),
    beatAt: at(beatAtMs),
    stoppedAt: null,
    gateway: 'ready',
    gatewaySince: at(0),
    feedsRanAt: null,
    eventorOkAt: null,
    eventorFailedAt: null,
    discordOkAt: null,
    discordFailedAt: null,
    ...change,
  };
}

describeEachDialect('heartbeats', (stores) => {
  it('a process’s latest heartbeat replaces its earlier one; each process keeps its own; forget drops one', async () => {
    const factory = stores();
    const store = await factory.fresh();
    // Two processes, each with its own connections, as two bot processes on one database.
    const other = await factory.again(store);
    expect(await store.heartbeats.heartbeats()).toEqual([]);
    await store.heartbeats.beat(beat('0', 2, 0));
    await other.heartbeats.beat(beat('1', 2, 0, { gateway: 'connecting' }));
    const later = beat('0', 2, 30_000, {
      feedsRanAt: at(20_000),
      eventorOkAt: at(10_000),
      eventorFailedAt: at(5_000),
      discordOkAt: at(29_000),
      discordFailedAt: at(1_000),
    });
    await store.heartbeats.beat(later);
    expect(await other.heartbeats.heartbeats()).toEqual([later, beat('1', 2, 0, { gateway: 'connecting' })]);
    const stopped = { ...later, beatAt: at(40_000), stoppedAt: at(40_000) };
    await store.heartbeats.beat(stopped);
    await other.heartbeats.forget('1/2');
    expect(await store.heartbeats.heartbeats()).toEqual([stopped]);

    // What `health` reads, from outside the bot: the same rows.
    const where = factory.location(store);
    const read = await readHeartbeats(
      factory.dialect === 'postgres' ? { databasePath: 'unused', databaseUrl: where } : { databasePath: where },
    );
    expect(read.beats).toEqual([stopped]);
    expect(read.description).toMatch(factory.dialect === 'postgres' ? /^PostgreSQL database "/ : /\.sqlite$/);
  });
});

it('health’s read of a SQLite file: no file is said and none is made; a database without the table has no heartbeats', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-heartbeats-'));
  try {
    const missing = path.join(dir, 'missing.sqlite');
    await expect(readHeartbeats({ databasePath: missing })).rejects.toThrow(
      `there is no database at ${missing}: the bot has not started with this DATABASE_PATH`,
    );
    expect(existsSync(missing)).toBe(false);
    const old = path.join(dir, 'old.sqlite');
    new Database(old).close();
    expect((await readHeartbeats({ databasePath: old })).beats).toEqual([]);
    const junk = path.join(dir, 'junk.sqlite');
    await writeFile(junk, 'not a database '.repeat(100));
    await expect(readHeartbeats({ databasePath: junk })).rejects.toThrow(/^cannot read the database .*junk\.sqlite: /);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
