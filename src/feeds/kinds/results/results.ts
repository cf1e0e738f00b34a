/**
 * The club-results feed: one item per event (per race for multi-race events) with club runners
 * that have results, rendered with `renderClubResults` (the club's own plus the top 3 of each of
 * their classes, no splits), and the run that turns those items into posts and edits; with
 * `/feeds threads on`, a thread under each post with the complete results (src/feeds/kinds/results/threads.ts).
 */
import type { EventorClient } from '../../../eventor/client.js';
import type { ClassResult, Event, EventRace, PersonResult, ResultList, TeamResult } from '../../../eventor/answers.js';
import type { Logger } from '../../../log/logger.js';
import { type MessagePayload, type RenderContext, renderClubResults, truncate } from '../../../render/index.js';
import { raceDayCadence } from '../../cadence.js';
import type { ClubShare } from '../../club-share.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import { publishItems } from '../../delivery/publish.js';
import {
  graphsUnfinished,
  intendThreads,
  RESULTS_THREADS_FEED,
  resultsThreadName,
  syncThreads,
  type ThreadHooks,
  type ThreadGraph,
  type ThreadItem,
  type ThreadOutcome,
  threadPages,
} from './threads.js';
import { channelFeed, type FeedRun, type FeedRunOptions, type PreviewContext, renderContext } from '../../feed.js';
import type { ResultsOptions } from './options.js';
import { millisecondsInDay as DAY } from 'date-fns/constants';
import { queryDay } from '../../../time/days.js';
import { eventsWithClubEntries, listsPerEvent } from '../../club-lists.js';
import { clubGraphMessagesInSlices, eventResultsWithSplits, listOfRace } from './split-pictures.js';
import { firstPicturesRefused, picturesBack } from '../../notices.js';

export const RESULTS_FEED = 'results' as const;
const RESULTS = { name: RESULTS_FEED, summaryTitle: 'scheduler.summary.results' } as const;
/** How many of the top of each class are shown for context. */
export const RESULTS_TOP = 3;
/** How far back the feed looks for events with results. */
export const RESULTS_LOOKBACK_DAYS = 7;

export interface ResultsItem {
  itemKey: string;
  eventId: string;
  raceId: string | null;
  payload: MessagePayload;
  contentHash: string;
  /** See `FeedItem.followSeeded`. */
  followSeeded?: boolean;
}

const isClub =
  (organisationId: string) =>
  (p: PersonResult | TeamResult): boolean =>
    'members' in p
      ? p.organisations.some((o) => o.id === organisationId) ||
        p.members.some((m) => m.organisation?.id === organisationId)
      : p.organisation?.id === organisationId;

/** A club runner with a result (not only an entry waiting to start). */
function hasClubResult(classes: readonly ClassResult[], organisationId: string): boolean {
  const club = isClub(organisationId);
  return classes.some(
    (c) =>
      c.persons.some((p) => club(p) && p.results.some((r) => r.status !== 'Inactive')) ||
      c.teams.some((t) => club(t) && t.status !== 'Inactive'),
  );
}

/** The list narrowed to one race of a multi-race event. */
function forRace(list: ResultList, race: EventRace): ResultList {
  return listOfRace(list, race.id);
}

/** One item's part of a result list: a whole event, or one race of a multi-race event. */
interface ResultsPart {
  itemKey: string;
  eventId: string;
  race: EventRace | null;
  index: number;
  list: ResultList;
}

function resultsParts(lists: readonly ResultList[], organisationId: string): ResultsPart[] {
  const parts: ResultsPart[] = [];
  for (const list of lists) {
    const eventId = list.event.id ?? list.event.event?.id ?? null;
    if (eventId === null) continue;
    const races = list.event.event?.races ?? [];
    const candidates: Array<{ race: EventRace | null; index: number; list: ResultList }> =
      races.length > 1
        ? races.map((race, index) => ({ race, index, list: forRace(list, race) }))
        : [{ race: null, index: 0, list }];
    for (const part of candidates) {
      if (!hasClubResult(part.list.classes, organisationId)) continue;
      parts.push({
        ...part,
        eventId,
        itemKey: part.race ? ledgerKey(RESULTS_FEED, eventId, part.race.id) : ledgerKey(RESULTS_FEED, eventId),
      });
    }
  }
  return parts;
}

