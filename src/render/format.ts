/**
 * Small shared pieces: escaping, truncation, timestamps, statuses, places, names.
 */
import { escapeMarkdown, type TimestampStylesString, time } from 'discord.js';
import type {
  EventClassification,
  EventStatus,
  OrganisationRef,
  PersonName,
  ResultStatus,
} from '../eventor/answers.js';
import { formatElapsed } from '../eventor/time.js';
import { type Language, type PlainKey, t } from '../i18n/index.js';
import { breakMentions, CONTROL, LINE_BREAK, NAME_MAX, oneLine, plainText, truncate } from '../text/plain.js';
import { instantToLocal } from '../time/zones.js';
import type { RenderContext } from './types.js';

const MAY_NEED_ESCAPE = /[\\*_~`|#\-.[\]()<>@:]/;

// The plain-text cleaning is src/text's; the markdown escapes below build on it.
export { NAME_MAX, plainText, truncate };

/**
 * Eventor free text made safe to show: line breaks made `\n`, control and bidi characters
 * stripped, markdown escaped, and anything Discord would turn into a mention, a command, a
 * timestamp, an emoji or a link broken, so it shows as the text it is.
 *
 * discord.js's `escapeMarkdown` does the headings and lists at a line start. Its inline escapes
 * are not used: they leave one marker unescaped in a run of six `*` or `_`, a run of four
 * backticks and a lone `]`. Here every inline marker (`*_~|` backtick and brackets) outside a
 * URL gets a backslash (Discord shows URLs as links, without markdown, so their `_` stay), and
 * block quotes (`>`, `>>>`), subtext (`-#`), mentions and `<…>` are done here too.
 */
export function escapeEventorText(text: string): string {
  const clean = text.replace(LINE_BREAK, '\n').replace(CONTROL, '');
  // Most names hold nothing markdown or mentions could use; the escape costs ~20 µs a call.
  if (!MAY_NEED_ESCAPE.test(clean)) return clean;
  const inline = clean
    .replace(/\\/g, '\\\\')
    .split(URL)
    // split with a capturing group: the odd pieces are the URLs, kept as they are.
    .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(/[*_~|`[\]]/g, '\\$&')))
    .join('');
  const escaped = escapeMarkdown(inline, {
    heading: true,
    bulletedList: true,
    numberedList: true,
    escape: false,
    codeBlock: false,
    inlineCode: false,
    bold: false,
    italic: false,
    underline: false,
    strikethrough: false,
    spoiler: false,
  })
    // Block quotes and subtext at a line start.
    .replace(/^(\s*)(>|-#)/gm, '$1\\$2');
  return breakMentions(escaped);
}
const URL = /(https?:\/\/[^\s<>()[\]]+)/gi;

/**
 * One name from Eventor for a message: whitespace runs (line breaks too) folded into one space,
 * cut to `max` characters with an ellipsis, then escaped (so the cut never splits an escape).
 */
export function escapeName(text: string | null | undefined, options: { max?: number } = {}): string {
  // An options object rather than a number, so `names.map(escapeName)` cannot pass an index as the length.
  const max = options.max ?? NAME_MAX;
  const raw = text ?? '';
  // Class, club and runner names repeat through a list; the cache is bounded and pure.
  const cache = nameCaches.get(max) ?? new Map<string, string>();
  let escaped = cache.get(raw);
  if (escaped === undefined) {
    escaped = escapeEventorText(truncate(oneLine(raw), max));
    if (cache.size >= 10_000) cache.clear();
    cache.set(raw, escaped);
    nameCaches.set(max, cache);
  }
  return escaped;
}
const nameCaches = new Map<number, Map<string, string>>();

/**
 * Text for inside a code block, where markdown does not apply but a backtick would end the block:
 * the plain-text cleaning (one line, mentions broken), backticks made `ˋ`.
 */
export function codeSafe(text: string): string {
  return plainText(text).replace(/`/g, 'ˋ');
}

/** Milliseconds of an instant; one written without an offset counts as UTC. */
export function epochOf(instant: string | Date): number {
  if (instant instanceof Date) return instant.getTime();
  // Instants without an offset (some IOF producers) are read as UTC rather than the machine's zone.
  return Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(instant) ? instant : `${instant}Z`);
}

/** A Discord timestamp (`<t:1777629600:D>`), shown in each reader's own zone and language. */
export function discordTimestamp(instant: string | Date, style: TimestampStylesString): string {
  return time(Math.floor(epochOf(instant) / 1000), style);
}

export function isPast(instant: string, ctx: RenderContext): boolean {
  return epochOf(instant) <= ctx.now.getTime();
}

const LOCALES: Record<Language, string> = { en: 'en-GB', sv: 'sv-SE', nb: 'nb-NO' };

/** A date in the server's zone and language, for places Discord timestamps do not render (select options). */
export function formatLocalDate(instant: string, ctx: RenderContext): string {
  return localDateFormat(ctx).format(new Date(epochOf(instant)));
}

