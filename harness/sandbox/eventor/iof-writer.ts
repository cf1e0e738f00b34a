/**
 * Domain ResultList / StartList -> IOF XML 3.0, shaped like Eventor's `/results/event/iofxml` and
 * `/starts/event/iofxml` output (creator "Eventor", default IOF namespace, Eventor extensions
 * namespace, `Id type="Eventor"`, times with `Z` or an offset). Elements follow the XSD sequences
 * so the output validates against IOF.xsd, and reading it back with `parseIofResultList` /
 * `parseIofStartList` gives the same domain list for lists that came from IOF (see the round-trip
 * tests).
 *
 * Where the model and IOF do not map one to one:
 * - Races of native lists carry only `raceId`; they become `raceNumber` in the order of
 *   `list.event.event.races` when present, else in order of first appearance, and `Event/Race`
 *   carries `eventor:EventRaceId` so a reader can map them back.
 * - IOF has no team time/status: the team's standing is written as the OverallResult of its last
 *   leg when that member has none.
 * - IOF requires a Person in PersonResult and a Start in PersonStart: an empty name / an empty
 *   Start is written when the model has none.
 * - `ClassResult.numberOfStarts` has no IOF counterpart and is not written; numberOfEntries is
 *   `Class@numberOfCompetitors`. Relay leg time behind / place are written as `type="Leg"`.
 * - Wall-clock times (no `Z`) are written with the offset of `options.timeZone` when given, else
 *   as they are (xs:dateTime allows no offset); instants are written in `timeZone` with its offset,
 *   else in UTC with `Z`.
 */
import type {
  Card,
  ClassRef,
  Course,
  EventRef,
  OrganisationRef,
  OverallResult,
  PersonRef,
  RaceResult,
  RaceStart,
  ResultList,
  SplitTime,
  StartList,
  TeamResult,
  TeamStart,
} from '../../../src/eventor/model.js';
import { instantToLocal, localToInstant } from '../../../src/time/zones.js';

export interface IofWriteOptions {
  /** The document's createTime (an Instant or xs:dateTime). */
  createTime: string;
  /** Defaults to "Eventor". */
  creator?: string;
  /** IANA zone: times are written as local time with this zone's offset instead of UTC `Z`. */
  timeZone?: string;
}

const IOF_NS = 'http://www.orienteering.org/datastandard/3.0';
const EVENTOR_NS = 'http://eventor.orientering.se/iofxmlextensions';

type TeamMemberStart = TeamStart['members'][number];
type TeamMemberResult = TeamResult['members'][number];

// --- escaping and formatting ---------------------------------------------------------------------

