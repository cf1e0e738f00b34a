/**
 * What the live matching reads of Eventor's model (docs/live-results.md#matching): a race of an
 * event as the competition search takes it, and the club's start list or entries as the runners'
 * cross-check takes them. Only the model's types are read: the client stays free of Eventor's.
 */
import type { Entry, Event, EventDocument, PersonRef, StartList } from '../eventor/model.js';
import { instantToLocal } from '../time/zones.js';
import type { ClubEntry } from './clubs.js';
import { liveLinksIn, type RaceToMatch } from './match.js';

/** The model's records as the Eventor client hands them out (deep-frozen): only read here. */
type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

const personName = (person: Frozen<PersonRef> | null | undefined): string =>
  person ? `${person.name.given} ${person.name.family}`.trim() : '';

/**
 * One race of an event as the matching reads it: its local date (in `timeZone`, the event's own),
 * names, organisers and country, and the LiveResultat competitions the event links to in its
 * message, its links and its documents. Null for a race without a date.
 */
export function raceToMatch(
  event: Frozen<Pick<Event, 'name' | 'races' | 'organisers' | 'message' | 'urls'>>,
  raceId: string,
  options: { timeZone: string; documents?: readonly Pick<EventDocument, 'url'>[] },
): RaceToMatch | null {
  const index = event.races.findIndex((race) => race.id === raceId);
  const race = event.races[index];
  if (race?.date == null) return null;
  const links = liveLinksIn([event.message, ...event.urls, ...(options.documents ?? []).map((d) => d.url)]);
  return {
    date: instantToLocal(race.date, options.timeZone).date,
    eventName: event.name,
    raceName: event.races.length > 1 ? race.name : null,
    raceNumber: index + 1,
    raceCount: event.races.length,
    organisers: event.organisers.map((o) => ({ name: o.name, shortName: o.shortName })),
    countryCode: event.organisers.find((o) => o.countryCode !== null)?.countryCode ?? null,
    // A LiveRes id is not a LiveResultat id: only LiveResultat's links count here.
    linkedIds: links.filter((link) => link.service === 'liveresultat').map((link) => link.id),
  };
}

/**
 * The club's runners in a start list (of one race, `raceId`, when the list has several): each
 * person with the class's name; each relay team member with the leg.
 */
export function clubEntriesInStartList(
  startList: Frozen<StartList>,
  clubIds: ReadonlySet<string>,
  raceId?: string,
): ClubEntry[] {
  const out: ClubEntry[] = [];
  const ofClub = (id: string | null | undefined) => id != null && clubIds.has(id);
  for (const cls of startList.classes) {
    for (const person of cls.persons) {
      if (!ofClub(person.organisation?.id)) continue;
      if (raceId !== undefined && !person.starts.some((s) => s.raceId === null || s.raceId === raceId)) continue;
      out.push({
        personId: person.person?.id ?? null,
        name: personName(person.person),
        className: cls.class.name,
        leg: null,
      });
    }
    for (const team of cls.teams) {
      const teamOfClub = team.organisations.some((o) => ofClub(o.id));
      for (const member of team.members) {
        if (!teamOfClub && !ofClub(member.organisation?.id)) continue;
        out.push({
          personId: member.person?.id ?? null,
          name: personName(member.person),
          className: cls.class.name,
          leg: member.leg,
        });
      }
    }
  }
  return out.filter((entry) => entry.name !== '');
}

/**
 * The club's individual entries (before a start list is out): each person with the class's name,
 * from `classNames` (class id → name, the event's classes). Team entries name their members by id
 * only, so they are left to the start list.
 */
export function clubEntriesInEntries(
  entries: readonly Frozen<Entry>[],
  clubIds: ReadonlySet<string>,
  classNames: ReadonlyMap<string, string>,
): ClubEntry[] {
  return entries.flatMap((entry) => {
    const competitor = entry.competitor;
    if (!competitor || competitor.organisation?.id == null || !clubIds.has(competitor.organisation.id)) return [];
    const name = personName(competitor.person);
    if (name === '') return [];
    const classId = entry.classIds[0];
    const className = entry.classNames[0] ?? (classId === undefined ? undefined : classNames.get(classId)) ?? null;
    return [{ personId: competitor.person?.id ?? competitor.personId, name, className, leg: null }];
  });
}
