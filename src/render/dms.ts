/**
 * Members' personal DMs (`/notify`), pure like the rest of rendering: "your start time is out"
 * (class, start time in the server's zone, team and leg, bib, course, card) and "your result is in"
 * (place of how many, time, time behind, overall standing of multi-race events, or the status),
 * naming the linked person when it is not the member's own and the server the DM comes from.
 * Within Discord's limits whatever the data (`fitPayload`).
 */
import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { EventRef, RaceResult, RaceStart, ResultList, ResultStatus, StartList } from '../eventor/answers.js';
import { type Language, t } from '../i18n/index.js';
import { fitPayload } from './fit.js';
import {
  discordTimestamp,
  escapeName,
  eventUrl,
  formatBehind,
  formatClock,
  formatElapsed,
  formatStatus,
  isHiddenStatus,
  personNameText,
  plainText,
  truncate,
} from './format.js';
import { COLOURS } from './pages.js';
import { raceKey, raceLabel } from './races.js';
import type { MessagePayload, RenderContext } from './types.js';

/** One DM about one race of one event (`race`: `raceKey` of the race). */
export interface PersonalDm {
  eventId: string;
  race: string;
  payload: MessagePayload;
}

/** The DMs of one person, one per (event, race): the first found wins, rendered only then. */
class DmsByRace {
  readonly #dms: PersonalDm[] = [];
  readonly #seen = new Set<string>();

  add(eventId: string, race: string, render: () => MessagePayload): void {
    const id = JSON.stringify([eventId, race]);
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    this.#dms.push({ eventId, race, payload: render() });
  }

