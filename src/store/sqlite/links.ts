/** Member links, link requests and the ways a server allows linking (migrations 1 and 3). */
import {
  type LinkedPerson,
  type LinkingMethods,
  type LinkMethod,
  type LinkRequest,
  type LinkStore,
  PROVEN_LINK,
} from '../interfaces.js';
import { linkRequestOf, type LinkRequestRow } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';

export class SqliteLinkStore implements Synchronous<LinkStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  linkedPersons(guildId: string, userId: string): LinkedPerson[] {
    const rows = this.#ctx.db
      .prepare(
        'SELECT person_id, is_default, method, linked_at FROM member_links WHERE guild_id = ? AND user_id = ? ORDER BY is_default DESC, linked_at',
      )
      .all(guildId, userId) as Array<{ person_id: string; is_default: number; method: LinkMethod; linked_at: string }>;
    return rows.map((r) => ({
      personId: r.person_id,
      isDefault: r.is_default === 1,
      method: r.method,
      linkedAt: r.linked_at,
    }));
  }

  /**
   * Links a person to a user; the first person a user links becomes their default. Linking a
   * person again only ever upgrades to `credentials` (the member proved with Eventor that they are
   * the person, which is what login links and chip changes need): an admin's link or approval
   * never takes that proof away, and never grants it.
   */
  linkPerson(guildId: string, userId: string, personId: string, method: LinkMethod): void {
    const db = this.#ctx.db;
    const now = this.#ctx.now().toISOString();
    db.transaction(() => {
      const hasDefault =
        db
          .prepare('SELECT 1 FROM member_links WHERE guild_id = ? AND user_id = ? AND is_default = 1')
          .get(guildId, userId) !== undefined;
      db.prepare(
        `INSERT INTO member_links (guild_id, user_id, person_id, is_default, method, linked_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (guild_id, user_id, person_id) DO UPDATE SET method = CASE WHEN excluded.method = '${PROVEN_LINK}' THEN excluded.method ELSE member_links.method END`,
      ).run(guildId, userId, personId, hasDefault ? 0 : 1, method, now);
    })();
  }

  unlinkPerson(guildId: string, userId: string, personId: string): boolean {
    const db = this.#ctx.db;
    return db.transaction(() => {
      const removed =
        db
          .prepare('DELETE FROM member_links WHERE guild_id = ? AND user_id = ? AND person_id = ?')
          .run(guildId, userId, personId).changes > 0;
      const hasDefault =
        db
          .prepare('SELECT 1 FROM member_links WHERE guild_id = ? AND user_id = ? AND is_default = 1')
          .get(guildId, userId) !== undefined;
      if (!hasDefault) {
        // By key, not rowid (PostgreSQL has none): the oldest link, ties broken by person.
        db.prepare(
          `UPDATE member_links SET is_default = 1 WHERE guild_id = ? AND user_id = ? AND person_id =
             (SELECT person_id FROM member_links WHERE guild_id = ? AND user_id = ? ORDER BY linked_at, person_id LIMIT 1)`,
        ).run(guildId, userId, guildId, userId);
      }
      return removed;
    })();
  }

  setDefaultPerson(guildId: string, userId: string, personId: string): boolean {
    const db = this.#ctx.db;
    return db.transaction(() => {
      const linked =
        db
          .prepare('SELECT 1 FROM member_links WHERE guild_id = ? AND user_id = ? AND person_id = ?')
          .get(guildId, userId, personId) !== undefined;
      if (!linked) return false;
      db.prepare(
        'UPDATE member_links SET is_default = CASE WHEN person_id = ? THEN 1 ELSE 0 END WHERE guild_id = ? AND user_id = ?',
      ).run(personId, guildId, userId);
      return true;
    })();
  }

  guildLinks(guildId: string): Array<LinkedPerson & { userId: string }> {
    const rows = this.#ctx.db
      .prepare(
        'SELECT user_id, person_id, is_default, method, linked_at FROM member_links WHERE guild_id = ? ORDER BY user_id, is_default DESC, linked_at',
      )
      .all(guildId) as Array<{
      user_id: string;
      person_id: string;
      is_default: number;
      method: LinkMethod;
      linked_at: string;
    }>;
    return rows.map((r) => ({
      userId: r.user_id,
      personId: r.person_id,
      isDefault: r.is_default === 1,
      method: r.method,
      linkedAt: r.linked_at,
    }));
  }

  linkingMethods(guildId: string): LinkingMethods {
    const row = this.#ctx.db
      .prepare('SELECT credentials, approval FROM link_settings WHERE guild_id = ?')
      .get(guildId) as { credentials: number; approval: number } | undefined;
    return { credentials: row ? row.credentials === 1 : true, approval: row ? row.approval === 1 : true };
  }

  setLinkingMethods(guildId: string, update: Partial<LinkingMethods>): LinkingMethods {
    const db = this.#ctx.db;
    return db.transaction(() => {
      const next = { ...this.linkingMethods(guildId), ...update };
      db.prepare(
        'INSERT INTO link_settings (guild_id, credentials, approval) VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET credentials = excluded.credentials, approval = excluded.approval',
      ).run(guildId, next.credentials ? 1 : 0, next.approval ? 1 : 0);
      return next;
    })();
  }

  createLinkRequest(request: { guildId: string; userId: string; personId: string; locale: string }): LinkRequest {
    const now = this.#ctx.now().toISOString();
    const id = this.#ctx.db
      .prepare(
        "INSERT INTO link_requests (guild_id, user_id, person_id, locale, state, created_at) VALUES (?, ?, ?, ?, 'pending', ?)",
      )
      .run(request.guildId, request.userId, request.personId, request.locale, now).lastInsertRowid;
    return this.linkRequest(Number(id))!;
  }

  linkRequest(id: number): LinkRequest | null {
    const row = this.#ctx.db.prepare('SELECT * FROM link_requests WHERE id = ?').get(id) as LinkRequestRow | undefined;
    return row ? linkRequestOf(row) : null;
  }

  pendingLinkRequests(guildId: string, userId: string): LinkRequest[] {
    const rows = this.#ctx.db
      .prepare("SELECT * FROM link_requests WHERE guild_id = ? AND user_id = ? AND state = 'pending' ORDER BY id")
      .all(guildId, userId) as LinkRequestRow[];
    return rows.map(linkRequestOf);
  }

  dropLinkRequest(id: number): void {
    this.#ctx.db.prepare("DELETE FROM link_requests WHERE id = ? AND state = 'pending'").run(id);
  }

  decideLinkRequest(id: number, approve: boolean, deciderId: string): boolean {
    const db = this.#ctx.db;
    const now = this.#ctx.now().toISOString();
    return db.transaction(() => {
      const changed =
        db
          .prepare(
            "UPDATE link_requests SET state = ?, decided_by = ?, decided_at = ? WHERE id = ? AND state = 'pending'",
          )
          .run(approve ? 'approved' : 'denied', deciderId, now, id).changes === 1;
      if (changed && approve) {
        const request = this.linkRequest(id)!;
        this.linkPerson(request.guildId, request.userId, request.personId, 'approval');
      }
      return changed;
    })();
  }

  forgetMemberLinks(guildId: string, userId: string): { links: number; requests: number } {
    const db = this.#ctx.db;
    return db.transaction(() => ({
      links: db.prepare('DELETE FROM member_links WHERE guild_id = ? AND user_id = ?').run(guildId, userId).changes,
      requests: db.prepare('DELETE FROM link_requests WHERE guild_id = ? AND user_id = ?').run(guildId, userId).changes,
    }))();
  }

  forgetGuildLinks(guildId: string): { links: number; requests: number } {
    const db = this.#ctx.db;
    return db.transaction(() => ({
      links: db.prepare('DELETE FROM member_links WHERE guild_id = ?').run(guildId).changes,
      requests: db.prepare('DELETE FROM link_requests WHERE guild_id = ?').run(guildId).changes,
    }))();
  }
}
