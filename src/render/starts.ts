/**
 * Start lists: one member's starts in upcoming events, and the club's starters in one event.
 */
import type {
  ClassStart,
  EventRef,
  PersonStart,
  RaceStart,
  StartList,
  TeamMemberStart,
  TeamStart,
} from '../eventor/answers.js';
import { t } from '../i18n/index.js';
import { classSections, type MemberLineFormat, memberPages, relayTeamBlock } from './class-lines.js';
import {
  discordTimestamp,
  epochOf,
  escapeName,
  eventUrl,
  formatClock,
  linkText,
  personNameText,
  truncate,
} from './format.js';
import { detailText, listedPerson, namesakeDetails } from './namesakes.js';
import { COLOURS, type Section, sectionsToPages } from './pages.js';
import { eventId, eventName } from './races.js';
import type { MessagePayload, PageOptions, RenderContext } from './types.js';

function startTimeText(start: RaceStart, ctx: RenderContext): string {
  if (start.startTime === null) return t(ctx.language, 'render.starts.noTime');
  return `${discordTimestamp(start.startTime, 'D')} **${formatClock(start.startTime, ctx)}**`;
}

function bibText(bib: string | null, ctx: RenderContext): string {
  return bib ? t(ctx.language, 'render.bib', { bib: escapeName(bib) }) : '';
}

function byStartTime(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return epochOf(a) - epochOf(b);
}

function eventTitle(event: EventRef, ctx: RenderContext): string {
  const name = eventName(event, ctx.language);
  const id = eventId(event);
  return id
    ? `**[${truncate(linkText(event.event?.name ?? event.name ?? '?'), 150)}](${eventUrl(ctx, id)})**`
    : `**${truncate(name, 150)}**`;
}

/** A member's start lines: per race the date, start time (server zone) and bib; per relay leg the same after the team. */
function personStartLines(
  ctx: RenderContext,
): MemberLineFormat<ClassStart, PersonStart, TeamStart, TeamMemberStart, RaceStart> {
  return {
    racesOf: (person) => person.starts,
    legOf: (member) => member.start,
    shown: () => true,
    raceParts: (start) => [startTimeText(start, ctx), bibText(start.bibNumber, ctx)],
    legParts: (start, team) => [startTimeText(start, ctx), bibText(start.bibNumber ?? team.bibNumber, ctx)],
    linesUnder: () => [],
    linesAfter: () => [],
    eventHead: (event) => eventTitle(event, ctx),
  };
}

/**
 * A member's starts: per event the class, and per race the date, start time (server zone) and
 * bib. Lists from `/starts/person` hold only that person; pass `personId` to pick them out of
 * fuller lists.
 */
export function renderPersonStarts(
  personName: string,
  startLists: readonly StartList[],
  ctx: RenderContext,
  options: PageOptions & { personId?: string } = {},
): MessagePayload[] {
  const { language } = ctx;
  const look = {
    title: t(language, 'render.starts.personTitle', { name: escapeName(personName) }),
    color: COLOURS.starts,
    empty: t(language, 'render.starts.none'),
  };
  return memberPages(personName, startLists, personStartLines(ctx), ctx, look, options);
}

function clubPersonLine(name: string, start: RaceStart, ctx: RenderContext): string {
  const clock = start.startTime ? `\`${formatClock(start.startTime, ctx)}\`` : `\`--:--\``;
  const parts = [`${clock} ${name}`, bibText(start.bibNumber, ctx)];
  return parts.filter((part) => part !== '').join(' · ');
}

/** The runners as shown, escaped and cut, namesakes among them told apart by birth year or club. */
function shownNames(persons: readonly PersonStart[], ctx: RenderContext): string[] {
  const details = namesakeDetails(persons.map((person) => listedPerson(person.person, person.organisation, ctx)));
  return persons.map((person, i) => {
    const name = truncate(escapeName(personNameText(person.person?.name)) || '?', 100);
    const detail = details[i];
    return detail ? `${name} (${escapeName(detailText(detail), { max: 60 })})` : name;
  });
}

/** A relay team in the club's start list: name, bib and start, then each leg's runner and start time. */
function teamBlock(team: TeamStart, ctx: RenderContext): string {
  const head = [
    `**${escapeName(team.name ?? '?')}**`,
    bibText(team.bibNumber, ctx),
    team.startTime ? `\`${formatClock(team.startTime, ctx)}\`` : '',
  ]
    .filter((part) => part !== '')
    .join(' · ');
  return relayTeamBlock(
    head,
    team.members,
    {
      nameMax: 100,
      memberParts: (member) => [member.start.startTime ? `\`${formatClock(member.start.startTime, ctx)}\`` : ''],
      linesUnder: () => [],
    },
    ctx.language,
  );
}

function isClubs(ref: { id: string | null } | null, organisationId: string): boolean {
  return ref?.id === organisationId;
}

/** The club's starters in one event: per class (and race), sorted by start time; relay teams with their legs. */
export function renderClubStartList(
  startList: StartList,
  ctx: RenderContext,
  options: PageOptions & { organisationId: string },
): MessagePayload[] {
  const { language } = ctx;
  const org = options.organisationId;
  const sections: Section[] = [];
  let count = 0;
  for (const classStart of startList.classes) {
    sections.push(...clubStartSections(classStart, startList, ctx, org));
    // Runners, not rows: a multi-race runner has a row per race, a relay team several runners.
    count += classStart.persons.filter((p) => isClubs(p.organisation, org)).length;
    count += classStart.teams.flatMap((team) => team.members).filter((m) => isClubs(m.organisation, org)).length;
  }
  const id = eventId(startList.event);
  return sectionsToPages(
    sections,
    ctx,
    {
      title: truncate(t(language, 'render.starts.clubTitle', { event: eventName(startList.event, language) }), 256),
      ...(id ? { url: eventUrl(ctx, id) } : {}),
      color: COLOURS.starts,
    },
    {
      ...options,
      intro: t(language, 'render.starts.clubCount', { count }),
      empty: t(language, 'render.starts.clubNone'),
    },
  );
}

interface StartRow {
  person: PersonStart;
  start: RaceStart;
}

function clubStartSections(classStart: ClassStart, list: StartList, ctx: RenderContext, org: string): Section[] {
  const className = `**${escapeName(classStart.class.name)}**`;
  const persons = classStart.persons.filter((p) => isClubs(p.organisation, org));
  const sections = classSections<PersonStart, RaceStart, StartRow>(
    persons,
    {
      racesOf: (person) => person.starts,
      row: (person, start) => ({ person, start }),
      shown: (rows) => rows.sort((a, b) => byStartTime(a.start.startTime, b.start.startTime)),
      lines: (rows) => {
        const names = shownNames(
          rows.map((row) => row.person),
          ctx,
        );
        return rows.map((row, i) => clubPersonLine(names[i]!, row.start, ctx));
      },
      heading: (race) => (race === null ? className : `${className} · ${race}`),
    },
    list.event,
    ctx.language,
  );
  const teams = classStart.teams.filter(
    (team) =>
      team.organisations.some((ref) => isClubs(ref, org)) || team.members.some((m) => isClubs(m.organisation, org)),
  );
  if (teams.length > 0) {
    teams.sort((a, b) => byStartTime(a.startTime, b.startTime));
    sections.push({ heading: className, blocks: teams.map((team) => teamBlock(team, ctx)) });
  }
  return sections;
}
