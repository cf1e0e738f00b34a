/**
 * Personal DMs (`/notify`), a feed like the others: "your start time is out" once per race when the
 * start list names a member's linked person, edited when the start time changes; "your result is
 * in" once per race, edited on corrections. The DMs themselves are rendered in `src/render/dms.ts`.
 *
 * It reads the same club start lists and result lists as the club feeds (`fetchClubStartLists`,
 * `fetchClubResults`, with the same windows), so run in the same tick (the registry lists it after
 * them) they are answered from the shared Eventor client's cache. Each DM goes through the
 * exactly-once `Poster` with the member's DM channel as its channel, under one ledger feed per
 * member, kind and linked person (`personalFeed`): the first run after a member subscribes, or
 * links another person, seeds that feed instead of sending what was already out (a start time
 * already out is still sent if it moves before the race). Before the first DM of a run, the member
 * is looked up in the server (`MembershipCheck`): someone who left gets nothing and is forgotten
 * there. It follows the results feed's quiet hours (nobody wants a DM at 3 a.m. either) and cadence.
 * The day-before reminder ("tomorrow 10:32, H21, <event>") is due from `DAY_BEFORE_HOUR` local
 * time on the day before a race a linked person entered, until that day ends; it is asked of
 * Eventor only then, and only when a member wants it (`fetchDayBefore`). It is not seeded: a
 * member who turns it on that evening still gets tomorrow's.
 * A result DM carries the runner's own split pictures and analysis (`withRunnerPictures`), made only
 * when it is sent or edited: the event's complete results with split times are asked for then, so
 * an unchanged DM costs no request. Its hash is the DM's text, so a correction of the runner's own
 * result edits it with new pictures; a change elsewhere in the class does not.
 */
import { millisecondsInDay as DAY } from 'date-fns/constants';
import { type APIChannel, type Client, DiscordAPIError, Routes } from 'discord.js';
import { classNamesFor, clubEntries, entriesOf, eventsOfEntries, nextRacesOf } from '../../../club/next-races.js';
import type { Entry, Event, ResultList, StartList } from '../../../eventor/answers.js';
import type { EventorClient } from '../../../eventor/client.js';
import { type Language, languageFor } from '../../../i18n/index.js';
import type { Logger } from '../../../log/logger.js';
import { type PersonalDm, type PersonalRenderOptions, renderResultDms, renderStartDms } from '../../../render/dms.js';
import { type MessagePayload, personNameText, type RenderContext } from '../../../render/index.js';
import { type NextRace, renderDayBeforeDm } from '../../../render/next.js';
import { addDays } from '../../../time/days.js';
import { instantToLocal } from '../../../time/zones.js';
import type { Store } from '../../../store/interfaces.js';
import { raceDayCadence } from '../../cadence.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import type { Ledger } from '../../delivery/ledger.js';
import { Poster, type PosterHooks, type PostOutcome } from '../../delivery/poster.js';
import {
  type Feed,
  type FeedContext,
  type FeedRunScope,
  type MembershipCheck,
  postCounts,
  runScopeOf,
} from '../../feed.js';
import {
  EVENTOR_DM_KINDS,
  MEMBER_DMS_NAMESPACE,
  type NotifyKind,
  type NotifyPause,
  personalFeed,
  Subscriptions,
} from '../../subscriptions.js';
import { fetchClubResults, RESULTS_FEED, RESULTS_LOOKBACK_DAYS } from '../results/results.js';
import { listsPerEvent } from '../../club-lists.js';
import { eventResultsWithSplits, listOfRaceKey, withRunnerPictures } from '../results/split-pictures.js';
import { fetchClubStartLists, STARTLISTS_WINDOW_DAYS } from '../startlists/startlists.js';

export type { MemberStatus, MembershipCheck } from '../../feed.js';
export { personalFeed } from '../../subscriptions.js';

export interface PersonalItem {
  itemKey: string;
  eventId: string;
  /** The race (`raceKey`): which race's split times a result DM shows. */
  race: string;
  payload: MessagePayload;
  contentHash: string;
  /** Start times already out when the DMs started are still sent once they change (see `FeedItem.followSeeded`). */
  followSeeded?: boolean;
}

