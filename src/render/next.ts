/**
 * `/next` and the day-before reminder DM, pure: the races a member's linked persons have entered
 * (class, start time once out, where, the entry deadlines still ahead) and "tomorrow 10:32, H21,
 * <event>". Eventor names no venue: where a race is, is the event (and race) name with a map of the
 * event centre when Eventor gives its position (docs/members.md#your-next-races-next).
 */
import { type APIButtonComponent, ButtonStyle, ComponentType } from 'discord.js';
import type { Event, EventRace } from '../eventor/answers.js';
import { type Language, t } from '../i18n/index.js';
import { fitPayload } from './fit.js';
import { discordTimestamp, escapeName, eventUrl, formatClock, mapUrl, plainText, truncate } from './format.js';
import { loginButton } from './login-button.js';
import { COLOURS } from './pages.js';
import type { MessagePayload, RenderContext } from './types.js';

/** One race one linked person has entered (`src/club/next-races.ts` gathers them). */
export interface NextRace {
  personId: string;
  event: Event;
  /** The race of a multi-race event; null for an event of one race. */
  race: EventRace | null;
  /** When the race is: the race's date, else the event's start. */
  at: string | null;
  /** The class entered (the start list's name once out, else the event's class list's). */
  className: string | null;
  /** The person's start time, once the start list is out. */
  start: string | null;
}

/** A linked person and their races, nearest first. */
export interface PersonRaces {
  personId: string;
  /** The name to call them by, raw (escaped here). */
  name: string;
  /** The member's default person: "your next races". */
  own: boolean;
  races: readonly NextRace[];
}

/** What fits in the one embed's description: whole races only, never one cut in the middle. */
const DESCRIPTION_BUDGET = 3900;

/** "Event – Stage 2", escaped. */
export function raceTitle(race: NextRace, max = 200): string {
  const event = escapeName(race.event.name);
  const stage = race.race?.name && race.race.name.trim() !== '' ? escapeName(race.race.name) : null;
  return truncate(stage ? `${event} – ${stage}` : event, max);
}

/** The map of the race's (else the event's) centre, when Eventor gives a position. */
export function raceMap(race: NextRace): string | null {
  const position = race.race?.position ?? race.event.races.find((r) => r.position !== null)?.position ?? null;
  return position ? mapUrl(position.lat, position.lon) : null;
}

function className(race: NextRace, language: Language): string {
  return race.className ? `**${escapeName(race.className)}**` : t(language, 'next.classUnknown');
}

/** Entry deadlines still ahead: until the last, an entry can still be changed in Eventor. */
function deadlinesText(event: Event, ctx: RenderContext): string {
  const ahead = event.entryDeadlines.filter((d) => Date.parse(d) > ctx.now.getTime());
  if (ahead.length === 0) return t(ctx.language, 'next.deadlinesNone');
  return t(ctx.language, 'next.deadlines', {
    deadlines: ahead
      .slice(0, 3)
      .map((d) => discordTimestamp(d, 'f'))
      .join(', '),
  });
}

/** One race's lines in `/next`. */
function raceBlock(race: NextRace, ctx: RenderContext): string {
  const { language } = ctx;
  const cancelled = race.event.status === 'canceled';
  const title = `[${raceTitle(race)}](${eventUrl(ctx, race.event.id)})`;
  const when = race.at ? ` · ${discordTimestamp(race.at, 'D')}` : '';
  const lines = [`${cancelled ? '❌ ' : ''}**${title}**${when}`];
  if (cancelled) lines.push(t(language, 'next.cancelled'));
  const start = race.start
    ? t(language, 'next.start', { clock: formatClock(race.start, ctx), relative: discordTimestamp(race.start, 'R') })
    : t(language, 'next.startNotOut');
  lines.push(`${t(language, 'next.class', { class: className(race, language) })} · ${start}`);
  const map = raceMap(race);
  if (map) lines.push(`📍 [${t(language, 'next.map')}](${map})`);
  if (!cancelled) lines.push(deadlinesText(race.event, ctx));
  return lines.join('\n');
}

