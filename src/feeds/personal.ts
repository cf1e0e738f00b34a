/**
 * Personal DMs (`/notify`): "your start time is out" once per race when the start list names a
 * member's linked person, edited when the start time changes; "your result is in" once per race,
 * edited on corrections. Pure item builders plus the run for one server.
 *
 * The run reads the same club start lists and result lists as the club feeds (`fetchClubStartLists`,
 * `fetchClubResults`, with the same windows), so run in the same tick they are answered from the
 * shared Eventor client's cache. Each DM goes through the exactly-once `Poster` with the member's DM
 * channel as its channel, under one ledger feed per member, kind and linked person
 * (`personalFeed`): the first run after a member subscribes, or links another person, seeds that
 * feed instead of sending what was already out (a start time already out is still sent if it moves
 * before the race). Before the first DM of a run, the member is looked up in the server
 * (`MembershipCheck`): someone who left gets nothing and is forgotten there.
 */
import { DiscordAPIError, Routes, type APIChannel, type APIEmbed, type APIEmbedField, type Client } from 'discord.js';
import type { EventRef, RaceResult, RaceStart, ResultList, ResultStatus, StartList } from '../eventor/model.js';
import { languageFor, t, type Language } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import {
  discordTimestamp, escapeName, eventUrl, fitPayload, formatBehind, formatClock, formatElapsed, formatStatus, isHiddenStatus,
  personNameText, plainText, truncate, type MessagePayload, type RenderContext,
} from '../render/index.js';
import { COLOURS } from '../render/pages.js';
import { raceKey, raceLabel } from '../render/races.js';
import type { Store } from '../store/store.js';
import type { Ledger } from './ledger.js';
import { Poster, type PostOutcome, type PosterHooks } from './poster.js';
import type { FeedRunContext } from './registry.js';
import { contentHash } from './common.js';
import { fetchClubResults, RESULTS_LOOKBACK_DAYS } from './results.js';
import { fetchClubStartLists, STARTLISTS_WINDOW_DAYS } from './startlists.js';
import { personalFeed, SubscriptionStore, type NotifyKind, type NotifyPause } from './subscriptions.js';

export { personalFeed } from './subscriptions.js';

export interface PersonalItem {
  itemKey: string;
  eventId: string;
  payload: MessagePayload;
  contentHash: string;
  /** Start times already out when the DMs started are still sent once they change (see `FeedItem.followSeeded`). */
  followSeeded?: boolean;
}

export interface PersonalRenderOptions {
  personId: string;
  /** The member's default person: the DM says "your"; other linked persons (a child) are named. */
  own: boolean;
  /** The server's name, so a member of several servers knows where a DM comes from. */
  server: string | null;
}

const NUMBER_LOCALES: Record<Language, string> = { en: 'en-GB', sv: 'sv-SE', nb: 'nb-NO' };
const MEDALS = ['🥇', '🥈', '🥉'] as const;

function eventIdOf(ref: EventRef): string | null {
  return ref.id ?? ref.event?.id ?? null;
}

function eventTitle(ref: EventRef, eventId: string): string {
  return escapeName(ref.event?.name ?? ref.name ?? eventId);
}

/** "Stage 2" (or the race's own name) when the event has several races, else nothing. */
function raceSuffix(race: { raceId: string | null; raceNumber: number | null }, ref: EventRef, language: Language, besideLeg: boolean): string | null {
  const races = ref.event?.races ?? [];
  if (races.length <= 1 && (race.raceNumber ?? 1) <= 1) return null;
  return raceLabel(race, ref, language, { besideLeg });
}

function field(name: string, value: string, inline = true): APIEmbedField {
  return { name, value, inline };
}

function courseText(start: Pick<RaceStart, 'course'>, language: Language): string | null {
  const course = start.course;
  if (!course) return null;
  const parts = [
    course.name ? escapeName(course.name) : '',
    course.length !== null ? `${new Intl.NumberFormat(NUMBER_LOCALES[language], { maximumFractionDigits: 1 }).format(course.length / 1000)} km` : '',
    course.climb !== null && course.climb > 0 ? t(language, 'notify.dm.climb', { climb: course.climb }) : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' · ') : null;
}

function cardText(start: Pick<RaceStart, 'cards'>): string | null {
  const card = start.cards[0];
  if (!card) return null;
  return card.type ? `${escapeName(card.number)} (${escapeName(card.type)})` : escapeName(card.number);
}

function footer(server: string | null, language: Language): APIEmbed['footer'] | undefined {
  return server ? { text: t(language, 'notify.dm.footer', { server: plainText(server, 100) }) } : undefined;
}

