/** Each running process's heartbeat on PostgreSQL (migration 4, docs/operators.md#monitoring). */
import pg from 'pg';
import { StoreError } from '../errors.js';
import type { Heartbeat, HeartbeatStore } from '../interfaces.js';
import { heartbeatFromRow, HEARTBEAT_COLUMNS, type HeartbeatRow, heartbeatValues } from '../rows.js';
import type { PartContext } from './connection.js';
import { describeTarget } from './target.js';

/** `eventor-bot health` runs every half minute in a container: it waits no longer than this for the server. */
const CONNECT_TIMEOUT_MS = 5_000;

const UPDATES = HEARTBEAT_COLUMNS.filter((c) => c !== 'process')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

export class PostgresHeartbeatStore implements HeartbeatStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async beat(heartbeat: Heartbeat): Promise<void> {
    await this.#ctx.db.query(
      `INSERT INTO heartbeats (${HEARTBEAT_COLUMNS.join(', ')}) VALUES (${HEARTBEAT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (process) DO UPDATE SET ${UPDATES}`,
      heartbeatValues(heartbeat),
    );
  }

  async heartbeats(): Promise<Heartbeat[]> {
    const { rows } = await this.#ctx.db.query<HeartbeatRow>(
      `SELECT ${HEARTBEAT_COLUMNS.join(', ')} FROM heartbeats ORDER BY process`,
    );
    return rows.map(heartbeatFromRow);
  }

  async forget(process: string): Promise<void> {
    await this.#ctx.db.query('DELETE FROM heartbeats WHERE process = $1', [process]);
  }
}

/**
 * The heartbeats in the PostgreSQL database `url` names, read on one short-lived connection
 * without migrating anything (`eventor-bot health`). An empty list when the database has no
 * table of them yet.
 */
export async function readPostgresHeartbeats(url: string): Promise<{ description: string; beats: Heartbeat[] }> {
  const target = describeTarget(url);
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'eventor-bot health',
  });
  // A connection dropped by the server is reported by the query that needed it.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('heartbeats') IS NOT NULL AS present",
    );
    if (!rows[0]?.present) return { description: target.description, beats: [] };
    const beats = await client.query<HeartbeatRow>(
      `SELECT ${HEARTBEAT_COLUMNS.join(', ')} FROM heartbeats ORDER BY process`,
    );
    return { description: target.description, beats: beats.rows.map(heartbeatFromRow) };
  } catch (error) {
    throw new StoreError(`cannot read the ${target.description}: ${target.scrub(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