/**
 * One formatter per language and zone, made once: making an Intl.DateTimeFormat costs far more
 * than formatting with it, and an event list formats a date per event (it was about half of the
 * bot's CPU for a cached /events answer, `npm run bench`'s interactions section). Bounded by the
 * three languages times the IANA zones, the only ones a server's setting can name.
 */
const localDateFormats = new Map<string, Intl.DateTimeFormat>();
function localDateFormat(ctx: RenderContext): Intl.DateTimeFormat {
  const key = `${ctx.language} ${ctx.timeZone}`;
  let format = localDateFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[ctx.language], {
      timeZone: ctx.timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    });
    localDateFormats.set(key, format);
  }
  return format;
}

/** Wall-clock time in the server's zone, `HH:MM`, or `HH:MM:SS` when the seconds matter (start times). */
export function formatClock(instant: string, ctx: RenderContext): string {
  const { clock } = instantToLocal(new Date(epochOf(instant)), ctx.timeZone);
  return clock.endsWith(':00') ? clock.slice(0, 5) : clock;
}

export { formatElapsed };

/** Time behind the winner, `+2:18`; empty for the winner or unknown. */
export function formatBehind(seconds: number | null): string {
  return seconds === null || seconds <= 0 ? '' : `+${formatElapsed(seconds)}`;
}

const MEDALS = ['🥇', '🥈', '🥉'] as const;

/** `12.`, or a medal for the podium when `medals` is set; empty when there is no place. */
export function formatPlace(position: number | null, options: { medals?: boolean } = {}): string {
  if (position === null || position <= 0) return '';
  if (options.medals && position <= 3) return MEDALS[position - 1]!;
  return `${position}.`;
}

const STATUS_KEYS: Record<ResultStatus, PlainKey | null> = {
  OK: null,
  Finished: 'render.status.Finished',
  MissingPunch: 'render.status.MissingPunch',
  Disqualified: 'render.status.Disqualified',
  DidNotFinish: 'render.status.DidNotFinish',
  Active: 'render.status.Active',
  Inactive: 'render.status.Inactive',
  OverTime: 'render.status.OverTime',
  SportingWithdrawal: 'render.status.SportingWithdrawal',
  NotCompeting: 'render.status.NotCompeting',
  Moved: 'render.status.Moved',
  MovedUp: 'render.status.MovedUp',
  DidNotStart: 'render.status.DidNotStart',
  DidNotEnter: 'render.status.DidNotEnter',
  Cancelled: 'render.status.Cancelled',
};

/** A result status as shown beside a name (`MP`, `Felst.`, `Brutt`…), '' for OK (docs/iof-xml.md#result-statuses). */
export function formatStatus(status: ResultStatus, language: Language): string {
  const key = STATUS_KEYS[status];
  return key === null ? '' : t(language, key);
}

/** Statuses that are not shown at all: the runner is not in this class or race (docs/iof-xml.md#result-statuses). */
export function isHiddenStatus(status: ResultStatus): boolean {
  return status === 'Moved' || status === 'MovedUp' || status === 'DidNotEnter' || status === 'Cancelled';
}

/** An event level in words: the `render.level.*` text of the model's level name (EVENT_CLASSIFICATIONS). */
export function classificationText(classification: EventClassification, language: Language): string {
  return t(language, `render.level.${classification}`);
}

export function eventStatusText(status: EventStatus, language: Language): string {
  return t(language, `render.eventStatus.${status}`);
}

export function personNameText(name: PersonName | null | undefined): string {
  if (!name) return '';
  return `${name.given} ${name.family}`.trim();
}

/** The organisation's name from the map, the ref, or its short name; null when nothing is known. */
export function organisationName(
  ref: OrganisationRef | null | undefined,
  ctx: RenderContext,
  preferShort = false,
): string | null {
  if (!ref) return null;
  const fromMap = ref.id === null ? undefined : ctx.organisationNames?.get(ref.id);
  const name = preferShort ? (ref.shortName ?? ref.name ?? fromMap) : (fromMap ?? ref.name ?? ref.shortName);
  return name && name.trim() !== '' ? name : null;
}

/** Link text for `[text](url)`: brackets would end the label early. */
export function linkText(text: string): string {
  return escapeName(text.replace(/[[\]]/g, ''));
}

/** A URL that can go inside `(…)` of a masked link, or null for anything that is not http(s). */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  // Eventor document links sometimes carry raw spaces in file names.
  const trimmed = url.trim().replace(/ /g, '%20');
  if (!/^https?:\/\/[^\s]+$/i.test(trimmed) || trimmed.length > 512) return null;
  return trimmed.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/</g, '%3C').replace(/>/g, '%3E');
}

export function eventUrl(ctx: RenderContext, eventId: string): string {
  return `${ctx.webUrl.replace(/\/+$/, '')}/Events/Show/${encodeURIComponent(eventId)}`;
}

/** OpenStreetMap centred on a point, zoom 14. */
export function mapUrl(lat: number, lon: number): string {
  const la = lat.toFixed(5);
  const lo = lon.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${la}&mlon=${lo}#map=14/${la}/${lo}`;
}
