/**
 * The races a member's linked persons have entered, for `/next` and the day-before reminder
 * (`/notify`): each with its class, the start time once the start list is out, where it is and the
 * entry deadlines still ahead.
 *
 * Few requests (docs/eventor.md#entries-and-entry-counts): ONE `/entries` of the club, with the
 * same window the feeds' shared request asks (so a feed run's answer in the client's cache serves
 * it); ONE `/events` for the entered events with their entry breaks; the start lists the caller
 * already asks for other reasons (a person's, as `/starts` does, or the club's per event, as the start
 * list feed does); and an event's classes, shared by every club and kept a day, only for an entry
 * not in a start list yet (the entry names its class by id only).
 */
import { millisecondsInDay as DAY } from 'date-fns/constants';
import type { Entry, Event, EventRace, StartList } from '../eventor/answers.js';
import type { EventorClient } from '../eventor/client.js';
import type { NextRace } from '../render/next.js';
import { queryDay } from '../time/days.js';
import type { GuildEventor } from './eventor-access.js';

export type { NextRace };

/**
 * The window of the club's entries the feeds share with `/next` (src/feeds/club-share.ts): one
 * request a run, its answer in the client's cache serving the rest. It starts the results' look-back
 * before a run (the longest back) and ends the reminders' window after it (the longest ahead).
 */
export const SHARED_ENTRIES_BACK_DAYS = 7;
export const SHARED_ENTRIES_AHEAD_DAYS = 60;

/** How many races `/next` lists per person at most: the nearest first. */
export const NEXT_RACES_PER_PERSON = 5;

/** Persons of the entry: the competitor, or every member of a team entry. */
function entrants(entry: Entry): string[] {
  if (entry.competitor) {
    const id = entry.competitor.personId ?? entry.competitor.person?.id ?? null;
    return id === null ? [] : [id];
  }
  return (entry.team?.members ?? []).map((m) => m.personId).filter((id): id is string => id !== null);
}

function eventIdOf(entry: Entry): string | null {
  return entry.event.id ?? entry.event.event?.id ?? null;
}

/** The club's entries of these persons, by person: Eventor lists each entry once. */
export function entriesOf(entries: readonly Entry[], personIds: readonly string[]): Map<string, Entry[]> {
  const wanted = new Set(personIds);
  const out = new Map<string, Entry[]>();
  for (const entry of entries) {
    for (const personId of entrants(entry)) {
      if (!wanted.has(personId)) continue;
      out.set(personId, [...(out.get(personId) ?? []), entry]);
    }
  }
  return out;
}

/** The person's start in a list of the event: the class, and the start time of each race. */
function startIn(
  lists: readonly StartList[],
  eventId: string,
  personId: string,
): { className: string; starts: Array<{ raceId: string | null; time: string | null }> } | null {
  for (const list of lists) {
    if ((list.event.id ?? list.event.event?.id) !== eventId) continue;
    for (const cls of list.classes) {
      const className = cls.class.shortName ?? cls.class.name;
      const person = cls.persons.find((p) => p.person?.id === personId);
      if (person) return { className, starts: person.starts.map((s) => ({ raceId: s.raceId, time: s.startTime })) };
      for (const team of cls.teams) {
        const member = team.members.find((m) => m.person?.id === personId);
        if (member)
          return {
            className,
            starts: [{ raceId: member.start.raceId, time: member.start.startTime ?? team.startTime }],
          };
      }
    }
  }
  return null;
}

/** The end of the local day of an instant is not known here: a race is still ahead until 12 hours past its date. */
const STILL_AHEAD_MS = 12 * 60 * 60 * 1000;

/**
 * Pure: the races these persons have entered, nearest first, from the club's entries, the events,
 * start lists (any that name the persons) and class names by class id. A race more than 12 hours
 * past its date (`now`) is over; a cancelled one is kept (the member should know).
 */
