/**
 * The ledger of automatic posts on PostgreSQL (posted_items, feed_state, post_claims): the same
 * states and steps as on SQLite (docs/decisions/exactly-once-ledger.md), each one atomic across
 * every process on the database.
 */
import type { ItemRef, LedgerRow, LedgerStore } from '../interfaces.js';
import { ledgerRowOf as rowOf, type PostedItemRow as Row } from '../rows.js';
import type { PartContext, Queryable } from './connection.js';

/** How often a claim looks again when the row it found another owner's was released meanwhile. */
const CLAIM_ATTEMPTS = 3;

/**
 * Forgets feeds starting with `prefix` (or exactly it), in one server or (null) every server: items,
 * start and claims. Inside a step of the caller's (subscriptions and forgetting use it too).
 */
export async function forgetFeeds(q: Queryable, guildId: string | null, prefix: string, exact = false): Promise<void> {
  const match = exact ? 'feed = $1' : 'starts_with(feed, $1)';
  const where = guildId === null ? match : `${match} AND guild_id = $2`;
  const args = guildId === null ? [prefix] : [prefix, guildId];
  for (const table of ['posted_items', 'feed_state', 'post_claims'])
    await q.query(`DELETE FROM ${table} WHERE ${where}`, args);
}

const SEEDED = `INSERT INTO posted_items (guild_id, feed, item_key, content_hash, channel_id, message_id, state, nonce, created_at, updated_at)
  SELECT $1, $2, item.key, item.hash, $3, NULL, 'seeded', NULL, $4, $4 FROM unnest($5::text[], $6::text[]) AS item (key, hash)
  ON CONFLICT (guild_id, feed, item_key) DO NOTHING`;

function seededArgs(
  guildId: string,
  feed: string,
  channelId: string,
  now: string,
  items: ReadonlyArray<{ itemKey: string; contentHash: string }>,
): unknown[] {
  return [guildId, feed, channelId, now, items.map((i) => i.itemKey), items.map((i) => i.contentHash)];
}

