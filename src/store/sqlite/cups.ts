/** The cups admins define (migrations 14 and 15). */
import type { CupFields, CupRow, CupStore } from '../interfaces.js';
import { type CupTableRow, cupOf } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

const COLUMNS = 'id, guild_id, name, rules, post_standings, created_at, updated_at';

export class SqliteCupStore implements Synchronous<CupStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  list(guildId: string): CupRow[] {
    const rows = prepared(this.#ctx.db, `SELECT ${COLUMNS} FROM cups WHERE guild_id = ? ORDER BY name_key, id`).all(
      guildId,
    ) as CupTableRow[];
    return rows.map(cupOf);
  }

  get(guildId: string, id: number): CupRow | null {
    const row = prepared(this.#ctx.db, `SELECT ${COLUMNS} FROM cups WHERE guild_id = ? AND id = ?`).get(guildId, id) as
      CupTableRow | undefined;
    return row ? cupOf(row) : null;
  }

  #named(guildId: string, nameKey: string): number | null {
    const row = prepared(this.#ctx.db, 'SELECT id FROM cups WHERE guild_id = ? AND name_key = ?').get(
      guildId,
      nameKey,
    ) as { id: number } | undefined;
    return row?.id ?? null;
  }

  create(guildId: string, cup: CupFields, max: number): CupRow | 'exists' | 'full' {
    const db = this.#ctx.db;
    return db
      .transaction((): CupRow | 'exists' | 'full' => {
        if (this.#named(guildId, cup.nameKey) !== null) return 'exists';
        const { count } = prepared(db, 'SELECT count(*) AS count FROM cups WHERE guild_id = ?').get(guildId) as {
          count: number;
        };
        if (count >= max) return 'full';
        const at = this.#ctx.now().toISOString();
        const { lastInsertRowid } = prepared(
          db,
          'INSERT INTO cups (guild_id, name, name_key, rules, post_standings, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ).run(guildId, cup.name, cup.nameKey, cup.rules, cup.postStandings === true ? 1 : 0, at, at);
        return this.get(guildId, Number(lastInsertRowid))!;
      })
      .immediate();
  }

  update(guildId: string, id: number, cup: CupFields): CupRow | 'gone' | 'exists' {
    const db = this.#ctx.db;
    return db
      .transaction((): CupRow | 'gone' | 'exists' => {
        if (this.get(guildId, id) === null) return 'gone';
        const named = this.#named(guildId, cup.nameKey);
        if (named !== null && named !== id) return 'exists';
        prepared(
          db,
          'UPDATE cups SET name = ?, name_key = ?, rules = ?, post_standings = coalesce(?, post_standings), updated_at = ? WHERE guild_id = ? AND id = ?',
        ).run(
          cup.name,
          cup.nameKey,
          cup.rules,
          cup.postStandings === undefined ? null : cup.postStandings ? 1 : 0,
          this.#ctx.now().toISOString(),
          guildId,
          id,
        );
        return this.get(guildId, id)!;
      })
      .immediate();
  }

  delete(guildId: string, id: number): boolean {
    return prepared(this.#ctx.db, 'DELETE FROM cups WHERE guild_id = ? AND id = ?').run(guildId, id).changes > 0;
  }
}
