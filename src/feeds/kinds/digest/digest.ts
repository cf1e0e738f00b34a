/**
 * The weekly digest: once a week, at the day and time the admins chose in `/feeds digest` (default
 * Thursday 18:00 in the server's zone), one post with the club's starts in the coming days, the
 * entry deadlines of the next 10 days with the club's count, last week's results and the week's
 * club activities (`renderDigest`).
 *
 * Its ledger key is the ISO week of the time it was due, so each week's digest goes out once. A
 * run is due every 5 minutes (the scheduler's finest slot), so the digest comes within one slot of
 * its time; a run that finds the week's digest already in the ledger asks Eventor nothing. After
 * downtime only the latest week that fell due is posted, once, saying it comes late.
 *
 * What it shows is what the other kinds ask on the same tick, with the same parameters (the
 * club's shared entries, the start and result lists, the reminders' events and counts, the
 * activities), so the shared client's cache answers most of it; the entries of races whose start
 * list is not out yet, and the classes of the nearest two, are its own (`npm run bench`:
 * `eventor-requests-digest-per-week`).
 */
import { millisecondsInDay as DAY, millisecondsInHour as HOUR } from 'date-fns/constants';
import { getISOWeek } from 'date-fns/getISOWeek';
import { getISOWeekYear } from 'date-fns/getISOWeekYear';
import type { Activity, Entry, Event, EventClass, ResultList, StartList } from '../../../eventor/answers.js';
import type { EventorClient } from '../../../eventor/client.js';
import type { Logger } from '../../../log/logger.js';
import {
  type DigestData,
  type DigestEvent,
  type DigestPodium,
  type DigestResults,
  type DigestRunner,
  type DigestStart,
  renderDigest,
} from '../../../render/digest.js';
import { type MessagePayload, personNameText, type RenderContext } from '../../../render/index.js';
import { addDays, weekdayOf } from '../../../time/days.js';
import { isValidTimeZone, localToInstant } from '../../../time/zones.js';
import { FREQUENT_MS, localDate } from '../../cadence.js';
import type { ClubShare } from '../../club-share.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import { type ContentItem, publishItems, withRoleMention } from '../../delivery/publish.js';
import { channelFeed, type FeedRun, type FeedRunOptions, type PreviewContext, renderContext } from '../../feed.js';
import { DigestOptions } from './options.js';
import { fetchClubActivities } from '../activities/activities.js';
import { byStart, eventsWithClubEntries, listsPerEvent } from '../../club-lists.js';
import { fetchReminderEvents, REMINDERS_WINDOW_DAYS } from '../reminders/reminders.js';
import { fetchClubResults, RESULTS_LOOKBACK_DAYS } from '../results/results.js';

export const DIGEST_FEED = 'digest' as const;
const DIGEST = { name: DIGEST_FEED, summaryTitle: 'scheduler.summary.digest' } as const;
/** The coming days whose starts and activities the digest lists: until the next one. */
export const DIGEST_AHEAD_DAYS = 7;
/** Entry deadlines within this many days are listed. */
export const DIGEST_DEADLINE_DAYS = 10;
/**
 * Races without a start list whose classes the digest looks up (the nearest ones): entries name
 * only their class's id, and each race's classes are one request. Later races list their entrants
 * without the class, which keeps the digest's own requests to at most 3 a week.
 */
export const DIGEST_CLASS_LOOKUPS = 2;
/** A digest posted more than this after its time says it comes late (the bot was away, or quiet hours held it). */
export const DIGEST_LATE_AFTER_MS = HOUR;

/** When the latest digest fell due at or before `now`, and the ISO week it is for (its ledger key). */
export function latestDigestDue(
  now: Date,
  timeZone: string,
  options: Pick<DigestOptions, 'digestDay' | 'digestTime'>,
): { dueAt: Date; week: string } {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const today = localDate(now, zone);
  const isoToday = weekdayOf(today) === 0 ? 7 : weekdayOf(today);
  let day = addDays(today, options.digestDay - isoToday);
  let dueAt = new Date(localToInstant(day, options.digestTime, zone)!);
  if (dueAt.getTime() > now.getTime()) {
    day = addDays(day, -7);
    dueAt = new Date(localToInstant(day, options.digestTime, zone)!);
  }
  const noon = new Date(`${day}T12:00:00Z`);
  return { dueAt, week: `${getISOWeekYear(noon)}-W${String(getISOWeek(noon)).padStart(2, '0')}` };
}

