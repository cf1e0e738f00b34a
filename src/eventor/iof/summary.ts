/**
 * A summary of the IOF XML 3.0 documents a club meets besides start and result lists: what
 * `eventor-bot parse` prints for an EntryList, ClassList, EventList or CourseData. Not a full
 * reading (the bot uses none of them): the event with its dates, and how many classes, entries,
 * courses and controls there are, per class too.
 */

import { isValidTimeZone } from '../../time/zones.js';
import { InvalidResponse, ValidationError } from '../errors.js';
import { toXmlText } from './decode.js';
import { detectIofDocument } from './detect.js';
import type { IofReadOptions } from './reader.js';
import { parseDate, parseDateTime, parseInteger } from './values.js';
import { attr, childrenNamed, firstChild, parseXml, textOf, type XmlElement } from './xml-tree.js';

export const SUMMARISED_DOCUMENTS = ['EntryList', 'ClassList', 'EventList', 'CourseData'] as const;
export type SummarisedDocument = (typeof SUMMARISED_DOCUMENTS)[number];

export function isSummarisedDocument(rootName: string | null): rootName is SummarisedDocument {
  return (SUMMARISED_DOCUMENTS as readonly string[]).includes(rootName ?? '');
}

export interface EventSummary {
  id: string | null;
  name: string | null;
  /** An instant (UTC, `Z`) when the file gives a time with an offset or a zone is given; a date alone otherwise. */
  start: string | null;
  end: string | null;
  races: Array<{ number: number | null; name: string | null; date: string | null }>;
  classes: number;
}

export interface ClassSummary {
  name: string;
  /** EntryList: entries naming the class; ClassList/EventList: the class's `numberOfCompetitors` as written. */
  entries: number | null;
  /** Relay legs (ClassList/EventList), null when the class defines none. */
  legs: number | null;
  /** CourseData: the courses assigned to the class. */
  courses: string[];
}

export interface IofDocumentSummary {
  kind: SummarisedDocument;
  events: EventSummary[];
  classes: number;
  /** EntryList: person and team entries (teams count once); null for the other documents. */
  entries: number | null;
  /** CourseData: courses and control definitions over every race; null for the other documents. */
  courses: number | null;
  controls: number | null;
  perClass: ClassSummary[];
}

interface Ctx {
  ns: string;
  timeZone: string | undefined;
}

function text(ctx: Ctx, el: XmlElement | null, local: string): string | null {
  return el === null ? null : textOf(firstChild(el, ctx.ns, local));
}

function dateAndTime(ctx: Ctx, el: XmlElement | null, path: string): string | null {
  if (el === null) return null;
  const date = parseDate(text(ctx, el, 'Date'));
  if (date === null) return null;
  const time = text(ctx, el, 'Time');
  return time === null ? date : (parseDateTime(`${date}T${time}`, ctx, null, () => path) ?? date);
}

function idOf(ctx: Ctx, el: XmlElement): string | null {
  const ids = childrenNamed(el, ctx.ns, 'Id');
  const eventor = ids.find((id) => attr(id, 'type')?.toLowerCase() === 'eventor');
  return textOf(eventor ?? ids[0] ?? null);
}

function readEvent(ctx: Ctx, event: XmlElement, path: string): EventSummary {
  return {
    id: idOf(ctx, event),
    name: text(ctx, event, 'Name'),
    start: dateAndTime(ctx, firstChild(event, ctx.ns, 'StartTime'), `${path}/StartTime`),
    end: dateAndTime(ctx, firstChild(event, ctx.ns, 'EndTime'), `${path}/EndTime`),
    races: childrenNamed(event, ctx.ns, 'Race').map((race, i) => ({
      number: parseInteger(text(ctx, race, 'RaceNumber'), () => `${path}/Race[${i + 1}]/RaceNumber`),
      name: text(ctx, race, 'Name'),
      date: parseDate(text(ctx, firstChild(race, ctx.ns, 'StartTime'), 'Date')),
    })),
    classes: childrenNamed(event, ctx.ns, 'Class').length,
  };
}

function className(ctx: Ctx, el: XmlElement): string {
  return text(ctx, el, 'Name') ?? text(ctx, el, 'ShortName') ?? text(ctx, el, 'Id') ?? '?';
}

function classDefinitions(ctx: Ctx, classes: XmlElement[], path: string): ClassSummary[] {
  return classes.map((c, i) => {
    const legs = childrenNamed(c, ctx.ns, 'Leg').length;
    return {
      name: className(ctx, c),
      entries: parseInteger(attr(c, 'numberOfCompetitors'), () => `${path}/Class[${i + 1}]/@numberOfCompetitors`),
      legs: legs === 0 ? null : legs,
      courses: [],
    };
  });
}

