/**
 * Reading what a live source sends: JSON that `api.php` builds by hand (a raw tab in a pasted name
 * makes it invalid; docs/live-results.md#invalid-json), and the loose scalars of its rows.
 */
import { LiveError } from './errors.js';
import type { LiveSourceKind } from './model.js';

/** The longest name, club or class kept from a live source; a longer one is cut (the renderers cut further). */
export const LIVE_TEXT_MAX = 200;

// Raw control characters: invalid inside a JSON string, harmless as spaces between its tokens.
const RAW_CONTROLS = /[\u0000-\u001F]/g;

/**
 * The body as JSON. A body that does not parse is read again with every raw control character
 * written as its JSON escape, which mends the invalid JSON the services are known to send (a tab
 * pasted into a name) and keeps the text as it was, so a class name read this way can be asked
 * for again; failing that (a control character between the tokens too), with each made a space.
 * Anything else that does not parse is an InvalidResponse, so the caller keeps what it had.
 */
export function parseLiveJson(body: string, what: string, source: LiveSourceKind): unknown {
  const text = body.replace(/^\uFEFF/, '');
  const readings = [
    () => text,
    () => text.replace(RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    () => text.replace(RAW_CONTROLS, ' '),
  ];
  for (const reading of readings) {
    try {
      return JSON.parse(reading());
    } catch {
      // the next reading
    }
  }
  const head = text.trimStart().slice(0, 20).toLowerCase();
  const looksHtml = head.startsWith('<!doctype') || head.startsWith('<html');
  throw new LiveError(
    'InvalidResponse',
    `the answer to ${what} is ${looksHtml ? 'an HTML page' : 'not valid JSON'}`,
    source,
  );
}

/** A name from the service as one line: control characters gone, whitespace folded, at most LIVE_TEXT_MAX characters. */
export function cleanText(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const line = String(value)
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= LIVE_TEXT_MAX) return line;
  const cut = line.slice(0, LIVE_TEXT_MAX - 1);
  // Never leave half a surrogate pair at the cut.
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/**
 * A class name exactly as the service wrote it: it goes back in the requests for the class, so it
 * is neither cleaned nor cut here (the renderers do that); '' when it is not a name at all.
 */
export function className(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? value : '';
}

/** A whole number from a number or a numeric string; null for anything else. */
export function integer(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Math.trunc(Number(value));
  return null;
}

/**
 * Hundredths of a second (a time, a time behind, a start after midnight) as whole seconds, cut
 * like a timing system cuts; `""`, missing, zero and negative values (stand-ins for "no time")
 * are null.
 */
export function hundredthsToSeconds(value: unknown): number | null {
  const n = integer(value);
  return n === null || n <= 0 ? null : Math.floor(n / 100);
}

/** A time behind in hundredths as seconds: 0 for the leader (LiveRes gives the leader a negative lead). */
export function behindSeconds(value: unknown): number | null {
  const n = integer(value);
  if (n === null) return null;
  return n <= 0 ? 0 : Math.floor(n / 100);
}

/** A place: a positive number from `"3"` or `3`; null for `""`, `"-"`, `"F"` and the like (ties, `"="`, are resolved by the caller). */
export function placeNumber(value: unknown): number | null {
  const n = integer(value);
  return n !== null && n > 0 ? n : null;
}
