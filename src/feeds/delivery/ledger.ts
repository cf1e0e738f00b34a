/**
 * The ledger of automatic posts: for each (server, feed, item key) the hash of what was posted, the
 * Discord message id, and a state, kept by the store's ledger part (`store.ledger`); this class adds
 * who claims (this process) and how long a claim holds.
 *
 * States:
 * - `seeded`: the item existed when the feed started for the server, or a summary post stood in
 *   for it; it is not posted by itself (unless its feed follows changes to such items: `FeedItem.followSeeded`).
 * - `posting`: the intent to post (with `nonce`) was recorded; the message may or may not exist.
 * - `posted`: the message exists with `messageId` and shows the content of `contentHash`.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ItemRef, LedgerRow, LedgerState, StoreParts } from '../../store/interfaces.js';

export type { ItemRef, LedgerRow, LedgerState };

/**
 * How long a claim on an item holds without its owner releasing it: longer than one post with
 * Discord's retries and rate limits. Past it, another process may take over (and, finding the row
 * `posting`, looks for the marker and resends with the same nonce, which Discord deduplicates).
 */
export const CLAIM_LEASE_MS = 10 * 60_000;

/** Whether the process that wrote `owner` (host:pid:random) may still run. Only this host's processes can be checked. */
export function ownerMayBeAlive(owner: string): boolean {
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

export class Ledger {
  readonly #store: StoreParts;

  /** Who holds this ledger's claims: this process, and this ledger within it. */
  readonly #owner = `${hostname().replaceAll(':', '_')}:${process.pid}:${randomBytes(6).toString('hex')}`;

  constructor(store: StoreParts) {
    this.#store = store;
  }

  /**
   * Claims the item for this ledger before anything about it is sent (a post, an edit, a summary),
   * so that any number of processes on one database post it once. Fails while another owner holds
   * a live claim; takes over one whose lease ran out or whose process on this host is gone. The
   * check and the write are one atomic step of the store.
   */
  claim(ref: ItemRef, leaseMs: number = CLAIM_LEASE_MS): Promise<boolean> {
    return this.#store.ledger.claim(ref, this.#owner, leaseMs, ownerMayBeAlive);
  }

  /** Gives up this ledger's claim on the item (another owner's stays). */
  release(ref: ItemRef): Promise<void> {
    return this.#store.ledger.release(ref, this.#owner);
  }

  get(ref: ItemRef): Promise<LedgerRow | null> {
    return this.#store.ledger.get(ref);
  }

  rows(guildId: string, feed: string): Promise<LedgerRow[]> {
    return this.#store.ledger.rows(guildId, feed);
  }

  /** When the feed started for the server, or null before its first run. */
  feedStartedAt(guildId: string, feed: string): Promise<string | null> {
    return this.#store.ledger.feedStartedAt(guildId, feed);
  }

  /**
   * The first run of a feed for a server: records the current items as `seeded` (never posted) and
   * the start, in one step, so a crash leaves either nothing or the whole seed.
   */
  seed(
    guildId: string,
    feed: string,
    channelId: string,
    items: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): Promise<void> {
    return this.#store.ledger.seed(guildId, feed, channelId, items);
  }

  /**
   * Records the intent to post (state `posting` with a fresh nonce and the message to send), before
   * anything is sent. `covers`: items the post stands in for (a summary instead of a burst), recorded
   * in the same step as `seeded`, so they are accounted for exactly when the summary is.
   */
  intend(
    ref: ItemRef,
    channelId: string,
    contentHash: string,
    nonce: string,
    payload: string | null = null,
    covers: ReadonlyArray<{ itemKey: string; contentHash: string }> = [],
  ): Promise<void> {
    return this.#store.ledger.intend(ref, channelId, contentHash, nonce, payload, covers);
  }

  /** The message exists and shows `contentHash`. */
  posted(ref: ItemRef, messageId: string, contentHash: string): Promise<void> {
    return this.#store.ledger.posted(ref, messageId, contentHash);
  }

  /** Posts of the feed begun but not known to be finished (a crash between intent and record). */
  unfinished(guildId: string, feed: string): Promise<LedgerRow[]> {
    return this.#store.ledger.unfinished(guildId, feed);
  }

  /** Whether another server has posted (or begun to post) this item of this feed. */
  postedElsewhere(ref: ItemRef): Promise<boolean> {
    return this.#store.ledger.postedElsewhere(ref);
  }

  /** The feeds of a server whose names start with `prefix` and that have started (seeded). */
  startedFeeds(guildId: string, prefix: string): Promise<string[]> {
    return this.#store.ledger.startedFeeds(guildId, prefix);
  }

  /**
   * Forgets feeds whose names start with `prefix` (or are exactly it), in one server or (null) in
   * every server: their items and their start, so they would seed again.
   */
  forgetFeeds(guildId: string | null, prefix: string, options: { exact?: boolean } = {}): Promise<void> {
    return this.#store.ledger.forgetFeeds(guildId, prefix, options);
  }

  /** When the feed last ran to the end for the server (null: never, or before this was kept). */
  lastRunAt(guildId: string, feed: string): Promise<string | null> {
    return this.#store.ledger.lastRunAt(guildId, feed);
  }

  ranAt(guildId: string, feed: string, at: Date): Promise<void> {
    return this.#store.ledger.ranAt(guildId, feed, at);
  }

  /** A seeded item changed: remember the new hash, still without posting. */
  updateHash(ref: ItemRef, contentHash: string): Promise<void> {
    return this.#store.ledger.updateHash(ref, contentHash);
  }
}
