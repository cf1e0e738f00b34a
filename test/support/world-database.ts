import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeEach, inject, vi } from 'vitest';
import type { LoopbackWorldOptions } from '../../harness/loopback/world.js';
import { NEEDS_POSTGRES } from './postgres.js';

/**
 * Setup file of the `postgres-feeds` project (vitest.config.ts): the store and feed tests again,
 * unchanged, with every loopback world's store in a fresh PostgreSQL database of the project's
 * server (`postgres-project.ts`) instead of a fresh SQLite file. A test that is about SQLite itself
 * (its file, WAL, backups) says so with `[SQLite only]` in its name (`sqlite-only.ts`) and is
 * skipped here.
 */
const onPostgres = process.env.EVENTOR_BOT_TEST_DATABASE === 'postgres';
const base = onPostgres ? inject('postgresUrl') : null;
const unavailable = onPostgres ? inject('postgresUnavailable') : null;

/**
 * A new, empty database on the project's server: one per world, as each world had a new file. Files
 * share a worker (vitest.config.ts: no isolation), and this file runs again for each of them, so the
 * name is unique without a counter and each creation has its own short connection.
 */
async function freshDatabase(): Promise<string> {
  if (base === null) throw new Error(`PostgreSQL is not running: ${unavailable}`);
  const name = `world_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

vi.mock(import('../../harness/loopback/world.js'), async (original) => {
  const world = await original();
  if (!onPostgres) return world;
  return {
    ...world,
    startLoopbackWorld: async (options: LoopbackWorldOptions) => {
      const started = await world.startLoopbackWorld({
        ...options,
        databaseUrl: options.databaseUrl ?? (await freshDatabase()),
      });
      // Guards the project itself: a world that quietly stayed on SQLite would prove nothing here.
      if (started.bot.store.dialect !== 'postgres')
        throw new Error(`the world's store is on ${started.bot.store.dialect}`);
      return started;
    },
  };
});

beforeEach((context) => {
  if (!onPostgres) return;
  if (base === null) context.skip(`${NEEDS_POSTGRES} ${unavailable ?? 'PostgreSQL did not start'}`);
  else if (context.task.fullName.includes('[SQLite only]')) context.skip('[SQLite only]: about the SQLite file itself');
});
