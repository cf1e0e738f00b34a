/**
 * IOF XML 3.0 ResultList / StartList -> the domain model (model.ts), so that code using a list
 * does not care whether it came from Eventor's native XML, Eventor's `/iofxml` operations or a
 * file from any timing software.
 *
 * Decisions (see shared notes/iof-xml.md sections 3-7 and 11):
 * - Elements are matched by namespace URI and local name, never by prefix or order. Elements of
 *   other namespaces (Eventor's extensions, custom data) are ignored, except Eventor's
 *   `EventRaceId` on `Event/Race`, which gives results their Eventor race id.
 * - A class spread over several ClassResult/ClassStart blocks (OS2010 writes one per relay leg) is
 *   merged into one, and teams with the same name and bib in those blocks are merged too.
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
import { InvalidResponse, ValidationError } from '../errors.js';
import type {
  Card, ClassRef, ClassResult, ClassStart, Course, EventRef, OrganisationRef, OverallResult, PersonRef,
  PersonResult, PersonStart, PunchingUnitType, RaceResult, RaceStart, ResultList, ResultStatus, SplitTime,
  StartList, TeamMemberResult, TeamResult, TeamStart,
} from '../model.js';
import { overallWithoutPlaceholders, raceResultWithoutPlaceholders, teamResultWithoutPlaceholders } from '../placeholders.js';
import { isValidTimeZone } from '../../time/zones.js';
import { toXmlText } from './decode.js';
import { detectIofDocument, EVENTOR_EXTENSIONS_NS } from './detect.js';
import { parseDate, parseDateTime, parseInteger, parseSeconds, parseStatus } from './values.js';
import { attr, childrenNamed, firstChild, parseXml, textOf, type XmlElement } from './xml-tree.js';

// model.ts exports no type alias for it.
type TeamMemberStart = TeamStart['members'][number];

export interface IofReadOptions {
  /** IANA zone for times written without an offset; without it such times stay wall-clock text. */
  timeZone?: string;
}

export type IofDocument =
  | { kind: 'ResultList'; list: ResultList }
  | { kind: 'StartList'; list: StartList };

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
    throw new InvalidResponse(`IOF XML 2.0.3 is not supported (root <${info.rootName ?? '?'}>); export IOF XML 3.0 instead`, info.rootName);
  }
  if (info.version === null) {
    if (info.rootName === null) throw new InvalidResponse('not an XML document (no root element found)', null);
    throw new InvalidResponse(`not IOF XML 3.0: root <${info.rootName}> in namespace '${info.namespace || '(none)'}'`, info.rootName);
  }
  if (info.root === 'other') {
    throw new InvalidResponse(`IOF XML 3.0 ${info.rootName} is not supported; expected a ResultList or a StartList (${info.rootName} is not read; only result and start lists are)`, info.rootName);
  }
  const timeZone = options.timeZone;
  if (timeZone !== undefined && !isValidTimeZone(timeZone)) throw new ValidationError('timeZone', `unknown time zone '${timeZone}'`);
  const ctx: Ctx = { ns: '', timeZone, eventDate: null, raceDates: new Map(), raceIds: new Map(), onlyRaceId: null };
  if (info.root === 'ResultList') return { kind: 'ResultList', list: readResultList(text, ctx) };
  return { kind: 'StartList', list: readStartList(text, ctx) };
}

/**
 * Parses the document and hands every ClassResult/ClassStart to `onBlock` as soon as it is
 * complete, in document order, and drops it from the tree. Blocks before the Event (only in
 * misordered files) wait until the Event is read, since race dates and ids come from it.
 */
function streamBlocks(text: string, ctx: Ctx, rootName: 'ResultList' | 'StartList', blockName: string, onBlock: (block: XmlElement, index: number) => void): { root: XmlElement; event: EventRef } {
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
  if (doc.kind !== 'ResultList') throw new InvalidResponse(`expected an IOF XML 3.0 ResultList, got a ${doc.kind}`, doc.kind);
  return doc.list;
}

