/**
 * Start and result lists (docs/eventor.md#start-and-result-lists), read by one walker (ListKind
 * below). These can hold tens of thousands of runners with splits, so the per-runner code avoids
 * building path strings and intermediate arrays unless something is wrong.
 */
import { InvalidResponse } from '../errors.js';
import type {
  ClassRef,
  ClassResult,
  ClassStart,
  OverallResult,
  PersonResult,
  PersonStart,
  RaceResult,
  RaceStart,
  ResultList,
  SplitTime,
  StartList,
  TeamMemberResult,
  TeamMemberStart,
  TeamResult,
  TeamStart,
} from '../model.js';
import { ResultList as ResultListSchema, StartList as StartListSchema } from '../model.js';
import {
  overallWithoutPlaceholders,
  raceResultWithoutPlaceholders,
  teamResultWithoutPlaceholders,
} from '../placeholders.js';
import { parseElapsed } from '../time.js';
import type { ChunkedDocument, XmlValue } from '../xml.js';
import {
  attr,
  child,
  childPath,
  children,
  parseNativeDocument,
  parseNativeDocumentChunked,
  required,
  text,
} from '../xml.js';
import type { Ctx } from './common.js';
import {
  cards,
  dateTime,
  each,
  eventRef,
  organisationOrId,
  organisationRefs,
  personOrId,
  resultStatus,
  toInt,
  toNumber,
} from './common.js';
import type { ParseOptions } from './events.js';
import { validateClassedList } from './validate.js';

function classRef(node: XmlValue, path: string): ClassRef {
  const full = child(node, 'EventClass');
  if (full !== undefined) {
    return {
      id: text(full, 'EventClassId'),
      name: text(full, 'Name') ?? text(full, 'ClassShortName') ?? '',
      shortName: text(full, 'ClassShortName'),
      // Classes whose times are not to be shown (`timePresentation="N"`, youngest classes).
      resultListMode: attr(full, 'timePresentation') === 'N' ? 'UnorderedNoTimes' : 'Default',
    };
  }
  const classId = text(node, 'EventClassId');
  if (classId === null) throw new InvalidResponse('missing <EventClass> or <EventClassId>', `${path}/EventClass`);
  return { id: classId, name: '', shortName: null, resultListMode: 'Default' };
}

/** `BibNumber`: empty, and Eventor's `0` for "not set", are null. */
function bib(node: XmlValue): string | null {
  const value = text(node, 'BibNumber');
  return value === null || value === '0' ? null : value;
}

// ---------------------------------------------------------------------------------------------
// The one walker over both kinds of list: class -> person (one race entry per race) | team ->
// members (one race entry each). What a start list and a result list differ in is data, in a
// ListKind: element names, how a race entry is read (for a person and for a relay member), and
// how a person, member, team and class are assembled.

interface ListKind<Race, Member, Person, Team, Class> {
  classBlock: 'ClassStart' | 'ClassResult';
  person: 'PersonStart' | 'PersonResult';
  team: 'TeamStart' | 'TeamResult';
  member: 'TeamMemberStart' | 'TeamMemberResult';
  /** A multi-race person wraps each race entry in this, with the race's `EventRaceId`. */
  perRace: 'RaceStart' | 'RaceResult';
  race: 'Start' | 'Result';
  readRace(node: XmlValue, raceId: string | null, ctx: Ctx, path: string): Race;
  readMemberRace(node: XmlValue, ctx: Ctx, path: string): Race;
  makePerson(person: PersonStart['person'], organisation: PersonStart['organisation'], races: Race[]): Person;
  makeMember(
    person: PersonStart['person'],
    organisation: PersonStart['organisation'],
    leg: number | null,
    legOrder: number | null,
    race: Race,
  ): Member;
  makeTeam(node: XmlValue, ctx: Ctx, path: string, members: Member[]): Team;
  makeClass(node: XmlValue, ref: ClassRef, persons: Person[], teams: Team[]): Class;
}

