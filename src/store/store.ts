/**
 * The store: server settings, sealed API keys, channels and member links. Callers get plain
 * objects; secrets go in sealed and come out opened, so nothing else handles ciphertext. The
 * automatic posts keep their own tables behind small classes of their own over `db`
 * (`feeds/ledger.ts`, `feeds/settings.ts`, `feeds/subscriptions.ts`).
 */
import { type Db, type OpenDatabaseOptions, openDatabase } from './sqlite/database.js';
import { prepared } from './sqlite/statements.js';
import { camelCased } from './rows.js';
import { SecretBox } from './secrets.js';

export interface GuildSettings {
  guildId: string;
  eventorInstance: string | null;
  eventorBaseUrl: string | null;
  /** Whether an API key is stored; the key itself only through `apiKey()`. */
  hasApiKey: boolean;
  organisationId: string | null;
  organisationName: string | null;
  locale: string | null;
  timeZone: string | null;
  channels: Record<string, string>;
  updatedAt: string;
}

export interface AuditEntry {
  actorId: string;
  subjectId: string | null;
  personId: string | null;
  action: string;
  detail: string | null;
  at: string;
}

/**
 * How a member came to be linked to a person: `credentials` (they gave Eventor the person's user
 * name and password), `admin` (an admin linked them with /admin link) or `approval` (an admin
 * approved their /link request). Only `credentials` proves the member IS the person.
 */
export type LinkMethod = 'credentials' | 'admin' | 'approval';

/** The one way of linking that lets a member act as the person in Eventor (login links, chip changes). */
export const PROVEN_LINK: LinkMethod = 'credentials';

export interface LinkedPerson {
  personId: string;
  isDefault: boolean;
  method: LinkMethod;
  linkedAt: string;
}

export interface LinkingMethods {
  /** Members prove who they are with their Eventor user name and password. */
  credentials: boolean;
  /** Members name themselves and an admin approves. */
  approval: boolean;
}

export interface LinkRequest {
  id: number;
  guildId: string;
  userId: string;
  personId: string;
  /** The requester's language, for the DM with the outcome. */
  locale: string;
  state: 'pending' | 'approved' | 'denied';
  decidedBy: string | null;
  createdAt: string;
  decidedAt: string | null;
}

interface LinkRequestRow {
  id: number;
  guild_id: string;
  user_id: string;
  person_id: string;
  locale: string;
  state: string;
  decided_by: string | null;
  created_at: string;
  decided_at: string | null;
}

function linkRequestOf(r: LinkRequestRow): LinkRequest {
  return { ...camelCased(r), state: r.state as LinkRequest['state'] };
}

export type GuildSettingsUpdate = Partial<
  Pick<
    GuildSettings,
    'eventorInstance' | 'eventorBaseUrl' | 'organisationId' | 'organisationName' | 'locale' | 'timeZone'
  >
>;

interface GuildRow {
  guild_id: string;
  eventor_instance: string | null;
  eventor_base_url: string | null;
  api_key_sealed: string | null;
  organisation_id: string | null;
  organisation_name: string | null;
  locale: string | null;
  time_zone: string | null;
  updated_at: string;
}

const COLUMNS: Record<keyof GuildSettingsUpdate, string> = {
  eventorInstance: 'eventor_instance',
  eventorBaseUrl: 'eventor_base_url',
  organisationId: 'organisation_id',
  organisationName: 'organisation_name',
  locale: 'locale',
  timeZone: 'time_zone',
};

/** Every table with a server's data (`guild_id`), settings last: what `forgetGuild` deletes. */
const GUILD_TABLES = [
  'guild_channels',
  'member_links',
  'link_requests',
  'link_settings',
  'audit_log',
  'posted_items',
  'post_claims',
  'feed_state',
  'feed_settings',
  'notify_subscriptions',
  'guild_settings',
] as const;

export class Store {
  readonly #db: Db;
  readonly #secrets: SecretBox;
  readonly #now: () => Date;

  constructor(db: Db, secrets: SecretBox, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#secrets = secrets;
    this.#now = now;
  }

  static open(file: string, secretKey: string, now?: () => Date, options: OpenDatabaseOptions = {}): Store {
    const secrets = new SecretBox(secretKey);
    return new Store(openDatabase(file, undefined, options), secrets, now);
  }