function partItem(part: ResultsPart, ctx: RenderContext, organisationId: string): ResultsItem | null {
  const [first] = renderClubResults(part.list, ctx, { organisationId, top: RESULTS_TOP, splits: false, maxPages: 1 });
  if (!first) return null;
  let payload = first;
  if (part.race) {
    const label = part.race.name ?? String(part.index + 1);
    payload = {
      ...first,
      embeds: (first.embeds ?? []).map((e, i) =>
        i === 0 && e.title ? { ...e, title: truncate(`${e.title} – ${label}`, 256) } : e,
      ),
    };
  }
  // Results of a race under way when the feed was turned on are news once they change (more
  // runners in, official results); older ones that were already out stay history.
  const started = part.race?.date ?? part.list.event.event?.start ?? null;
  const followSeeded = started !== null && ctx.now.getTime() - Date.parse(started) <= RESULTS_LIVE_MS;
  return {
    itemKey: part.itemKey,
    eventId: part.eventId,
    raceId: part.race?.id ?? null,
    payload,
    contentHash: contentHash(payload),
    ...(followSeeded ? { followSeeded } : {}),
  };
}

/**
 * The feed's items from the club's result lists (`/results/organisation` with `top`): pure, so the
 * same data always gives the same keys, payloads and hashes.
 */
export function resultsItems(lists: readonly ResultList[], ctx: RenderContext, organisationId: string): ResultsItem[] {
  return resultsParts(lists, organisationId).flatMap((part) => partItem(part, ctx, organisationId) ?? []);
}

/**
 * Each item's thread: its name, and its pages rendered only when asked for. With `graphsOf`, the
 * items it names get their split graphs too (see `threadGraphs`).
 */
export function resultsThreadItems(
  lists: readonly ResultList[],
  ctx: RenderContext,
  organisationId: string,
  graphsOf?: { keys: ReadonlySet<string>; client: EventorClient; log?: Logger | undefined },
): ThreadItem[] {
  return resultsParts(lists, organisationId).map((part) => ({
    itemKey: part.itemKey,
    name: resultsThreadName(part.list, part.race, part.index, ctx.language),
    pages: () => threadPages(part.list, ctx, organisationId),
    ...(graphsOf?.keys.has(part.itemKey)
      ? { graphs: () => threadGraphs(part, organisationId, ctx, graphsOf.client, graphsOf.log) }
      : {}),
  }));
}

/**
 * The split graphs of an item's thread, from the event's complete results with split times (the
 * club's own list holds only the club and the top 3). Null when Eventor cannot give them now.
 */
async function threadGraphs(
  part: ResultsPart,
  organisationId: string,
  ctx: RenderContext,
  client: EventorClient,
  log: Logger | undefined,
): Promise<ThreadGraph[] | null> {
  try {
    const list = await eventResultsWithSplits(client, part.eventId, part.race?.id ?? null);
    return await clubGraphMessagesInSlices(list, organisationId, ctx.language);
  } catch (error) {
    log?.warn('results thread graphs not made: no complete results with split times now', {
      itemKey: part.itemKey,
      error,
    });
    return null;
  }
}

/**
 * The items whose thread graphs are made this run: only these cost a request for the event's
 * complete results and drawing (docs/decisions/race-day-requests.md). Those whose club results
 * changed (or are new, or were begun and not recorded), whose thread is not open yet, or whose
 * graphs were begun and not recorded.
 */
