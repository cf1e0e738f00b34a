/** Whom the store holds something about, across every table, and forgetting them (SECURITY.md). */
import type { PeopleStore } from '../interfaces.js';
import { GUILD_TABLES } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import type { SqliteLedgerStore } from './ledger.js';

export class SqlitePeopleStore implements Synchronous<PeopleStore> {
  readonly #ctx: SqliteContext;
  readonly #ledger: SqliteLedgerStore;

  constructor(ctx: SqliteContext, ledger: SqliteLedgerStore) {
    this.#ctx = ctx;
    this.#ledger = ledger;
  }

  knownGuildIds(): string[] {
    const union = GUILD_TABLES.map((table) => `SELECT guild_id FROM ${table}`).join(' UNION ');
    return (this.#ctx.db.prepare(`${union} ORDER BY guild_id`).all() as Array<{ guild_id: string }>).map(
      (r) => r.guild_id,
    );
  }

  memberIds(guildId: string): string[] {
    const rows = this.#ctx.db
      .prepare(
        'SELECT user_id FROM member_links WHERE guild_id = ? UNION SELECT user_id FROM link_requests WHERE guild_id = ? UNION SELECT user_id FROM notify_subscriptions WHERE guild_id = ? ORDER BY user_id',
      )
      .all(guildId, guildId, guildId) as Array<{ user_id: string }>;
    return rows.map((r) => r.user_id);
  }

  guildMembersHeld(guildId: string): Array<{ userId: string; locale: string | null }> {
    const rows = this.#ctx.db
      .prepare(
        `SELECT user_id, MAX(locale) AS locale FROM (
           SELECT user_id, NULL AS locale FROM member_links WHERE guild_id = ?
           UNION ALL SELECT user_id, locale FROM link_requests WHERE guild_id = ? AND state = 'pending'
           UNION ALL SELECT user_id, locale FROM notify_subscriptions WHERE guild_id = ?
         ) GROUP BY user_id ORDER BY user_id`,
      )
      .all(guildId, guildId, guildId) as Array<{ user_id: string; locale: string | null }>;
    return rows.map((r) => ({ userId: r.user_id, locale: r.locale }));
  }

  /**
   * Deletes everything held about a Discord user, in every server. Deleted pages are overwritten
   * (`secure_delete`, on since the database opened) and the WAL is emptied after the commit, so
   * the bytes do not linger in the file either.
   */
  forgetUser(
    userId: string,
    personalFeedPrefix: string,
  ): { links: number; requests: number; auditEntries: number; subscriptions: number } {
    const db = this.#ctx.db;
    const counts = db.transaction(() => {
      const subscriptions = db.prepare('DELETE FROM notify_subscriptions WHERE user_id = ?').run(userId).changes;
      this.#ledger.forgetFeeds(null, personalFeedPrefix);
      const links = db.prepare('DELETE FROM member_links WHERE user_id = ?').run(userId).changes;
      const requests = db.prepare('DELETE FROM link_requests WHERE user_id = ?').run(userId).changes;
      // A request the user decided as an admin belongs to its requester; only the decider's name goes.
      db.prepare('UPDATE link_requests SET decided_by = NULL WHERE decided_by = ?').run(userId);
      const auditEntries = db
        .prepare('DELETE FROM audit_log WHERE actor_id = ? OR subject_id = ?')
        .run(userId, userId).changes;
      return { links, requests, auditEntries, subscriptions };
    })();
    this.#ctx.afterCommit(() => db.pragma('wal_checkpoint(TRUNCATE)'));
    return counts;
  }

  /** Settings with the sealed key, channels, links, requests, the audit log, the ledger, feed settings and subscriptions. */
  forgetGuild(guildId: string): void {
    const db = this.#ctx.db;
    db.transaction(() => {
      for (const table of [...GUILD_TABLES, 'guild_departures', 'member_sweeps'])
        db.prepare(`DELETE FROM ${table} WHERE guild_id = ?`).run(guildId);
    })();
    this.#ctx.afterCommit(() => db.pragma('wal_checkpoint(TRUNCATE)'));
  }
}