function entryList(ctx: Ctx, root: XmlElement): IofDocumentSummary {
  const event = firstChild(root, ctx.ns, 'Event');
  const perClass = new Map<string, ClassSummary>();
  // Classes the event defines come first, in their order, even with no entry yet.
  if (event !== null)
    for (const c of classDefinitions(ctx, childrenNamed(event, ctx.ns, 'Class'), 'EntryList/Event'))
      perClass.set(c.name, { ...c, entries: 0 });
  const entries = [...childrenNamed(root, ctx.ns, 'PersonEntry'), ...childrenNamed(root, ctx.ns, 'TeamEntry')];
  for (const entry of entries) {
    // An entry may name several classes (one per race); it counts once in each.
    const names = new Set(childrenNamed(entry, ctx.ns, 'Class').map((c) => className(ctx, c)));
    for (const name of names) {
      const summary = perClass.get(name) ?? { name, entries: 0, legs: null, courses: [] };
      summary.entries = (summary.entries ?? 0) + 1;
      perClass.set(name, summary);
    }
  }
  return {
    kind: 'EntryList',
    events: event === null ? [] : [readEvent(ctx, event, 'EntryList/Event')],
    classes: perClass.size,
    entries: entries.length,
    courses: null,
    controls: null,
    perClass: [...perClass.values()],
  };
}

function classList(ctx: Ctx, root: XmlElement): IofDocumentSummary {
  const perClass = classDefinitions(ctx, childrenNamed(root, ctx.ns, 'Class'), 'ClassList');
  return {
    kind: 'ClassList',
    events: [],
    classes: perClass.length,
    entries: null,
    courses: null,
    controls: null,
    perClass,
  };
}

function eventList(ctx: Ctx, root: XmlElement): IofDocumentSummary {
  const events = childrenNamed(root, ctx.ns, 'Event');
  // Per class only for a single event: classes of different events are not one list.
  const perClass =
    events.length === 1 ? classDefinitions(ctx, childrenNamed(events[0]!, ctx.ns, 'Class'), 'EventList/Event') : [];
  const summaries = events.map((event, i) => readEvent(ctx, event, `EventList/Event[${i + 1}]`));
  return {
    kind: 'EventList',
    events: summaries,
    classes: summaries.reduce((sum, e) => sum + e.classes, 0),
    entries: null,
    courses: null,
    controls: null,
    perClass,
  };
}

function courseData(ctx: Ctx, root: XmlElement): IofDocumentSummary {
  const event = firstChild(root, ctx.ns, 'Event');
  const perClass = new Map<string, ClassSummary>();
  let courses = 0;
  let controls = 0;
  for (const race of childrenNamed(root, ctx.ns, 'RaceCourseData')) {
    courses += childrenNamed(race, ctx.ns, 'Course').length;
    controls += childrenNamed(race, ctx.ns, 'Control').length;
    for (const assignment of childrenNamed(race, ctx.ns, 'ClassCourseAssignment')) {
      const name = text(ctx, assignment, 'ClassName') ?? text(ctx, assignment, 'ClassId') ?? '?';
      const course = text(ctx, assignment, 'CourseName') ?? text(ctx, assignment, 'CourseFamily');
      const summary = perClass.get(name) ?? { name, entries: null, legs: null, courses: [] };
      if (course !== null && !summary.courses.includes(course)) summary.courses.push(course);
      perClass.set(name, summary);
    }
  }
  return {
    kind: 'CourseData',
    events: event === null ? [] : [readEvent(ctx, event, 'CourseData/Event')],
    classes: perClass.size,
    entries: null,
    courses,
    controls,
    perClass: [...perClass.values()],
  };
}

const SUMMARISERS: Record<SummarisedDocument, (ctx: Ctx, root: XmlElement) => IofDocumentSummary> = {
  EntryList: entryList,
  ClassList: classList,
  EventList: eventList,
  CourseData: courseData,
};

/** The summary of an IOF XML 3.0 EntryList, ClassList, EventList or CourseData; an InvalidResponse for anything else. */
export function summariseIofDocument(input: string | Uint8Array, options: IofReadOptions = {}): IofDocumentSummary {
  const source = toXmlText(input);
  const info = detectIofDocument(source);
  if (info.version !== '3.0' || !isSummarisedDocument(info.rootName)) {
    throw new InvalidResponse(`not an IOF XML 3.0 ${SUMMARISED_DOCUMENTS.join(', ')}`, info.rootName);
  }
  if (options.timeZone !== undefined && !isValidTimeZone(options.timeZone))
    throw new ValidationError('timeZone', `unknown time zone '${options.timeZone}'`);
  const root = parseXml(source);
  if (root.local !== info.rootName) throw new InvalidResponse(`unexpected root element <${root.local}>`, root.local);
  return SUMMARISERS[info.rootName]({ ns: root.ns, timeZone: options.timeZone }, root);
}
