/** Personal DM subscriptions (`/notify`, migration 7), and the ledger feeds of those DMs that go with them. */
import type { NotifyPause, Subscription, SubscriptionStore } from '../interfaces.js';
import { type SubscriptionRow as Row, subscriptionOf } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import type { SqliteLedgerStore } from './ledger.js';

export class SqliteSubscriptionStore implements Synchronous<SubscriptionStore> {
  readonly #ctx: SqliteContext;
  readonly #ledger: SqliteLedgerStore;

  constructor(ctx: SqliteContext, ledger: SqliteLedgerStore) {
    this.#ctx = ctx;
    this.#ledger = ledger;
  }

  get(guildId: string, userId: string): Subscription | null {
    const row = this.#ctx.db
      .prepare('SELECT * FROM notify_subscriptions WHERE guild_id = ? AND user_id = ?')
      .get(guildId, userId) as Row | undefined;
    return row ? subscriptionOf(row) : null;
  }

  set(
    guildId: string,
    userId: string,
    next: { starts: boolean; results: boolean; tomorrow?: boolean; live?: boolean; locale: string; resume: boolean },
    dropFeedPrefixes: readonly string[],
  ): Subscription | null {
    const now = this.#ctx.now().toISOString();
    const db = this.#ctx.db;
    return db.transaction(() => {
      for (const prefix of dropFeedPrefixes) this.#ledger.forgetFeeds(guildId, prefix);
      const tomorrow = next.tomorrow === true;
      const live = next.live === true;
      if (!next.starts && !next.results && !tomorrow && !live) {
        db.prepare('DELETE FROM notify_subscriptions WHERE guild_id = ? AND user_id = ?').run(guildId, userId);
        return null;
      }
      const resume = next.resume ? 1 : 0;
      db.prepare(
        `INSERT INTO notify_subscriptions (guild_id, user_id, starts, results, tomorrow, live, locale, dm_channel_id, paused_reason, paused_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?)
         ON CONFLICT (guild_id, user_id) DO UPDATE SET starts = excluded.starts, results = excluded.results,
           tomorrow = excluded.tomorrow, live = excluded.live, locale = excluded.locale,
           dm_channel_id = CASE WHEN ? AND paused_reason = 'dm-unavailable' THEN NULL ELSE dm_channel_id END,
           paused_reason = CASE WHEN ? THEN NULL ELSE paused_reason END, paused_at = CASE WHEN ? THEN NULL ELSE paused_at END,
           updated_at = excluded.updated_at`,
      ).run(
        guildId,
        userId,
        next.starts ? 1 : 0,
        next.results ? 1 : 0,
        tomorrow ? 1 : 0,
        live ? 1 : 0,
        next.locale,
        now,
        now,
        resume,
        resume,
        resume,
      );
      return this.get(guildId, userId);
    })();
  }

  active(guildId: string): Subscription[] {
    const rows = this.#ctx.db
      .prepare(
        'SELECT * FROM notify_subscriptions WHERE guild_id = ? AND (starts = 1 OR results = 1 OR tomorrow = 1 OR live = 1) AND paused_reason IS NULL ORDER BY user_id',
      )
      .all(guildId) as Row[];
    return rows.map(subscriptionOf);
  }

  guildsWithSubscribers(): string[] {
    const rows = this.#ctx.db
      .prepare(
        'SELECT DISTINCT guild_id FROM notify_subscriptions WHERE (starts = 1 OR results = 1 OR tomorrow = 1 OR live = 1) AND paused_reason IS NULL ORDER BY guild_id',
      )
      .all() as Array<{ guild_id: string }>;
    return rows.map((r) => r.guild_id);
  }

  setDmChannel(guildId: string, userId: string, channelId: string | null): void {
    this.#ctx.db
      .prepare('UPDATE notify_subscriptions SET dm_channel_id = ?, updated_at = ? WHERE guild_id = ? AND user_id = ?')
      .run(channelId, this.#ctx.now().toISOString(), guildId, userId);
  }

  pause(guildId: string, userId: string, reason: NotifyPause): boolean {
    const now = this.#ctx.now().toISOString();
    return (
      this.#ctx.db
        .prepare(
          'UPDATE notify_subscriptions SET paused_reason = ?, paused_at = ?, updated_at = ? WHERE guild_id = ? AND user_id = ? AND paused_reason IS NULL',
        )
        .run(reason, now, now, guildId, userId).changes > 0
    );
  }

  forget(guildId: string, userId: string | null, feedPrefix: string): number {
    const db = this.#ctx.db;
    return db.transaction(() => {
      const removed =
        userId === null
          ? db.prepare('DELETE FROM notify_subscriptions WHERE guild_id = ?').run(guildId).changes
          : db.prepare('DELETE FROM notify_subscriptions WHERE guild_id = ? AND user_id = ?').run(guildId, userId)
              .changes;
      this.#ledger.forgetFeeds(guildId, feedPrefix);
      return removed;
    })();
  }
}
