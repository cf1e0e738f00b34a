/**
 * A member's year and the club's table (docs/members.md#season-your-year-and-the-clubs-table), from
 * the season's races: starts by discipline and level, wins and podiums, best placings, time on
 * course, distance where the lists give course lengths, the share of the class beaten in each race
 * (the picture), and the club's most starts, wins and podiums, overall and by class. Pure.
 */
import type { EventClassification } from '../eventor/model.js';
import { personKey } from './cup.js';
import type { SeasonRace, SeasonRunner } from './races.js';

/** A race of the season with its local day (the server's time zone), as the caller works it out. */
export interface DatedRace {
  race: SeasonRace;
  day: string | null;
}

/** One of a member's races: what they ran there and how it went. */
export interface MemberRace {
  race: SeasonRace;
  day: string | null;
  className: string;
  runner: SeasonRunner;
  /** How many started in the class (everyone); null when unknown. */
  classStarts: number | null;
  /** The share of the others in the class the member beat, 0 to 1; null without a valid place or class size. */
  beaten: number | null;
}

export interface Count<K> {
  key: K;
  starts: number;
}

export interface MemberSeason {
  /** Chronological. */
  races: MemberRace[];
  /** Races with an OK result. */
  ok: number;
  wins: number;
  podiums: number;
  /** Starts by Eventor discipline id (`''` for an event that gives none), most first. */
  byDiscipline: Array<Count<string>>;
  byLevel: Array<Count<EventClassification>>;
  /** The best placings: up to three OK races, best place first (the larger class first among equal places). */
  best: MemberRace[];
  /** Seconds on course over the races with a time, and how many those were. */
  timeOnCourse: number;
  timed: number;
  /** Metres over the races whose list gives a course length, and how many those were. */
  distance: number;
  measured: number;
}

/**
 * The share of the class a place beat: of the others who started, how many finished behind. The
 * only starter who finished OK beat the whole (empty) rest: 1.
 */
export function shareBeaten(position: number | null, starts: number | null): number | null {
  if (position === null || starts === null || starts < 1 || position < 1) return null;
  if (starts === 1) return position === 1 ? 1 : null;
  return Math.min(1, Math.max(0, (starts - position) / (starts - 1)));
}

function counted<K>(keys: readonly K[]): Array<Count<K>> {
  const counts = new Map<K, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts]
    .map(([key, starts]) => ({ key, starts }))
    .sort((a, b) => b.starts - a.starts || String(a.key).localeCompare(String(b.key)));
}

const chronological = (a: { day: string | null; race: SeasonRace }, b: { day: string | null; race: SeasonRace }) =>
  (a.day ?? '').localeCompare(b.day ?? '') ||
  (a.race.date ?? '').localeCompare(b.race.date ?? '') ||
  a.race.key.localeCompare(b.race.key);

/** A member's races among the season's: where a kept runner has their person id. */
export function memberSeason(races: readonly DatedRace[], personId: string): MemberSeason {
  const mine: MemberRace[] = [];
  for (const { race, day } of races)
    for (const cls of race.classes)
      for (const runner of cls.runners)
        if (runner.personId === personId)
          mine.push({
            race,
            day,
            className: cls.name,
            runner,
            classStarts: cls.starts,
            beaten: runner.status === 'OK' ? shareBeaten(runner.position, cls.starts) : null,
          });
  mine.sort(chronological);
  const ok = mine.filter((m) => m.runner.status === 'OK');
  const placed = ok.filter((m) => m.runner.position !== null);
  const timed = mine.filter((m) => m.runner.time !== null && m.runner.time > 0);
  const measured = mine.filter((m) => m.runner.courseLength !== null && m.runner.courseLength > 0);
  return {
    races: mine,
    ok: ok.length,
    wins: placed.filter((m) => m.runner.position === 1).length,
    podiums: placed.filter((m) => m.runner.position! <= 3).length,
    byDiscipline: counted(mine.map((m) => m.race.disciplineIds[0] ?? '')),
    byLevel: counted(mine.map((m) => m.race.classification)),
    best: [...placed]
      .sort(
        (a, b) =>
          a.runner.position! - b.runner.position! || (b.classStarts ?? 0) - (a.classStarts ?? 0) || chronological(a, b),
      )
      .slice(0, 3),
    timeOnCourse: timed.reduce((sum, m) => sum + m.runner.time!, 0),
    timed: timed.length,
    distance: measured.reduce((sum, m) => sum + m.runner.courseLength!, 0),
    measured: measured.length,
  };
}

