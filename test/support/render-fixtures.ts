/** Synthetic domain objects for the renderer tests, and the check every rendered payload must pass. */
import { expect } from 'vitest';
import type {
  Activity,
  ClassResult,
  Entry,
  Event,
  EventClass,
  OrganisationRef,
  PersonResult,
  RaceResult,
  ResultList,
  StartList,
} from '../../src/eventor/model.js';
import type { Language } from '../../src/i18n/index.js';
import type { MessagePayload, RenderContext } from '../../src/render/index.js';
import { checkMessagePayload } from '../../harness/sandbox/discord/limits.js';

export const NOW = new Date('2026-11-22T12:00:00Z');
export const CLUB: OrganisationRef = { id: '321', name: 'OK Linné', shortName: 'Linné', countryCode: 'SWE' };
export const OTHER: OrganisationRef = { id: '999', name: 'IFK Göteborg', shortName: 'IFK Gbg', countryCode: 'SWE' };

export function ctx(language: Language = 'en', extra: Partial<RenderContext> = {}): RenderContext {
  return { language, timeZone: 'Europe/Stockholm', now: NOW, webUrl: 'https://eventor.orientering.se', ...extra };
}

export function event(overrides: Partial<Event> = {}): Event {
  return {
    id: '1001',
    name: 'Höstsprinten',
    form: null,
    classification: 'district',
    classificationId: '3',
    status: 'entryOpened',
    statusId: '5',
    disciplineIds: ['1'],
    start: '2026-12-05T09:00:00Z',
    finish: '2026-12-05T15:00:00Z',
    organisers: [{ id: '321', name: null, shortName: null, countryCode: null }],
    classTypeIds: [],
    entryBreaks: [],
    entryDeadlines: ['2026-11-20T22:59:59Z', '2026-11-29T22:59:59Z'],
    races: [
      {
        id: '2001',
        eventId: '1001',
        name: null,
        date: '2026-12-05T09:00:00Z',
        distance: 'Sprint',
        lightCondition: 'Day',
        position: { lat: 59.3293, lon: 18.0686 },
      },
    ],
    urls: [],
    message: null,
    punchingUnitTypes: [],
    officials: [],
    parentEventId: null,
    properties: {},
    attributes: [],
    modifiedAt: null,
    ...overrides,
  };
}

export function eventClass(id: string, name: string): EventClass {
  return {
    id,
    name,
    shortName: null,
    sex: null,
    minAge: null,
    maxAge: null,
    status: null,
    classTypeId: null,
    baseClassId: null,
    numberOfEntries: null,
    teamEntry: false,
    numberOfLegs: null,
    entryFeeIds: [],
    races: [],
  };
}

export function entry(id: string, given: string, family: string, classId: string, classNames: string[] = []): Entry {
  return {
    id,
    event: { id: '1001', name: null, event: null },
    competitor: {
      competitorId: null,
      person: { id: `p${id}`, name: { given, family }, sex: null, birthDate: null, countryCode: null },
      personId: `p${id}`,
      organisation: CLUB,
      cards: [],
    },
    team: null,
    classIds: [classId],
    classNames,
    raceIds: [],
    bibNumber: null,
    entryDate: null,
    entryFeeIds: [],
    modifiedAt: null,
  };
}

export function raceResult(overrides: Partial<RaceResult> = {}): RaceResult {
  return {
    raceId: null,
    raceNumber: 1,
    bibNumber: null,
    startTime: '2026-10-10T10:00:00Z',
    finishTime: null,
    time: null,
    timeBehind: null,
    position: null,
    status: 'OK',
    splits: [],
    overall: null,
    course: null,
    cards: [],
    ...overrides,
  };
}

export function personResult(
  id: string,
  given: string,
  family: string,
  organisation: OrganisationRef,
  results: RaceResult[],
): PersonResult {
  return {
    person: { id, name: { given, family }, sex: null, birthDate: null, countryCode: null },
    organisation,
    results,
  };
}

export function classResult(name: string, persons: PersonResult[], overrides: Partial<ClassResult> = {}): ClassResult {
  return {
    class: { id: name, name, shortName: null, resultListMode: 'Default' },
    numberOfEntries: persons.length,
    numberOfStarts: persons.length,
    courses: [],
    persons,
    teams: [],
    ...overrides,
  };
}

export function resultList(classes: ClassResult[], eventOverrides: Partial<Event> = {}): ResultList {
  const e = event({ id: '1001', name: 'Höstsprinten', start: '2026-10-10T09:00:00Z', ...eventOverrides });
  return { status: 'complete', event: { id: e.id, name: e.name, event: e }, classes };
}

export function startList(classes: StartList['classes'], eventOverrides: Partial<Event> = {}): StartList {
  const e = event(eventOverrides);
  return { event: { id: e.id, name: e.name, event: e }, classes };
}

export function activity(overrides: Partial<Activity> = {}): Activity {
  return {
    id: '77',
    organisationId: '321',
    name: 'Intervallträning',
    information: null,
    startTime: '2026-11-25T17:30:00Z',
    registrationDeadline: '2026-11-24T22:00:00Z',
    visibleFrom: null,
    visibleTo: null,
    url: 'https://eventor.orientering.se/Activities/Show/77',
    registrationCount: 12,
    allowExternalRegistrations: null,
    entryAccessLevel: null,
    attributes: [],
    registrations: [],
    modifiedAt: null,
    ...overrides,
  };
}

/** The sandbox Discord's validator; an empty list means Discord would accept the payload. */
export function errorsOf(payload: MessagePayload): unknown[] {
  return checkMessagePayload(payload as Parameters<typeof checkMessagePayload>[0]);
}

/** At least one payload, each one Discord would accept and none pinging anyone; the payloads, for more checks. */
export function validPayloads(payloads: MessagePayload | MessagePayload[]): MessagePayload[] {
  const list = Array.isArray(payloads) ? payloads : [payloads];
  expect(list.length).toBeGreaterThan(0);
  for (const payload of list) {
    expect(errorsOf(payload)).toEqual([]);
    expect(payload.allowedMentions).toEqual({ parse: [] });
  }
  return list;
}

export function textOf(payload: MessagePayload): string {
  const parts: string[] = [payload.content ?? ''];
  for (const embed of payload.embeds ?? []) {
    parts.push(
      embed.title ?? '',
      embed.description ?? '',
      ...(embed.fields ?? []).flatMap((f) => [f.name, f.value]),
      embed.footer?.text ?? '',
    );
  }
  return parts.join('\n');
}