/** The digest's ledger key for an ISO week. */
export function digestKey(week: string): string {
  return ledgerKey(DIGEST_FEED, week);
}

/** What one run found: nothing to do, the first run's seed, an unfinished post to finish, or a digest to post. */
type DigestRun =
  | { kind: 'done' }
  | { kind: 'seed'; itemKey: string }
  | { kind: 'finish' }
  | { kind: 'post'; itemKey: string; dueAt: Date; data: DigestData };

function digestEvent(event: Event): DigestEvent {
  return { id: event.id, name: event.name, start: event.start };
}

/** The club's runners of a start list, with class and start time. */
function startListRunners(list: StartList, organisationId: string): DigestRunner[] {
  const runners: DigestRunner[] = [];
  for (const c of list.classes) {
    const className = c.class.shortName ?? c.class.name;
    for (const p of c.persons) {
      if (p.organisation?.id !== organisationId) continue;
      const startTime = p.starts.find((s) => s.startTime !== null)?.startTime ?? null;
      runners.push({ name: personNameText(p.person?.name) || '?', className, startTime });
    }
    for (const team of c.teams) {
      for (const m of team.members) {
        if (m.organisation?.id !== organisationId) continue;
        runners.push({
          name: personNameText(m.person?.name) || '?',
          className,
          startTime: m.start.startTime ?? team.startTime,
        });
      }
    }
  }
  return runners;
}

/** The club's entrants of one event, with the class named from the event's classes. */
function entryRunners(entries: readonly Entry[], classes: readonly EventClass[]): DigestRunner[] {
  const names = new Map(classes.map((c) => [c.id, c.shortName ?? c.name]));
  return entries.map((entry) => ({
    name: entry.competitor ? personNameText(entry.competitor.person?.name) || '?' : (entry.team?.name ?? '?'),
    className:
      (entry.classIds[0] !== undefined ? names.get(entry.classIds[0]) : undefined) ?? entry.classNames[0] ?? null,
    startTime: null,
  }));
}

/**
 * The club's starts in the coming days: each race's start list where it is out (asked as the
 * start-lists kind asks it, so its cache answers), else its entries (one request for all of
 * them) with the classes of the nearest races (`DIGEST_CLASS_LOOKUPS`).
 */
async function fetchStarts(
  client: EventorClient,
  organisationId: string,
  now: Date,
  log: Logger | undefined,
  club: ClubShare | undefined,
): Promise<DigestStart[]> {
  const from = now.getTime();
  const to = from + DIGEST_AHEAD_DAYS * DAY;
  let events: readonly Event[];
  // From a day back, for races under way.
  if (club) events = await club.enteredEventList(from - DAY, to);
  else {
    const ids = [...(await eventsWithClubEntries(client, organisationId, from - DAY, to))].sort();
    events = ids.length === 0 ? [] : await client.events({ eventIds: ids });
  }
  const coming = events
    .filter((e) => e.status !== 'canceled' && e.start !== null)
    // Still to come, or under way (a multi-day event that began yesterday).
    .filter((e) => Date.parse(e.finish ?? e.start!) >= from && Date.parse(e.start!) < to)
    .sort(byStart);
  const lists = await listsPerEvent(
    coming,
    async (event) => {
      const list = await client.organisationStarts({ organisationIds: [organisationId], eventId: event.id });
      const runners = startListRunners(list, organisationId);
      return { event, runners };
    },
    log,
    'start list',
  );
  const withList = new Map(lists.filter((l) => l.runners.length > 0).map((l) => [l.event.id, l.runners]));
  const starts: DigestStart[] = [];
  const unpublished = coming.filter((e) => !withList.has(e.id));
  const entries =
    unpublished.length === 0
      ? []
      : await client.entries({
          organisationIds: [organisationId],
          eventIds: unpublished.map((e) => e.id),
          includePersonElement: true,
        });
  let lookups = 0;
  for (const event of coming) {
    const runners = withList.get(event.id);
    if (runners) {
      starts.push({ event: digestEvent(event), startList: true, runners });
      continue;
    }
    const own = entries.filter((e) => (e.event.id ?? e.event.event?.id) === event.id);
    if (own.length === 0) continue;
    const named = own.every((e) => e.classNames.length > 0);
    let classes: readonly EventClass[] = [];
    if (!named && lookups < DIGEST_CLASS_LOOKUPS) {
      lookups++;
      classes = await client.eventClasses({ eventId: event.id });
    }
    starts.push({ event: digestEvent(event), startList: false, runners: entryRunners(own, classes) });
  }
  return starts;
}

