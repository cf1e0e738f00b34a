/**
 * Normalisers shared by the native parsers: ids, names, countries, organisations, persons,
 * Date+Clock values, cards, statuses and the Event element (which nests in many lists).
 */

import { localToInstant, toInstant } from '../../time/zones.js';
import { InvalidResponse } from '../errors.js';
import type {
  Card,
  ContactDetails,
  Event,
  EventRace,
  EventRef,
  EventStatus,
  Organisation,
  OrganisationKind,
  OrganisationRef,
  PersonName,
  PersonRef,
  PunchingUnitType,
  ResultStatus,
} from '../model.js';
import { classificationOfId, EVENT_STATUSES } from '../model.js';
import type { XmlValue } from '../xml.js';
import {
  attr,
  child,
  childPath,
  children,
  ownText,
  presentText,
  requiredText,
  text,
  texts,
  valueAttr,
} from '../xml.js';

export interface Ctx {
  /** IANA zone of the document's Date+Clock values. */
  readonly timeZone: string;
}

export function toInt(value: string | null): number | null {
  if (value === null) return null;
  const t = value.trim();
  if (!/^-?\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

export function toNumber(value: string | null): number | null {
  if (value === null) return null;
  const t = value.trim();
  if (t === '') return null;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/** Y/N and true/false flags; anything else is null. */
export function toBool(value: string | null): boolean | null {
  if (value === null) return null;
  const t = value.trim().toLowerCase();
  if (t === 'y' || t === 'true' || t === '1') return true;
  if (t === 'n' || t === 'false' || t === '0') return false;
  return null;
}

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function localDate(value: string | null): string | null {
  if (value === null) return null;
  const t = value.trim().slice(0, 10);
  return LOCAL_DATE.test(t) ? t : null;
}

/** A `Date` + optional `Clock` child (`StartDate`, `ModifyDate`, ...) as an instant. */
export function dateTime(node: XmlValue, name: string, ctx: Ctx, path: string): string | null {
  const el = child(node, name);
  if (el === undefined || typeof el === 'string') return null;
  const date = text(el, 'Date');
  if (date === null) return null;
  const instant = localToInstant(date, text(el, 'Clock'), ctx.timeZone);
  if (instant === null)
    throw new InvalidResponse(`unreadable date/time '${date} ${text(el, 'Clock') ?? ''}'`.trimEnd(), `${path}/${name}`);
  return instant;
}

const XS_DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An `xs:dateTime` attribute. Eventor sends them without an offset, in the zone of its other
 * native times (docs/eventor.md#time-zones); an explicit offset, if ever sent, wins.
 */
export function xsDateTime(value: string | null, ctx: Ctx, path: string): string | null {
  if (value === null) return null;
  const m = XS_DATETIME.exec(value.trim());
  if (!m) throw new InvalidResponse(`unreadable date/time '${value.slice(0, 40)}'`, path);
  if (m[3] !== undefined) {
    const epoch = Date.parse(
      `${m[1]}T${m[2] ?? '00:00:00'}${m[3] === 'Z' ? 'Z' : m[3].length === 5 ? `${m[3].slice(0, 3)}:${m[3].slice(3)}` : m[3]}`,
    );
    if (Number.isNaN(epoch)) throw new InvalidResponse(`unreadable date/time '${value.slice(0, 40)}'`, path);
    return toInstant(epoch);
  }
  const instant = localToInstant(m[1]!, m[2] ?? null, ctx.timeZone);
  if (instant === null) throw new InvalidResponse(`unreadable date/time '${value.slice(0, 40)}'`, path);
  return instant;
}

/** The id-bearing text of a child: empty is null (a runner without an Eventor account). */
export const id = text;

/** Country as a bare `CountryId@value` or a full `Country{Alpha3@value}`: alpha-3 or null. */
export function countryCode(node: XmlValue): string | null {
  const country = child(node, 'Country');
  if (country === undefined) return null;
  return valueAttr(country, 'Alpha3');
}

export function personName(node: XmlValue): PersonName {
  const name = child(node, 'PersonName');
  const family = text(name, 'Family') ?? '';
  const givens = children(name, 'Given');
  let given: string;
  if (givens.length === 0) {
    given = '';
  } else if (givens.length === 1) {
    given = ownText(givens[0]) ?? '';
  } else {
    const parts = givens.map((g, index) => ({
      seq: toInt(attr(g, 'sequence')) ?? Number.MAX_SAFE_INTEGER,
      index,
      text: ownText(g),
    }));
    parts.sort((a, b) => a.seq - b.seq || a.index - b.index);
    given = parts
      .map((p) => p.text)
      .filter((t): t is string => t !== null)
      .join(' ');
  }
  return { family, given };
}

function sex(value: string | null): 'F' | 'M' | null {
  return value === 'F' || value === 'M' ? value : null;
}

/** A `Person` element as a PersonRef. */
export function personRef(node: XmlValue, path: string): PersonRef {
  if (child(node, 'PersonName') === undefined) throw new InvalidResponse('missing <PersonName>', `${path}/PersonName`);
  return {
    id: id(node, 'PersonId'),
    name: personName(node),
    sex: sex(attr(node, 'sex')),
    birthDate: localDate(text(child(node, 'BirthDate'), 'Date')),
    countryCode: countryCode(child(node, 'Nationality')),
  };
}

/** `Person` if present, else a bare `PersonId` as a nameless ref, else null. */
export function personOrId(node: XmlValue, path: string): PersonRef | null {
  const person = child(node, 'Person');
  if (person !== undefined) return personRef(person, `${path}/Person`);
  const personId = id(node, 'PersonId');
  if (personId === null) return null;
  return { id: personId, name: { family: '', given: '' }, sex: null, birthDate: null, countryCode: null };
}

function bareOrganisationRef(organisationId: string | null): OrganisationRef {
  return { id: organisationId, name: null, shortName: null, countryCode: null };
}

/** A full `Organisation` element as a ref. */
function organisationRef(node: XmlValue): OrganisationRef {
  return {
    id: id(node, 'OrganisationId'),
    name: text(node, 'Name'),
    shortName: text(node, 'ShortName'),
    countryCode: countryCode(node),
  };
}

/** `Organisation` if present, else `OrganisationId`, else null (a clubless runner). */
export function organisationOrId(node: XmlValue): OrganisationRef | null {
  const org = child(node, 'Organisation');
  if (org !== undefined) return organisationRef(org);
  const organisationId = id(node, 'OrganisationId');
  return organisationId === null ? null : bareOrganisationRef(organisationId);
}

/** Every `Organisation` and `OrganisationId` child (organisers, team clubs). */
export function organisationRefs(node: XmlValue): OrganisationRef[] {
  const out: OrganisationRef[] = [];
  for (const o of children(node, 'OrganisationId')) {
    const value = ownText(o);
    if (value !== null) out.push(bareOrganisationRef(value));
  }
  for (const o of children(node, 'Organisation')) out.push(organisationRef(o));
  return out;
}

const ORGANISATION_KINDS: Record<string, OrganisationKind> = { '1': 'federation', '2': 'district', '3': 'club' };

export function contactDetails(node: XmlValue): ContactDetails | null {
  const addresses = children(node, 'Address');
  const teles = children(node, 'Tele');
  if (addresses.length === 0 && teles.length === 0) return null;
  const emails: string[] = [];
  const phones: string[] = [];
  for (const tele of teles) {
    const mail = attr(tele, 'mailAddress');
    if (mail !== null) emails.push(mail);
    for (const key of ['phoneNumber', 'mobilePhoneNumber']) {
      const phone = attr(tele, key);
      if (phone !== null) phones.push(phone);
    }
  }
  return {
    emails,
    phones,
    addresses: addresses.map((a) => ({
      careOf: attr(a, 'careOf'),
      street: attr(a, 'street'),
      zipCode: attr(a, 'zipCode'),
      city: attr(a, 'city'),
      countryCode: countryCode(a),
    })),
  };
}

/** A full `Organisation` element. */
export function organisation(node: XmlValue, ctx: Ctx, path: string): Organisation {
  const typeId = text(node, 'OrganisationTypeId');
  return {
    id: requiredText(node, 'OrganisationId', path),
    name: presentText(node, 'Name', path),
    shortName: text(node, 'ShortName'),
    mediaName: text(node, 'MediaName'),
    kind: (typeId !== null ? ORGANISATION_KINDS[typeId] : undefined) ?? 'other',
    typeId,
    countryCode: countryCode(node),
    parentId: id(child(node, 'ParentOrganisation'), 'OrganisationId'),
    modifiedAt: dateTime(node, 'ModifyDate', ctx, path),
    contact: contactDetails(node),
  };
}

const PUNCHING_UNIT_TYPES: ReadonlySet<string> = new Set([
  'SI',
  'Emit',
  'emiTag',
  'manual',
  'other',
  'ToePunch',
  'Huichang',
]);

function punchingUnitType(value: string | null): PunchingUnitType | null {
  return value !== null && PUNCHING_UNIT_TYPES.has(value) ? (value as PunchingUnitType) : null;
}

/** Cards as `CCard{CCardId, PunchingUnitType@value}` and/or bare `CCardId` children. */
export function cards(node: XmlValue): Card[] {
  const ccards = children(node, 'CCard');
  const ids = children(node, 'CCardId');
  if (ccards.length === 0 && ids.length === 0) return [];
  const out: Card[] = [];
  for (const c of ccards) {
    const number = text(c, 'CCardId');
    if (number !== null) out.push({ number, type: punchingUnitType(valueAttr(c, 'PunchingUnitType')) });
  }
  for (const c of ids) {
    const number = ownText(c);
    if (number !== null) out.push({ number, type: null });
  }
  return out;
}

const RESULT_STATUSES: Readonly<Record<string, ResultStatus>> = {
  OK: 'OK',
  MisPunch: 'MissingPunch',
  SportWithdr: 'SportingWithdrawal',
  DidNotStart: 'DidNotStart',
  DidNotFinish: 'DidNotFinish',
  Disqualified: 'Disqualified',
  OverTime: 'OverTime',
  NotCompeting: 'NotCompeting',
  Moved: 'Moved',
  MovedUp: 'MovedUp',
  Cancelled: 'Cancelled',
  Active: 'Active',
  Inactive: 'Inactive',
  Finished: 'Finished',
  // IOF 3.0 spellings, in case Eventor ever sends them natively.
  MissingPunch: 'MissingPunch',
  SportingWithdrawal: 'SportingWithdrawal',
  DidNotEnter: 'DidNotEnter',
};

/** `CompetitorStatus@value` / `TeamStatus@value` (required) as a model ResultStatus. */
export function resultStatus(node: XmlValue, name: string, path: string): ResultStatus {
  const el = child(node, name);
  if (el === undefined) throw new InvalidResponse(`missing <${name}>`, `${path}/${name}`);
  const value = attr(el, 'value');
  if (value === null) throw new InvalidResponse(`missing ${name}@value`, `${path}/${name}`);
  const status = Object.hasOwn(RESULT_STATUSES, value) ? RESULT_STATUSES[value] : undefined;
  if (status === undefined) throw new InvalidResponse(`unknown ${name} '${value.slice(0, 40)}'`, `${path}/${name}`);
  return status;
}

function eventStatus(value: string | null): EventStatus {
  return value !== null && Object.hasOwn(EVENT_STATUSES, value)
    ? EVENT_STATUSES[value as keyof typeof EVENT_STATUSES]
    : 'unknown';
}

function eventRace(node: XmlValue, eventId: string, ctx: Ctx, path: string): EventRace {
  const position = child(node, 'EventCenterPosition');
  const lon = toNumber(attr(position, 'x'));
  const lat = toNumber(attr(position, 'y'));
  return {
    id: requiredText(node, 'EventRaceId', path),
    eventId: id(node, 'EventId') ?? eventId,
    name: text(node, 'Name'),
    date: dateTime(node, 'RaceDate', ctx, path),
    distance: attr(node, 'raceDistance') ?? text(child(node, 'WRSInfo'), 'Distance'),
    lightCondition: attr(node, 'raceLightCondition'),
    position: lon !== null && lat !== null ? { lat, lon } : null,
  };
}

const ONE_SECOND = 1000;

/** Entry deadlines: every (from - 1 s) and every to, sorted (model.ts, docs/eventor.md#entry-deadlines). */
export function entryDeadlines(breaks: readonly { from: string | null; to: string | null }[]): string[] {
  const set = new Set<string>();
  for (const b of breaks) {
    if (b.from !== null) set.add(toInstant(Date.parse(b.from) - ONE_SECOND));
    if (b.to !== null) set.add(b.to);
  }
  return [...set].sort();
}

function properties(node: XmlValue): Record<string, string> {
  const entries: [string, string][] = [];
  for (const entry of children(node, 'HashTableEntry')) {
    const key = text(entry, 'Key');
    if (key !== null) entries.push([key, text(entry, 'Value') ?? '']);
  }
  // fromEntries defines own properties, so a key such as `__proto__` cannot touch the prototype.
  return Object.fromEntries(entries);
}

/** A native `Event` element (lists, the single event, and events nested in entries, starts and results). */
export function event(node: XmlValue, ctx: Ctx, path: string): Event {
  const eventId = requiredText(node, 'EventId', path);
  const classificationId =
    text(node, 'EventClassificationId') ?? text(child(node, 'EventClassification'), 'EventClassificationId');
  const statusId = text(node, 'EventStatusId') ?? text(child(node, 'EventStatus'), 'EventStatusId');
  const breaks = children(node, 'EntryBreak').map((b, i, all) => {
    const p = childPath(path, 'EntryBreak', i, all.length);
    return { from: dateTime(b, 'ValidFromDate', ctx, p), to: dateTime(b, 'ValidToDate', ctx, p) };
  });
  const props = properties(node);
  const attributes: Event['attributes'] = [];
  for (const a of children(node, 'EventAttributeId')) attributes.push({ id: ownText(a), name: null, value: null });
  for (const a of children(node, 'EventAttribute')) {
    attributes.push({ id: text(a, 'EventAttributeId'), name: text(a, 'Name'), value: text(a, 'Description') });
  }
  const parent = child(node, 'ParentEvent');
  return {
    id: eventId,
    name: presentText(node, 'Name', path),
    form: attr(node, 'eventForm'),
    classification: classificationOfId(classificationId),
    classificationId,
    status: eventStatus(statusId),
    statusId,
    disciplineIds: texts(node, 'DisciplineId'),
    start: dateTime(node, 'StartDate', ctx, path),
    finish: dateTime(node, 'FinishDate', ctx, path),
    organisers: organisationRefs(child(node, 'Organiser')),
    classTypeIds: texts(node, 'ClassTypeId'),
    entryBreaks: breaks,
    entryDeadlines: entryDeadlines(breaks),
    races: children(node, 'EventRace').map((r, i, all) =>
      eventRace(r, eventId, ctx, childPath(path, 'EventRace', i, all.length)),
    ),
    urls: texts(node, 'WebURL'),
    message: Object.hasOwn(props, 'Eventor_Message') ? props['Eventor_Message']! : null,
    punchingUnitTypes: children(node, 'PunchingUnitType')
      .map((p) => attr(p, 'value'))
      .filter((v): v is string => v !== null),
    officials: children(node, 'EventOfficial').map((o, i, all) => ({
      personId: id(o, 'PersonId'),
      roleTypeId: requiredText(o, 'RoleTypeId', childPath(path, 'EventOfficial', i, all.length)),
    })),
    parentEventId: id(parent, 'EventId') ?? id(child(parent, 'Event'), 'EventId'),
    properties: props,
    attributes,
    modifiedAt: dateTime(node, 'ModifyDate', ctx, path),
  };
}

/** `Event` (full) or `EventId` inside an entry, start list or result list. */
export function eventRef(node: XmlValue, ctx: Ctx, path: string): EventRef {
  const full = child(node, 'Event');
  if (full !== undefined) {
    const e = event(full, ctx, `${path}/Event`);
    return { id: e.id, name: e.name, event: e };
  }
  const eventId = id(node, 'EventId');
  if (eventId === null) throw new InvalidResponse('missing <Event> or <EventId>', `${path}/Event`);
  return { id: eventId, name: null, event: null };
}

/** Elements of `name` under `node`, each with its path, for `map`-style use. */
export function each<T>(
  node: XmlValue,
  name: string,
  path: string,
  fn: (el: XmlValue, path: string, index: number) => T,
): T[] {
  const list = children(node, name);
  const out = new Array<T>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = fn(list[i], childPath(path, name, i, list.length), i);
  return out;
}
