/**
 * /events [days] [from] [level] [organiser]: upcoming events around the club, a page at a time,
 * with a picker that opens an event's card. The filters travel in the page buttons' custom ids,
 * so paging asks Eventor the same question again (and the client's cache answers it).
 */
import type {
  ApplicationCommandOptionChoiceData,
  SlashCommandIntegerOption,
  SlashCommandStringOption,
} from 'discord.js';
import { z } from 'zod';
import { clubArea } from '../src/club/area.js';
import {
  type BaseContext,
  type BotCommand,
  customIdCodec,
  type GuildEventor,
  idField,
  languageField,
  onComponent,
  pageField,
  UserFacingError,
} from '../src/bot/command.js';
import { localize, localizedChoice, localizedCommand } from '../src/bot/define.js';
import { eventCard, organisationsById } from '../src/bot/event-card.js';
import { fold } from '../src/text/fold.js';
import { renderContext } from '../src/bot/render-context.js';
import { EventorError } from '../src/eventor/errors.js';
import type { Event, Organisation } from '../src/eventor/answers.js';
import { classificationIdOf, KNOWN_CLASSIFICATIONS, type KnownClassification } from '../src/eventor/model.js';
import { type Language, t } from '../src/i18n/index.js';
import type { Logger } from '../src/log/logger.js';
import { escapeName, type MessagePayload, plainText, renderEventList, truncate } from '../src/render/index.js';
import { addDays, compactDay, dayWindow, expandDay, localToday, parseDay } from '../src/time/days.js';

const NAME = 'events';
export const DEFAULT_DAYS = 14;
export const MIN_DAYS = 1;
export const MAX_DAYS = 365;
const PAGE_SIZE = 10;

/** The level option's values: the model's levels (model.ts), and all of them. */
export type Level = KnownClassification | 'all';
const LEVELS: readonly Level[] = [...KNOWN_CLASSIFICATIONS, 'all'];
/** Levels an event is rarely near home for: looking only in the district would hide most of them. */
const COUNTRY_WIDE: ReadonlySet<Level> = new Set<Level>(['championship', 'national', 'international']);

export interface EventFilters {
  /** First local day, `YYYY-MM-DD`. */
  from: string;
  days: number;
  level: Level | null;
  organiserId: string | null;
}

/** What the member typed, shown back to them: short, and unable to ping or format (the router's replies allow mentions). */
function echo(text: string, max: number): string {
  return truncate(escapeName(text), max);
}

/** The member's options checked; the handler's own guard behind Discord's min/max. */
export function checkFilters(input: {
  from: string | null;
  days: number | null;
  level: string | null;
  today: string;
}): Omit<EventFilters, 'organiserId'> {
  const days = input.days ?? DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < MIN_DAYS || days > MAX_DAYS)
    throw new UserFacingError('events.badDays', { min: MIN_DAYS, max: MAX_DAYS });
  let from = input.today;
  if (input.from !== null && input.from.trim() !== '') {
    const day = parseDay(input.from);
    if (day === null)
      throw new UserFacingError('events.badDate', { value: echo(input.from, 40), example: input.today });
    from = day;
  }
  const level = input.level === null || input.level === '' ? null : (LEVELS.find((l) => l === input.level) ?? null);
  return { from, days, level };
}

/** Whether the list is of events around the club (its area), rather than one organiser's or the whole country's. */
function looksAroundTheClub(filters: EventFilters): boolean {
  return (
    filters.organiserId === null &&
    (filters.level === null || (!COUNTRY_WIDE.has(filters.level) && filters.level !== 'all'))
  );
}

/** The question for Eventor: whole local days, and the area the level calls for. */
export function eventQuery(
  filters: EventFilters,
  area: readonly string[],
  timeZone: string,
): {
  fromDate: string;
  toDate: string;
  organisationIds?: string[];
  classificationIds?: string[];
  includeEntryBreaks: true;
} {
  const window = dayWindow(filters.from, addDays(filters.from, filters.days - 1), timeZone);
  const query: ReturnType<typeof eventQuery> = { fromDate: window.from, toDate: window.to, includeEntryBreaks: true };
  if (filters.organiserId !== null) query.organisationIds = [filters.organiserId];
  else if (looksAroundTheClub(filters)) query.organisationIds = [...area];
  if (filters.level !== null && filters.level !== 'all') query.classificationIds = [classificationIdOf(filters.level)!];
  return query;
}

