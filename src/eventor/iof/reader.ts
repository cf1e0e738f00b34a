/**
 * IOF XML 3.0 ResultList / StartList -> the domain model (model.ts), so that code using a list
 * does not care whether it came from Eventor's native XML, Eventor's `/iofxml` operations or a
 * file from any timing software.
 *
 * Decisions (the standard's rules and the timing programs' quirks behind them: docs/iof-xml.md):
 * - Elements are matched by namespace URI and local name, never by prefix or order. Elements of
 *   other namespaces (Eventor's extensions, custom data) are ignored, except Eventor's
 *   `EventRaceId` on `Event/Race`, which gives results their Eventor race id.
 * - A class spread over several ClassResult/ClassStart blocks (OS2010 writes one per relay leg) is
 *   merged into one, and teams with the same name and bib in those blocks are merged too, their
 *   organisations joined (start and result lists alike: one walker reads both).
 * - A team's status, time, time behind and place are those of the OverallResult of its last leg;
 *   when no leg has one, the status is the first non-OK member status (else OK) and the time the
 *   sum of the leg times when every leg has one. Start = first leg's start, finish = last leg's.
 *   TeamMemberResult without a Result (old QuickEvent) is skipped when it has no Person either;
 *   with a Person it becomes an `Inactive` row. Only the first Result of a member is used.
 * - Relay members: leg time behind and leg place are the `type="Leg"` (or untyped) values; the
 *   `type="Course"` ones are not in the model.
 * - Class courses are ordered by their raceNumber; the model's Course has no race number.
 * - Class `numberOfCompetitors` -> numberOfEntries; numberOfStarts is not in IOF 3.0 (null).
 */

import { isValidTimeZone } from '../../time/zones.js';
import { InvalidResponse, ValidationError } from '../errors.js';
import type {
  Card,
  ClassRef,
  ClassResult,
  ClassStart,
  Course,
  EventRef,
  OrganisationRef,
  OverallResult,
  PersonRef,
  PersonResult,
  PersonStart,
  PunchingUnitType,
  RaceResult,
  RaceStart,
  ResultList,
  ResultStatus,
  SplitTime,
  StartList,
  TeamMemberResult,
  TeamMemberStart,
  TeamResult,
  TeamStart,
} from '../model.js';
import {
  overallWithoutPlaceholders,
  raceResultWithoutPlaceholders,
  teamResultWithoutPlaceholders,
} from '../placeholders.js';
import { toXmlText } from './decode.js';
import { detectIofDocument, EVENTOR_EXTENSIONS_NS } from './detect.js';
import { parseDate, parseDateTime, parseInteger, parseSeconds, parseStatus } from './values.js';
import { attr, childrenNamed, firstChild, parseXml, textOf, type XmlElement } from './xml-tree.js';

export interface IofReadOptions {
  /** IANA zone for times written without an offset; without it such times stay wall-clock text. */
  timeZone?: string;
}

export type IofDocument = { kind: 'ResultList'; list: ResultList } | { kind: 'StartList'; list: StartList };

interface Ctx {
  ns: string;
  timeZone: string | undefined;
  eventDate: string | null;
  raceDates: Map<number, string>;
  raceIds: Map<number, string>;
  /** The Eventor race id when the event has exactly one race; used for results without raceNumber. */
  onlyRaceId: string | null;
}

// --- entry points ---------------------------------------------------------------------------------

export function parseIofDocument(input: string | Uint8Array, options: IofReadOptions = {}): IofDocument {
  const text = toXmlText(input);
  const info = detectIofDocument(text);
  if (info.version === '2.0.3') {
    throw new InvalidResponse(
      `IOF XML 2.0.3 is not supported (root <${info.rootName ?? '?'}>); export IOF XML 3.0 instead`,
      info.rootName,
    );
  }
  if (info.version === null) {
    if (info.rootName === null) throw new InvalidResponse('not an XML document (no root element found)', null);
    throw new InvalidResponse(
      `not IOF XML 3.0: root <${info.rootName}> in namespace '${info.namespace || '(none)'}'`,
      info.rootName,
    );
  }
  if (info.root === 'other') {
    throw new InvalidResponse(
      `IOF XML 3.0 ${info.rootName} is not supported; expected a ResultList or a StartList (${info.rootName} is not read; only result and start lists are)`,
      info.rootName,
    );
  }
  const timeZone = options.timeZone;
  if (timeZone !== undefined && !isValidTimeZone(timeZone))
    throw new ValidationError('timeZone', `unknown time zone '${timeZone}'`);
  const ctx: Ctx = { ns: '', timeZone, eventDate: null, raceDates: new Map(), raceIds: new Map(), onlyRaceId: null };
  if (info.root === 'ResultList') return { kind: 'ResultList', list: readResultList(text, ctx) };
  return { kind: 'StartList', list: readStartList(text, ctx) };
}