/** Blocks joined within the budget; what does not fit is counted, never cut. */
function packBlocks(blocks: readonly string[], budget: number, language: Language): string {
  let out = '';
  for (let i = 0; i < blocks.length; i += 1) {
    const next = (out === '' ? '' : '\n\n') + blocks[i]!;
    const more = `\n\n${t(language, 'render.andMore', { count: blocks.length - i })}`;
    const room = budget - (i + 1 < blocks.length ? more.length : 0);
    if (out.length + next.length > room) return out + more;
    out += next;
  }
  return out;
}

/**
 * The `/next` answer: each linked person's next races, nearest first, in one embed, with the
 * "Log in to Eventor" button (entries are changed there) and, given its custom id, a refresh button.
 * Private: the caller answers ephemerally.
 */
export function renderNextRaces(
  persons: readonly PersonRaces[],
  ctx: RenderContext,
  options: { refreshId?: string } = {},
): MessagePayload {
  const { language } = ctx;
  const several = persons.length > 1;
  const blocks: string[] = [];
  for (const person of persons) {
    const name = escapeName(person.name);
    const heading = several ? `__**${name}**__\n` : '';
    if (person.races.length === 0) {
      blocks.push(heading + t(language, person.own ? 'next.none.own' : 'next.none.other', { person: name }));
      continue;
    }
    person.races.forEach((race, i) => blocks.push((i === 0 ? heading : '') + raceBlock(race, ctx)));
  }
  const single = persons[0];
  const title =
    several || !single
      ? t(language, 'next.title.family')
      : single.own
        ? t(language, 'next.title.own')
        : // An embed title renders markdown: the name is escaped, as in the description.
          t(language, 'next.title.other', { person: escapeName(single.name) });
  return fitPayload({
    embeds: [
      {
        title: truncate(title, 256),
        color: COLOURS.starts,
        description: packBlocks(blocks, DESCRIPTION_BUDGET, language),
        footer: { text: t(language, 'next.footer') },
      },
    ],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          loginButton(language),
          ...(options.refreshId
            ? [
                {
                  type: ComponentType.Button as const,
                  style: ButtonStyle.Secondary as const,
                  label: t(language, 'next.refresh'),
                  custom_id: options.refreshId,
                },
              ]
            : []),
        ],
      },
    ],
    allowedMentions: { parse: [] },
  });
}

export interface DayBeforeOptions {
  /** The member's default person: "tomorrow …"; another linked person is named. */
  own: boolean;
  personName: string;
  /** The server's name, so a member of several servers knows where a DM comes from. */
  server: string | null;
}

/**
 * The day-before reminder: "Tomorrow 10:32, H21, <event>" (the start time once out, else the class
 * and the event), the map when Eventor gives a position, and a link to the event.
 */
export function renderDayBeforeDm(race: NextRace, ctx: RenderContext, options: DayBeforeOptions): MessagePayload {
  const { language } = ctx;
  const place = `**${raceTitle(race)}**`;
  const vars = { class: className(race, language), place, person: escapeName(options.personName) };
  const who = options.own ? 'own' : 'other';
  const text = race.start
    ? t(language, `notify.tomorrow.${who}.start`, { ...vars, clock: formatClock(race.start, ctx) })
    : t(language, `notify.tomorrow.${who}.noStart`, vars);
  const map = raceMap(race);
  const lines = [text];
  if (map) lines.push(`📍 [${t(language, 'next.map')}](${map})`);
  if (options.server) lines.push(`-# ${t(language, 'notify.dm.footer', { server: plainText(options.server, 100) })}`);
  const buttons: APIButtonComponent[] = [
    { type: ComponentType.Button, style: ButtonStyle.Link, label: 'Eventor', url: eventUrl(ctx, race.event.id) },
  ];
  return fitPayload({
    content: lines.join('\n'),
    components: [{ type: ComponentType.ActionRow, components: buttons }],
    allowedMentions: { parse: [] },
  });
}