/**
 * Every organisation by id, for organiser names and the club's district. Without the list (Eventor
 * failed on it) events still carry their organisers' names, and the district is asked for alone.
 */
async function organisationsOrNone(eventor: GuildEventor, log: Logger): Promise<Map<string, Organisation>> {
  try {
    return await organisationsById(eventor);
  } catch (error) {
    if (!(error instanceof EventorError) || error.code === 'InvalidApiKey') throw error;
    log.warn('events: no list of organisations from Eventor; going on without it', { error });
    return new Map();
  }
}

function byDate(a: Event, b: Event): number {
  const at = a.start ? Date.parse(a.start) : Number.POSITIVE_INFINITY;
  const bt = b.start ? Date.parse(b.start) : Number.POSITIVE_INFINITY;
  return at - bt || a.name.localeCompare(b.name, 'sv');
}

/** A page button: the page and the filters (the first day compact, `YYYYMMDD`), so paging asks the same question again. */
export const eventsPageId = customIdCodec(
  `${NAME}:p`,
  z.object({
    page: pageField(),
    from: z.string().regex(/^\d{8}$/),
    days: z.number().int().min(MIN_DAYS).max(MAX_DAYS),
    level: z.enum(LEVELS as [Level, ...Level[]]).optional(),
    organiserId: idField().optional(),
    language: languageField(),
  }),
);
/** The event picker; the picked event comes as the select's value, which the handler checks. */
const eventsPickId = customIdCodec(`${NAME}:pick`, z.object({}));

function pageId(filters: EventFilters, language: Language, page: number): string {
  return eventsPageId.encode({
    page,
    from: compactDay(filters.from),
    days: filters.days,
    level: filters.level ?? undefined,
    organiserId: filters.organiserId ?? undefined,
    language,
  });
}

const PICK_ID = eventsPickId.encode({});

async function listPage(
  ctx: BaseContext,
  filters: EventFilters,
  page: number,
  language: Language,
): Promise<MessagePayload> {
  const eventor = await ctx.guild.eventor();
  const organisations = await organisationsOrNone(eventor, ctx.log);
  const area = await clubArea(eventor.client, eventor.organisationId, { organisations, log: ctx.log });
  const events = await eventor.client.events(eventQuery(filters, area.ids, ctx.guild.timeZone));
  const names = new Map([...organisations.values()].map((organisation) => [organisation.id, organisation.name]));
  const payload = renderEventList([...events].sort(byDate), renderContext(ctx, eventor, language, names), {
    page,
    pageSize: PAGE_SIZE,
    customIds: { page: (n) => pageId(filters, language, n), pick: PICK_ID },
  });
  if (!area.districtUnavailable || !looksAroundTheClub(filters)) return payload;
  return { ...payload, content: t(language, 'events.districtUnavailable') };
}

/**
 * Clubs and districts whose name has every typed word: names starting with what was typed first,
 * then the club itself and its district, then the district's other clubs (`home` is the club's
 * area as clubArea gives it), which is what a member most often means.
 */
export function organiserChoices(
  organisations: Iterable<Organisation>,
  query: string,
  language: Language,
  home: readonly string[] = [],
): ApplicationCommandOptionChoiceData<string>[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const typed = fold(query.trim());
  const label = (o: Organisation) => (o.kind === 'district' ? `${o.name} (${t(language, 'events.district')})` : o.name);
  const starts = (o: Organisation) =>
    fold(o.name).startsWith(typed) || fold(o.shortName ?? '').startsWith(typed) ? 0 : 3;
  const near = (o: Organisation) =>
    home.includes(o.id) ? 0 : o.parentId !== null && home.includes(o.parentId) ? 1 : 2;
  const rank = (o: Organisation) => starts(o) + near(o);
  return [...organisations]
    .filter(
      (o) =>
        (o.kind === 'club' || o.kind === 'district') &&
        words.every((w) => fold(`${o.name} ${o.shortName ?? ''}`).includes(w)),
    )
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, 'sv'))
    .slice(0, 25)
    .map((o) => ({ name: plainText(label(o), 100) || plainText(o.id, 100) || '?', value: o.id }));
}

