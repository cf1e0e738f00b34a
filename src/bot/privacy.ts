/**
 * Forgetting what the bot holds about people when they are no longer the club's business in a
 * server: one member who left it, every member when the server moves to another Eventor or club
 * (its links name persons of the old one), or everything when the bot was removed from it.
 * `/forget-me` (every server, on the member's own request) is in `commands/forget-me.ts`.
 */
import { SubscriptionStore } from '../feeds/subscriptions.js';
import type { Store } from '../store/store.js';

/** A member's links, requests and `/notify` subscription (with their DM ledger) in one server. */
export function forgetMember(store: Store, guildId: string, userId: string): { links: number; requests: number; subscriptions: number } {
  return store.secureDeleting(() => store.db.transaction(() => {
    const subscriptions = new SubscriptionStore(store).forgetMember(guildId, userId);
    return { ...store.forgetMemberLinks(guildId, userId), subscriptions };
  })());
}

/** Every member's links, requests and subscriptions in one server, in one transaction. */
export function forgetGuildMembers(store: Store, guildId: string): { links: number; requests: number; subscriptions: number } {
  return store.secureDeleting(() => store.db.transaction(() => {
    const subscriptions = new SubscriptionStore(store).forgetGuild(guildId);
    return { ...store.forgetGuildLinks(guildId), subscriptions };
  })());
}
