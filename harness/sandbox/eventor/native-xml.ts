/**
 * Domain objects (model.ts) -> Eventor native XML, in the shapes of real Eventor answers
 * (docs/eventor.md#native-xml). Every function appends to an XmlOut so
 * that big lists stream; `document(root, …)` wraps a root element with the namespace
 * declarations Eventor puts on every native root.
 */
import type {
  Activity,
  Card,
  ClassRef,
  Competitor,
  CompetitorCount,
  ContactDetails,
  Entry,
  EntryFee,
  Event,
  EventClass,
  EventDocument,
  Organisation,
  OrganisationRef,
  Person,
  PersonRef,
  RaceResult,
  RaceStart,
  ResultList,
  ResultStatus,
  StartList,
  TeamResult,
} from '../../../src/eventor/model.js';
import { instantToLocal } from '../../../src/time/zones.js';
import { escapeXml, NATIVE_ROOT_ATTRS, XmlOut } from './xml-out.js';

export interface NativeContext {
  /** Zone of Date/Clock values: Europe/Stockholm natively, UTC with the `TimeZone: UTC` header. */
  timeZone: string;
  /** Full organisation records, for `Organiser/Organisation` and other full elements. */
  organisation?: (id: string) => Organisation | undefined;
  /** Deterministic synthetic ids for elements the domain model does not keep (ResultId, StartId). */
  syntheticId?: (kind: string, ...parts: (string | number | null)[]) => string;
}

/**
 * Seconds as Eventor writes elapsed times natively: `M:SS` under an hour, else `H:MM:SS`. The
 * sandbox's own copy, not the client's: it writes what Eventor writes, whatever our reader expects.
 */