function upcoming(instant: string | null, ctx: RenderContext): instant is string {
  return instant !== null && Date.parse(instant) > ctx.now.getTime();
}

interface StartFacts {
  list: StartList;
  eventId: string;
  className: string;
  personName: string;
  start: RaceStart;
  /** The start time shown: the member's own, else (later relay legs) the team's. */
  time: string;
  teamStart: boolean;
  team: { name: string | null; leg: number | null; bib: string | null } | null;
}

function startPayload(facts: StartFacts, ctx: RenderContext, options: PersonalRenderOptions): MessagePayload {
  const { language } = ctx;
  const event = eventTitle(facts.list.event, facts.eventId);
  const race = raceSuffix(facts.start, facts.list.event, language, facts.team?.leg != null);
  const when = t(language, 'notify.dm.startValue', {
    clock: formatClock(facts.time, ctx), zone: ctx.timeZone, date: discordTimestamp(facts.time, 'D'), relative: discordTimestamp(facts.time, 'R'),
  });
  const fields = [
    field(t(language, 'notify.dm.field.class'), `**${escapeName(facts.className)}**`),
    field(t(language, 'notify.dm.field.start'), facts.teamStart ? t(language, 'notify.dm.teamStart', { time: when }) : when, false),
  ];
  if (facts.team) {
    const leg = facts.team.leg !== null ? t(language, 'render.leg', { leg: facts.team.leg }) : '';
    fields.push(field(t(language, 'notify.dm.field.team'), [escapeName(facts.team.name ?? '?'), leg].filter((p) => p !== '').join(' · ')));
  }
  const bib = facts.start.bibNumber ?? facts.team?.bib ?? null;
  if (bib) fields.push(field(t(language, 'notify.dm.field.bib'), escapeName(bib)));
  const course = courseText(facts.start, language);
  if (course) fields.push(field(t(language, 'notify.dm.field.course'), course));
  const card = cardText(facts.start);
  if (card) fields.push(field(t(language, 'notify.dm.field.card'), card));
  const content = t(language, options.own ? 'notify.dm.start.own' : 'notify.dm.start.other', {
    event: truncate(race ? `${event} – ${race}` : event, 200), person: escapeName(facts.personName),
  });
  const foot = footer(options.server, language);
  return fitPayload({
    content,
    embeds: [{
      title: truncate(race ? `${event} – ${race}` : event, 256), url: eventUrl(ctx, facts.eventId), color: COLOURS.starts, fields,
      ...(foot ? { footer: foot } : {}),
    }],
  });
}

/**
 * The DMs "your start time is out" for one linked person: one per race still to be run in which the
 * club's start lists give them a start time (a relay leg without its own time: the team's start).
 * Pure; keys `start:<eventId>:<race>`, hashes of what the DM shows (a moved start time changes it:
 * the DM is edited, or sent if the start time was out before the member's DMs started).
 */
export function personalStartItems(lists: readonly StartList[], ctx: RenderContext, options: PersonalRenderOptions): PersonalItem[] {
  const items = new Map<string, PersonalItem>();
  const add = (facts: StartFacts): void => {
    const itemKey = `start:${facts.eventId}:${raceKey(facts.start)}`;
    if (items.has(itemKey)) return;
    const payload = startPayload(facts, ctx, options);
    // Only races still to come get here: a moved start time is news worth a DM.
    items.set(itemKey, { itemKey, eventId: facts.eventId, payload, contentHash: contentHash(payload), followSeeded: true });
  };
  for (const list of lists) {
    const eventId = eventIdOf(list.event);
    if (eventId === null) continue;
    for (const classStart of list.classes) {
      for (const person of classStart.persons) {
        if (person.person?.id !== options.personId) continue;
        for (const start of person.starts) {
          if (!upcoming(start.startTime, ctx)) continue;
          add({ list, eventId, className: classStart.class.name, personName: personNameText(person.person.name), start, time: start.startTime, teamStart: false, team: null });
        }
      }
      for (const team of classStart.teams) {
        for (const member of team.members) {
          if (member.person?.id !== options.personId) continue;
          const time = member.start.startTime ?? team.startTime;
          if (!upcoming(time, ctx)) continue;
          add({
            list, eventId, className: classStart.class.name, personName: personNameText(member.person.name), start: member.start, time,
            teamStart: member.start.startTime === null, team: { name: team.name, leg: member.leg, bib: team.bibNumber },
          });
        }
      }
    }
  }
  return [...items.values()];
}