async function itemsNeedingGraphs(items: readonly ResultsItem[], options: ResultsFeedOptions): Promise<Set<string>> {
  const { ledger, guildId } = options;
  const keys = new Set<string>();
  for (const item of items) {
    const post = await ledger.get({ guildId, feed: RESULTS_FEED, itemKey: item.itemKey });
    const thread = await ledger.get({
      guildId,
      feed: RESULTS_THREADS_FEED,
      itemKey: ledgerKey(item.itemKey, 'thread'),
    });
    if (
      post === null ||
      post.state === 'posting' ||
      post.contentHash !== item.contentHash ||
      (thread !== null && thread.state !== 'posted') ||
      (await graphsUnfinished(ledger, guildId, item.itemKey))
    )
      keys.add(item.itemKey);
  }
  return keys;
}

/** A results run: the feeds' run options, plus how far back to look and the threads' test hooks. */
export interface ResultsFeedOptions extends FeedRunOptions<ResultsOptions> {
  lookbackDays?: number;
  /** For tests: see `ThreadHooks`. */
  threadHooks?: ThreadHooks;
}

/** A results run: what every channel kind's run says, plus its threads. */
export interface ResultsFeedRun extends FeedRun {
  /** With threads on: what happened to each item's thread (never a reason to pause or fail the run). */
  threads?: ThreadOutcome[];
}

/** Events that started this recently are asked for results on every run; older ones hourly. */
export const RESULTS_LIVE_MS = 36 * 3_600_000;

/**
 * The events of the look-back window that the club entered or organised (one `events` call shared
 * by every club, one `entries` call), whether or not they have started yet.
 */
async function clubEventsOfWindow(
  client: EventorClient,
  organisationId: string,
  now: Date,
  lookbackDays: number,
  club: ClubShare | undefined,
): Promise<Event[]> {
  const t = now.getTime();
  const from = t - lookbackDays * DAY;
  const [events, entered] = await Promise.all([
    client.events({ fromDate: queryDay(from), toDate: queryDay(t) }),
    eventsWithClubEntries(client, organisationId, from, t, club),
  ]);
  return events.filter((e) => entered.has(e.id) || e.organisers.some((o) => o.id === organisationId));
}

/**
 * The club's result lists of events started within the look-back window that the club entered or
 * organised, one list per event. With `liveOnly`, events that started more than RESULTS_LIVE_MS ago
 * are left out: corrections to older results are picked up on the full (hourly) runs, so race days
 * are not spent asking for them. With the club's share (`club`), which events those are is asked
 * once an hour for the club (a new event does not appear on race day within the hour; its window's
 * query days do not change within the hour), while the lists themselves are asked on every run.
 */
export async function fetchClubResults(
  client: EventorClient,
  organisationId: string,
  now: Date,
  lookbackDays = RESULTS_LOOKBACK_DAYS,
  liveOnly = false,
  log?: Logger,
  club?: ClubShare,
): Promise<ResultList[]> {
  const t = now.getTime();
  const clubEvents = club
    ? await club.forTheHour(`results-events:${lookbackDays}`, () =>
        clubEventsOfWindow(client, organisationId, now, lookbackDays, club),
      )
    : await clubEventsOfWindow(client, organisationId, now, lookbackDays, club);
  const candidates = clubEvents
    .filter((e) => e.status !== 'canceled' && e.start !== null && Date.parse(e.start) <= t)
    .filter((e) => !liveOnly || t - Date.parse(e.start!) <= RESULTS_LIVE_MS)
    .sort((a, b) => Date.parse(a.start!) - Date.parse(b.start!) || a.id.localeCompare(b.id));
  return listsPerEvent(
    candidates,
    async (event) => {
      const list = await client.organisationResults({
        organisationIds: [organisationId],
        eventId: event.id,
        top: RESULTS_TOP,
      });
      // Lists may name the event by id only: give the renderer the event from the events call.
      return list.event.event ? list : { ...list, event: { ...list.event, id: list.event.id ?? event.id, event } };
    },
    log,
    'results',
  );
}

/** The result lists one run of the feed asks for: only races just run on the in-between runs of a started feed. */
export async function fetchResultsForRun(options: ResultsFeedOptions): Promise<ResultList[]> {
  const liveOnly =
    options.full === false && (await options.ledger.feedStartedAt(options.guildId, RESULTS_FEED)) !== null;
  return fetchClubResults(
    options.client,
    options.organisationId,
    options.now,
    options.lookbackDays,
    liveOnly,
    options.log,
    options.club,
  );
}

