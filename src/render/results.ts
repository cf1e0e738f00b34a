/**
 * Results: one member's recent results (optionally with split tables), and the club's results
 * in one event with the top of each class for context.
 */
import type {
  ClassResult,
  EventRef,
  OverallResult,
  PersonResult,
  RaceResult,
  ResultList,
  ResultStatus,
  TeamMemberResult,
  TeamResult,
} from '../eventor/answers.js';
import { t } from '../i18n/index.js';
import { classSections, type MemberLineFormat, memberPages, relayTeamBlock } from './class-lines.js';
import {
  discordTimestamp,
  escapeName,
  eventUrl,
  formatBehind,
  formatElapsed,
  formatPlace,
  formatStatus,
  isHiddenStatus,
  linkText,
  organisationName,
  personNameText,
  truncate,
} from './format.js';
import { detailText, listedPerson, type NamesakeDetail, namesakeDetails } from './namesakes.js';
import { COLOURS, type Section, sectionsToPages } from './pages.js';
import { eventId, eventName, raceOrder } from './races.js';
import { type ClassAnalysis, personName as analysedName } from '../splits/result-list.js';
import { tooLargeText } from './split-analysis.js';
import { type AnalysedResult, type RunnerLegs, type SplitLegsLookup, splitLegsLookup, splitTable } from './splits.js';
import type { MessagePayload, PageOptions, RenderContext } from './types.js';

type Standing = Pick<OverallResult, 'time' | 'timeBehind' | 'position' | 'status'>;

/** The split analysis of events by event id (`analyseResultList` of each event's complete list with splits). */
export type EventAnalyses = ReadonlyMap<string, readonly ClassAnalysis[]>;

/**
 * Each event's lookup, made once per analysis: finders are made per class and per relay team, and
 * a lookup made anew each time would index the whole class each time.
 */
const lookups = new WeakMap<readonly ClassAnalysis[], SplitLegsLookup>();

/** A runner's analysed legs in an event, or null when the event was not analysed or the runner is not found. */
function legsFinder(
  analyses: EventAnalyses | undefined,
): (event: EventRef, wanted: AnalysedResult) => RunnerLegs | null {
  return (event, wanted) => {
    const id = eventId(event);
    const analysis = id ? analyses?.get(id) : undefined;
    if (!id || analysis === undefined) return null;
    let lookup = lookups.get(analysis);
    if (lookup === undefined) lookups.set(analysis, (lookup = splitLegsLookup(analysis)));
    return lookup(wanted);
  };
}

/** Whether a course the answer shows a runner of is over the analysis's limits (docs/splits.md#limits). */
function overLimits(analyses: EventAnalyses | undefined, shows: (runner: RunnerLegs['runner']) => boolean): boolean {
  for (const analysis of analyses?.values() ?? [])
    for (const cls of analysis)
      for (const course of cls.courses) if (course.tooLarge && course.results.some(shows)) return true;
  return false;
}

/** Sort group (docs/iof-xml.md#result-statuses): placed, unplaced with a time, not finished, out, did not start. */
function statusGroup(status: ResultStatus): number {
  switch (status) {
    case 'OK':
      return 0;
    case 'Finished':
    case 'NotCompeting':
      return 1;
    case 'Active':
    case 'Inactive':
      return 2;
    case 'DidNotStart':
      return 4;
    default:
      return 3;
  }
}

