/**
 * What the sandbox Eventor holds of the home club's season, read straight from its data (not
 * through the bot): the races of a year with the club's runners, and a runner who ran many of them.
 * Tests compare the bot's answers with this.
 */
import type { ResultStatus } from '../../src/eventor/model.js';
import { isStart } from '../../src/season/races.js';
import { SANDBOX_TIME_ZONE, type SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { instantToLocal } from '../../src/time/zones.js';

export interface ClubStart {
  event: SandboxEvent;
  raceId: string | null;
  personId: string;
  name: string;
  className: string;
  status: ResultStatus;
  position: number | null;
}

/** The year (in the sandbox's zone) of an instant. */
export function yearOf(instant: string): number {
  return Number(instantToLocal(instant, SANDBOX_TIME_ZONE).date.slice(0, 4));
}

/** Every start of a home-club runner in the individual races of `year` that have results. */
export function clubStarts(eventor: SandboxEventor, year: number): ClubStart[] {
  const dataset = eventor.dataset;
  const home = dataset.homeClub.id;
  const starts: ClubStart[] = [];
  for (const event of dataset.events) {
    if (event.shape === 'relay' || event.event.status === 'canceled' || !event.hasResults) continue;
    const list = dataset.details(event).resultList;
    if (!list) continue;
    for (const cls of list.classes)
      for (const p of cls.persons) {
        if (p.organisation?.id !== home || !p.person?.id) continue;
        for (const r of p.results) {
          const race = event.event.races.find((x) => x.id === r.raceId) ?? event.event.races[0]!;
          if (!race.date || yearOf(race.date) !== year || !isStart(r.status)) continue;
          starts.push({
            event,
            raceId: event.event.races.length > 1 ? race.id : null,
            personId: p.person.id,
            name: `${p.person.name.given} ${p.person.name.family}`,
            className: cls.class.name,
            status: r.status,
            position: r.status === 'OK' ? r.position : null,
          });
        }
      }
  }
  return starts;
}

/** The year of the most club starts among the sandbox's past races, and the runner with the most starts in it. */
export function busiestSeason(eventor: SandboxEventor): {
  year: number;
  personId: string;
  name: string;
  starts: ClubStart[];
} {
  const years = new Map<number, number>();
  for (const event of eventor.dataset.events)
    if (event.hasResults && event.event.start)
      years.set(yearOf(event.event.start), (years.get(yearOf(event.event.start)) ?? 0) + 1);
  const year = [...years].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const starts = clubStarts(eventor, year);
  const byPerson = new Map<string, ClubStart[]>();
  for (const s of starts) byPerson.set(s.personId, [...(byPerson.get(s.personId) ?? []), s]);
  const [personId, mine] = [...byPerson].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))[0]!;
  return { year, personId, name: mine[0]!.name, starts: mine };
}
