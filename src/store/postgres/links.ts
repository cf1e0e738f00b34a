/** Member links, link requests and the ways a server allows linking, on PostgreSQL. */
import {
  type LinkedPerson,
  type LinkingMethods,
  type LinkMethod,
  type LinkRequest,
  type LinkStore,
  PROVEN_LINK,
} from '../interfaces.js';
import { linkRequestOf, type LinkRequestRow } from '../rows.js';
import { lockName, type PartContext, type Queryable } from './connection.js';

interface LinkRow {
  person_id: string;
  is_default: number;
  method: LinkMethod;
  linked_at: string;
}

function linkOf(r: LinkRow): LinkedPerson {
  return { personId: r.person_id, isDefault: r.is_default === 1, method: r.method, linkedAt: r.linked_at };
}

/**
 * A member's links in a server change one step at a time, across processes: which link is the
 * default depends on the others, and a first link has no row to lock yet.
 */
function lockMember(q: Queryable, guildId: string, userId: string): Promise<void> {
  return lockName(q, 'member_links', guildId, userId);
}

/** Links a person (the first link is the default; again, only ever upgrades to `credentials`), inside a step. */
async function link(
  q: Queryable,
  guildId: string,
  userId: string,
  personId: string,
  method: LinkMethod,
  now: string,
): Promise<void> {
  await lockMember(q, guildId, userId);
  const { rowCount } = await q.query(
    'SELECT 1 FROM member_links WHERE guild_id = $1 AND user_id = $2 AND is_default = 1',
    [guildId, userId],
  );
  await q.query(
    `INSERT INTO member_links (guild_id, user_id, person_id, is_default, method, linked_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (guild_id, user_id, person_id) DO UPDATE
       SET method = CASE WHEN excluded.method = '${PROVEN_LINK}' THEN excluded.method ELSE member_links.method END`,
    [guildId, userId, personId, rowCount ? 0 : 1, method, now],
  );
}

