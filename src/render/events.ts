/**
 * Events: the paged list of upcoming events with a picker, and one event's card.
 */
import { type APIButtonComponent, type APIEmbedField, ButtonStyle, ComponentType } from 'discord.js';
import type { EntryFee, Event, EventClass, EventDocument } from '../eventor/answers.js';
import { type Language, type PlainKey, t } from '../i18n/index.js';
import { instantToLocal } from '../time/zones.js';
import { DISCORD_LIMITS, fitPayload } from './fit.js';
import {
  classificationText,
  discordTimestamp,
  escapeEventorText,
  escapeName,
  eventStatusText,
  eventUrl,
  formatLocalDate,
  isPast,
  linkText,
  mapUrl,
  organisationName,
  plainText,
  safeUrl,
  truncate,
} from './format.js';
import { COLOURS } from './pages.js';
import type { MessagePayload, RenderContext } from './types.js';

export interface EventListOptions {
  /** 1-based page; clamped to the pages there are. */
  page: number;
  /** Events per page, 1-25 (the picker holds 25). Default 10. */
  pageSize?: number;
  customIds: {
    /** Custom id of the button that shows page `n` (1-based). */
    page: (n: number) => string;
    /** Custom id of the select menu; the selected value is the event id. */
    pick: string;
  };
}

/** Organiser names joined, or null when none is known. */
export function organiserText(event: Event, ctx: RenderContext): string | null {
  const names = event.organisers
    .map((ref) => organisationName(ref, ctx))
    .filter((name): name is string => name !== null);
  return names.length === 0 ? null : names.map((name) => escapeName(name)).join(', ');
}

/** The first entry deadline still ahead, if any. */
export function nextDeadline(event: Event, ctx: RenderContext): string | null {
  return event.entryDeadlines.find((deadline) => !isPast(deadline, ctx)) ?? null;
}

/**
 * "Entry closes in 3 days (date)", or "Late entry closes …" once the ordinary deadline (the
 * first) has passed; null when no deadline is ahead.
 */
export function nextDeadlineText(event: Event, ctx: RenderContext): string | null {
  const index = event.entryDeadlines.findIndex((deadline) => !isPast(deadline, ctx));
  if (index < 0) return null;
  const deadline = event.entryDeadlines[index]!;
  const vars = { when: discordTimestamp(deadline, 'R'), date: discordTimestamp(deadline, 'f') };
  return t(ctx.language, index === 0 ? 'render.event.nextDeadline' : 'render.event.nextLateDeadline', vars);
}

function isCancelled(event: Event): boolean {
  return event.status === 'canceled';
}

function eventDate(event: Event): string | null {
  return event.start ?? event.races.find((race) => race.date !== null)?.date ?? null;
}

function dateRange(event: Event, ctx: RenderContext): string {
  const start = eventDate(event);
  if (start === null) return '';
  const end = event.finish;
  const startText = discordTimestamp(start, 'D');
  // Days as the organiser's zone sees them: a finish at 00:30 local is the next day, not in UTC.
  if (end === null || instantToLocal(end, ctx.timeZone).date <= instantToLocal(start, ctx.timeZone).date)
    return startText;
  return `${startText} – ${discordTimestamp(end, 'D')}`;
}

function eventBlock(event: Event, index: number, ctx: RenderContext): string {
  const { language } = ctx;
  const name = escapeName(event.name, { max: 200 });
  const title = isCancelled(event) ? `~~${name}~~ ❌ **${t(language, 'render.eventStatus.canceled')}**` : `**${name}**`;
  const first = [`${index}.`, dateRange(event, ctx), title].filter((part) => part !== '').join(' ');
  const details: string[] = [];
  const organisers = organiserText(event, ctx);
  if (organisers) details.push(truncate(organisers, 200));
  if (event.classification !== 'unknown') details.push(classificationText(event.classification, language));
  if (!isCancelled(event) && event.status !== 'unknown') details.push(eventStatusText(event.status, language));
  const lines = [first];
  if (details.length > 0) lines.push(details.join(' · '));
  if (!isCancelled(event)) {
    const deadline = nextDeadlineText(event, ctx);
    if (deadline) lines.push(deadline);
  }
  return lines.join('\n');
}

/**
 * One page of events (in the order given; callers sort), with Previous/Next buttons and a
 * picker whose value is the event id.
 */