/**
 * Parses the document and hands every ClassResult/ClassStart to `onBlock` as soon as it is
 * complete, in document order, and drops it from the tree. Blocks before the Event (only in
 * misordered files) wait until the Event is read, since race dates and ids come from it.
 */
function streamBlocks(
  text: string,
  ctx: Ctx,
  rootName: 'ResultList' | 'StartList',
  blockName: string,
  onBlock: (block: XmlElement, index: number) => void,
): { root: XmlElement; event: EventRef } {
  let event: EventRef | null = null;
  let index = 0;
  const pending: XmlElement[] = [];
  const root = parseXml(text, (el, rootEl) => {
    ctx.ns = rootEl.ns;
    if (el.ns !== ctx.ns) return false;
    if (el.local === 'Event') {
      if (event === null) {
        event = readEvent(el, ctx);
        for (const block of pending) onBlock(block, index++);
        pending.length = 0;
      }
      return false;
    }
    if (el.local !== blockName) return false;
    if (event === null) pending.push(el);
    else onBlock(el, index++);
    return true;
  });
  // The sniffed root and the parsed one can only differ for a document the sniffer misread.
  if (root.local !== rootName) throw new InvalidResponse(`unexpected root element <${root.local}>`, root.local);
  ctx.ns = root.ns;
  if (event === null) {
    event = readEvent(null, ctx);
    for (const block of pending) onBlock(block, index++);
  }
  return { root, event };
}

export function parseIofResultList(input: string | Uint8Array, options: IofReadOptions = {}): ResultList {
  const doc = parseIofDocument(input, options);
  if (doc.kind !== 'ResultList')
    throw new InvalidResponse(`expected an IOF XML 3.0 ResultList, got a ${doc.kind}`, doc.kind);
  return doc.list;
}

export function parseIofStartList(input: string | Uint8Array, options: IofReadOptions = {}): StartList {
  const doc = parseIofDocument(input, options);
  if (doc.kind !== 'StartList')
    throw new InvalidResponse(`expected an IOF XML 3.0 StartList, got a ${doc.kind}`, doc.kind);
  return doc.list;
}

// --- shared pieces -------------------------------------------------------------------------------

function text(ctx: Ctx, el: XmlElement, local: string): string | null {
  return textOf(firstChild(el, ctx.ns, local));
}

function readEvent(event: XmlElement | null, ctx: Ctx): EventRef {
  // SplitsBrowser's test files omit the required Event; an anonymous event is the honest reading.
  if (event === null) return { id: null, name: null, event: null };
  const start = firstChild(event, ctx.ns, 'StartTime');
  ctx.eventDate = start === null ? null : parseDate(text(ctx, start, 'Date'));
  const races = childrenNamed(event, ctx.ns, 'Race');
  for (let i = 0; i < races.length; i++) {
    const race = races[i]!;
    const number = parseInteger(text(ctx, race, 'RaceNumber'), () => `Event/Race[${i + 1}]/RaceNumber`);
    if (number === null) continue;
    const raceStart = firstChild(race, ctx.ns, 'StartTime');
    const date = raceStart === null ? null : parseDate(text(ctx, raceStart, 'Date'));
    if (date !== null) ctx.raceDates.set(number, date);
    const ext = firstChild(race, ctx.ns, 'Extensions');
    const raceId = ext === null ? null : textOf(firstChild(ext, EVENTOR_EXTENSIONS_NS, 'EventRaceId'));
    if (raceId !== null) ctx.raceIds.set(number, raceId);
  }
  if (races.length === 1 && ctx.raceIds.size === 1) ctx.onlyRaceId = [...ctx.raceIds.values()][0]!;
  return { id: idOf(ctx, event), name: text(ctx, event, 'Name'), event: null };
}