export class PostgresLinkStore implements LinkStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async linkedPersons(guildId: string, userId: string): Promise<LinkedPerson[]> {
    const { rows } = await this.#ctx.db.query<LinkRow>(
      `SELECT person_id, is_default, method, linked_at FROM member_links WHERE guild_id = $1 AND user_id = $2
       ORDER BY is_default DESC, linked_at, person_id`,
      [guildId, userId],
    );
    return rows.map(linkOf);
  }

  async linkPerson(guildId: string, userId: string, personId: string, method: LinkMethod): Promise<void> {
    const now = this.#ctx.now().toISOString();
    await this.#ctx.db.atomic((q) => link(q, guildId, userId, personId, method, now));
  }

  unlinkPerson(guildId: string, userId: string, personId: string): Promise<boolean> {
    return this.#ctx.db.atomic(async (q) => {
      await lockMember(q, guildId, userId);
      const removed = await q.query(
        'DELETE FROM member_links WHERE guild_id = $1 AND user_id = $2 AND person_id = $3',
        [guildId, userId, personId],
      );
      const { rowCount } = await q.query(
        'SELECT 1 FROM member_links WHERE guild_id = $1 AND user_id = $2 AND is_default = 1',
        [guildId, userId],
      );
      if (!rowCount) {
        // The oldest remaining link; ties by person, the same order on both databases.
        await q.query(
          `UPDATE member_links SET is_default = 1 WHERE guild_id = $1 AND user_id = $2 AND person_id = (
             SELECT person_id FROM member_links WHERE guild_id = $1 AND user_id = $2 ORDER BY linked_at, person_id LIMIT 1)`,
          [guildId, userId],
        );
      }
      return (removed.rowCount ?? 0) > 0;
    });
  }

  setDefaultPerson(guildId: string, userId: string, personId: string): Promise<boolean> {
    return this.#ctx.db.atomic(async (q) => {
      await lockMember(q, guildId, userId);
      const { rowCount } = await q.query(
        'SELECT 1 FROM member_links WHERE guild_id = $1 AND user_id = $2 AND person_id = $3',
        [guildId, userId, personId],
      );
      if (!rowCount) return false;
      await q.query(
        'UPDATE member_links SET is_default = CASE WHEN person_id = $3 THEN 1 ELSE 0 END WHERE guild_id = $1 AND user_id = $2',
        [guildId, userId, personId],
      );
      return true;
    });
  }

  async guildLinks(guildId: string): Promise<Array<LinkedPerson & { userId: string }>> {
    const { rows } = await this.#ctx.db.query<LinkRow & { user_id: string }>(
      `SELECT user_id, person_id, is_default, method, linked_at FROM member_links WHERE guild_id = $1
       ORDER BY user_id, is_default DESC, linked_at, person_id`,
      [guildId],
    );
    return rows.map((r) => ({ userId: r.user_id, ...linkOf(r) }));
  }

  async linkingMethods(guildId: string): Promise<LinkingMethods> {
    return methodsOf(await this.#ctx.db.query(METHODS, [guildId]));
  }

  setLinkingMethods(guildId: string, update: Partial<LinkingMethods>): Promise<LinkingMethods> {
    return this.#ctx.db.atomic(async (q) => {
      // Read-modify-write: another admin's change to the other method must not be lost.
      await lockName(q, 'link_settings', guildId);
      const next = { ...methodsOf(await q.query(METHODS, [guildId])), ...update };
      await q.query(
        `INSERT INTO link_settings (guild_id, credentials, approval) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id) DO UPDATE SET credentials = excluded.credentials, approval = excluded.approval`,
        [guildId, next.credentials ? 1 : 0, next.approval ? 1 : 0],
      );
      return next;
    });
  }

  async createLinkRequest(request: {
    guildId: string;
    userId: string;
    personId: string;
    locale: string;
  }): Promise<LinkRequest> {
    const { rows } = await this.#ctx.db.query<LinkRequestRow>(
      `INSERT INTO link_requests (guild_id, user_id, person_id, locale, state, created_at)
       VALUES ($1, $2, $3, $4, 'pending', $5) RETURNING *`,
      [request.guildId, request.userId, request.personId, request.locale, this.#ctx.now().toISOString()],
    );
    return linkRequestOf(rows[0]!);
  }

  async linkRequest(id: number): Promise<LinkRequest | null> {
    const { rows } = await this.#ctx.db.query<LinkRequestRow>('SELECT * FROM link_requests WHERE id = $1', [id]);
    return rows[0] ? linkRequestOf(rows[0]) : null;
  }

  async pendingLinkRequests(guildId: string, userId: string): Promise<LinkRequest[]> {
    const { rows } = await this.#ctx.db.query<LinkRequestRow>(
      "SELECT * FROM link_requests WHERE guild_id = $1 AND user_id = $2 AND state = 'pending' ORDER BY id",
      [guildId, userId],
    );
    return rows.map(linkRequestOf);
  }

  async dropLinkRequest(id: number): Promise<void> {
    await this.#ctx.db.query("DELETE FROM link_requests WHERE id = $1 AND state = 'pending'", [id]);
  }

  decideLinkRequest(id: number, approve: boolean, deciderId: string): Promise<boolean> {
    const now = this.#ctx.now().toISOString();
    return this.#ctx.db.atomic(async (q) => {
      // The condition on the state is the whole race: the row is locked by the first update, and the
      // second, waiting for it, finds it decided and changes nothing.
      const { rows } = await q.query<{ guild_id: string; user_id: string; person_id: string }>(
        `UPDATE link_requests SET state = $1, decided_by = $2, decided_at = $3 WHERE id = $4 AND state = 'pending'
         RETURNING guild_id, user_id, person_id`,
        [approve ? 'approved' : 'denied', deciderId, now, id],
      );
      const request = rows[0];
      if (!request) return false;
      if (approve) await link(q, request.guild_id, request.user_id, request.person_id, 'approval', now);
      return true;
    });
  }

  forgetMemberLinks(guildId: string, userId: string): Promise<{ links: number; requests: number }> {
    return this.#ctx.db.atomic(async (q) => ({
      links: (await q.query('DELETE FROM member_links WHERE guild_id = $1 AND user_id = $2', [guildId, userId]))
        .rowCount!,
      requests: (await q.query('DELETE FROM link_requests WHERE guild_id = $1 AND user_id = $2', [guildId, userId]))
        .rowCount!,
    }));
  }

  forgetGuildLinks(guildId: string): Promise<{ links: number; requests: number }> {
    return this.#ctx.db.atomic(async (q) => ({
      links: (await q.query('DELETE FROM member_links WHERE guild_id = $1', [guildId])).rowCount!,
      requests: (await q.query('DELETE FROM link_requests WHERE guild_id = $1', [guildId])).rowCount!,
    }));
  }
}

const METHODS = 'SELECT credentials, approval FROM link_settings WHERE guild_id = $1';

function methodsOf(result: { rows: Array<{ credentials?: number; approval?: number }> }): LinkingMethods {
  const row = result.rows[0];
  return { credentials: row ? row.credentials === 1 : true, approval: row ? row.approval === 1 : true };
}