// Characters XML 1.0 cannot carry at all; they are dropped rather than producing a broken document.
const INVALID_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const NEEDS_ESCAPE = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function escapeText(value: string): string {
  // Most values (times, codes, names) need nothing: skip the replaces for them.
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(INVALID_XML_CHARS, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot write ${value} as xs:double`);
  return String(value);
}

function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?(Z?)$/;

/** An Instant (or wall-clock text) as xs:dateTime with `Z` or an offset where known. */
export function formatDateTime(value: string, timeZone: string | undefined): string {
  const m = INSTANT.exec(value);
  if (!m) return value;
  const [, date, clock, fraction = '', z] = m as unknown as [string, string, string, string | undefined, string];
  if (timeZone === undefined) return value;
  if (z === 'Z') {
    const local = instantToLocal(`${date}T${clock}Z`, timeZone);
    const offset = (Date.parse(`${local.date}T${local.clock}Z`) - Date.parse(`${date}T${clock}Z`)) / 60_000;
    return `${local.date}T${local.clock}${fraction}${offsetText(offset)}`;
  }
  const instant = localToInstant(date!, clock!, timeZone);
  if (instant === null) return value;
  const offset = (Date.parse(`${date}T${clock}Z`) - Date.parse(instant)) / 60_000;
  return `${date}T${clock}${fraction}${offsetText(offset)}`;
}

// --- a tiny indenting builder --------------------------------------------------------------------

type Attrs = Record<string, string | number | null | undefined>;

const INDENTS = Array.from({ length: 16 }, (_, i) => '  '.repeat(i));
const indent = (depth: number): string => INDENTS[depth] ?? '  '.repeat(depth);

class Out {
  // Lines are joined into chunks of about 64 KB: far fewer live strings than one per line.
  private readonly parts: string[] = [];
  private chunk = '<?xml version="1.0" encoding="utf-8"?>\n';
  private depth = 0;

  private push(line: string): void {
    this.chunk += line;
    if (this.chunk.length > 65_536) {
      this.parts.push(this.chunk);
      this.chunk = '';
    }
  }

  private attrs(attrs: Attrs | undefined): string {
    if (!attrs) return '';
    let s = '';
    for (const key of Object.keys(attrs)) {
      const v = attrs[key];
      if (v === null || v === undefined) continue;
      s += ` ${key}="${escapeAttribute(String(v))}"`;
    }
    return s;
  }

  open(name: string, attrs?: Attrs): void {
    this.push(`${indent(this.depth)}<${name}${this.attrs(attrs)}>\n`);
    this.depth++;
  }

  close(name: string): void {
    this.depth--;
    this.push(`${indent(this.depth)}</${name}>\n`);
  }

  /** A leaf element; skipped when `value` is null or undefined. */
  leaf(name: string, value: string | number | null | undefined, attrs?: Attrs): void {
    if (value === null || value === undefined) return;
    const text = typeof value === 'number' ? formatNumber(value) : escapeText(value);
    this.push(`${indent(this.depth)}<${name}${this.attrs(attrs)}>${text}</${name}>\n`);
  }

  /** A complete, already escaped line at the current depth. */
  raw(line: string): void {
    this.push(`${indent(this.depth)}${line}\n`);
  }

  empty(name: string, attrs?: Attrs): void {
    this.push(`${indent(this.depth)}<${name}${this.attrs(attrs)}/>\n`);
  }

  toString(): string {
    return this.parts.join('') + this.chunk;
  }
}

// --- race numbers --------------------------------------------------------------------------------

interface Races {
  /** raceId -> raceNumber. */
  numbers: Map<string, number>;
  /** Races to write in Event/Race, in number order. */
  list: { number: number; id: string; name: string | null; date: string | null }[];
}

function collectRaces(event: EventRef, raceIdsInOrder: Iterable<string | null>): Races {
  const numbers = new Map<string, number>();
  const list: Races['list'] = [];
  const known = event.event?.races ?? [];
  if (known.length > 0) {
    known.forEach((race, i) => {
      numbers.set(race.id, i + 1);
      list.push({ number: i + 1, id: race.id, name: race.name, date: race.date });
    });
  }
  for (const id of raceIdsInOrder) {
    if (id === null || numbers.has(id)) continue;
    const number = list.length + 1;
    numbers.set(id, number);
    list.push({ number, id, name: null, date: null });
  }
  return { numbers, list };
}

function raceNumberOf(races: Races, item: { raceId: string | null; raceNumber: number | null }): number | null {
  if (item.raceNumber !== null) return item.raceNumber;
  return item.raceId === null ? null : (races.numbers.get(item.raceId) ?? null);
}

/**
 * Class courses carry a raceNumber (as Eventor writes `Course raceNumber`) when the class has
 * exactly one course per race it is run in; the model's Course has no race of its own, and the
 * reader orders class courses by raceNumber, so this keeps multi-race classes in race order.
 */
function writeClassCourses(
  w: W,
  courses: Course[],
  items: Iterable<{ raceId: string | null; raceNumber: number | null }>,
): void {
  const used = new Set<number>();
  for (const item of items) {
    const n = raceNumberOf(w.races, item);
    if (n !== null) used.add(n);
  }
  const numbers = [...used].sort((a, b) => a - b);
  const withNumbers = numbers.length > 0 && numbers.length === courses.length;
  courses.forEach((course, i) => {
    writeCourse(w, 'Course', course, withNumbers ? numbers[i]! : null);
  });
}

// --- shared elements -----------------------------------------------------------------------------

interface W {
  out: Out;
  tz: string | undefined;
  races: Races;
}

function time(w: W, value: string | null): string | null {
  return value === null ? null : formatDateTime(value, w.tz);
}

const CLASSIFICATIONS: Record<string, string> = {
  international: 'International',
  national: 'National',
  district: 'Regional',
  local: 'Local',
  club: 'Club',
};

function writeDateAndOptionalTime(w: W, name: string, instant: string | null): void {
  if (instant === null) return;
  const dt = formatDateTime(instant, w.tz);
  const m = /^(\d{4}-\d{2}-\d{2})T(.*)$/.exec(dt);
  if (!m) return;
  w.out.open(name);
  w.out.leaf('Date', m[1]!);
  w.out.leaf('Time', m[2]!);
  w.out.close(name);
}

function writeEvent(w: W, ref: EventRef): void {
  const { out } = w;
  const event = ref.event;
  out.open('Event');
  out.leaf('Id', ref.id ?? event?.id ?? null, { type: 'Eventor' });
  out.leaf('Name', ref.name ?? event?.name ?? '');
  if (event) {
    writeDateAndOptionalTime(w, 'StartTime', event.start);
    writeDateAndOptionalTime(w, 'EndTime', event.finish);
    if (event.status === 'canceled') out.leaf('Status', 'Canceled');
    out.leaf('Classification', CLASSIFICATIONS[event.classification] ?? null);
  }
  for (const race of w.races.list) {
    out.open('Race');
    out.leaf('RaceNumber', race.number);
    out.leaf('Name', race.name ?? `Race ${race.number}`);
    writeDateAndOptionalTime(w, 'StartTime', race.date);
    out.open('Extensions');
    out.leaf('eventor:EventRaceId', race.id, { type: 'Eventor' });
    out.close('Extensions');
    out.close('Race');
  }
  out.close('Event');
}

function writeClass(w: W, cls: ClassRef, numberOfEntries: number | null): void {
  const { out } = w;
  out.open('Class', {
    numberOfCompetitors: numberOfEntries,
    resultListMode: cls.resultListMode === 'Default' ? null : cls.resultListMode,
  });
  out.leaf('Id', cls.id);
  out.leaf('Name', cls.name);
  out.leaf('ShortName', cls.shortName);
  out.close('Class');
}

function writeCourse(w: W, name: string, course: Course | null, raceNumber: number | null = null): void {
  if (course === null) return;
  const { out } = w;
  out.open(name, { raceNumber });
  out.leaf('Name', course.name);
  out.leaf('Length', course.length);
  out.leaf('Climb', course.climb);
  out.leaf('NumberOfControls', course.controls);
  out.close(name);
}

function writePerson(w: W, person: PersonRef | null, required: boolean): void {
  const { out } = w;
  if (person === null) {
    if (!required) return;
    out.open('Person');
    out.open('Name');
    out.leaf('Family', '');
    out.leaf('Given', '');
    out.close('Name');
    out.close('Person');
    return;
  }
  out.open('Person', { sex: person.sex });
  out.leaf('Id', person.id, { type: 'Eventor' });
  out.open('Name');
  out.leaf('Family', person.name.family);
  out.leaf('Given', person.name.given);
  out.close('Name');
  out.leaf('BirthDate', person.birthDate);
  if (person.countryCode !== null) out.leaf('Nationality', person.countryCode, { code: person.countryCode });
  out.close('Person');
}

function writeOrganisation(w: W, org: OrganisationRef | null): void {
  if (org === null) return;
  const { out } = w;
  out.open('Organisation');
  out.leaf('Id', org.id);
  out.leaf('Name', org.name ?? '');
  out.leaf('ShortName', org.shortName);
  if (org.countryCode !== null) out.leaf('Country', org.countryCode, { code: org.countryCode });
  out.close('Organisation');
}

function writeCards(w: W, cards: Card[]): void {
  for (const card of cards) w.out.leaf('ControlCard', card.number, { punchingSystem: card.type });
}

function writeOverall(w: W, overall: OverallResult | null): void {
  if (overall === null) return;
  const { out } = w;
  out.open('OverallResult');
  out.leaf('Time', overall.time);
  out.leaf('TimeBehind', overall.timeBehind);
  out.leaf('Position', overall.position);
  out.leaf('Status', overall.status);
  out.close('OverallResult');
}

// One line per split: splits are most of a big list, and 4 lines each cost 4x the strings.
function writeSplits(w: W, splits: SplitTime[]): void {
  const { out } = w;
  for (const split of splits) {
    const status = split.status === 'OK' ? '' : ` status="${split.status}"`;
    const time = split.time === null ? '' : `<Time>${formatNumber(split.time)}</Time>`;
    out.raw(`<SplitTime${status}><ControlCode>${escapeText(split.controlCode)}</ControlCode>${time}</SplitTime>`);
  }
}

// --- ResultList ----------------------------------------------------------------------------------

const LIST_STATUS: Record<ResultList['status'], string> = {
  complete: 'Complete',
  snapshot: 'Snapshot',
  delta: 'Delta',
};

function* resultRaceIds(list: ResultList): Generator<string | null> {
  for (const cls of list.classes) {
    for (const p of cls.persons) for (const r of p.results) if (r.raceNumber === null) yield r.raceId;
    for (const t of cls.teams) for (const m of t.members) if (m.result.raceNumber === null) yield m.result.raceId;
  }
}

function* startRaceIds(list: StartList): Generator<string | null> {
  for (const cls of list.classes) {
    for (const p of cls.persons) for (const s of p.starts) if (s.raceNumber === null) yield s.raceId;
    for (const t of cls.teams) for (const m of t.members) if (m.start.raceNumber === null) yield m.start.raceId;
  }
}

function rootAttrs(options: IofWriteOptions, tz: string | undefined): Attrs {
  return {
    xmlns: IOF_NS,
    'xmlns:eventor': EVENTOR_NS,
    iofVersion: '3.0',
    createTime: formatDateTime(options.createTime, tz),
    creator: options.creator ?? 'Eventor',
  };
}

export function writeIofResultList(list: ResultList, options: IofWriteOptions): string {
  const out = new Out();
  const w: W = { out, tz: options.timeZone, races: collectRaces(list.event, resultRaceIds(list)) };
  out.open('ResultList', { ...rootAttrs(options, w.tz), status: LIST_STATUS[list.status] });
  writeEvent(w, list.event);
  for (const cls of list.classes) {
    out.open('ClassResult');
    writeClass(w, cls.class, cls.numberOfEntries);
    writeClassCourses(w, cls.courses, [
      ...cls.persons.flatMap((p) => p.results),
      ...cls.teams.flatMap((t) => t.members.map((m) => m.result)),
    ]);
    for (const person of cls.persons) {
      out.open('PersonResult');
      writePerson(w, person.person, true);
      writeOrganisation(w, person.organisation);
      for (const result of person.results) writeRaceResult(w, result, null);
      out.close('PersonResult');
    }
    for (const team of cls.teams) writeTeamResult(w, team);
    out.close('ClassResult');
  }
  out.close('ResultList');
  return out.toString();
}

interface RelayPart {
  leg: number | null;
  legOrder: number | null;
}

function writeRaceResult(
  w: W,
  r: RaceResult,
  relay: RelayPart | null,
  overallOverride: OverallResult | null = null,
): void {
  const { out } = w;
  out.open('Result', { raceNumber: raceNumberOf(w.races, r) });
  if (relay) {
    out.leaf('Leg', relay.leg);
    out.leaf('LegOrder', relay.legOrder);
  }
  out.leaf('BibNumber', r.bibNumber);
  out.leaf('StartTime', time(w, r.startTime));
  out.leaf('FinishTime', time(w, r.finishTime));
  out.leaf('Time', r.time);
  out.leaf('TimeBehind', r.timeBehind, relay ? { type: 'Leg' } : undefined);
  out.leaf('Position', r.position, relay ? { type: 'Leg' } : undefined);
  out.leaf('Status', r.status);
  writeOverall(w, r.overall ?? overallOverride);
  writeCourse(w, 'Course', r.course);
  writeSplits(w, r.splits);
  writeCards(w, r.cards);
  out.close('Result');
}

/** Same choice as the reader: the highest leg; among parallel runners the last with an OverallResult. */
function lastLegIndex(members: TeamMemberResult[]): number {
  let best = -1;
  members.forEach((m, i) => {
    if (best === -1) {
      best = i;
      return;
    }
    const b = members[best]!;
    const leg = m.leg ?? -1;
    const bestLeg = b.leg ?? -1;
    if (leg > bestLeg || (leg === bestLeg && (m.result.overall !== null || b.result.overall === null))) best = i;
  });
  return best;
}

function writeTeamResult(w: W, team: TeamResult): void {
  const { out } = w;
  out.open('TeamResult');
  out.leaf('Name', team.name);
  for (const org of team.organisations) writeOrganisation(w, org);
  out.leaf('BibNumber', team.bibNumber);
  const last = lastLegIndex(team.members);
  const standing: OverallResult = {
    time: team.time,
    timeBehind: team.timeBehind,
    position: team.position,
    status: team.status,
  };
  team.members.forEach((m, i) => {
    out.open('TeamMemberResult');
    writePerson(w, m.person, false);
    writeOrganisation(w, m.organisation);
    writeRaceResult(w, m.result, { leg: m.leg, legOrder: m.legOrder }, i === last ? standing : null);
    out.close('TeamMemberResult');
  });
  out.close('TeamResult');
}

// --- StartList -----------------------------------------------------------------------------------

export function writeIofStartList(list: StartList, options: IofWriteOptions): string {
  const out = new Out();
  const w: W = { out, tz: options.timeZone, races: collectRaces(list.event, startRaceIds(list)) };
  out.open('StartList', rootAttrs(options, w.tz));
  writeEvent(w, list.event);
  for (const cls of list.classes) {
    out.open('ClassStart');
    writeClass(w, cls.class, cls.numberOfEntries);
    writeClassCourses(w, cls.courses, [
      ...cls.persons.flatMap((p) => p.starts),
      ...cls.teams.flatMap((t) => t.members.map((m) => m.start)),
    ]);
    for (const person of cls.persons) {
      out.open('PersonStart');
      writePerson(w, person.person, false);
      writeOrganisation(w, person.organisation);
      if (person.starts.length === 0) out.empty('Start');
      for (const start of person.starts) writeRaceStart(w, start, null, null);
      out.close('PersonStart');
    }
    for (const team of cls.teams) writeTeamStart(w, team);
    out.close('ClassStart');
  }
  out.close('StartList');
  return out.toString();
}

function writeRaceStart(w: W, s: RaceStart, relay: RelayPart | null, startTimeFallback: string | null): void {
  const { out } = w;
  out.open('Start', { raceNumber: raceNumberOf(w.races, s) });
  if (relay) {
    out.leaf('Leg', relay.leg);
    out.leaf('LegOrder', relay.legOrder);
  }
  out.leaf('BibNumber', s.bibNumber);
  out.leaf('StartTime', time(w, s.startTime ?? startTimeFallback));
  writeCourse(w, 'Course', s.course);
  writeCards(w, s.cards);
  out.close('Start');
}

function writeTeamStart(w: W, team: TeamStart): void {
  const { out } = w;
  out.open('TeamStart');
  out.leaf('Name', team.name);
  for (const org of team.organisations) writeOrganisation(w, org);
  out.leaf('BibNumber', team.bibNumber);
  // IOF has no team start time; the reader takes it from the first leg.
  let first = -1;
  team.members.forEach((m: TeamMemberStart, i) => {
    if (first === -1 || (m.leg ?? Infinity) < (team.members[first]!.leg ?? Infinity)) first = i;
  });
  team.members.forEach((m, i) => {
    out.open('TeamMemberStart');
    writePerson(w, m.person, false);
    writeOrganisation(w, m.organisation);
    writeRaceStart(w, m.start, { leg: m.leg, legOrder: m.legOrder }, i === first ? team.startTime : null);
    out.close('TeamMemberStart');
  });
  out.close('TeamStart');
}
