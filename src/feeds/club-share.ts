/**
 * What the feeds of one club share, so that race day is polite to Eventor
 * (docs/decisions/race-day-requests.md): within one scheduler run, ONE entries request per club (a
 * window covering every feed's, each feed taking its own days from it), and within one wall-clock
 * hour, what the in-between runs look at (the events racing now, the races close at hand) once,
 * instead of asking `/events` and `/entries` on every 5-minute run. What changes by the minute,
 * results and start lists, is still asked on every run.
 *
 * The scheduler keeps one `ClubShares` and hands each run the share of its club (`FeedRunScope.club`);
 * runs without one (tests calling a kind directly, `/feeds test`) ask Eventor themselves, as before.
 */
import { millisecondsInDay as DAY, millisecondsInHour as HOUR } from 'date-fns/constants';
import type { EventorClient } from '../eventor/client.js';
import type { Event } from '../eventor/answers.js';
import { SHARED_ENTRIES_AHEAD_DAYS, SHARED_ENTRIES_BACK_DAYS } from '../club/next-races.js';
import { queryDay } from '../time/days.js';

/** One club's share for one run. */
export interface ClubShare {
  /**
   * Ids of the events with at least one entry from the club among events starting in the query
   * days of [fromMs, toMs], as `/entries` with `fromEventDate`/`toEventDate` answers: from the run's
   * one shared request when the window lies within it, else asked on its own.
   */
  enteredEvents(fromMs: number, toMs: number): Promise<Set<string>>;
  /**
   * Those events themselves, as `/events` with their `eventIds` gives them (an id Eventor no
   * longer has is left out): from the run's one shared request when the window lies within it.
   */
  enteredEventList(fromMs: number, toMs: number): Promise<readonly Event[]>;
  /**
   * A value kept for the run's wall-clock hour: the first run of the club in the hour that asks
   * computes it, every later run of the club in that hour gets the same (a failure is not kept).
   * `name` says what it is, with whatever its computation depends on besides the hour.
   */
  forTheHour<T>(name: string, compute: () => Promise<T>): Promise<T>;
}

/** Event ids of these entries. */
function eventIdsOf(
  entries: ReadonlyArray<{ event: { id: string | null; event: { id: string } | null } }>,
): Set<string> {
  const ids = new Set<string>();
  for (const entry of entries) {
    const id = entry.event.id ?? entry.event.event?.id ?? null;
    if (id !== null) ids.add(id);
  }
  return ids;
}

/** The club's entries among events starting in the query days of [fromMs, toMs], asked of Eventor. */
export async function askEnteredEvents(
  client: EventorClient,
  organisationId: string,
  fromMs: number,
  toMs: number,
): Promise<Set<string>> {
  return eventIdsOf(
    await client.entries({
      organisationIds: [organisationId],
      fromEventDate: queryDay(fromMs),
      toEventDate: queryDay(toMs),
    }),
  );
}

/**
 * Whether an event starting at `start` lies in the query days [fromDay, toDay] as Eventor reads
 * them: from the first day's 00:00:00 to the last day's 23:59:59, UTC (`operations.ts`, dateTime).
 * An event without a start is in every window, as Eventor leaves no date to filter on.
 */
function startsWithin(start: string | null, fromDay: string, toDay: string): boolean {
  if (start === null) return true;
  const at = Date.parse(start);
  return at >= Date.parse(`${fromDay}T00:00:00Z`) && at <= Date.parse(`${toDay}T23:59:59Z`);
}

/** The run's entered events: their ids, and the events (for their starts) once a feed needs them. */
interface Entered {
  ids: Set<string>;
  events: Promise<readonly Event[]> | null;
}

interface ClubState {
  /** The run (its instant) the shared entries belong to. */
  run: number;
  entered: Promise<Entered> | null;
  /** The wall-clock hour (its index) the kept values belong to. */
  hour: number;
  kept: Map<string, Promise<unknown>>;
}

/** A promise kept in a slot until it fails (a failure is not kept: the next feed to ask asks again). */
function keptUntilFailure<T>(promise: Promise<T>, stillKept: () => boolean, forget: () => void): Promise<T> {
  promise.catch(() => {
    if (stillKept()) forget();
  });
  return promise;
}