  /**
   * `open` with a key still being derived (`SecretBox.derive`): the database is opened and
   * migrated on this thread while scrypt runs in the thread pool. When the key fails, the database
   * is closed again.
   */
  static async openWith(
    file: string,
    secrets: Promise<SecretBox>,
    now?: () => Date,
    options: OpenDatabaseOptions = {},
  ): Promise<Store> {
    let db: Db;
    try {
      db = openDatabase(file, undefined, options);
    } catch (error) {
      // The database's failure is the one to tell; the key's would only hide it.
      secrets.catch(() => undefined);
      throw error;
    }
    try {
      return new Store(db, await secrets, now);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  get db(): Db {
    return this.#db;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  guildSettings(guildId: string): GuildSettings | null {
    // Compiled once (`prepared`): the feed scheduler reads every server's settings on every tick.
    const row = prepared(this.#db, 'SELECT * FROM guild_settings WHERE guild_id = ?').get(guildId) as
      GuildRow | undefined;
    if (!row) return null;
    const channels = prepared(
      this.#db,
      'SELECT kind, channel_id FROM guild_channels WHERE guild_id = ? ORDER BY kind',
    ).all(guildId) as Array<{ kind: string; channel_id: string }>;
    return {
      guildId: row.guild_id,
      eventorInstance: row.eventor_instance,
      eventorBaseUrl: row.eventor_base_url,
      hasApiKey: row.api_key_sealed !== null,
      organisationId: row.organisation_id,
      organisationName: row.organisation_name,
      locale: row.locale,
      timeZone: row.time_zone,
      channels: Object.fromEntries(channels.map((c) => [c.kind, c.channel_id])),
      updatedAt: row.updated_at,
    };
  }

  updateGuildSettings(guildId: string, update: GuildSettingsUpdate): GuildSettings {
    const now = this.#now().toISOString();
    this.#db.transaction(() => {
      this.#ensureGuild(guildId, now);
      for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof GuildSettingsUpdate, string]>) {
        if (field in update) {
          this.#db
            .prepare(`UPDATE guild_settings SET ${column} = ?, updated_at = ? WHERE guild_id = ?`)
            .run(update[field] ?? null, now, guildId);
        }
      }
    })();
    return this.guildSettings(guildId)!;
  }

  /** Stores the key sealed, together with the organisation it was checked against, in one step. */
  setApiKey(guildId: string, apiKey: string, organisation: { id: string; name: string }): void {
    const now = this.#now().toISOString();
    const sealed = this.#secrets.seal(apiKey);
    this.#db.transaction(() => {
      this.#ensureGuild(guildId, now);
      this.#db
        .prepare(
          'UPDATE guild_settings SET api_key_sealed = ?, organisation_id = ?, organisation_name = ?, updated_at = ? WHERE guild_id = ?',
        )
        .run(sealed, organisation.id, organisation.name, now, guildId);
    })();
  }

  /**
   * Points a server at an Eventor with a key that was just checked: instance, base URL, sealed
   * key and organisation change together or not at all, so a half-written connection (a new key
   * with the old instance) can never be read back.
   */
  connectEventor(
    guildId: string,
    connection: {
      instance: string;
      baseUrl: string | null;
      apiKey: string;
      organisation: { id: string; name: string };
    },
  ): GuildSettings {
    const now = this.#now().toISOString();
    const sealed = this.#secrets.seal(connection.apiKey);
    this.#db.transaction(() => {
      this.#ensureGuild(guildId, now);
      this.#db
        .prepare(
          'UPDATE guild_settings SET eventor_instance = ?, eventor_base_url = ?, api_key_sealed = ?, organisation_id = ?, organisation_name = ?, updated_at = ? WHERE guild_id = ?',
        )
        .run(
          connection.instance,
          connection.baseUrl,
          sealed,
          connection.organisation.id,
          connection.organisation.name,
          now,
          guildId,
        );
    })();
    return this.guildSettings(guildId)!;
  }

  apiKey(guildId: string): string | null {
    const row = this.#db.prepare('SELECT api_key_sealed FROM guild_settings WHERE guild_id = ?').get(guildId) as
      { api_key_sealed: string | null } | undefined;
    return row?.api_key_sealed ? this.#secrets.open(row.api_key_sealed) : null;
  }

  setChannel(guildId: string, kind: string, channelId: string | null): void {
    const now = this.#now().toISOString();
    this.#db.transaction(() => {
      this.#ensureGuild(guildId, now);
      if (channelId === null)
        this.#db.prepare('DELETE FROM guild_channels WHERE guild_id = ? AND kind = ?').run(guildId, kind);
      else
        this.#db
          .prepare(
            'INSERT INTO guild_channels (guild_id, kind, channel_id) VALUES (?, ?, ?) ON CONFLICT (guild_id, kind) DO UPDATE SET channel_id = excluded.channel_id',
          )
          .run(guildId, kind, channelId);
      this.#db.prepare('UPDATE guild_settings SET updated_at = ? WHERE guild_id = ?').run(now, guildId);
    })();
  }

  /** The Eventor persons a Discord user has linked in a server, the default first. */
  linkedPersons(guildId: string, userId: string): LinkedPerson[] {
    const rows = this.#db
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
    const now = this.#now().toISOString();
    this.#db.transaction(() => {
      const hasDefault =
        this.#db
          .prepare('SELECT 1 FROM member_links WHERE guild_id = ? AND user_id = ? AND is_default = 1')
          .get(guildId, userId) !== undefined;
      this.#db
        .prepare(
          `INSERT INTO member_links (guild_id, user_id, person_id, is_default, method, linked_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (guild_id, user_id, person_id) DO UPDATE SET method = CASE WHEN excluded.method = '${PROVEN_LINK}' THEN excluded.method ELSE member_links.method END`,
        )
        .run(guildId, userId, personId, hasDefault ? 0 : 1, method, now);
    })();
  }

  /**
   * Records what a member or admin did. `actorId` is who acted (a Discord user), `subjectId` whom
   * it concerned (a Discord user, when another), `personId` the Eventor person. `detail` must
   * never hold a login link, a password or a key.
   */
  audit(entry: {
    guildId: string;
    actorId: string;
    subjectId?: string | null;
    personId?: string | null;
    action: string;
    detail?: string | null;
  }): void {
    this.#db
      .prepare(
        'INSERT INTO audit_log (guild_id, actor_id, subject_id, person_id, action, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        entry.guildId,
        entry.actorId,
        entry.subjectId ?? null,
        entry.personId ?? null,
        entry.action,
        entry.detail ?? null,
        this.#now().toISOString(),
      );
  }

  /** The newest audit entries of a server, newest first. */
  auditLog(guildId: string, limit = 50): AuditEntry[] {
    const rows = this.#db
      .prepare(
        'SELECT actor_id, subject_id, person_id, action, detail, at FROM audit_log WHERE guild_id = ? ORDER BY at DESC, id DESC LIMIT ?',
      )
      .all(guildId, limit) as Array<{
      actor_id: string;
      subject_id: string | null;
      person_id: string | null;
      action: string;
      detail: string | null;
      at: string;
    }>;
    return rows.map((r) => ({
      actorId: r.actor_id,
      subjectId: r.subject_id,
      personId: r.person_id,
      action: r.action,
      detail: r.detail,
      at: r.at,
    }));
  }

  /** How many times `actorId` did `action` in a server since `since` (for rate limits), and the oldest of them. */
  recentActions(
    guildId: string,
    actorId: string,
    action: string,
    since: Date,
  ): { count: number; oldest: string | null } {
    const row = this.#db
      .prepare(
        'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM audit_log WHERE guild_id = ? AND actor_id = ? AND action = ? AND at >= ?',
      )
      .get(guildId, actorId, action, since.toISOString()) as { n: number; oldest: string | null };
    return { count: row.n, oldest: row.oldest };
  }

  // --- linking: requests, defaults, unlinking, the ways a server allows, forgetting ---

  /** Which ways of linking a server allows; both until an admin says otherwise. */
  linkingMethods(guildId: string): LinkingMethods {
    const row = this.#db.prepare('SELECT credentials, approval FROM link_settings WHERE guild_id = ?').get(guildId) as
      { credentials: number; approval: number } | undefined;
    return { credentials: row ? row.credentials === 1 : true, approval: row ? row.approval === 1 : true };
  }

  setLinkingMethods(guildId: string, update: Partial<LinkingMethods>): LinkingMethods {
    const next = { ...this.linkingMethods(guildId), ...update };
    this.#db
      .prepare(
        'INSERT INTO link_settings (guild_id, credentials, approval) VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET credentials = excluded.credentials, approval = excluded.approval',
      )
      .run(guildId, next.credentials ? 1 : 0, next.approval ? 1 : 0);
    return next;
  }

  /** Removes one link; when it was the default, the oldest remaining link becomes the default. */
  unlinkPerson(guildId: string, userId: string, personId: string): boolean {
    return this.#db.transaction(() => {
      const removed =
        this.#db
          .prepare('DELETE FROM member_links WHERE guild_id = ? AND user_id = ? AND person_id = ?')
          .run(guildId, userId, personId).changes > 0;
      const hasDefault =
        this.#db
          .prepare('SELECT 1 FROM member_links WHERE guild_id = ? AND user_id = ? AND is_default = 1')
          .get(guildId, userId) !== undefined;
      if (!hasDefault) {
        this.#db
          .prepare(
            'UPDATE member_links SET is_default = 1 WHERE rowid = (SELECT rowid FROM member_links WHERE guild_id = ? AND user_id = ? ORDER BY linked_at LIMIT 1)',
          )
          .run(guildId, userId);
      }
      return removed;
    })();
  }

  /** Makes one of the user's linked persons their default; false when that person is not linked. */
  setDefaultPerson(guildId: string, userId: string, personId: string): boolean {
    return this.#db.transaction(() => {
      const linked =
        this.#db
          .prepare('SELECT 1 FROM member_links WHERE guild_id = ? AND user_id = ? AND person_id = ?')
          .get(guildId, userId, personId) !== undefined;
      if (!linked) return false;
      this.#db
        .prepare(
          'UPDATE member_links SET is_default = CASE WHEN person_id = ? THEN 1 ELSE 0 END WHERE guild_id = ? AND user_id = ?',
        )
        .run(personId, guildId, userId);
      return true;
    })();
  }

  /** Every link in a server, by user, the default first. */
  guildLinks(guildId: string): Array<LinkedPerson & { userId: string }> {
    const rows = this.#db
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

  createLinkRequest(request: { guildId: string; userId: string; personId: string; locale: string }): LinkRequest {
    const now = this.#now().toISOString();
    const id = this.#db
      .prepare(
        "INSERT INTO link_requests (guild_id, user_id, person_id, locale, state, created_at) VALUES (?, ?, ?, ?, 'pending', ?)",
      )
      .run(request.guildId, request.userId, request.personId, request.locale, now).lastInsertRowid;
    return this.linkRequest(Number(id))!;
  }

  linkRequest(id: number): LinkRequest | null {
    const row = this.#db.prepare('SELECT * FROM link_requests WHERE id = ?').get(id) as LinkRequestRow | undefined;
    return row ? linkRequestOf(row) : null;
  }

  /** A user's pending requests in a server. */
  pendingLinkRequests(guildId: string, userId: string): LinkRequest[] {
    const rows = this.#db
      .prepare("SELECT * FROM link_requests WHERE guild_id = ? AND user_id = ? AND state = 'pending' ORDER BY id")
      .all(guildId, userId) as LinkRequestRow[];
    return rows.map(linkRequestOf);
  }

  /** Removes a request that never reached the admins. */
  dropLinkRequest(id: number): void {
    this.#db.prepare("DELETE FROM link_requests WHERE id = ? AND state = 'pending'").run(id);
  }

  /**
   * Decides a pending request once: false when it is not pending any more (a second click, or a
   * click racing another admin's). Approval links the person in the same transaction.
   */
  decideLinkRequest(id: number, approve: boolean, deciderId: string): boolean {
    const now = this.#now().toISOString();
    return this.#db.transaction(() => {
      const changed =
        this.#db
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

  /**
   * Deletes everything held about a Discord user, in every server: links, link requests, and the
   * audit entries naming them. Deleted pages are overwritten and the WAL is emptied, so the bytes
   * do not linger in the file either.
   */
  forgetUser(userId: string): { links: number; requests: number; auditEntries: number } {
    return this.secureDeleting(() => {
      const counts = this.#db.transaction(() => {
        const links = this.#db.prepare('DELETE FROM member_links WHERE user_id = ?').run(userId).changes;
        const requests = this.#db.prepare('DELETE FROM link_requests WHERE user_id = ?').run(userId).changes;
        // A request the user decided as an admin belongs to its requester; only the decider's name goes.
        this.#db.prepare('UPDATE link_requests SET decided_by = NULL WHERE decided_by = ?').run(userId);
        const auditEntries = this.#db
          .prepare('DELETE FROM audit_log WHERE actor_id = ? OR subject_id = ?')
          .run(userId, userId).changes;
        return { links, requests, auditEntries };
      })();
      this.#db.pragma('wal_checkpoint(TRUNCATE)');
      return counts;
    });
  }

  /** A member's links and link requests in one server (they left it). */
  forgetMemberLinks(guildId: string, userId: string): { links: number; requests: number } {
    return this.#db.transaction(() => ({
      links: this.#db.prepare('DELETE FROM member_links WHERE guild_id = ? AND user_id = ?').run(guildId, userId)
        .changes,
      requests: this.#db.prepare('DELETE FROM link_requests WHERE guild_id = ? AND user_id = ?').run(guildId, userId)
        .changes,
    }))();
  }

  /**
   * The members of a server the bot holds something about: a link, a pending link request or a
   * `/notify` subscription, with a Discord locale of theirs when one is known (to tell them in it).
   */
  guildMembersHeld(guildId: string): Array<{ userId: string; locale: string | null }> {
    const rows = this.#db
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

  /** Every link and link request of a server (it moved to another Eventor or club: the persons are someone else's). */
  forgetGuildLinks(guildId: string): { links: number; requests: number } {
    return this.#db.transaction(() => ({
      links: this.#db.prepare('DELETE FROM member_links WHERE guild_id = ?').run(guildId).changes,
      requests: this.#db.prepare('DELETE FROM link_requests WHERE guild_id = ?').run(guildId).changes,
    }))();
  }

  /**
   * Everything held for a server the bot was removed from: settings with the sealed key,
   * channels, links, requests, the audit log, the ledger, feed settings and subscriptions.
   */
  forgetGuild(guildId: string): void {
    this.secureDeleting(() => {
      this.#db.transaction(() => {
        for (const table of [...GUILD_TABLES, 'guild_departures'])
          this.#db.prepare(`DELETE FROM ${table} WHERE guild_id = ?`).run(guildId);
      })();
      this.#db.pragma('wal_checkpoint(TRUNCATE)');
    });
  }

  // --- servers the bot was removed from, and members who left (SECURITY.md) ---

  /** Every server the store holds anything about. */
  knownGuildIds(): string[] {
    const union = GUILD_TABLES.map((table) => `SELECT guild_id FROM ${table}`).join(' UNION ');
    return (this.#db.prepare(`${union} ORDER BY guild_id`).all() as Array<{ guild_id: string }>).map((r) => r.guild_id);
  }

  /** The Discord users a server's data names as its members: links, link requests and `/notify` subscriptions. */
  memberIds(guildId: string): string[] {
    const rows = this.#db
      .prepare(
        'SELECT user_id FROM member_links WHERE guild_id = ? UNION SELECT user_id FROM link_requests WHERE guild_id = ? UNION SELECT user_id FROM notify_subscriptions WHERE guild_id = ? ORDER BY user_id',
      )
      .all(guildId, guildId, guildId) as Array<{ user_id: string }>;
    return rows.map((r) => r.user_id);
  }

  /** Records that the bot was removed from a server; an earlier record keeps its time. True when new. */
  recordGuildDeparture(guildId: string): boolean {
    return (
      this.#db
        .prepare('INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING')
        .run(guildId, this.#now().toISOString()).changes > 0
    );
  }

  /** The bot is back in the server: nothing is to be deleted. True when a departure was recorded. */
  cancelGuildDeparture(guildId: string): boolean {
    return this.#db.prepare('DELETE FROM guild_departures WHERE guild_id = ?').run(guildId).changes > 0;
  }

  /** Servers the bot was removed from, oldest first. */
  guildDepartures(): Array<{ guildId: string; leftAt: string }> {
    const rows = this.#db
      .prepare('SELECT guild_id, left_at FROM guild_departures ORDER BY left_at, guild_id')
      .all() as Array<{ guild_id: string; left_at: string }>;
    return rows.map((r) => ({ guildId: r.guild_id, leftAt: r.left_at }));
  }

  /** Runs `fn` with deleted rows overwritten on disk (`secure_delete`), then restores the setting. */
  secureDeleting<T>(fn: () => T): T {
    const secureDelete = this.#db.pragma('secure_delete', { simple: true });
    this.#db.pragma('secure_delete = ON');
    try {
      return fn();
    } finally {
      this.#db.pragma(`secure_delete = ${Number(secureDelete) ? 'ON' : 'OFF'}`);
    }
  }

  // --- limits that hold across servers and accounts (SECURITY.md) ---

  /**
   * Counts attempts of `scope` by `who` within `windowMs` and, when fewer than `limit`, records
   * this one, in one synchronous step: no other interaction can run between the check and the
   * record, so `limit` holds however many arrive at once. `who` is stored only as a keyed hash.
   * Returns whether this attempt is allowed and, when it is not, when the oldest counted attempt
   * leaves the window; when it is, `attempt` names the record for `giveBackThrottle`.
   *
   * A scope has one window, so every subject's attempts past it are dropped here too: nothing is
   * kept longer than its limit needs, whoever comes back.
   */
  takeThrottle(
    scope: string,
    who: string,
    limit: number,
    windowMs: number,
  ): { allowed: boolean; retryAt: Date | null; attempt: number | null } {
    const now = this.#now();
    const subject = this.#secrets.keyedHash(`${scope}\u0000${who}`);
    const since = new Date(now.getTime() - windowMs).toISOString();
    return this.#db
      .transaction(() => {
        this.#db.prepare('DELETE FROM throttle_events WHERE scope = ? AND at < ?').run(scope, since);
        const row = this.#db
          .prepare(
            'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM throttle_events WHERE scope = ? AND subject = ? AND at >= ?',
          )
          .get(scope, subject, since) as { n: number; oldest: string | null };
        if (row.n >= limit)
          return { allowed: false, retryAt: new Date(Date.parse(row.oldest!) + windowMs), attempt: null };
        const inserted = this.#db
          .prepare('INSERT INTO throttle_events (scope, subject, at) VALUES (?, ?, ?)')
          .run(scope, subject, now.toISOString());
        return { allowed: true, retryAt: null, attempt: Number(inserted.lastInsertRowid) };
      })
      .immediate();
  }

  /** Takes back one attempt `takeThrottle` recorded, when it turned out not to count (Eventor did not answer, the password was right). */
  giveBackThrottle(scope: string, who: string, attempt: number): void {
    // Scope and subject too: a row id alone could name a later row once the original was pruned.
    const subject = this.#secrets.keyedHash(`${scope}\u0000${who}`);
    this.#db
      .prepare('DELETE FROM throttle_events WHERE rowid = ? AND scope = ? AND subject = ?')
      .run(attempt, scope, subject);
  }

  /** Whether `who` has reached `limit` attempts of `scope` within the window, without recording one. */
  throttled(scope: string, who: string, limit: number, windowMs: number): { limited: boolean; retryAt: Date | null } {
    const now = this.#now();
    const subject = this.#secrets.keyedHash(`${scope}\u0000${who}`);
    const row = this.#db
      .prepare(
        'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM throttle_events WHERE scope = ? AND subject = ? AND at >= ?',
      )
      .get(scope, subject, new Date(now.getTime() - windowMs).toISOString()) as { n: number; oldest: string | null };
    return row.n >= limit
      ? { limited: true, retryAt: new Date(Date.parse(row.oldest!) + windowMs) }
      : { limited: false, retryAt: null };
  }

  /** Drops attempts older than `olderThanMs` in every scope (the longest window), so nothing is kept longer than a limit needs. */
  pruneThrottles(olderThanMs: number): number {
    return this.#db
      .prepare('DELETE FROM throttle_events WHERE at < ?')
      .run(new Date(this.#now().getTime() - olderThanMs).toISOString()).changes;
  }

  #ensureGuild(guildId: string, now: string): void {
    this.#db
      .prepare(
        'INSERT INTO guild_settings (guild_id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT (guild_id) DO NOTHING',
      )
      .run(guildId, now, now);
  }
}