/**
 * The results go to the channel: the first run seeds the ledger (nothing is posted, the feed starts
 * from now); later runs post new items and edit changed ones, in event order, and stop at the first
 * refusal from Discord; with threads on, each post's thread follows.
 */
export async function deliverResults(
  items: readonly ResultsItem[],
  lists: readonly ResultList[],
  options: ResultsFeedOptions,
): Promise<ResultsFeedRun> {
  const ctx = renderContext(options);
  const threadsOn =
    options.options?.threads === true && (await options.ledger.feedStartedAt(options.guildId, RESULTS_FEED)) !== null;
  // Read before publishing: once published, a changed item looks unchanged.
  const graphsOf = threadsOn
    ? { keys: await itemsNeedingGraphs(items, options), client: options.client, log: options.log }
    : undefined;
  const threadItems = threadsOn
    ? resultsThreadItems(lists, ctx, options.organisationId, graphsOf).filter((t) =>
        items.some((i) => i.itemKey === t.itemKey),
      )
    : [];
  const threadOptions = {
    guildId: options.guildId,
    channelId: options.channelId,
    postFeed: RESULTS_FEED,
    ledger: options.ledger,
    target: options.target,
    language: options.language,
    log: options.log,
    hooks: options.threadHooks,
  };
  if (threadsOn) await intendThreads(threadOptions, threadItems);
  const run = await publishItems(options, RESULTS, items);
  // A paused feed stops here: its channel is refused, so its threads would be too.
  if (!threadsOn || run.seeded || run.paused) return run;
  const threads = await syncThreads(threadOptions, threadItems);
  return { ...run, threads, ...(await picturesNotice(threads, options)) };
}

/**
 * Pictures refused in the threads (no Attach Files): the admins are told once, and again only
 * after pictures went out there since. The threads themselves got the text.
 */
async function picturesNotice(
  threads: readonly ThreadOutcome[],
  options: ResultsFeedOptions,
): Promise<Pick<FeedRun, 'notice'>> {
  const { ledger, guildId, channelId } = options;
  const done = threads.flatMap((o) => (o.kind === 'opened' || o.kind === 'synced' ? [o] : []));
  if (done.some((o) => o.picturesRefused)) {
    return (await firstPicturesRefused(ledger, guildId, channelId)) ? { notice: 'scheduler.noPictures' } : {};
  }
  const sent = done.some((o) => o.graphs.some((kind) => kind === 'posted' || kind === 'edited' || kind === 'reposted'));
  if (sent) await picturesBack(ledger, guildId, channelId);
  return {};
}

function itemsForRun(lists: readonly ResultList[], options: FeedRunOptions<ResultsOptions>): ResultsItem[] {
  return resultsItems(lists, renderContext(options), options.organisationId);
}

/** One run of the results feed for one server. */
export async function runResultsFeed(options: ResultsFeedOptions): Promise<ResultsFeedRun> {
  const lists = await fetchResultsForRun(options);
  return deliverResults(itemsForRun(lists, options), lists, options);
}

/** How far back `/feeds test results` looks for the newest results (twice the feed's own window). */
const RESULTS_TEST_LOOKBACK_DAYS = RESULTS_LOOKBACK_DAYS * 2;

/** For `/feeds test`: the club's newest results. */
export async function latestResults(ctx: PreviewContext): Promise<MessagePayload | null> {
  const lists = await fetchClubResults(ctx.client, ctx.organisationId, ctx.now, RESULTS_TEST_LOOKBACK_DAYS);
  // Lists come in event order, oldest first: the newest item is the last.
  return resultsItems(lists, renderContext(ctx), ctx.organisationId).at(-1)?.payload ?? null;
}

/** Club results: every 5 minutes on and just after race days, else hourly. */
export const resultsFeed = channelFeed({
  name: RESULTS_FEED,
  cadence: raceDayCadence,
  fetch: fetchResultsForRun,
  items: itemsForRun,
  deliver: deliverResults,
  latest: latestResults,
});
