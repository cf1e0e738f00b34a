/** Personal DM subscriptions (/notify) on PostgreSQL (notify_subscriptions), with their ledger feeds. */
import type { NotifyPause, Subscription, SubscriptionStore } from '../interfaces.js';
import { type SubscriptionRow as Row, subscriptionOf } from '../rows.js';
import type { PartContext } from './connection.js';
import { forgetFeeds } from './ledger.js';

export class PostgresSubscriptionStore implements SubscriptionStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async get(guildId: string, userId: string): Promise<Subscription | null> {
    const { rows } = await this.#ctx.db.query<Row>(
      'SELECT * FROM notify_subscriptions WHERE guild_id = $1 AND user_id = $2',
      [guildId, userId],
    );
    return rows[0] ? subscriptionOf(rows[0]) : null;
  }

  set(
    guildId: string,
    userId: string,
    next: { starts: boolean; results: boolean; tomorrow?: boolean; live?: boolean; locale: string; resume: boolean },
    dropFeedPrefixes: readonly string[],
  ): Promise<Subscription | null> {
    const now = this.#ctx.now().toISOString();
    return this.#ctx.db.atomic(async (q) => {
      for (const prefix of dropFeedPrefixes) await forgetFeeds(q, guildId, prefix);
      const tomorrow = next.tomorrow === true;
      const live = next.live === true;
      if (!next.starts && !next.results && !tomorrow && !live) {
        await q.query('DELETE FROM notify_subscriptions WHERE guild_id = $1 AND user_id = $2', [guildId, userId]);
        return null;
      }
      // Every SET expression reads the row as it was, so the DM channel's test sees the old pause.
      const { rows } = await q.query<Row>(
        `INSERT INTO notify_subscriptions (guild_id, user_id, starts, results, tomorrow, live, locale, dm_channel_id, paused_reason, paused_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $8, $9, $5, NULL, NULL, NULL, $6, $6)
         ON CONFLICT (guild_id, user_id) DO UPDATE SET starts = excluded.starts, results = excluded.results,
           tomorrow = excluded.tomorrow, live = excluded.live, locale = excluded.locale,
           dm_channel_id = CASE WHEN $7 AND notify_subscriptions.paused_reason = 'dm-unavailable' THEN NULL
                                ELSE notify_subscriptions.dm_channel_id END,
           paused_reason = CASE WHEN $7 THEN NULL ELSE notify_subscriptions.paused_reason END,
           paused_at = CASE WHEN $7 THEN NULL ELSE notify_subscriptions.paused_at END,
           updated_at = excluded.updated_at
         RETURNING *`,
        [
          guildId,
          userId,
          next.starts ? 1 : 0,
          next.results ? 1 : 0,
          next.locale,
          now,
          next.resume,
          tomorrow ? 1 : 0,
          live ? 1 : 0,
        ],
      );
      return subscriptionOf(rows[0]!);
    });
  }

  async active(guildId: string): Promise<Subscription[]> {
    const { rows } = await this.#ctx.db.query<Row>(
      `SELECT * FROM notify_subscriptions WHERE guild_id = $1 AND (starts = 1 OR results = 1 OR tomorrow = 1 OR live = 1) AND paused_reason IS NULL
       ORDER BY user_id`,
      [guildId],
    );
    return rows.map(subscriptionOf);
  }

  async guildsWithSubscribers(): Promise<string[]> {
    const { rows } = await this.#ctx.db.query<{ guild_id: string }>(
      `SELECT DISTINCT guild_id FROM notify_subscriptions WHERE (starts = 1 OR results = 1 OR tomorrow = 1 OR live = 1) AND paused_reason IS NULL
       ORDER BY guild_id`,
    );
    return rows.map((r) => r.guild_id);
  }

  async setDmChannel(guildId: string, userId: string, channelId: string | null): Promise<void> {
    await this.#ctx.db.query(
      'UPDATE notify_subscriptions SET dm_channel_id = $1, updated_at = $2 WHERE guild_id = $3 AND user_id = $4',
      [channelId, this.#ctx.now().toISOString(), guildId, userId],
    );
  }

  async pause(guildId: string, userId: string, reason: NotifyPause): Promise<boolean> {
    const now = this.#ctx.now().toISOString();
    const { rowCount } = await this.#ctx.db.query(
      `UPDATE notify_subscriptions SET paused_reason = $1, paused_at = $2, updated_at = $2
       WHERE guild_id = $3 AND user_id = $4 AND paused_reason IS NULL`,
      [reason, now, guildId, userId],
    );
    return (rowCount ?? 0) > 0;
  }

  forget(guildId: string, userId: string | null, feedPrefix: string): Promise<number> {
    return this.#ctx.db.atomic(async (q) => {
      const removed =
        userId === null
          ? await q.query('DELETE FROM notify_subscriptions WHERE guild_id = $1', [guildId])
          : await q.query('DELETE FROM notify_subscriptions WHERE guild_id = $1 AND user_id = $2', [guildId, userId]);
      await forgetFeeds(q, guildId, feedPrefix);
      return removed.rowCount ?? 0;
    });
  }
}
