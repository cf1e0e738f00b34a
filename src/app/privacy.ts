/**
 * Forgetting what the bot holds about people when they are no longer the club's business in a
 * server: one member who left it, every member when the server moves to another Eventor or club
 * (its links name persons of the old one), or everything when the bot was removed from it.
 * `/forget-me` (every server, on the member's own request) is `Privacy.forgetUser`. The record of
 * servers that removed the bot, and their purge, is `departures.ts`; the daily run, `housekeeping.ts`.
 */
import { MEMBER_DMS_NAMESPACE, memberPrefix } from '../feeds/subscriptions.js';
import { ledgerKeyPrefix } from '../feeds/delivery/keys.js';
import type { EventorConnectionRecord, GuildSettings, Store, StoreParts } from '../store/interfaces.js';

/** A member's links, requests and `/notify` subscription (with their DM ledger) in one server. */
export function forgetMember(
  store: Store,
  guildId: string,
  userId: string,
): Promise<{ links: number; requests: number; subscriptions: number }> {
  return store.transaction(async (parts) => {
    const subscriptions = await parts.subscriptions.forget(guildId, userId, memberPrefix(userId));
    return { ...(await parts.links.forgetMemberLinks(guildId, userId)), subscriptions };
  });
}

/** Every member's links, requests and subscriptions in one server, in one transaction. */
export function forgetGuildMembers(
  store: Store,
  guildId: string,
): Promise<{ links: number; requests: number; subscriptions: number }> {
  return store.transaction((parts) => forgetGuildMembersIn(parts, guildId));
}

async function forgetGuildMembersIn(
  parts: StoreParts,
  guildId: string,
): Promise<{ links: number; requests: number; subscriptions: number }> {
  const subscriptions = await parts.subscriptions.forget(guildId, null, ledgerKeyPrefix(MEMBER_DMS_NAMESPACE));
  return { ...(await parts.links.forgetGuildLinks(guildId)), subscriptions };
}

/** The audit action of a server moving to another Eventor or club; its detail is "<links> <requests> <subscriptions>". */
export const EVENTOR_MOVED = 'eventor-moved';

export type EventorConnection = EventorConnectionRecord;

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
): Promise<{ settings: GuildSettings; forgotten: MembersForgotten | null }> {
  return store.transaction(async (parts) => {
    const settings = await parts.servers.connectEventor(guildId, connection);
    if (!options.forgetMembers) return { settings, forgotten: null };
    const members = await parts.people.guildMembersHeld(guildId);
    const counts = await forgetGuildMembersIn(parts, guildId);
    if (members.length === 0 && counts.links + counts.requests + counts.subscriptions === 0)
      return { settings, forgotten: null };
    await parts.audit.audit({
      guildId,
      actorId: options.actorId,
      action: EVENTOR_MOVED,
      detail: `${counts.links} ${counts.requests} ${counts.subscriptions}`,
    });
    return { settings, forgotten: { ...counts, members } };
  });
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
  async forgetUser(userId: string): Promise<void> {
    await this.#store.people.forgetUser(userId, memberPrefix(userId));
  }

  /** A member who left one server (`forgetMember`). */
  forgetMember(guildId: string, userId: string): Promise<{ links: number; requests: number; subscriptions: number }> {
    return forgetMember(this.#store, guildId, userId);
  }
}
