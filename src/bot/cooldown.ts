/**
 * A per-member budget of interactions within a sliding window, kept in memory: how the router
 * stops one member's burst (made-up ids, a script clicking buttons) from becoming a burst of
 * requests on the club's Eventor key.
 *
 * In memory on purpose: it guards a few seconds, not an account, so a restart resetting it costs
 * nothing worth a database write per command. The limits that must survive restarts and
 * `/forget-me` (login links, wrong passwords) live in the store's throttle table instead.
 */

export interface CooldownOptions {
  /** Interactions allowed per member within the window. */
  limit: number;
  windowMs: number;
  /** Members tracked at once; the one seen longest ago is forgotten first. */
  maxMembers: number;
}

export class MemberCooldown {
  readonly #options: CooldownOptions;
  /** Per member, the times of the interactions still in the window, oldest first; in order of last use. */
  readonly #recent = new Map<string, number[]>();

  constructor(options: CooldownOptions) {
    this.#options = options;
  }

  /**
   * Counts one interaction of `memberId` at `now` when the budget allows it, and returns 0; when
   * it does not, records nothing (refused interactions reach no one) and returns the milliseconds
   * until the oldest counted one leaves the window.
   */
  take(memberId: string, now: number): number {
    const { limit, windowMs, maxMembers } = this.#options;
    const kept = (this.#recent.get(memberId) ?? []).filter((at) => at > now - windowMs);
    // Re-inserted so the map's order is the order of last use, and eviction takes the stalest.
    this.#recent.delete(memberId);
    if (kept.length >= limit) {
      this.#recent.set(memberId, kept);
      return Math.max(1, kept[0]! + windowMs - now);
    }
    kept.push(now);
    this.#recent.set(memberId, kept);
    while (this.#recent.size > maxMembers) this.#recent.delete(this.#recent.keys().next().value!);
    return 0;
  }

  /** Members tracked now (for tests of the bound). */
  get size(): number {
    return this.#recent.size;
  }
}
