/**
 * Time conversions shared by the parsers, the writers and the sandbox.
 * Instants are ISO 8601 UTC strings with whole seconds (`2023-09-26T15:00:00Z`); see model.ts.
 */
import { tzOffset } from '@date-fns/tz';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK = /^(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?(?:\.\d+)?$/;

// Offsets change at most a few times a year, so a cache per zone and hour makes the
// conversion of a 20,000-runner list cheap.
const offsetCache = new Map<string, number>();

function offsetMinutes(timeZone: string, epochMs: number): number {
  if (timeZone === 'UTC') return 0;
  const key = `${timeZone}|${Math.floor(epochMs / 3_600_000)}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    offset = tzOffset(timeZone, new Date(epochMs));
    if (Number.isNaN(offset)) throw new RangeError(`unknown time zone '${timeZone}'`);
    if (offsetCache.size > 50_000) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  return offset;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

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
  const before = offsetMinutes(timeZone, wall - 12 * 3_600_000);
  const after = offsetMinutes(timeZone, wall + 12 * 3_600_000);
  const withBefore = wall - before * 60_000;
  if (before === after && offsetMinutes(timeZone, withBefore) === before) return withBefore;
  const withAfter = wall - after * 60_000;
  const valid = [withBefore, withAfter].filter((epoch, i) => offsetMinutes(timeZone, epoch) === (i === 0 ? before : after));
  return valid.length > 0 ? Math.min(...valid) : withBefore;
}


/** An instant as wall-clock `date` (`YYYY-MM-DD`) and `clock` (`HH:MM:SS`) in `timeZone`. */
export function instantToLocal(instant: string | Date, timeZone: string): { date: string; clock: string } {
  const epoch = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  const local = new Date(epoch + offsetMinutes(timeZone, epoch) * 60_000).toISOString();
  return { date: local.slice(0, 10), clock: local.slice(11, 19) };
}

/**
 * Eventor's query format: `yyyy-mm-dd hh:mm:ss`, always in UTC (the service reads input as UTC).
 * Accepts a Date or any ISO 8601 string; a plain `YYYY-MM-DD` means midnight UTC.
 */
export function formatQueryDateTime(value: Date | string): string | null {
  const epoch = typeof value === 'string' ? parseIsoLike(value) : value.getTime();
  if (epoch === null || Number.isNaN(epoch)) return null;
  return new Date(epoch).toISOString().slice(0, 19).replace('T', ' ');
}

function parseIsoLike(value: string): number | null {
  const text = value.trim();
  if (DATE.test(text)) return Date.parse(`${text}T00:00:00Z`);
  // `yyyy-mm-dd hh:mm:ss` (Eventor's own form) and ISO without offset are read as UTC, like Eventor does.
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) return null;
  const parsed = Date.parse(`${m[1]}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(parsed) ? null : parsed;
}

/** HashTableEntry times (`2023-09-25 21.59.59`, `2026-05-12 18:17:24`) are UTC. */
export function parseHashTableTime(value: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}[:.]\d{2}[:.]\d{2})/.exec(value.trim());
  return m ? localToInstant(m[1]!, m[2]!, 'UTC') : null;
}

const ELAPSED = /^(-)?(?:(\d+):)?(\d+):(\d{2})(?:[.,](\d+))?$/;

/** Native elapsed time (`46:33`, `1:06:45`, `0:00`) in seconds; null for empty or unreadable text. */
export function parseElapsed(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const t = text.trim();
  if (t === '') return null;
  const m = ELAPSED.exec(t);
  if (!m) return /^\d+$/.test(t) ? Number(t) : null;
  const value = Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + Number(m[4]) + (m[5] ? Number(`0.${m[5]}`) : 0);
  return m[1] ? -value : value;
}

/** Seconds as Eventor native elapsed text: `M:SS` under an hour, else `H:MM:SS`. */
export function formatElapsed(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const total = Math.round(Math.abs(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, '0')}:${ss}` : `${sign}${m}:${ss}`;
}
