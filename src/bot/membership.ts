/**
 * Members who left a server. The bot has only the Guilds intent, so Discord tells it nothing when
 * someone leaves; it asks instead (GET /guilds/{guild.id}/members/{user.id}) where it matters:
 * before a personal DM (`feeds/personal.ts`), and in a daily sweep (`src/app/member-sweep.ts`) over the members a server's data
 * names, so someone who left without `/notify` is forgotten too. An answer of 10007 Unknown Member
 * means they left: their links, requests and subscription in that server are forgotten at once
 * (`privacy.forgetMember`). Anything else (a 5xx, a timeout, the bot itself removed) proves
 * nothing, and nothing is forgotten.
 *
 * Interactions need no such check: Discord delivers a server's interaction only from someone in
 * it, with their member object, at the moment they click.
 */
import { millisecondsInHour } from 'date-fns/constants';
import { type Client, DiscordAPIError, Routes } from 'discord.js';
import type { Privacy } from '../app/privacy.js';
import type { MemberStatus, MembershipCheck } from '../feeds/feed.js';
import type { Logger } from '../log/logger.js';

/** How long "still a member" is believed: a race day's 5-minute runs ask Discord once an hour per member. */
export const MEMBER_CACHE_MS = millisecondsInHour;
/** At most this many positive answers are kept (the oldest go first). */
export const MEMBER_CACHE_LIMIT = 10_000;

/** Discord's answers that mean the user is not in the server: 10007 Unknown Member, 10013 Unknown User (account deleted). */
const GONE_CODES = new Set<number | string>([10007, 10013]);

export class MemberPresence implements MembershipCheck {
  readonly #client: Client;
  readonly #privacy: Pick<Privacy, 'forgetMember'>;
  readonly #log: Logger;
  readonly #now: () => Date;
  /** `guildId:userId` → until when "present" is believed; insertion order is age order. */
  readonly #present = new Map<string, number>();

  constructor(options: { client: Client; privacy: Pick<Privacy, 'forgetMember'>; log: Logger; now?: () => Date }) {
    this.#client = options.client;
    this.#privacy = options.privacy;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Whether the user is still in the server. `left` (Discord said Unknown Member) has already
   * forgotten them there; `unknown` (Discord failing, or no access to the server) changes nothing.
   */
  async verify(guildId: string, userId: string, via: 'personal' | 'sweep' = 'personal'): Promise<MemberStatus> {
    const key = `${guildId}:${userId}`;
    const now = this.#now().getTime();
    const until = this.#present.get(key);
    if (until !== undefined && until > now) return 'present';
    this.#present.delete(key);
    try {
      await this.#client.rest.get(Routes.guildMember(guildId, userId));
    } catch (error) {
      if (error instanceof DiscordAPIError && error.status === 404 && GONE_CODES.has(error.code)) {
        const forgotten = await this.#privacy.forgetMember(guildId, userId);
        this.#log.info('a member left the server; forgot their links, requests and /notify there', {
          guildId,
          userId,
          via,
          ...forgotten,
        });
        return 'left';
      }
      // Discord's refusal by status and code: nothing more is needed to tell an outage from a removal.
      const detail = error instanceof DiscordAPIError ? { status: error.status, code: error.code } : { error };
      this.#log.warn('could not tell whether a member is still in the server; nothing forgotten', {
        guildId,
        userId,
        via,
        ...detail,
      });
      return 'unknown';
    }
    this.#present.set(key, this.#now().getTime() + MEMBER_CACHE_MS);
    while (this.#present.size > MEMBER_CACHE_LIMIT) this.#present.delete(this.#present.keys().next().value!);
    return 'present';
  }
}
