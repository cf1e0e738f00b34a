/** EventList, Event, DocumentList, EventClassList and EntryFeeList (docs/eventor.md#events-list). */
import type { EntryFee, Event, EventClass, EventDocument } from '../model.js';
import {
  EntryFee as EntryFeeSchema,
  EventClass as EventClassSchema,
  EventDocument as EventDocumentSchema,
  Event as EventSchema,
} from '../model.js';
import type { XmlValue } from '../xml.js';
import {
  attr,
  child,
  children,
  ownText,
  parseNativeDocument,
  presentText,
  requiredAttr,
  requiredText,
  text,
  valueAttr,
} from '../xml.js';
import type { Ctx } from './common.js';
import { dateTime, each, event, localDate, toBool, toInt, toNumber, xsDateTime } from './common.js';
import { validateList, validateOne } from './validate.js';

export interface ParseOptions {
  /** IANA zone of the document's Date+Clock values ('UTC' when the client asked for UTC). */
  timeZone: string;
}

export function parseEventList(xml: string, options: ParseOptions): Event[] {
  const root = parseNativeDocument(xml, 'EventList');
  const events = each(root, 'Event', 'EventList', (e, path) => event(e, options, path));
  return validateList(EventSchema, events, 'EventList/Event');
}

export function parseEvent(xml: string, options: ParseOptions): Event {
  const root = parseNativeDocument(xml, 'Event');
  return validateOne(EventSchema, event(root, options, 'Event'), 'Event');
}

function document(node: XmlValue, ctx: Ctx, path: string): EventDocument {
  return {
    id: requiredAttr(node, 'id', path),
    eventId: attr(node, 'referenceId'),
    name: attr(node, 'name') ?? '',
    url: requiredAttr(node, 'url', path),
    type: attr(node, 'type'),
    modifiedAt: xsDateTime(attr(node, 'modifyDate'), ctx, `${path}/@modifyDate`),
  };
}

export function parseDocumentList(xml: string, options: ParseOptions): EventDocument[] {
  const root = parseNativeDocument(xml, 'DocumentList');
  const docs = each(root, 'Document', 'DocumentList', (d, path) => document(d, options, path));
  return validateList(EventDocumentSchema, docs, 'DocumentList/Document');
}

function sex(value: string | null): 'F' | 'M' | 'B' | null {
  return value === 'F' || value === 'M' || value === 'B' ? value : null;
}

/** Ids of `ClassEntryFee`/`EntryEntryFee` children in their application (`Sequence`) order. */
export function feeIds(node: XmlValue, name: string): string[] {
  const fees = children(node, name)
    .map((f, index) => ({
      id: text(f, 'EntryFeeId'),
      seq: toInt(text(f, 'Sequence')) ?? Number.MAX_SAFE_INTEGER,
      index,
    }))
    .filter((f): f is { id: string; seq: number; index: number } => f.id !== null);
  fees.sort((a, b) => a.seq - b.seq || a.index - b.index);
  return fees.map((f) => f.id);
}

export function eventClass(node: XmlValue, path: string): EventClass {
  return {
    id: requiredText(node, 'EventClassId', path),
    name: presentText(node, 'Name', path),
    shortName: text(node, 'ClassShortName'),
    sex: sex(attr(node, 'sex')),
    minAge: toInt(attr(node, 'lowAge')),
    maxAge: toInt(attr(node, 'highAge')),
    status: valueAttr(node, 'EventClassStatus'),
    classTypeId: text(node, 'ClassTypeId') ?? text(child(node, 'ClassType'), 'ClassTypeId'),
    baseClassId: text(node, 'BaseClassId'),
    numberOfEntries: toInt(attr(node, 'numberOfEntries')),
    teamEntry: toBool(attr(node, 'teamEntry')) ?? false,
    numberOfLegs: toInt(attr(node, 'numberOfLegs')),
    entryFeeIds: feeIds(node, 'ClassEntryFee'),
    races: children(node, 'ClassRaceInfo').map((r) => ({
      id: text(r, 'ClassRaceInfoId'),
      raceId: text(r, 'EventRaceId'),
      relayLeg: toInt(attr(r, 'relayLeg')),
      entries: toInt(attr(r, 'noOfEntries')),
      starts: toInt(attr(r, 'noOfStarts')),
      status: valueAttr(r, 'ClassRaceStatus'),
    })),
  };
}

export function parseEventClassList(xml: string, options: ParseOptions): EventClass[] {
  void options;
  const root = parseNativeDocument(xml, 'EventClassList');
  const classes = each(root, 'EventClass', 'EventClassList', (c, path) => eventClass(c, path));
  return validateList(EventClassSchema, classes, 'EventClassList/EventClass');
}

function entryFee(node: XmlValue, ctx: Ctx, path: string): EntryFee {
  const amount = child(node, 'Amount');
  return {
    id: requiredText(node, 'EntryFeeId', path),
    name: presentText(node, 'Name', path),
    amount: toNumber(ownText(amount)),
    currency: attr(amount, 'currency'),
    type: attr(node, 'entryFeeType') ?? attr(node, 'type'),
    valueOperator: attr(node, 'valueOperator') === 'percent' ? 'percent' : 'fixed',
    taxIncluded: toBool(attr(node, 'taxIncluded')),
    validFrom: dateTime(node, 'ValidFromDate', ctx, path),
    validTo: dateTime(node, 'ValidToDate', ctx, path),
    birthDateFrom: localDate(text(child(node, 'FromDateOfBirth'), 'Date')),
    birthDateTo: localDate(text(child(node, 'ToDateOfBirth'), 'Date')),
  };
}

export function parseEntryFeeList(xml: string, options: ParseOptions): EntryFee[] {
  const root = parseNativeDocument(xml, 'EntryFeeList');
  const fees = each(root, 'EntryFee', 'EntryFeeList', (f, path) => entryFee(f, options, path));
  return validateList(EntryFeeSchema, fees, 'EntryFeeList/EntryFee');
}
