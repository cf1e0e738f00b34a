/** Race day, live, on PostgreSQL (migration 6): each server's races and their live competitions, each competition's last poll. */
import type { LiveRaceRow, LiveSnapshotRow, LiveStore } from '../interfaces.js';
import { type LiveRaceTableRow, liveRaceOf, type LiveSnapshotTableRow, liveSnapshotOf } from '../rows.js';
import type { PartContext } from './connection.js';

const RACE_COLUMNS =
  'guild_id, event_id, race_id, race_day, race, competition_id, how, candidates, final_at, results_url, updated_at';

export class PostgresLiveStore implements LiveStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async races(guildId: string, fromDay: string, toDay: string): Promise<LiveRaceRow[]> {
    const { rows } = await this.#ctx.db.query<LiveRaceTableRow>(
      `SELECT ${RACE_COLUMNS} FROM live_races WHERE guild_id = $1 AND race_day >= $2 AND race_day <= $3
       ORDER BY race_day, event_id, race_id`,
      [guildId, fromDay, toDay],
    );
    return rows.map(liveRaceOf);
  }

  async race(guildId: string, eventId: string, raceId: string): Promise<LiveRaceRow | null> {
    const { rows } = await this.#ctx.db.query<LiveRaceTableRow>(
      `SELECT ${RACE_COLUMNS} FROM live_races WHERE guild_id = $1 AND event_id = $2 AND race_id = $3`,
      [guildId, eventId, raceId],
    );
    return rows[0] ? liveRaceOf(rows[0]) : null;
  }

  async followed(fromDay: string, toDay: string): Promise<LiveRaceRow[]> {
    const { rows } = await this.#ctx.db.query<LiveRaceTableRow>(
      `SELECT ${RACE_COLUMNS} FROM live_races WHERE race_day >= $1 AND race_day <= $2 AND competition_id IS NOT NULL
       ORDER BY competition_id, guild_id, event_id, race_id`,
      [fromDay, toDay],
    );
    return rows.map(liveRaceOf);
  }

  async putMatch(row: Omit<LiveRaceRow, 'finalAt' | 'resultsUrl' | 'updatedAt'>): Promise<LiveRaceRow> {
    // An admin's choice stays; a change of competition makes the board live again. Every SET
    // expression reads the row as it was.
    const { rows } = await this.#ctx.db.query<LiveRaceTableRow>(
      `INSERT INTO live_races (${RACE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL, $9)
       ON CONFLICT (guild_id, event_id, race_id) DO UPDATE SET
         race_day = excluded.race_day, race = excluded.race,
         final_at = CASE WHEN live_races.how = 'admin' OR live_races.competition_id IS NOT DISTINCT FROM excluded.competition_id
                         THEN live_races.final_at ELSE NULL END,
         results_url = CASE WHEN live_races.how = 'admin' OR live_races.competition_id IS NOT DISTINCT FROM excluded.competition_id
                            THEN live_races.results_url ELSE NULL END,
         competition_id = CASE WHEN live_races.how = 'admin' THEN live_races.competition_id ELSE excluded.competition_id END,
         candidates = CASE WHEN live_races.how = 'admin' THEN live_races.candidates ELSE excluded.candidates END,
         how = CASE WHEN live_races.how = 'admin' THEN live_races.how ELSE excluded.how END,
         updated_at = excluded.updated_at
       RETURNING ${RACE_COLUMNS}`,
      [
        row.guildId,
        row.eventId,
        row.raceId,
        row.raceDay,
        row.race,
        row.competitionId,
        row.how,
        row.candidates,
        this.#ctx.now().toISOString(),
      ],
    );
    return liveRaceOf(rows[0]!);
  }

  async choose(
    row: Pick<LiveRaceRow, 'guildId' | 'eventId' | 'raceId' | 'raceDay' | 'race'>,
    competitionId: number,
  ): Promise<LiveRaceRow> {
    const { rows } = await this.#ctx.db.query<LiveRaceTableRow>(
      `INSERT INTO live_races (${RACE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, 'admin', '[]', NULL, NULL, $7)
       ON CONFLICT (guild_id, event_id, race_id) DO UPDATE SET
         competition_id = excluded.competition_id, how = 'admin', candidates = '[]',
         final_at = NULL, results_url = NULL, updated_at = excluded.updated_at
       RETURNING ${RACE_COLUMNS}`,
      [row.guildId, row.eventId, row.raceId, row.raceDay, row.race, competitionId, this.#ctx.now().toISOString()],
    );
    return liveRaceOf(rows[0]!);
  }

  async markFinal(guildId: string, eventId: string, raceId: string, resultsUrl: string | null): Promise<boolean> {
    const now = this.#ctx.now().toISOString();
    const { rowCount } = await this.#ctx.db.query(
      `UPDATE live_races SET final_at = COALESCE(final_at, $1), results_url = COALESCE($2, results_url), updated_at = $1
       WHERE guild_id = $3 AND event_id = $4 AND race_id = $5`,
      [now, resultsUrl, guildId, eventId, raceId],
    );
    return (rowCount ?? 0) > 0;
  }

  async snapshot(competitionId: number): Promise<LiveSnapshotRow | null> {
    const { rows } = await this.#ctx.db.query<LiveSnapshotTableRow>(
      'SELECT competition_id, state, read_at, changed_at FROM live_snapshots WHERE competition_id = $1',
      [String(competitionId)],
    );
    return rows[0] ? liveSnapshotOf(rows[0]) : null;
  }

  async putSnapshot(competitionId: number, state: string, changedAt: string | null): Promise<void> {
    await this.#ctx.db.query(
      `INSERT INTO live_snapshots (competition_id, state, read_at, changed_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (competition_id) DO UPDATE SET state = excluded.state, read_at = excluded.read_at,
         changed_at = excluded.changed_at`,
      [String(competitionId), state, this.#ctx.now().toISOString(), changedAt],
    );
  }

  prune(beforeDay: string): Promise<number> {
    return this.#ctx.db.atomic(async (q) => {
      const races = await q.query('DELETE FROM live_races WHERE race_day < $1', [beforeDay]);
      // Read times are instants; a day's first instant is later than any instant of the day before it.
      const snapshots = await q.query('DELETE FROM live_snapshots WHERE read_at < $1', [beforeDay]);
      return (races.rowCount ?? 0) + (snapshots.rowCount ?? 0);
    });
  }
}
