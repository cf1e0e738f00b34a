/**
 * Personal DM subscriptions (`/notify`, table of migration 7): per server and member, whether
 * start-time and result DMs are on, the member's language, their DM channel once opened, and a
 * pause the bot sets when Discord refuses the DMs.
 *
 * It also keeps the personal ledger tidy: each member's DMs go through the feeds' ledger under
 * feed names `personal:<userId>:<kind>:<personId>`, and those rows name the member, so they go
 * when the member turns a kind off (the next turn-on then starts from that moment, like a new
 * feed), when a person is unlinked, and on /forget-me.
 */
import { camelCased } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { ledgerKey, ledgerKeyPrefix } from './delivery/keys.js';
import { Ledger } from './delivery/ledger.js';

export const NOTIFY_KINDS = ['starts', 'results'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/** Why the bot stopped DMing a member: DMs refused (50007), or the DM channel cannot be opened or is gone. */
export type NotifyPause = 'dms-closed' | 'dm-unavailable';

export interface Subscription {
  guildId: string;
  userId: string;
  starts: boolean;
  results: boolean;
  /** The member's Discord locale when they last used /notify: DMs are in that language. */
  locale: string;
  dmChannelId: string | null;
  pausedReason: NotifyPause | null;
  pausedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  guild_id: string;
  user_id: string;
  starts: number;
  results: number;
  locale: string;
  dm_channel_id: string | null;
  paused_reason: string | null;
  paused_at: string | null;
  created_at: string;
  updated_at: string;
}

function subscriptionOf(r: Row): Subscription {
  return {
    ...camelCased(r),
    starts: r.starts === 1,
    results: r.results === 1,
    pausedReason: r.paused_reason as NotifyPause | null,
  };
}

/** The namespace of the members' DM feeds in the ledger (and the scheduler's name for them). */
export const MEMBER_DMS_NAMESPACE = 'personal';

/** The ledger feed of one member's DMs of one kind about one linked person. */
export function personalFeed(userId: string, kind: NotifyKind, personId: string): string {
  return ledgerKey(MEMBER_DMS_NAMESPACE, userId, kind, personId);
}

function memberPrefix(userId: string): string {
  return ledgerKeyPrefix(MEMBER_DMS_NAMESPACE, userId);
}

export class SubscriptionStore {
  readonly #store: Store;
  readonly #now: () => Date;

  constructor(store: Store, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#now = now;
  }

  get(guildId: string, userId: string): Subscription | null {
    const row = this.#store.db
      .prepare('SELECT * FROM notify_subscriptions WHERE guild_id = ? AND user_id = ?')
      .get(guildId, userId) as Row | undefined;
    return row ? subscriptionOf(row) : null;
  }

  /**
   * Turns kinds on or off. Turning any kind on clears a pause (the member says DMs work again; a
   * DM channel that could not be used is opened afresh);
   * a kind turned off forgets its personal ledger, so turning it on later starts from then instead
   * of sending what came out in between. With everything off, nothing about the member is kept.
   */
  set(
    guildId: string,
    userId: string,
    change: Partial<Record<NotifyKind, boolean>>,
    locale: string,
  ): Subscription | null {
    const now = this.#now().toISOString();
    const db = this.#store.db;
    return db.transaction(() => {
      const current = this.get(guildId, userId);
      const next = {
        starts: change.starts ?? current?.starts ?? false,
        results: change.results ?? current?.results ?? false,
      };
      for (const kind of NOTIFY_KINDS)
        if (!next[kind]) this.#dropFeeds(guildId, ledgerKeyPrefix(MEMBER_DMS_NAMESPACE, userId, kind));
      if (!next.starts && !next.results) {
        db.prepare('DELETE FROM notify_subscriptions WHERE guild_id = ? AND user_id = ?').run(guildId, userId);
        return null;
      }
      const resume = change.starts === true || change.results === true;
      db.prepare(
        `INSERT INTO notify_subscriptions (guild_id, user_id, starts, results, locale, dm_channel_id, paused_reason, paused_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?)
         ON CONFLICT (guild_id, user_id) DO UPDATE SET starts = excluded.starts, results = excluded.results, locale = excluded.locale,
           dm_channel_id = CASE WHEN ? AND paused_reason = 'dm-unavailable' THEN NULL ELSE dm_channel_id END,
           paused_reason = CASE WHEN ? THEN NULL ELSE paused_reason END, paused_at = CASE WHEN ? THEN NULL ELSE paused_at END,
           updated_at = excluded.updated_at`,
      ).run(
        guildId,
        userId,
        next.starts ? 1 : 0,
        next.results ? 1 : 0,
        locale,
        now,
        now,
        resume ? 1 : 0,
        resume ? 1 : 0,
        resume ? 1 : 0,
      );
      return this.get(guildId, userId);
    })();
  }

  /** Members of a server with at least one kind on and no pause, in a stable order. */
  active(guildId: string): Subscription[] {
    const rows = this.#store.db
      .prepare(
        'SELECT * FROM notify_subscriptions WHERE guild_id = ? AND (starts = 1 OR results = 1) AND paused_reason IS NULL ORDER BY user_id',
      )
      .all(guildId) as Row[];
    return rows.map(subscriptionOf);
  }

  /** Servers where at least one member gets DMs (paused members do not count). */
  guildsWithSubscribers(): string[] {
    const rows = this.#store.db
      .prepare(
        'SELECT DISTINCT guild_id FROM notify_subscriptions WHERE (starts = 1 OR results = 1) AND paused_reason IS NULL ORDER BY guild_id',
      )
      .all() as Array<{ guild_id: string }>;
    return rows.map((r) => r.guild_id);
  }

  setDmChannel(guildId: string, userId: string, channelId: string | null): void {
    this.#store.db
      .prepare('UPDATE notify_subscriptions SET dm_channel_id = ?, updated_at = ? WHERE guild_id = ? AND user_id = ?')
      .run(channelId, this.#now().toISOString(), guildId, userId);
  }

  /** Stops the member's DMs until they turn them on again; false when there is nothing to pause. */
  pause(guildId: string, userId: string, reason: NotifyPause): boolean {
    const now = this.#now().toISOString();
    return (
      this.#store.db
        .prepare(
          'UPDATE notify_subscriptions SET paused_reason = ?, paused_at = ?, updated_at = ? WHERE guild_id = ? AND user_id = ? AND paused_reason IS NULL',
        )
        .run(reason, now, now, guildId, userId).changes > 0
    );
  }

  /** The member's personal ledger feeds in a server that have started. */
  personalFeeds(guildId: string, userId: string): string[] {
    return new Ledger(this.#store).startedFeeds(guildId, memberPrefix(userId));
  }

  /** Forgets one personal ledger feed (a person no longer linked, a kind turned off). */
  dropFeed(guildId: string, feed: string): void {
    new Ledger(this.#store).forgetFeeds(guildId, feed, { exact: true });
  }

  #dropFeeds(guildId: string, prefix: string): void {
    new Ledger(this.#store).forgetFeeds(guildId, prefix);
  }

  /** A member's subscription and personal ledger in one server (they left it, or the server changed club). */
  forgetMember(guildId: string, userId: string): number {
    const db = this.#store.db;
    return db.transaction(() => {
      const removed = db
        .prepare('DELETE FROM notify_subscriptions WHERE guild_id = ? AND user_id = ?')
        .run(guildId, userId).changes;
      new Ledger(this.#store).forgetFeeds(guildId, memberPrefix(userId));
      return removed;
    })();
  }

  /** Every member's subscription and personal ledger in one server. */
  forgetGuild(guildId: string): number {
    const db = this.#store.db;
    return db.transaction(() => {
      const removed = db.prepare('DELETE FROM notify_subscriptions WHERE guild_id = ?').run(guildId).changes;
      new Ledger(this.#store).forgetFeeds(guildId, ledgerKeyPrefix(MEMBER_DMS_NAMESPACE));
      return removed;
    })();
  }

  /**
   * /forget-me: the member's subscriptions and personal ledger in every server, overwritten on
   * disk (`secure_delete`); the caller's `Store.forgetUser` empties the WAL afterwards.
   */
  forgetUser(userId: string): number {
    const db = this.#store.db;
    return this.#store.secureDeleting(() =>
      db.transaction(() => {
        const removed = db.prepare('DELETE FROM notify_subscriptions WHERE user_id = ?').run(userId).changes;
        new Ledger(this.#store).forgetFeeds(null, memberPrefix(userId));
        return removed;
      })(),
    );
  }
}
