/**
 * Start lists: when an event the club has entries in publishes its start list, the club's start
 * times (`renderClubStartList`, first page). One item per event; a changed start list edits the post.
 */
import type { EventorClient } from '../../../eventor/client.js';
import type { Event, StartList } from '../../../eventor/answers.js';
import { t } from '../../../i18n/index.js';
import type { Logger } from '../../../log/logger.js';
import { escapeName, type MessagePayload, type RenderContext, renderClubStartList } from '../../../render/index.js';
import { startListsCadence } from '../../cadence.js';
import type { ClubShare } from '../../club-share.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import { type ContentItem, publishTo, withRoleMention } from '../../delivery/publish.js';
import { channelFeed, type FeedRunOptions, type PreviewContext, renderContext } from '../../feed.js';
import { millisecondsInDay as DAY } from 'date-fns/constants';
import { byStart, eventsWithClubEntries, listsPerEvent } from '../../club-lists.js';

export const STARTLISTS_FEED = 'startlists' as const;
/** Events starting from a day ago to this many days ahead are watched for their start lists. */
export const STARTLISTS_WINDOW_DAYS = 21;

export interface StartListItem extends ContentItem {
  eventId: string;
}

function hasClubStarts(list: StartList, organisationId: string): boolean {
  return list.classes.some(
    (c) =>
      c.persons.some((p) => p.organisation?.id === organisationId && p.starts.some((s) => s.startTime !== null)) ||
      c.teams.some(
        (team) =>
          (team.organisations.some((o) => o.id === organisationId) ||
            team.members.some((m) => m.organisation?.id === organisationId)) &&
          (team.startTime !== null || team.members.some((m) => m.start.startTime !== null)),
      ),
  );
}

/** The feed's items from the club's start lists (`/starts/organisation`), in the order given: pure. */
export function startListItems(
  lists: readonly StartList[],
  ctx: RenderContext,
  organisationId: string,
  roleId: string | null = null,
): StartListItem[] {
  const items: StartListItem[] = [];
  for (const list of lists) {
    const eventId = list.event.id ?? list.event.event?.id ?? null;
    if (eventId === null || !hasClubStarts(list, organisationId)) continue;
    const [first] = renderClubStartList(list, ctx, { organisationId, maxPages: 1 });
    if (!first) continue;
    const name = escapeName(list.event.event?.name ?? list.event.name ?? eventId);
    const payload = withRoleMention(
      { ...first, content: t(ctx.language, 'feedpost.startlist.content', { event: name }) },
      roleId,
    );
    // A start list already out when the feed was turned on is posted once it changes (late
    // entries, a changed start), as long as the race is still to come: that is news to the runners.
    const start = list.event.event?.start ?? null;
    const followSeeded = start !== null && Date.parse(start) > ctx.now.getTime();
    items.push({
      itemKey: ledgerKey(STARTLISTS_FEED, eventId),
      eventId,
      payload,
      contentHash: contentHash(payload),
      ...(followSeeded ? { followSeeded } : {}),
    });
  }
  return items;
}

/** Events starting this soon are asked for their start lists on every run; later ones hourly. */
export const STARTLISTS_CLOSE_DAYS = 3;

/** The events the club has entries in, from a day ago to the window's end, not cancelled, in start order. */
async function enteredEventsOfWindow(
  client: EventorClient,
  organisationId: string,
  now: Date,
  windowDays: number,
  club: ClubShare | undefined,
): Promise<Event[]> {
  const from = now.getTime() - DAY;
  const to = now.getTime() + windowDays * DAY;
  let events: readonly Event[];
  if (club) events = await club.enteredEventList(from, to);
  else {
    const entered = [...(await eventsWithClubEntries(client, organisationId, from, to))].sort();
    events = entered.length === 0 ? [] : await client.events({ eventIds: entered });
  }
  return events.filter((e) => e.status !== 'canceled').sort(byStart);
}

/**
 * The club's start lists of the events it has entries in (from a day ago to the window's end).
 * With `closeOnly`, only events starting within STARTLISTS_CLOSE_DAYS are asked. With the club's
 * share (`club`), which events those are is asked once an hour for the club (the window's query
 * days do not change within the hour), while the start lists themselves are asked on every run.
 */
export async function fetchClubStartLists(
  client: EventorClient,
  organisationId: string,
  now: Date,
  windowDays = STARTLISTS_WINDOW_DAYS,
  closeOnly = false,
  log?: Logger,
  club?: ClubShare,
): Promise<StartList[]> {
  const entered = club
    ? await club.forTheHour(`startlists-events:${windowDays}`, () =>
        enteredEventsOfWindow(client, organisationId, now, windowDays, club),
      )
    : await enteredEventsOfWindow(client, organisationId, now, windowDays, club);
  const close = now.getTime() + STARTLISTS_CLOSE_DAYS * DAY;
  const events = entered.filter((e) => !closeOnly || (e.start !== null && Date.parse(e.start) <= close));
  return listsPerEvent(
    events,
    async (event) => {
      const list = await client.organisationStarts({ organisationIds: [organisationId], eventId: event.id });
      if (list.classes.length === 0) return null;
      return list.event.event ? list : { ...list, event: { ...list.event, id: list.event.id ?? event.id, event } };
    },
    log,
    'start list',
  );
}

/** The start lists one run asks for: only races close at hand on the in-between runs of a started feed. */
export async function fetchStartListsForRun(options: FeedRunOptions): Promise<StartList[]> {
  const closeOnly =
    options.full === false && (await options.ledger.feedStartedAt(options.guildId, STARTLISTS_FEED)) !== null;
  return fetchClubStartLists(
    options.client,
    options.organisationId,
    options.now,
    STARTLISTS_WINDOW_DAYS,
    closeOnly,
    options.log,
    options.club,
  );
}

function itemsForRun(lists: readonly StartList[], options: FeedRunOptions): StartListItem[] {
  return startListItems(lists, renderContext(options), options.organisationId, options.roleId ?? null);
}

/** Start lists go to the channel (seeded on the feed's first run). */
const deliver = publishTo({ name: STARTLISTS_FEED, summaryTitle: 'scheduler.summary.startlists' });

/** For `/feeds test`: the club's start times of the nearest event whose start list is out. */
export async function latestStartList(ctx: PreviewContext): Promise<MessagePayload | null> {
  const lists = await fetchClubStartLists(ctx.client, ctx.organisationId, ctx.now);
  return startListItems(lists, renderContext(ctx), ctx.organisationId)[0]?.payload ?? null;
}

/** Start lists: every 15 minutes around race days, else hourly. */
export const startListsFeed = channelFeed({
  name: STARTLISTS_FEED,
  cadence: startListsCadence,
  fetch: fetchStartListsForRun,
  items: itemsForRun,
  deliver,
  latest: latestStartList,
});

/** One run of the feed for one server. */
export const runStartListsFeed = startListsFeed.run;
