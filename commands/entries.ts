/**
 * /entries [event]: who from the club has entered an event, by class; without an event, how many
 * from the club have entered each event of the coming weeks. Long answers page in place.
 */
import type { SlashCommandStringOption } from 'discord.js';
import { z } from 'zod';
import {
  type BaseContext,
  type BotCommand,
  customIdCodec,
  idField,
  languageField,
  onComponent,
  pageField,
} from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { eventChoices } from '../src/bot/lookup.js';
import { resolveEventId } from '../src/bot/options.js';
import { renderContext } from '../src/bot/render-context.js';
import type { Entry, Event } from '../src/eventor/answers.js';
import type { Language } from '../src/i18n/index.js';
import { type MessagePayload, renderClubEntries, renderClubEntriesOverview } from '../src/render/index.js';
import { pageWithButtons } from '../src/render/paging.js';
import { addDays, compactDay, dayWindow, expandDay, localToday } from '../src/time/days.js';

const NAME = 'entries';
/** The overview's reach: entry for most events closes within a few weeks of them. */
export const OVERVIEW_DAYS = 60;

/** The events in the order they take place, each with how many of the club's entries it has. */
export function groupByEvent(
  entries: readonly Entry[],
): Array<{ eventId: string; event: Event | null; count: number }> {
  const groups = new Map<string, { eventId: string; event: Event | null; count: number }>();
  for (const entry of entries) {
    const eventId = entry.event.id ?? entry.event.event?.id;
    if (!eventId) continue;
    const group = groups.get(eventId) ?? { eventId, event: entry.event.event, count: 0 };
    group.event ??= entry.event.event;
    group.count += 1;
    groups.set(eventId, group);
  }
  const start = (g: { event: Event | null }) => (g.event?.start ? Date.parse(g.event.start) : Number.POSITIVE_INFINITY);
  return [...groups.values()].sort((a, b) => start(a) - start(b));
}

/** A page button: the event (none for the overview), the overview's first day (`YYYYMMDD`) and the answer's language. */
export const entriesPageId = customIdCodec(
  `${NAME}:p`,
  z.object({
    page: pageField(),
    eventId: idField().optional(),
    from: z.string().regex(/^\d{8}$/),
    language: languageField(),
  }),
);

function pageId(eventId: string | null, from: string, language: Language, page: number): string {
  return entriesPageId.encode({ page, eventId: eventId ?? undefined, from: compactDay(from), language });
}

async function eventPages(ctx: BaseContext, eventId: string, language: Language): Promise<MessagePayload[]> {
  const eventor = await ctx.guild.eventor();
  const { client, organisationId } = eventor;
  const [event, entries, classes] = await Promise.all([
    client.event({ eventId }),
    client.entries({ organisationIds: [organisationId], eventIds: [eventId], includePersonElement: true }),
    // Class names only make the list nicer; entries carry their own names when this fails.
    client.eventClasses({ eventId }).catch((error: unknown) => {
      ctx.log.warn('entries: no class list from Eventor', { error });
      return undefined;
    }),
  ]);
  return renderClubEntries(event, entries, renderContext(ctx, eventor, language), classes ? { classes } : {});
}

async function overviewPages(ctx: BaseContext, from: string, language: Language): Promise<MessagePayload[]> {
  const eventor = await ctx.guild.eventor();
  const { client, organisationId } = eventor;
  const window = dayWindow(from, addDays(from, OVERVIEW_DAYS - 1), ctx.guild.timeZone);
  const entries = await client.entries({
    organisationIds: [organisationId],
    fromEventDate: window.from,
    toEventDate: window.to,
    includeEventElement: true,
  });
  const groups = groupByEvent(entries);
  const missing = groups.filter((g) => g.event === null).map((g) => g.eventId);
  if (missing.length > 0) {
    // Some Eventors leave the event element out; one events call names the rest.
    const events = new Map((await client.events({ eventIds: missing })).map((e) => [e.id, e]));
    for (const g of groups) g.event ??= events.get(g.eventId) ?? null;
  }
  const items = groups
    .filter((g): g is { eventId: string; event: Event; count: number } => g.event !== null)
    .map(({ event, count }) => ({ event, count }));
  return renderClubEntriesOverview(items, renderContext(ctx, eventor, language));
}

async function page(
  ctx: BaseContext,
  eventId: string | null,
  from: string,
  n: number,
  language: Language,
): Promise<MessagePayload> {
  const pages = eventId === null ? await overviewPages(ctx, from, language) : await eventPages(ctx, eventId, language);
  return pageWithButtons(pages, n, language, (target) => pageId(eventId, from, language, target));
}

const definition = localizedCommand('entries.name', 'entries.description').addStringOption(
  (o: SlashCommandStringOption) =>
    localize(o, 'event.option.event', 'entries.option.eventDescription').setAutocomplete(true).setMaxLength(100),
);

export const entriesCommand: BotCommand = {
  definition: definition.toJSON(),
  defer: 'public',
  async execute(ctx) {
    const eventor = await ctx.guild.eventor();
    const value = ctx.interaction.options.getString('event');
    const eventId = value === null || value.trim() === '' ? null : await resolveEventId(ctx, eventor, value);
    const from = localToday(ctx.now(), ctx.guild.timeZone);
    await ctx.answer(await page(ctx, eventId, from, 1, ctx.language));
  },
  async autocomplete(ctx) {
    const eventor = await ctx.guild.eventor();
    return eventChoices(eventor.client, String(ctx.interaction.options.getFocused()), ctx.now(), ctx.guild.timeZone);
  },
  components: [
    onComponent(entriesPageId, {
      defer: 'update',
      async handle(ctx, { page: n, eventId, from, language }) {
        const day = expandDay(from) ?? localToday(ctx.now(), ctx.guild.timeZone);
        await ctx.answer(await page(ctx, eventId ?? null, day, n, language));
      },
    }),
  ],
};