function personEntry<Race, Person>(
  kind: ListKind<Race, unknown, Person, unknown, unknown>,
  node: XmlValue,
  ctx: Ctx,
  path: string,
): Person {
  let races: Race[];
  if (children(node, kind.perRace).length > 0) {
    races = each(node, kind.perRace, path, (wrapper, p) =>
      kind.readRace(required(wrapper, kind.race, p), text(wrapper, 'EventRaceId'), ctx, `${p}/${kind.race}`),
    );
  } else {
    const single = child(node, kind.race);
    if (single === undefined)
      throw new InvalidResponse(`missing <${kind.race}> or <${kind.perRace}>`, `${path}/${kind.race}`);
    races = [kind.readRace(single, text(single, 'EventRaceId'), ctx, `${path}/${kind.race}`)];
  }
  return kind.makePerson(personOrId(node, path), organisationOrId(node), races);
}

function teamEntry<Race, Member, Team>(
  kind: ListKind<Race, Member, unknown, Team, unknown>,
  node: XmlValue,
  ctx: Ctx,
  path: string,
): Team {
  const members = each(node, kind.member, path, (m, p) =>
    kind.makeMember(
      personOrId(m, p),
      organisationOrId(m),
      toInt(text(m, 'Leg')),
      toInt(text(m, 'LegOrder')),
      kind.readMemberRace(m, ctx, p),
    ),
  );
  return kind.makeTeam(node, ctx, path, members);
}

function classEntry<Race, Member, Person, Team, Class>(
  kind: ListKind<Race, Member, Person, Team, Class>,
  node: XmlValue,
  ctx: Ctx,
  path: string,
): Class {
  return kind.makeClass(
    node,
    classRef(node, path),
    each(node, kind.person, path, (p, pp) => personEntry(kind, p, ctx, pp)),
    each(node, kind.team, path, (t, tp) => teamEntry(kind, t, ctx, tp)),
  );
}

/**
 * The class elements of a list: from the node, or, when the document was parsed by chunks,
 * from the chunk sequence, each class's tree dropped once it is normalised.
 */
function mapClasses<T>(
  node: XmlValue,
  name: string,
  path: string,
  doc: ChunkedDocument | undefined,
  fn: (c: XmlValue, p: string) => T,
): T[] {
  if (doc === undefined) return each(node, name, path, fn);
  const out: T[] = [];
  let i = 0;
  for (const c of doc.chunks) out.push(fn(c, childPath(path, name, i++, doc.count)));
  return out;
}

function classes<Class>(
  kind: ListKind<unknown, unknown, unknown, unknown, Class>,
  node: XmlValue,
  ctx: Ctx,
  path: string,
  chunks?: ChunkedDocument,
): Class[] {
  return mapClasses(node, kind.classBlock, path, chunks, (c, cp) => classEntry(kind, c, ctx, cp));
}

// ---------------------------------------------------------------------------------------------
// Starts

function raceStart(node: XmlValue, raceId: string | null, ctx: Ctx, path: string): RaceStart {
  const length = toNumber(text(node, 'CourseLength'));
  return {
    raceId,
    raceNumber: null,
    startTime: dateTime(node, 'StartTime', ctx, path),
    bibNumber: bib(node),
    cards: cards(node),
    course: length === null ? null : { name: null, length, climb: null, controls: null },
  };
}