/** The Eventor id among several `Id` elements (type "Eventor"), else the first non-empty one. */
function idOf(ctx: Ctx, el: XmlElement): string | null {
  let first: string | null = null;
  const children = el.children;
  if (children === null) return null;
  for (const c of children) {
    if (c.local !== 'Id' || c.ns !== ctx.ns) continue;
    const value = textOf(c);
    if (value === null) continue;
    if (attr(c, 'type')?.toLowerCase() === 'eventor') return value;
    first ??= value;
  }
  return first;
}

const RESULT_LIST_MODES = new Set(['Default', 'Unordered', 'UnorderedNoTimes']);

function readClass(ctx: Ctx, block: XmlElement, path: string): { ref: ClassRef; entries: number | null } {
  const cls = firstChild(block, ctx.ns, 'Class');
  if (cls === null) return { ref: { id: null, name: '', shortName: null, resultListMode: 'Default' }, entries: null };
  const mode = attr(cls, 'resultListMode');
  return {
    ref: {
      id: idOf(ctx, cls),
      name: text(ctx, cls, 'Name') ?? text(ctx, cls, 'ShortName') ?? '',
      shortName: text(ctx, cls, 'ShortName'),
      resultListMode: mode !== null && RESULT_LIST_MODES.has(mode) ? (mode as ClassRef['resultListMode']) : 'Default',
    },
    entries: parseInteger(attr(cls, 'numberOfCompetitors'), () => `${path}/Class@numberOfCompetitors`),
  };
}

function readCourse(ctx: Ctx, el: XmlElement, path: string): Course {
  return {
    name: text(ctx, el, 'Name'),
    length: parseSeconds(text(ctx, el, 'Length'), () => `${path}/Length`),
    climb: parseSeconds(text(ctx, el, 'Climb'), () => `${path}/Climb`),
    controls: parseInteger(text(ctx, el, 'NumberOfControls'), () => `${path}/NumberOfControls`),
  };
}

function readClassCourses(ctx: Ctx, block: XmlElement, path: string): Course[] {
  const els = childrenNamed(block, ctx.ns, 'Course');
  const courses = els.map((el, i) => ({
    race: parseInteger(attr(el, 'raceNumber'), () => `${path}/Course[${i + 1}]@raceNumber`) ?? 0,
    course: readCourse(ctx, el, `${path}/Course[${i + 1}]`),
  }));
  // Stable sort: courses of race 1 first, so a multi-race class has its courses in race order.
  courses.sort((a, b) => a.race - b.race);
  return courses.map((c) => c.course);
}

function readPerson(ctx: Ctx, el: XmlElement | null): PersonRef | null {
  if (el === null) return null;
  const name = firstChild(el, ctx.ns, 'Name');
  const id = idOf(ctx, el);
  if (name === null && id === null) return null;
  const sex = attr(el, 'sex');
  const nationality = firstChild(el, ctx.ns, 'Nationality');
  return {
    id,
    name: {
      family: name === null ? '' : (text(ctx, name, 'Family') ?? ''),
      given: name === null ? '' : (text(ctx, name, 'Given') ?? ''),
    },
    sex: sex === 'F' || sex === 'M' ? sex : null,
    birthDate: parseDate(text(ctx, el, 'BirthDate')),
    countryCode: nationality === null ? null : countryCode(attr(nationality, 'code')),
  };
}

/** IOF codes are IOC three-letter codes; MeOS writes `..` for unknown, which is no code at all. */
function countryCode(code: string | null): string | null {
  return code !== null && /^[A-Za-z]{2,3}$/.test(code) ? code : null;
}

function readOrganisation(ctx: Ctx, el: XmlElement | null): OrganisationRef | null {
  if (el === null) return null;
  const country = firstChild(el, ctx.ns, 'Country');
  return {
    id: idOf(ctx, el),
    name: text(ctx, el, 'Name'),
    shortName: text(ctx, el, 'ShortName'),
    countryCode: country === null ? null : countryCode(attr(country, 'code')),
  };
}

