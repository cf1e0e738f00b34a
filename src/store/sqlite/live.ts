/** Race day, live (migration 16): each server's races and their live competitions, and each competition's last poll. */
import type { LiveRaceRow, LiveSnapshotRow, LiveStore } from '../interfaces.js';
import { type LiveRaceTableRow, liveRaceOf, type LiveSnapshotTableRow, liveSnapshotOf } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

const RACE_COLUMNS =
  'guild_id, event_id, race_id, race_day, race, competition_id, how, candidates, final_at, results_url, updated_at';

export class SqliteLiveStore implements Synchronous<LiveStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  races(guildId: string, fromDay: string, toDay: string): LiveRaceRow[] {
    const rows = prepared(
      this.#ctx.db,
      `SELECT ${RACE_COLUMNS} FROM live_races WHERE guild_id = ? AND race_day >= ? AND race_day <= ?
       ORDER BY race_day, event_id, race_id`,
    ).all(guildId, fromDay, toDay) as LiveRaceTableRow[];
    return rows.map(liveRaceOf);
  }

  race(guildId: string, eventId: string, raceId: string): LiveRaceRow | null {
    const row = prepared(
      this.#ctx.db,
      `SELECT ${RACE_COLUMNS} FROM live_races WHERE guild_id = ? AND event_id = ? AND race_id = ?`,
    ).get(guildId, eventId, raceId) as LiveRaceTableRow | undefined;
    return row ? liveRaceOf(row) : null;
  }

  followed(fromDay: string, toDay: string): LiveRaceRow[] {
    const rows = prepared(
      this.#ctx.db,
      `SELECT ${RACE_COLUMNS} FROM live_races WHERE race_day >= ? AND race_day <= ? AND competition_id IS NOT NULL
       ORDER BY competition_id, guild_id, event_id, race_id`,
    ).all(fromDay, toDay) as LiveRaceTableRow[];
    return rows.map(liveRaceOf);
  }

  putMatch(row: Omit<LiveRaceRow, 'finalAt' | 'resultsUrl' | 'updatedAt'>): LiveRaceRow {
    const now = this.#ctx.now().toISOString();
    // An admin's choice stays; a change of competition makes the board live again.
    prepared(
      this.#ctx.db,
      `INSERT INTO live_races (${RACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)
       ON CONFLICT (guild_id, event_id, race_id) DO UPDATE SET
         race_day = excluded.race_day, race = excluded.race,
         final_at = CASE WHEN live_races.how = 'admin' OR live_races.competition_id IS excluded.competition_id
                         THEN live_races.final_at ELSE NULL END,
         results_url = CASE WHEN live_races.how = 'admin' OR live_races.competition_id IS excluded.competition_id
                            THEN live_races.results_url ELSE NULL END,
         competition_id = CASE WHEN live_races.how = 'admin' THEN live_races.competition_id ELSE excluded.competition_id END,
         candidates = CASE WHEN live_races.how = 'admin' THEN live_races.candidates ELSE excluded.candidates END,
         how = CASE WHEN live_races.how = 'admin' THEN live_races.how ELSE excluded.how END,
         updated_at = excluded.updated_at`,
    ).run(row.guildId, row.eventId, row.raceId, row.raceDay, row.race, row.competitionId, row.how, row.candidates, now);
    return this.race(row.guildId, row.eventId, row.raceId)!;
  }

  choose(
    row: Pick<LiveRaceRow, 'guildId' | 'eventId' | 'raceId' | 'raceDay' | 'race'>,
    competitionId: number,
  ): LiveRaceRow {
    const now = this.#ctx.now().toISOString();
    prepared(
      this.#ctx.db,
      `INSERT INTO live_races (${RACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 'admin', '[]', NULL, NULL, ?)
       ON CONFLICT (guild_id, event_id, race_id) DO UPDATE SET
         competition_id = excluded.competition_id, how = 'admin', candidates = '[]',
         final_at = NULL, results_url = NULL, updated_at = excluded.updated_at`,
    ).run(row.guildId, row.eventId, row.raceId, row.raceDay, row.race, competitionId, now);
    return this.race(row.guildId, row.eventId, row.raceId)!;
  }

  markFinal(guildId: string, eventId: string, raceId: string, resultsUrl: string | null): boolean {
    const now = this.#ctx.now().toISOString();
    return (
      prepared(
        this.#ctx.db,
        `UPDATE live_races SET final_at = COALESCE(final_at, ?), results_url = COALESCE(?, results_url), updated_at = ?
         WHERE guild_id = ? AND event_id = ? AND race_id = ?`,
      ).run(now, resultsUrl, now, guildId, eventId, raceId).changes > 0
    );
  }

  snapshot(competitionId: number): LiveSnapshotRow | null {
    const row = prepared(
      this.#ctx.db,
      'SELECT competition_id, state, read_at, changed_at FROM live_snapshots WHERE competition_id = ?',
    ).get(String(competitionId)) as LiveSnapshotTableRow | undefined;
    return row ? liveSnapshotOf(row) : null;
  }

  putSnapshot(competitionId: number, state: string, changedAt: string | null): void {
    prepared(
      this.#ctx.db,
      `INSERT INTO live_snapshots (competition_id, state, read_at, changed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (competition_id) DO UPDATE SET state = excluded.state, read_at = excluded.read_at,
         changed_at = excluded.changed_at`,
    ).run(String(competitionId), state, this.#ctx.now().toISOString(), changedAt);
  }

  prune(beforeDay: string): number {
    const db = this.#ctx.db;
    return db.transaction(() => {
      const races = prepared(db, 'DELETE FROM live_races WHERE race_day < ?').run(beforeDay).changes;
      // Read times are instants; a day's first instant is later than any instant of the day before it.
      const snapshots = prepared(db, 'DELETE FROM live_snapshots WHERE read_at < ?').run(beforeDay).changes;
      return races + snapshots;
    })();
  }
}