export function compareStandings(a: Standing, b: Standing): number {
  return (
    statusGroup(a.status) - statusGroup(b.status) ||
    (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
    (a.time ?? Number.MAX_SAFE_INTEGER) - (b.time ?? Number.MAX_SAFE_INTEGER)
  );
}

/**
 * Place, time and time behind, or the status. Places only for OK; times also for Finished and
 * NotCompeting (marked); nothing but the status otherwise. `noTimes` honours UnorderedNoTimes.
 */
export function standingText(
  s: Standing,
  ctx: RenderContext,
  options: { medals?: boolean; noTimes?: boolean; starters?: number | null } = {},
): { place: string; rest: string } {
  const { language } = ctx;
  if (s.status === 'Active' || s.status === 'Inactive')
    return { place: '', rest: `*${t(language, 'render.results.notFinished')}*` };
  if (options.noTimes) return { place: '', rest: s.status === 'OK' ? '✓' : formatStatus(s.status, language) };
  if (s.status === 'OK') {
    let place = formatPlace(s.position, { medals: options.medals ?? false });
    if (place !== '' && options.starters && !/^\D/.test(place)) place = `${s.position}/${options.starters}`;
    const parts = [s.time === null ? '' : formatElapsed(s.time), formatBehind(s.timeBehind)];
    return { place, rest: parts.filter((part) => part !== '').join(' ') };
  }
  const status = formatStatus(s.status, language);
  if ((s.status === 'Finished' || s.status === 'NotCompeting') && s.time !== null)
    return { place: '', rest: `${formatElapsed(s.time)} (${status})` };
  return { place: '', rest: `**${status}**` };
}

function joinStanding(text: { place: string; rest: string }): string {
  return [text.place, text.rest].filter((part) => part !== '').join(' ');
}

function eventLink(event: EventRef, ctx: RenderContext): string {
  const id = eventId(event);
  const name = event.event?.name ?? event.name ?? t(ctx.language, 'render.unknownEvent');
  return id ? `**[${truncate(linkText(name), 150)}](${eventUrl(ctx, id)})**` : `**${escapeName(name, { max: 150 })}**`;
}

/**
 * A member's result lines: per race place/starters, time, time behind or status, and with `splits`
 * a split table; after several races the standing after the last; per relay leg the member's own
 * standing and the team's. The event's date is its own, else that of the first race told.
 */
function personResultLines(
  ctx: RenderContext,
  splits: boolean,
  analyses: EventAnalyses | undefined,
): MemberLineFormat<ClassResult, PersonResult, TeamResult, TeamMemberResult, RaceResult> {
  const { language } = ctx;
  const legsOf = legsFinder(analyses);
  const noTimes = (cls: ClassResult) => cls.class.resultListMode === 'UnorderedNoTimes';
  return {
    racesOf: (person) => person.results,
    legOf: (member) => member.result,
    shown: (result) => !isHiddenStatus(result.status),
    raceParts: (result, cls) => [
      joinStanding(standingText(result, ctx, { noTimes: noTimes(cls), starters: cls.numberOfStarts })),
    ],
    legParts: (result, team, cls) => [
      joinStanding(standingText(result, ctx, { noTimes: noTimes(cls) })),
      noTimes(cls) ? '' : `${t(language, 'render.results.team')}: ${joinStanding(standingText(team, ctx))}`,
    ],
    linesUnder: (result, cls, who) => {
      if (!splits || noTimes(cls) || result.splits.length === 0) return [];
      const legs = legsOf(who.event, { className: cls.class.name, name: who.name, leg: who.leg, result });
      // The message first: a table of a course over the limits may be cut at the end of the page.
      return [...(legs?.course.tooLarge ? [tooLargeText(language)] : []), splitTable(result, language, legs)];
    },
    linesAfter: (results, cls) => {
      const last = results[results.length - 1];
      return results.length > 1 && last?.overall && !noTimes(cls)
        ? [`${t(language, 'render.results.overall')} · ${joinStanding(standingText(last.overall, ctx))}`]
        : [];
    },
    eventHead: (event, results) => {
      const date = event.event?.start ?? results.find((result) => result.startTime !== null)?.startTime ?? null;
      return date ? `${eventLink(event, ctx)} · ${discordTimestamp(date, 'D')}` : eventLink(event, ctx);
    },
  };
}

/**
 * A member's recent results: per event and race the class, place/starters, time, time behind
 * or status, and with `splits` a split table per race. Lists from `/results/person` hold only
 * that person; pass `personId` to pick them out of fuller lists (relay teams carry everyone).
 */
export function renderPersonResults(
  personName: string,
  resultLists: readonly ResultList[],
  ctx: RenderContext,
  options: PageOptions & {
    splits: boolean;
    personId?: string;
    /** With `splits`: the analysis of the events whose tables show leg ranks and time lost. */
    analyses?: EventAnalyses;
  },
): MessagePayload[] {
  const { language } = ctx;
  const look = {
    title: t(language, 'render.results.personTitle', { name: escapeName(personName) }),
    color: COLOURS.results,
    empty: t(language, 'render.results.none'),
  };
  return memberPages(
    personName,
    resultLists,
    personResultLines(ctx, options.splits, options.analyses),
    ctx,
    look,
    options,
  );
}

export interface ClubResultsOptions extends PageOptions {
  organisationId: string;
  /** How many of the top of each class to show for context besides the club's own. */
  top: number;
  splits: boolean;
  /** With `splits`: the analysis of the event (of its complete list), for leg ranks and time lost. */
  analyses?: EventAnalyses;
}

interface Row {
  standing: Standing;
  member: boolean;
  person: PersonResult;
  result: RaceResult | null;
}

/** Where the club's split tables find their runners' analysed legs (null: not analysed, not found). */
type LegsOf = (wanted: AnalysedResult) => RunnerLegs | null;

function personRow(
  row: Row,
  detail: NamesakeDetail | null,
  ctx: RenderContext,
  noTimes: boolean,
  splits: LegsOf | false,
  className: string,
): string {
  const raw = personNameText(row.person.person?.name) || '?';
  const name = escapeName(raw, { max: 80 });
  const text = standingText(row.standing, ctx, { medals: row.member, noTimes });
  let who: string;
  if (row.member) {
    who = `**${name}**${detail ? ` (${escapeName(detailText(detail), { max: 60 })})` : ''}`;
  } else {
    // Others show their club anyway, so a namesake among them needs only the birth year besides.
    const club = organisationName(row.person.organisation, ctx, true);
    const extra = [detail?.birthYear ?? null, club ? escapeName(club, { max: 40 }) : null]
      .filter((part): part is string => part !== null)
      .join(', ');
    who = extra ? `${name} (${extra})` : name;
  }
  const line = [text.place, who, text.rest ? `· ${text.rest}` : ''].filter((part) => part !== '').join(' ');
  if (splits !== false && !noTimes && row.member && row.result && row.result.splits.length > 0) {
    const legs = splits({ className, name: analysedName(row.person, '?'), leg: null, result: row.result });
    return `${line}\n${splitTable(row.result, ctx.language, legs)}`;
  }
  return line;
}

/** The lines of one race (or the overall), namesakes among them told apart. */
function rowLines(
  rows: readonly Row[],
  ctx: RenderContext,
  noTimes: boolean,
  splits: LegsOf | false,
  className: string,
): string[] {
  const details = namesakeDetails(rows.map((row) => listedPerson(row.person.person, row.person.organisation, ctx)));
  return rows.map((row, i) => personRow(row, details[i] ?? null, ctx, noTimes, splits, className));
}

/** The club's tables' lookup into the event's analysis; false when no split tables were asked for. */
function clubLegs(list: ResultList, options: ClubResultsOptions): LegsOf | false {
  if (!options.splits) return false;
  const find = legsFinder(options.analyses);
  return (wanted) => find(list.event, wanted);
}

/** The rows of one race (or the overall): every club member, plus the top N of the rest. */
function selectRows(rows: Row[], top: number, noTimes: boolean): Row[] {
  const shown = rows.filter((row) => !isHiddenStatus(row.standing.status));
  shown.sort((a, b) => compareStandings(a.standing, b.standing));
  if (noTimes) return shown.filter((row) => row.member);
  let context = 0;
  return shown.filter((row) => {
    if (row.member) return true;
    if (row.standing.status === 'OK' && row.standing.position !== null && context < top) {
      context += 1;
      return true;
    }
    return false;
  });
}

function classHeading(classResult: ClassResult, suffix: string): string {
  const name = `**${escapeName(classResult.class.name)}**`;
  const starts = classResult.numberOfStarts !== null ? ` (${classResult.numberOfStarts})` : '';
  return `${name}${suffix ? ` · ${suffix}` : ''}${starts}`;
}

function individualSections(
  classResult: ClassResult,
  list: ResultList,
  ctx: RenderContext,
  options: ClubResultsOptions,
): { sections: Section[]; members: number } {
  const org = options.organisationId;
  const noTimes = classResult.class.resultListMode === 'UnorderedNoTimes';
  const isMember = (person: PersonResult) => person.organisation?.id === org;
  if (!classResult.persons.some(isMember)) return { sections: [], members: 0 };
  const format = (splits: LegsOf | false) => ({
    shown: (rows: Row[]) => selectRows(rows, options.top, noTimes),
    lines: (rows: readonly Row[]) => rowLines(rows, ctx, noTimes, splits, classResult.class.name),
  });
  const sections = classSections<PersonResult, RaceResult, Row>(
    classResult.persons,
    {
      racesOf: (person) => person.results,
      row: (person, result) => ({ standing: result, member: isMember(person), person, result }),
      ...format(clubLegs(list, options)),
      heading: (race) => classHeading(classResult, race ?? ''),
    },
    list.event,
    ctx.language,
  );
  // Several races: the standing after the last race each person ran, as its own section.
  if (sections.length > 1 && !noTimes) {
    const overall: Row[] = [];
    for (const person of classResult.persons) {
      let last: RaceResult | null = null;
      for (const result of person.results)
        if (last === null || raceOrder(result, list.event) > raceOrder(last, list.event)) last = result;
      if (last?.overall) overall.push({ standing: last.overall, member: isMember(person), person, result: null });
    }
    const { shown, lines } = format(false);
    if (overall.length > 0)
      sections.push({
        heading: classHeading(classResult, t(ctx.language, 'render.results.overall')),
        blocks: lines(shown(overall)),
      });
  }
  const members = classResult.persons.filter(
    (person) => isMember(person) && person.results.some((r) => !isHiddenStatus(r.status)),
  ).length;
  return { sections, members };
}

/** A relay team in the club's results: its standing, and for the club's teams each leg's runner and standing. */
function teamBlock(
  team: TeamResult,
  member: boolean,
  ctx: RenderContext,
  noTimes: boolean,
  splits: LegsOf | false,
  className: string,
): string {
  const text = standingText(team, ctx, { medals: member, noTimes });
  const name = escapeName(team.name);
  const head = [text.place, member ? `**${name}**` : name, text.rest ? `· ${text.rest}` : '']
    .filter((part) => part !== '')
    .join(' ');
  if (!member) return head;
  return relayTeamBlock(
    head,
    team.members,
    {
      nameMax: 80,
      memberParts: (m) => [joinStanding(standingText(m.result, ctx, { noTimes }))],
      linesUnder: (m) => {
        if (splits === false || noTimes || m.result.splits.length === 0) return [];
        const wanted = { className, name: analysedName(m, team.name), leg: m.leg, result: m.result };
        return [splitTable(m.result, ctx.language, splits(wanted))];
      },
    },
    ctx.language,
  );
}

function teamSections(
  classResult: ClassResult,
  list: ResultList,
  ctx: RenderContext,
  options: ClubResultsOptions,
): { sections: Section[]; members: number } {
  const org = options.organisationId;
  const noTimes = classResult.class.resultListMode === 'UnorderedNoTimes';
  const isClub = (team: TeamResult) =>
    team.organisations.some((ref) => ref.id === org) || team.members.some((m) => m.organisation?.id === org);
  if (!classResult.teams.some(isClub)) return { sections: [], members: 0 };
  const sorted = classResult.teams.filter((team) => !isHiddenStatus(team.status)).sort(compareStandings);
  let context = 0;
  const shown = sorted.filter((team) => {
    if (isClub(team)) return true;
    if (noTimes || team.status !== 'OK' || team.position === null || context >= options.top) return false;
    context += 1;
    return true;
  });
  return {
    sections: [
      {
        heading: classHeading(classResult, ''),
        blocks: shown.map((team) =>
          teamBlock(team, isClub(team), ctx, noTimes, clubLegs(list, options), classResult.class.name),
        ),
      },
    ],
    members: shown.filter(isClub).length,
  };
}

/**
 * The club's results in one event: per class (and race, and overall for multi-race events) the
 * club's members in bold with places, times and time behind, podiums with medals, plus the top
 * N of the others for context; relay teams with their legs. UnorderedNoTimes classes show names only.
 */
export function renderClubResults(
  resultList: ResultList,
  ctx: RenderContext,
  options: ClubResultsOptions,
): MessagePayload[] {
  const { language } = ctx;
  const sections: Section[] = [];
  let members = 0;
  for (const classResult of resultList.classes) {
    for (const part of [
      individualSections(classResult, resultList, ctx, options),
      teamSections(classResult, resultList, ctx, options),
    ]) {
      sections.push(...part.sections);
      members += part.members;
    }
  }
  const id = eventId(resultList.event);
  const intro = [t(language, 'render.results.clubCount', { count: members })];
  if (resultList.status !== 'complete') intro.push(`*${t(language, 'render.results.preliminary')}*`);
  // Once for the answer, not under each of the club's runners of a class over the limits.
  if (options.splits && overLimits(options.analyses, (r) => r.organisationId === options.organisationId))
    intro.push(tooLargeText(language));
  return sectionsToPages(
    sections,
    ctx,
    {
      title: truncate(t(language, 'render.results.clubTitle', { event: eventName(resultList.event, language) }), 256),
      ...(id ? { url: eventUrl(ctx, id) } : {}),
      color: COLOURS.results,
    },
    { ...options, intro: intro.join('\n'), empty: t(language, 'render.results.clubNone') },
  );
}
