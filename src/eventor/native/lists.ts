/**
 * Start and result lists (wire notes 7.16 to 7.23). These can hold tens of thousands of runners
 * with splits, so the per-runner code avoids building path strings and intermediate arrays
 * unless something is wrong.
 */
import { InvalidResponse } from '../errors.js';
import type {
  ClassRef, ClassResult, ClassStart, OverallResult, PersonResult, PersonStart, RaceResult, RaceStart,
  ResultList, SplitTime, StartList, TeamMemberResult, TeamResult, TeamStart,
} from '../model.js';
import { ResultList as ResultListSchema, StartList as StartListSchema } from '../model.js';
import { overallWithoutPlaceholders, raceResultWithoutPlaceholders, teamResultWithoutPlaceholders } from '../placeholders.js';
import { parseElapsed } from '../time.js';
import { attr, child, childPath, children, parseNativeDocument, parseNativeDocumentChunked, required, text } from '../xml.js';
import type { ChunkedDocument, XmlValue } from '../xml.js';
import { cards, dateTime, each, eventRef, organisationOrId, organisationRefs, personOrId, resultStatus, toInt, toNumber } from './common.js';
import type { Ctx } from './common.js';
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

function personStart(node: XmlValue, ctx: Ctx, path: string): PersonStart {
  const raceStarts = children(node, 'RaceStart');
  let starts: RaceStart[];
  if (raceStarts.length > 0) {
    starts = each(node, 'RaceStart', path, (rs, p) => raceStart(required(rs, 'Start', p), text(rs, 'EventRaceId'), ctx, `${p}/Start`));
  } else {
    const start = required(node, 'Start', path);
    starts = [raceStart(start, text(start, 'EventRaceId'), ctx, `${path}/Start`)];
  }
  return { person: personOrId(node, path), organisation: organisationOrId(node), starts };
}

function teamStart(node: XmlValue, ctx: Ctx, path: string): TeamStart {
  return {
    name: text(node, 'TeamName'),
    organisations: organisationRefs(node),
    bibNumber: bib(node),
    startTime: dateTime(node, 'StartTime', ctx, path),
    members: each(node, 'TeamMemberStart', path, (m, p) => ({
      person: personOrId(m, p),
      organisation: organisationOrId(m),
      leg: toInt(text(m, 'Leg')),
      legOrder: toInt(text(m, 'LegOrder')),
      start: raceStart(child(m, 'Start') ?? m, text(m, 'EventRaceId'), ctx, p),
    })),
  };
}

function classStart(node: XmlValue, ctx: Ctx, path: string): ClassStart {
  return {
    class: classRef(node, path),
    numberOfEntries: toInt(attr(node, 'numberOfEntries')),
    courses: [],
    persons: each(node, 'PersonStart', path, (p, pp) => personStart(p, ctx, pp)),
    teams: each(node, 'TeamStart', path, (t, tp) => teamStart(t, ctx, tp)),
  };
}

/**
 * The class elements of a list: from the node, or, when the document was parsed by chunks,
 * from the chunk sequence, each class's tree dropped once it is normalised.
 */
function mapClasses<T>(node: XmlValue, name: string, path: string, doc: ChunkedDocument | undefined, fn: (c: XmlValue, p: string) => T): T[] {
  if (doc === undefined) return each(node, name, path, fn);
  const out: T[] = [];
  let i = 0;
  for (const c of doc.chunks) out.push(fn(c, childPath(path, name, i++, doc.count)));
  return out;
}

function startList(node: XmlValue, ctx: Ctx, path: string, chunks?: ChunkedDocument): StartList {
  return {
    event: eventRef(node, ctx, path),
    classes: mapClasses(node, 'ClassStart', path, chunks, (c, cp) => classStart(c, ctx, cp)),
  };
}

export function parseStartList(xml: string, options: ParseOptions): StartList {
  const doc = parseNativeDocumentChunked(xml, 'StartList', 'ClassStart');
  return validateClassedList(StartListSchema, startList(doc.root, options, 'StartList', doc), 'StartList');
}

export function parseStartListList(xml: string, options: ParseOptions): StartList[] {
  const root = parseNativeDocument(xml, 'StartListList');
  const lists = each(root, 'StartList', 'StartListList', (s, path) => validateClassedList(StartListSchema, startList(s, options, path), path));
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
    if (controlCode === null) throw new InvalidResponse('missing <ControlCode>', `${path}/SplitTime[${i + 1}]/ControlCode`);
    const time = parseElapsed(text(s, 'Time'));
    out[i] = { controlCode, time, status: time === null ? 'Missing' : 'OK' };
    const seq = toInt(attr(s, 'sequence')) ?? i;
    seqs[i] = seq;
    if (seq < lastSeq) ordered = false;
    lastSeq = seq;
  }
  if (ordered) return out;
  return out.map((s, i) => ({ s, seq: seqs[i]!, i })).sort((a, b) => a.seq - b.seq || a.i - b.i).map((x) => x.s);
}

function overallResult(node: XmlValue, path: string): OverallResult | null {
  const overall = child(node, 'OverallResult');
  if (overall === undefined) return null;
  const p = `${path}/OverallResult`;
  return overallWithoutPlaceholders({
    time: parseElapsed(text(overall, 'Time')),
    timeBehind: parseElapsed(text(overall, 'TimeDiff')) ?? seconds(text(overall, 'TimeBehind')),
    position: toInt(text(overall, 'ResultPosition')),
    status: child(overall, 'TeamStatus') !== undefined ? resultStatus(overall, 'TeamStatus', p) : resultStatus(overall, 'CompetitorStatus', p),
  });
}

