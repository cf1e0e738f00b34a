/** The event card (which /event and the picker under /events show), with the club's entries in it. */
import type { GuildEventor } from '../club/eventor-access.js';
import { EventorError } from '../eventor/errors.js';
import type { CompetitorCount, Organisation } from '../eventor/answers.js';
import type { Language } from '../i18n/index.js';
import { type MessagePayload, renderEventCard } from '../render/index.js';
import type { BaseContext } from './command.js';
import { renderContext } from './render-context.js';

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

export async function eventCard(
  ctx: BaseContext,
  eventor: GuildEventor,
  eventId: string,
  language: Language = ctx.language,
): Promise<MessagePayload> {
  const { client, organisationId } = eventor;
  const [event, classes, fees, documents, counts] = await Promise.all([
    client.event({ eventId }),
    optional(ctx, 'classes', client.eventClasses({ eventId })),
    optional(ctx, 'fees', client.entryFees({ eventId })),
    optional(ctx, 'documents', client.eventDocuments({ eventIds: [eventId] })),
    optional(
      ctx,
      'competitorcount',
      client.competitorCount({ organisationIds: [organisationId], eventIds: [eventId] }),
    ),
  ]);
  return renderEventCard(
    event,
    {
      ...(classes ? { classes } : {}),
      ...(fees ? { fees } : {}),
      ...(documents
        ? { documents: documents.filter((document) => document.eventId === null || document.eventId === eventId) }
        : {}),
      clubEntries: clubEntryCount(counts, eventId),
    },
    renderContext(ctx, eventor, language),
  );
}

/** Organisations by id, from the one list Eventor gives (cached a day by the client). */
export async function organisationsById(eventor: GuildEventor): Promise<Map<string, Organisation>> {
  const list = await eventor.client.organisations();
  return new Map(list.map((organisation) => [organisation.id, organisation]));
}