function itemOf(kind: 'start' | 'result', dm: PersonalDm, followSeeded: boolean): PersonalItem {
  return {
    itemKey: ledgerKey(kind, dm.eventId, dm.race),
    eventId: dm.eventId,
    race: dm.race,
    payload: dm.payload,
    contentHash: contentHash(dm.payload),
    ...(followSeeded ? { followSeeded } : {}),
  };
}

/**
 * The DMs "your start time is out" for one linked person, keyed `start:<eventId>:<race>`. Only
 * races still to come get a DM, so a moved start time is always news: followed even when seeded.
 */
export function personalStartItems(
  lists: readonly StartList[],
  ctx: RenderContext,
  options: PersonalRenderOptions,
): PersonalItem[] {
  return renderStartDms(lists, ctx, options).map((dm) => itemOf('start', dm, true));
}

/** The DMs "your result is in" for one linked person, keyed `result:<eventId>:<race>`. */
export function personalResultItems(
  lists: readonly ResultList[],
  ctx: RenderContext,
  options: PersonalRenderOptions,
): PersonalItem[] {
  return renderResultDms(lists, ctx, options).map((dm) => itemOf('result', dm, false));
}

/** One run for one server: what the scheduler's context holds, minus a channel of its own. */
export interface PersonalRunOptions extends FeedRunScope {
  /** See `FeedRunOptions.full`: false asks only about races close at hand (members whose DMs start now still get a full look). */
  full?: boolean;
  store: Store;
  /** Opens members' DM channels (`POST /users/@me/channels`) and names the server in the DMs. */
  discord: Client;
  log?: Logger;
  /** For tests: see `PosterHooks`. */
  hooks?: PosterHooks;
  /**
   * Asks Discord whether a member is still in the server before anything is sent to them (the
   * bot's `MemberPresence`; the scheduler always passes it). Without it, membership is not checked.
   */
  membership?: MembershipCheck;
}

export interface PersonalRun {
  /** Subscribed members with at least one linked person, looked at in this run. */
  members: number;
  /** Ledger feeds that started in this run (recorded what was out, sent nothing). */
  seeded: string[];
  outcomes: Array<{ userId: string; feed: string; itemKey: string; outcome: PostOutcome }>;
  /** Members whose DMs Discord refused: paused until they run `/notify on` again. */
  paused: Array<{ userId: string; reason: NotifyPause; code: number | string | null }>;
  /** Members whose DMs failed for now (Discord trouble): the next run tries again. */
  failed: Array<{ userId: string; error: unknown }>;
  /** Members who left the server: sent nothing, forgotten there (`MembershipCheck`). */
  left: string[];
  /** Members Discord could not confirm as still in the server: sent nothing, forgotten nothing; the next run asks again. */
  unconfirmed: string[];
}

/** Servers with at least one member whose DMs are on and not paused: the ones to run. */
export function guildsWithSubscribers(store: Store): Promise<string[]> {
  return new Subscriptions(store).guildsWithSubscribers();
}

