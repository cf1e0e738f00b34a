/**
 * Forgetting what the bot holds about people when they are no longer the club's business in a
 * server: one member who left it, every member when the server moves to another Eventor or club
 * (its links name persons of the old one), or everything when the bot was removed from it.
 * `/forget-me` (every server, on the member's own request) is `Privacy.forgetUser`. The record of
 * servers that removed the bot, and their purge, is `departures.ts`; the daily run, `housekeeping.ts`.
 */
import { SubscriptionStore } from '../feeds/subscriptions.js';
import type { GuildSettings, Store } from '../store/store.js';

/** A member's links, requests and `/notify` subscription (with their DM ledger) in one server. */
export function forgetMember(
  store: Store,
  guildId: string,
  userId: string,
): { links: number; requests: number; subscriptions: number } {
  return store.secureDeleting(() =>
    store.db.transaction(() => {
      const subscriptions = new SubscriptionStore(store).forgetMember(guildId, userId);
      return { ...store.forgetMemberLinks(guildId, userId), subscriptions };
    })(),
  );
}

/** Every member's links, requests and subscriptions in one server, in one transaction. */
export function forgetGuildMembers(
  store: Store,
  guildId: string,
): { links: number; requests: number; subscriptions: number } {
  return store.secureDeleting(() =>
    store.db.transaction(() => {
      const subscriptions = new SubscriptionStore(store).forgetGuild(guildId);
      return { ...store.forgetGuildLinks(guildId), subscriptions };
    })(),
  );
}

/** The audit action of a server moving to another Eventor or club; its detail is "<links> <requests> <subscriptions>". */
export const EVENTOR_MOVED = 'eventor-moved';

export interface EventorConnection {
  instance: string;
  baseUrl: string | null;
  apiKey: string;
  organisation: { id: string; name: string };
}

export interface MembersForgotten {
  links: number;
  requests: number;
  subscriptions: number;
  /** Whom the bot held something about, to tell them (with a Discord locale of theirs when known). */
  members: Array<{ userId: string; locale: string | null }>;
}

/**
 * Points a server at a checked Eventor connection. When it is another Eventor or another club
 * (`forgetMembers`), every member's links, requests and subscriptions go in the same transaction,
 * with an audit entry by `actorId`: they name persons of the old one, whose ids mean someone else
 * (or a member of another club) now, and a login link must never follow them. Nothing forgotten
 * (or nothing held) gives `null`.
 */
export function connectEventor(
  store: Store,
  guildId: string,
  connection: EventorConnection,
  options: { forgetMembers: boolean; actorId: string },
): { settings: GuildSettings; forgotten: MembersForgotten | null } {
  return store.secureDeleting(() =>
    store.db.transaction(() => {
      const settings = store.connectEventor(guildId, connection);
      if (!options.forgetMembers) return { settings, forgotten: null };
      const members = store.guildMembersHeld(guildId);
      const counts = forgetGuildMembers(store, guildId);
      if (members.length === 0 && counts.links + counts.requests + counts.subscriptions === 0)
        return { settings, forgotten: null };
      store.audit({
        guildId,
        actorId: options.actorId,
        action: EVENTOR_MOVED,
        detail: `${counts.links} ${counts.requests} ${counts.subscriptions}`,
      });
      return { settings, forgotten: { ...counts, members } };
    })(),
  );
}

/** What the bot holds about people, forgotten on their request or when they are no longer the club's business. */
export class Privacy {
  readonly #store: Store;

  constructor(deps: { store: Store }) {
    this.#store = deps.store;
  }

  /**
   * Everything about the user in every server: links, link requests, audit entries naming them,
   * /notify subscriptions and the ledger of their DMs. Nothing is logged or audited about it, since
   * that would name them again. Throttle counts stay (keyed hashes and times only), so a guesser
   * cannot reset a limit by asking to be forgotten.
   */
  forgetUser(userId: string): void {
    // Subscriptions first: Store.forgetUser then empties the WAL for both.
    new SubscriptionStore(this.#store).forgetUser(userId);
    this.#store.forgetUser(userId);
  }

  /** A member who left one server (`forgetMember`). */
  forgetMember(guildId: string, userId: string): { links: number; requests: number; subscriptions: number } {
    return forgetMember(this.#store, guildId, userId);
  }
}