const STARTS: ListKind<RaceStart, TeamMemberStart, PersonStart, TeamStart, ClassStart> = {
  classBlock: 'ClassStart',
  person: 'PersonStart',
  team: 'TeamStart',
  member: 'TeamMemberStart',
  perRace: 'RaceStart',
  race: 'Start',
  readRace: raceStart,
  // A relay member's start is in its own <Start>, or (older lists) in the member element itself.
  readMemberRace: (m, ctx, path) => raceStart(child(m, 'Start') ?? m, text(m, 'EventRaceId'), ctx, path),
  makePerson: (person, organisation, starts) => ({ person, organisation, starts }),
  makeMember: (person, organisation, leg, legOrder, start) => ({ person, organisation, leg, legOrder, start }),
  makeTeam: (node, ctx, path, members) => ({
    name: text(node, 'TeamName'),
    organisations: organisationRefs(node),
    bibNumber: bib(node),
    startTime: dateTime(node, 'StartTime', ctx, path),
    members,
  }),
  makeClass: (node, ref, persons, teams) => ({
    class: ref,
    numberOfEntries: toInt(attr(node, 'numberOfEntries')),
    courses: [],
    persons,
    teams,
  }),
};

function startList(node: XmlValue, ctx: Ctx, path: string, chunks?: ChunkedDocument): StartList {
  return { event: eventRef(node, ctx, path), classes: classes(STARTS, node, ctx, path, chunks) };
}

export function parseStartList(xml: string, options: ParseOptions): StartList {
  const doc = parseNativeDocumentChunked(xml, 'StartList', 'ClassStart');
  return validateClassedList(StartListSchema, startList(doc.root, options, 'StartList', doc), 'StartList');
}

export function parseStartListList(xml: string, options: ParseOptions): StartList[] {
  const root = parseNativeDocument(xml, 'StartListList');
  const lists = each(root, 'StartList', 'StartListList', (s, path) =>
    validateClassedList(StartListSchema, startList(s, options, path), path),
  );
  return lists;
}

// ---------------------------------------------------------------------------------------------
// Results

/** Relay `TimeBehind` is whole seconds (`678`), unlike every other native elapsed time. */
function seconds(value: string | null): number | null {
  if (value === null) return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return parseElapsed(value);
}

function splitTimes(node: XmlValue, path: string): SplitTime[] {
  const list = children(node, 'SplitTime');
  if (list.length === 0) return [];
  const out = new Array<SplitTime>(list.length);
  let ordered = true;
  let lastSeq = -Infinity;
  const seqs = new Array<number>(list.length);
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    const controlCode = text(s, 'ControlCode');
    if (controlCode === null)
      throw new InvalidResponse('missing <ControlCode>', `${path}/SplitTime[${i + 1}]/ControlCode`);
    const time = parseElapsed(text(s, 'Time'));
    out[i] = { controlCode, time, status: time === null ? 'Missing' : 'OK' };
    const seq = toInt(attr(s, 'sequence')) ?? i;
    seqs[i] = seq;
    if (seq < lastSeq) ordered = false;
    lastSeq = seq;
  }
  if (ordered) return out;
  return out
    .map((s, i) => ({ s, seq: seqs[i]!, i }))
    .sort((a, b) => a.seq - b.seq || a.i - b.i)
    .map((x) => x.s);
}

function overallResult(node: XmlValue, path: string): OverallResult | null {
  const overall = child(node, 'OverallResult');
  if (overall === undefined) return null;
  const p = `${path}/OverallResult`;
  return overallWithoutPlaceholders({
    time: parseElapsed(text(overall, 'Time')),
    timeBehind: parseElapsed(text(overall, 'TimeDiff')) ?? seconds(text(overall, 'TimeBehind')),
    position: toInt(text(overall, 'ResultPosition')),
    status:
      child(overall, 'TeamStatus') !== undefined
        ? resultStatus(overall, 'TeamStatus', p)
        : resultStatus(overall, 'CompetitorStatus', p),
  });
}

/** Where a person's race result and a relay member's leg result read their time behind and place. */
interface ResultFieldReaders {
  timeBehind(node: XmlValue): number | null;
  position(node: XmlValue): number | null;
}

const PERSON_RESULT_FIELDS: ResultFieldReaders = {
  timeBehind: (node) => parseElapsed(text(node, 'TimeDiff')),
  position: (node) => toInt(text(node, 'ResultPosition')),
};