/** Statuses of runners who did not run. */
const DID_NOT_RUN = new Set(['Inactive', 'DidNotStart', 'DidNotEnter', 'Cancelled']);

/** Last week's results of the club: how many ran each race, and its podiums. */
export function digestResults(lists: readonly ResultList[], organisationId: string): DigestResults {
  const out: DigestResults = { events: [], podiums: [] };
  for (const list of lists) {
    const id = list.event.id ?? list.event.event?.id ?? null;
    if (id === null) continue;
    const event: DigestEvent = {
      id,
      name: list.event.event?.name ?? list.event.name ?? id,
      start: list.event.event?.start ?? null,
    };
    let ran = 0;
    const podium = (name: string, className: string, position: number | null, status: string): void => {
      if (status === 'OK' && position !== null && position >= 1 && position <= 3)
        out.podiums.push({ name, className, position: position as DigestPodium['position'], event });
    };
    for (const c of list.classes) {
      const className = c.class.shortName ?? c.class.name;
      // Unordered classes (the youngest) show no places: no podiums from them.
      const ranked = c.class.resultListMode === 'Default';
      for (const p of c.persons) {
        if (p.organisation?.id !== organisationId) continue;
        const results = p.results.filter((r) => !DID_NOT_RUN.has(r.status));
        if (results.length === 0) continue;
        ran++;
        if (ranked)
          for (const r of results) podium(personNameText(p.person?.name) || '?', className, r.position, r.status);
      }
      for (const team of c.teams) {
        const members = team.members.filter((m) => m.organisation?.id === organisationId);
        const clubTeam = team.organisations.some((o) => o.id === organisationId);
        if (!clubTeam && members.length === 0) continue;
        if (DID_NOT_RUN.has(team.status)) continue;
        ran += members.filter((m) => !DID_NOT_RUN.has(m.result.status)).length;
        if (ranked && clubTeam) podium(team.name, className, team.position, team.status);
      }
    }
    if (ran > 0) out.events.push({ event, ran });
  }
  return out;
}

/** The deadlines of the next days, with the club's count, from what the reminders kind asks. */
function digestDeadlines(
  { events, counts }: { events: readonly Event[]; counts: ReadonlyMap<string, number> },
  now: Date,
): DigestData['deadlines'] {
  const from = now.getTime();
  const to = from + DIGEST_DEADLINE_DAYS * DAY;
  const out: DigestData['deadlines'] = [];
  for (const event of events) {
    if (event.status === 'canceled') continue;
    for (const [index, deadline] of event.entryDeadlines.entries()) {
      const at = Date.parse(deadline);
      if (at > from && at <= to)
        out.push({ event: digestEvent(event), deadline, late: index > 0, count: counts.get(event.id) ?? 0 });
    }
  }
  return out;
}

/** The club's activities starting in the coming days, visible now. */
function weekActivities(activities: readonly Activity[], now: Date): Activity[] {
  const from = now.getTime();
  const to = from + DIGEST_AHEAD_DAYS * DAY;
  return activities.filter(
    (a) =>
      a.startTime !== null &&
      Date.parse(a.startTime) >= from &&
      Date.parse(a.startTime) < to &&
      (a.visibleFrom === null || Date.parse(a.visibleFrom) <= from) &&
      (a.visibleTo === null || Date.parse(a.visibleTo) > from),
  );
}

/**
 * Everything the digest shows, asked the way the other kinds ask it (same operations, same
 * parameters on the same tick), so their answers come from the shared client's cache.
 */
