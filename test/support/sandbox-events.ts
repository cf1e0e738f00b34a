import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { RESULTS_LOOKBACK_DAYS } from '../../src/feeds/kinds/results/results.js';
import { MIN_RUNNERS } from '../../src/splits/analysis.js';

const DAY = 86_400_000;

/** Whether a result-list person is from the home club with an OK result. */
function clubFinisher(home: string) {
  return (p: { organisation?: { id: string | null } | null; results: Array<{ status: string }> }): boolean =>
    p.organisation?.id === home && p.results[0]?.status === 'OK';
}

interface ResultClass {
  persons: ReadonlyArray<{ results: ReadonlyArray<{ status: string; splits: readonly unknown[] }> }>;
}

/**
 * Whether a class is large enough for a split graph to say anything of a runner: at least
 * MIN_RUNNERS OK runners with split times. Stricter than the pictures' own rule (`canDrawGraph`,
 * which counts every runner with a time), so a class chosen here gets a graph in every place. A
 * runner alone in her class would be her own reference, a flat line at 0:00 whatever her time.
 */
function graphable(c: ResultClass): boolean {
  return c.persons.filter((p) => p.results[0]?.status === 'OK' && p.results[0].splits.length > 0).length >= MIN_RUNNERS;
}

/**
 * A single-race event started within `maxAgeDays` before `now` with a club runner's OK result.
 * The default is the results feed's look-back (RESULTS_LOOKBACK_DAYS): races are mostly at
 * weekends, so on a Saturday the latest finished one may be last Sunday's, six days and more ago.
 * With `hide` (default), its results are hidden until the test shows them (`hasResults = true`).
 */
export function recentClubResultsEvent(
  eventor: SandboxEventor,
  now: number,
  options: { maxAgeDays?: number; hide?: boolean; graphable?: boolean } = {},
): SandboxEvent {
  const dataset = eventor.dataset;
  const finisher = clubFinisher(dataset.homeClub.id);
  const maxAge = (options.maxAgeDays ?? RESULTS_LOOKBACK_DAYS) * DAY;
  const found = dataset.events.find((ev) => {
    if (ev.shape !== 'single' || !ev.hasResults || ev.syntheticRunners > 0 || !ev.event.start) return false;
    const age = now - Date.parse(ev.event.start);
    if (age < 0 || age > maxAge) return false;
    return (
      dataset
        .details(ev)
        .resultList?.classes.some((c) => c.persons.some(finisher) && (!options.graphable || graphable(c))) ?? false
    );
  });
  if (!found)
    throw new Error(
      `the sandbox has no single-race event in the ${options.maxAgeDays ?? RESULTS_LOOKBACK_DAYS} days before ${new Date(now).toISOString()} with club results${options.graphable ? ' in a class large enough for a graph' : ''}`,
    );
  if (options.hide ?? true) {
    found.hasResults = false;
    found.materialized = null;
  }
  return found;
}

/**
 * The person id of a club runner with an OK result in the event (whose results must be shown);
 * with `graphable`, one in a class large enough for a split graph.
 */
export function clubFinisherId(
  eventor: SandboxEventor,
  event: SandboxEvent,
  options: { graphable?: boolean } = {},
): string {
  const list = eventor.dataset.details(event).resultList;
  const runner = list?.classes
    .filter((c) => !options.graphable || graphable(c))
    .flatMap((c) => c.persons)
    .find(clubFinisher(eventor.dataset.homeClub.id));
  if (!runner?.person?.id) throw new Error(`event ${event.id} has no club runner with an OK result`);
  return runner.person.id;
}

/**
 * A single-race event starting 2 to 18 days after `now` (not cancelled), with an entry of the home
 * club and no start list out yet (the test publishes it with `hasStartList = true`).
 */
export function upcomingClubEventWithoutStartList(eventor: SandboxEventor, now: number): SandboxEvent {
  const dataset = eventor.dataset;
  const home = dataset.homeClub.id;
  const found = dataset.events.find((ev) => {
    if (
      !ev.event.start ||
      ev.event.status === 'canceled' ||
      ev.hasStartList ||
      ev.syntheticRunners > 0 ||
      ev.shape !== 'single'
    )
      return false;
    const ahead = Date.parse(ev.event.start) - now;
    return (
      ahead > 2 * DAY &&
      ahead < 18 * DAY &&
      dataset
        .entriesAt(ev)
        .some((e) =>
          e.competitor
            ? e.competitor.organisation?.id === home
            : (e.team?.organisations ?? []).some((o) => o.id === home),
        )
    );
  });
  if (!found) throw new Error('the sandbox has no upcoming event with club entries and no start list');
  return found;
}
