/**
 * The one core of "a class's lines" in start lists and results, whatever a line shows:
 * - the club's lists (`classSections`): the class's persons grouped per race (in race order, the
 *   race named in the heading when there are several), the rows of each race chosen and ordered,
 *   and their lines made, by start- or result-specific formatters (`ClassLineFormat`);
 * - a member's own lists (`memberPages`): per event, the member's races in each class and relay
 *   legs, walked alike for starts and results (`MemberLineFormat` holds what differs);
 * - a relay team's block, its members by leg under a heading (`relayTeamBlock`).
 */
import type { ClassRef, EventRef, PersonRef } from '../eventor/answers.js';
import { type Language, t } from '../i18n/index.js';
import { escapeName, personNameText, truncate } from './format.js';
import { type Section, sectionsToPages } from './pages.js';
import { type RaceKeyed, raceKey, raceLabel, raceOrder } from './races.js';
import type { MessagePayload, PageOptions, RenderContext } from './types.js';
import { personName as analysedName } from '../splits/result-list.js';

export interface ClassLineFormat<Person, Race extends RaceKeyed, Row> {
  racesOf(person: Person): readonly Race[];
  row(person: Person, race: Race): Row;
  /** The rows of one race to show, in the order shown. */
  shown(rows: Row[]): Row[];
  /** The lines of the rows shown (namesakes are told apart among them). */
  lines(rows: readonly Row[]): string[];
  /** The section's heading; `raceLabel` only when the class has several races. */
  heading(raceLabel: string | null): string;
}

export interface RaceRows<Row> {
  order: number;
  label: string;
  rows: Row[];
}

/** The class's rows per race, in race order. */
export function rowsByRace<Person, Race extends RaceKeyed, Row>(
  persons: readonly Person[],
  format: Pick<ClassLineFormat<Person, Race, Row>, 'racesOf' | 'row'>,
  event: EventRef,
  language: Language,
): Array<RaceRows<Row>> {
  const races = new Map<string, RaceRows<Row>>();
  for (const person of persons) {
    for (const race of format.racesOf(person)) {
      const key = raceKey(race);
      let rows = races.get(key);
      if (!rows) {
        rows = { order: raceOrder(race, event), label: raceLabel(race, event, language), rows: [] };
        races.set(key, rows);
      }
      rows.rows.push(format.row(person, race));
    }
  }
  return [...races.values()].sort((a, b) => a.order - b.order);
}

/** A section per race of the class (one when it has one race), with the rows and lines the format chooses. */
export function classSections<Person, Race extends RaceKeyed, Row>(
  persons: readonly Person[],
  format: ClassLineFormat<Person, Race, Row>,
  event: EventRef,
  language: Language,
): Section[] {
  const races = rowsByRace(persons, format, event, language);
  const multi = races.length > 1;
  return races.map((race) => ({
    heading: format.heading(multi ? race.label : null),
    blocks: format.lines(format.shown(race.rows)),
  }));
}

/**
 * Who is "the member" in a member's own starts or results: lists from `/starts/person` and
 * `/results/person` hold only that person, so without an id everyone in a class matches; relay
 * teams list every runner, so there a member is found by id, else by name.
 */
function memberMatchers(
  personName: string,
  personId: string | undefined,
): {
  person: (ref: PersonRef | null) => boolean;
  teamMember: (ref: PersonRef | null) => boolean;
} {
  return {
    person: (ref) => personId === undefined || ref?.id === personId,
    teamMember: (ref) => (personId !== undefined ? ref?.id === personId : personNameText(ref?.name) === personName),
  };
}

/** A relay team's member as start and result lists both have them. */
interface RelayMember {
  person: PersonRef | null;
  leg: number | null;
  legOrder: number | null;
}

/** A runner of a start or result list (their races aside). */
interface ListPerson {
  person: PersonRef | null;
}

/** A relay team of a start or result list (its own times aside). */
interface RelayTeam<Member> {
  name: string | null;
  members: readonly Member[];
}

/** A class of a start or result list, as the member walker reads it. */
interface ListClass<Person, Team> {
  class: ClassRef;
  persons: readonly Person[];
  teams: readonly Team[];
}

/**
 * What differs between a member's own starts and their own results; the walking (which classes,
 * persons, races and legs, in which order, the class, race, team and leg on each line) is
 * `memberPages`'s.
 */
