/**
 * The daily member sweep: members who left a server without the bot noticing (it has only the
 * Guilds intent) are found by asking Discord about every member the server's data names, a few per
 * scheduler tick, and forgotten there (`MemberPresence.verify`, in src/bot/membership.ts).
 */
import type { MemberStatus } from '../feeds/feed.js';
import type { Store } from '../store/interfaces.js';

/** The daily sweep asks about at most this many members per scheduler tick (one a minute), one at a time. */
export const SWEEP_CHECKS_PER_TICK = 20;
/** Each server's members are swept once a day. */
export const SWEEP_INTERVAL_MS = 24 * 60 * 60_000;

/** Asks Discord whether a member is still in a server, forgetting them there when not (src/bot/membership.ts). */
export interface SweepMemberCheck {
  verify(guildId: string, userId: string, via: 'sweep'): Promise<MemberStatus>;
}

/**
 * The daily sweep: once a day per server the bot is in (and can reach), every member its data
 * names is looked up, `SWEEP_CHECKS_PER_TICK` per tick, one request at a time (discord.js waits
 * out rate limits), so even a large server costs Discord a trickle.
 */
export class MemberSweep {
  readonly #presence: SweepMemberCheck;
  readonly #store: Store;
  readonly #isAvailable: (guildId: string) => boolean;
  /**
   * The members still to ask about. Per process: a process that stops loses its queue, and the
   * servers it had queued wait for their next daily turn (when each server's sweep last started
   * is in the store, so a restart or another process does not sweep every server again at once).
   */
  readonly #queue: Array<{ guildId: string; userId: string }> = [];

  /**
   * `presence` asks Discord (src/bot/membership.ts) and forgets whoever left; `isAvailable` says
   * whether the bot is in a server and Discord serves it right now (discord.js's guild cache).
   */
  constructor(options: { presence: SweepMemberCheck; store: Store; isAvailable: (guildId: string) => boolean }) {
    this.#presence = options.presence;
    this.#store = options.store;
    this.#isAvailable = options.isAvailable;
  }

  /** Queues the servers due for their daily sweep, then checks the next few members. */
  async step(now: Date, skip: ReadonlySet<string>): Promise<{ checked: number; left: number }> {
    for (const guildId of await this.#store.people.knownGuildIds()) {
      // Only servers the bot is in and Discord serves right now: an outage or a removal proves nothing about members.
      if (skip.has(guildId) || !this.#isAvailable(guildId)) continue;
      // Due and taken in one step: of several processes serving the server, one queues its sweep.
      if (!(await this.#store.sweeps.startSweep(guildId, now, SWEEP_INTERVAL_MS))) continue;
      const queued = new Set(this.#queue.filter((q) => q.guildId === guildId).map((q) => q.userId));
      for (const userId of await this.#store.people.memberIds(guildId))
        if (!queued.has(userId)) this.#queue.push({ guildId, userId });
    }
    let checked = 0;
    let left = 0;
    while (checked < SWEEP_CHECKS_PER_TICK && this.#queue.length > 0) {
      const { guildId, userId } = this.#queue.shift()!;
      if (skip.has(guildId)) continue;
      checked += 1;
      if ((await this.#presence.verify(guildId, userId, 'sweep')) === 'left') left += 1;
    }
    return { checked, left };
  }
}