const MEMBER_RESULT_FIELDS: ResultFieldReaders = {
  timeBehind: (node) => seconds(text(node, 'TimeBehind')) ?? parseElapsed(text(node, 'TimeDiff')),
  position: (node) => toInt(text(node, 'Position')) ?? toInt(text(node, 'ResultPosition')),
};

function raceResult(
  node: XmlValue,
  raceId: string | null,
  ctx: Ctx,
  path: string,
  fields: ResultFieldReaders = PERSON_RESULT_FIELDS,
): RaceResult {
  return raceResultWithoutPlaceholders({
    raceId,
    raceNumber: null,
    bibNumber: bib(node),
    startTime: dateTime(node, 'StartTime', ctx, path),
    finishTime: dateTime(node, 'FinishTime', ctx, path),
    time: parseElapsed(text(node, 'Time')),
    timeBehind: fields.timeBehind(node),
    position: fields.position(node),
    status: resultStatus(node, 'CompetitorStatus', path),
    splits: splitTimes(node, path),
    overall: overallResult(node, path),
    course: null,
    cards: cards(node),
  });
}

const RESULTS: ListKind<RaceResult, TeamMemberResult, PersonResult, TeamResult, ClassResult> = {
  classBlock: 'ClassResult',
  person: 'PersonResult',
  team: 'TeamResult',
  member: 'TeamMemberResult',
  perRace: 'RaceResult',
  race: 'Result',
  readRace: raceResult,
  // A relay member's leg result is written in the member element itself.
  readMemberRace: (m, ctx, path) => raceResult(m, text(m, 'EventRaceId'), ctx, path, MEMBER_RESULT_FIELDS),
  makePerson: (person, organisation, results) => ({ person, organisation, results }),
  makeMember: (person, organisation, leg, legOrder, result) => ({ person, organisation, leg, legOrder, result }),
  makeTeam: (node, ctx, path, members) =>
    teamResultWithoutPlaceholders({
      name: text(node, 'TeamName') ?? '',
      organisations: organisationRefs(node),
      bibNumber: bib(node),
      startTime: dateTime(node, 'StartTime', ctx, path),
      finishTime: dateTime(node, 'FinishTime', ctx, path),
      time: parseElapsed(text(node, 'Time')),
      timeBehind: parseElapsed(text(node, 'TimeDiff')),
      position: toInt(text(node, 'ResultPosition')),
      status: resultStatus(node, 'TeamStatus', path),
      members,
    }),
  makeClass: (node, ref, persons, teams) => ({
    class: ref,
    numberOfEntries: toInt(attr(node, 'numberOfEntries')),
    numberOfStarts: toInt(attr(node, 'numberOfStarts')),
    courses: [],
    persons,
    teams,
  }),
};

const LIST_STATUSES = new Set(['complete', 'snapshot', 'delta']);

function resultList(node: XmlValue, ctx: Ctx, path: string, chunks?: ChunkedDocument): ResultList {
  const raw = attr(node, 'status');
  const status = raw === null ? 'complete' : raw.toLowerCase();
  if (!LIST_STATUSES.has(status))
    throw new InvalidResponse(`unknown ResultList status '${raw!.slice(0, 40)}'`, `${path}/@status`);
  return {
    status: status as ResultList['status'],
    event: eventRef(node, ctx, path),
    classes: classes(RESULTS, node, ctx, path, chunks),
  };
}

export function parseResultList(xml: string, options: ParseOptions): ResultList {
  const doc = parseNativeDocumentChunked(xml, 'ResultList', 'ClassResult');
  return validateClassedList(ResultListSchema, resultList(doc.root, options, 'ResultList', doc), 'ResultList');
}

export function parseResultListList(xml: string, options: ParseOptions): ResultList[] {
  const root = parseNativeDocument(xml, 'ResultListList');
  return each(root, 'ResultList', 'ResultListList', (r, path) =>
    validateClassedList(ResultListSchema, resultList(r, options, path), path),
  );
}
