import type { SandboxEvent } from '../../src/sandbox/eventor/dataset.js';
import type { SandboxEventor } from '../../src/sandbox/eventor/server.js';

const DAY = 86_400_000;

/** A recent single-race event with a club runner's result, its results hidden until the test shows them. */
export function recentClubResultsEvent(eventor: SandboxEventor, now: number): SandboxEvent {
  const dataset = eventor.dataset;
  const home = dataset.homeClub.id;
  const found = dataset.events.find((ev) => {
    if (ev.shape !== 'single' || !ev.hasResults || ev.syntheticRunners > 0 || !ev.event.start) return false;
    const age = now - Date.parse(ev.event.start);
    if (age < 0 || age > 6 * DAY) return false;
    return dataset.details(ev).resultList?.classes.some((c) => c.persons.some((p) => p.organisation?.id === home && p.results[0]?.status === 'OK')) ?? false;
  });
  if (!found) throw new Error('the sandbox has no recent single-race event with club results');
  found.hasResults = false;
  found.materialized = null;
  return found;
}