/** The organiser option: a picked id, or a name typed by hand that names exactly one club or district. */
async function resolveOrganiser(
  eventor: GuildEventor,
  value: string | null,
  language: Language,
): Promise<string | null> {
  if (value === null || value.trim() === '') return null;
  const organisations = await organisationsById(eventor);
  const text = value.trim();
  if (organisations.has(text)) return text;
  const choices = organiserChoices(organisations.values(), text, language);
  const exact = choices.filter((choice) => fold(organisations.get(String(choice.value))!.name) === fold(text));
  if (exact.length === 1) return String(exact[0]!.value);
  if (choices.length === 1) return String(choices[0]!.value);
  throw new UserFacingError('events.unknownOrganiser', { value: echo(text, 60) });
}

function levelChoice(level: Level) {
  return localizedChoice(level === 'all' ? 'events.level.all' : `render.level.${level}`, level);
}

const definition = localizedCommand('events.name', 'events.description')
  .addIntegerOption((o: SlashCommandIntegerOption) =>
    localize(o, 'events.option.days', 'events.option.daysDescription').setMinValue(MIN_DAYS).setMaxValue(MAX_DAYS),
  )
  .addStringOption((o: SlashCommandStringOption) =>
    localize(o, 'events.option.from', 'events.option.fromDescription').setMaxLength(40),
  )
  .addStringOption((o: SlashCommandStringOption) =>
    localize(o, 'events.option.level', 'events.option.levelDescription').addChoices(...LEVELS.map(levelChoice)),
  )
  .addStringOption((o: SlashCommandStringOption) =>
    localize(o, 'events.option.organiser', 'events.option.organiserDescription').setAutocomplete(true),
  );

export const eventsCommand: BotCommand = {
  definition: definition.toJSON(),
  defer: 'public',
  async execute(ctx) {
    const options = ctx.interaction.options;
    const checked = checkFilters({
      from: options.getString('from'),
      days: options.getInteger('days'),
      level: options.getString('level'),
      today: localToday(ctx.now(), ctx.guild.timeZone),
    });
    const eventor = await ctx.guild.eventor();
    const organiserId = await resolveOrganiser(eventor, options.getString('organiser'), ctx.language);
    const payload = await listPage(ctx, { ...checked, organiserId }, 1, ctx.language);
    await ctx.answer(payload);
  },
  async autocomplete(ctx) {
    const focused = ctx.interaction.options.getFocused(true);
    if (focused.name !== 'organiser') return [];
    const eventor = await ctx.guild.eventor();
    const organisations = await organisationsById(eventor);
    return organiserChoices(
      organisations.values(),
      String(focused.value),
      ctx.language,
      (await clubArea(eventor.client, eventor.organisationId, { organisations, log: ctx.log })).ids,
    );
  },
  components: [
    onComponent(eventsPageId, {
      defer: 'update',
      async handle(ctx, { page, from, days, level, organiserId, language }) {
        const day = expandDay(from);
        if (day === null) throw new UserFacingError('error.staleComponent');
        const checked = checkFilters({ from: day, days, level: level ?? null, today: day });
        const payload = await listPage(ctx, { ...checked, organiserId: organiserId ?? null }, page, language);
        await ctx.answer(payload);
      },
    }),
    onComponent(eventsPickId, {
      // Privately: the list is public, and a picked card in its place would take it from everyone.
      defer: 'ephemeral',
      async handle(ctx) {
        if (!ctx.interaction.isStringSelectMenu()) throw new UserFacingError('error.unexpected');
        const eventId = ctx.interaction.values[0] ?? '';
        if (!/^\d+$/.test(eventId)) throw new UserFacingError('error.eventNotFound');
        const eventor = await ctx.guild.eventor();
        await ctx.answer(await eventCard(ctx, eventor, eventId));
      },
    }),
  ],
};
