/**
 * Leases (migration 11, docs/decisions/feed-leases.md): which process does a shared piece of work,
 * until when. Each method is one statement, so one step under SQLite's write lock.
 */
import type { LeaseHolder, LeaseStore, SweepStore } from '../interfaces.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

export class SqliteLeaseStore implements Synchronous<LeaseStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  acquire(name: string, owner: string, ttlMs: number): boolean {
    const now = this.#ctx.now();
    // The upsert's WHERE is the check: a live lease of another owner is left as it is (no change).
    return (
      prepared(
        this.#ctx.db,
        `INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE leases.owner = excluded.owner OR leases.expires_at <= ?`,
      ).run(name, owner, new Date(now.getTime() + ttlMs).toISOString(), now.toISOString()).changes > 0
    );
  }

  release(name: string, owner: string): void {
    prepared(this.#ctx.db, 'DELETE FROM leases WHERE name = ? AND owner = ?').run(name, owner);
  }

  holder(name: string): LeaseHolder | null {
    const row = prepared(this.#ctx.db, 'SELECT owner, expires_at FROM leases WHERE name = ? AND expires_at > ?').get(
      name,
      this.#ctx.now().toISOString(),
    ) as { owner: string; expires_at: string } | undefined;
    return row ? { owner: row.owner, expiresAt: row.expires_at } : null;
  }

  held(prefix: string): Array<LeaseHolder & { name: string }> {
    const rows = prepared(
      this.#ctx.db,
      `SELECT name, owner, expires_at FROM leases
       WHERE substr(name, 1, length(?)) = ? AND expires_at > ? ORDER BY name`,
    ).all(prefix, prefix, this.#ctx.now().toISOString()) as Array<{ name: string; owner: string; expires_at: string }>;
    return rows.map((r) => ({ name: r.name, owner: r.owner, expiresAt: r.expires_at }));
  }
}

/** The member sweep's progress (member_sweeps, migration 11). */
export class SqliteSweepStore implements Synchronous<SweepStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  startSweep(guildId: string, now: Date, intervalMs: number): boolean {
    return (
      prepared(
        this.#ctx.db,
        `INSERT INTO member_sweeps (guild_id, swept_at) VALUES (?, ?)
         ON CONFLICT (guild_id) DO UPDATE SET swept_at = excluded.swept_at WHERE member_sweeps.swept_at <= ?`,
      ).run(guildId, now.toISOString(), new Date(now.getTime() - intervalMs).toISOString()).changes > 0
    );
  }

  sweptAt(guildId: string): string | null {
    const row = prepared(this.#ctx.db, 'SELECT swept_at FROM member_sweeps WHERE guild_id = ?').get(guildId) as
      { swept_at: string } | undefined;
    return row?.swept_at ?? null;
  }
}
