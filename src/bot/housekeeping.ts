/**
 * The bot's housekeeping, run by the feed scheduler beside the feeds on every tick: once a day the
 * data of servers removed longer than the grace period ago is deleted; on every tick a few members
 * are checked by the daily member sweep, and throttle counts past the longest limit's window are
 * dropped (they hold nothing but keyed hashes and times, and not a minute longer than a limit needs).
 */
import { millisecondsInDay } from 'date-fns/constants';
import type { Client } from 'discord.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import type { GuildDepartures } from './departures.js';
import type { MemberSweep } from './membership.js';

/** The purge of removed servers runs on the first tick after start, then once a day. */
export const HOUSEKEEPING_INTERVAL_MS = millisecondsInDay;
/** The longest window of any throttle (/link eventor's 15 minutes); older counts are never read. */
export const THROTTLE_RETENTION_MS = 15 * 60_000;

export class Housekeeping {
  readonly #client: Client;
  readonly #departures: GuildDepartures;
  readonly #sweep: MemberSweep;
  readonly #log: Logger;
  readonly #store: Store;
  #lastDaily: number | null = null;

  constructor(options: { client: Client; departures: GuildDepartures; sweep: MemberSweep; log: Logger; store: Store }) {
    this.#store = options.store;
    this.#client = options.client;
    this.#departures = options.departures;
    this.#sweep = options.sweep;
    this.#log = options.log;
  }

  async run(now: Date): Promise<void> {
    this.#store.pruneThrottles(THROTTLE_RETENTION_MS);
    if (this.#lastDaily === null || now.getTime() - this.#lastDaily >= HOUSEKEEPING_INTERVAL_MS) {
      this.#lastDaily = now.getTime();
      this.#departures.purgeExpired(now, (guildId) => this.#client.guilds.cache.has(guildId));
    }
    const { checked, left } = await this.#sweep.step(now, this.#departures.departed());
    if (left > 0) this.#log.info('member sweep: forgot members who left', { checked, left });
  }
}