export function renderEventList(
  events: readonly Event[],
  ctx: RenderContext,
  options: EventListOptions,
): MessagePayload {
  const { language } = ctx;
  const pageSize = Math.min(DISCORD_LIMITS.selectOptions, Math.max(1, Math.floor(options.pageSize ?? 10)));
  const pages = Math.max(1, Math.ceil(events.length / pageSize));
  const page = Math.min(pages, Math.max(1, Math.floor(options.page)));
  const slice = events.slice((page - 1) * pageSize, page * pageSize);
  const title = t(language, 'render.events.title');
  if (slice.length === 0) {
    return fitPayload({ embeds: [{ title, description: t(language, 'render.events.none'), color: COLOURS.brand }] });
  }
  // A page holds at most 25 events, so ~150 characters each keeps the description within 4096.
  const perEvent = Math.floor(3900 / slice.length);
  const blocks = slice.map((event, i) => truncate(eventBlock(event, (page - 1) * pageSize + i + 1, ctx), perEvent));
  const components: MessagePayload['components'] = [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: options.customIds.pick,
          placeholder: t(language, 'render.events.pick'),
          options: slice.map((event) => {
            const date = eventDate(event);
            const description = [
              date ? formatLocalDate(date, ctx) : '',
              isCancelled(event) ? t(language, 'render.eventStatus.canceled') : '',
            ]
              .filter((part) => part !== '')
              .join(' · ');
            return {
              // An id is Eventor's text too (a custom Eventor may send any).
              label: plainText(event.name, DISCORD_LIMITS.selectOptionText) || plainText(event.id, 40),
              value: event.id,
              ...(description === '' ? {} : { description: truncate(description, DISCORD_LIMITS.selectOptionText) }),
            };
          }),
        },
      ],
    },
  ];
  if (pages > 1) {
    components.push({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          label: t(language, 'render.previous'),
          custom_id: options.customIds.page(page === 1 ? 1 : page - 1),
          disabled: page === 1,
        },
        {
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          label: t(language, 'render.next'),
          custom_id: options.customIds.page(page === pages ? pages : page + 1),
          disabled: page === pages,
        },
      ],
    });
  }
  return fitPayload({
    embeds: [
      {
        title,
        description: blocks.join('\n\n'),
        color: COLOURS.brand,
        footer: { text: t(language, 'render.pageOfEvents', { page, pages, count: events.length }) },
      },
    ],
    components,
  });
}

export interface EventCardExtras {
  classes?: readonly EventClass[];
  fees?: readonly EntryFee[];
  documents?: readonly EventDocument[];
  /** How many from the club have entered; null when unknown. */
  clubEntries?: number | null;
}

const DISTANCE_KEYS: Record<string, PlainKey> = {
  sprint: 'render.distance.sprint',
  middle: 'render.distance.middle',
  long: 'render.distance.long',
  ultralong: 'render.distance.ultralong',
};

function distanceText(distance: string | null, language: Language): string {
  if (!distance || distance === 'NotSet') return '';
  const key = DISTANCE_KEYS[distance.toLowerCase()];
  return key ? t(language, key) : escapeName(distance);
}

/** The words of Eventor's discipline ids. */
export const DISCIPLINE_KEYS: Readonly<Record<string, PlainKey>> = {
  '1': 'render.discipline.foot',
  '2': 'render.discipline.mtbo',
  '3': 'render.discipline.ski',
  '4': 'render.discipline.trail',
  '6': 'render.discipline.park',
};

/** Lines joined until `max` characters, then "and N more". */
export function joinWithin(items: readonly string[], separator: string, max: number, language: Language): string {
  let out = '';
  for (let i = 0; i < items.length; i += 1) {
    const next = (out === '' ? '' : separator) + items[i]!;
    const rest = items.length - i;
    const moreText = t(language, 'render.andMore', { count: rest });
    if (out.length + next.length > max - (rest > 1 ? moreText.length + separator.length : 0)) {
      return truncate(out === '' ? moreText : `${out}${separator}${moreText}`, max);
    }
    out += next;
  }
  return out;
}

function feeText(fee: EntryFee): string {
  const name = escapeName(fee.name);
  if (fee.amount === null) return name;
  const amount =
    fee.valueOperator === 'percent'
      ? `+${fee.amount} %`
      : `${fee.amount}${fee.currency ? ` ${escapeName(fee.currency)}` : ''}`;
  return `${name}: ${amount}`;
}

function raceLines(event: Event, ctx: RenderContext): string[] {
  const { language } = ctx;
  if (event.races.length <= 1) {
    const race = event.races[0];
    const distance = distanceText(race?.distance ?? null, language);
    return [[dateRange(event, ctx), distance].filter((part) => part !== '').join(' · ')];
  }
  return event.races.map((race, i) => {
    const parts = [
      `**${race.name ? escapeName(race.name) : t(language, 'render.race', { number: i + 1 })}**`,
      race.date ? discordTimestamp(race.date, 'D') : '',
      distanceText(race.distance, language),
      race.lightCondition === 'Night' ? t(language, 'render.night') : '',
    ];
    return parts.filter((part) => part !== '').join(' · ');
  });
}

