/**
 * The live kind's scheduler run (docs/live-results.md#race-day-in-discord): on the club's race days
 * it finds each race of today in which the club has entries or start times, and which live
 * competition it is. A race already tied to one (by the event's link, a confident search, or an
 * admin) keeps it; the others are matched against the day's competitions (asked once per process
 * and ten minutes, `access.ts`). What it finds is kept in the store, where the pollers read it
 * (`poller.ts`); an uncertain match is offered to the admins with a button per candidate, and a race
 * with no match is told to them, each once. It also ends a board once Eventor's official results
 * are posted in the server: the board links the results post.
 *
 * The boards themselves are the pollers': this run asks Eventor what it knows, never LiveResultat
 * for results.
 */
import { millisecondsInDay as DAY } from 'date-fns/constants';
import type { Event, Organisation, StartList } from '../../../eventor/answers.js';
import { InvalidResponse, NotFound } from '../../../eventor/errors.js';
import type { EventorClient } from '../../../eventor/client.js';
import { type ClubEntry, clubEntriesInEntries, clubEntriesInStartList } from '../../../live/index.js';
import { LiveError } from '../../../live/errors.js';
import { type CompetitionMatch, matchCompetition, type RaceToMatch } from '../../../live/match.js';
import { raceToMatch } from '../../../live/eventor.js';
import { type MessagePayload, renderLiveNotFound, renderLiveOffer } from '../../../render/index.js';
import type { LiveRaceRow } from '../../../store/interfaces.js';
import { queryDay } from '../../../time/days.js';
import { instantToLocal } from '../../../time/zones.js';
import { localDate, raceDayCadence } from '../../cadence.js';
import { contentHash, ledgerKey, sha256 } from '../../delivery/keys.js';
import type { Ledger } from '../../delivery/ledger.js';
import { Poster, type PostOutcome } from '../../delivery/poster.js';
import type { Feed, FeedContext, FeedRunResult } from '../../feed.js';
import type { KindTranslator } from '../../kind.js';
import { postCounts } from '../../feed.js';
import type { LiveAccess } from './access.js';
import { LIVE_FEED, type LiveRaceRecord, raceTitle, readCandidates } from './race.js';
import type { LiveOptions } from './options.js';

/** The results kind's ledger name and key spelling (kinds/results): the post a final board links to. */
const RESULTS_FEED = 'results';

/** One race of today with the club's runners, as found in Eventor. */
export interface LiveRaceFound {
  eventId: string;
  raceId: string;
  raceDay: string;
  record: LiveRaceRecord;
  toMatch: RaceToMatch;
}

export interface LiveMatchFetch {
  races: LiveRaceFound[];
  /** What the store held for today's races before this run, by `eventId:raceId`. */
  rows: ReadonlyMap<string, LiveRaceRow>;
  /** A new match per race that needed one; absent: keep what the store holds (or the list could not be read). */
  matches: ReadonlyMap<string, CompetitionMatch>;
  /** Races whose board is final now, with the results post's link. */
  finals: ReadonlyArray<{ eventId: string; raceId: string; resultsUrl: string }>;
  /** Where offers go: the admins' channel of /setup channel, else the kind's own. */
  adminChannel: string | null;
  /** The day's competition list could not be read: the admins are told once. */
  listFailed: boolean;
}

export interface LiveOfferItem {
  itemKey: string;
  payload: MessagePayload;
  contentHash: string;
}

const NONE: LiveMatchFetch = {
  races: [],
  rows: new Map(),
  matches: new Map(),
  finals: [],
  adminChannel: null,
  listFailed: false,
};

export const raceKey = (eventId: string, raceId: string): string => `${eventId}:${raceId}`;

/** The club's events with a race today (local day of the server), from the run's share of the club when there is one. */
async function eventsRacingToday(ctx: FeedContext, today: string): Promise<Event[]> {
  const { client, organisationId, now, timeZone } = ctx;
  const from = now.getTime() - DAY;
  const to = now.getTime() + DAY;
  const events = ctx.club
    ? await ctx.club.enteredEventList(from, to)
    : await (async () => {
        const entered = await client.entries({
          organisationIds: [organisationId],
          fromEventDate: queryDay(from),
          toEventDate: queryDay(to),
        });
        const ids = new Set(entered.map((e) => e.event.id ?? e.event.event?.id).filter((id) => id != null));
        return (await client.events({ fromDate: queryDay(from), toDate: queryDay(to) })).filter((e) => ids.has(e.id));
      })();
  return events.filter(
    (event) =>
      event.status !== 'canceled' &&
      event.races.some((race) => race.date !== null && instantToLocal(race.date, timeZone).date === today),
  );
}

