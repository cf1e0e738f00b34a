/**
 * /starts [member] [event] [share]: a member's start times in upcoming events (the caller's own
 * by default), or with only an event the club's start list there.
 */
import type { BotCommand, BaseContext, GuildEventor } from '../src/bot/command.js';
import { customId } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import type { StartList } from '../src/eventor/model.js';
import { renderClubStartList, renderPersonStarts, type MessagePayload } from '../src/render/index.js';
import { renderStartListNotPublished } from '../src/render/members.js';
import { pageWithButtons } from '../src/render/paging.js';
import { localToday } from '../src/bot/day-options.js';
import { clubEntryCount } from '../src/bot/event-card.js';
import { eventStart, nameInLists } from '../src/bot/members.js';
import { eventIdOf, memberOrEventChoices, memberTarget, personalVisibility, type MemberTarget } from '../src/bot/options.js';
import { pageArg, renderContext, showPage } from '../src/bot/render-context.js';

type Query = MemberTarget;

function pageId(query: Query, page: number): string {
  return query.kind === 'person'
    ? customId('starts', 'page', 'p', query.personId, query.eventId ?? '', page)
    : customId('starts', 'page', 'c', '', query.eventId, page);
}

function queryFromArgs(args: readonly string[]): Query {
  const [kind, personId = '', eventId = ''] = args;
  if (kind === 'c') return { kind: 'club', eventId: eventIdOf(eventId) };
  return { kind: 'person', personId: eventIdOf(personId), eventId: eventId === '' ? null : eventIdOf(eventId) };
}

/** The club's entries in the event, to tell "not drawn yet" from "nobody entered"; null when Eventor cannot say. */
async function clubEntries(ctx: BaseContext, eventor: GuildEventor, eventId: string): Promise<number | null> {
  try {
    // The event's own row, not the sum with its races' rows (a multi-race event has both).
    return clubEntryCount(await eventor.client.competitorCount({ organisationIds: [eventor.organisationId], eventIds: [eventId] }), eventId);
  } catch (error) {
    ctx.log.warn('competitor count failed; the notice goes without it', { error });
    return null;
  }
}

function isOver(list: StartList, now: Date): boolean {
  const end = list.event.event?.finish ?? list.event.event?.start ?? null;
  return end !== null && Date.parse(end) < now.getTime();
}

async function pages(ctx: BaseContext, eventor: GuildEventor, query: Query): Promise<MessagePayload[]> {
  const render = renderContext(ctx, eventor);
  if (query.kind === 'club') {
    const list = await eventor.client.organisationStarts({ organisationIds: [eventor.organisationId], eventId: query.eventId });
    // An empty list before the event means no draw yet; after it, nobody from the club started.
    if (list.classes.length === 0 && !isOver(list, render.now)) {
      return [renderStartListNotPublished(list, await clubEntries(ctx, eventor, query.eventId), render)];
    }
    return renderClubStartList(list, render, { organisationId: eventor.organisationId });
  }
  const [lists, name] = await Promise.all([
    eventor.client.personStarts(query.eventId ? { personId: query.personId, eventIds: [query.eventId] } : { personId: query.personId, fromDate: localToday(ctx.now(), ctx.guild.timeZone) }),
    ctx.services.club.memberName(eventor, query.personId),
  ]);
  const sorted = [...lists].sort((a, b) => (eventStart(a.event) || Infinity) - (eventStart(b.event) || Infinity));
  return renderPersonStarts(name ?? nameInLists(lists, query.personId) ?? query.personId, sorted, render, { personId: query.personId });
}

export const starts: BotCommand = {
  definition: localizedCommand('members.starts.name', 'members.starts.description')
    .addStringOption((o) => localize(o, 'members.option.member.name', 'members.option.member.description').setAutocomplete(true))
    .addStringOption((o) => localize(o, 'members.option.event.name', 'members.option.startsEvent.description').setAutocomplete(true))
    .addBooleanOption((o) => localize(o, 'members.option.share.name', 'members.option.share.description'))
    .toJSON(),
  defer: personalVisibility,
  async execute(ctx) {
    const { eventor, target: query } = await memberTarget(ctx);
    await showPage(ctx.interaction, pageWithButtons(await pages(ctx, eventor, query), 1, ctx.language, (n) => pageId(query, n)));
  },
  autocomplete: memberOrEventChoices,
  components: {
    page: {
      defer: 'update',
      async handle(ctx) {
        const query = queryFromArgs(ctx.args);
        const page = pageArg(ctx.args[3]);
        const eventor = await ctx.guild.eventor();
        await showPage(ctx.interaction, pageWithButtons(await pages(ctx, eventor, query), page, ctx.language, (n) => pageId(query, n)));
      },
    },
  },
};
