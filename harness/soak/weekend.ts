/**
 * The soak's race weekend on the clock (docs/decisions/soak.md): races of the sandbox Eventor moved
 * to today, their results hidden, then published a few at a time in waves while the bot processes
 * run, with corrections to those already out. What each server should get is worked out here from
 * the sandbox's own data, never from what the bots recorded.
 */
import type { ClassResult, Entry } from '../../src/eventor/model.js';
import type { SandboxClub, SandboxDataset, SandboxEvent } from '../sandbox/eventor/dataset.js';
import type { SandboxPerson } from '../sandbox/eventor/records.js';
import type { ExpectedPost } from './count.js';

type Materialized = NonNullable<SandboxEvent['materialized']>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The results feed looks back a week; anything started since is hidden unless it is one of the soak's races. */
const HIDE_WITHIN_MS = 8 * DAY;

interface Race {
  event: SandboxEvent;
  full: Materialized;
  /** The soak's clubs with an entry (or as organiser) and a result in it. */
  clubs: Set<string>;
  /** The soak's clubs with a runner given a start time in its start list (what the start lists feed posts). */
  starters: Set<string>;
  /** When its results came out (ms), once published. */
  publishedAt?: number;
  /** When its start list came out (ms), once published. */
  startListAt?: number;
}

/** Instants without milliseconds, as Eventor writes them. */
const instant = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function entrantClubs(entry: Entry): string[] {
  const orgs = entry.competitor ? [entry.competitor.organisation] : (entry.team?.organisations ?? []);
  return orgs.flatMap((o) => (o?.id ? [o.id] : []));
}

/** A runner of the club with a result (not only an entry waiting to start), as a club's results post needs. */
function clubHasResult(classes: readonly ClassResult[], clubId: string): boolean {
  return classes.some((c) =>
    c.persons.some((p) => p.organisation?.id === clubId && p.results.some((r) => r.status !== 'Inactive')),
  );
}

/** A runner of the club with a start time in the start list. */
function clubHasStart(full: Materialized, clubId: string): boolean {
  return (full.startList?.classes ?? []).some((c) =>
    c.persons.some((p) => p.organisation?.id === clubId && p.starts.some((s) => s.startTime !== null)),
  );
}

/** Days the reminders and the calendar look ahead (src/feeds/kinds/reminders/reminders.ts: 60). */
const WINDOW_DAYS = 60;

/** A club's member the soak links in its servers, for the result DMs (`/notify`). */
export interface SoakRunner {
  clubId: string;
  person: SandboxPerson;
}

/** The event a club's reminder is staged for, and when that reminder falls due (machine clock). */
export interface StagedDeadline {
  /** The soak clubs whose servers are reminded of it. */
  clubIds: string[];
  eventId: string;
  name: string;
  dueAt: number;
}

const ISO_DAYS: Readonly<Record<string, number>> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The day (ISO, 1 Monday) and time (`HH:MM`) of an instant in a time zone, as `/feeds digest` takes them. */
export function digestWhen(at: number, timeZone: string): { day: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  return { day: String(ISO_DAYS[parts.weekday ?? ''] ?? 0), time: `${parts.hour}:${parts.minute}` };
}

export class RaceWeekend {
  readonly clubs: SandboxClub[];
  readonly #dataset: SandboxDataset;
  /** Races not yet published, in the order they will be. */
  readonly #waiting: Race[];
  readonly #published: Race[] = [];
  #corrections = 0;