/** An answer Eventor cannot give for this event is no reason to hold up the others (as `listsPerEvent`). */
async function orNull<T>(ask: () => Promise<T>): Promise<T | null> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof InvalidResponse || error instanceof NotFound) return null;
    throw error;
  }
}

/** The names the club goes by in Eventor, and those its admins added. */
async function clubNamesOf(client: EventorClient, organisationId: string, added: readonly string[]): Promise<string[]> {
  const organisation = await orNull(() => client.organisation({ id: organisationId }));
  const names = [organisation?.name, organisation?.shortName, organisation?.mediaName, ...added];
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n.trim() !== ''))];
}

/**
 * The event with its organisers named: the event lists give only their ids, and the matching reads
 * their names and country (docs/live-results.md#finding-the-competition). Each is asked once per
 * run, and the client's cache keeps organisations.
 */
async function withOrganisers(
  client: EventorClient,
  event: Event,
  known: Map<string, Organisation | null>,
): Promise<Event> {
  const organisers = await Promise.all(
    event.organisers.map(async (ref) => {
      if (ref.name !== null || ref.id === null) return ref;
      let organisation = known.get(ref.id);
      if (organisation === undefined) {
        const id = ref.id;
        organisation = await orNull(() => client.organisation({ id }));
        known.set(ref.id, organisation);
      }
      return organisation === null
        ? ref
        : { ...ref, name: organisation.name, shortName: organisation.shortName, countryCode: organisation.countryCode };
    }),
  );
  return { ...event, organisers };
}

/** The club's runners of one race: the start list's, else the entries' (before the draw). */
async function raceEntries(
  client: EventorClient,
  organisationId: string,
  event: Event,
  raceId: string,
  startList: StartList | null,
): Promise<ClubEntry[]> {
  const club = new Set([organisationId]);
  const started = startList ? clubEntriesInStartList(startList, club, raceId) : [];
  if (started.length > 0) return started;
  const entries = await orNull(() => client.entries({ organisationIds: [organisationId], eventIds: [event.id] }));
  return clubEntriesInEntries(
    (entries ?? []).filter((e) => e.raceIds.length === 0 || e.raceIds.includes(raceId)),
    club,
    new Map(),
  );
}

/** Today's races of the club in Eventor, matched where they need it. */
export async function fetchLiveMatches(ctx: FeedContext): Promise<LiveMatchFetch> {
  const access: LiveAccess | undefined = ctx.live;
  if (!access) return NONE;
  const { client, organisationId, now, timeZone, guildId } = ctx;
  const today = localDate(now, timeZone);
  const events = await eventsRacingToday(ctx, today);
  const store = ctx.store;
  const stored = await store.live.races(guildId, today, today);
  const rows = new Map(stored.map((row) => [raceKey(row.eventId, row.raceId), row]));
  const races: LiveRaceFound[] = [];
  if (events.length > 0) {
    const options = ctx.settings.options as Partial<LiveOptions>;
    const clubNames = await clubNamesOf(client, organisationId, options.clubNames ?? []);
    const organisations = new Map<string, Organisation | null>();
    for (const listed of events) {
      const event = await withOrganisers(client, listed, organisations);
      const startList = await orNull(() =>
        client.organisationStarts({ organisationIds: [organisationId], eventId: event.id }),
      );
      event.races.forEach((race, index) => {
        if (race.date === null || instantToLocal(race.date, timeZone).date !== today) return;
        races.push({
          eventId: event.id,
          raceId: race.id,
          raceDay: today,
          toMatch: raceToMatch(event, race.id, { timeZone })!,
          record: {
            eventName: event.name,
            raceName: event.races.length > 1 ? race.name : null,
            raceNumber: index + 1,
            raceCount: event.races.length,
            start: race.date,
            organisers: event.organisers.map((o) => ({ name: o.name, shortName: o.shortName })),
            countryCode: event.organisers.find((o) => o.countryCode !== null)?.countryCode ?? null,
            clubNames,
            entries: [],
          },
        });
      });
      for (const found of races.filter((r) => r.eventId === event.id))
        found.record.entries = (await raceEntries(client, organisationId, event, found.raceId, startList)).map(
          (entry) => ({ ...entry, leg: entry.leg ?? null }),
        );
    }
  }
  const withRunners = races.filter((race) => race.record.entries.length > 0);
  const needing = withRunners.filter((race) => {
    const row = rows.get(raceKey(race.eventId, race.raceId));
    return row === undefined || row.how === 'none' || row.how === 'uncertain';
  });
  const matches = new Map<string, CompetitionMatch>();
  let listFailed = false;
  if (needing.length > 0) {
    try {
      const day = await access.competitionsOn(today);
      for (const race of needing) matches.set(raceKey(race.eventId, race.raceId), matchCompetition(race.toMatch, day));
    } catch (error) {
      if (!(error instanceof LiveError)) throw error;
      listFailed = true;
      ctx.log.warn('the live competitions of the day could not be read; matching later', { guildId, error });
    }
  }
  const finals = await resultsPosted(ctx.ledger, guildId, stored, withRunners);
  const guild = await store.servers.guildSettings(guildId);
  return { races: withRunners, rows, matches, finals, adminChannel: guild?.channels.admin ?? null, listFailed };
}

