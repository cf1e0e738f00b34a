/** Servers the bot was removed from, on PostgreSQL (guild_departures). */
import type { DepartureStore } from '../interfaces.js';
import type { PartContext } from './connection.js';

export class PostgresDepartureStore implements DepartureStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async recordGuildDeparture(guildId: string): Promise<boolean> {
    const { rowCount } = await this.#ctx.db.query(
      'INSERT INTO guild_departures (guild_id, left_at) VALUES ($1, $2) ON CONFLICT (guild_id) DO NOTHING',
      [guildId, this.#ctx.now().toISOString()],
    );
    return (rowCount ?? 0) > 0;
  }

  async cancelGuildDeparture(guildId: string): Promise<boolean> {
    const { rowCount } = await this.#ctx.db.query('DELETE FROM guild_departures WHERE guild_id = $1', [guildId]);
    return (rowCount ?? 0) > 0;
  }

  async guildDepartures(): Promise<Array<{ guildId: string; leftAt: string }>> {
    const { rows } = await this.#ctx.db.query<{ guild_id: string; left_at: string }>(
      'SELECT guild_id, left_at FROM guild_departures ORDER BY left_at, guild_id',
    );
    return rows.map((r) => ({ guildId: r.guild_id, leftAt: r.left_at }));
  }
}
