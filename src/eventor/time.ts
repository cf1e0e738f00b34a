/**
 * Eventor's own time formats: the UTC query date-time, HashTableEntry times and native elapsed
 * times. Wall clock <-> instant in a zone is src/time/zones.ts; calendar days are src/time/days.ts.
 */
import { localToInstant } from '../time/zones.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

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