function punchingUnit(system: string | null): PunchingUnitType | null {
  if (system === null) return null;
  const s = system.toLowerCase();
  if (s === 'si' || s === 'sportident') return 'SI';
  if (s === 'emit' || s === 'ecard') return 'Emit';
  if (s === 'emitag') return 'emiTag';
  if (s === 'manual') return 'manual';
  if (s === 'toepunch') return 'ToePunch';
  if (s === 'huichang') return 'Huichang';
  return 'other';
}

function readCard(el: XmlElement): Card | null {
  const number = textOf(el);
  return number === null ? null : { number, type: punchingUnit(attr(el, 'punchingSystem')) };
}

function readOverall(ctx: Ctx, el: XmlElement, path: string): OverallResult {
  return overallWithoutPlaceholders({
    time: parseSeconds(text(ctx, el, 'Time'), () => `${path}/Time`),
    timeBehind: parseSeconds(text(ctx, el, 'TimeBehind'), () => `${path}/TimeBehind`),
    position: parseInteger(text(ctx, el, 'Position'), () => `${path}/Position`),
    status: parseStatus(text(ctx, el, 'Status'), () => `${path}/Status`),
  });
}

function raceIdFor(ctx: Ctx, raceNumber: number | null): string | null {
  return raceNumber === null ? ctx.onlyRaceId : (ctx.raceIds.get(raceNumber) ?? null);
}

function dateFor(ctx: Ctx, raceNumber: number | null): string | null {
  return (raceNumber === null ? null : ctx.raceDates.get(raceNumber)) ?? ctx.eventDate;
}

interface ReadRaceResult {
  result: RaceResult;
  leg: number | null;
  legOrder: number | null;
}

/**
 * One `Result` (PersonRaceResult or TeamMemberRaceResult) in a single pass over its children:
 * this is the hot loop of a big list with splits.
 */
function readRaceResult(ctx: Ctx, el: XmlElement, path: string): ReadRaceResult {
  const ns = ctx.ns;
  const raceNumber = parseInteger(attr(el, 'raceNumber'), () => `${path}@raceNumber`);
  let leg: number | null = null;
  let legOrder: number | null = null;
  let bib: string | null = null;
  let start: string | null = null;
  let finish: string | null = null;
  let time: number | null = null;
  let behind: number | null = null;
  let behindUntyped: number | null = null;
  let position: number | null = null;
  let positionUntyped: number | null = null;
  let statusText: string | null = null;
  let overall: OverallResult | null = null;
  let course: Course | null = null;
  const splits: SplitTime[] = [];
  const cards: Card[] = [];
  const children = el.children ?? [];
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    if (c.ns !== ns) continue;
    switch (c.local) {
      case 'Leg':
        leg = parseInteger(textOf(c), () => `${path}/Leg`);
        break;
      case 'LegOrder':
        legOrder = parseInteger(textOf(c), () => `${path}/LegOrder`);
        break;
      case 'BibNumber':
        bib = textOf(c);
        break;
      case 'StartTime':
        start = parseDateTime(textOf(c), ctx, dateFor(ctx, raceNumber), () => `${path}/StartTime`);
        break;
      case 'FinishTime':
        finish = parseDateTime(textOf(c), ctx, dateFor(ctx, raceNumber), () => `${path}/FinishTime`);
        break;
      case 'Time':
        time = parseSeconds(textOf(c), () => `${path}/Time`);
        break;
      case 'TimeBehind': {
        const type = attr(c, 'type');
        const value = parseSeconds(textOf(c), () => `${path}/TimeBehind`);
        if (type === 'Leg') behind = value;
        else if (type === null) behindUntyped = value;
        break;
      }
      case 'Position': {
        const type = attr(c, 'type');
        const value = parseInteger(textOf(c), () => `${path}/Position`);
        if (type === 'Leg') position = value;
        else if (type === null) positionUntyped = value;
        break;
      }
      case 'Status':
        statusText = textOf(c);
        break;
      case 'OverallResult':
        overall = readOverall(ctx, c, `${path}/OverallResult`);
        break;
      case 'Course':
        course = readCourse(ctx, c, `${path}/Course`);
        break;
      case 'SplitTime': {
        const s = attr(c, 'status');
        const index = splits.length;
        splits.push({
          controlCode: text(ctx, c, 'ControlCode') ?? '',
          time: parseSeconds(text(ctx, c, 'Time'), () => `${path}/SplitTime[${index + 1}]/Time`),
          status: s === 'Missing' || s === 'Additional' ? s : 'OK',
        });
        break;
      }
      case 'ControlCard': {
        const card = readCard(c);
        if (card !== null) cards.push(card);
        break;
      }
      default:
        break;
    }
  }
  const status: ResultStatus = parseStatus(statusText, () => `${path}/Status`);
  return {
    leg,
    legOrder,
    result: raceResultWithoutPlaceholders({
      raceId: raceIdFor(ctx, raceNumber),
      raceNumber,
      bibNumber: bib,
      startTime: start,
      finishTime: finish,
      time,
      timeBehind: behind ?? behindUntyped,
      position: position ?? positionUntyped,
      status,
      splits,
      overall,
      course,
      cards,
    }),
  };
}