export async function fetchDigestData(
  client: EventorClient,
  organisationId: string,
  now: Date,
  week: string,
  log?: Logger,
  club?: ClubShare,
): Promise<DigestData> {
  const starts = await fetchStarts(client, organisationId, now, log, club);
  const deadlines = digestDeadlines(
    await fetchReminderEvents(client, organisationId, now, REMINDERS_WINDOW_DAYS, club),
    now,
  );
  const lists = await fetchClubResults(client, organisationId, now, RESULTS_LOOKBACK_DAYS, false, log, club);
  const activities = weekActivities(await fetchClubActivities(client, organisationId, now), now);
  return { week, starts, deadlines, results: digestResults(lists, organisationId), activities };
}

/**
 * The run's first step: which week's digest is due, and whether it is still to post. Eventor is
 * asked only when it is; every other run (every 5 minutes) reads one ledger row.
 */
async function fetchForRun(options: FeedRunOptions<DigestOptions>): Promise<DigestRun> {
  const { ledger, guildId, now } = options;
  const { dueAt, week } = latestDigestDue(now, options.timeZone, DigestOptions.parse(options.options ?? {}));
  const itemKey = digestKey(week);
  // The first run: the week already due is recorded, not posted; the next one comes at its time.
  if ((await ledger.feedStartedAt(guildId, DIGEST_FEED)) === null) return { kind: 'seed', itemKey };
  const row = await ledger.get({ guildId, feed: DIGEST_FEED, itemKey });
  // Begun and not recorded (a crash): the poster finishes it from the ledger, without Eventor.
  if (row?.state === 'posting') return { kind: 'finish' };
  if (row !== null) return { kind: 'done' };
  const data = await fetchDigestData(options.client, options.organisationId, now, week, options.log, options.club);
  return { kind: 'post', itemKey, dueAt, data };
}

/** The digest's one item, rendered (pure); late when it goes out over an hour after its time. */
export function digestItem(
  data: DigestData,
  itemKey: string,
  dueAt: Date,
  ctx: RenderContext,
  roleId: string | null = null,
): ContentItem {
  const late = ctx.now.getTime() - dueAt.getTime() > DIGEST_LATE_AFTER_MS;
  const payload = withRoleMention(renderDigest(data, ctx, late ? { lateSince: dueAt.toISOString() } : {}), roleId);
  return { itemKey, payload, contentHash: contentHash(payload) };
}

function itemsForRun(run: DigestRun, options: FeedRunOptions<DigestOptions>): ContentItem[] {
  if (run.kind !== 'post') return [];
  return [digestItem(run.data, run.itemKey, run.dueAt, renderContext(options), options.roleId ?? null)];
}

async function deliver(
  items: readonly ContentItem[],
  run: DigestRun,
  options: FeedRunOptions<DigestOptions>,
): Promise<FeedRun> {
  switch (run.kind) {
    case 'done':
      return { seeded: false, outcomes: [], paused: null };
    case 'seed':
      // Only the key: a seeded row is never posted, so what it would have shown does not matter.
      return publishItems(options, DIGEST, [], [{ itemKey: run.itemKey, contentHash: '' }]);
    default:
      return publishItems(options, DIGEST, items);
  }
}

/** For `/feeds test`: the digest as it would be posted now. */
export async function latestDigest(ctx: PreviewContext): Promise<MessagePayload> {
  const { week } = latestDigestDue(ctx.now, ctx.timeZone, { digestDay: 1, digestTime: '00:00' });
  const data = await fetchDigestData(ctx.client, ctx.organisationId, ctx.now, week);
  return renderDigest(data, renderContext(ctx));
}

/**
 * The weekly digest. Its cadence is the scheduler's finest slot whatever the calendar: a run that
 * finds nothing due costs one ledger read, and an hourly cadence could miss the chosen minute by
 * up to an hour (runs are aligned to UTC hours, and a zone may be half an hour off them).
 */
export const digestFeed = channelFeed({
  name: DIGEST_FEED,
  cadence: () => FREQUENT_MS,
  fetch: fetchForRun,
  items: itemsForRun,
  deliver,
  latest: latestDigest,
});

/** One run of the feed for one server. */
export const runDigestFeed = digestFeed.run;
