/**
 * The ledger of automatic posts: for each (server, feed, item key) the hash of what was posted, the
 * Discord message id, and a state. All the SQL of posted items and feed state lives here
 * (`posted_items`, `feed_state`: migrations 1, 4 and 6).
 *
 * States:
 * - `seeded`: the item existed when the feed started for the server, or a summary post stood in
 *   for it; it is not posted by itself (unless its feed follows changes to such items: `FeedItem.followSeeded`).
 * - `posting`: the intent to post (with `nonce`) was recorded; the message may or may not exist.
 * - `posted`: the message exists with `messageId` and shows the content of `contentHash`.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { camelCased } from '../../store/rows.js';
import type { Store } from '../../store/store.js';
import { prepared } from '../../store/sqlite/statements.js';

/**
 * How long a claim on an item holds without its owner releasing it: longer than one post with
 * Discord's retries and rate limits. Past it, another process may take over (and, finding the row
 * `posting`, looks for the marker and resends with the same nonce, which Discord deduplicates).
 */
export const CLAIM_LEASE_MS = 10 * 60_000;

/** Whether the process that wrote `owner` (host:pid:random) may still run. Only this host's processes can be checked. */
function ownerMayBeAlive(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname()) return true;
  const id = Number(pid);
  if (!Number.isSafeInteger(id) || id <= 0) return true;
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type LedgerState = 'seeded' | 'posting' | 'posted';

export interface LedgerRow {
  guildId: string;
  feed: string;
  itemKey: string;
  contentHash: string;
  channelId: string;
  messageId: string | null;
  state: LedgerState;
  nonce: string | null;
  /** While `posting`: the message as JSON, so the post can be finished without recomputing it. */
  pendingPayload: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  guild_id: string;
  feed: string;
  item_key: string;
  content_hash: string;
  channel_id: string;
  message_id: string | null;
  state: string;
  nonce: string | null;
  pending_payload: string | null;
  created_at: string;
  updated_at: string;
}

function rowOf(r: Row): LedgerRow {
  return { ...camelCased(r), state: r.state as LedgerState };
}

export interface ItemRef {
  guildId: string;
  feed: string;
  itemKey: string;
}

export class Ledger {
  readonly #store: Store;
  readonly #now: () => Date;

  /** Who holds this ledger's claims: this process, and this ledger within it. */
  readonly #owner = `${hostname().replaceAll(':', '_')}:${process.pid}:${randomBytes(6).toString('hex')}`;

  constructor(store: Store, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#now = now;
  }