// --- the one walker over both kinds of list -----------------------------------------------------
//
// A ResultList and a StartList have one shape: class blocks holding persons (each with one race
// entry per race) and teams (each with members, one race entry each). What differs is data: the
// element names, how one race entry is read, what a member without one becomes, and how a team's
// own standing is made from its members. `ListKind` holds exactly that; `walkClasses` does the rest
// (streaming the blocks, merging a class spread over several blocks and its teams).

interface TeamBuild<Member> {
  name: string | null;
  organisations: OrganisationRef[];
  bibNumber: string | null;
  members: Member[];
  merged: boolean;
}

/** What every class of a list has, whatever its kind. */
interface ClassShape<Person> {
  numberOfEntries: number | null;
  courses: Course[];
  persons: Person[];
}

interface ListKind<
  Race,
  Member extends { leg: number | null; legOrder: number | null },
  Person,
  Team,
  Class extends ClassShape<Person>,
> {
  root: 'ResultList' | 'StartList';
  block: 'ClassResult' | 'ClassStart';
  person: 'PersonResult' | 'PersonStart';
  team: 'TeamResult' | 'TeamStart';
  member: 'TeamMemberResult' | 'TeamMemberStart';
  race: 'Result' | 'Start';
  readRace(ctx: Ctx, el: XmlElement, path: string): { race: Race; leg: number | null; legOrder: number | null };
  /** What a team member with a Person but no race entry becomes (old QuickEvent writes them). */
  raceless(ctx: Ctx): Race;
  makePerson(person: PersonRef | null, organisation: OrganisationRef | null, races: Race[]): Person;
  makeMember(
    person: PersonRef | null,
    organisation: OrganisationRef | null,
    leg: number | null,
    legOrder: number | null,
    race: Race,
  ): Member;
  /** The team's name when its `Name` is missing (a fallback of the kind), else null. */
  teamNameFallback(ctx: Ctx, el: XmlElement, organisations: OrganisationRef[]): string | null;
  finishTeam(team: TeamBuild<Member>): Team;
  makeClass(ref: ClassRef, entries: number | null, courses: Course[], persons: Person[]): Class & { teams: Team[] };
}

function classKey(ref: ClassRef): string {
  return ref.id !== null ? `id:${ref.id}` : `name:${ref.name}`;
}

function teamKey(name: string | null, bib: string | null): string {
  return `${bib ?? ''}\u0000${name ?? ''}`;
}

function legSortKey(m: { leg: number | null; legOrder: number | null }): number {
  return (m.leg ?? Number.MAX_SAFE_INTEGER / 1024) * 1024 + (m.legOrder ?? 0);
}

/** The first leg's member (its start is the team's start). */
function firstLegMember<T extends { leg: number | null }>(members: T[]): T | null {
  let first: T | null = null;
  for (const m of members) if (first === null || (m.leg ?? Infinity) < (first.leg ?? Infinity)) first = m;
  return first;
}

/** The member whose result is the team's: the highest leg, among parallel runners the last one with an OverallResult. */
function lastLegMember<T extends { leg: number | null }>(members: T[], hasOverall: (m: T) => boolean): T | null {
  let best: T | null = null;
  for (const m of members) {
    if (best === null) {
      best = m;
      continue;
    }
    const leg = m.leg ?? -1;
    const bestLeg = best.leg ?? -1;
    if (leg > bestLeg || (leg === bestLeg && (hasOverall(m) || !hasOverall(best)))) best = m;
  }
  return best;
}