export interface MemberLineFormat<Class, Person, Team, Member, Race> {
  racesOf(person: Person): readonly Race[];
  /** A relay member's start or result in the team's race. */
  legOf(member: Member): Race;
  /** Whether a race or leg is told at all (results leave out some statuses). */
  shown(race: Race): boolean;
  /** What follows the class (and race) on the line of one of a person's races. */
  raceParts(race: Race, cls: Class): string[];
  /** What follows the class, team and leg on a relay member's line. */
  legParts(race: Race, team: Team, cls: Class): string[];
  /** Lines under a race's or a leg's line (results: the split table); `who` names the runner in the event. */
  linesUnder(race: Race, cls: Class, who: RaceRunner): string[];
  /** Lines after a person's races in a class, given those races in race order (results: the overall standing). */
  linesAfter(races: readonly Race[], cls: Class): string[];
  /** The first line of an event's block, given the races and legs told in it, in the order told. */
  eventHead(event: EventRef, races: readonly Race[]): string;
}

/** Whose race a line tells: the event, the runner's name as the list gives it (`Given Family`), the relay leg. */
export interface RaceRunner {
  event: EventRef;
  name: string;
  leg: number | null;
}

/** The page's title, colour and what it says when no list holds the member. */
export interface MemberPageLook {
  title: string;
  color: number;
  empty: string;
}

function joinParts(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join(' · ');
}

/**
 * A member's own starts or results: per list (event) a block of the member's lines, class by class:
 * each race they run (in race order, named when they run several), then each relay leg they run.
 * Lists from `/starts/person` and `/results/person` hold only that person; `personId` picks them out
 * of fuller lists (`memberMatchers`).
 */
export function memberPages<
  Class extends ListClass<Person, Team>,
  Person extends ListPerson,
  Team extends RelayTeam<Member>,
  Member extends RelayMember,
  Race extends RaceKeyed,
>(
  personName: string,
  lists: ReadonlyArray<{ event: EventRef; classes: readonly Class[] }>,
  format: MemberLineFormat<Class, Person, Team, Member, Race>,
  ctx: RenderContext,
  look: MemberPageLook,
  options: PageOptions & { personId?: string },
): MessagePayload[] {
  const { language } = ctx;
  const matches = memberMatchers(personName, options.personId);
  const blocks: string[] = [];
  for (const { event, classes } of lists) {
    const lines: string[] = [];
    const told: Race[] = [];
    for (const cls of classes) {
      const className = `**${escapeName(cls.class.name, { max: 80 })}**`;
      for (const person of cls.persons.filter((p) => matches.person(p.person))) {
        const races = format
          .racesOf(person)
          .filter((race) => format.shown(race))
          .sort((a, b) => raceOrder(a, event) - raceOrder(b, event));
        const multi = races.length > 1;
        for (const race of races) {
          told.push(race);
          lines.push(
            joinParts([multi ? raceLabel(race, event, language) : '', className, ...format.raceParts(race, cls)]),
          );
          lines.push(...format.linesUnder(race, cls, { event, name: analysedName(person, '?'), leg: null }));
        }
        lines.push(...format.linesAfter(races, cls));
      }
      for (const team of cls.teams) {
        for (const member of team.members.filter((m) => matches.teamMember(m.person))) {
          const race = format.legOf(member);
          if (!format.shown(race)) continue;
          told.push(race);
          const leg = member.leg !== null ? t(language, 'render.leg', { leg: member.leg }) : '';
          lines.push(joinParts([className, escapeName(team.name ?? ''), leg, ...format.legParts(race, team, cls)]));
          const who = { event, name: analysedName(member, team.name ?? '?'), leg: member.leg };
          lines.push(...format.linesUnder(race, cls, who));
        }
      }
    }
    if (lines.length > 0) blocks.push([format.eventHead(event, told), ...lines].join('\n'));
  }
  return sectionsToPages(
    [{ heading: null, blocks }],
    ctx,
    { title: truncate(look.title, 256), color: look.color },
    { ...options, empty: look.empty },
  );
}

/** What differs between a relay team's block in the club's start list and in the club's results. */
export interface RelayBlockFormat<Member extends RelayMember> {
  /** Members' names are cut to this many characters. */
  nameMax: number;
  /** What follows a member's leg and name on their line. */
  memberParts(member: Member): string[];
  /** Lines under a member's line (results: the split table). */
  linesUnder(member: Member): string[];
}

/** A relay team's block: its heading line, then its members by leg (vacant legs said so), indented. */
export function relayTeamBlock<Member extends RelayMember>(
  head: string,
  members: readonly Member[],
  format: RelayBlockFormat<Member>,
  language: Language,
): string {
  const lines = [...members]
    .sort((a, b) => (a.leg ?? 99) - (b.leg ?? 99) || (a.legOrder ?? 0) - (b.legOrder ?? 0))
    .flatMap((member) => {
      const leg = member.leg !== null ? t(language, 'render.leg', { leg: member.leg }) : '';
      const name = truncate(
        escapeName(personNameText(member.person?.name)) || t(language, 'render.vacant'),
        format.nameMax,
      );
      return [`  ${joinParts([leg, name, ...format.memberParts(member)])}`, ...format.linesUnder(member)];
    });
  return [head, ...lines].join('\n');
}