/** Every club's share, per Eventor client and organisation; the scheduler keeps one. */
export class ClubShares {
  readonly #clubs = new WeakMap<EventorClient, Map<string, ClubState>>();

  /** The share of one club for the run at `now`. */
  of(client: EventorClient, organisationId: string, now: Date): ClubShare {
    let clubs = this.#clubs.get(client);
    if (!clubs) {
      clubs = new Map();
      this.#clubs.set(client, clubs);
    }
    const t = now.getTime();
    let state = clubs.get(organisationId);
    if (!state) {
      state = { run: t, entered: null, hour: Math.floor(t / HOUR), kept: new Map() };
      clubs.set(organisationId, state);
    }
    const club = state;
    if (club.run !== t) {
      club.run = t;
      club.entered = null;
    }
    if (club.hour !== Math.floor(t / HOUR)) {
      club.hour = Math.floor(t / HOUR);
      club.kept = new Map();
    }
    // The window's query days, worked out only by a run that asks for entries (formatting costs).
    let window: { from: string; to: string } | null = null;
    const windowDays = (): { from: string; to: string } =>
      (window ??= {
        from: queryDay(t - SHARED_ENTRIES_BACK_DAYS * DAY),
        to: queryDay(t + SHARED_ENTRIES_AHEAD_DAYS * DAY),
      });
    const entered = (): Promise<Entered> => {
      if (club.entered === null) {
        const asked: Promise<Entered> = keptUntilFailure(
          client
            .entries({
              organisationIds: [organisationId],
              fromEventDate: windowDays().from,
              toEventDate: windowDays().to,
            })
            .then((entries): Entered => ({ ids: eventIdsOf(entries), events: null })),
          (): boolean => club.entered === asked,
          () => (club.entered = null),
        );
        club.entered = asked;
        return asked;
      }
      return club.entered;
    };
    // The entered events, asked once for the run (the start lists need them, and their starts say
    // which feed's days each is in); not with each entry, which makes the answer five times larger.
    const enteredEvents = async (): Promise<readonly Event[]> => {
      const run = await entered();
      if (run.events === null) {
        const ids = [...run.ids].sort();
        const asked: Promise<readonly Event[]> = keptUntilFailure(
          ids.length === 0 ? Promise.resolve([]) : client.events({ eventIds: ids }),
          (): boolean => run.events === asked,
          () => (run.events = null),
        );
        run.events = asked;
        return asked;
      }
      return run.events;
    };
    const within = (fromMs: number, toMs: number): { fromDay: string; toDay: string } | null => {
      const [fromDay, toDay] = [queryDay(fromMs), queryDay(toMs)];
      return fromDay < windowDays().from || toDay > windowDays().to ? null : { fromDay, toDay };
    };
    return {
      enteredEvents: async (fromMs, toMs) => {
        const days = within(fromMs, toMs);
        if (days === null) return askEnteredEvents(client, organisationId, fromMs, toMs);
        const { ids } = await entered();
        const known = new Map((await enteredEvents()).map((e) => [e.id, e]));
        // An id whose event Eventor no longer gives has no date to filter on: kept, as Eventor would.
        return new Set([...ids].filter((id) => startsWithin(known.get(id)?.start ?? null, days.fromDay, days.toDay)));
      },
      enteredEventList: async (fromMs, toMs) => {
        const days = within(fromMs, toMs);
        if (days === null) {
          const ids = [...(await askEnteredEvents(client, organisationId, fromMs, toMs))].sort();
          return ids.length === 0 ? [] : client.events({ eventIds: ids });
        }
        return (await enteredEvents()).filter((e) => startsWithin(e.start, days.fromDay, days.toDay));
      },
      forTheHour: <T>(name: string, compute: () => Promise<T>): Promise<T> => {
        const kept = club.kept.get(name) as Promise<T> | undefined;
        if (kept) return kept;
        const keptMap = club.kept;
        const computed: Promise<T> = keptUntilFailure(
          compute(),
          (): boolean => keptMap.get(name) === computed,
          () => keptMap.delete(name),
        );
        keptMap.set(name, computed);
        return computed;
      },
    };
  }
}