  /**
   * Claims the item for this ledger before anything about it is sent (a post, an edit, a summary),
   * so that any number of processes on one database post it once. Fails while another owner holds
   * a live claim; takes over one whose lease ran out or whose process on this host is gone. In one
   * IMMEDIATE transaction: the check and the write happen under SQLite's write lock.
   */
  claim(ref: ItemRef, leaseMs: number = CLAIM_LEASE_MS): boolean {
    const db = this.#store.db;
    const now = this.#now();
    return db
      .transaction(() => {
        const held = prepared(
          db,
          'SELECT owner, expires_at FROM post_claims WHERE guild_id = ? AND feed = ? AND item_key = ?',
        ).get(ref.guildId, ref.feed, ref.itemKey) as { owner: string; expires_at: string } | undefined;
        if (
          held &&
          held.owner !== this.#owner &&
          Date.parse(held.expires_at) > now.getTime() &&
          ownerMayBeAlive(held.owner)
        )
          return false;
        prepared(
          db,
          `INSERT INTO post_claims (guild_id, feed, item_key, owner, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, feed, item_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at`,
        ).run(ref.guildId, ref.feed, ref.itemKey, this.#owner, new Date(now.getTime() + leaseMs).toISOString());
        return true;
      })
      .immediate();
  }

  /** Gives up this ledger's claim on the item (another owner's stays). */
  release(ref: ItemRef): void {
    prepared(
      this.#store.db,
      'DELETE FROM post_claims WHERE guild_id = ? AND feed = ? AND item_key = ? AND owner = ?',
    ).run(ref.guildId, ref.feed, ref.itemKey, this.#owner);
  }

  get(ref: ItemRef): LedgerRow | null {
    const row = prepared(
      this.#store.db,
      'SELECT * FROM posted_items WHERE guild_id = ? AND feed = ? AND item_key = ?',
    ).get(ref.guildId, ref.feed, ref.itemKey) as Row | undefined;
    return row ? rowOf(row) : null;
  }

  rows(guildId: string, feed: string): LedgerRow[] {
    const rows = prepared(
      this.#store.db,
      'SELECT * FROM posted_items WHERE guild_id = ? AND feed = ? ORDER BY item_key',
    ).all(guildId, feed) as Row[];
    return rows.map(rowOf);
  }

  /** When the feed started for the server, or null before its first run. */
  feedStartedAt(guildId: string, feed: string): string | null {
    const row = prepared(this.#store.db, 'SELECT started_at FROM feed_state WHERE guild_id = ? AND feed = ?').get(
      guildId,
      feed,
    ) as { started_at: string } | undefined;
    return row?.started_at ?? null;
  }

  /**
   * The first run of a feed for a server: records the current items as `seeded` (never posted) and
   * the start, in one transaction, so a crash leaves either nothing or the whole seed.
   */
  seed(
    guildId: string,
    feed: string,
    channelId: string,
    items: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): void {
    const now = this.#now().toISOString();
    const db = this.#store.db;
    db.transaction(() => {
      const insert = prepared(
        db,
        `INSERT INTO posted_items (guild_id, feed, item_key, content_hash, channel_id, message_id, state, nonce, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, NULL, 'seeded', NULL, ?, ?) ON CONFLICT (guild_id, feed, item_key) DO NOTHING`,
      );
      for (const item of items) insert.run(guildId, feed, item.itemKey, item.contentHash, channelId, now, now);
      prepared(
        db,
        'INSERT INTO feed_state (guild_id, feed, started_at) VALUES (?, ?, ?) ON CONFLICT (guild_id, feed) DO NOTHING',
      ).run(guildId, feed, now);
    })();
  }

  /**
   * Records the intent to post (state `posting` with a fresh nonce and the message to send), before
   * anything is sent. `covers`: items the post stands in for (a summary instead of a burst), recorded
   * in the same transaction as `seeded`, so they are accounted for exactly when the summary is.
   */
  intend(
    ref: ItemRef,
    channelId: string,
    contentHash: string,
    nonce: string,
    payload: string | null = null,
    covers: ReadonlyArray<{ itemKey: string; contentHash: string }> = [],
  ): void {
    const now = this.#now().toISOString();
    const db = this.#store.db;
    db.transaction(() => {
      prepared(
        db,
        `INSERT INTO posted_items (guild_id, feed, item_key, content_hash, channel_id, message_id, state, nonce, pending_payload, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, NULL, 'posting', ?, ?, ?, ?)
         ON CONFLICT (guild_id, feed, item_key) DO UPDATE SET content_hash = excluded.content_hash, channel_id = excluded.channel_id,
           message_id = NULL, state = 'posting', nonce = excluded.nonce, pending_payload = excluded.pending_payload, updated_at = excluded.updated_at`,
      ).run(ref.guildId, ref.feed, ref.itemKey, contentHash, channelId, nonce, payload, now, now);
      const cover = prepared(
        db,
        `INSERT INTO posted_items (guild_id, feed, item_key, content_hash, channel_id, message_id, state, nonce, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, NULL, 'seeded', NULL, ?, ?) ON CONFLICT (guild_id, feed, item_key) DO NOTHING`,
      );
      for (const item of covers) cover.run(ref.guildId, ref.feed, item.itemKey, item.contentHash, channelId, now, now);
    })();
  }

  /** The message exists and shows `contentHash`. */
  posted(ref: ItemRef, messageId: string, contentHash: string): void {
    prepared(
      this.#store.db,
      `UPDATE posted_items SET state = 'posted', message_id = ?, content_hash = ?, pending_payload = NULL, updated_at = ? WHERE guild_id = ? AND feed = ? AND item_key = ?`,
    ).run(messageId, contentHash, this.#now().toISOString(), ref.guildId, ref.feed, ref.itemKey);
  }

  /** Posts of the feed begun but not known to be finished (a crash between intent and record). */
  unfinished(guildId: string, feed: string): LedgerRow[] {
    const rows = prepared(
      this.#store.db,
      `SELECT * FROM posted_items WHERE guild_id = ? AND feed = ? AND state = 'posting' ORDER BY created_at, item_key`,
    ).all(guildId, feed) as Row[];
    return rows.map(rowOf);
  }

  /** Whether another server has posted (or begun to post) this item of this feed. */
  postedElsewhere(ref: ItemRef): boolean {
    return (
      prepared(
        this.#store.db,
        `SELECT 1 FROM posted_items WHERE feed = ? AND item_key = ? AND guild_id != ? AND state IN ('posted', 'posting') LIMIT 1`,
      ).get(ref.feed, ref.itemKey, ref.guildId) !== undefined
    );
  }

  /** The feeds of a server whose names start with `prefix` and that have started (seeded). */
  startedFeeds(guildId: string, prefix: string): string[] {
    const rows = prepared(
      this.#store.db,
      'SELECT feed FROM feed_state WHERE guild_id = ? AND substr(feed, 1, ?) = ? ORDER BY feed',
    ).all(guildId, prefix.length, prefix) as Array<{ feed: string }>;
    return rows.map((r) => r.feed);
  }

  /**
   * Forgets feeds whose names start with `prefix` (or are exactly it), in one server or (null) in
   * every server: their items and their start, so they would seed again. In one transaction
   * (nested in the caller's when there is one).
   */
  forgetFeeds(guildId: string | null, prefix: string, options: { exact?: boolean } = {}): void {
    const db = this.#store.db;
    const match = options.exact ? 'feed = ?' : 'substr(feed, 1, ?) = ?';
    const matchArgs = options.exact ? [prefix] : [prefix.length, prefix];
    const where = guildId === null ? match : `guild_id = ? AND ${match}`;
    const args = guildId === null ? matchArgs : [guildId, ...matchArgs];
    db.transaction(() => {
      prepared(db, `DELETE FROM posted_items WHERE ${where}`).run(...args);
      prepared(db, `DELETE FROM feed_state WHERE ${where}`).run(...args);
      prepared(db, `DELETE FROM post_claims WHERE ${where}`).run(...args);
    })();
  }

  /** When the feed last ran to the end for the server (null: never, or before this was kept). */
  lastRunAt(guildId: string, feed: string): string | null {
    const row = prepared(this.#store.db, 'SELECT last_run_at FROM feed_state WHERE guild_id = ? AND feed = ?').get(
      guildId,
      feed,
    ) as { last_run_at: string | null } | undefined;
    return row?.last_run_at ?? null;
  }

  ranAt(guildId: string, feed: string, at: Date): void {
    prepared(this.#store.db, 'UPDATE feed_state SET last_run_at = ? WHERE guild_id = ? AND feed = ?').run(
      at.toISOString(),
      guildId,
      feed,
    );
  }

  /** A seeded item changed: remember the new hash, still without posting. */
  updateHash(ref: ItemRef, contentHash: string): void {
    prepared(
      this.#store.db,
      'UPDATE posted_items SET content_hash = ?, updated_at = ? WHERE guild_id = ? AND feed = ? AND item_key = ?',
    ).run(contentHash, this.#now().toISOString(), ref.guildId, ref.feed, ref.itemKey);
  }
}
