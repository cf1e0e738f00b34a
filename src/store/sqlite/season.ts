/** The club's season (migration 14): events found, their results kept, how far looking has come. */
import type { SeasonEventRow, SeasonScan, SeasonStore } from '../interfaces.js';
import { type SeasonEventTableRow, seasonEventOf } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

export class SqliteSeasonStore implements Synchronous<SeasonStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  events(guildId: string, source: string, fromDay: string, toDay: string): SeasonEventRow[] {
    const rows = prepared(
      this.#ctx.db,
      `SELECT event_id, first_day, event, races, fetched_at, settled FROM season_events
       WHERE guild_id = ? AND source = ? AND first_day >= ? AND first_day <= ? ORDER BY first_day, event_id`,
    ).all(guildId, source, fromDay, toDay) as SeasonEventTableRow[];
    return rows.map(seasonEventOf);
  }

  scan(guildId: string, source: string, year: number): SeasonScan | null {
    const row = prepared(
      this.#ctx.db,
      'SELECT scanned_through, scanned_at FROM season_scans WHERE guild_id = ? AND source = ? AND year = ?',
    ).get(guildId, source, year) as { scanned_through: string; scanned_at: string } | undefined;
    return row ? { scannedThrough: row.scanned_through, scannedAt: row.scanned_at } : null;
  }

  recordScan(
    guildId: string,
    source: string,
    year: number,
    scannedThrough: string,
    found: ReadonlyArray<{ eventId: string; firstDay: string; event: string }>,
  ): void {
    const db = this.#ctx.db;
    db.transaction(() => {
      db.prepare('DELETE FROM season_events WHERE guild_id = ? AND source <> ?').run(guildId, source);
      db.prepare('DELETE FROM season_scans WHERE guild_id = ? AND source <> ?').run(guildId, source);
      const put = prepared(
        db,
        `INSERT INTO season_events (guild_id, source, event_id, first_day, event) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, source, event_id) DO UPDATE SET first_day = excluded.first_day, event = excluded.event`,
      );
      for (const e of found) put.run(guildId, source, e.eventId, e.firstDay, e.event);
      prepared(
        db,
        `INSERT INTO season_scans (guild_id, source, year, scanned_through, scanned_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, source, year) DO UPDATE SET scanned_through = excluded.scanned_through, scanned_at = excluded.scanned_at`,
      ).run(guildId, source, year, scannedThrough, this.#ctx.now().toISOString());
    }).immediate();
  }

  putResults(guildId: string, source: string, eventId: string, races: string, settled: boolean): boolean {
    return (
      prepared(
        this.#ctx.db,
        `UPDATE season_events SET races = ?, fetched_at = ?, settled = ?
         WHERE guild_id = ? AND source = ? AND event_id = ?`,
      ).run(races, this.#ctx.now().toISOString(), settled ? 1 : 0, guildId, source, eventId).changes > 0
    );
  }
}