/** The DM channel between the bot and a user (Discord gives the same one every time). */
export async function openDmChannel(discord: Client, userId: string): Promise<string> {
  const channel = (await discord.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as APIChannel;
  return channel.id;
}

interface Wanted {
  kind: Exclude<NotifyKind, 'live'>;
  personId: string;
  own: boolean;
  feed: string;
}

/** One member's wish: which DMs, about whom, in which language. */
interface Plan {
  userId: string;
  /** The member's language when the run began (their DMs are rendered in it). */
  locale: string | null;
  wanted: Wanted[];
}

/** What one run fetched: who wants which DMs, and the club's lists those need (empty when nobody wants them). */
export interface PersonalFetch {
  plans: Plan[];
  startLists: StartList[];
  resultLists: ResultList[];
  /** What the day-before reminders need (empty outside their hours or when nobody wants them). */
  dayBefore: DayBeforeData;
  /** The server's name, so a member of several servers knows where a DM comes from. */
  server: string | null;
}

/** One DM to one member: the item, and the ledger feed it is recorded under (member, kind, linked person). */
export interface PersonalDmItem extends PersonalItem {
  userId: string;
  feed: string;
  /** A result DM: the DM with the runner's split pictures, made when it is sent (see the module's note). */
  complete?: () => Promise<MessagePayload>;
}

/** The result DM with the runner's own pictures and analysis, from the event's complete results with split times. */
async function resultDmWithPictures(
  client: EventorClient,
  item: PersonalItem,
  personId: string,
  language: Language,
): Promise<MessagePayload> {
  const list = await eventResultsWithSplits(client, item.eventId, null);
  return withRunnerPictures(item.payload, listOfRaceKey(list, item.race), personId, language);
}

/**
 * Who wants DMs now, and the lists for them. Eventor is asked only when some member wants DMs, and
 * only for the kinds wanted; an Eventor failure throws (the scheduler backs off).
 */
export async function fetchPersonal(options: PersonalRunOptions): Promise<PersonalFetch> {
  const { guildId, ledger, now } = options;
  const subscriptions = new Subscriptions(options.store);
  const plans: Plan[] = [];
  for (const sub of await subscriptions.active(guildId)) {
    const persons = await options.store.links.linkedPersons(guildId, sub.userId);
    const wanted: Wanted[] = [];
    for (const kind of EVENTOR_DM_KINDS) {
      if (!sub[kind]) continue;
      for (const person of persons)
        wanted.push({
          kind,
          personId: person.personId,
          own: person.isDefault,
          feed: personalFeed(sub.userId, kind, person.personId),
        });
    }
    // A person unlinked since: their DMs' ledger goes, so a later link starts afresh. The live
    // finish DMs are the live pollers' (kinds/live), kept while wanted about a linked person.
    const keep = new Set(wanted.map((w) => w.feed));
    if (sub.live) for (const person of persons) keep.add(personalFeed(sub.userId, 'live', person.personId));
    for (const feed of await subscriptions.personalFeeds(guildId, sub.userId))
      if (!keep.has(feed)) await subscriptions.dropFeed(guildId, feed);
    if (wanted.length > 0) plans.push({ userId: sub.userId, locale: sub.locale, wanted });
  }
  const server =
    options.discord.guilds.cache.get(guildId)?.name ??
    (await options.store.servers.guildSettings(guildId))?.organisationName ??
    null;
  if (plans.length === 0) return { plans, startLists: [], resultLists: [], dayBefore: NO_DAY_BEFORE, server };

  const all = plans.flatMap((p) => p.wanted);
  const unstarted = new Set<Wanted['kind']>();
  for (const w of all)
    if (!unstarted.has(w.kind) && (await ledger.feedStartedAt(guildId, w.feed)) === null) unstarted.add(w.kind);
  const starting = (kind: Wanted['kind']): boolean => unstarted.has(kind);
  // A feed that starts now needs the whole window, or an older item would seem new on the next full run.
  let startLists: StartList[] = [];
  if (all.some((w) => w.kind === 'starts')) {
    startLists = await fetchClubStartLists(
      options.client,
      options.organisationId,
      now,
      STARTLISTS_WINDOW_DAYS,
      options.full === false && !starting('starts'),
      options.log,
      options.club,
    );
  }
  let resultLists: ResultList[] = [];
  if (all.some((w) => w.kind === 'results')) {
    resultLists = await fetchClubResults(
      options.client,
      options.organisationId,
      now,
      RESULTS_LOOKBACK_DAYS,
      options.full === false && !starting('results'),
      options.log,
      options.club,
    );
  }
  const tomorrowOf = all.filter((w) => w.kind === 'tomorrow');
  const dayBefore =
    tomorrowOf.length > 0 && dayBeforeDue(now, options.timeZone)
      ? await fetchDayBefore(options, tomorrowOf)
      : NO_DAY_BEFORE;
  return { plans, startLists, resultLists, dayBefore, server };
}

/**
 * The local hour, in the server's time zone, from which the day-before reminder is sent: the evening
 * before, when start lists are usually out (docs/members.md#dms-about-your-starts-and-results-notify).
 */
export const DAY_BEFORE_HOUR = 18;

/** Whether it is the evening of a day before: from `DAY_BEFORE_HOUR` until midnight, local time. */
export function dayBeforeDue(now: Date, timeZone: string): boolean {
  return Number(instantToLocal(now, timeZone).clock.slice(0, 2)) >= DAY_BEFORE_HOUR;
}

/** Whether a race is on the local day after `now`'s. */
function isTomorrow(race: NextRace, now: Date, timeZone: string): boolean {
  const at = race.start ?? race.at;
  if (at === null) return false;
  return instantToLocal(at, timeZone).date === addDays(instantToLocal(now, timeZone).date, 1);
}

/** The club's entries, events, start lists and class names of tomorrow's races, and names of the persons. */
export interface DayBeforeData {
  entries: readonly Entry[];
  events: readonly Event[];
  startLists: readonly StartList[];
  classNames: ReadonlyMap<string, string>;
  names: ReadonlyMap<string, string>;
}

const NO_DAY_BEFORE: DayBeforeData = {
  entries: [],
  events: [],
  startLists: [],
  classNames: new Map(),
  names: new Map(),
};

/**
 * What tomorrow's reminders need, asked once an hour for the club when the scheduler gives its
 * share: around race days the DMs run every 5 minutes, and a start time that comes out within the
 * hour is edited in at the next (docs/members.md#dms-about-your-starts-and-results-notify).
 */
function fetchDayBefore(options: PersonalRunOptions, wanted: readonly Wanted[]): Promise<DayBeforeData> {
  if (!options.club) return askDayBefore(options, wanted);
  const who = [...new Set(wanted.map((w) => (w.own ? w.personId : `${w.personId}+name`)))].sort();
  return options.club.forTheHour(`day-before:${options.timeZone}:${who.join(',')}`, () =>
    askDayBefore(options, wanted),
  );
}

/**
 * What tomorrow's reminders need, asked of Eventor. The club's entries with the feeds' shared
 * window (the run's entries request, from the cache); the entered events from the club's share
 * when the scheduler gave one (no request), else one `/events`; the club's start list of each of
 * tomorrow's events (the start list feed asks the same, so the cache answers one of the two);
 * class names only for entries no start list names; the club's member list (kept a day) only to
 * name another person.
 */
async function askDayBefore(options: PersonalRunOptions, wanted: readonly Wanted[]): Promise<DayBeforeData> {
  const { client, organisationId, now, timeZone } = options;
  const personIds = [...new Set(wanted.map((w) => w.personId))];
  const mine = [...entriesOf(await clubEntries(client, organisationId, now), personIds).values()].flat();
  if (mine.length === 0) return NO_DAY_BEFORE;
  // From six days back: a multi-day event that began earlier can race tomorrow.
  const events = options.club
    ? await options.club.enteredEventList(now.getTime() - 6 * DAY, now.getTime() + 2 * DAY)
    : await eventsOfEntries(client, mine);
  const soon = nextRacesOf({ entries: mine, events, startLists: [], classNames: new Map() }, personIds, now).filter(
    (race) => race.event.status !== 'canceled' && isTomorrow(race, now, timeZone),
  );
  if (soon.length === 0) return NO_DAY_BEFORE;
  const tomorrowEvents = [...new Map(soon.map((r) => [r.event.id, r.event])).values()];
  const startLists = await listsPerEvent(
    tomorrowEvents,
    async (event) => {
      const list = await client.organisationStarts({ organisationIds: [organisationId], eventId: event.id });
      return list.classes.length === 0 ? null : list;
    },
    options.log,
    'start list',
  );
  const ids = new Set(tomorrowEvents.map((e) => e.id));
  const entries = mine.filter((e) => ids.has(e.event.id ?? e.event.event?.id ?? ''));
  const named = nextRacesOf({ entries, events: tomorrowEvents, startLists, classNames: new Map() }, personIds, now);
  const classNames = await classNamesFor(client, entries, (entry) =>
    named.some((r) => r.event.id === (entry.event.id ?? entry.event.event?.id) && r.className !== null),
  );
  const names = new Map<string, string>();
  if (wanted.some((w) => !w.own)) {
    try {
      for (const person of await client.call('persons', { organisationId }))
        if (person.id !== null && personIds.includes(person.id)) names.set(person.id, personNameText(person.name));
    } catch (error) {
      options.log?.warn('the member list failed; reminders name the person by id', { error });
    }
  }
  return { entries, events: tomorrowEvents, startLists, classNames, names };
}

/** The day-before reminders of one linked person, keyed `tomorrow:<eventId>:<race>`: pure. */
export function dayBeforeItems(
  data: DayBeforeData,
  ctx: RenderContext,
  options: PersonalRenderOptions,
): PersonalItem[] {
  if (data.entries.length === 0 || !dayBeforeDue(ctx.now, ctx.timeZone)) return [];
  return nextRacesOf(data, [options.personId], ctx.now)
    .filter((race) => race.event.status !== 'canceled' && isTomorrow(race, ctx.now, ctx.timeZone))
    .map((race) => {
      const payload = renderDayBeforeDm(race, ctx, {
        own: options.own,
        personName: data.names.get(race.personId) ?? race.personId,
        server: options.server,
      });
      const raceId = race.race?.id ?? 'event';
      return {
        itemKey: ledgerKey('tomorrow', race.event.id, raceId),
        eventId: race.event.id,
        race: raceId,
        payload,
        contentHash: contentHash(payload),
      };
    });
}

/** Pure: every DM the lists make for every member who wants it, in the member's language. */
export function personalItems(
  data: PersonalFetch,
  options: Pick<PersonalRunOptions, 'client' | 'now' | 'timeZone'>,
): PersonalDmItem[] {
  const items: PersonalDmItem[] = [];
  for (const plan of data.plans) {
    const ctx: RenderContext = {
      language: languageFor(plan.locale),
      timeZone: options.timeZone,
      now: options.now,
      webUrl: options.client.instance.webUrl,
    };
    for (const want of plan.wanted) {
      const render = { personId: want.personId, own: want.own, server: data.server };
      const made =
        want.kind === 'starts'
          ? personalStartItems(data.startLists, ctx, render)
          : want.kind === 'results'
            ? personalResultItems(data.resultLists, ctx, render)
            : dayBeforeItems(data.dayBefore, ctx, render);
      for (const item of made) {
        const complete =
          want.kind === 'results'
            ? { complete: () => resultDmWithPictures(options.client, item, want.personId, ctx.language) }
            : {};
        items.push({ ...item, userId: plan.userId, feed: want.feed, ...complete });
      }
    }
  }
  return items;
}

/**
 * Each DM to its member. Discord refusing a member's DMs pauses that member (no
 * retries until they turn DMs on again); other Discord failures leave the member for the next run.
 * Members never hold each other up.
 */
export async function deliverPersonal(
  items: readonly PersonalDmItem[],
  { plans }: PersonalFetch,
  options: PersonalRunOptions,
): Promise<PersonalRun> {
  const { ledger } = options;
  const run: PersonalRun = {
    members: plans.length,
    seeded: [],
    outcomes: [],
    paused: [],
    failed: [],
    left: [],
    unconfirmed: [],
  };
  if (plans.length === 0) return run;
  const subscriptions = new Subscriptions(options.store);
  const poster = new Poster(ledger, options.target, options.hooks);
  for (const plan of plans) {
    await runMember(
      plan,
      items.filter((item) => item.userId === plan.userId),
      { options, subscriptions, poster, ledger, run },
    );
  }
  return run;
}

/** One run of the personal DMs for one server. */
export async function runPersonalNotifications(options: PersonalRunOptions): Promise<PersonalRun> {
  const data = await fetchPersonal(options);
  return deliverPersonal(personalItems(data, options), data, options);
}

interface MemberRun {
  options: PersonalRunOptions;
  subscriptions: Subscriptions;
  poster: Poster;
  ledger: Ledger;
  run: PersonalRun;
}

async function runMember(
  { userId, wanted }: Plan,
  memberItems: readonly PersonalDmItem[],
  m: MemberRun,
): Promise<void> {
  const { options, subscriptions, run } = m;
  const { guildId } = options;
  // Read again: the member may have used /notify or /forget-me while Eventor was answering.
  const sub = await subscriptions.get(guildId, userId);
  if (!sub || sub.pausedReason !== null) return;
  let channelId = sub.dmChannelId;
  let confirmed = options.membership === undefined;
  for (const want of wanted) {
    if (!sub[want.kind]) continue;
    const items = memberItems.filter((item) => item.feed === want.feed);
    if ((await m.ledger.feedStartedAt(guildId, want.feed)) === null) {
      // Seeded rows are never sent, so the channel they name does not matter yet. A reminder is
      // due only the evening before, so one due now is no backlog: it is started empty and sent.
      const reminder = want.kind === 'tomorrow';
      await m.ledger.seed(guildId, want.feed, channelId ?? '', reminder ? [] : items);
      run.seeded.push(want.feed);
      if (!reminder) continue;
    }
    if (items.length === 0) continue;
    if (!confirmed) {
      // Someone who left the server gets nothing more from it (asked once per run, and Discord's
      // "yes" is believed for an hour).
      const status = await options.membership!.verify(guildId, userId);
      if (status === 'left') {
        run.left.push(userId);
        return;
      }
      if (status === 'unknown') {
        run.unconfirmed.push(userId);
        return;
      }
      confirmed = true;
    }
    if (channelId === null) {
      try {
        channelId = await openDmChannel(options.discord, userId);
      } catch (error) {
        if (error instanceof DiscordAPIError && error.status >= 400 && error.status < 500 && error.status !== 429) {
          await pauseMember(m, userId, 'dm-unavailable', error.code);
        } else {
          run.failed.push({ userId, error });
          options.log?.warn("could not open a member's DM channel; trying again on the next run", {
            guildId,
            userId,
            error,
          });
        }
        return;
      }
      await subscriptions.setDmChannel(guildId, userId, channelId);
    }
    for (const item of items) {
      const ref = { guildId, feed: want.feed, itemKey: item.itemKey };
      // A member of two servers of the club (each with /notify on) gets each DM once: a DM this
      // server would send (new, or a followed item that changed) but the other server sent (or is
      // sending, and edits) is recorded here as accounted for.
      const row = await m.ledger.get(ref);
      const wouldSend =
        row === null || (row.state === 'seeded' && item.followSeeded === true && row.contentHash !== item.contentHash);
      if (wouldSend && (await m.ledger.postedElsewhere(ref))) {
        if (row === null) await m.ledger.seed(guildId, want.feed, channelId, [item]);
        else await m.ledger.updateHash(ref, item.contentHash);
        run.outcomes.push({ userId, feed: want.feed, itemKey: item.itemKey, outcome: { kind: 'seeded' } });
        continue;
      }
      const outcome = await m.poster.publish({
        guildId,
        feed: want.feed,
        itemKey: item.itemKey,
        channelId,
        payload: item.payload,
        contentHash: item.contentHash,
        ...(item.followSeeded ? { followSeeded: true } : {}),
        ...(item.complete ? { complete: item.complete } : {}),
      });
      run.outcomes.push({ userId, feed: want.feed, itemKey: item.itemKey, outcome });
      if (outcome.kind === 'paused') {
        // Discord counts refused requests against the bot (10 000 per 10 minutes): no retry until the member says so.
        if (outcome.reason === 'channel-gone') await subscriptions.setDmChannel(guildId, userId, null);
        await pauseMember(m, userId, outcome.reason === 'channel-gone' ? 'dm-unavailable' : 'dms-closed', outcome.code);
        return;
      }
      if (outcome.kind === 'failed') {
        run.failed.push({ userId, error: outcome.error });
        options.log?.warn('a personal DM failed; trying again on the next run', {
          guildId,
          userId,
          error: outcome.error,
        });
        return;
      }
    }
  }
}

async function pauseMember(
  m: MemberRun,
  userId: string,
  reason: NotifyPause,
  code: number | string | null,
): Promise<void> {
  const { guildId } = m.options;
  await m.subscriptions.pause(guildId, userId, reason);
  m.run.paused.push({ userId, reason, code });
  // Only the code: Discord's error carries the request body, the DM's text included.
  m.options.log?.warn('personal DMs paused: Discord refused them', { guildId, userId, reason, code });
}

function personalRunOptions(ctx: FeedContext): PersonalRunOptions {
  return {
    ...runScopeOf(ctx),
    full: ctx.full,
    store: ctx.store,
    discord: ctx.discord,
    log: ctx.log,
    membership: ctx.membership,
  };
}

/**
 * Members' DMs as a feed: at the results' cadence, in the results' quiet hours, in the servers with
 * a subscribed member. A member Discord refuses is paused alone (the run says so itself); an
 * Eventor failure backs off like any feed, without telling anyone (a refused key is the club
 * feeds' to report).
 */
export const personalDmsFeed: Feed<PersonalFetch, PersonalDmItem> = {
  name: MEMBER_DMS_NAMESPACE,
  settingsOf: RESULTS_FEED,
  audience: 'members',
  servers: guildsWithSubscribers,
  cadence: raceDayCadence,
  fetch: (ctx) => fetchPersonal(personalRunOptions(ctx)),
  items: personalItems,
  deliver: async (items, data, ctx) => {
    const run = await deliverPersonal(items, data, personalRunOptions(ctx));
    return { outcome: 'ok', ...postCounts(run.outcomes) };
  },
};