/** One runner's line in the club's table. */
export interface ClubRunner {
  who: string;
  personId: string | null;
  name: string;
  birthYear: string | null;
  starts: number;
  wins: number;
  podiums: number;
}

/** One class in the club's table: its starts and its runner with the most starts. */
export interface ClubClass {
  name: string;
  starts: number;
  runners: number;
  wins: number;
  podiums: number;
  /** The class's runner with the most starts (the first by name among equals). */
  most: ClubRunner;
}

export interface ClubSeason {
  /** Races with a start by the club. */
  races: number;
  starts: number;
  runners: number;
  wins: number;
  podiums: number;
  /** Every runner: most starts first, then wins, podiums, name. */
  overall: ClubRunner[];
  /** Most starts first, then name. */
  classes: ClubClass[];
  /** Starts and podiums per month (index 0 January), by the races' local days. */
  months: Array<{ starts: number; podiums: number }>;
}

const byName = new Intl.Collator('sv', { sensitivity: 'variant' });

function byStarts(a: ClubRunner, b: ClubRunner): number {
  return b.starts - a.starts || b.wins - a.wins || b.podiums - a.podiums || byName.compare(a.name, b.name);
}

function tally(table: Map<string, ClubRunner>, runner: SeasonRunner): void {
  const who = personKey(runner);
  let line = table.get(who);
  if (!line) {
    line = {
      who,
      personId: runner.personId,
      name: runner.name,
      birthYear: runner.birthYear,
      starts: 0,
      wins: 0,
      podiums: 0,
    };
    table.set(who, line);
  }
  line.starts++;
  if (runner.status === 'OK' && runner.position !== null) {
    if (runner.position === 1) line.wins++;
    if (runner.position <= 3) line.podiums++;
  }
}

/** The club's table over the season's races (the runners kept are the club's). */
export function clubSeason(races: readonly DatedRace[]): ClubSeason {
  const overall = new Map<string, ClubRunner>();
  const classes = new Map<string, { name: string; runners: Map<string, ClubRunner> }>();
  const months = Array.from({ length: 12 }, () => ({ starts: 0, podiums: 0 }));
  let raced = 0;
  for (const { race, day } of races) {
    let any = false;
    for (const cls of race.classes) {
      let inClass = classes.get(cls.name);
      if (!inClass) {
        inClass = { name: cls.name, runners: new Map() };
        classes.set(cls.name, inClass);
      }
      for (const runner of cls.runners) {
        any = true;
        tally(overall, runner);
        tally(inClass.runners, runner);
        const month = day === null ? -1 : Number(day.slice(5, 7)) - 1;
        if (month >= 0 && month < 12) {
          months[month]!.starts++;
          if (runner.status === 'OK' && runner.position !== null && runner.position <= 3) months[month]!.podiums++;
        }
      }
    }
    if (any) raced++;
  }
  const lines = [...overall.values()].sort(byStarts);
  const sum = (key: 'starts' | 'wins' | 'podiums', list: readonly ClubRunner[]) =>
    list.reduce((total, line) => total + line[key], 0);
  return {
    races: raced,
    starts: sum('starts', lines),
    runners: lines.length,
    wins: sum('wins', lines),
    podiums: sum('podiums', lines),
    overall: lines,
    classes: [...classes.values()]
      .filter((c) => c.runners.size > 0)
      .map((c) => {
        const runners = [...c.runners.values()].sort(byStarts);
        return {
          name: c.name,
          starts: sum('starts', runners),
          runners: runners.length,
          wins: sum('wins', runners),
          podiums: sum('podiums', runners),
          most: runners[0]!,
        };
      })
      .sort((a, b) => b.starts - a.starts || byName.compare(a.name, b.name)),
    months,
  };
}

/** The runners with the most of `key` (at least one), those tied with the first included. */
export function leaders(season: ClubSeason, key: 'wins' | 'podiums'): ClubRunner[] {
  const most = Math.max(0, ...season.overall.map((line) => line[key]));
  if (most === 0) return [];
  return season.overall.filter((line) => line[key] === most).sort((a, b) => byName.compare(a.name, b.name));
}