function raceResult(node: XmlValue, raceId: string | null, ctx: Ctx, path: string): RaceResult {
  return raceResultWithoutPlaceholders({
    raceId,
    raceNumber: null,
    bibNumber: bib(node),
    startTime: dateTime(node, 'StartTime', ctx, path),
    finishTime: dateTime(node, 'FinishTime', ctx, path),
    time: parseElapsed(text(node, 'Time')),
    timeBehind: parseElapsed(text(node, 'TimeDiff')),
    position: toInt(text(node, 'ResultPosition')),
    status: resultStatus(node, 'CompetitorStatus', path),
    splits: splitTimes(node, path),
    overall: overallResult(node, path),
    course: null,
    cards: cards(node),
  });
}

function personResult(node: XmlValue, ctx: Ctx, path: string): PersonResult {
  const raceResults = children(node, 'RaceResult');
  let results: RaceResult[];
  if (raceResults.length > 0) {
    results = each(node, 'RaceResult', path, (rr, p) => raceResult(required(rr, 'Result', p), text(rr, 'EventRaceId'), ctx, `${p}/Result`));
  } else {
    const result = child(node, 'Result');
    if (result === undefined) throw new InvalidResponse('missing <Result> or <RaceResult>', `${path}/Result`);
    results = [raceResult(result, text(result, 'EventRaceId'), ctx, `${path}/Result`)];
  }
  return { person: personOrId(node, path), organisation: organisationOrId(node), results };
}

function teamMemberResult(node: XmlValue, ctx: Ctx, path: string): TeamMemberResult {
  const result: RaceResult = raceResultWithoutPlaceholders({
    raceId: text(node, 'EventRaceId'),
    raceNumber: null,
    bibNumber: bib(node),
    startTime: dateTime(node, 'StartTime', ctx, path),
    finishTime: dateTime(node, 'FinishTime', ctx, path),
    time: parseElapsed(text(node, 'Time')),
    timeBehind: seconds(text(node, 'TimeBehind')) ?? parseElapsed(text(node, 'TimeDiff')),
    position: toInt(text(node, 'Position')) ?? toInt(text(node, 'ResultPosition')),
    status: resultStatus(node, 'CompetitorStatus', path),
    splits: splitTimes(node, path),
    overall: overallResult(node, path),
    course: null,
    cards: cards(node),
  });
  return {
    person: personOrId(node, path),
    organisation: organisationOrId(node),
    leg: toInt(text(node, 'Leg')),
    legOrder: toInt(text(node, 'LegOrder')),
    result,
  };
}

function teamResult(node: XmlValue, ctx: Ctx, path: string): TeamResult {
  return teamResultWithoutPlaceholders({
    name: text(node, 'TeamName') ?? '',
    organisations: organisationRefs(node),
    bibNumber: bib(node),
    startTime: dateTime(node, 'StartTime', ctx, path),
    finishTime: dateTime(node, 'FinishTime', ctx, path),
    time: parseElapsed(text(node, 'Time')),
    timeBehind: parseElapsed(text(node, 'TimeDiff')),
    position: toInt(text(node, 'ResultPosition')),
    status: resultStatus(node, 'TeamStatus', path),
    members: each(node, 'TeamMemberResult', path, (m, p) => teamMemberResult(m, ctx, p)),
  });
}

function classResult(node: XmlValue, ctx: Ctx, path: string): ClassResult {
  return {
    class: classRef(node, path),
    numberOfEntries: toInt(attr(node, 'numberOfEntries')),
    numberOfStarts: toInt(attr(node, 'numberOfStarts')),
    courses: [],
    persons: each(node, 'PersonResult', path, (p, pp) => personResult(p, ctx, pp)),
    teams: each(node, 'TeamResult', path, (t, tp) => teamResult(t, ctx, tp)),
  };
}

const LIST_STATUSES = new Set(['complete', 'snapshot', 'delta']);

function resultList(node: XmlValue, ctx: Ctx, path: string, chunks?: ChunkedDocument): ResultList {
  const raw = attr(node, 'status');
  const status = raw === null ? 'complete' : raw.toLowerCase();
  if (!LIST_STATUSES.has(status)) throw new InvalidResponse(`unknown ResultList status '${raw!.slice(0, 40)}'`, `${path}/@status`);
  return {
    status: status as ResultList['status'],
    event: eventRef(node, ctx, path),
    classes: mapClasses(node, 'ClassResult', path, chunks, (c, cp) => classResult(c, ctx, cp)),
  };
}

export function parseResultList(xml: string, options: ParseOptions): ResultList {
  const doc = parseNativeDocumentChunked(xml, 'ResultList', 'ClassResult');
  return validateClassedList(ResultListSchema, resultList(doc.root, options, 'ResultList', doc), 'ResultList');
}

export function parseResultListList(xml: string, options: ParseOptions): ResultList[] {
  const root = parseNativeDocument(xml, 'ResultListList');
  return each(root, 'ResultList', 'ResultListList', (r, path) => validateClassedList(ResultListSchema, resultList(r, options, path), path));
}

