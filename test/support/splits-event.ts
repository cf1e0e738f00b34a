/**
 * A sandbox event for the /splits tests: single-race, recent, with two club members who ran classes
 * of at least five runners with split times, in different classes when there are such.
 */
import type { ClassResult } from '../../src/eventor/model.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';

const DAY = 86_400_000;

export interface SplitsRunner {
  personId: string;
  /** Given and family name, as the result list spells them. */
  name: string;
  className: string;
}

/** A class's club runners with an OK result and split times. */
function clubRunners(cr: ClassResult, home: string): SplitsRunner[] {
  return cr.persons
    .filter((p) => p.organisation?.id === home && p.person?.id && p.results[0]?.status === 'OK')
    .filter((p) => p.results[0]!.splits.some((s) => s.time !== null))
    .map((p) => ({
      personId: p.person!.id!,
      name: `${p.person!.name.given} ${p.person!.name.family}`,
      className: cr.class.name,
    }));
}

const withSplits = (cr: ClassResult) => cr.persons.filter((p) => p.results[0]?.splits.length).length;

export function splitsEvent(
  eventor: SandboxEventor,
  now: number,
): { event: SandboxEvent; first: SplitsRunner; second: SplitsRunner } {
  const ds = eventor.dataset;
  const home = ds.homeClub.id;
  for (const event of ds.events) {
    if (!event.hasResults || event.shape !== 'single' || event.syntheticRunners > 0) continue;
    if (Date.parse(event.event.start!) < now - 60 * DAY) continue;
    const runners = ds
      .details(event)
      .resultList!.classes.filter((cr) => withSplits(cr) >= 5)
      .flatMap((cr) => clubRunners(cr, home));
    const first = runners[0];
    const second = runners.find((r) => r.className !== first?.className) ?? runners[1];
    if (first && second) return { event, first, second };
  }
  throw new Error('the sandbox has no recent event with two club runners in classes with split times');
}

/** Every runner's name in the event's complete result list. */
export function resultListNames(eventor: SandboxEventor, event: SandboxEvent): Set<string> {
  const names = new Set<string>();
  for (const cr of eventor.dataset.details(event).resultList!.classes)
    for (const p of cr.persons) if (p.person) names.add(`${p.person.name.given} ${p.person.name.family}`);
  return names;
}
