/**
 * What /events, /event and /entries share: the render context, reading an event the member
 * picked or typed, and the event card (which both /event and the picker under /events show).
 * Their day arithmetic is src/time/days.ts.
 */
import { UserFacingError, type BaseContext, type GuildEventor } from '../src/bot/command.js';
import { eventChoices } from '../src/bot/lookup.js';
import { EventorError } from '../src/eventor/errors.js';
import type { CompetitorCount, Organisation } from '../src/eventor/model.js';
import { LANGUAGES, type Language } from '../src/i18n/index.js';
import { renderEventCard, type MessagePayload, type RenderContext } from '../src/render/index.js';

export function renderContext(ctx: BaseContext, eventor: GuildEventor, language: Language = ctx.language, organisationNames?: ReadonlyMap<string, string>): RenderContext {
  return {
    language,
    timeZone: ctx.guild.timeZone,
    now: ctx.now(),
    webUrl: eventor.instance.webUrl,
    ...(organisationNames ? { organisationNames } : {}),
  };
}

/** A language carried in a custom id, so a public message keeps its language whoever pages it. */
export function languageArg(value: string | undefined, fallback: Language): Language {
  return LANGUAGES.find((language) => language === value) ?? fallback;
}

/**
 * The event id behind what the member gave: the value of an autocomplete choice, or an id or
 * name typed by hand. Anything that does not single out one event is `error.eventNotFound`.
 */
export async function resolveEventId(ctx: BaseContext, eventor: GuildEventor, value: string): Promise<string> {
  const text = value.trim();
  if (/^\d{1,18}$/.test(text)) return text;
  if (text !== '') {
    const choices = await eventChoices(eventor.client, text, ctx.now(), ctx.guild.timeZone);
    if (choices.length === 1) return String(choices[0]!.value);
  }
  throw new UserFacingError('error.eventNotFound');
}

/** Extras of a card are worth showing without, when Eventor fails on one of them. */
async function optional<T>(ctx: BaseContext, what: string, work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof EventorError && error.code === 'InvalidApiKey') throw error;
    ctx.log.warn('event card: leaving out a part Eventor did not give', { part: what, error });
    return undefined;
  }
}

/** The club's entries in one event from competitorcount: the event's own row, not a race's. */
export function clubEntryCount(counts: readonly CompetitorCount[] | undefined, eventId: string): number | null {
  if (!counts) return null;
  const rows = counts.filter((row) => row.eventId === eventId);
  if (rows.length === 0) return 0;
  const whole = rows.find((row) => row.raceId === null);
  return whole ? whole.entries : Math.max(...rows.map((row) => row.entries));
}

export async function eventCard(ctx: BaseContext, eventor: GuildEventor, eventId: string, language: Language = ctx.language): Promise<MessagePayload> {
  const { client, organisationId } = eventor;
  const [event, classes, fees, documents, counts] = await Promise.all([
    client.event({ eventId }),
    optional(ctx, 'classes', client.eventClasses({ eventId })),
    optional(ctx, 'fees', client.entryFees({ eventId })),
    optional(ctx, 'documents', client.eventDocuments({ eventIds: [eventId] })),
    optional(ctx, 'competitorcount', client.competitorCount({ organisationIds: [organisationId], eventIds: [eventId] })),
  ]);
  return renderEventCard(event, {
    ...(classes ? { classes } : {}),
    ...(fees ? { fees } : {}),
    ...(documents ? { documents: documents.filter((document) => document.eventId === null || document.eventId === eventId) } : {}),
    clubEntries: clubEntryCount(counts, eventId),
  }, renderContext(ctx, eventor, language));
}

/** Organisations by id, from the one list Eventor gives (cached a day by the client). */
export async function organisationsById(eventor: GuildEventor): Promise<Map<string, Organisation>> {
  const list = await eventor.client.organisations();
  return new Map(list.map((organisation) => [organisation.id, organisation]));
}

