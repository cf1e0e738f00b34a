/**
 * An Eventor event as a Discord guild scheduled event of the external type: its name, description
 * and location within Discord's limits (100, 1,000 and 100 characters), its start and end. Pure.
 * Discord shows the name as plain text (made safe with `plainText`) and the description with
 * markdown (names from Eventor escaped there); names are cut only between words, lines left out whole
 * (docs/discord.md#scheduled-events).
 */
import type { Event } from '../eventor/answers.js';
import { t } from '../i18n/index.js';
import { epochOf, escapeName, eventUrl, formatClock, formatLocalDate, mapUrl, plainText } from './format.js';
import type { RenderContext } from './types.js';

/** Discord's limits on a scheduled event's fields. */
export const SCHEDULED_EVENT_LIMITS = { name: 100, description: 1000, location: 100 } as const;

/**
 * How long an event lasts when Eventor gives no finish after its start (most one-day races): a
 * race day's first start to its last finisher and prize-giving, about three hours.
 */
export const DEFAULT_EVENT_DURATION_MS = 3 * 3_600_000;

/** What the bot sets on a scheduled event: everything it keeps in step with Eventor. */
export interface ScheduledEventFields {
  name: string;
  description: string;
  location: string;
  /** ISO 8601 instants. */
  scheduledStartTime: string;
  scheduledEndTime: string;
}

/**
 * `text` within `max` characters: whole when it fits, else cut at the last space before the limit
 * with `…` (a single word longer than the limit is the only thing cut inside a word).
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  const cut = space > max / 3 ? room.slice(0, space) : room;
  return `${cut.trimEnd()}…`;
}

/** Lines joined by `\n`, in order, leaving out those that would take the text past `max` (the first is always kept). */
export function wholeLines(lines: readonly string[], max: number): string {
  let out = '';
  for (const line of lines) {
    const next = out === '' ? line : `${out}\n${line}`;
    if (next.length <= max) out = next;
  }
  return out;
}

/** The event's start and end: Eventor's finish when after the start, else the last race's start plus the default length. */
export function eventTimes(event: Event): { start: number; end: number } | null {
  if (!event.start) return null;
  const start = epochOf(event.start);
  const finish = event.finish ? epochOf(event.finish) : NaN;
  if (!Number.isNaN(finish) && finish > start) return { start, end: finish };
  const lastRace = Math.max(start, ...event.races.map((r) => (r.date ? epochOf(r.date) : start)));
  return { start, end: lastRace + DEFAULT_EVENT_DURATION_MS };
}

/** A local date and time in the server's zone and language (Discord shows no timestamps in these fields). */
function localTime(instant: string, ctx: RenderContext): string {
  return `${formatLocalDate(instant, ctx)} ${formatClock(instant, ctx)}`;
}

/**
 * The Eventor link on a line of its own: always the description's last line, never left out, so the
 * bot can tell its scheduled event for this Eventor event among the server's (docs/decisions/scheduled-events.md).
 */
export function eventLinkLine(ctx: RenderContext, eventId: string): string {
  return eventUrl(ctx, eventId);
}

/** Whether a scheduled event's description carries the link line of this Eventor event. */
export function describesEvent(description: string | null | undefined, linkLine: string): boolean {
  return (description ?? '').split('\n').some((line) => line.trim() === linkLine);
}

/** Where the event is: a map of its centre when Eventor gives one, else its Eventor page. */
function location(event: Event, link: string): string {
  const position = event.races.find((race) => race.position !== null)?.position ?? null;
  const map = position ? mapUrl(position.lat, position.lon) : null;
  const place = map && map.length <= SCHEDULED_EVENT_LIMITS.location ? map : link;
  return place.length <= SCHEDULED_EVENT_LIMITS.location ? place : 'Eventor';
}

/**
 * The scheduled event's fields for an Eventor event (null without a start): `count` is how many
 * from the club have entered. The description: cancelled, the organisers, the entry deadlines still
 * ahead, the club's entries, the link last; lines that do not fit are left out whole.
 */
export function renderScheduledEvent(event: Event, count: number, ctx: RenderContext): ScheduledEventFields | null {
  const times = eventTimes(event);
  if (!times) return null;
  const { language } = ctx;
  const link = eventLinkLine(ctx, event.id);
  const name = cutAtWord(plainText(event.name), SCHEDULED_EVENT_LIMITS.name) || `Eventor ${plainText(event.id, 40)}`;
  const lines: string[] = [];
  if (event.status === 'canceled') lines.push(t(language, 'calendar.cancelled'));
  // The description shows markdown (links too): names from Eventor are escaped there.
  const organisers = event.organisers.map((o) => escapeName(o.name ?? o.shortName ?? '')).filter((n) => n !== '');
  if (organisers.length > 0) lines.push(t(language, 'calendar.organisers', { names: organisers.join(', ') }));
  const now = ctx.now.getTime();
  event.entryDeadlines.forEach((deadline, i) => {
    if (epochOf(deadline) <= now) return;
    lines.push(
      t(language, i === 0 ? 'calendar.deadline' : 'calendar.deadlineLate', { when: localTime(deadline, ctx) }),
    );
  });
  lines.push(count > 0 ? t(language, 'calendar.entries', { count }) : t(language, 'calendar.entriesNone'));
  // The link last and always: room for it is kept before any other line.
  const body = wholeLines(
    lines.map((line) => cutAtWord(line, SCHEDULED_EVENT_LIMITS.description - link.length - 1)),
    SCHEDULED_EVENT_LIMITS.description - link.length - 1,
  );
  return {
    name,
    description: body === '' ? link : `${body}\n${link}`,
    location: location(event, link),
    scheduledStartTime: new Date(times.start).toISOString(),
    scheduledEndTime: new Date(times.end).toISOString(),
  };
}