/** One PersonResult/PersonStart in a single pass over its children: a vacant slot has no Person. */
function readPersonEntry<Race, Person>(
  ctx: Ctx,
  kind: ListKind<Race, never, Person, unknown, ClassShape<Person>>,
  el: XmlElement,
  path: string,
): Person {
  const races: Race[] = [];
  let personEl: XmlElement | null = null;
  let organisationEl: XmlElement | null = null;
  let r = 0;
  for (const c of el.children ?? []) {
    if (c.ns !== ctx.ns) continue;
    if (c.local === kind.race) {
      r++;
      races.push(kind.readRace(ctx, c, `${path}/${kind.race}[${r}]`).race);
    } else if (c.local === 'Person') {
      personEl ??= c;
    } else if (c.local === 'Organisation') {
      organisationEl ??= c;
    }
  }
  return kind.makePerson(readPerson(ctx, personEl), readOrganisation(ctx, organisationEl), races);
}

function readTeamEntry<Race, Member extends { leg: number | null; legOrder: number | null }>(
  ctx: Ctx,
  kind: ListKind<Race, Member, unknown, unknown, ClassShape<unknown>>,
  el: XmlElement,
  path: string,
): TeamBuild<Member> {
  const organisations: OrganisationRef[] = [];
  const members: Member[] = [];
  let m = 0;
  for (const c of el.children ?? []) {
    if (c.ns !== ctx.ns) continue;
    if (c.local === 'Organisation') {
      const o = readOrganisation(ctx, c);
      if (o !== null) organisations.push(o);
    } else if (c.local === kind.member) {
      m++;
      const person = readPerson(ctx, firstChild(c, ctx.ns, 'Person'));
      const organisation = readOrganisation(ctx, firstChild(c, ctx.ns, 'Organisation'));
      const raceEl = firstChild(c, ctx.ns, kind.race);
      if (raceEl === null) {
        // Without a race entry a member is kept only when it names someone.
        if (person !== null) members.push(kind.makeMember(person, organisation, null, null, kind.raceless(ctx)));
        continue;
      }
      const { race, leg, legOrder } = kind.readRace(ctx, raceEl, `${path}/${kind.member}[${m}]/${kind.race}[1]`);
      members.push(kind.makeMember(person, organisation, leg, legOrder, race));
    }
  }
  const name = text(ctx, el, 'Name') ?? kind.teamNameFallback(ctx, el, organisations);
  return { name, organisations, bibNumber: text(ctx, el, 'BibNumber'), members, merged: false };
}

/**
 * The classes of a list: every class block in document order, a class written in several blocks
 * (OS2010: one per relay leg) merged into one, and teams with the same name and bib merged too.
 */
function walkClasses<
  Race,
  Member extends { leg: number | null; legOrder: number | null },
  Person,
  Team,
  Class extends ClassShape<Person>,