function deadlineLines(event: Event, ctx: RenderContext): string[] {
  const { language } = ctx;
  return event.entryDeadlines.map((deadline, i) => {
    const label = t(language, i === 0 ? 'render.deadline.ordinary' : 'render.deadline.late');
    const when = `${discordTimestamp(deadline, 'f')} (${discordTimestamp(deadline, 'R')})`;
    return isPast(deadline, ctx)
      ? `~~${label}: ${when}~~ ${t(language, 'render.deadline.passed')}`
      : `${label}: ${when}`;
  });
}

// Caps per field so that, with every list at its longest, about 2,000 of the 6,000 characters
// an embed may hold remain for the organiser's message.
const FIELD_BUDGET = { races: 900, organisers: 300, deadlines: 600, classes: 500, fees: 400, documents: 700 } as const;

/** Everything about one event on one card; the organiser's message gets what room is left. */
export function renderEventCard(event: Event, extras: EventCardExtras, ctx: RenderContext): MessagePayload {
  const { language } = ctx;
  const url = eventUrl(ctx, event.id);
  const fields: APIEmbedField[] = [];
  const add = (key: PlainKey, value: string, inline = false) => {
    if (value.trim() !== '')
      fields.push({ name: t(language, key), value: truncate(value, DISCORD_LIMITS.fieldValue), inline });
  };
  add(
    event.races.length > 1 ? 'render.card.races' : 'render.card.date',
    joinWithin(raceLines(event, ctx), '\n', FIELD_BUDGET.races, language),
  );
  add('render.card.organisers', truncate(organiserText(event, ctx) ?? '', FIELD_BUDGET.organisers), true);
  if (event.classification !== 'unknown')
    add('render.card.level', classificationText(event.classification, language), true);
  const disciplines = event.disciplineIds
    .map((id) => DISCIPLINE_KEYS[id])
    .filter((key): key is PlainKey => key !== undefined)
    .map((key) => t(language, key));
  add('render.card.discipline', disciplines.join(', '), true);
  if (event.status !== 'unknown') {
    add(
      'render.card.status',
      isCancelled(event)
        ? `❌ **${eventStatusText(event.status, language)}**`
        : eventStatusText(event.status, language),
      true,
    );
  }
  add('render.card.deadlines', joinWithin(deadlineLines(event, ctx), '\n', FIELD_BUDGET.deadlines, language));
  if (extras.clubEntries !== undefined && extras.clubEntries !== null) {
    add('render.card.clubEntries', String(extras.clubEntries), true);
  }
  if (extras.classes && extras.classes.length > 0) {
    const names = extras.classes.map((c) => escapeName(c.shortName ?? c.name));
    fields.push({
      name: t(language, 'render.card.classes', { count: extras.classes.length }),
      value: joinWithin(names, ', ', FIELD_BUDGET.classes, language),
    });
  }
  if (extras.fees && extras.fees.length > 0)
    add('render.card.fees', joinWithin(extras.fees.map(feeText), '\n', FIELD_BUDGET.fees, language));
  const links: string[] = [];
  for (const document of extras.documents ?? []) {
    const target = safeUrl(document.url);
    if (target) links.push(`[${truncate(linkText(document.name), 100) || '📄'}](${target})`);
  }
  for (const link of event.urls) {
    const target = safeUrl(link);
    if (target) links.push(`[${truncate(linkText(target.replace(/^https?:\/\//i, '')), 60)}](${target})`);
  }
  add('render.card.documents', joinWithin(links, '\n', FIELD_BUDGET.documents, language));
  const position = event.races.find((race) => race.position !== null)?.position ?? null;
  const map = position ? mapUrl(position.lat, position.lon) : null;
  if (map) add('render.card.map', `[OpenStreetMap](${map})`, true);

  const title = truncate(
    isCancelled(event) ? `❌ ${escapeName(event.name)}` : escapeName(event.name),
    DISCORD_LIMITS.embedTitle,
  );
  const footer = t(language, 'render.card.footer', { id: plainText(event.id, 40) });
  const used =
    title.length + footer.length + fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
  let description: string | undefined;
  if (event.message && event.message.trim() !== '') {
    const room = Math.min(DISCORD_LIMITS.embedDescription, DISCORD_LIMITS.embedTotal - used - 50);
    const heading = `**${t(language, 'render.card.message')}**\n`;
    if (room > heading.length + 40)
      description = heading + truncate(escapeEventorText(event.message.trim()), room - heading.length);
  }

  const buttons: APIButtonComponent[] = [
    { type: ComponentType.Button, style: ButtonStyle.Link, label: t(language, 'render.openInEventor'), url },
  ];
  if (map)
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Link,
      label: t(language, 'render.card.map'),
      url: map,
    });
  return fitPayload({
    embeds: [
      {
        title,
        url,
        color: isCancelled(event) ? COLOURS.cancelled : COLOURS.brand,
        ...(description === undefined ? {} : { description }),
        fields,
        footer: { text: footer },
      },
    ],
    components: [{ type: ComponentType.ActionRow, components: buttons }],
  });
}
