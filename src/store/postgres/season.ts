/** The club's season on PostgreSQL (migration 5): events found, their results kept, how far looking has come. */
import type { SeasonEventRow, SeasonScan, SeasonStore } from '../interfaces.js';
import { type SeasonEventTableRow, seasonEventOf } from '../rows.js';
import type { PartContext } from './connection.js';

export class PostgresSeasonStore implements SeasonStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async events(guildId: string, source: string, fromDay: string, toDay: string): Promise<SeasonEventRow[]> {
    const { rows } = await this.#ctx.db.query<SeasonEventTableRow>(
      `SELECT event_id, first_day, event, races, fetched_at, settled FROM season_events
       WHERE guild_id = $1 AND source = $2 AND first_day >= $3 AND first_day <= $4 ORDER BY first_day, event_id`,
      [guildId, source, fromDay, toDay],
    );
    return rows.map(seasonEventOf);
  }

  async scan(guildId: string, source: string, year: number): Promise<SeasonScan | null> {
    const { rows } = await this.#ctx.db.query<{ scanned_through: string; scanned_at: string }>(
      'SELECT scanned_through, scanned_at FROM season_scans WHERE guild_id = $1 AND source = $2 AND year = $3',
      [guildId, source, year],
    );
    const row = rows[0];
    return row ? { scannedThrough: row.scanned_through, scannedAt: row.scanned_at } : null;
  }

  recordScan(
    guildId: string,
    source: string,
    year: number,
    scannedThrough: string,
    found: ReadonlyArray<{ eventId: string; firstDay: string; event: string }>,
  ): Promise<void> {
    return this.#ctx.db.atomic(async (q) => {
      await q.query('DELETE FROM season_events WHERE guild_id = $1 AND source <> $2', [guildId, source]);
      await q.query('DELETE FROM season_scans WHERE guild_id = $1 AND source <> $2', [guildId, source]);
      for (const e of found)
        await q.query(
          `INSERT INTO season_events (guild_id, source, event_id, first_day, event) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (guild_id, source, event_id) DO UPDATE SET first_day = excluded.first_day, event = excluded.event`,
          [guildId, source, e.eventId, e.firstDay, e.event],
        );
      await q.query(
        `INSERT INTO season_scans (guild_id, source, year, scanned_through, scanned_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (guild_id, source, year) DO UPDATE SET scanned_through = excluded.scanned_through, scanned_at = excluded.scanned_at`,
        [guildId, source, year, scannedThrough, this.#ctx.now().toISOString()],
      );
    });
  }

  async putResults(
    guildId: string,
    source: string,
    eventId: string,
    races: string,
    settled: boolean,
  ): Promise<boolean> {
    const { rowCount } = await this.#ctx.db.query(
      `UPDATE season_events SET races = $1, fetched_at = $2, settled = $3
       WHERE guild_id = $4 AND source = $5 AND event_id = $6`,
      [races, this.#ctx.now().toISOString(), settled ? 1 : 0, guildId, source, eventId],
    );
    return (rowCount ?? 0) > 0;
  }
}
