import { type SandboxEvent, SANDBOX_TIME_ZONE } from '../../harness/sandbox/eventor/dataset.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { RESULTS_LOOKBACK_DAYS } from '../../src/feeds/kinds/results/results.js';
import { MIN_RUNNERS } from '../../src/splits/analysis.js';
import { instantToLocal } from '../../src/time/zones.js';

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
 * A single-race event started within `maxAgeDays` before `now` whose result list `fits`. The
 * sandbox's races follow the season, so some weeks (in winter) have none: then the latest such
 * event further back is moved by its organiser to the day before `now` (an event change, as
 * Eventor has them; its lists drawn anew for the new day), so that every test instant finds one.
 */
export function recentRacedEvent(
  eventor: SandboxEventor,
  now: number,
  fits: (list: NonNullable<ReturnType<SandboxEventor['dataset']['details']>['resultList']>) => boolean,
  maxAgeDays: number = RESULTS_LOOKBACK_DAYS,
): SandboxEvent {
  const dataset = eventor.dataset;
  const raced = (ev: SandboxEvent, maxAge: number): boolean => {
    if (ev.shape !== 'single' || !ev.hasResults || ev.syntheticRunners > 0 || !ev.event.start) return false;
    const age = now - Date.parse(ev.event.start);
    if (age < 0 || age > maxAge) return false;
    const list = dataset.details(ev).resultList;
    return list !== null && list !== undefined && fits(list);
  };
  const recent = dataset.events.find((ev) => raced(ev, maxAgeDays * DAY));
  if (recent) return recent;
  const earlier = dataset.events
    .filter((ev) => raced(ev, MOVE_FROM_DAYS * DAY))
    .sort((a, b) => Date.parse(b.event.start!) - Date.parse(a.event.start!))[0];
  if (!earlier)
    throw new Error(
      `the sandbox has no raced event in the ${MOVE_FROM_DAYS} days before ${new Date(now).toISOString()}`,
    );
  const yesterday = instantToLocal(new Date(now - DAY).toISOString(), SANDBOX_TIME_ZONE).date;
  dataset.changeEvent(earlier.id, { date: yesterday });
  earlier.materialized = null;
  if (!raced(earlier, maxAgeDays * DAY))
    throw new Error(`event ${earlier.id}, moved to ${yesterday}, is not a recent raced event any more`);
  return earlier;
}

/** How far back an event is looked for to move it, when no week before the instant had a race. */
const MOVE_FROM_DAYS = 120;

/**
 * A single-race event started within `maxAgeDays` before `now` with a club runner's OK result
 * (`recentRacedEvent`). The default is the results feed's look-back (RESULTS_LOOKBACK_DAYS): races
 * are mostly at weekends, so on a Saturday the latest finished one may be last Sunday's, six days
 * and more ago. With `hide` (default), its results are hidden until the test shows them
 * (`hasResults = true`).
 */
export function recentClubResultsEvent(
  eventor: SandboxEventor,
  now: number,
  options: { maxAgeDays?: number; hide?: boolean; graphable?: boolean } = {},
): SandboxEvent {
  const finisher = clubFinisher(eventor.dataset.homeClub.id);
  const found = recentRacedEvent(
    eventor,
    now,
    (list) => list.classes.some((c) => c.persons.some(finisher) && (!options.graphable || graphable(c))),
    options.maxAgeDays,
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
