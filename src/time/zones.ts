/**
 * Wall clock <-> instant in IANA time zones. A leaf: it imports date-fns' zone support and
 * nothing of ours, so the Eventor readers, rendering, the bot and the sandboxes can all use it.
 * Instants are ISO 8601 UTC strings with whole seconds (`2023-09-26T15:00:00Z`); see eventor/model.ts.
 */
// Its own entry, not the package's index, which loads every part of @date-fns/tz (seven modules).
import { tzOffset } from '@date-fns/tz/tzOffset';
import { millisecondsInHour, millisecondsInMinute } from 'date-fns/constants';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK = /^(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?(?:\.\d+)?$/;

/*
 * Why not `new TZDate(y, m, d, h, mi, s, zone)` for every conversion: the IOF and native readers
 * convert up to 900,000 start and finish times per list, and @date-fns/tz works out the offset
 * through Intl on every call. Timed on this machine (Node 20, 2 busy cores; 1,000,000 conversions of
 * Europe/Stockholm wall-clock times spread over 2026, best of two runs, Nov 2026):
 *   new TZDate(...) per call, plus the check for a doubled time   35,800 ms
 *   tzOffset cached per zone and hour, bracketing below             1,300 ms
 * So the offsets come from @date-fns/tz's `tzOffset`, kept per zone and hour (offsets change at most
 * a few times a year), and the bracketing of a change stays our own.
 */
const offsetCache = new Map<string, number>();
const MAX_CACHED_OFFSETS = 50_000;

/** Minutes `timeZone` is ahead of UTC at `epochMs`; RangeError for a zone the runtime does not know. */
function offsetMinutes(timeZone: string, epochMs: number): number {
  if (timeZone === 'UTC') return 0;
  const key = `${timeZone}|${Math.floor(epochMs / millisecondsInHour)}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    offset = tzOffset(timeZone, new Date(epochMs));
    if (Number.isNaN(offset)) throw new RangeError(`unknown time zone '${timeZone}'`);
    if (offsetCache.size > MAX_CACHED_OFFSETS) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  return offset;
}

/**
 * Zones already found valid. Asked on every digest and live board turn, and making an
 * Intl.DateTimeFormat to find out costs tens of microseconds; the runtime knows a few hundred zones,
 * so the set stays small. Unknown names are not kept (they may come from anyone).
 */
const knownZones = new Set<string>();

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  if (knownZones.has(timeZone)) return true;
  // Intl rather than TZDate: TZDate also takes offsets such as `+02:00`, which are no IANA zone
  // (and which Intl.DateTimeFormat, that rendering uses, refuses on Node 20).
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    return false;
  }
  if (knownZones.size < 1_000) knownZones.add(timeZone);
  return true;
}

/** An epoch in milliseconds as an instant of the model: UTC, whole seconds (cut, not rounded). */
export function toInstant(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * A wall-clock date and optional time in `timeZone` as an instant. A missing clock means local
 * midnight (how Eventor stores events without a time). Returns null for text that is not a date.
 * A time the clocks skipped (DST gap) reads as the same distance past the change (02:30 -> 03:30);
 * a time that occurs twice (DST overlap) as the earlier of the two instants.
 */
export function localToInstant(date: string, clock: string | null | undefined, timeZone: string): string | null {
  const d = DATE.exec(date.trim());
  if (!d) return null;
  let h = 0;
  let mi = 0;
  let s = 0;
  if (clock && clock.trim() !== '') {
    const c = CLOCK.exec(clock.trim());
    if (!c) return null;
    h = Number(c[1]);
    mi = Number(c[2]);
    s = c[3] === undefined ? 0 : Number(c[3]);
  }
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), h, mi, s);
  if (Number.isNaN(wall)) return null;
  return toInstant(wallToEpoch(wall, timeZone));
}

/**
 * The instant of a wall-clock time (given as if it were UTC) in `timeZone`. Offsets twelve
 * hours either side bracket any change of offset; a candidate is right when its own offset is
 * the one it was made with. Two right candidates: the clocks went back, take the earlier.
 * None: the clocks went forward over this time, read it with the offset from before (02:30 -> 03:30).
 */
function wallToEpoch(wall: number, timeZone: string): number {
  const before = offsetMinutes(timeZone, wall - 12 * millisecondsInHour);
  const after = offsetMinutes(timeZone, wall + 12 * millisecondsInHour);
  const withBefore = wall - before * millisecondsInMinute;
  if (before === after && offsetMinutes(timeZone, withBefore) === before) return withBefore;
  const withAfter = wall - after * millisecondsInMinute;
  const valid = [withBefore, withAfter].filter(
    (epoch, i) => offsetMinutes(timeZone, epoch) === (i === 0 ? before : after),
  );
  return valid.length > 0 ? Math.min(...valid) : withBefore;
}

/** An instant as wall-clock `date` (`YYYY-MM-DD`) and `clock` (`HH:MM:SS`) in `timeZone`. */
export function instantToLocal(instant: string | Date, timeZone: string): { date: string; clock: string } {
  const epoch = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  const local = new Date(epoch + offsetMinutes(timeZone, epoch) * millisecondsInMinute).toISOString();
  return { date: local.slice(0, 10), clock: local.slice(11, 19) };
}