  /**
   * Picks `clubCount` clubs and the single-race events they ran in, moves those to today (started
   * half an hour before `now`, so that every club's calendar says race day) with their results
   * hidden, and hides the results of every other event of the past week.
   */
  constructor(dataset: SandboxDataset, clubCount: number, now: number) {
    this.#dataset = dataset;
    const singles = dataset.events.filter(
      (ev) =>
        ev.shape === 'single' &&
        ev.syntheticRunners === 0 &&
        ev.event.status !== 'canceled' &&
        // Past races only: all their entries are made, so which clubs ran cannot change during the soak.
        ev.event.start !== null &&
        Date.parse(ev.event.start) < now,
    );
    const staged = singles.map((event) => ({ event, full: this.#stage(event) }));
    const taking = (clubId: string, race: { event: SandboxEvent; full: Materialized }): boolean =>
      (dataset.entriesAt(race.event, new Date(now)).some((e) => entrantClubs(e).includes(clubId)) ||
        race.event.event.organisers.some((o) => o.id === clubId)) &&
      clubHasResult(race.full.resultList?.classes ?? [], clubId);
    // The clubs in the most of those races, so that every wave has posts for most servers.
    this.clubs = [...dataset.clubs]
      .map((club) => ({ club, races: staged.filter((race) => taking(club.id, race)).length }))
      .sort((a, b) => b.races - a.races || a.club.id.localeCompare(b.club.id))
      .slice(0, clubCount)
      .map(({ club }) => club);
    const seen = new Set<string>();
    this.#waiting = staged
      .map((race) => ({
        ...race,
        clubs: new Set(this.clubs.filter((c) => taking(c.id, race)).map((c) => c.id)),
        starters: new Set(this.clubs.filter((c) => clubHasStart(race.full, c.id)).map((c) => c.id)),
      }))
      .filter((race) => race.clubs.size > 0)
      // One post per event and channel is told apart by the event's link; names may repeat, ids do not.
      .filter((race) => !seen.has(race.event.id) && seen.add(race.event.id));
    const soaking = new Set(this.#waiting.map((race) => race.event.id));
    for (const ev of dataset.events) {
      if (soaking.has(ev.id)) continue;
      const start = ev.event.start ? Date.parse(ev.event.start) : null;
      if (start !== null && start <= now && now - start <= HIDE_WITHIN_MS) {
        ev.hasResults = false;
        ev.materialized = null;
      }
    }
    // Started half an hour ago and over now: an event's dates are its start and its finish.
    const today = instant(now - 30 * MINUTE);
    for (const race of this.#waiting) {
      race.event.event.start = today;
      race.event.event.finish = instant(now);
      for (const r of race.event.event.races) r.date = today;
    }
  }

  /** How many races are left to publish. */
  get waiting(): number {
    return this.#waiting.length;
  }

  get published(): number {
    return this.#published.length;
  }

  get corrections(): number {
    return this.#corrections;
  }

  get startLists(): number {
    return (
      this.#published.filter((race) => race.startListAt !== undefined).length +
      this.#waiting.filter((race) => race.startListAt !== undefined).length
    );
  }

  /**
   * The sandbox makes an event's entries, draw and results from one random stream: it is made once
   * with everything, then shown without start list and results until each is published.
   */
  #stage(ev: SandboxEvent): Materialized {
    ev.hasStartList = true;
    ev.hasResults = true;
    ev.materialized = null;
    const full = this.#dataset.details(ev);
    ev.hasStartList = false;
    ev.hasResults = false;
    ev.materialized = { ...full, startList: null, resultList: null };
    return full;
  }

  /** What Eventor shows of a race: its start list once published, its results once published. */
  #show(race: Race): void {
    const startList = race.startListAt !== undefined;
    const results = race.publishedAt !== undefined;
    race.event.hasStartList = startList;
    race.event.hasResults = results;
    race.event.materialized = {
      ...race.full,
      startList: startList ? race.full.startList : null,
      resultList: results ? race.full.resultList : null,
    };
  }

  /**
   * The start lists of the next `count` races to publish come out. Returns their names. (Only a
   * few at a time: a run meeting more than 5 new start lists posts one summary instead.)
   */
  publishStartLists(count: number, now: number = Date.now()): string[] {
    const out = this.#waiting.filter((race) => race.startListAt === undefined).slice(0, count);
    for (const race of out) {
      race.startListAt = now;
      this.#show(race);
    }
    return out.map((race) => race.event.name);
  }

  /**
   * One wave: the results of up to `count` more races come out, and one runner's time in a race
   * already out is corrected (its posts are edited). Returns the names of the races published.
   */
  wave(count: number, random: () => number, now: number = Date.now()): string[] {
    const correctable = this.#published.filter((race) => race.full.resultList !== null);
    if (correctable.length > 0) {
      const race = correctable[Math.floor(random() * correctable.length)]!;
      const runner = race.full.resultList!.classes.flatMap((c) =>
        c.persons.filter((p) => p.person?.id && p.results[0]?.status === 'OK' && p.results[0].time !== null),
      )[0];
      if (runner) {
        const time = runner.results[0]!.time!;
        this.#dataset.correctResult(race.event.id, runner.person!.id!, { time: Math.max(60, time - 7) });
        this.#corrections += 1;
      }
    }
    const out = this.#waiting.splice(0, count);
    for (const race of out) {
      race.publishedAt = now;
      this.#show(race);
      this.#published.push(race);
    }
    return out.map((race) => race.event.name);
  }

  /** The results posts due so far: every published race in the channel of every server of a club in it. */
  expected(
    servers: ReadonlyArray<{ clubId: string; channelId: string }>,
  ): Array<{ channelId: string; eventId: string; publishedAt?: number }> {
    return this.#published.flatMap((race) =>
      servers
        .filter((s) => race.clubs.has(s.clubId))
        .map((s) => ({
          channelId: s.channelId,
          eventId: race.event.id,
          ...(race.publishedAt !== undefined ? { publishedAt: race.publishedAt } : {}),
        })),
    );
  }

  /**
   * For each club, one coming event around it (organised by it or its district) given one ordinary
   * entry deadline, `deadlineAt` (the processes' clock), and no late one. With the reminders'
   * default lead times (7 and 1 days), the 7-day reminder is due from the feed's first run (which
   * records it and posts nothing) and the 1-day one from `deadlineAt` less a day, which the soak
   * sets just before an hourly run: the reminder that run must post, in the servers of every soak
   * club that sees the event (`clubIds`: its area organises it, or it has entered). `offsetMs`: how
   * far the processes' clock is ahead of the machine's (`dueAt` is on the machine's).
   */
  stageDeadlines(deadlineAt: number, offsetMs: number, now: number): StagedDeadline[] {
    const deadline = instant(deadlineAt);
    const districts = new Set(this.#dataset.districts.map((d) => d.id));
    // The club and its district: the events "around the club" (src/club/area.ts); asked for a
    // district's events, Eventor gives its clubs' too (docs/eventor.md#request-parameters).
    const area = (club: SandboxClub): string[] => {
      const parent = club.organisation.parentId ?? null;
      return parent !== null && districts.has(parent) ? this.#dataset.expandOrganisation(parent) : [club.id];
    };
    const staged: StagedDeadline[] = [];
    for (const club of this.clubs) {
      // The soak clubs that see an event: their area organises it, or they have entered it by now
      // (the sandbox shows an entry from its date). Null when an entry of theirs is dated during
      // the soak: they would see it from halfway.
      const seeing = (ev: SandboxEvent): string[] | null => {
        const entries = this.#dataset.details(ev).entries;
        const clubIds: string[] = [];
        for (const other of this.clubs) {
          const organised = ev.event.organisers.some((o) => o.id !== null && area(other).includes(o.id));
          const dates = entries
            .filter((entry) => entrantClubs(entry).includes(other.id))
            .map((entry) => (entry.entryDate === null ? 0 : Date.parse(entry.entryDate)));
          if (!organised && dates.some((at) => at > now - HOUR && at < now + 3 * HOUR)) return null;
          if (organised || dates.some((at) => at <= now)) clubIds.push(other.id);
        }
        return clubIds;
      };
      const chosen = this.#dataset.events
        .filter((ev) => {
          const start = ev.event.start === null ? NaN : Date.parse(ev.event.start);
          return (
            !staged.some((d) => d.eventId === ev.id) &&
            ev.event.status !== 'canceled' &&
            // After the deadline, and well inside the window the reminders look at.
            start > Date.parse(deadline) + DAY &&
            start < now + (WINDOW_DAYS - 10) * DAY &&
            ev.event.organisers.some((o) => o.id !== null && area(club).includes(o.id))
          );
        })
        .map((ev) => ({ ev, clubIds: seeing(ev) }))
        .find((c) => c.clubIds !== null && c.clubIds.includes(club.id));
      if (!chosen) continue;
      const { ev } = chosen;
      ev.event.entryBreaks = [{ from: null, to: deadline }];
      ev.event.entryDeadlines = [deadline];
      staged.push({
        clubIds: chosen.clubIds!,
        eventId: ev.id,
        name: ev.name,
        dueAt: Date.parse(deadline) - DAY - offsetMs,
      });
    }
    return staged;
  }

  /**
   * For each club, the member whose result DMs the soak counts: one with a result (status OK) in
   * the earliest race to be published that has one, and no other status in any soak race (each
   * result of theirs is then one DM). None for a club without such a member.
   */
  runners(): SoakRunner[] {
    const races = this.#waiting;
    const statuses = (personId: string): string[] =>
      races.flatMap((race) =>
        (race.full.resultList?.classes ?? []).flatMap((c) =>
          c.persons.filter((p) => p.person?.id === personId).flatMap((p) => p.results.map((r) => r.status)),
        ),
      );
    const out: SoakRunner[] = [];
    for (const club of this.clubs) {
      const candidates = club.members.filter((m) => {
        const seen = statuses(m.person.id!);
        return seen.length > 0 && seen.every((status) => status === 'OK');
      });
      const firstRace = (m: SandboxPerson): number =>
        races.findIndex((race) =>
          (race.full.resultList?.classes ?? []).some((c) => c.persons.some((p) => p.person?.id === m.person.id)),
        );
      const best = [...candidates].sort((a, b) => firstRace(a) - firstRace(b))[0];
      if (best) out.push({ clubId: club.id, person: best });
    }
    return out;
  }

  /** The result DMs due so far: one for every published race a runner has a result in, in their DM channel. */
  expectedResultDms(members: ReadonlyArray<{ personId: string; channelId: string }>): ExpectedPost[] {
    return this.#published.flatMap((race) =>
      members
        .filter((m) =>
          (race.full.resultList?.classes ?? []).some((c) =>
            c.persons.some((p) => p.person?.id === m.personId && p.results.some((r) => r.status === 'OK')),
          ),
        )
        .map((m) => ({
          kind: 'dms' as const,
          channelId: m.channelId,
          eventId: race.event.id,
          ...(race.publishedAt !== undefined ? { publishedAt: race.publishedAt } : {}),
        })),
    );
  }

  /**
   * The races a club's first calendar run puts in the server's Events, from the sandbox's data:
   * `sure`, every event it organises or has entered by `now`, not cancelled, starting from tomorrow
   * to 58 days ahead; `maybe`, those at the window's edges (today's races, which may be over; the
   * last days, counted in another time zone), cancelled ones and ones entered in the next hours,
   * which the run may rightly make or not.
   */
  calendarEvents(clubId: string, now: number): { sure: string[]; maybe: string[] } {
    const sure: string[] = [];
    const maybe: string[] = [];
    for (const ev of this.#dataset.events) {
      if (ev.event.start === null) continue;
      const start = Date.parse(ev.event.start);
      if (start < now - 2 * DAY || start > now + (WINDOW_DAYS + 2) * DAY) continue;
      const organised = ev.event.organisers.some((o) => o.id === clubId);
      // The sandbox shows an entry from its date: one dated during the soak may or may not count.
      const dates = this.#dataset
        .details(ev)
        .entries.filter((e) => entrantClubs(e).includes(clubId))
        .map((e) => (e.entryDate === null ? 0 : Date.parse(e.entryDate)));
      const entered = dates.some((at) => at <= now);
      if (!organised && !entered && !dates.some((at) => at < now + 3 * HOUR)) continue;
      const inside = start >= now + DAY && start <= now + (WINDOW_DAYS - 2) * DAY;
      if ((organised || entered) && inside && ev.event.status !== 'canceled') sure.push(ev.id);
      else maybe.push(ev.id);
    }
    return { sure, maybe };
  }

  /** The start lists due so far: every published start list in the channel of every server of a club starting in it. */
  expectedStartLists(servers: ReadonlyArray<{ clubId: string; channelId: string }>): ExpectedPost[] {
    return [...this.#published, ...this.#waiting].flatMap((race) =>
      race.startListAt === undefined
        ? []
        : servers
            .filter((s) => race.starters.has(s.clubId))
            .map((s) => ({
              kind: 'startlists' as const,
              channelId: s.channelId,
              eventId: race.event.id,
              publishedAt: race.startListAt!,
            })),
    );
  }
}
