/**
 * /starts [member] [event] [share]: a member's start times in upcoming events (the caller's own
 * by default), or with only an event the club's start list there.
 */
import { z } from 'zod';
import type { BaseContext, BotCommand, CustomIdValue, GuildEventor } from '../src/bot/command.js';
import { customIdCodec, idField, pageField } from '../src/bot/command.js';

import { clubEntryCount } from '../src/bot/event-card.js';
import { memberPagesCommand, type PagedQuery, personListsAndName } from '../src/bot/member-pages.js';
import { eventStart } from '../src/bot/members.js';
import type { MemberTarget } from '../src/bot/options.js';
import { renderContext } from '../src/bot/render-context.js';
import type { StartList } from '../src/eventor/answers.js';
import { type MessagePayload, renderClubStartList, renderPersonStarts } from '../src/render/index.js';
import { renderStartListNotPublished } from '../src/render/members.js';
import { localToday } from '../src/time/days.js';

type Query = MemberTarget;

/** A page button: whose starts (a person's, or the club's at an event) and the page. */
export const startsPageId = customIdCodec(
  'starts:page',
  z
    .object({
      who: z.enum(['p', 'c']),
      personId: idField().optional(),
      eventId: idField().optional(),
      page: pageField(),
    })
    .refine((id) => (id.who === 'p' ? id.personId !== undefined : id.eventId !== undefined)),
);

function pageId(query: Query, page: number): string {
  return query.kind === 'person'
    ? startsPageId.encode({ who: 'p', personId: query.personId, eventId: query.eventId ?? undefined, page })
    : startsPageId.encode({ who: 'c', eventId: query.eventId, page });
}

function queryOf({ who, personId, eventId }: CustomIdValue<typeof startsPageId>): Query {
  if (who === 'c') return { kind: 'club', eventId: eventId! };
  return { kind: 'person', personId: personId!, eventId: eventId ?? null };
}

/** The club's entries in the event, to tell "not drawn yet" from "nobody entered"; null when Eventor cannot say. */
async function clubEntries(ctx: BaseContext, eventor: GuildEventor, eventId: string): Promise<number | null> {
  try {
    // The event's own row, not the sum with its races' rows (a multi-race event has both).
    return clubEntryCount(
      await eventor.client.competitorCount({ organisationIds: [eventor.organisationId], eventIds: [eventId] }),
      eventId,
    );
  } catch (error) {
    ctx.log.warn('competitor count failed; the notice goes without it', { error });
    return null;
  }
}

function isOver(list: StartList, now: Date): boolean {
  const end = list.event.event?.finish ?? list.event.event?.start ?? null;
  return end !== null && Date.parse(end) < now.getTime();
}

const paged: PagedQuery<Query> = { pages, pageId };

async function pages(ctx: BaseContext, eventor: GuildEventor, query: Query): Promise<MessagePayload[]> {
  const render = renderContext(ctx, eventor);
  if (query.kind === 'club') {
    const list = await eventor.client.organisationStarts({
      organisationIds: [eventor.organisationId],
      eventId: query.eventId,
    });
    // An empty list before the event means no draw yet; after it, nobody from the club started.
    if (list.classes.length === 0 && !isOver(list, render.now)) {
      return [renderStartListNotPublished(list, await clubEntries(ctx, eventor, query.eventId), render)];
    }
    return renderClubStartList(list, render, { organisationId: eventor.organisationId });
  }
  const { lists, name } = await personListsAndName(
    ctx,
    eventor,
    query.personId,
    eventor.client.personStarts(
      query.eventId
        ? { personId: query.personId, eventIds: [query.eventId] }
        : { personId: query.personId, fromDate: localToday(ctx.now(), ctx.guild.timeZone) },
    ),
  );
  const sorted = [...lists].sort((a, b) => (eventStart(a.event) || Infinity) - (eventStart(b.event) || Infinity));
  return renderPersonStarts(name, sorted, render, {
    personId: query.personId,
  });
}

export const starts: BotCommand = memberPagesCommand({
  nameKey: 'members.starts.name',
  descriptionKey: 'members.starts.description',
  eventDescriptionKey: 'members.option.startsEvent.description',
  queryOf: (_ctx, target) => target,
  pageId: startsPageId,
  queryOfPage: queryOf,
  paged,
});
