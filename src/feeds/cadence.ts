/**
 * When feeds run: the cadences the kinds choose from, what the club's calendar says about today
 * (learnt once a local day from the club's entries), quiet hours in the server's own time zone, and
 * which runs ask Eventor about a feed's whole window (one an hour).
 */
import { tz } from '@date-fns/tz';
import { getHours } from 'date-fns/getHours';
import type { EventorClient } from '../eventor/client.js';
import { addDays, localToday, queryDay } from '../time/days.js';

const MINUTE = 60_000;
/** Results on and just after race days: every 5 minutes (the finest cadence; runs are aligned to its slots). */
export const FREQUENT_MS = 5 * MINUTE;
/** Everything else: hourly. */
export const RARE_MS = 60 * MINUTE;
/** Start lists are watched more closely in the days before a race and on it. */
export const STARTLISTS_CLOSE_MS = 15 * MINUTE;

/** What the club's calendar says about a local day: races today or yesterday, races in the next two days. */
export interface ClubDay {
  date: string;
  raceDay: boolean;
  raceSoon: boolean;
}

/** What a feed's cadence looks at. */
export type RaceOutlook = Pick<ClubDay, 'raceDay' | 'raceSoon'>;

/** Every 5 minutes on a day the club races and the day after, else hourly. */
export function raceDayCadence(day: RaceOutlook | null): number {
  return day?.raceDay ? FREQUENT_MS : RARE_MS;
}

/** Every 15 minutes in the two days before a race and on it, else hourly. */
export function startListsCadence(day: RaceOutlook | null): number {
  return day?.raceDay || day?.raceSoon ? STARTLISTS_CLOSE_MS : RARE_MS;
}

export function hourly(): number {
  return RARE_MS;
}

/**
 * The last answer per time zone of a conversion the scheduler makes for every feed of every server
 * on every tick, all at the tick's one instant: a zone's conversion costs tens of microseconds,
 * which a hundred servers turn into most of a tick.
 */
function lastPerZone<T>(convert: (now: Date, timeZone: string) => T): (now: Date, timeZone: string) => T {
  const last = new Map<string, { at: number; value: T }>();
  return (now, timeZone) => {
    const known = last.get(timeZone);
    if (known?.at === now.getTime()) return known.value;
    const value = convert(now, timeZone);
    // Zones are few (a server's own, the default): one entry each, replaced as the clock moves.
    last.set(timeZone, { at: now.getTime(), value });
    return value;
  };
}

/** The hour (0-23) of a moment in a time zone; wrong zones count as UTC. */
export const localHour = lastPerZone((now: Date, timeZone: string): number => {
  const hour = getHours(now, { in: tz(timeZone) });
  return Number.isNaN(hour) ? now.getUTCHours() : hour;
});

/** The local date (YYYY-MM-DD) of a moment in a time zone; wrong zones count as UTC. */
export const localDate = lastPerZone((now: Date, timeZone: string): string => {
  try {
    return localToday(now, timeZone);
  } catch (error) {
    if (error instanceof RangeError) return queryDay(now);
    throw error;
  }
});

/** Inside quiet hours [from, to) in local time (wrapping past midnight when from > to). */
export function inQuietHours(now: Date, timeZone: string, quiet: { from: number; to: number } | null): boolean {
  if (!quiet || quiet.from === quiet.to) return false;
  const hour = localHour(now, timeZone);
  return quiet.from < quiet.to ? hour >= quiet.from && hour < quiet.to : hour >= quiet.from || hour < quiet.to;
}

/** Whether a run asks about the whole window (`FeedRunOptions.full`): the first, then one an hour. */
export function isFullRun(lastFull: number | null, now: Date): boolean {
  return lastFull === null || Math.floor(now.getTime() / RARE_MS) > Math.floor(lastFull / RARE_MS);
}

/** Whether `interval`'s wall-clock slot changed since `lastRun` (null: never ran). */
export function slotChanged(lastRun: number | null, now: Date, interval: number): boolean {
  return lastRun === null || Math.floor(now.getTime() / interval) > Math.floor(lastRun / interval);
}

/** What each club's calendar says about today, per Eventor client (servers of one club share it). */
export class ClubCalendars {
  readonly #days = new Map<EventorClient, ClubDay>();

  /** What is known about the club's local today, or null (not learnt yet, or another day). */
  today(client: EventorClient, now: Date, timeZone: string): ClubDay | null {
    const day = this.#days.get(client);
    return day?.date === localDate(now, timeZone) ? day : null;
  }

  /** Whether the club has entries in races today or yesterday, or in the next two days: asked once per local day. */
  async learn(client: EventorClient, organisationId: string, now: Date, timeZone: string): Promise<void> {
    const today = localDate(now, timeZone);
    if (this.#days.get(client)?.date === today) return;
    // Calendar days, not 24 hours: the day the clocks go back has 25.
    const day = (offset: number): string => addDays(today, offset);
    try {
      const [recent, coming] = await Promise.all([
        client.entries({ organisationIds: [organisationId], fromEventDate: day(-1), toEventDate: today }),
        client.entries({ organisationIds: [organisationId], fromEventDate: day(1), toEventDate: day(2) }),
      ]);
      this.#days.set(client, { date: today, raceDay: recent.length > 0, raceSoon: coming.length > 0 });
    } catch {
      // Unknown: stay rare and ask again on the next run.
    }
  }
}
