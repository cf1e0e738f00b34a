/** Whom the store holds something about, and forgetting them, on PostgreSQL. */
import type { PeopleStore } from '../interfaces.js';
import { GUILD_TABLES } from '../rows.js';
import type { PartContext } from './connection.js';
import { forgetFeeds } from './ledger.js';

export class PostgresPeopleStore implements PeopleStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async knownGuildIds(): Promise<string[]> {
    const union = GUILD_TABLES.map((table) => `SELECT guild_id FROM ${table}`).join(' UNION ');
    const { rows } = await this.#ctx.db.query<{ guild_id: string }>(`${union} ORDER BY guild_id`);
    return rows.map((r) => r.guild_id);
  }

  async memberIds(guildId: string): Promise<string[]> {
    const { rows } = await this.#ctx.db.query<{ user_id: string }>(
      `SELECT user_id FROM member_links WHERE guild_id = $1 UNION SELECT user_id FROM link_requests WHERE guild_id = $1
       UNION SELECT user_id FROM notify_subscriptions WHERE guild_id = $1 ORDER BY user_id`,
      [guildId],
    );
    return rows.map((r) => r.user_id);
  }

  async guildMembersHeld(guildId: string): Promise<Array<{ userId: string; locale: string | null }>> {
    const { rows } = await this.#ctx.db.query<{ user_id: string; locale: string | null }>(
      `SELECT user_id, max(locale) AS locale FROM (
         SELECT user_id, NULL AS locale FROM member_links WHERE guild_id = $1
         UNION ALL SELECT user_id, locale FROM link_requests WHERE guild_id = $1 AND state = 'pending'
         UNION ALL SELECT user_id, locale FROM notify_subscriptions WHERE guild_id = $1
       ) AS held GROUP BY user_id ORDER BY user_id`,
      [guildId],
    );
    return rows.map((r) => ({ userId: r.user_id, locale: r.locale }));
  }

  /**
   * PostgreSQL keeps the deleted rows' old versions until its vacuum reclaims them; unlike SQLite
   * there is no way to overwrite them at once (docs/operators.md says so).
   */
  forgetUser(
    userId: string,
    personalFeedPrefix: string,
  ): Promise<{ links: number; requests: number; auditEntries: number; subscriptions: number }> {
    return this.#ctx.db.atomic(async (q) => {
      const links = (await q.query('DELETE FROM member_links WHERE user_id = $1', [userId])).rowCount ?? 0;
      const requests = (await q.query('DELETE FROM link_requests WHERE user_id = $1', [userId])).rowCount ?? 0;
      // A request the user decided as an admin belongs to its requester; only the decider's name goes.
      await q.query('UPDATE link_requests SET decided_by = NULL WHERE decided_by = $1', [userId]);
      const auditEntries =
        (await q.query('DELETE FROM audit_log WHERE actor_id = $1 OR subject_id = $1', [userId])).rowCount ?? 0;
      const subscriptions =
        (await q.query('DELETE FROM notify_subscriptions WHERE user_id = $1', [userId])).rowCount ?? 0;
      await forgetFeeds(q, null, personalFeedPrefix);
      return { links, requests, auditEntries, subscriptions };
    });
  }

  async forgetGuild(guildId: string): Promise<void> {
    try {
      await this.#ctx.db.atomic(async (q) => {
        for (const table of [...GUILD_TABLES, 'guild_departures', 'member_sweeps'])
          await q.query(`DELETE FROM ${table} WHERE guild_id = $1`, [guildId]);
      });
    } finally {
      this.#ctx.serverSettingsRemoved?.();
    }
  }
}
