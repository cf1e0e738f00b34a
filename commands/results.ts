/**
 * /results [member] [event] [splits] [top] [share]: a member's recent results (the caller's own
 * by default), or with only an event the club's results there with the top of each class.
 */
import { millisecondsInDay } from 'date-fns/constants';
import { z } from 'zod';
import type { BaseContext, BotCommand, CustomIdValue, GuildEventor } from '../src/bot/command.js';
import { customIdCodec, idField, pageField } from '../src/bot/command.js';
import { localize } from '../src/bot/define.js';
import { memberPagesCommand, type PagedQuery, personListsAndName } from '../src/bot/member-pages.js';
import { eventStart } from '../src/bot/members.js';
import { clubResultsWithAnalysis, memberResultsAnalyses } from '../src/bot/results-splits.js';
import { renderContext } from '../src/bot/render-context.js';
import type { ResultList } from '../src/eventor/answers.js';
import { type MessagePayload, renderClubResults, renderPersonResults } from '../src/render/index.js';
import { renderResultsNotYet } from '../src/render/members.js';
import { addDays, localToday } from '../src/time/days.js';

/** How far back "recent results" reach. */
const RECENT_DAYS = 90;
const DEFAULT_TOP = 3;
const MAX_TOP = 10;

type Query =
  | { kind: 'person'; personId: string; eventId: string | null; splits: boolean }
  | { kind: 'club'; eventId: string; splits: boolean; top: number };

/** A page button: whose results (a person's, or the club's at an event) with the options asked for, and the page. */
export const resultsPageId = customIdCodec(
  'results:page',
  z
    .object({
      who: z.enum(['p', 'c']),
      personId: idField().optional(),
      eventId: idField().optional(),
      splits: z.boolean(),
      top: z.number().int().min(0).max(MAX_TOP),
      page: pageField(),
    })
    .refine((id) => (id.who === 'p' ? id.personId !== undefined : id.eventId !== undefined)),
);

function pageId(query: Query, page: number): string {
  return query.kind === 'person'
    ? resultsPageId.encode({
        who: 'p',
        personId: query.personId,
        eventId: query.eventId ?? undefined,
        splits: query.splits,
        top: 0,
        page,
      })
    : resultsPageId.encode({ who: 'c', eventId: query.eventId, splits: query.splits, top: query.top, page });
}

function queryOf({ who, personId, eventId, splits, top }: CustomIdValue<typeof resultsPageId>): Query {
  if (who === 'c') return { kind: 'club', eventId: eventId!, splits, top };
  return { kind: 'person', personId: personId!, eventId: eventId ?? null, splits };
}

/** Nothing in the list and the event not (long) over: results are still to come. */
function notYet(list: ResultList, now: Date): boolean {
  const end = list.event.event?.finish ?? list.event.event?.start ?? null;
  return list.classes.length === 0 && (end === null || Date.parse(end) > now.getTime() - millisecondsInDay);
}

const paged: PagedQuery<Query> = { pages, pageId };

async function pages(ctx: BaseContext, eventor: GuildEventor, query: Query): Promise<MessagePayload[]> {
  const render = renderContext(ctx, eventor);
  const splits = query.splits ? { includeSplitTimes: true } : {};
  if (query.kind === 'club') {
    // Split tables rank legs against the whole class: the event's complete list, analysed.
    const { list, analyses } = query.splits
      ? await clubResultsWithAnalysis(eventor, query.eventId)
      : {
          list: await eventor.client.organisationResults({
            organisationIds: [eventor.organisationId],
            eventId: query.eventId,
            // Eventor's top counts from 1; without it the list holds the club's own only.
            ...(query.top > 0 ? { top: query.top } : {}),
          }),
          analyses: undefined,
        };
    if (notYet(list, render.now)) return [renderResultsNotYet(list, render)];
    return renderClubResults(list, render, {
      organisationId: eventor.organisationId,
      top: query.top,
      splits: query.splits,
      ...(analyses ? { analyses } : {}),
    });
  }
  const today = localToday(ctx.now(), ctx.guild.timeZone);
  // Up to today only: Eventor answers entries in coming events as unstarted "results".
  const window = query.eventId
    ? { eventIds: [query.eventId] }
    : { fromDate: addDays(today, -RECENT_DAYS), toDate: today };
  const { lists, name } = await personListsAndName(
    ctx,
    eventor,
    query.personId,
    eventor.client.personResults({ personId: query.personId, ...window, ...splits }),
  );
  // Most recent first: what a member asking about their results wants to see.
  const sorted = [...lists].sort((a, b) => (eventStart(b.event) || 0) - (eventStart(a.event) || 0));
  return renderPersonResults(name, sorted, render, {
    splits: query.splits,
    personId: query.personId,
    ...(query.splits ? { analyses: await memberResultsAnalyses(eventor, sorted, ctx.log) } : {}),
  });
}

export const results: BotCommand = memberPagesCommand({
  nameKey: 'members.results.name',
  descriptionKey: 'members.results.description',
  eventDescriptionKey: 'members.option.resultsEvent.description',
  options: (builder) =>
    builder
      .addBooleanOption((o) => localize(o, 'members.option.splits.name', 'members.option.splits.description'))
      .addIntegerOption((o) =>
        localize(o, 'members.option.top.name', 'members.option.top.description').setMinValue(0).setMaxValue(MAX_TOP),
      ),
  queryOf(ctx, target): Query {
    const options = ctx.interaction.options;
    const splits = options.getBoolean('splits') === true;
    const top = Math.min(MAX_TOP, Math.max(0, options.getInteger('top') ?? DEFAULT_TOP));
    return target.kind === 'club' ? { ...target, splits, top } : { ...target, splits };
  },
  pageId: resultsPageId,
  queryOfPage: queryOf,
  paged,
});
