/**
 * Strict readers for IOF XML 3.0 simple values. Durations are xs:double seconds; JavaScript's
 * lenient conversions are wrong for them (`parseFloat('978,3')` is 978, `Number('')` is 0), so
 * every number goes through a regex first and a bad one is an InvalidResponse naming its path.
 */

import { localToInstant } from '../../time/zones.js';
import { InvalidResponse } from '../errors.js';
import { ResultStatus } from '../model.js';

const DOUBLE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** xs:double seconds; null for absent or empty; rejects `978,3`, `NaN`, `INF` and anything non-finite. */
export function parseSeconds(text: string | null, path: () => string): number | null {
  if (text === null) return null;
  if (!DOUBLE.test(text))
    throw new InvalidResponse(
      `'${clip(text)}' is not a number of seconds (xs:double with '.' as decimal separator)`,
      path(),
    );
  const value = Number(text);
  if (!Number.isFinite(value)) throw new InvalidResponse(`'${clip(text)}' is not a finite number`, path());
  return value;
}

export function parseInteger(text: string | null, path: () => string): number | null {
  if (text === null) return null;
  if (!INTEGER.test(text)) throw new InvalidResponse(`'${clip(text)}' is not an integer`, path());
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new InvalidResponse(`'${clip(text)}' is out of range`, path());
  return value;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const STATUSES: ReadonlyMap<string, ResultStatus> = new Map<string, ResultStatus>([
  ...ResultStatus.options.map((status) => [status.toLowerCase(), status] as [string, ResultStatus]),
  // IOF 2.0.3 / Eventor native spellings, seen in files converted by hand.
  ['mispunch', 'MissingPunch'],
  ['sportwithdr', 'SportingWithdrawal'],
]);

/** A ResultStatus; the element is required by the XSD, so absence is an InvalidResponse too. */
export function parseStatus(text: string | null, path: () => string): ResultStatus {
  if (text === null) throw new InvalidResponse('missing result Status', path());
  const status = STATUSES.get(text.toLowerCase());
  if (status === undefined) throw new InvalidResponse(`unknown result status '${clip(text)}'`, path());
  return status;
}

export interface TimeOptions {
  /** IANA zone for times written without an offset; without it they stay wall-clock text. */
  timeZone: string | undefined;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const TIME_ONLY = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})/;

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const digits = offset.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return offset.startsWith('-') ? -minutes : minutes;
}

/**
 * An xs:dateTime as the model's Instant: UTC with `Z` when the text has an offset (or a zone is
 * given for text without one), otherwise the wall-clock text without `Z`. Fractions are kept
 * only when non-zero (`12:18:00.000` -> `12:18:00`, `35.800` -> `35.8`). `2014-01-18T11:34`
 * (no seconds, rg2) is read as `:00`. A bare time of day (`10:05:00`, go-iof-xml) is combined
 * with `dateForTimeOnly` (the race or event date) and is null when no date is known. Text that
 * is no date-time at all is null too: unlike a duration, a wrong clock time does not change a
 * place, so it is not worth rejecting the list for.
 */
export function parseDateTime(
  text: string | null,
  options: TimeOptions,
  dateForTimeOnly: string | null,
  path: () => string,
): string | null {
  if (text === null) return null;
  // Both shapes end in the same clock groups: hours, minutes, then optional seconds, fraction and offset.
  let dateGroups: readonly (string | undefined)[];
  let clockGroups: readonly (string | undefined)[];
  const full = DATE_TIME.exec(text);
  if (full) {
    dateGroups = full.slice(1, 4);
    clockGroups = full.slice(4);
  } else {
    const clock = TIME_ONLY.exec(text);
    // Producers write broken times (`2019-06-12T`, old QuickEvent); losing one time beats losing the list.
    if (!clock) return null;
    if (dateForTimeOnly === null) return null;
    const date = DATE_ONLY.exec(dateForTimeOnly);
    if (!date) return null;
    dateGroups = date.slice(1, 4);
    clockGroups = clock.slice(1);
  }
  const [y, mo, d] = dateGroups;
  const [h, mi, s, frac, offset] = clockGroups;
  const yy = Number(y),
    mm = Number(mo),
    dd = Number(d),
    hh = Number(h),
    mn = Number(mi),
    ss = s === undefined ? 0 : Number(s);
  if (mm < 1 || mm > 12 || dd < 1 || dd > 31 || hh > 24 || mn > 59 || ss > 60) return null;
  const fraction = frac === undefined ? '' : frac.replace(/0+$/, '');
  const suffix = fraction === '' ? '' : `.${fraction}`;
  const wall = Date.UTC(yy, mm - 1, dd, hh, mn, ss);
  if (offset !== undefined) {
    return `${new Date(wall - offsetMinutes(offset) * 60_000).toISOString().slice(0, 19)}${suffix}Z`;
  }
  const wallText = new Date(wall).toISOString().slice(0, 19);
  if (options.timeZone !== undefined) {
    const instant = localToInstant(wallText.slice(0, 10), wallText.slice(11, 19), options.timeZone);
    if (instant === null) throw new InvalidResponse(`'${clip(text)}' cannot be placed in ${options.timeZone}`, path());
    return `${instant.slice(0, 19)}${suffix}Z`;
  }
  return `${wallText}${suffix}`;
}

/** The `YYYY-MM-DD` part of an xs:date (which may carry a zone suffix), or null. */
export function parseDate(text: string | null): string | null {
  if (text === null) return null;
  const m = DATE_ONLY.exec(text);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