/** A result worth a DM: the runner is done (or did not start), and in this class and race. */
function isIn(status: ResultStatus): boolean {
  return status !== 'Active' && status !== 'Inactive' && !isHiddenStatus(status);
}

type Standing = Pick<RaceResult, 'time' | 'timeBehind' | 'position' | 'status'>;

/** Place (with a medal on the podium and "of N" when the starters are known), time, time behind; or the status. */
function standingFields(s: Standing, starters: number | null, language: Language): APIEmbedField[] {
  if (s.status === 'OK') {
    const out: APIEmbedField[] = [];
    if (s.position !== null && s.position > 0) {
      const medal = s.position <= 3 ? `${MEDALS[s.position - 1]} ` : '';
      const place = starters ? t(language, 'notify.dm.placeOf', { place: s.position, starters }) : String(s.position);
      out.push(field(t(language, 'notify.dm.field.place'), `${medal}**${place}**`));
    }
    if (s.time !== null) out.push(field(t(language, 'notify.dm.field.time'), `**${formatElapsed(s.time)}**`));
    const behind = formatBehind(s.timeBehind);
    if (behind !== '') out.push(field(t(language, 'notify.dm.field.behind'), behind));
    return out;
  }
  const out = [field(t(language, 'notify.dm.field.status'), `**${formatStatus(s.status, language)}**`)];
  if ((s.status === 'Finished' || s.status === 'NotCompeting') && s.time !== null) out.push(field(t(language, 'notify.dm.field.time'), formatElapsed(s.time)));
  return out;
}

function standingLine(s: Standing, language: Language): string {
  if (s.status !== 'OK') return formatStatus(s.status, language);
  return [s.position ? `${s.position}.` : '', s.time !== null ? formatElapsed(s.time) : '', formatBehind(s.timeBehind)].filter((p) => p !== '').join(' ');
}

interface ResultFacts {
  list: ResultList;
  eventId: string;
  className: string;
  noTimes: boolean;
  starters: number | null;
  personName: string;
  result: RaceResult;
  team: { name: string; leg: number | null; standing: Standing } | null;
}

function resultPayload(facts: ResultFacts, ctx: RenderContext, options: PersonalRenderOptions): MessagePayload {
  const { language } = ctx;
  const event = eventTitle(facts.list.event, facts.eventId);
  const race = raceSuffix(facts.result, facts.list.event, language, facts.team?.leg != null);
  const fields = [field(t(language, 'notify.dm.field.class'), `**${escapeName(facts.className)}**`)];
  if (facts.team) {
    const leg = facts.team.leg !== null ? t(language, 'render.leg', { leg: facts.team.leg }) : '';
    const standing = facts.noTimes ? '' : standingLine(facts.team.standing, language);
    fields.push(field(t(language, 'notify.dm.field.team'), [escapeName(facts.team.name), leg, standing].filter((p) => p !== '').join(' · '), false));
  }
  if (facts.noTimes) {
    fields.push(field(t(language, 'notify.dm.field.status'), facts.result.status === 'OK' ? '✓' : `**${formatStatus(facts.result.status, language)}**`));
  } else {
    fields.push(...standingFields(facts.result, facts.team ? null : facts.starters, language));
    const overall = facts.result.overall;
    if (overall && race) fields.push(field(t(language, 'notify.dm.field.overall'), standingLine(overall, language), false));
  }
  const content = t(language, options.own ? 'notify.dm.result.own' : 'notify.dm.result.other', {
    event: truncate(race ? `${event} – ${race}` : event, 200), person: escapeName(facts.personName),
  });
  const foot = footer(options.server, language);
  return fitPayload({
    content,
    embeds: [{
      title: truncate(race ? `${event} – ${race}` : event, 256), url: eventUrl(ctx, facts.eventId), color: COLOURS.results, fields,
      ...(facts.noTimes ? { description: t(language, 'notify.dm.noTimes') } : {}),
      ...(foot ? { footer: foot } : {}),
    }],
  });
}

/**
 * The DMs "your result is in" for one linked person: one per race in the club's result lists where
 * they have a result (not while still out on the course). Pure; keys `result:<eventId>:<race>`,
 * hashes of what the DM shows (a correction changes it).
 */