function formatElapsed(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const total = Math.round(Math.abs(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const ss = String(total % 60).padStart(2, '0');
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, '0')}:${ss}` : `${sign}${m}:${ss}`;
}

const COUNTRIES: Record<string, { numeric: string; en: string; sv: string }> = {
  SWE: { numeric: '752', en: 'Sweden', sv: 'Sverige' },
  NOR: { numeric: '578', en: 'Norway', sv: 'Norge' },
  FIN: { numeric: '246', en: 'Finland', sv: 'Finland' },
  DNK: { numeric: '208', en: 'Denmark', sv: 'Danmark' },
};

/** Native spellings of result statuses (docs/eventor.md#result-statuses). */
const NATIVE_STATUS: Partial<Record<ResultStatus, string>> = {
  MissingPunch: 'MisPunch',
  SportingWithdrawal: 'SportWithdr',
};
export function nativeStatus(status: ResultStatus): string {
  return NATIVE_STATUS[status] ?? status;
}

const KIND_TYPE_ID: Record<Organisation['kind'], string> = { federation: '1', district: '2', club: '3', other: '4' };

/** Starts a native document: declaration plus root element with xsi/xsd declarations. */
export function openDocument(root: string, attrs: Record<string, string> = {}): XmlOut {
  const out = new XmlOut();
  out.asRoot(NATIVE_ROOT_ATTRS).open(root, attrs);
  return out;
}

/** A document whose root is the next element written (single-object replies such as `Event`). */
export function singleDocument(): XmlOut {
  return new XmlOut().asRoot(NATIVE_ROOT_ATTRS);
}

function dateTime(out: XmlOut, name: string, instant: string | null, ctx: NativeContext): void {
  if (instant === null) return;
  const local = instantToLocal(instant, ctx.timeZone);
  out.open(name).leaf('Date', local.date).leaf('Clock', local.clock).close();
}

/** `xs:dateTime` attribute values carry no offset (docs/eventor.md#time-zones): wall clock in the response zone. */
function attrDateTime(instant: string | null, ctx: NativeContext): string | null {
  if (instant === null) return null;
  const local = instantToLocal(instant, ctx.timeZone);
  return `${local.date}T${local.clock}`;
}

/** HashTableEntry times are UTC with a space, e.g. `2026-05-12 18:17:24`. */
export function hashTableTime(instant: string): string {
  return instant.slice(0, 19).replace('T', ' ');
}

function country(out: XmlOut, code: string | null): void {
  if (code === null) return;
  const c = COUNTRIES[code];
  out.open('Country');
  out.empty('CountryId', { value: c?.numeric ?? code });
  out.empty('Alpha3', { value: code });
  if (c) out.leaf('Name', c.en, { languageId: 'en' }).leaf('Name', c.sv, { languageId: 'sv' });
  out.close();
}

function tele(out: XmlOut, contact: ContactDetails): void {
  const n = Math.max(contact.emails.length, contact.phones.length);
  for (let i = 0; i < n; i++) {
    out.open('Tele', { phoneNumber: contact.phones[i], mailAddress: contact.emails[i] });
    out.empty('TeleType', { value: 'official' });
    out.close();
  }
}

function addresses(out: XmlOut, contact: ContactDetails): void {
  for (const a of contact.addresses) {
    out.open('Address', { careOf: a.careOf, street: a.street, city: a.city, zipCode: a.zipCode });
    out.empty('AddressType', { value: 'official' });
    country(out, a.countryCode);
    out.close();
  }
}

export interface OrganisationOptions {
  contact?: boolean;
}

/** A full Organisation element (organisation endpoints, organisers of /event). */
export function organisationElement(
  out: XmlOut,
  org: Organisation,
  ctx: NativeContext,
  options: OrganisationOptions = {},
): void {
  out.open('Organisation');
  out
    .leaf('OrganisationId', org.id)
    .leaf('Name', org.name)
    .leaf('ShortName', org.shortName)
    .leaf('MediaName', org.mediaName);
  out.leaf('OrganisationTypeId', org.typeId ?? KIND_TYPE_ID[org.kind]);
  country(out, org.countryCode);
  if (options.contact && org.contact) {
    addresses(out, org.contact);
    tele(out, org.contact);
  }
  if (org.parentId !== null) out.open('ParentOrganisation').leaf('OrganisationId', org.parentId).close();
  out.leaf('OrganisationStatusId', '1');
  dateTime(out, 'ModifyDate', org.modifiedAt, ctx);
  out.close();
}

/**
 * An organisation inside start and result lists: the short form of the samples, where a club
 * has OrganisationTypeId 5 (docs/eventor.md#organisation-types).
 */
function listOrganisation(out: XmlOut, ref: OrganisationRef | null, ctx: NativeContext): void {
  if (ref === null) return;
  out.open('Organisation');
  out.leaf('OrganisationId', ref.id ?? '');
  out.leaf('Name', ref.name).leaf('ShortName', ref.shortName);
  const full = ref.id === null ? undefined : ctx.organisation?.(ref.id);
  out.leaf('OrganisationTypeId', full && full.kind !== 'club' ? KIND_TYPE_ID[full.kind] : '5');
  country(out, ref.countryCode);
  out.close();
}

/** A person in lists (PersonRef): name, id (empty for no account), birth date, nationality. */
export function personRefElement(out: XmlOut, p: PersonRef): void {
  out.open('Person', { sex: p.sex });
  out.open('PersonName').leaf('Family', p.name.family).leaf('Given', p.name.given, { sequence: '1' }).close();
  out.leaf('PersonId', p.id ?? '');
  if (p.birthDate !== null) out.open('BirthDate').leaf('Date', p.birthDate).close();
  if (p.countryCode !== null) {
    out.open('Nationality');
    country(out, p.countryCode);
    out.close();
  }
  out.close();
}

export interface PersonOptions {
  contact?: boolean;
  identifiers?: boolean;
}

/** A member record (PersonList, authenticatePerson). */
export function personElement(out: XmlOut, p: Person, ctx: NativeContext, options: PersonOptions = {}): void {
  out.open('Person', { sex: p.sex });
  out.open('PersonName').leaf('Family', p.name.family).leaf('Given', p.name.given, { sequence: '1' }).close();
  out.leaf('PersonId', p.id ?? '');
  if (p.birthDate !== null) out.open('BirthDate').leaf('Date', p.birthDate).close();
  if (options.contact && p.contact) {
    addresses(out, p.contact);
    tele(out, p.contact);
  }
  if (p.countryCode !== null) {
    out.open('Nationality');
    country(out, p.countryCode);
    out.close();
  }
  out.leaf('OrganisationId', p.organisationId);
  for (const r of p.roles)
    out.open('Role').leaf('OrganisationId', r.organisationId).leaf('RoleTypeId', r.roleTypeId).close();
  dateTime(out, 'ModifyDate', p.modifiedAt, ctx);
  if (options.identifiers) for (const x of p.externalIds) out.empty('ExternalPersonId', { typeId: x.type, id: x.id });
  out.close();
}

export interface EventOptions {
  /** Full `Organiser/Organisation` (/event and nested events) instead of `Organiser/OrganisationId` (/events). */
  fullOrganisers: boolean;
  entryBreaks: boolean;
  attributes: boolean;
}

export function eventElement(out: XmlOut, e: Event, ctx: NativeContext, options: EventOptions): void {
  out.open('Event', { eventForm: e.form });
  out.leaf('EventId', e.id).leaf('Name', e.name);
  out.leaf('EventClassificationId', e.classificationId).leaf('EventStatusId', e.statusId);
  if (options.attributes) {
    for (const a of e.attributes) {
      out
        .open('EventAttribute')
        .leaf('EventAttributeId', a.id)
        .leaf('Name', a.name)
        .leaf('Description', a.value)
        .close();
    }
  }
  for (const d of e.disciplineIds) out.leaf('DisciplineId', d);
  dateTime(out, 'StartDate', e.start, ctx);
  dateTime(out, 'FinishDate', e.finish, ctx);
  e.officials.forEach((o, i) => {
    out
      .open('EventOfficial')
      .leaf('EventOfficialId', `${e.id}${i + 1}`)
      .leaf('RoleTypeId', o.roleTypeId)
      .leaf('PersonId', o.personId ?? '')
      .leaf('EventId', e.id)
      .close();
  });
  if (e.organisers.length > 0) {
    out.open('Organiser');
    for (const ref of e.organisers) {
      if (!options.fullOrganisers) {
        out.leaf('OrganisationId', ref.id ?? '');
        continue;
      }
      const full = ref.id === null ? undefined : ctx.organisation?.(ref.id);
      if (full) organisationElement(out, full, ctx);
      else listOrganisation(out, ref, ctx);
    }
    out.close();
  }
  for (const c of e.classTypeIds) out.leaf('ClassTypeId', c);
  if (options.entryBreaks) {
    for (const b of e.entryBreaks) {
      out.open('EntryBreak');
      dateTime(out, 'ValidFromDate', b.from, ctx);
      dateTime(out, 'ValidToDate', b.to, ctx);
      out.close();
    }
  }
  for (const r of e.races) {
    out.open('EventRace', { raceLightCondition: r.lightCondition, raceDistance: r.distance });
    out
      .leaf('EventRaceId', r.id)
      .leaf('EventId', r.eventId ?? e.id)
      .leaf('Name', r.name ?? '');
    dateTime(out, 'RaceDate', r.date, ctx);
    if (r.position) out.empty('EventCenterPosition', { x: r.position.lon, y: r.position.lat, unit: 'WGS-84' });
    out.close();
  }
  for (const u of e.urls) out.leaf('WebURL', u);
  for (const p of e.punchingUnitTypes) out.empty('PunchingUnitType', { value: p });
  dateTime(out, 'ModifyDate', e.modifiedAt, ctx);
  const props: [string, string][] = Object.entries(e.properties);
  if (e.message !== null && !Object.hasOwn(e.properties, 'Eventor_Message')) props.push(['Eventor_Message', e.message]);
  for (const [k, v] of props) out.open('HashTableEntry').leaf('Key', k).leaf('Value', v).close();
  if (e.parentEventId !== null) out.open('ParentEvent').leaf('EventId', e.parentEventId).close();
  out.close();
}

export function documentElement(out: XmlOut, d: EventDocument, ctx: NativeContext): void {
  out.empty('Document', {
    id: d.id,
    referenceId: d.eventId,
    name: d.name,
    url: d.url,
    modifyDate: attrDateTime(d.modifiedAt, ctx),
    type: d.type,
  });
}

export function eventClassElement(out: XmlOut, c: EventClass, options: { entryFees: boolean }): void {
  out.open('EventClass', {
    lowAge: c.minAge,
    highAge: c.maxAge,
    sex: c.sex,
    teamEntry: c.teamEntry ? 'Y' : null,
    numberOfLegs: c.numberOfLegs,
    numberOfEntries: c.numberOfEntries,
  });
  out.leaf('EventClassId', c.id).leaf('Name', c.name).leaf('ClassShortName', c.shortName);
  if (c.status !== null) out.empty('EventClassStatus', { value: c.status });
  out.leaf('ClassTypeId', c.classTypeId).leaf('BaseClassId', c.baseClassId);
  if (options.entryFees) {
    c.entryFeeIds.forEach((id, i) => {
      out
        .open('ClassEntryFee')
        .leaf('EntryFeeId', id)
        .leaf('Sequence', (i + 1) * 10)
        .close();
    });
  }
  for (const r of c.races) {
    out.open('ClassRaceInfo', {
      relayLeg: r.relayLeg,
      minRunners: 1,
      maxRunners: 1,
      noOfEntries: r.entries,
      noOfStarts: r.starts,
    });
    out.leaf('ClassRaceInfoId', r.id).leaf('EventRaceId', r.raceId).leaf('Name', '');
    if (r.status !== null) out.empty('ClassRaceStatus', { value: r.status });
    out.close();
  }
  out.close();
}

export function entryFeeElement(out: XmlOut, f: EntryFee, ctx: NativeContext): void {
  out.open('EntryFee', {
    taxIncluded: f.taxIncluded === null ? null : f.taxIncluded ? 'Y' : 'N',
    entryFeeType: f.type,
    type: f.type,
    valueOperator: f.valueOperator === 'percent' ? 'percent' : null,
  });
  out.leaf('EntryFeeId', f.id).leaf('Name', f.name);
  if (f.amount !== null) out.leaf('Amount', f.amount, { currency: f.currency });
  dateTime(out, 'ValidFromDate', f.validFrom, ctx);
  dateTime(out, 'ValidToDate', f.validTo, ctx);
  if (f.birthDateFrom !== null) out.open('FromDateOfBirth').leaf('Date', f.birthDateFrom).close();
  if (f.birthDateTo !== null) out.open('ToDateOfBirth').leaf('Date', f.birthDateTo).close();
  out.close();
}

function cardElements(out: XmlOut, cards: Card[]): void {
  for (const c of cards) {
    out.open('CCard').leaf('CCardId', c.number);
    if (c.type !== null) out.empty('PunchingUnitType', { value: c.type });
    out.close();
  }
}

export function competitorElement(out: XmlOut, c: Competitor, ctx: NativeContext): void {
  out.open('Competitor');
  out.leaf('CompetitorId', c.competitorId);
  if (c.person) personRefElement(out, c.person);
  else out.leaf('PersonId', c.personId ?? '');
  out.leaf('OrganisationId', c.organisationId);
  for (const p of c.preselectedClasses) {
    out.open('PreSelectedClass', { sequence: p.sequence });
    out.leaf('BaseClassId', p.baseClassId).leaf('ClassShortName', p.classShortName);
    out.close();
  }
  cardElements(out, c.cards);
  out.leaf('DisciplineId', c.disciplineId);
  dateTime(out, 'ModifyDate', c.modifiedAt, ctx);
  out.close();
}

export interface EntryExtras {
  /** The full organisation element instead of OrganisationId (includeOrganisationElement). */
  fullOrganisation: boolean;
  /** Entry fees (includeEntryFees). */
  entryFees: boolean;
}

/**
 * One Entry. Whether the person and the event are written in full follows the domain object
 * (`competitor.person`, `event.event` set or null), which the route projects from the flags.
 */
export function entryElement(out: XmlOut, e: Entry, ctx: NativeContext, extras: EntryExtras): void {
  out.open('Entry');
  out.leaf('EntryId', e.id);
  const orgOut = (ref: OrganisationRef): void => {
    const full = ref.id === null ? undefined : ctx.organisation?.(ref.id);
    if (extras.fullOrganisation && full) organisationElement(out, full, ctx);
    else out.leaf('OrganisationId', ref.id ?? '');
  };
  if (e.competitor) {
    const c = e.competitor;
    out.open('Competitor');
    out.leaf('CompetitorId', c.competitorId);
    if (c.person) personRefElement(out, c.person);
    else out.leaf('PersonId', c.personId ?? '');
    if (c.organisation) orgOut(c.organisation);
    cardElements(out, c.cards);
    dateTime(out, 'ModifyDate', e.modifiedAt, ctx);
    out.close();
  } else if (e.team) {
    out.leaf('TeamName', e.team.name);
    e.team.members.forEach((m, i) => {
      out
        .open('TeamCompetitor')
        .leaf('TeamCompetitorId', `${e.id}${i + 1}`)
        .leaf('PersonId', m.personId ?? '')
        .leaf('OrganisationId', m.organisationId)
        .leaf('TeamSequence', m.leg)
        .close();
    });
    for (const o of e.team.organisations) orgOut(o);
  }
  e.classIds.forEach((id, i) => {
    out
      .open('EntryClass', { sequence: i + 1 })
      .leaf('EventClassId', id)
      .close();
  });
  if (e.event.event)
    eventElement(out, e.event.event, ctx, { fullOrganisers: true, entryBreaks: true, attributes: false });
  else out.leaf('EventId', e.event.id);
  for (const r of e.raceIds) out.leaf('EventRaceId', r);
  out.leaf('BibNumber', e.bibNumber ?? '');
  dateTime(out, 'EntryDate', e.entryDate, ctx);
  if (extras.entryFees) {
    e.entryFeeIds.forEach((id, i) => {
      out
        .open('EntryEntryFee')
        .leaf('EntryFeeId', id)
        .leaf('Sequence', (i + 1) * 10)
        .close();
    });
  }
  dateTime(out, 'ModifyDate', e.modifiedAt, ctx);
  out.close();
}

export function competitorCountElement(out: XmlOut, c: CompetitorCount): void {
  const hasChildren = c.classes.length > 0 || c.organisations.length > 0;
  const attrs = { eventId: c.eventId, eventRaceId: c.raceId, numberOfEntries: c.entries, numberOfStarts: c.starts };
  if (!hasChildren) {
    out.empty('CompetitorCount', attrs);
    return;
  }
  out.open('CompetitorCount', attrs);
  for (const k of c.classes)
    out.empty('ClassCompetitorCount', {
      eventClassId: k.classId,
      numberOfEntries: k.entries,
      numberOfStarts: k.starts,
    });
  for (const o of c.organisations)
    out.empty('OrganisationCompetitorCount', {
      organisationId: o.organisationId,
      numberOfEntries: o.entries,
      numberOfStarts: o.starts,
    });
  out.close();
}

function classRefElement(out: XmlOut, c: ClassRef): void {
  out
    .open('EventClass')
    .leaf('EventClassId', c.id ?? '')
    .leaf('Name', c.name)
    .leaf('ClassShortName', c.shortName)
    .close();
}

function nestedEvent(
  out: XmlOut,
  list: { event: { id: string | null; event: Event | null } },
  ctx: NativeContext,
): void {
  if (list.event.event)
    eventElement(out, list.event.event, ctx, { fullOrganisers: true, entryBreaks: false, attributes: false });
  else out.leaf('EventId', list.event.id);
}

function startElement(out: XmlOut, s: RaceStart, ctx: NativeContext, personId: string | null): void {
  out.open('Start');
  out.leaf('BibNumber', s.bibNumber ?? '');
  for (const c of s.cards) out.leaf('CCardId', c.number);
  dateTime(out, 'StartTime', s.startTime, ctx);
  if (ctx.syntheticId) out.leaf('StartId', ctx.syntheticId('start', s.raceId, personId));
  out.close();
}

/** The content of a StartList element (root or inside StartListList). `multiRace`: RaceStart wrappers. */
export function startListContent(out: XmlOut, list: StartList, ctx: NativeContext, multiRace: boolean): void {
  nestedEvent(out, list, ctx);
  for (const cs of list.classes) {
    out.open('ClassStart', { numberOfEntries: cs.numberOfEntries });
    classRefElement(out, cs.class);
    for (const ps of cs.persons) {
      out.open('PersonStart');
      if (ps.person) personRefElement(out, ps.person);
      listOrganisation(out, ps.organisation, ctx);
      const pid = ps.person?.id ?? null;
      if (multiRace) {
        for (const s of ps.starts) {
          out.open('RaceStart').leaf('EventRaceId', s.raceId);
          startElement(out, s, ctx, pid);
          out.close();
        }
      } else if (ps.starts[0]) {
        startElement(out, ps.starts[0], ctx, pid);
      }
      out.close();
    }
    for (const t of cs.teams) {
      out.open('TeamStart').leaf('TeamName', t.name);
      // Full organisations, as in TeamResult (TeamStart has no real sample; docs/eventor.md#start-and-result-lists).
      for (const o of t.organisations) listOrganisation(out, o, ctx);
      out.leaf('BibNumber', t.bibNumber ?? '');
      dateTime(out, 'StartTime', t.startTime, ctx);
      for (const m of t.members) {
        out.open('TeamMemberStart');
        if (m.person) personRefElement(out, m.person);
        listOrganisation(out, m.organisation, ctx);
        out
          .leaf('Leg', m.leg)
          .leaf('LegOrder', m.legOrder)
          .leaf('BibNumber', m.start.bibNumber ?? '');
        dateTime(out, 'StartTime', m.start.startTime, ctx);
        for (const c of m.start.cards) out.leaf('CCardId', c.number);
        out.close();
      }
      out.close();
    }
    out.close();
  }
}

function resultElement(out: XmlOut, r: RaceResult, ctx: NativeContext, personId: string | null, splits: boolean): void {
  out.open('Result');
  if (ctx.syntheticId) out.leaf('ResultId', ctx.syntheticId('result', r.raceId, personId));
  out.leaf('BibNumber', r.bibNumber);
  for (const c of r.cards) out.leaf('CCardId', c.number);
  dateTime(out, 'StartTime', r.startTime, ctx);
  dateTime(out, 'FinishTime', r.finishTime, ctx);
  if (r.time !== null) out.leaf('Time', formatElapsed(r.time));
  // TimeDiff and ResultPosition only for OK results (results-organisation.xml).
  if (r.status === 'OK') {
    if (r.timeBehind !== null) out.leaf('TimeDiff', formatElapsed(r.timeBehind));
    out.leaf('ResultPosition', r.position);
  }
  out.empty('CompetitorStatus', { value: nativeStatus(r.status) });
  if (splits) splitTimes(out, r);
  out.close();
}

/** One line per split: a big list has over a million of them (whitespace carries no meaning). */
function splitTimes(out: XmlOut, r: RaceResult): void {
  for (let i = 0; i < r.splits.length; i++) {
    const s = r.splits[i]!;
    const time = s.time === null ? '' : `<Time>${formatElapsed(s.time)}</Time>`;
    out.inline(
      `<SplitTime sequence="${i + 1}"><ControlCode>${escapeXml(s.controlCode)}</ControlCode>${time}</SplitTime>`,
    );
  }
}

function teamResultElement(out: XmlOut, t: TeamResult, ctx: NativeContext, splits: boolean): void {
  out.open('TeamResult').leaf('TeamName', t.name);
  for (const o of t.organisations) listOrganisation(out, o, ctx);
  out.leaf('BibNumber', t.bibNumber);
  dateTime(out, 'StartTime', t.startTime, ctx);
  dateTime(out, 'FinishTime', t.finishTime, ctx);
  if (t.time !== null) out.leaf('Time', formatElapsed(t.time));
  if (t.status === 'OK') {
    if (t.timeBehind !== null) out.leaf('TimeDiff', formatElapsed(t.timeBehind));
    out.leaf('ResultPosition', t.position);
  }
  out.empty('TeamStatus', { value: nativeStatus(t.status) });
  for (const m of t.members) {
    const r = m.result;
    out.open('TeamMemberResult');
    if (m.person) personRefElement(out, m.person);
    listOrganisation(out, m.organisation, ctx);
    out.leaf('Leg', m.leg).leaf('LegOrder', m.legOrder).leaf('BibNumber', r.bibNumber);
    dateTime(out, 'StartTime', r.startTime, ctx);
    dateTime(out, 'FinishTime', r.finishTime, ctx);
    if (r.time !== null) out.leaf('Time', formatElapsed(r.time));
    // Relay leg TimeBehind is in seconds, unlike every other native time (results-person-relay.xml).
    if (r.status === 'OK') {
      if (r.timeBehind !== null) out.leaf('TimeBehind', Math.round(r.timeBehind), { type: 'Leg' });
      out.leaf('Position', r.position, { type: 'Leg' });
    }
    out.empty('CompetitorStatus', { value: nativeStatus(r.status) });
    // XSD order: CompetitorStatus, SplitTime*, OverallResult, CCardId*.
    if (splits) splitTimes(out, r);
    if (r.overall) {
      out.open('OverallResult');
      if (r.overall.time !== null) out.leaf('Time', formatElapsed(r.overall.time));
      if (r.overall.status === 'OK') {
        if (r.overall.timeBehind !== null) out.leaf('TimeDiff', formatElapsed(r.overall.timeBehind));
        out.leaf('ResultPosition', r.overall.position);
      }
      out.empty('TeamStatus', { value: nativeStatus(r.overall.status) });
      out.close();
    }
    for (const c of r.cards) out.leaf('CCardId', c.number);
    out.close();
  }
  out.close();
}

/** The content of a ResultList element. `multiRace`: RaceResult{EventRaceId, Result} wrappers. */
export function resultListContent(
  out: XmlOut,
  list: ResultList,
  ctx: NativeContext,
  options: { multiRace: boolean; splits: boolean },
): void {
  nestedEvent(out, list, ctx);
  for (const cr of list.classes) {
    out.open('ClassResult', { numberOfEntries: cr.numberOfEntries, numberOfStarts: cr.numberOfStarts });
    classRefElement(out, cr.class);
    for (const pr of cr.persons) {
      out.open('PersonResult');
      if (pr.person) personRefElement(out, pr.person);
      listOrganisation(out, pr.organisation, ctx);
      const pid = pr.person?.id ?? null;
      if (options.multiRace) {
        for (const r of pr.results) {
          out.open('RaceResult').leaf('EventRaceId', r.raceId);
          resultElement(out, r, ctx, pid, options.splits);
          out.close();
        }
      } else if (pr.results[0]) {
        resultElement(out, pr.results[0], ctx, pid, options.splits);
      }
      out.close();
    }
    for (const t of cr.teams) teamResultElement(out, t, ctx, options.splits);
    out.close();
  }
}

export function resultListAttrs(list: ResultList): Record<string, string> {
  return list.status === 'complete' ? {} : { status: list.status };
}

export function activityElement(
  out: XmlOut,
  a: Activity,
  ctx: NativeContext,
  options: { registrations: boolean },
): void {
  out.open('Activity', {
    id: a.id,
    organisationId: a.organisationId,
    visibleFrom: attrDateTime(a.visibleFrom, ctx),
    visibleTo: attrDateTime(a.visibleTo, ctx),
    registrationDeadline: attrDateTime(a.registrationDeadline, ctx),
    startTime: attrDateTime(a.startTime, ctx),
    allowExternalRegistrations: a.allowExternalRegistrations === null ? null : String(a.allowExternalRegistrations),
    registrationCount: a.registrationCount,
    url: a.url,
    entryAccessLevel: a.entryAccessLevel,
    modifyDate: attrDateTime(a.modifiedAt, ctx),
  });
  out.leaf('Name', a.name).leaf('Information', a.information);
  a.attributes.forEach((attr, i) => {
    out.open('ActivityAttribute', { id: attr.id, type: attr.type, order: i + 1 });
    out.leaf('Name', attr.name);
    for (const v of attr.values) out.leaf('Value', v);
    out.close();
  });
  if (options.registrations) {
    for (const r of a.registrations) {
      out.open('ActivityRegistration', {
        personId: r.personId,
        organisationId: r.organisationId,
        modifyDate: attrDateTime(r.modifiedAt, ctx),
      });
      // One value per attribute, in attribute order (the sandbox's convention).
      r.values.forEach((v, i) => {
        out.leaf('AttributeValue', v, { activityAttributeId: a.attributes[i]?.id ?? null });
      });
      out.close();
    }
  }
  out.close();
}
