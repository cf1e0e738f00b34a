/** The cups admins define, on PostgreSQL (migrations 5 and 6). */
import type { CupFields, CupRow, CupStore } from '../interfaces.js';
import { type CupTableRow, cupOf } from '../rows.js';
import { int, lockName, type PartContext, type Queryable } from './connection.js';

const COLUMNS = 'id, guild_id, name, rules, post_standings, created_at, updated_at';

async function named(q: Queryable, guildId: string, nameKey: string): Promise<number | null> {
  const { rows } = await q.query<{ id: string | number }>('SELECT id FROM cups WHERE guild_id = $1 AND name_key = $2', [
    guildId,
    nameKey,
  ]);
  return rows[0] ? int(rows[0].id) : null;
}

async function one(q: Queryable, guildId: string, id: number): Promise<CupRow | null> {
  const { rows } = await q.query<CupTableRow>(`SELECT ${COLUMNS} FROM cups WHERE guild_id = $1 AND id = $2`, [
    guildId,
    id,
  ]);
  return rows[0] ? cupOf(rows[0]) : null;
}

export class PostgresCupStore implements CupStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async list(guildId: string): Promise<CupRow[]> {
    const { rows } = await this.#ctx.db.query<CupTableRow>(
      `SELECT ${COLUMNS} FROM cups WHERE guild_id = $1 ORDER BY name_key, id`,
      [guildId],
    );
    return rows.map(cupOf);
  }

  get(guildId: string, id: number): Promise<CupRow | null> {
    return one(this.#ctx.db, guildId, id);
  }

  create(guildId: string, cup: CupFields, max: number): Promise<CupRow | 'exists' | 'full'> {
    return this.#ctx.db.atomic(async (q) => {
      // The server's cups change one at a time: the name and the count are checked with nobody between.
      await lockName(q, 'cups', guildId);
      if ((await named(q, guildId, cup.nameKey)) !== null) return 'exists';
      const { rows } = await q.query<{ count: string | number }>(
        'SELECT count(*) AS count FROM cups WHERE guild_id = $1',
        [guildId],
      );
      if (int(rows[0]!.count) >= max) return 'full';
      const at = this.#ctx.now().toISOString();
      const inserted = await q.query<CupTableRow>(
        `INSERT INTO cups (guild_id, name, name_key, rules, post_standings, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [guildId, cup.name, cup.nameKey, cup.rules, cup.postStandings === true ? 1 : 0, at, at],
      );
      return cupOf(inserted.rows[0]!);
    });
  }

  update(guildId: string, id: number, cup: CupFields): Promise<CupRow | 'gone' | 'exists'> {
    return this.#ctx.db.atomic(async (q) => {
      await lockName(q, 'cups', guildId);
      if ((await one(q, guildId, id)) === null) return 'gone';
      const other = await named(q, guildId, cup.nameKey);
      if (other !== null && other !== id) return 'exists';
      const updated = await q.query<CupTableRow>(
        `UPDATE cups SET name = $1, name_key = $2, rules = $3, post_standings = coalesce($4, post_standings),
         updated_at = $5 WHERE guild_id = $6 AND id = $7 RETURNING ${COLUMNS}`,
        [
          cup.name,
          cup.nameKey,
          cup.rules,
          cup.postStandings === undefined ? null : cup.postStandings ? 1 : 0,
          this.#ctx.now().toISOString(),
          guildId,
          id,
        ],
      );
      return cupOf(updated.rows[0]!);
    });
  }

  async delete(guildId: string, id: number): Promise<boolean> {
    const { rowCount } = await this.#ctx.db.query('DELETE FROM cups WHERE guild_id = $1 AND id = $2', [guildId, id]);
    return (rowCount ?? 0) > 0;
  }
}
