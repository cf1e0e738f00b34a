/** What each server wants of each kind of automatic post, on PostgreSQL (feed_settings). */
import type { FeedSettingsRow, FeedSettingsStore } from '../interfaces.js';
import { type FeedSettingsTableRow as Row, feedSettingsOf as rowOf } from '../rows.js';
import { lockName, type PartContext } from './connection.js';

const COLUMNS = 'enabled, paused_reason, paused_at, role_id, options';

export class PostgresFeedSettingsStore implements FeedSettingsStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async get(guildId: string, feed: string): Promise<FeedSettingsRow | null> {
    const { rows } = await this.#ctx.db.query<Row>(
      `SELECT ${COLUMNS} FROM feed_settings WHERE guild_id = $1 AND feed = $2`,
      [guildId, feed],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  async all(guildId: string): Promise<Array<FeedSettingsRow & { feed: string }>> {
    const { rows } = await this.#ctx.db.query<Row & { feed: string }>(
      `SELECT feed, ${COLUMNS} FROM feed_settings WHERE guild_id = $1 ORDER BY feed`,
      [guildId],
    );
    return rows.map((r) => ({ feed: r.feed, ...rowOf(r) }));
  }

  async guildsWithFeeds(): Promise<string[]> {
    const { rows } = await this.#ctx.db.query<{ guild_id: string }>(
      'SELECT DISTINCT guild_id FROM feed_settings WHERE enabled = 1 ORDER BY guild_id',
    );
    return rows.map((r) => r.guild_id);
  }

  update(
    guildId: string,
    feed: string,
    change: (current: FeedSettingsRow | null) => FeedSettingsRow,
  ): Promise<FeedSettingsRow> {
    return this.#ctx.db.atomic(async (q) => {
      // A kind never configured has no row to lock: the lock is on its name, so two first
      // changes (an admin's and a pause by the bot) also happen one after the other.
      await lockName(q, 'feed_settings', guildId, feed);
      const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM feed_settings WHERE guild_id = $1 AND feed = $2`, [
        guildId,
        feed,
      ]);
      const next = change(rows[0] ? rowOf(rows[0]) : null);
      await q.query(
        `INSERT INTO feed_settings (guild_id, feed, enabled, paused_reason, paused_at, role_id, options, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (guild_id, feed) DO UPDATE SET enabled = excluded.enabled, paused_reason = excluded.paused_reason,
           paused_at = excluded.paused_at, role_id = excluded.role_id, options = excluded.options, updated_at = excluded.updated_at`,
        [
          guildId,
          feed,
          next.enabled ? 1 : 0,
          next.pausedReason,
          next.pausedAt,
          next.roleId,
          next.options,
          this.#ctx.now().toISOString(),
        ],
      );
      return { ...next };
    });
  }
}