export function parseIofStartList(input: string | Uint8Array, options: IofReadOptions = {}): StartList {
  const doc = parseIofDocument(input, options);
  if (doc.kind !== 'StartList') throw new InvalidResponse(`expected an IOF XML 3.0 StartList, got a ${doc.kind}`, doc.kind);
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
    name: { family: name === null ? '' : text(ctx, name, 'Family') ?? '', given: name === null ? '' : text(ctx, name, 'Given') ?? '' },
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
  return raceNumber === null ? ctx.onlyRaceId : ctx.raceIds.get(raceNumber) ?? null;
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
      case 'Leg': leg = parseInteger(textOf(c), () => `${path}/Leg`); break;
      case 'LegOrder': legOrder = parseInteger(textOf(c), () => `${path}/LegOrder`); break;
      case 'BibNumber': bib = textOf(c); break;
      case 'StartTime': start = parseDateTime(textOf(c), ctx, dateFor(ctx, raceNumber), () => `${path}/StartTime`); break;
      case 'FinishTime': finish = parseDateTime(textOf(c), ctx, dateFor(ctx, raceNumber), () => `${path}/FinishTime`); break;
      case 'Time': time = parseSeconds(textOf(c), () => `${path}/Time`); break;
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
      case 'Status': statusText = textOf(c); break;
      case 'OverallResult': overall = readOverall(ctx, c, `${path}/OverallResult`); break;
      case 'Course': course = readCourse(ctx, c, `${path}/Course`); break;
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
      default: break;
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

function classKey(ref: ClassRef): string {
  return ref.id !== null ? `id:${ref.id}` : `name:${ref.name}`;
}

function teamKey(name: string | null, bib: string | null): string {
  return `${bib ?? ''}\u0000${name ?? ''}`;
}

function legSortKey(m: { leg: number | null; legOrder: number | null }): number {
  return (m.leg ?? Number.MAX_SAFE_INTEGER / 1024) * 1024 + (m.legOrder ?? 0);
}

/** The member whose result is the team's: the highest leg, among parallel runners the last one with an OverallResult. */
function lastLegMember<T extends { leg: number | null }>(members: T[], hasOverall: (m: T) => boolean): T | null {
  let best: T | null = null;
  for (const m of members) {
    if (best === null) { best = m; continue; }
    const leg = m.leg ?? -1;
    const bestLeg = best.leg ?? -1;
    if (leg > bestLeg || (leg === bestLeg && (hasOverall(m) || !hasOverall(best)))) best = m;
  }
  return best;
}

// --- ResultList ----------------------------------------------------------------------------------

const LIST_STATUSES: Record<string, ResultList['status']> = { complete: 'complete', snapshot: 'snapshot', delta: 'delta' };

interface TeamBuild {
  name: string;
  organisations: OrganisationRef[];
  bibNumber: string | null;
  members: TeamMemberResult[];
  merged: boolean;
}

function readResultList(text: string, ctx: Ctx): ResultList {
  const classes: ClassResult[] = [];
  const byClass = new Map<string, { cls: ClassResult; teams: TeamBuild[]; teamIndex: Map<string, TeamBuild> }>();
  const { root, event } = streamBlocks(text, ctx, 'ResultList', 'ClassResult', (block, b) => {
    const path = `ResultList/ClassResult[${b + 1}]`;
    const { ref, entries } = readClass(ctx, block, path);
    const courses = readClassCourses(ctx, block, path);
    const persons: PersonResult[] = [];
    const teams: TeamBuild[] = [];
    let p = 0;
    let t = 0;
    for (const child of block.children ?? []) {
      if (child.ns !== ctx.ns) continue;
      if (child.local === 'PersonResult') {
        p++;
        persons.push(readPersonResult(ctx, child, `${path}/PersonResult[${p}]`));
      } else if (child.local === 'TeamResult') {
        t++;
        teams.push(readTeamResult(ctx, child, `${path}/TeamResult[${t}]`));
      }
    }
    const key = classKey(ref);
    const existing = byClass.get(key);
    if (existing === undefined) {
      const cls: ClassResult = { class: ref, numberOfEntries: entries, numberOfStarts: null, courses, persons, teams: [] };
      const teamIndex = new Map<string, TeamBuild>();
      for (const team of teams) teamIndex.set(teamKey(team.name, team.bibNumber), team);
      byClass.set(key, { cls, teams, teamIndex });
      classes.push(cls);
      return;
    }
    // The same class again (OS2010: one block per relay leg): merge.
    const target = existing.cls;
    for (const person of persons) target.persons.push(person);
    const seen = new Set(target.courses.map((c) => JSON.stringify(c)));
    for (const course of courses) if (!seen.has(JSON.stringify(course))) target.courses.push(course);
    target.numberOfEntries ??= entries;
    for (const team of teams) {
      const k = teamKey(team.name, team.bibNumber);
      const same = existing.teamIndex.get(k);
      if (same === undefined) {
        existing.teams.push(team);
        existing.teamIndex.set(k, team);
      } else {
        for (const m of team.members) same.members.push(m);
        for (const o of team.organisations) {
          if (!same.organisations.some((x) => x.id === o.id && x.name === o.name)) same.organisations.push(o);
        }
        same.merged = true;
      }
    }
  });
  const statusText = attr(root, 'status');
  let status: ResultList['status'] = 'complete';
  if (statusText !== null) {
    const s = LIST_STATUSES[statusText.toLowerCase()];
    if (s === undefined) throw new InvalidResponse(`unknown ResultList status '${statusText}'`, 'ResultList@status');
    status = s;
  }
  for (const { cls, teams } of byClass.values()) cls.teams = teams.map(finishTeam);
  return { status, event, classes };
}

function readPersonResult(ctx: Ctx, el: XmlElement, path: string): PersonResult {
  const results: RaceResult[] = [];
  let person: PersonRef | null = null;
  let organisation: OrganisationRef | null = null;
  let r = 0;
  for (const c of el.children ?? []) {
    if (c.ns !== ctx.ns) continue;
    if (c.local === 'Result') {
      r++;
      results.push(readRaceResult(ctx, c, `${path}/Result[${r}]`).result);
    } else if (c.local === 'Person') {
      person = readPerson(ctx, c);
    } else if (c.local === 'Organisation') {
      organisation = readOrganisation(ctx, c);
    }
  }
  return { person, organisation, results };
}

function readTeamResult(ctx: Ctx, el: XmlElement, path: string): TeamBuild {
  const organisations: OrganisationRef[] = [];
  const members: TeamMemberResult[] = [];
  let m = 0;
  for (const c of el.children ?? []) {
    if (c.ns !== ctx.ns) continue;
    if (c.local === 'Organisation') {
      const o = readOrganisation(ctx, c);
      if (o !== null) organisations.push(o);
    } else if (c.local === 'TeamMemberResult') {
      m++;
      const member = readTeamMemberResult(ctx, c, `${path}/TeamMemberResult[${m}]`);
      if (member !== null) members.push(member);
    }
  }
  const organization = firstChild(el, ctx.ns, 'Organization');
  const name = text(ctx, el, 'Name')
    // Old QuickEvent wrote the team name in a US-spelled <Organization> instead of <Name>.
    ?? (organization === null ? null : text(ctx, organization, 'Name'))
    ?? organisations[0]?.name ?? text(ctx, el, 'BibNumber') ?? '';
  return { name, organisations, bibNumber: text(ctx, el, 'BibNumber'), members, merged: false };
}

function readTeamMemberResult(ctx: Ctx, el: XmlElement, path: string): TeamMemberResult | null {
  const person = readPerson(ctx, firstChild(el, ctx.ns, 'Person'));
  const organisation = readOrganisation(ctx, firstChild(el, ctx.ns, 'Organisation'));
  const resultEl = firstChild(el, ctx.ns, 'Result');
  if (resultEl === null) {
    if (person === null) return null;
    return {
      person, organisation, leg: null, legOrder: null,
      result: {
        raceId: ctx.onlyRaceId, raceNumber: null, bibNumber: null, startTime: null, finishTime: null, time: null,
        timeBehind: null, position: null, status: 'Inactive', splits: [], overall: null, course: null, cards: [],
      },
    };
  }
  const { result, leg, legOrder } = readRaceResult(ctx, resultEl, `${path}/Result[1]`);
  return { person, organisation, leg, legOrder, result };
}

function finishTeam(team: TeamBuild): TeamResult {
  const members = team.merged ? [...team.members].sort((a, b) => legSortKey(a) - legSortKey(b)) : team.members;
  const last = lastLegMember(members, (m) => m.result.overall !== null);
  let first: TeamMemberResult | null = null;
  for (const m of members) if (first === null || (m.leg ?? Infinity) < (first.leg ?? Infinity)) first = m;
  const base = {
    name: team.name,
    organisations: team.organisations,
    bibNumber: team.bibNumber,
    startTime: first?.result.startTime ?? null,
    finishTime: last?.result.finishTime ?? null,
    members,
  };
  const overall = last?.result.overall ?? null;
  if (overall !== null) {
    return teamResultWithoutPlaceholders({ ...base, time: overall.time, timeBehind: overall.timeBehind, position: overall.position, status: overall.status });
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

// --- StartList -----------------------------------------------------------------------------------

interface TeamStartBuild {
  name: string | null;
  organisations: OrganisationRef[];
  bibNumber: string | null;
  members: TeamMemberStart[];
  merged: boolean;
}

function readStartList(text: string, ctx: Ctx): StartList {
  const classes: ClassStart[] = [];
  const byClass = new Map<string, { cls: ClassStart; teams: TeamStartBuild[]; teamIndex: Map<string, TeamStartBuild> }>();
  const { event } = streamBlocks(text, ctx, 'StartList', 'ClassStart', (block, b) => {
    const path = `StartList/ClassStart[${b + 1}]`;
    const { ref, entries } = readClass(ctx, block, path);
    const courses = readClassCourses(ctx, block, path);
    const persons: PersonStart[] = [];
    const teams: TeamStartBuild[] = [];
    let p = 0;
    let t = 0;
    for (const child of block.children ?? []) {
      if (child.ns !== ctx.ns) continue;
      if (child.local === 'PersonStart') {
        p++;
        persons.push(readPersonStart(ctx, child, `${path}/PersonStart[${p}]`));
      } else if (child.local === 'TeamStart') {
        t++;
        teams.push(readTeamStart(ctx, child, `${path}/TeamStart[${t}]`));
      }
    }
    const key = classKey(ref);
    const existing = byClass.get(key);
    if (existing === undefined) {
      const cls: ClassStart = { class: ref, numberOfEntries: entries, courses, persons, teams: [] };
      const teamIndex = new Map<string, TeamStartBuild>();
      for (const team of teams) teamIndex.set(teamKey(team.name, team.bibNumber), team);
      byClass.set(key, { cls, teams, teamIndex });
      classes.push(cls);
      return;
    }
    const target = existing.cls;
    for (const person of persons) target.persons.push(person);
    const seen = new Set(target.courses.map((c) => JSON.stringify(c)));
    for (const course of courses) if (!seen.has(JSON.stringify(course))) target.courses.push(course);
    target.numberOfEntries ??= entries;
    for (const team of teams) {
      const k = teamKey(team.name, team.bibNumber);
      const same = existing.teamIndex.get(k);
      if (same === undefined) {
        existing.teams.push(team);
        existing.teamIndex.set(k, team);
      } else {
        for (const m of team.members) same.members.push(m);
        same.merged = true;
      }
    }
  });
  for (const { cls, teams } of byClass.values()) {
    cls.teams = teams.map((team): TeamStart => {
      const members = team.merged ? [...team.members].sort((a, b) => legSortKey(a) - legSortKey(b)) : team.members;
      let first: TeamMemberStart | null = null;
      for (const m of members) if (first === null || (m.leg ?? Infinity) < (first.leg ?? Infinity)) first = m;
      return { name: team.name, organisations: team.organisations, bibNumber: team.bibNumber, startTime: first?.start.startTime ?? null, members };
    });
  }
  return { event, classes };
}

function readRaceStart(ctx: Ctx, el: XmlElement, path: string): { start: RaceStart; leg: number | null; legOrder: number | null } {
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
    start: {
      raceId: raceIdFor(ctx, raceNumber),
      raceNumber,
      startTime: parseDateTime(text(ctx, el, 'StartTime'), ctx, dateFor(ctx, raceNumber), () => `${path}/StartTime`),
      bibNumber: text(ctx, el, 'BibNumber'),
      cards,
      course: courseEl === null ? null : readCourse(ctx, courseEl, `${path}/Course`),
    },
  };
}

function readPersonStart(ctx: Ctx, el: XmlElement, path: string): PersonStart {
  const starts = childrenNamed(el, ctx.ns, 'Start').map((s, i) => readRaceStart(ctx, s, `${path}/Start[${i + 1}]`).start);
  return {
    // A vacant slot has no Person.
    person: readPerson(ctx, firstChild(el, ctx.ns, 'Person')),
    organisation: readOrganisation(ctx, firstChild(el, ctx.ns, 'Organisation')),
    starts,
  };
}

function readTeamStart(ctx: Ctx, el: XmlElement, path: string): TeamStartBuild {
  const organisations: OrganisationRef[] = [];
  for (const o of childrenNamed(el, ctx.ns, 'Organisation')) {
    const org = readOrganisation(ctx, o);
    if (org !== null) organisations.push(org);
  }
  const members: TeamMemberStart[] = [];
  const memberEls = childrenNamed(el, ctx.ns, 'TeamMemberStart');
  for (let i = 0; i < memberEls.length; i++) {
    const m = memberEls[i]!;
    const person = readPerson(ctx, firstChild(m, ctx.ns, 'Person'));
    const organisation = readOrganisation(ctx, firstChild(m, ctx.ns, 'Organisation'));
    const startEl = firstChild(m, ctx.ns, 'Start');
    if (startEl === null) {
      if (person === null) continue;
      members.push({ person, organisation, leg: null, legOrder: null, start: { raceId: ctx.onlyRaceId, raceNumber: null, startTime: null, bibNumber: null, cards: [], course: null } });
      continue;
    }
    const { start, leg, legOrder } = readRaceStart(ctx, startEl, `${path}/TeamMemberStart[${i + 1}]/Start[1]`);
    members.push({ person, organisation, leg, legOrder, start });
  }
  return { name: text(ctx, el, 'Name'), organisations, bibNumber: text(ctx, el, 'BibNumber'), members, merged: false };
}