  all(): PersonalDm[] {
    return this.#dms;
  }
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
function raceSuffix(
  race: { raceId: string | null; raceNumber: number | null },
  ref: EventRef,
  language: Language,
  besideLeg: boolean,
): string | null {
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
    course.length !== null
      ? `${new Intl.NumberFormat(NUMBER_LOCALES[language], { maximumFractionDigits: 1 }).format(course.length / 1000)} km`
      : '',
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

/**
 * What a start DM and a result DM have alike: the line naming the event (and race) and the person,
 * and one embed titled and linked to the event, in the kind's colour, with the server in its footer.
 */
function dmPayload(
  kind: 'start' | 'result',
  facts: { list: { event: EventRef }; eventId: string; personName: string },
  race: string | null,
  fields: APIEmbedField[],
  ctx: RenderContext,
  options: PersonalRenderOptions,
  description?: string,
): MessagePayload {
  const { language } = ctx;
  const event = eventTitle(facts.list.event, facts.eventId);
  const title = race ? `${event} – ${race}` : event;
  const content = t(language, `notify.dm.${kind}.${options.own ? 'own' : 'other'}`, {
    event: truncate(title, 200),
    person: escapeName(facts.personName),
  });
  const foot = footer(options.server, language);
  return fitPayload({
    content,
    embeds: [
      {
        title: truncate(title, 256),
        url: eventUrl(ctx, facts.eventId),
        color: kind === 'start' ? COLOURS.starts : COLOURS.results,
        fields,
        ...(description ? { description } : {}),
        ...(foot ? { footer: foot } : {}),
      },
    ],
  });
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
  const race = raceSuffix(facts.start, facts.list.event, language, facts.team?.leg != null);
  const when = t(language, 'notify.dm.startValue', {
    clock: formatClock(facts.time, ctx),
    zone: ctx.timeZone,
    date: discordTimestamp(facts.time, 'D'),
    relative: discordTimestamp(facts.time, 'R'),
  });
  const fields = [
    field(t(language, 'notify.dm.field.class'), `**${escapeName(facts.className)}**`),
    field(
      t(language, 'notify.dm.field.start'),
      facts.teamStart ? t(language, 'notify.dm.teamStart', { time: when }) : when,
      false,
    ),
  ];
  if (facts.team) {
    const leg = facts.team.leg !== null ? t(language, 'render.leg', { leg: facts.team.leg }) : '';
    fields.push(
      field(
        t(language, 'notify.dm.field.team'),
        [escapeName(facts.team.name ?? '?'), leg].filter((p) => p !== '').join(' · '),
      ),
    );
  }
  const bib = facts.start.bibNumber ?? facts.team?.bib ?? null;
  if (bib) fields.push(field(t(language, 'notify.dm.field.bib'), escapeName(bib)));
  const course = courseText(facts.start, language);
  if (course) fields.push(field(t(language, 'notify.dm.field.course'), course));
  const card = cardText(facts.start);
  if (card) fields.push(field(t(language, 'notify.dm.field.card'), card));
  return dmPayload('start', facts, race, fields, ctx, options);
}

/**
 * The DMs "your start time is out" for one linked person: one per race still to be run in which the
 * club's start lists give them a start time (a relay leg without its own time: the team's start).
 * One per (event, race): the feeds key and hash them (a moved start time changes what the DM shows:
 * it is edited, or sent if the start time was out before the member's DMs started).
 */
export function renderStartDms(
  lists: readonly StartList[],
  ctx: RenderContext,
  options: PersonalRenderOptions,
): PersonalDm[] {
  const dms = new DmsByRace();
  const add = (facts: StartFacts): void =>
    dms.add(facts.eventId, raceKey(facts.start), () => startPayload(facts, ctx, options));
  for (const list of lists) {
    const eventId = eventIdOf(list.event);
    if (eventId === null) continue;
    for (const classStart of list.classes) {
      for (const person of classStart.persons) {
        if (person.person?.id !== options.personId) continue;
        for (const start of person.starts) {
          if (!upcoming(start.startTime, ctx)) continue;
          add({
            list,
            eventId,
            className: classStart.class.name,
            personName: personNameText(person.person.name),
            start,
            time: start.startTime,
            teamStart: false,
            team: null,
          });
        }
      }
      for (const team of classStart.teams) {
        for (const member of team.members) {
          if (member.person?.id !== options.personId) continue;
          const time = member.start.startTime ?? team.startTime;
          if (!upcoming(time, ctx)) continue;
          add({
            list,
            eventId,
            className: classStart.class.name,
            personName: personNameText(member.person.name),
            start: member.start,
            time,
            teamStart: member.start.startTime === null,
            team: { name: team.name, leg: member.leg, bib: team.bibNumber },
          });
        }
      }
    }
  }
  return dms.all();
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
  if ((s.status === 'Finished' || s.status === 'NotCompeting') && s.time !== null)
    out.push(field(t(language, 'notify.dm.field.time'), formatElapsed(s.time)));
  return out;
}

function standingLine(s: Standing, language: Language): string {
  if (s.status !== 'OK') return formatStatus(s.status, language);
  return [s.position ? `${s.position}.` : '', s.time !== null ? formatElapsed(s.time) : '', formatBehind(s.timeBehind)]
    .filter((p) => p !== '')
    .join(' ');
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
  const race = raceSuffix(facts.result, facts.list.event, language, facts.team?.leg != null);
  const fields = [field(t(language, 'notify.dm.field.class'), `**${escapeName(facts.className)}**`)];
  if (facts.team) {
    const leg = facts.team.leg !== null ? t(language, 'render.leg', { leg: facts.team.leg }) : '';
    const standing = facts.noTimes ? '' : standingLine(facts.team.standing, language);
    fields.push(
      field(
        t(language, 'notify.dm.field.team'),
        [escapeName(facts.team.name), leg, standing].filter((p) => p !== '').join(' · '),
        false,
      ),
    );
  }
  if (facts.noTimes) {
    fields.push(
      field(
        t(language, 'notify.dm.field.status'),
        facts.result.status === 'OK' ? '✓' : `**${formatStatus(facts.result.status, language)}**`,
      ),
    );
  } else {
    fields.push(...standingFields(facts.result, facts.team ? null : facts.starters, language));
    const overall = facts.result.overall;
    if (overall && race)
      fields.push(field(t(language, 'notify.dm.field.overall'), standingLine(overall, language), false));
  }
  const notice = facts.noTimes ? t(language, 'notify.dm.noTimes') : undefined;
  return dmPayload('result', facts, race, fields, ctx, options, notice);
}

/**
 * The DMs "your result is in" for one linked person: one per race in the club's result lists where
 * they have a result (not while still out on the course). One per (event, race); a correction
 * changes what the DM shows.
 */
export function renderResultDms(
  lists: readonly ResultList[],
  ctx: RenderContext,
  options: PersonalRenderOptions,
): PersonalDm[] {
  const dms = new DmsByRace();
  const add = (facts: ResultFacts): void =>
    dms.add(facts.eventId, raceKey(facts.result), () => resultPayload(facts, ctx, options));
  for (const list of lists) {
    const eventId = eventIdOf(list.event);
    if (eventId === null) continue;
    for (const classResult of list.classes) {
      const base = {
        list,
        eventId,
        className: classResult.class.name,
        noTimes: classResult.class.resultListMode === 'UnorderedNoTimes',
        starters: classResult.numberOfStarts,
      };
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
          add({
            ...base,
            personName: personNameText(member.person.name),
            result: member.result,
            team: { name: team.name, leg: member.leg, standing: team },
          });
        }
      }
    }
  }
  return dms.all();
}