>(
  source: string,
  ctx: Ctx,
  kind: ListKind<Race, Member, Person, Team, Class>,
): { root: XmlElement; event: EventRef; classes: Array<Class & { teams: Team[] }> } {
  type Built = Class & { teams: Team[] };
  const classes: Built[] = [];
  const byClass = new Map<
    string,
    { cls: Built; teams: TeamBuild<Member>[]; teamIndex: Map<string, TeamBuild<Member>> }
  >();
  // What a class (a team) repeated in the document has so far, kept as sets: a class or team
  // repeated many times must not cost the square of its repeats.
  const classCourses = new Map<Built, Set<string>>();
  const teamClubs = new Map<TeamBuild<Member>, Set<string>>();
  const { root, event } = streamBlocks(source, ctx, kind.root, kind.block, (block, b) => {
    const path = `${kind.root}/${kind.block}[${b + 1}]`;
    const { ref, entries } = readClass(ctx, block, path);
    const courses = readClassCourses(ctx, block, path);
    const persons: Person[] = [];
    const teams: TeamBuild<Member>[] = [];
    let p = 0;
    let t = 0;
    for (const child of block.children ?? []) {
      if (child.ns !== ctx.ns) continue;
      if (child.local === kind.person) {
        p++;
        persons.push(
          readPersonEntry(
            ctx,
            kind as unknown as ListKind<Race, never, Person, unknown, ClassShape<Person>>,
            child,
            `${path}/${kind.person}[${p}]`,
          ),
        );
      } else if (child.local === kind.team) {
        t++;
        teams.push(readTeamEntry(ctx, kind, child, `${path}/${kind.team}[${t}]`));
      }
    }
    const key = classKey(ref);
    const existing = byClass.get(key);
    if (existing === undefined) {
      const cls = kind.makeClass(ref, entries, courses, persons);
      const teamIndex = new Map<string, TeamBuild<Member>>();
      for (const team of teams) teamIndex.set(teamKey(team.name, team.bibNumber), team);
      byClass.set(key, { cls, teams, teamIndex });
      classes.push(cls);
      return;
    }
    // The same class again: merge.
    const target = existing.cls;
    for (const person of persons) target.persons.push(person);
    let seen = classCourses.get(target);
    if (seen === undefined) classCourses.set(target, (seen = new Set(target.courses.map((c) => JSON.stringify(c)))));
    for (const course of courses) {
      const key = JSON.stringify(course);
      if (!seen.has(key)) {
        seen.add(key);
        target.courses.push(course);
      }
    }
    target.numberOfEntries ??= entries;
    for (const team of teams) {
      const k = teamKey(team.name, team.bibNumber);
      const same = existing.teamIndex.get(k);
      if (same === undefined) {
        existing.teams.push(team);
        existing.teamIndex.set(k, team);
      } else {
        for (const m of team.members) same.members.push(m);
        let clubs = teamClubs.get(same);
        if (clubs === undefined)
          teamClubs.set(same, (clubs = new Set(same.organisations.map((x) => JSON.stringify([x.id, x.name])))));
        for (const o of team.organisations) {
          const club = JSON.stringify([o.id, o.name]);
          if (!clubs.has(club)) {
            clubs.add(club);
            same.organisations.push(o);
          }
        }
        same.merged = true;
      }
    }
  });
  for (const { cls, teams } of byClass.values()) {
    cls.teams = teams.map((team) =>
      kind.finishTeam(
        team.merged ? { ...team, members: [...team.members].sort((a, b) => legSortKey(a) - legSortKey(b)) } : team,
      ),
    );
  }
  return { root, event, classes };
}

// --- ResultList ----------------------------------------------------------------------------------

const LIST_STATUSES: Record<string, ResultList['status']> = {
  complete: 'complete',
  snapshot: 'snapshot',
  delta: 'delta',
};

function finishTeamResult(team: TeamBuild<TeamMemberResult>): TeamResult {
  const members = team.members;
  const last = lastLegMember(members, (m) => m.result.overall !== null);
  const first = firstLegMember(members);
  const base = {
    name: team.name ?? '',
    organisations: team.organisations,
    bibNumber: team.bibNumber,
    startTime: first?.result.startTime ?? null,
    finishTime: last?.result.finishTime ?? null,
    members,
  };
  const overall = last?.result.overall ?? null;
  if (overall !== null) {
    return teamResultWithoutPlaceholders({
      ...base,
      time: overall.time,
      timeBehind: overall.timeBehind,
      position: overall.position,
      status: overall.status,
    });
  }
  // No standing written: derive what can be derived honestly (no place without the producer's word).
  const notOk = members.find((m) => m.result.status !== 'OK');
  let time: number | null = null;
  if (notOk === undefined && members.length > 0 && members.every((m) => m.result.time !== null)) {
    time = members.reduce((sum, m) => sum + (m.result.time ?? 0), 0);
  }
  return teamResultWithoutPlaceholders({
    ...base,
    time,
    timeBehind: null,
    position: null,
    status: notOk?.result.status ?? (members.length > 0 ? 'OK' : 'Inactive'),
  });
}