/** The results kind's key of a race's post (one per event, one per race of a multi-race event). */
export function resultsKey(eventId: string, raceId: string, raceCount: number): string {
  return raceCount > 1 ? ledgerKey(RESULTS_FEED, eventId, raceId) : ledgerKey(RESULTS_FEED, eventId);
}

/** Boards still live whose race's official results the server's results kind has posted: the post's link. */
async function resultsPosted(
  ledger: Ledger,
  guildId: string,
  rows: readonly LiveRaceRow[],
  races: readonly LiveRaceFound[],
): Promise<Array<{ eventId: string; raceId: string; resultsUrl: string }>> {
  const out: Array<{ eventId: string; raceId: string; resultsUrl: string }> = [];
  for (const row of rows) {
    if (row.competitionId === null || row.resultsUrl !== null) continue;
    const race = races.find((r) => r.eventId === row.eventId && r.raceId === row.raceId);
    const count = race?.record.raceCount ?? 1;
    const post = await ledger.get({ guildId, feed: RESULTS_FEED, itemKey: resultsKey(row.eventId, row.raceId, count) });
    if (post?.state === 'posted' && post.messageId !== null)
      out.push({
        eventId: row.eventId,
        raceId: row.raceId,
        resultsUrl: `https://discord.com/channels/${guildId}/${post.channelId}/${post.messageId}`,
      });
  }
  return out;
}

/** Pure: what the admins are told of today's matches, once each: the uncertain ones with buttons, the ones not found. */
export function liveOfferItems(data: LiveMatchFetch, ctx: FeedContext): LiveOfferItem[] {
  const items: LiveOfferItem[] = [];
  const render = { language: ctx.language, timeZone: ctx.timeZone, now: ctx.now, webUrl: ctx.client.instance.webUrl };
  for (const race of data.races) {
    const match = data.matches.get(raceKey(race.eventId, race.raceId));
    if (match === undefined || match.kind === 'confident') continue;
    const title = raceTitle(race.record);
    const payload =
      match.kind === 'uncertain'
        ? renderLiveOffer(
            {
              race: title,
              eventId: race.eventId,
              raceId: race.raceId,
              candidates: match.candidates.map(({ competition }) => ({
                id: competition.id,
                name: competition.name,
                organiser: competition.organiser,
              })),
            },
            render,
          )
        : renderLiveNotFound(title, render);
    // One offer per race and set of candidates: a new candidate is offered again, the same never.
    const what = match.kind === 'uncertain' ? match.candidates.map((c) => c.competition.id).join(',') : 'none';
    items.push({
      itemKey: ledgerKey(LIVE_FEED, race.eventId, race.raceId, 'offer', sha256(what).slice(0, 12)),
      payload,
      contentHash: contentHash(payload),
    });
  }
  return items;
}

/** What the store keeps of a race given its new match (or none: what it held stays). */
function rowOf(
  guildId: string,
  race: LiveRaceFound,
  match: CompetitionMatch | undefined,
  before: LiveRaceRow | undefined,
): Omit<LiveRaceRow, 'finalAt' | 'resultsUrl' | 'updatedAt'> {
  const base = {
    guildId,
    eventId: race.eventId,
    raceId: race.raceId,
    raceDay: race.raceDay,
    race: JSON.stringify(race.record),
  };
  if (match === undefined)
    return {
      ...base,
      competitionId: before?.competitionId ?? null,
      how: before?.how ?? 'none',
      candidates: before?.candidates ?? '[]',
    };
  if (match.kind === 'confident')
    return { ...base, competitionId: match.competition.id, how: match.by, candidates: '[]' };
  if (match.kind === 'uncertain')
    return {
      ...base,
      competitionId: null,
      how: 'uncertain',
      candidates: JSON.stringify(
        match.candidates.map(({ competition: c }) => ({
          id: c.id,
          name: c.name,
          organiser: c.organiser,
          date: c.date,
        })),
      ),
    };
  return { ...base, competitionId: null, how: 'none', candidates: '[]' };
}

