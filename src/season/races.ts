/**
 * A result list as the season counts it (docs/season.md): one race per race of the event, each race
 * of a multi-race event apart, with for every individual class what scoring needs of the whole
 * class (its best OK time, how many started) and the runners kept (the club's, or everyone's for a
 * file). Relays do not count: team results are left out. Pure: the model's records in, plain data out.
 */
import type {
  ClassResult,
  Event,
  EventClassification,
  EventStatus,
  PersonResult,
  RaceResult,
  ResultList,
  ResultStatus,
} from '../eventor/model.js';

/**
 * A record as the Eventor client hands it out: read-only all the way down (src/eventor/answers.ts
 * says why); a mutable record of the model is one too.
 */
export type Frozen<T> =
  T extends ReadonlyArray<infer U>
    ? ReadonlyArray<Frozen<U>>
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

/** One runner's result in one race. Times are seconds; `courseLength` metres, when the list gives it. */
export interface SeasonRunner {
  personId: string | null;
  /** "Given Family", as the list spells it. */
  name: string;
  /** What tells two runners of one name apart in a list (the results show it too); null when not given. */
  birthYear: string | null;
  status: ResultStatus;
  time: number | null;
  /** The place among everyone in the class (ties share a place); null when not placed. */
  position: number | null;
  courseLength: number | null;
}

/** One class in one race: the whole class's figures and the runners kept. */
export interface SeasonClass {
  name: string;
  /** How many started in the class (everyone, not only those kept); null when unknown. */
  starts: number | null;
  /** The best OK time in the class in this race, over everyone; null when nobody has one. */
  winnerTime: number | null;
  runners: SeasonRunner[];
}

/** One race: a single-race event, or one race of a multi-race event. */
export interface SeasonRace {
  /** Stable across fetches: the event id, with the race's id (or number) for a multi-race event. */
  key: string;
  eventId: string | null;
  eventName: string;
  /** 1-based, within the event. */
  raceNumber: number;
  raceCount: number;
  raceName: string | null;
  /** When the race started (an instant, as the model writes them); null when the list gives none. */
  date: string | null;
  classification: EventClassification;
  disciplineIds: string[];
  classes: SeasonClass[];
}

/** What the season keeps of an event: enough to tell its races, level and discipline apart. */
export interface SeasonEvent {
  id: string;
  name: string;
  /** Eventor's event form (`IndSingleDay`, `RelaySingleDay`, …); null when not given. */
  form: string | null;
  status: EventStatus;
  classification: EventClassification;
  disciplineIds: string[];
  start: string | null;
  races: Array<{ id: string; name: string | null; date: string | null }>;
}

export function seasonEventOf(event: Frozen<Event>): SeasonEvent {
  return {
    id: event.id,
    name: event.name,
    form: event.form,
    status: event.status,
    classification: event.classification,
    disciplineIds: [...event.disciplineIds],
    start: event.start,
    races: event.races.map((r) => ({ id: r.id, name: r.name, date: r.date })),
  };
}

/** A relay, by its form: relays do not count (docs/season.md#what-counts). */
export function isRelay(event: Pick<SeasonEvent, 'form'>): boolean {
  return event.form !== null && /relay/i.test(event.form);
}

/** Statuses that mean the runner took part in the race (a start); the others are not in it at all. */
const STARTED: ReadonlySet<ResultStatus> = new Set([
  'OK',
  'Finished',
  'MissingPunch',
  'Disqualified',
  'DidNotFinish',
  'OverTime',
  'SportingWithdrawal',
  'NotCompeting',
]);

/**
 * Whether a status is a start: a result of any kind, valid or not. Not started, not entered,
 * moved to another class, cancelled, or still out on the course (`Active`, `Inactive`) are not.
 */
export function isStart(status: ResultStatus): boolean {
  return STARTED.has(status);
}

export interface SeasonRacesOptions {
  /** Which runners to keep (the club's own); every runner still counts for the class's figures. */
  keep: (person: Frozen<PersonResult>) => boolean;
  /**
   * The list holds everyone in each class (a full result list or a file): starts and places may be
   * counted from it. False for a club's own list, where Eventor's counts and places are taken.
   */
  complete: boolean;
  /** Prepended to every race key (a file's index, for files without event ids). */
  keyPrefix?: string;
  /** The event, when the list names it by id only (Eventor's lists may). */
  event?: SeasonEvent;
}

interface RaceSlot {
  id: string | null;
  number: number;
  name: string | null;
  date: string | null;
}

/** The event's races in order: from the event when the list carries it, else from the results' race numbers. */
function raceSlots(list: Frozen<ResultList>, event: SeasonEvent | null): RaceSlot[] {
  const eventRaces = event?.races ?? [];
  if (eventRaces.length > 0) return eventRaces.map((r, i) => ({ id: r.id, number: i + 1, name: r.name, date: r.date }));
  const numbers = new Set<number>();
  for (const cls of list.classes)
    for (const p of cls.persons) for (const r of p.results) numbers.add(r.raceNumber ?? 1);
  if (numbers.size === 0) numbers.add(1);
  return [...numbers].sort((a, b) => a - b).map((number) => ({ id: null, number, name: null, date: null }));
}

