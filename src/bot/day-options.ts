/**
 * Days as members type them and custom ids carry them, and the date windows of /events, /entries,
 * /activities and /results (moved here unchanged from commands/events-common.ts).
 */
import { instantToLocal, localToInstant } from '../eventor/time.js';
import { UserFacingError } from './command.js';

const DAY = 86_400_000;

/** Today's date (`YYYY-MM-DD`) on the server's clock and in its zone. */
export function localToday(now: Date, timeZone: string): string {
  return instantToLocal(now, timeZone).date;
}

/** A real calendar date `YYYY-MM-DD`, or null (2026-02-30 is not one). */
export function parseDay(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  // Eventor reads four-digit years only, and nothing before orienteering had events in it.
  if (year < 1900 || year > 2999) return null;
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** `YYYYMMDD` <-> `YYYY-MM-DD`: dates travel in custom ids, which Discord caps at 100 characters. */
export function compactDay(day: string): string {
  return day.replaceAll('-', '');
}

export function expandDay(compact: string | undefined): string | null {
  if (compact === undefined || !/^\d{8}$/.test(compact)) return null;
  return parseDay(`${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`);
}

/**
 * The instants that bound whole local days `first`..`last` in the server's zone. They are the same
 * all day, so repeated commands hit the client's cache (a window from `now` never would).
 */
export function dayWindow(first: string, last: string, timeZone: string): { from: string; to: string } {
  return { from: localToInstant(first, null, timeZone)!, to: localToInstant(last, '23:59:59', timeZone)! };
}

/** A `YYYY-MM-DD` the member typed, as `parseDay` reads it; anything else is refused with the expected form. */
export function requireDay(value: string): string {
  const text = value.trim();
  const day = parseDay(text);
  // Echo only harmless characters: this text ends up in a message that could otherwise mention.
  if (day === null) throw new UserFacingError('members.error.badDate', { value: text.replace(/[^0-9A-Za-z./-]/g, '').slice(0, 20) });
  return day;
}