export function nextRacesOf(
  input: {
    entries: readonly Entry[];
    events: readonly Event[];
    startLists: readonly StartList[];
    classNames: ReadonlyMap<string, string>;
  },
  personIds: readonly string[],
  now: Date,
): NextRace[] {
  const events = new Map(input.events.map((e) => [e.id, e]));
  const races: NextRace[] = [];
  for (const [personId, entries] of entriesOf(input.entries, personIds)) {
    const seen = new Set<string>();
    for (const entry of entries) {
      const eventId = eventIdOf(entry);
      const event = eventId === null ? undefined : events.get(eventId);
      if (!event || seen.has(event.id)) continue;
      seen.add(event.id);
      const started = startIn(input.startLists, event.id, personId);
      const className =
        started?.className ??
        entry.classNames[0] ??
        (entry.classIds[0] ? input.classNames.get(entry.classIds[0]) : null);
      // Each race entered of a multi-race event; an entry naming none is for all of them.
      const multi = event.races.length > 1;
      const raceList: Array<EventRace | null> = multi
        ? event.races.filter((r) => entry.raceIds.length === 0 || entry.raceIds.includes(r.id))
        : [null];
      for (const race of raceList) {
        const at = race?.date ?? event.start;
        if (at !== null && Date.parse(at) + STILL_AHEAD_MS < now.getTime()) continue;
        const start =
          started?.starts.find((s) => race === null || s.raceId === null || s.raceId === race.id)?.time ?? null;
        races.push({ personId, event, race, at, className: className ?? null, start });
      }
    }
  }
  return races.sort(
    (a, b) =>
      (a.start ?? a.at ?? '').localeCompare(b.start ?? b.at ?? '') ||
      a.event.id.localeCompare(b.event.id) ||
      a.personId.localeCompare(b.personId),
  );
}

/**
 * The club's entries as the feeds' shared request asks for them (`club-share.ts`): the same
 * parameters, so whichever comes second within the cache time is answered from the cache.
 */
export function clubEntries(client: EventorClient, organisationId: string, now: Date): Promise<readonly Entry[]> {
  const t = now.getTime();
  return client.entries({
    organisationIds: [organisationId],
    fromEventDate: queryDay(t - SHARED_ENTRIES_BACK_DAYS * DAY),
    toEventDate: queryDay(t + SHARED_ENTRIES_AHEAD_DAYS * DAY),
  });
}

/** The events of these entries, with their entry breaks (for the deadlines), in one request. */
export async function eventsOfEntries(client: EventorClient, entries: readonly Entry[]): Promise<readonly Event[]> {
  const ids = [...new Set(entries.map(eventIdOf).filter((id): id is string => id !== null))].sort();
  return ids.length === 0 ? [] : client.events({ eventIds: ids, includeEntryBreaks: true });
}

/**
 * Class names of entries no start list names yet, from the events' class lists (shared by every
 * key, kept a day). An event whose classes Eventor cannot give leaves its entries without a class.
 */
export async function classNamesFor(
  client: EventorClient,
  entries: readonly Entry[],
  covered: (entry: Entry) => boolean,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const events = new Set<string>();
  for (const entry of entries) {
    const eventId = eventIdOf(entry);
    if (eventId !== null && entry.classNames.length === 0 && entry.classIds.length > 0 && !covered(entry))
      events.add(eventId);
  }
  for (const eventId of [...events].sort()) {
    try {
      for (const cls of await client.eventClasses({ eventId })) names.set(cls.id, cls.shortName ?? cls.name);
    } catch {
      // The class is a detail: the race is still listed.
    }
  }
  return names;
}

/**
 * `/next`: the races the persons have entered, nearest first, at most `NEXT_RACES_PER_PERSON` each.
 * Every person must be one the member linked in this server (the caller checks, before this).
 */
export async function nextRaces(
  eventor: GuildEventor,
  personIds: readonly string[],
  now: Date,
  today: string,
): Promise<NextRace[]> {
  const client = eventor.client;
  const all = await clubEntries(client, eventor.organisationId, now);
  const mine = [...entriesOf(all, personIds).values()].flat();
  if (mine.length === 0) return [];
  // Each person's start lists from today, as /starts asks them: only the drawn events are in them.
  const [events, startLists] = await Promise.all([
    eventsOfEntries(client, mine),
    Promise.all(personIds.map((personId) => client.personStarts({ personId, fromDate: today }))),
  ]);
  const lists = startLists.flat();
  // Classes are looked up only for the races that will be shown.
  const shown = nearest(
    nextRacesOf({ entries: mine, events, startLists: lists, classNames: new Map() }, personIds, now),
  );
  const upcoming = new Set(shown.map((r) => r.event.id));
  const classNames = await classNamesFor(
    client,
    mine.filter((e) => upcoming.has(eventIdOf(e) ?? '')),
    (entry) => entrants(entry).every((p) => startIn(lists, eventIdOf(entry) ?? '', p) !== null),
  );
  return nearest(nextRacesOf({ entries: mine, events, startLists: lists, classNames }, personIds, now));
}

/** At most `NEXT_RACES_PER_PERSON` races of each person, in the order given. */
function nearest(races: readonly NextRace[]): NextRace[] {
  const counted = new Map<string, number>();
  return races.filter((race) => {
    const n = (counted.get(race.personId) ?? 0) + 1;
    counted.set(race.personId, n);
    return n <= NEXT_RACES_PER_PERSON;
  });
}
