/**
 * Servers that removed the bot. Discord says so with GUILD_DELETE without `unavailable` (discord.js
 * emits `guildDelete`); an outage sends `unavailable: true` instead (discord.js emits
 * `guildUnavailable`, keeps the guild, and nothing here happens). A removal is recorded
 * (`guild_departures`): the server's feeds and personal DMs stop at once, and once
 * `GUILD_DATA_GRACE_MS` has passed the daily housekeeping deletes everything the bot holds for it
 * (`Store.forgetGuild`). Invited back within the grace period (GUILD_CREATE), the record goes and
 * nothing is lost. A removal while the bot was offline is found at READY: servers the store knows
 * but Discord did not list, as long as Discord listed every server as available.
 */
import { millisecondsInDay } from 'date-fns/constants';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/interfaces.js';

/** How long a server's data is kept after the bot was removed from it, in case it is invited back. */
export const GUILD_DATA_GRACE_MS = 7 * millisecondsInDay;

/** A server as discord.js's guild cache shows it: READY's list, `available` false while in an outage. */
export interface KnownGuild {
  id: string;
  available: boolean;
}

export class GuildDepartures {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #serves: (guildId: string) => boolean;
  /** READY came while some servers were in an outage: the offline-removal check waits until all are back. */
  #reconcilePending = false;

  /**
   * `serves`: whether this process runs the server's gateway shard (default: every server). A bot
   * run as several processes sees only its own shards' servers, so only those can be missing.
   */
  constructor(options: { store: Store; log: Logger; now?: () => Date; serves?: (guildId: string) => boolean }) {
    this.#store = options.store;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
    this.#serves = options.serves ?? (() => true);
  }

  /** The bot was removed from a server (kicked, banned, or the server deleted). */
  async removed(guildId: string): Promise<void> {
    if (!(await this.#store.departures.recordGuildDeparture(guildId))) return;
    const deleteAfter = new Date(this.#now().getTime() + GUILD_DATA_GRACE_MS).toISOString();
    this.#log.info(
      'removed from a server: its feeds and DMs stop; its data is deleted unless the bot is invited back',
      { guildId, deleteAfter },
    );
  }

  /** The bot is in a server (invited back, or found at READY): a recorded removal is cancelled. */
  async present(guildId: string): Promise<void> {
    if (await this.#store.departures.cancelGuildDeparture(guildId))
      this.#log.info('back in a server within the grace period: nothing is deleted', { guildId });
  }

  /** Servers the bot was removed from (their feeds and DMs do not run). */
  async departed(): Promise<Set<string>> {
    return new Set((await this.#store.departures.guildDepartures()).map((d) => d.guildId));
  }

  /**
   * After READY (and again as servers come back from an outage): every server in Discord's list
   * cancels its removal; servers the store knows but the list lacks were left while the bot was
   * offline. That second step only runs on a complete list: while a server is unavailable, READY
   * cannot be trusted to name them all.
   */
  async reconcile(guilds: Iterable<KnownGuild>): Promise<'done' | 'waiting'> {
    const listed = [...guilds];
    for (const guild of listed) await this.present(guild.id);
    const unavailable = listed.filter((g) => !g.available).length;
    if (unavailable > 0) {
      if (!this.#reconcilePending)
        this.#log.warn(
          'servers unavailable at start (a Discord outage): not looking for servers left while offline yet',
          { unavailable },
        );
      this.#reconcilePending = true;
      return 'waiting';
    }
    this.#reconcilePending = false;
    const ids = new Set(listed.map((g) => g.id));
    for (const guildId of await this.#store.people.knownGuildIds())
      if (!ids.has(guildId) && this.#serves(guildId)) await this.removed(guildId);
    return 'done';
  }

  /** A server came back from an outage: finish a reconcile that READY had to put off. */
  async reconcileIfPending(guilds: Iterable<KnownGuild>): Promise<void> {
    if (this.#reconcilePending) await this.reconcile(guilds);
  }

  /**
   * Deletes the data of servers removed more than `GUILD_DATA_GRACE_MS` ago, unless the bot is in
   * them again (`isPresent`: a GUILD_CREATE that arrived before the record could be cancelled).
   */
  async purgeExpired(now: Date, isPresent: (guildId: string) => boolean): Promise<string[]> {
    const purged: string[] = [];
    for (const { guildId, leftAt } of await this.#store.departures.guildDepartures()) {
      // Another process's server: that process alone can tell whether the bot is back in it.
      if (!this.#serves(guildId)) continue;
      if (isPresent(guildId)) {
        await this.present(guildId);
        continue;
      }
      if (now.getTime() - Date.parse(leftAt) < GUILD_DATA_GRACE_MS) continue;
      await this.#store.people.forgetGuild(guildId);
      purged.push(guildId);
      this.#log.info('deleted the data of a server the bot was removed from', { guildId, leftAt });
    }
    return purged;
  }
}