/**
 * Keeps what was found, ends the boards whose results are posted, and tells the admins what needs
 * them (each once: the poster's ledger), in the admins' channel or else the kind's own.
 */
export async function deliverLiveMatches(
  items: readonly LiveOfferItem[],
  data: LiveMatchFetch,
  ctx: FeedContext,
): Promise<FeedRunResult> {
  const { guildId, store } = ctx;
  for (const race of data.races) {
    const key = raceKey(race.eventId, race.raceId);
    await store.live.putMatch(rowOf(guildId, race, data.matches.get(key), data.rows.get(key)));
  }
  for (const final of data.finals) await store.live.markFinal(guildId, final.eventId, final.raceId, final.resultsUrl);
  const channelId = data.adminChannel ?? ctx.settings.channelId;
  const outcomes: Array<{ itemKey: string; outcome: PostOutcome }> = [];
  if (channelId !== null && items.length > 0) {
    const poster = new Poster(ctx.ledger, ctx.target);
    for (const item of items) {
      const outcome = await poster.publish({ guildId, feed: LIVE_FEED, channelId, ...item });
      outcomes.push({ itemKey: item.itemKey, outcome });
      if (outcome.kind === 'paused' && channelId === ctx.settings.channelId)
        return {
          outcome: 'paused',
          reason: outcome.reason === 'channel-gone' ? 'channel-missing' : 'no-permission',
          ...postCounts(outcomes),
        };
    }
  }
  const failed = outcomes.find((o) => o.outcome.kind === 'failed');
  if (failed?.outcome.kind === 'failed')
    return { outcome: 'failed', error: failed.outcome.error, ...postCounts(outcomes) };
  await ctx.ledger.ranAt(guildId, LIVE_FEED, ctx.now);
  const notice =
    data.listFailed && (await firstLiveDown(ctx.ledger, guildId, 'list'))
      ? { notice: 'scheduler.liveDown' as const }
      : {};
  return { outcome: 'ok', ...postCounts(outcomes), ...notice };
}

/** The ledger feed that remembers the notices already given (notices.ts keeps its own there too). */
const NOTICES_FEED = 'notices';

/**
 * Whether to tell a server's admins now that LiveResultat fails (`what`: the day's list, or a
 * competition): true the first time only; it is never told again for the same thing.
 */
export async function firstLiveDown(ledger: Ledger, guildId: string, what: string): Promise<boolean> {
  return firstNotice(ledger, guildId, ledgerKey('live-down', what));
}

/** Whether to tell a server's admins now that a board left its race's thread: true the first time only. */
export async function firstBoardMoved(ledger: Ledger, guildId: string, boardKey: string): Promise<boolean> {
  return firstNotice(ledger, guildId, ledgerKey('live-board-moved', boardKey));
}

async function firstNotice(ledger: Ledger, guildId: string, itemKey: string): Promise<boolean> {
  const ref = { guildId, feed: NOTICES_FEED, itemKey };
  if ((await ledger.get(ref)) !== null) return false;
  await ledger.seed(guildId, NOTICES_FEED, '', [{ itemKey: ref.itemKey, contentHash: 'told' }]);
  return true;
}

/** The matching run as a feed: at the results' cadence (every 5 minutes on race days), for servers with the kind on. */
export const liveMatchFeed: Feed<LiveMatchFetch, LiveOfferItem> = {
  name: LIVE_FEED,
  settingsOf: LIVE_FEED,
  audience: 'channel',
  cadence: raceDayCadence,
  fetch: fetchLiveMatches,
  items: liveOfferItems,
  deliver: deliverLiveMatches,
};

/** How a race's competition was found, in words (`/feeds show`, `/live`). */
export function matchWords(translator: KindTranslator, row: LiveRaceRow): string {
  switch (row.how) {
    case 'link':
      return translator.t('live.how.link', { id: row.competitionId ?? 0 });
    case 'search':
      return translator.t('live.how.search', { id: row.competitionId ?? 0 });
    case 'admin':
      return translator.t('live.how.admin', { id: row.competitionId ?? 0 });
    case 'uncertain':
      return translator.t('live.how.uncertain', { count: readCandidates(row.candidates).length });
    default:
      return translator.t('live.how.none');
  }
}