/** Which slot a result is for: by race id, else by number, else the only race. */
function slotOf(result: Frozen<RaceResult>, slots: readonly RaceSlot[]): number {
  if (result.raceId !== null) {
    const byId = slots.findIndex((s) => s.id === result.raceId);
    if (byId >= 0) return byId;
  }
  if (result.raceNumber !== null) {
    const byNumber = slots.findIndex((s) => s.number === result.raceNumber);
    if (byNumber >= 0) return byNumber;
  }
  return slots.length === 1 || (result.raceId === null && result.raceNumber === null) ? 0 : -1;
}

/** "Given Family" on one line. */
export function runnerName(person: Frozen<PersonResult['person']>): string {
  if (person === null) return '';
  return `${person.name.given} ${person.name.family}`.replace(/\s+/g, ' ').trim();
}

/** The best OK time of the class: the OK times there are, and each OK time less its time behind the winner. */
function bestTime(results: ReadonlyArray<Frozen<RaceResult>>): number | null {
  let best: number | null = null;
  for (const r of results) {
    if (r.status !== 'OK' || r.time === null || r.time <= 0) continue;
    const candidates = [r.time];
    if (r.timeBehind !== null && r.timeBehind >= 0 && r.time - r.timeBehind > 0) candidates.push(r.time - r.timeBehind);
    for (const c of candidates) if (best === null || c < best) best = c;
  }
  return best;
}

/**
 * Places from times, ties sharing one: 1 + how many OK runners were faster. The OK times are
 * sorted once per class and each place found by binary search, so a complete list of a large class
 * costs n log n, not a pass over the class per runner.
 */
function placesFromTimes(results: ReadonlyArray<Frozen<RaceResult>>): (result: Frozen<RaceResult>) => number | null {
  const okTimes = results
    .filter((r) => r.status === 'OK' && r.time !== null)
    .map((r) => r.time!)
    .sort((a, b) => a - b);
  return (result) => {
    if (result.status !== 'OK' || result.time === null) return null;
    const time = result.time;
    let low = 0;
    let high = okTimes.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (okTimes[mid]! < time) low = mid + 1;
      else high = mid;
    }
    return 1 + low;
  };
}

function seasonClass(
  cls: Frozen<ClassResult>,
  entries: ReadonlyArray<{ person: Frozen<PersonResult>; result: Frozen<RaceResult> }>,
  options: SeasonRacesOptions,
): SeasonClass | null {
  const results = entries.map((e) => e.result);
  const started = results.filter((r) => isStart(r.status)).length;
  // A club's own list holds only the club (and the top): Eventor's count of the class's starts is
  // what there is, for a multi-race event the class's over the event.
  const starts = options.complete ? started : cls.numberOfStarts;
  const placeFromTimes = options.complete ? placesFromTimes(results) : () => null;
  const onlyCourse = cls.courses.length === 1 ? (cls.courses[0]!.length ?? null) : null;
  const runners: SeasonRunner[] = entries
    .filter((e) => options.keep(e.person) && isStart(e.result.status))
    .map(({ person, result }) => ({
      personId: person.person?.id ?? null,
      name: runnerName(person.person),
      birthYear: person.person?.birthDate?.slice(0, 4) ?? null,
      status: result.status,
      time: result.time,
      position: result.status === 'OK' ? (result.position ?? placeFromTimes(result)) : null,
      courseLength: result.course?.length ?? onlyCourse,
    }));
  if (runners.length === 0) return null;
  return { name: cls.class.name, starts, winnerTime: bestTime(results), runners };
}

/**
 * The list's races, each with its individual classes that have a runner kept. A race without
 * one still comes back (with no classes), so a caller can tell "nobody kept" from "no race".
 */
export function seasonRaces(list: Frozen<ResultList>, options: SeasonRacesOptions): SeasonRace[] {
  const event = options.event ?? (list.event.event ? seasonEventOf(list.event.event) : null);
  const slots = raceSlots(list, event);
  const eventId = list.event.id ?? event?.id ?? null;
  const eventName = (list.event.name ?? event?.name ?? '').trim();
  const prefix = options.keyPrefix ?? '';
  const byRace = slots.map(() => [] as SeasonClass[]);
  const firstStart: Array<string | null> = slots.map(() => null);
  for (const cls of list.classes) {
    const perRace = slots.map(() => [] as Array<{ person: Frozen<PersonResult>; result: Frozen<RaceResult> }>);
    for (const person of cls.persons)
      for (const result of person.results) {
        const slot = slotOf(result, slots);
        if (slot < 0) continue;
        perRace[slot]!.push({ person, result });
        const start = result.startTime;
        if (start !== null && (firstStart[slot] === null || start < firstStart[slot]!)) firstStart[slot] = start;
      }
    perRace.forEach((entries, i) => {
      if (entries.length === 0) return;
      const made = seasonClass(cls, entries, options);
      if (made) byRace[i]!.push(made);
    });
  }
  return slots.map((slot, i) => {
    const single = slots.length === 1;
    const id = eventId ?? '?';
    return {
      key: `${prefix}${single ? id : `${id}:${slot.id ?? slot.number}`}`,
      eventId,
      eventName,
      raceNumber: slot.number,
      raceCount: slots.length,
      raceName: slot.name,
      date: slot.date ?? (single ? (event?.start ?? null) : null) ?? firstStart[i]!,
      classification: event?.classification ?? 'unknown',
      disciplineIds: event ? [...event.disciplineIds] : [],
      classes: byRace[i]!,
    };
  });
}
