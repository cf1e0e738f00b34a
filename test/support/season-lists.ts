/**
 * Hand-made result lists for the season's and the cups' tests (docs/season.md), and the worked
 * example of the scorings: two races of H21, one runner from another club, a tie, a missing
 * punch and a runner who did not start.
 */
import type { RenderContext } from '../../src/render/index.js';
import type { CupRules } from '../../src/season/cup.js';
import type {
  ClassResult,
  Event,
  PersonResult,
  RaceResult,
  ResultList,
  ResultStatus,
} from '../../src/eventor/model.js';

export const CLUB = { id: '321', name: 'OK Skogen' };
export const OTHER = { id: '99', name: 'IK Annan' };

export interface RunnerSpec {
  given: string;
  family: string;
  id?: string | null;
  club?: { id: string; name: string } | null;
  status?: ResultStatus;
  /** Seconds. */
  time?: number | null;
  position?: number | null;
  timeBehind?: number | null;
  raceNumber?: number | null;
  raceId?: string | null;
  courseLength?: number | null;
  startTime?: string | null;
}

export function raceResult(spec: RunnerSpec): RaceResult {
  return {
    raceId: spec.raceId ?? null,
    raceNumber: spec.raceNumber ?? null,
    bibNumber: null,
    startTime: spec.startTime ?? null,
    finishTime: null,
    time: spec.time ?? null,
    timeBehind: spec.timeBehind ?? null,
    position: spec.position ?? null,
    status: spec.status ?? 'OK',
    splits: [],
    overall: null,
    course:
      spec.courseLength === undefined || spec.courseLength === null
        ? null
        : { name: null, length: spec.courseLength, climb: null, controls: null },
    cards: [],
  };
}

export function person(spec: RunnerSpec, results: RaceResult[] = [raceResult(spec)]): PersonResult {
  const club = spec.club === undefined ? CLUB : spec.club;
  return {
    person: {
      id: spec.id === undefined ? `${spec.given}-${spec.family}`.toLowerCase() : spec.id,
      name: { given: spec.given, family: spec.family },
      sex: null,
      birthDate: null,
      countryCode: null,
    },
    organisation: club === null ? null : { id: club.id, name: club.name, shortName: null, countryCode: null },
    results,
  };
}

export function classResult(name: string, persons: PersonResult[], numberOfStarts: number | null = null): ClassResult {
  return {
    class: { id: null, name, shortName: null, resultListMode: 'Default' },
    numberOfEntries: null,
    numberOfStarts,
    courses: [],
    persons,
    teams: [],
  };
}

export function event(id: string, name: string, start: string, extra: Partial<Event> = {}): Event {
  return {
    id,
    name,
    form: null,
    classification: 'local',
    classificationId: '4',
    status: 'completed',
    statusId: '9',
    disciplineIds: ['1'],
    start,
    finish: start,
    organisers: [],
    classTypeIds: [],
    entryBreaks: [],
    entryDeadlines: [],
    races: [
      { id: `${id}1`, eventId: id, name: null, date: start, distance: null, lightCondition: null, position: null },
    ],
    urls: [],
    message: null,
    punchingUnitTypes: [],
    officials: [],
    parentEventId: null,
    properties: {},
    attributes: [],
    modifiedAt: null,
    ...extra,
  };
}

export function resultList(ev: Event | null, classes: ClassResult[], name?: string): ResultList {
  return {
    status: 'complete',
    event: { id: ev?.id ?? null, name: name ?? ev?.name ?? null, event: ev },
    classes,
  };
}

/** The worked example's first race (docs/season.md#a-worked-example): Olof of another club wins; Erik and Nils tie. */
export const RACE_1: RunnerSpec[] = [
  { given: 'Olof', family: 'Berg', club: OTHER, time: 2400, position: 1 },
  { given: 'Erik', family: 'Lund', time: 2640, position: 2 },
  { given: 'Nils', family: 'Ek', time: 2640, position: 2 },
  { given: 'Karl', family: 'Holm', time: 3000, position: 4 },
  { given: 'Per', family: 'Ås', time: 2280, status: 'MissingPunch' },
];

/** The second race: Karl wins; Nils did not start. */
export const RACE_2: RunnerSpec[] = [
  { given: 'Karl', family: 'Holm', time: 1800, position: 1 },
  { given: 'Per', family: 'Ås', time: 1890, position: 2 },
  { given: 'Erik', family: 'Lund', time: 2160, position: 3 },
  { given: 'Nils', family: 'Ek', status: 'DidNotStart' },
];

export function workedExample(): ResultList[] {
  return [
    resultList(event('501', 'Vårsprinten', '2026-04-11T08:00:00Z'), [
      classResult(
        'H21',
        RACE_1.map((s) => person(s)),
      ),
    ]),
    resultList(event('502', 'Skogsträffen', '2026-05-16T08:00:00Z'), [
      classResult(
        'H21',
        RACE_2.map((s) => person(s)),
      ),
    ]),
  ];
}

/** What the season's renderers are given in these tests: a fixed clock, the sandbox's zone. */
export function renderContext(language: RenderContext['language'] = 'en'): RenderContext {
  return {
    language,
    timeZone: 'Europe/Stockholm',
    now: new Date('2026-11-18T09:00:00Z'),
    webUrl: 'https://eventor.example',
  };
}

/** A cup over the whole of 2026, every race and class: the tests change what they are about. */
export function cupRules(over: Partial<CupRules> = {}): CupRules {
  return {
    scoring: 'place',
    best: null,
    levels: [],
    disciplines: [],
    from: '2026-01-01',
    to: '2026-12-31',
    eventIds: [],
    classes: [],
    ...over,
  };
}
