/** Servers the bot was removed from, whose data goes once the grace period has passed (migration 8). */
import type { DepartureStore } from '../interfaces.js';
import type { SqliteContext, Synchronous } from './gate.js';

export class SqliteDepartureStore implements Synchronous<DepartureStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  recordGuildDeparture(guildId: string): boolean {
    return (
      this.#ctx.db
        .prepare('INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING')
        .run(guildId, this.#ctx.now().toISOString()).changes > 0
    );
  }

  cancelGuildDeparture(guildId: string): boolean {
    return this.#ctx.db.prepare('DELETE FROM guild_departures WHERE guild_id = ?').run(guildId).changes > 0;
  }

  guildDepartures(): Array<{ guildId: string; leftAt: string }> {
    const rows = this.#ctx.db
      .prepare('SELECT guild_id, left_at FROM guild_departures ORDER BY left_at, guild_id')
      .all() as Array<{ guild_id: string; left_at: string }>;
    return rows.map((r) => ({ guildId: r.guild_id, leftAt: r.left_at }));
  }
}