export function personalResultItems(lists: readonly ResultList[], ctx: RenderContext, options: PersonalRenderOptions): PersonalItem[] {
  const items = new Map<string, PersonalItem>();
  const add = (facts: ResultFacts): void => {
    const itemKey = `result:${facts.eventId}:${raceKey(facts.result)}`;
    if (items.has(itemKey)) return;
    const payload = resultPayload(facts, ctx, options);
    items.set(itemKey, { itemKey, eventId: facts.eventId, payload, contentHash: contentHash(payload) });
  };
  for (const list of lists) {
    const eventId = eventIdOf(list.event);
    if (eventId === null) continue;
    for (const classResult of list.classes) {
      const base = { list, eventId, className: classResult.class.name, noTimes: classResult.class.resultListMode === 'UnorderedNoTimes', starters: classResult.numberOfStarts };
      for (const person of classResult.persons) {
        if (person.person?.id !== options.personId) continue;
        for (const result of person.results) {
          if (!isIn(result.status)) continue;
          add({ ...base, personName: personNameText(person.person.name), result, team: null });
        }
      }
      for (const team of classResult.teams) {
        for (const member of team.members) {
          if (member.person?.id !== options.personId || !isIn(member.result.status)) continue;
          add({ ...base, personName: personNameText(member.person.name), result: member.result, team: { name: team.name, leg: member.leg, standing: team } });
        }
      }
    }
  }
  return [...items.values()];
}

