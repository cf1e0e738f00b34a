/**
 * Personal DM subscriptions (`/notify`, table of migration 7): per server and member, whether
 * start-time and result DMs, the day-before reminder (migration 12) and the live finish DM
 * (migration 16) are on, the member's language, their DM channel once opened, and a
 * pause the bot sets when Discord refuses the DMs.
 *
 * It also keeps the personal ledger tidy: each member's DMs go through the feeds' ledger under
 * feed names `personal:<userId>:<kind>:<personId>`, and those rows name the member, so they go
 * when the member turns a kind off (the next turn-on then starts from that moment, like a new
 * feed), when a person is unlinked, and on /forget-me.
 */
import type { NotifyPause, StoreParts, Subscription } from '../store/interfaces.js';
import { ledgerKey, ledgerKeyPrefix } from './delivery/keys.js';

export type { NotifyPause, Subscription };

export const NOTIFY_KINDS = ['starts', 'results', 'tomorrow', 'live'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
/** The DMs the personal feed makes from Eventor's lists; `live` is the live pollers' (kinds/live). */
export const EVENTOR_DM_KINDS = ['starts', 'results', 'tomorrow'] as const satisfies readonly NotifyKind[];

/** The namespace of the members' DM feeds in the ledger (and the scheduler's name for them). */
export const MEMBER_DMS_NAMESPACE = 'personal';

/** The ledger feed of one member's DMs of one kind about one linked person. */
export function personalFeed(userId: string, kind: NotifyKind, personId: string): string {
  return ledgerKey(MEMBER_DMS_NAMESPACE, userId, kind, personId);
}

/** The prefix of every ledger feed of one member's DMs (what /forget-me forgets with them). */
export function memberPrefix(userId: string): string {
  return ledgerKeyPrefix(MEMBER_DMS_NAMESPACE, userId);
}

/** Members' `/notify` subscriptions, read and changed as the command and members' DMs need them. */
export class Subscriptions {
  readonly #store: StoreParts;

  constructor(store: StoreParts) {
    this.#store = store;
  }

  get(guildId: string, userId: string): Promise<Subscription | null> {
    return this.#store.subscriptions.get(guildId, userId);
  }

  /**
   * Turns kinds on or off. Turning any kind on clears a pause (the member says DMs work again; a
   * DM channel that could not be used is opened afresh);
   * a kind turned off forgets its personal ledger, so turning it on later starts from then instead
   * of sending what came out in between. With everything off, nothing about the member is kept.
   */
  async set(
    guildId: string,
    userId: string,
    change: Partial<Record<NotifyKind, boolean>>,
    locale: string,
  ): Promise<Subscription | null> {
    const current = await this.get(guildId, userId);
    const next = {
      starts: change.starts ?? current?.starts ?? false,
      results: change.results ?? current?.results ?? false,
      tomorrow: change.tomorrow ?? current?.tomorrow ?? false,
      live: change.live ?? current?.live ?? false,
    };
    const drop = NOTIFY_KINDS.filter((kind) => !next[kind]).map((kind) =>
      ledgerKeyPrefix(MEMBER_DMS_NAMESPACE, userId, kind),
    );
    const resume = NOTIFY_KINDS.some((kind) => change[kind] === true);
    return this.#store.subscriptions.set(guildId, userId, { ...next, locale, resume }, drop);
  }

  /** Members of a server with at least one kind on and no pause, in a stable order. */
  active(guildId: string): Promise<Subscription[]> {
    return this.#store.subscriptions.active(guildId);
  }

  /** Servers where at least one member gets DMs (paused members do not count). */
  guildsWithSubscribers(): Promise<string[]> {
    return this.#store.subscriptions.guildsWithSubscribers();
  }

  setDmChannel(guildId: string, userId: string, channelId: string | null): Promise<void> {
    return this.#store.subscriptions.setDmChannel(guildId, userId, channelId);
  }

  /** Stops the member's DMs until they turn them on again; false when there is nothing to pause. */
  pause(guildId: string, userId: string, reason: NotifyPause): Promise<boolean> {
    return this.#store.subscriptions.pause(guildId, userId, reason);
  }

  /** The member's personal ledger feeds in a server that have started. */
  personalFeeds(guildId: string, userId: string): Promise<string[]> {
    return this.#store.ledger.startedFeeds(guildId, memberPrefix(userId));
  }

  /** Forgets one personal ledger feed (a person no longer linked, a kind turned off). */
  dropFeed(guildId: string, feed: string): Promise<void> {
    return this.#store.ledger.forgetFeeds(guildId, feed, { exact: true });
  }

  /** A member's subscription and personal ledger in one server (they left it, or the server changed club). */
  forgetMember(guildId: string, userId: string): Promise<number> {
    return this.#store.subscriptions.forget(guildId, userId, memberPrefix(userId));
  }

  /** Every member's subscription and personal ledger in one server. */
  forgetGuild(guildId: string): Promise<number> {
    return this.#store.subscriptions.forget(guildId, null, ledgerKeyPrefix(MEMBER_DMS_NAMESPACE));
  }
}
