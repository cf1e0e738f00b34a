/**
 * The ledger of automatic posts (`posted_items`, `feed_state`, `post_claims`: migrations 1, 4, 6
 * and 9; docs/decisions/exactly-once-ledger.md). Statements are compiled once (`prepared`): the
 * scheduler reads every server's ledger on every tick.
 */
import type { ItemRef, LedgerRow, LedgerStore } from '../interfaces.js';
import { ledgerRowOf as rowOf, type PostedItemRow as Row } from '../rows.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

export class SqliteLedgerStore implements Synchronous<LedgerStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  /** In one IMMEDIATE transaction: the check and the write happen under SQLite's write lock. */
  claim(ref: ItemRef, owner: string, leaseMs: number, mayBeAlive: (owner: string) => boolean): boolean {
    const db = this.#ctx.db;
    const now = this.#ctx.now();
    return db
      .transaction(() => {
        const held = prepared(
          db,
          'SELECT owner, expires_at FROM post_claims WHERE guild_id = ? AND feed = ? AND item_key = ?',
        ).get(ref.guildId, ref.feed, ref.itemKey) as { owner: string; expires_at: string } | undefined;
        if (held && held.owner !== owner && Date.parse(held.expires_at) > now.getTime() && mayBeAlive(held.owner))
          return false;
        prepared(
          db,
          `INSERT INTO post_claims (guild_id, feed, item_key, owner, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, feed, item_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at`,
        ).run(ref.guildId, ref.feed, ref.itemKey, owner, new Date(now.getTime() + leaseMs).toISOString());
        return true;
      })
      .immediate();
  }

  release(ref: ItemRef, owner: string): void {
    prepared(
      this.#ctx.db,
      'DELETE FROM post_claims WHERE guild_id = ? AND feed = ? AND item_key = ? AND owner = ?',
    ).run(ref.guildId, ref.feed, ref.itemKey, owner);
  }

  get(ref: ItemRef): LedgerRow | null {
    const row = prepared(
      this.#ctx.db,
      'SELECT * FROM posted_items WHERE guild_id = ? AND feed = ? AND item_key = ?',
    ).get(ref.guildId, ref.feed, ref.itemKey) as Row | undefined;
    return row ? rowOf(row) : null;
  }

  rows(guildId: string, feed: string): LedgerRow[] {
    const rows = prepared(
      this.#ctx.db,
      'SELECT * FROM posted_items WHERE guild_id = ? AND feed = ? ORDER BY item_key',
    ).all(guildId, feed) as Row[];
    return rows.map(rowOf);
  }

  feedStartedAt(guildId: string, feed: string): string | null {
    const row = prepared(this.#ctx.db, 'SELECT started_at FROM feed_state WHERE guild_id = ? AND feed = ?').get(
      guildId,
      feed,
    ) as { started_at: string } | undefined;
    return row?.started_at ?? null;
  }

  seed(
    guildId: string,
    feed: string,
    channelId: string,
    items: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): void {
    const now = this.#ctx.now().toISOString();
    const db = this.#ctx.db;
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

  intend(
    ref: ItemRef,
    channelId: string,
    contentHash: string,
    nonce: string,
    payload: string | null,
    covers: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): void {
    const now = this.#ctx.now().toISOString();
    const db = this.#ctx.db;
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

  posted(ref: ItemRef, messageId: string, contentHash: string): void {
    prepared(
      this.#ctx.db,
      `UPDATE posted_items SET state = 'posted', message_id = ?, content_hash = ?, pending_payload = NULL, updated_at = ? WHERE guild_id = ? AND feed = ? AND item_key = ?`,
    ).run(messageId, contentHash, this.#ctx.now().toISOString(), ref.guildId, ref.feed, ref.itemKey);
  }

  unfinished(guildId: string, feed: string): LedgerRow[] {
    const rows = prepared(
      this.#ctx.db,
      `SELECT * FROM posted_items WHERE guild_id = ? AND feed = ? AND state = 'posting' ORDER BY created_at, item_key`,
    ).all(guildId, feed) as Row[];
    return rows.map(rowOf);
  }

  postedElsewhere(ref: ItemRef): boolean {
    return (
      prepared(
        this.#ctx.db,
        `SELECT 1 FROM posted_items WHERE feed = ? AND item_key = ? AND guild_id != ? AND state IN ('posted', 'posting') LIMIT 1`,
      ).get(ref.feed, ref.itemKey, ref.guildId) !== undefined
    );
  }

  startedFeeds(guildId: string, prefix: string): string[] {
    const rows = prepared(
      this.#ctx.db,
      'SELECT feed FROM feed_state WHERE guild_id = ? AND substr(feed, 1, ?) = ? ORDER BY feed',
    ).all(guildId, prefix.length, prefix) as Array<{ feed: string }>;
    return rows.map((r) => r.feed);
  }

  /** In one transaction (nested in the caller's when there is one). */
  forgetFeeds(guildId: string | null, prefix: string, options: { exact?: boolean } = {}): void {
    const db = this.#ctx.db;
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

  lastRunAt(guildId: string, feed: string): string | null {
    const row = prepared(this.#ctx.db, 'SELECT last_run_at FROM feed_state WHERE guild_id = ? AND feed = ?').get(
      guildId,
      feed,
    ) as { last_run_at: string | null } | undefined;
    return row?.last_run_at ?? null;
  }

  ranAt(guildId: string, feed: string, at: Date): void {
    prepared(this.#ctx.db, 'UPDATE feed_state SET last_run_at = ? WHERE guild_id = ? AND feed = ?').run(
      at.toISOString(),
      guildId,
      feed,
    );
  }

  updateHash(ref: ItemRef, contentHash: string): void {
    prepared(
      this.#ctx.db,
      'UPDATE posted_items SET content_hash = ?, updated_at = ? WHERE guild_id = ? AND feed = ? AND item_key = ?',
    ).run(contentHash, this.#ctx.now().toISOString(), ref.guildId, ref.feed, ref.itemKey);
  }
}
