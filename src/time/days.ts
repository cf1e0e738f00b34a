/**
 * Calendar days (`YYYY-MM-DD`) on date-fns: today in a zone, adding days, the instants that bound
 * whole local days, the real-date check, the compact `YYYYMMDD` form and Eventor's UTC query day.
 * A leaf like zones.ts: date-fns and nothing of ours above it.
 *
 * The answers depend on nothing but the arguments, and commands ask the same few days over and
 * over (today, a week on, the same window) while date-fns in a zone costs tens of microseconds a
 * call, a tenth of a warm interaction's CPU: so the day arithmetic is kept per arguments, and
 * today is read through zones.ts's offsets, kept per zone and hour.
 */
import { TZDate, tz } from '@date-fns/tz';
// One module per function: the package's index loads all of its ~300 modules, a third of a
// second of every start (`npm run bench`, ready-seconds and query-cli-ratio).
import { addDays as addDaysToDate } from 'date-fns/addDays';
import { endOfDay } from 'date-fns/endOfDay';
import { format } from 'date-fns/format';
import { getDay } from 'date-fns/getDay';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { startOfDay } from 'date-fns/startOfDay';
import { LRUCache } from 'lru-cache';
import { instantToLocal, toInstant } from './zones.js';

const DAY_FORMAT = 'yyyy-MM-dd';
const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const COMPACT_DAY_SHAPE = /^\d{8}$/;
// Eventor reads four-digit years only, and nothing before orienteering had events in it.
const FIRST_YEAR = 1900;
const LAST_YEAR = 2999;
// Calendar days are counted in UTC, so the process's own zone never shifts one.
const inUtc = { in: tz('UTC') };

/** `compute()`, kept under `key` for the next call with the same key (a few thousand keys at most). */
function kept<V extends NonNullable<unknown>>(): (key: string, compute: () => V) => V {
  const cache = new LRUCache<string, V, () => V>({ max: 4096, memoMethod: (_key, _old, { context }) => context() });
  return (key, compute) => cache.memo(key, { context: compute });
}
const keptDays = kept<string>();
const keptParsed = kept<{ day: string | null }>();
const keptWeekdays = kept<number>();
const keptWindows = kept<Readonly<{ from: string; to: string }>>();

/** The calendar day `YYYY-MM-DD` as a date at its UTC midnight (the day already checked for shape). */
function dayAsDate(day: string): Date {
  return parse(day, DAY_FORMAT, new Date(0), inUtc);
}

/** Today's date (`YYYY-MM-DD`) at `now` in `timeZone`. */
export function localToday(now: Date, timeZone: string): string {
  return instantToLocal(now, timeZone).date;
}

/** A real calendar date `YYYY-MM-DD`, or null (2026-02-30 is not one, nor a year outside 1900-2999). */
export function parseDay(text: string): string | null {
  const trimmed = text.trim();
  if (!DAY_SHAPE.test(trimmed)) return null;
  return keptParsed(trimmed, () => {
    const date = dayAsDate(trimmed);
    if (!isValid(date)) return { day: null };
    const year = Number(trimmed.slice(0, 4));
    return { day: year < FIRST_YEAR || year > LAST_YEAR ? null : trimmed };
  }).day;
}

/** The calendar day `days` after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  return keptDays(`${day}+${days}`, () => format(addDaysToDate(dayAsDate(day), days, inUtc), DAY_FORMAT, inUtc));
}

/** The day of the week of a calendar day: 0 Sunday to 6 Saturday (as `Date.getDay`). */
export function weekdayOf(day: string): number {
  return keptWeekdays(day, () => getDay(dayAsDate(day), inUtc));
}

/** `YYYY-MM-DD` -> `YYYYMMDD`: dates travel in custom ids, which Discord caps at 100 characters. */
export function compactDay(day: string): string {
  return day.replaceAll('-', '');
}

/** `YYYYMMDD` -> `YYYY-MM-DD` when it is a real date (as `parseDay` reads it), else null. */
export function expandDay(compact: string | undefined): string | null {
  if (compact === undefined || !COMPACT_DAY_SHAPE.test(compact)) return null;
  return parseDay(`${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`);
}

/**
 * The instants that bound whole local days `first`..`last` in `timeZone` (its first second and its
 * last). They are the same all day, so repeated commands hit the client's cache (a window from
 * `now` never would).
 */
export function dayWindow(first: string, last: string, timeZone: string): Readonly<{ from: string; to: string }> {
  return keptWindows(`${first}|${last}|${timeZone}`, () =>
    // Shared by every caller with the same days: frozen, so that none can change another's.
    Object.freeze(computeDayWindow(first, last, timeZone)),
  );
}

function computeDayWindow(first: string, last: string, timeZone: string): { from: string; to: string } {
  const zone = { in: tz(timeZone) };
  // Local noon exists on every day in every zone; midnight does not (some zones change their clocks then).
  const noonOf = (day: string) => {
    const [year, month, date] = day.split('-').map(Number) as [number, number, number];
    return new TZDate(year, month - 1, date, 12, timeZone);
  };
  return {
    from: toInstant(startOfDay(noonOf(first), zone).getTime()),
    to: toInstant(endOfDay(noonOf(last), zone).getTime()),
  };
}

/** Eventor's query day `YYYY-MM-DD`: the UTC day of an instant (Eventor reads query input as UTC). */
export function queryDay(instant: Date | number): string {
  return format(instant, DAY_FORMAT, inUtc);
}
