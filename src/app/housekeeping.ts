/**
 * The bot's housekeeping, run by the feed scheduler beside the feeds on every tick: once a day the
 * data of servers removed longer than the grace period ago is deleted; on every tick a few members
 * are checked by the daily member sweep, and throttle counts past the longest limit's window are
 * dropped (they hold nothing but keyed hashes and times, and not a minute longer than a limit needs).
 */
import { millisecondsInDay } from 'date-fns/constants';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/interfaces.js';
import type { GuildDepartures } from './departures.js';

/** The daily member sweep (src/bot/membership.ts: it asks Discord). */
export interface MemberSweepStep {
  step(now: Date, skip: ReadonlySet<string>): Promise<{ checked: number; left: number }>;
}

/** The purge of removed servers runs on the first tick after start, then once a day. */
export const HOUSEKEEPING_INTERVAL_MS = millisecondsInDay;
/** The longest window of any throttle (/link eventor's 15 minutes); older counts are never read. */
export const THROTTLE_RETENTION_MS = 15 * 60_000;

export class Housekeeping {
  readonly #isPresent: (guildId: string) => boolean;
  readonly #departures: GuildDepartures;
  readonly #sweep: MemberSweepStep;
  readonly #log: Logger;
  readonly #store: Store;
  #lastDaily: number | null = null;

  /** `isPresent`: whether the bot is in a server now (discord.js's guild cache), so a removal it came back from is never purged. */
  constructor(options: {
    isPresent: (guildId: string) => boolean;
    departures: GuildDepartures;
    sweep: MemberSweepStep;
    log: Logger;
    store: Store;
  }) {
    this.#store = options.store;
    this.#isPresent = options.isPresent;
    this.#departures = options.departures;
    this.#sweep = options.sweep;
    this.#log = options.log;
  }

  async run(now: Date): Promise<void> {
    await this.#store.throttles.pruneThrottles(THROTTLE_RETENTION_MS);
    if (this.#lastDaily === null || now.getTime() - this.#lastDaily >= HOUSEKEEPING_INTERVAL_MS) {
      this.#lastDaily = now.getTime();
      await this.#departures.purgeExpired(now, this.#isPresent);
    }
    const { checked, left } = await this.#sweep.step(now, await this.#departures.departed());
    if (left > 0) this.#log.info('member sweep: forgot members who left', { checked, left });
  }
}
