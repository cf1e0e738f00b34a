/** How each server wants each kind of automatic post (migration 5); the options' schema is the feeds'. */
import type { FeedSettingsRow, FeedSettingsStore } from '../interfaces.js';
import { type FeedSettingsTableRow as Row, feedSettingsOf as rowOf } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

export class SqliteFeedSettingsStore implements Synchronous<FeedSettingsStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  get(guildId: string, feed: string): FeedSettingsRow | null {
    const row = prepared(
      this.#ctx.db,
      'SELECT enabled, paused_reason, paused_at, role_id, options FROM feed_settings WHERE guild_id = ? AND feed = ?',
    ).get(guildId, feed) as Row | undefined;
    return row ? rowOf(row) : null;
  }

  all(guildId: string): Array<FeedSettingsRow & { feed: string }> {
    const rows = prepared(
      this.#ctx.db,
      'SELECT feed, enabled, paused_reason, paused_at, role_id, options FROM feed_settings WHERE guild_id = ?',
    ).all(guildId) as Array<Row & { feed: string }>;
    return rows.map((r) => ({ ...rowOf(r), feed: r.feed }));
  }

  guildsWithFeeds(): string[] {
    return (
      prepared(
        this.#ctx.db,
        'SELECT DISTINCT guild_id FROM feed_settings WHERE enabled = 1 ORDER BY guild_id',
      ).all() as Array<{ guild_id: string }>
    ).map((r) => r.guild_id);
  }

  update(guildId: string, feed: string, change: (current: FeedSettingsRow | null) => FeedSettingsRow): FeedSettingsRow {
    const db = this.#ctx.db;
    return db
      .transaction(() => {
        const next = change(this.get(guildId, feed));
        prepared(
          db,
          `INSERT INTO feed_settings (guild_id, feed, enabled, paused_reason, paused_at, role_id, options, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, feed) DO UPDATE SET enabled = excluded.enabled, paused_reason = excluded.paused_reason, paused_at = excluded.paused_at,
           role_id = excluded.role_id, options = excluded.options, updated_at = excluded.updated_at`,
        ).run(
          guildId,
          feed,
          next.enabled ? 1 : 0,
          next.pausedReason,
          next.pausedAt,
          next.roleId,
          next.options,
          this.#ctx.now().toISOString(),
        );
        return next;
      })
      .immediate();
  }
}
