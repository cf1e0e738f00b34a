/**
 * Eventor requests per hour as a club's servers grow: N servers of the same club, each with a
 * channel for every feed kind and all kinds turned on, followed by the real feed scheduler
 * through a race weekend in the sandbox (Thursday 00:00 to Monday 24:00, Stockholm time) on a
 * controllable clock. Every Eventor HTTP request the sandbox receives counts.
 *
 * The same with N servers spread over K of the sandbox's clubs, each club with its own key (as
 * `/setup eventor` stores it): what one bot serving many clubs asks, where the instance's shared
 * cache fetches public answers once for all clubs and only each club's own questions multiply.
 *
 * The race day itself (local 00:00 to 24:00 of the race's date, one club, one server) is counted
 * apart: the club's busiest day, with results every 5 minutes and start lists every 15
 * (`eventor-requests-race-day-per-club`, docs/decisions/race-day-requests.md).
 *
 * The clock ticks every 5 minutes, the scheduler's finest cadence: its runs are aligned to
 * 5-minute and hourly wall-clock slots, so a tick every minute would run the same slots and make
 * the same requests, only five times slower to simulate.
 */
import {
  millisecondsInDay as DAY,
  millisecondsInHour as HOUR,
  millisecondsInMinute as MINUTE,
} from 'date-fns/constants';
import { KIND_NAMES } from '../../src/feeds/registry.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { SANDBOX_TIME_ZONE } from '../sandbox/eventor/dataset.js';
import { startLoopbackWorld } from '../loopback/world.js';
import { addDays, dayWindow, localToday, weekdayOf } from '../../src/time/days.js';
import type { BenchFigure, TargetedFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';

/** The sandbox's reference "now" (its events are placed around it); fixed so runs compare. */
const BASE = new Date('2026-10-01T10:00:00Z');

export interface RequestsRun {
  servers: number;
  /** Clubs the servers belong to (round robin over the sandbox's clubs, home club first). */
  clubs: number;
  /** Eventor HTTP requests the sandbox received while the clock ran. */
  requests: number;
  hours: number;
  perHour: number;
  /** Requests per operation path (ids replaced by N), most first. */
  byPath: Array<[string, number]>;
  /** Simulated window (instants). */
  from: Date;
  to: Date;
  /**
   * The race day itself (local 00:00 to 24:00 of the race's date, Stockholm time), when the
   * simulated window covers it whole: the busiest day of the weekend.
   */
  raceDay: RaceDayRequests | null;
}

/** Eventor requests on the race day itself. */
export interface RaceDayRequests {
  /** The race's local date (YYYY-MM-DD). */
  date: string;
  requests: number;
  hours: number;
  perHour: number;
  /** Requests per operation path (ids replaced by N), most first. */
  byPath: Array<[string, number]>;
}

export interface RequestsOptions {
  servers: number;
  /**
   * Spread the servers over this many clubs, each with its own key. Default 1: every server uses
   * the home club's key from the bot's configuration.
   */
  clubs?: number;
  /** Simulated hours from the weekend's Thursday 00:00 (default: through Monday 24:00). */
  hours?: number;
  /**
   * `race-day`: simulate only the race day (local 00:00 to 24:00 of the race's date) instead of
   * the weekend; `hours` is then ignored. Default `weekend`.
   */
  window?: 'weekend' | 'race-day';
  /** Clock step (default 5 minutes). */
  stepMs?: number;
  /** The kinds turned on (default: every kind). */
  kinds?: readonly string[];
  /** Start this many hours after the weekend's Thursday 00:00 (default 0; `weekend` window only). */
  offsetHours?: number;
}

/** 00:00 local time (SANDBOX_TIME_ZONE) of a local date YYYY-MM-DD. */
function localMidnight(date: string): Date {
  return new Date(dayWindow(date, date, SANDBOX_TIME_ZONE).from);
}

export async function measureEventorRequests(options: RequestsOptions): Promise<RequestsRun> {
  const stepMs = options.stepMs ?? 5 * MINUTE;
  const clubCount = options.clubs ?? 1;
  let clock = BASE;
  const world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
  try {
    const dataset = world.eventor.dataset;
    const home = dataset.homeClub.id;
    // The first race a week or more after the base with club entrants: on a weekend when the data
    // has one (the sandbox keeps its events on the days their names promise, so not every race is).
    const races = dataset.events
      .filter(
        (ev) => ev.syntheticRunners === 0 && ev.event.start && Date.parse(ev.event.start) > BASE.getTime() + 7 * DAY,
      )
      .map((ev) => ({ ev, date: localToday(new Date(ev.event.start!), SANDBOX_TIME_ZONE) }))
      .filter(({ ev }) => dataset.entriesAt(ev).some((e) => e.competitor?.organisation?.id === home))
      .sort((a, b) => a.date.localeCompare(b.date));
    const weekend = races.find(({ date }) => [0, 6].includes(weekdayOf(date))) ?? races[0];
    if (!weekend) throw new Error('the sandbox has no race with club entrants');
    if (!Number.isInteger(clubCount) || clubCount < 1 || clubCount > dataset.clubs.length) {
      throw new Error(`clubs must be 1 to ${dataset.clubs.length} (the sandbox's clubs)`);
    }
    // Thursday before a weekend race; two days before a race on another day.
    const thursday = addDays(weekend.date, weekdayOf(weekend.date) === 0 ? -3 : -2);
    const raceDayOnly = options.window === 'race-day';
    const from = new Date(
      localMidnight(raceDayOnly ? weekend.date : thursday).getTime() +
        (raceDayOnly ? 0 : (options.offsetHours ?? 0)) * HOUR,
    );
    const end = raceDayOnly ? localMidnight(addDays(weekend.date, 1)) : localMidnight(addDays(thursday, 5));
    const to = options.hours === undefined || raceDayOnly ? end : new Date(from.getTime() + options.hours * HOUR);

    const settings = new KindSettings(world.bot.store, () => clock);
    for (let i = 0; i < options.servers; i++) {
      const club = dataset.clubs[i % clubCount]!;
      const guildId =
        i === 0
          ? world.guild.id
          : world.discord.createGuild({ name: `${club.name} ${i + 1}`, preferredLocale: 'sv-SE' }).id;
      world.allowDefaultEventor(guildId);
      if (clubCount > 1) {
        await world.bot.store.servers.connectEventor(guildId, {
          instance: 'custom',
          baseUrl: world.eventor.baseUrl,
          apiKey: club.apiKey,
          organisation: { id: club.id, name: club.name },
        });
      }
      const admin = world.discord.createTextChannel(guildId, { name: 'styrelsen' }).id;
      await world.bot.store.servers.setChannel(guildId, 'admin', admin);
      // The races in the server's Events need these, as the invite asks for them.
      world.discord.setBotCanCreateEvents(guildId, true);
      world.discord.setBotCanManageEvents(guildId, true);
      for (const kind of options.kinds ?? KIND_NAMES) {
        await world.bot.store.servers.setChannel(
          guildId,
          kind,
          world.discord.createTextChannel(guildId, { name: kind }).id,
        );
        await settings.update(guildId, kind, { enabled: true });
      }
    }

    // The race day's requests are the difference between the counts at its two midnights.
    const raceDayFrom = localMidnight(weekend.date);
    const raceDayTo = localMidnight(addDays(weekend.date, 1));
    const log = world.eventor.requests;
    let atRaceDayStart: Map<string, number> | null = null;
    let atRaceDayEnd: Map<string, number> | null = null;
    clock = from;
    log.clear();
    for (; clock.getTime() < to.getTime(); clock = new Date(clock.getTime() + stepMs)) {
      if (clock.getTime() === raceDayFrom.getTime()) atRaceDayStart = new Map(log.byPath());
      if (clock.getTime() === raceDayTo.getTime()) atRaceDayEnd = new Map(log.byPath());
      await world.bot.scheduler.tick(clock);
    }
    if (clock.getTime() === raceDayTo.getTime()) atRaceDayEnd = new Map(log.byPath());
    const requests = log.count();
    const hours = (to.getTime() - from.getTime()) / HOUR;
    const byPath = pathShapes(log.byPath());
    let raceDay: RaceDayRequests | null = null;
    if (atRaceDayStart && atRaceDayEnd) {
      const since = new Map<string, number>();
      for (const [path, count] of atRaceDayEnd) since.set(path, count - (atRaceDayStart.get(path) ?? 0));
      const dayPaths = pathShapes(since).filter(([, n]) => n > 0);
      const dayRequests = dayPaths.reduce((sum, [, n]) => sum + n, 0);
      const dayHours = (raceDayTo.getTime() - raceDayFrom.getTime()) / HOUR;
      raceDay = {
        date: weekend.date,
        requests: dayRequests,
        hours: dayHours,
        perHour: dayRequests / dayHours,
        byPath: dayPaths,
      };
    }
    return {
      servers: options.servers,
      clubs: clubCount,
      requests,
      hours,
      perHour: requests / hours,
      byPath,
      from,
      to,
      raceDay,
    };
  } finally {
    await world.close();
  }
}

/** Request counts per operation path, ids replaced by N, most first. */
function pathShapes(counts: ReadonlyMap<string, number>): Array<[string, number]> {
  const paths = new Map<string, number>();
  for (const [path, count] of counts) {
    const shape = path.replace(/\d+/g, 'N');
    paths.set(shape, (paths.get(shape) ?? 0) + count);
  }
  return [...paths].sort((a, b) => b[1] - a[1]);
}

/** The `#` lines of one simulated run: its window and requests, then the requests by path. */
function describeRun(run: RequestsRun, what: string, write: (line: string) => void): void {
  write(
    `# ${run.servers} server(s) of ${what}, ${run.from.toISOString()} to ${run.to.toISOString()}: ${run.requests} Eventor requests in ${run.hours} h`,
  );
  write(`#   by path: ${run.byPath.map(([path, n]) => `${path} ${n}`).join(', ')}`);
}

/** Race-day requests per club must stay at or under this (docs/decisions/race-day-requests.md). */
export const RACE_DAY_TARGET_PER_HOUR = 25;

/**
 * The race day of a one-club run: its requests per hour (the club's busiest day: results every
 * 5 minutes, start lists every 15), with the by-path breakdown. Null when the run did not cover it.
 */
function raceDayFigure(run: RequestsRun, write: (line: string) => void): TargetedFigure | null {
  const day = run.raceDay;
  if (!day) {
    write(`# race day: not covered by the ${run.hours} h simulated`);
    return null;
  }
  write(
    `# race day ${day.date} (local 00:00-24:00), ${run.servers} server(s) of one club: ${day.requests} Eventor requests in ${day.hours} h`,
  );
  write(`#   by path: ${day.byPath.map(([path, n]) => `${path} ${n}`).join(', ')}`);
  const figure: TargetedFigure = {
    name: 'eventor-requests-race-day-per-club',
    value: day.perHour,
    unit: 'req/h',
    op: '<=',
    target: RACE_DAY_TARGET_PER_HOUR,
    title: 'Eventor requests an hour of one server on the race day',
    about: 'The same as `eventor-requests-per-hour-1-servers` on the race day itself (local 00:00-24:00).',
  };
  return figure;
}

/**
 * The weekend average of one server of one club must stay at or under this: the figure before the
 * race-day sharing of requests (32; docs/decisions/race-day-requests.md).
 */
export const WEEKEND_TARGET_PER_HOUR = 32;

/** The weekly digest's own Eventor requests, per club and week, must stay at or under this. */
export const DIGEST_TARGET_PER_WEEK = 3;

/**
 * The weekly digest's extra Eventor requests: Thursday 12:00 to 24:00 of the race weekend (the
 * digest's first run, its post at 18:00 and the runs after it), one server with every kind on,
 * against the same with every kind but the digest. What it shows is what the other kinds ask on
 * the same tick; the rest of the week its runs read the ledger only (test/e2e/feeds-digest.test.ts),
 * so this difference is its cost for the week.
 */
async function digestFigure(write: (line: string) => void): Promise<TargetedFigure> {
  const window = { servers: 1, offsetHours: 12, hours: 12 };
  const withDigest = await measureEventorRequests(window);
  const without = await measureEventorRequests({ ...window, kinds: KIND_NAMES.filter((k) => k !== 'digest') });
  const extra = withDigest.requests - without.requests;
  const before = new Map(without.byPath);
  const paths = withDigest.byPath
    .map(([path, n]): [string, number] => [path, n - (before.get(path) ?? 0)])
    .filter(([, n]) => n !== 0);
  write(
    `# weekly digest: ${withDigest.from.toISOString()} to ${withDigest.to.toISOString()}, one server of one club: ${withDigest.requests} Eventor requests with it, ${without.requests} without`,
  );
  write(`#   the digest's own: ${paths.map(([path, n]) => `${path} ${n}`).join(', ') || 'none'}`);
  return {
    name: 'eventor-requests-digest-per-week',
    value: extra,
    unit: 'req/week',
    op: '<=',
    target: DIGEST_TARGET_PER_WEEK,
    title: "The weekly digest's own Eventor requests, per club and week",
    about:
      'Eventor requests of one server with every kind on, less the same without the weekly digest, from the Thursday noon before the race weekend to midnight (its post at 18:00 local): what the digest asks beyond what the other kinds ask on the same tick.',
  };
}

/**
 * The calendar kind's Eventor requests a week for one club alone, at most: six a run (the events
 * around the club, the club's entries window and its events, the entered events beyond with their
 * entry periods, their entry counts, the levels' events), four runs a day, and the club's area
 * (its organisation and district) once a day. Beside the reminders most of these are the reminders'
 * own requests, answered by the cache: on the race day the kind adds its entry counts only.
 */
export const CALENDAR_TARGET_PER_WEEK = (6 * 4 + 2) * 7;

/** The calendar kind alone, one server of one club, over `hours` (a week by default): its Eventor requests a week. */
async function calendarWeekFigure(write: (line: string) => void, hours = 7 * 24): Promise<TargetedFigure> {
  const run = await measureEventorRequests({ servers: 1, hours, kinds: ['calendar'], stepMs: 15 * MINUTE });
  describeRun(run, 'one club, the calendar kind alone', write);
  return {
    name: 'eventor-requests-calendar-per-club-week',
    value: (run.requests * 7 * 24) / run.hours,
    unit: 'req/week',
    op: '<=',
    target: CALENDAR_TARGET_PER_WEEK,
    title: "Eventor requests a week of the races in one server's Events",
    about:
      "The `calendar` kind alone (races as the server's scheduled events), one server of one club over a week from the race weekend's Thursday, by the real scheduler: its runs every six hours.",
  };
}

/** How much the `requests` section simulates: the full run's, `--quick`'s, or a test's. */
export interface RequestsScale {
  /** Hours of the calendar kind's run (default a week). */
  calendarHours?: number;
  /** Hours of the weekend run, from its start (default: the whole weekend, which holds the race day). */
  weekendHours?: number;
  /** Servers of the race-day runs. */
  servers: number;
  /** Clubs those servers are spread over in the last run. */
  clubs: number;
}

/**
 * The `requests` section's figures. The weekend (Thursday to Monday) of one server of one club
 * gives the weekly average and the race day's figure. How servers add up is measured on the race
 * day alone, the busiest day, side by side with one server over the same day: N servers of one
 * club must ask no more than one (they share the club's client and its answers), and N servers of
 * K clubs no more than K single-club bots. Simulating only that day keeps the section near half a
 * minute (a weekend of 100 servers took over a minute each).
 */
export async function requestsFigures(write: (line: string) => void, scale: RequestsScale): Promise<TargetedFigure[]> {
  const { servers: many, clubs: clubCount } = scale;
  const describe = (run: RequestsRun, what: string) => describeRun(run, what, write);
  const weekend = await measureEventorRequests({
    servers: 1,
    ...(scale.weekendHours === undefined ? {} : { hours: scale.weekendHours }),
  });
  describe(weekend, 'one club, the weekend');
  const figures: TargetedFigure[] = [
    {
      name: 'eventor-requests-per-hour-1-servers',
      value: weekend.perHour,
      unit: 'req/h',
      op: '<=',
      target: WEEKEND_TARGET_PER_HOUR,
      title: 'Eventor requests an hour of one server over the race weekend',
      about:
        "Eventor requests an hour of one server with every kind of automatic post on, over the sandbox's race weekend (Thursday to Monday), by the real scheduler on a simulated clock.",
    },
  ];
  const raceDay = raceDayFigure(weekend, write);
  if (raceDay) figures.push(raceDay);

  figures.push(await digestFigure(write));

  const one = await measureEventorRequests({ servers: 1, window: 'race-day' });
  describe(one, 'one club, the race day alone');
  const sameClub = await measureEventorRequests({ servers: many, window: 'race-day' });
  describe(sameClub, 'one club, the race day alone');
  figures.push({
    name: `eventor-requests-race-day-${many}-servers`,
    value: sameClub.perHour,
    unit: 'req/h',
    op: '<=',
    target: one.perHour,
    title: `${many} servers of one club on the race day, held to one server`,
    about: `${many} servers of one club on the race day alone, held to one server over the same day (they share the club's client).`,
  });
  const clubs = await measureEventorRequests({ servers: many, clubs: clubCount, window: 'race-day' });
  describe(clubs, `${clubCount} clubs (each its own key), the race day alone`);
  figures.push({
    name: `eventor-requests-race-day-${many}-servers-${clubCount}-clubs`,
    value: clubs.perHour,
    unit: 'req/h',
    op: '<=',
    target: clubCount * one.perHour,
    title: `${many} servers of ${clubCount} clubs, race day, held to ${clubCount} one-club bots`,
    about: `${many} servers of ${clubCount} clubs on the race day alone, each club its own key, held to ${clubCount} single-club bots over the same day.`,
  });
  write(
    `# race day alone: 1 server ${one.perHour.toFixed(1)} req/h, ${many} servers of one club ${sameClub.perHour.toFixed(1)}, ${many} servers of ${clubCount} clubs ${clubs.perHour.toFixed(1)} (against ${(clubCount * one.perHour).toFixed(1)} for ${clubCount} single-club bots)`,
  );
  figures.push(await calendarWeekFigure(write, scale.calendarHours));
  return figures;
}

/** The `requests` section: 100 servers, of one club and of 10; `--quick`: 3, of one club and of 3. */
function runRequestsSection({ quick, write }: BenchContext): Promise<BenchFigure[]> {
  return requestsFigures(write, quick ? { servers: 3, clubs: 3 } : { servers: 100, clubs: 10 });
}

export const requestsSection: BenchSection = {
  name: 'requests',
  long: 'whole simulated weeks and race days of the feeds, for 1 to 100 servers',
  run: runRequestsSection,
};