const RESULTS: ListKind<RaceResult, TeamMemberResult, PersonResult, TeamResult, Omit<ClassResult, 'teams'>> = {
  root: 'ResultList',
  block: 'ClassResult',
  person: 'PersonResult',
  team: 'TeamResult',
  member: 'TeamMemberResult',
  race: 'Result',
  readRace: (ctx, el, path) => {
    const { result, leg, legOrder } = readRaceResult(ctx, el, path);
    return { race: result, leg, legOrder };
  },
  raceless: (ctx) => ({
    raceId: ctx.onlyRaceId,
    raceNumber: null,
    bibNumber: null,
    startTime: null,
    finishTime: null,
    time: null,
    timeBehind: null,
    position: null,
    status: 'Inactive',
    splits: [],
    overall: null,
    course: null,
    cards: [],
  }),
  makePerson: (person, organisation, results) => ({ person, organisation, results }),
  makeMember: (person, organisation, leg, legOrder, result) => ({ person, organisation, leg, legOrder, result }),
  teamNameFallback: (ctx, el, organisations) => {
    // Old QuickEvent wrote the team name in a US-spelled <Organization> instead of <Name>.
    const organization = firstChild(el, ctx.ns, 'Organization');
    return (
      (organization === null ? null : text(ctx, organization, 'Name')) ??
      organisations[0]?.name ??
      text(ctx, el, 'BibNumber') ??
      ''
    );
  },
  finishTeam: finishTeamResult,
  makeClass: (ref, entries, courses, persons) => ({
    class: ref,
    numberOfEntries: entries,
    numberOfStarts: null,
    courses,
    persons,
    teams: [],
  }),
};

function readResultList(source: string, ctx: Ctx): ResultList {
  const { root, event, classes } = walkClasses(source, ctx, RESULTS);
  const statusText = attr(root, 'status');
  let status: ResultList['status'] = 'complete';
  if (statusText !== null) {
    const s = LIST_STATUSES[statusText.toLowerCase()];
    if (s === undefined) throw new InvalidResponse(`unknown ResultList status '${statusText}'`, 'ResultList@status');
    status = s;
  }
  return { status, event, classes };
}

// --- StartList -----------------------------------------------------------------------------------

function readRaceStart(
  ctx: Ctx,
  el: XmlElement,
  path: string,
): { race: RaceStart; leg: number | null; legOrder: number | null } {
  const raceNumber = parseInteger(attr(el, 'raceNumber'), () => `${path}@raceNumber`);
  const courseEl = firstChild(el, ctx.ns, 'Course');
  const cards: Card[] = [];
  for (const c of childrenNamed(el, ctx.ns, 'ControlCard')) {
    const card = readCard(c);
    if (card !== null) cards.push(card);
  }
  return {
    leg: parseInteger(text(ctx, el, 'Leg'), () => `${path}/Leg`),
    legOrder: parseInteger(text(ctx, el, 'LegOrder'), () => `${path}/LegOrder`),
    race: {
      raceId: raceIdFor(ctx, raceNumber),
      raceNumber,
      startTime: parseDateTime(text(ctx, el, 'StartTime'), ctx, dateFor(ctx, raceNumber), () => `${path}/StartTime`),
      bibNumber: text(ctx, el, 'BibNumber'),
      cards,
      course: courseEl === null ? null : readCourse(ctx, courseEl, `${path}/Course`),
    },
  };
}

const STARTS: ListKind<RaceStart, TeamMemberStart, PersonStart, TeamStart, Omit<ClassStart, 'teams'>> = {
  root: 'StartList',
  block: 'ClassStart',
  person: 'PersonStart',
  team: 'TeamStart',
  member: 'TeamMemberStart',
  race: 'Start',
  readRace: readRaceStart,
  raceless: (ctx) => ({
    raceId: ctx.onlyRaceId,
    raceNumber: null,
    startTime: null,
    bibNumber: null,
    cards: [],
    course: null,
  }),
  makePerson: (person, organisation, starts) => ({ person, organisation, starts }),
  makeMember: (person, organisation, leg, legOrder, start) => ({ person, organisation, leg, legOrder, start }),
  teamNameFallback: () => null,
  finishTeam: (team) => ({
    name: team.name,
    organisations: team.organisations,
    bibNumber: team.bibNumber,
    startTime: firstLegMember(team.members)?.start.startTime ?? null,
    members: team.members,
  }),
  makeClass: (ref, entries, courses, persons) => ({
    class: ref,
    numberOfEntries: entries,
    courses,
    persons,
    teams: [],
  }),
};

function readStartList(source: string, ctx: Ctx): StartList {
  const { event, classes } = walkClasses(source, ctx, STARTS);
  return { event, classes };
}