/** One run for one server: the scheduler's run context (minus the club feeds' channel and kind), plus the store and the Discord client. */
export interface PersonalRunOptions extends Pick<FeedRunContext, 'guildId' | 'client' | 'organisationId' | 'ledger' | 'target' | 'now' | 'language' | 'timeZone'> {
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

/** Whether a user is in a server: `left` (Discord said Unknown Member), or `unknown` (Discord could not say). */
export type MemberStatus = 'present' | 'left' | 'unknown';

export interface MembershipCheck {
  /** `left` means the member has already been forgotten in that server; `unknown` changes nothing. */
  verify(guildId: string, userId: string): Promise<MemberStatus>;
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
export function guildsWithSubscribers(store: Store): string[] {
  return new SubscriptionStore(store).guildsWithSubscribers();
}

/** The DM channel between the bot and a user (Discord gives the same one every time). */
export async function openDmChannel(discord: Client, userId: string): Promise<string> {
  const channel = (await discord.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as APIChannel;
  return channel.id;
}

interface Wanted {
  kind: NotifyKind;
  personId: string;
  own: boolean;
  feed: string;
}

/**
 * One run of the personal DMs for one server. Eventor is asked only when some member wants DMs,
 * and only for the kinds wanted; an Eventor failure throws (the scheduler backs off). Discord
 * refusing a member's DMs pauses that member (no retries until they turn DMs on again); other
 * Discord failures leave the member for the next run. Members never hold each other up.
 */
export async function runPersonalNotifications(options: PersonalRunOptions): Promise<PersonalRun> {
  const { guildId, ledger, now } = options;
  const subscriptions = new SubscriptionStore(options.store, () => now);
  const run: PersonalRun = { members: 0, seeded: [], outcomes: [], paused: [], failed: [], left: [], unconfirmed: [] };
  const plans: Array<{ userId: string; wanted: Wanted[] }> = [];
  for (const sub of subscriptions.active(guildId)) {
    const persons = options.store.linkedPersons(guildId, sub.userId);
    const wanted: Wanted[] = [];
    for (const kind of ['starts', 'results'] as const) {
      if (!sub[kind]) continue;
      for (const person of persons) wanted.push({ kind, personId: person.personId, own: person.isDefault, feed: personalFeed(sub.userId, kind, person.personId) });
    }
    // A person unlinked since: their DMs' ledger goes, so a later link starts afresh.
    const keep = new Set(wanted.map((w) => w.feed));
    for (const feed of subscriptions.personalFeeds(guildId, sub.userId)) if (!keep.has(feed)) subscriptions.dropFeed(guildId, feed);
    if (wanted.length > 0) plans.push({ userId: sub.userId, wanted });
  }
  run.members = plans.length;
  if (plans.length === 0) return run;

  const all = plans.flatMap((p) => p.wanted);
  const starting = (kind: NotifyKind): boolean => all.some((w) => w.kind === kind && ledger.feedStartedAt(guildId, w.feed) === null);
  // A feed that starts now needs the whole window, or an older item would seem new on the next full run.
  let startLists: StartList[] = [];
  if (all.some((w) => w.kind === 'starts')) {
    startLists = await fetchClubStartLists(options.client, options.organisationId, now, STARTLISTS_WINDOW_DAYS, options.full === false && !starting('starts'), options.log);
  }
  let resultLists: ResultList[] = [];
  if (all.some((w) => w.kind === 'results')) {
    resultLists = await fetchClubResults(options.client, options.organisationId, now, RESULTS_LOOKBACK_DAYS, options.full === false && !starting('results'), options.log);
  }

  const server = options.discord.guilds.cache.get(guildId)?.name ?? options.store.guildSettings(guildId)?.organisationName ?? null;
  const poster = new Poster(ledger, options.target, options.hooks);
  for (const plan of plans) {
    await runMember(plan.userId, plan.wanted, { options, subscriptions, poster, ledger, startLists, resultLists, server, run });
  }
  return run;
}

interface MemberRun {
  options: PersonalRunOptions;
  subscriptions: SubscriptionStore;
  poster: Poster;
  ledger: Ledger;
  startLists: readonly StartList[];
  resultLists: readonly ResultList[];
  server: string | null;
  run: PersonalRun;
}

async function runMember(userId: string, wanted: readonly Wanted[], m: MemberRun): Promise<void> {
  const { options, subscriptions, run } = m;
  const { guildId, now } = options;
  // Read again: the member may have used /notify or /forget-me while Eventor was answering.
  const sub = subscriptions.get(guildId, userId);
  if (!sub || sub.pausedReason !== null) return;
  const ctx: RenderContext = { language: languageFor(sub.locale), timeZone: options.timeZone, now, webUrl: options.client.instance.webUrl };
  let channelId = sub.dmChannelId;
  let confirmed = options.membership === undefined;
  for (const want of wanted) {
    if (!sub[want.kind]) continue;
    const render = { personId: want.personId, own: want.own, server: m.server };
    const items = want.kind === 'starts' ? personalStartItems(m.startLists, ctx, render) : personalResultItems(m.resultLists, ctx, render);
    if (m.ledger.feedStartedAt(guildId, want.feed) === null) {
      // Seeded rows are never sent, so the channel they name does not matter yet.
      m.ledger.seed(guildId, want.feed, channelId ?? '', items);
      run.seeded.push(want.feed);
      continue;
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
          pauseMember(m, userId, 'dm-unavailable', error.code);
        } else {
          run.failed.push({ userId, error });
          options.log?.warn('could not open a member\'s DM channel; trying again on the next run', { guildId, userId, error });
        }
        return;
      }
      subscriptions.setDmChannel(guildId, userId, channelId);
    }
    for (const item of items) {
      const ref = { guildId, feed: want.feed, itemKey: item.itemKey };
      // A member of two servers of the club (each with /notify on) gets each DM once: a DM this
      // server would send (new, or a followed item that changed) but the other server sent (or is
      // sending, and edits) is recorded here as accounted for.
      const row = m.ledger.get(ref);
      const wouldSend = row === null || (row.state === 'seeded' && item.followSeeded === true && row.contentHash !== item.contentHash);
      if (wouldSend && m.ledger.postedElsewhere(ref)) {
        if (row === null) m.ledger.seed(guildId, want.feed, channelId, [item]);
        else m.ledger.updateHash(ref, item.contentHash);
        run.outcomes.push({ userId, feed: want.feed, itemKey: item.itemKey, outcome: { kind: 'seeded' } });
        continue;
      }
      const outcome = await m.poster.publish({
        guildId, feed: want.feed, itemKey: item.itemKey, channelId, payload: item.payload, contentHash: item.contentHash,
        ...(item.followSeeded ? { followSeeded: true } : {}),
      });
      run.outcomes.push({ userId, feed: want.feed, itemKey: item.itemKey, outcome });
      if (outcome.kind === 'paused') {
        // Discord counts refused requests against the bot (10 000 per 10 minutes): no retry until the member says so.
        if (outcome.reason === 'channel-gone') subscriptions.setDmChannel(guildId, userId, null);
        pauseMember(m, userId, outcome.reason === 'channel-gone' ? 'dm-unavailable' : 'dms-closed', outcome.code);
        return;
      }
      if (outcome.kind === 'failed') {
        run.failed.push({ userId, error: outcome.error });
        options.log?.warn('a personal DM failed; trying again on the next run', { guildId, userId, error: outcome.error });
        return;
      }
    }
  }
}

function pauseMember(m: MemberRun, userId: string, reason: NotifyPause, code: number | string | null): void {
  const { guildId } = m.options;
  m.subscriptions.pause(guildId, userId, reason);
  m.run.paused.push({ userId, reason, code });
  // Only the code: Discord's error carries the request body, the DM's text included.
  m.options.log?.warn('personal DMs paused: Discord refused them', { guildId, userId, reason, code });
}
