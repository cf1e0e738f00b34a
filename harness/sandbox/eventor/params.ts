/**
 * Query-string handling as ASP.NET does it for Eventor: parameter names are case-insensitive,
 * unknown parameters are ignored, empty values count as absent (OriGo sends `fromDate=&eventIds=`),
 * dates are `yyyy-mm-dd hh:mm:ss` or `yyyy-mm-dd` read as UTC, and anything malformed is a 400.
 */

export class BadRequest extends Error {}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?$/;

/** Epoch ms of a query date read as UTC; null if malformed. Years 0000-9999 are allowed. */
export function parseQueryDate(text: string): number | null {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  if (date.getUTCDate() !== d) return null; // 2026-02-30 and the like
  return date.getTime();
}

export class Query {
  private readonly values = new Map<string, string>();

  constructor(params: URLSearchParams) {
    for (const [k, v] of params) {
      const key = k.toLowerCase();
      // The first occurrence wins, as ASP.NET's simple-type binding does.
      if (!this.values.has(key)) this.values.set(key, v);
    }
  }

  /** A value, or undefined when absent or empty. */
  str(name: string): string | undefined {
    const v = this.values.get(name.toLowerCase());
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  required(name: string): string {
    const v = this.str(name);
    if (v === undefined) throw new BadRequest(`The parameter '${name}' is required.`);
    return v;
  }

  flag(name: string): boolean {
    const v = this.str(name);
    if (v === undefined) return false;
    const lower = v.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    throw new BadRequest(`The value '${v}' is not valid for ${name}.`);
  }

  int(name: string): number | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw new BadRequest(`The value '${v}' is not valid for ${name}.`);
    return Number(v);
  }

  /** A single id (path or query); ids are integers on the real service. */
  id(name: string): string | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    return checkId(v, name);
  }

  /** A comma-separated id list, or undefined when absent (meaning "all"). */
  ids(name: string): string[] | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    const list = v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    for (const id of list) checkId(id, name);
    return list.length === 0 ? undefined : list;
  }

  /** A date bound as epoch ms; absent means 0000-01-01 00:00:00 (lower) or 9999-12-31 23:59:59 (upper). */
  date(name: string, bound: 'lower' | 'upper'): number {
    const v = this.str(name);
    if (v === undefined) return bound === 'lower' ? LOWER : UPPER;
    const ms = parseQueryDate(v);
    if (ms === null) throw new BadRequest(`The value '${v}' is not valid for ${name}.`);
    // A date without a time as upper bound still means the start of that day, as on the real service.
    return ms;
  }
}

export const LOWER = parseQueryDate('0000-01-01 00:00:00')!;
export const UPPER = parseQueryDate('9999-12-31 23:59:59')!;

export function checkId(value: string, name: string): string {
  if (!/^\d{1,12}$/.test(value)) throw new BadRequest(`The value '${value}' is not valid for ${name}.`);
  return String(Number(value));
}
