/**
 * Leases and the member sweep's progress on PostgreSQL (migration 2, docs/decisions/feed-leases.md).
 * Each method is one statement: an upsert whose WHERE is the check. On a conflict PostgreSQL locks
 * the row and evaluates the WHERE on its latest version, and a second process inserting the same
 * new name waits for the first and then finds its row, so two never both take one lease.
 */
import type { LeaseHolder, LeaseStore, SweepStore } from '../interfaces.js';
import type { PartContext } from './connection.js';

export class PostgresLeaseStore implements LeaseStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = this.#ctx.now();
    const { rowCount } = await this.#ctx.db.query(
      `INSERT INTO leases (name, owner, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE leases.owner = excluded.owner OR leases.expires_at <= $4`,
      [name, owner, new Date(now.getTime() + ttlMs).toISOString(), now.toISOString()],
    );
    return (rowCount ?? 0) > 0;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.#ctx.db.query('DELETE FROM leases WHERE name = $1 AND owner = $2', [name, owner]);
  }

  async holder(name: string): Promise<LeaseHolder | null> {
    const { rows } = await this.#ctx.db.query<{ owner: string; expires_at: string }>(
      'SELECT owner, expires_at FROM leases WHERE name = $1 AND expires_at > $2',
      [name, this.#ctx.now().toISOString()],
    );
    const row = rows[0];
    return row ? { owner: row.owner, expiresAt: row.expires_at } : null;
  }

  async held(prefix: string): Promise<Array<LeaseHolder & { name: string }>> {
    const { rows } = await this.#ctx.db.query<{ name: string; owner: string; expires_at: string }>(
      `SELECT name, owner, expires_at FROM leases
       WHERE substr(name, 1, length($1::text)) = $1::text AND expires_at > $2 ORDER BY name`,
      [prefix, this.#ctx.now().toISOString()],
    );
    return rows.map((r) => ({ name: r.name, owner: r.owner, expiresAt: r.expires_at }));
  }
}

export class PostgresSweepStore implements SweepStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async startSweep(guildId: string, now: Date, intervalMs: number): Promise<boolean> {
    const { rowCount } = await this.#ctx.db.query(
      `INSERT INTO member_sweeps (guild_id, swept_at) VALUES ($1, $2)
       ON CONFLICT (guild_id) DO UPDATE SET swept_at = excluded.swept_at WHERE member_sweeps.swept_at <= $3`,
      [guildId, now.toISOString(), new Date(now.getTime() - intervalMs).toISOString()],
    );
    return (rowCount ?? 0) > 0;
  }

  async sweptAt(guildId: string): Promise<string | null> {
    const { rows } = await this.#ctx.db.query<{ swept_at: string }>(
      'SELECT swept_at FROM member_sweeps WHERE guild_id = $1',
      [guildId],
    );
    return rows[0]?.swept_at ?? null;
  }
}