export class PostgresLedgerStore implements LedgerStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  /**
   * Takes the claim when there is none, it is the owner's own, or its lease ran out, in one
   * statement (the conflicting row is locked and its condition evaluated again on its latest
   * version, so two processes never both take it; one inserting the first claim makes the other
   * wait, then find it). Another owner's live claim is locked and kept unless `mayBeAlive` says
   * that owner is gone. The lease ends on the store's clock (docs/decisions/postgres-leases.md).
   */
  claim(ref: ItemRef, owner: string, leaseMs: number, mayBeAlive: (owner: string) => boolean): Promise<boolean> {
    const now = this.#ctx.now();
    const at = now.toISOString();
    const expires = new Date(now.getTime() + leaseMs).toISOString();
    const key = [ref.guildId, ref.feed, ref.itemKey];
    return this.#ctx.db.atomic(async (q) => {
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const taken = await q.query(
          `INSERT INTO post_claims (guild_id, feed, item_key, owner, expires_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (guild_id, feed, item_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
           WHERE post_claims.owner = excluded.owner OR post_claims.expires_at <= $6`,
          [...key, owner, expires, at],
        );
        if (taken.rowCount) return true;
        const held = await q.query<{ owner: string; expires_at: string }>(
          'SELECT owner, expires_at FROM post_claims WHERE guild_id = $1 AND feed = $2 AND item_key = $3 FOR UPDATE',
          key,
        );
        const row = held.rows[0];
        // Released between the two statements: try again from the start.
        if (!row) continue;
        if (row.owner !== owner && row.expires_at > at && mayBeAlive(row.owner)) return false;
        await q.query(
          'UPDATE post_claims SET owner = $4, expires_at = $5 WHERE guild_id = $1 AND feed = $2 AND item_key = $3',
          [...key, owner, expires],
        );
        return true;
      }
      return false;
    });
  }

  async release(ref: ItemRef, owner: string): Promise<void> {
    await this.#ctx.db.query(
      'DELETE FROM post_claims WHERE guild_id = $1 AND feed = $2 AND item_key = $3 AND owner = $4',
      [ref.guildId, ref.feed, ref.itemKey, owner],
    );
  }

  async get(ref: ItemRef): Promise<LedgerRow | null> {
    const { rows } = await this.#ctx.db.query<Row>(
      'SELECT * FROM posted_items WHERE guild_id = $1 AND feed = $2 AND item_key = $3',
      [ref.guildId, ref.feed, ref.itemKey],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  async rows(guildId: string, feed: string): Promise<LedgerRow[]> {
    const { rows } = await this.#ctx.db.query<Row>(
      'SELECT * FROM posted_items WHERE guild_id = $1 AND feed = $2 ORDER BY item_key',
      [guildId, feed],
    );
    return rows.map(rowOf);
  }

  async feedStartedAt(guildId: string, feed: string): Promise<string | null> {
    const { rows } = await this.#ctx.db.query<{ started_at: string }>(
      'SELECT started_at FROM feed_state WHERE guild_id = $1 AND feed = $2',
      [guildId, feed],
    );
    return rows[0]?.started_at ?? null;
  }

  async seed(
    guildId: string,
    feed: string,
    channelId: string,
    items: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): Promise<void> {
    const now = this.#ctx.now().toISOString();
    await this.#ctx.db.atomic(async (q) => {
      await q.query(SEEDED, seededArgs(guildId, feed, channelId, now, items));
      await q.query(
        'INSERT INTO feed_state (guild_id, feed, started_at) VALUES ($1, $2, $3) ON CONFLICT (guild_id, feed) DO NOTHING',
        [guildId, feed, now],
      );
    });
  }

  async intend(
    ref: ItemRef,
    channelId: string,
    contentHash: string,
    nonce: string,
    payload: string | null,
    covers: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): Promise<void> {
    const now = this.#ctx.now().toISOString();
    await this.#ctx.db.atomic(async (q) => {
      await q.query(
        `INSERT INTO posted_items (guild_id, feed, item_key, content_hash, channel_id, message_id, state, nonce, pending_payload, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, NULL, 'posting', $6, $7, $8, $8)
         ON CONFLICT (guild_id, feed, item_key) DO UPDATE SET content_hash = excluded.content_hash, channel_id = excluded.channel_id,
           message_id = NULL, state = 'posting', nonce = excluded.nonce, pending_payload = excluded.pending_payload,
           updated_at = excluded.updated_at`,
        [ref.guildId, ref.feed, ref.itemKey, contentHash, channelId, nonce, payload, now],
      );
      if (covers.length > 0) await q.query(SEEDED, seededArgs(ref.guildId, ref.feed, channelId, now, covers));
    });
  }

  async posted(ref: ItemRef, messageId: string, contentHash: string): Promise<void> {
    await this.#ctx.db.query(
      `UPDATE posted_items SET state = 'posted', message_id = $1, content_hash = $2, pending_payload = NULL, updated_at = $3
       WHERE guild_id = $4 AND feed = $5 AND item_key = $6`,
      [messageId, contentHash, this.#ctx.now().toISOString(), ref.guildId, ref.feed, ref.itemKey],
    );
  }

  async unfinished(guildId: string, feed: string): Promise<LedgerRow[]> {
    const { rows } = await this.#ctx.db.query<Row>(
      `SELECT * FROM posted_items WHERE guild_id = $1 AND feed = $2 AND state = 'posting' ORDER BY created_at, item_key`,
      [guildId, feed],
    );
    return rows.map(rowOf);
  }

  async postedElsewhere(ref: ItemRef): Promise<boolean> {
    const { rowCount } = await this.#ctx.db.query(
      `SELECT 1 FROM posted_items WHERE feed = $1 AND item_key = $2 AND guild_id <> $3 AND state IN ('posted', 'posting') LIMIT 1`,
      [ref.feed, ref.itemKey, ref.guildId],
    );
    return (rowCount ?? 0) > 0;
  }

  async startedFeeds(guildId: string, prefix: string): Promise<string[]> {
    const { rows } = await this.#ctx.db.query<{ feed: string }>(
      'SELECT feed FROM feed_state WHERE guild_id = $1 AND starts_with(feed, $2) ORDER BY feed',
      [guildId, prefix],
    );
    return rows.map((r) => r.feed);
  }

  async forgetFeeds(guildId: string | null, prefix: string, options: { exact?: boolean } = {}): Promise<void> {
    await this.#ctx.db.atomic((q) => forgetFeeds(q, guildId, prefix, options.exact ?? false));
  }

  async lastRunAt(guildId: string, feed: string): Promise<string | null> {
    const { rows } = await this.#ctx.db.query<{ last_run_at: string | null }>(
      'SELECT last_run_at FROM feed_state WHERE guild_id = $1 AND feed = $2',
      [guildId, feed],
    );
    return rows[0]?.last_run_at ?? null;
  }

  async ranAt(guildId: string, feed: string, at: Date): Promise<void> {
    await this.#ctx.db.query('UPDATE feed_state SET last_run_at = $1 WHERE guild_id = $2 AND feed = $3', [
      at.toISOString(),
      guildId,
      feed,
    ]);
  }

  async updateHash(ref: ItemRef, contentHash: string): Promise<void> {
    await this.#ctx.db.query(
      'UPDATE posted_items SET content_hash = $1, updated_at = $2 WHERE guild_id = $3 AND feed = $4 AND item_key = $5',
      [contentHash, this.#ctx.now().toISOString(), ref.guildId, ref.feed, ref.itemKey],
    );
  }
}
