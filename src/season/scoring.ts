/**
 * The two cup scorings, exactly as docs/season.md#scorings defines them, and the standings:
 *
 * - `winner-ratio`: OK gets round(100 × W / T), T the runner's time and W the best OK time in
 *   their class in that race (over everyone in the class); any other status 0.
 * - `place`: by place among everyone in the class, ties sharing a place: 25, 20, 16, 13, 11, 10,
 *   9, 8, 7, 6, 5, 4, 3, 2, 1 for places 1 to 15, then 1 for every other OK runner; otherwise 0.
 *
 * A runner's total is the sum of their best N race points (every race when N is not set);
 * standings sort by total, highest first, then by name, and equal totals share a rank.
 */
import type { SeasonClass, SeasonRunner } from './races.js';

export const SCORINGS = ['winner-ratio', 'place'] as const;
export type Scoring = (typeof SCORINGS)[number];

export function isScoring(value: string): value is Scoring {
  return (SCORINGS as readonly string[]).includes(value);
}

/** Points of places 1 to 15 under `place`; every other OK runner gets 1. */
export const PLACE_POINTS: readonly number[] = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];

/**
 * One runner's points in one race. An OK result without a time cannot be compared with the
 * winner's (0 under `winner-ratio`); one without a place is "any other OK runner" (1 under `place`).
 */
export function racePoints(scoring: Scoring, runner: SeasonRunner, cls: SeasonClass): number {
  if (runner.status !== 'OK') return 0;
  if (scoring === 'place') {
    const place = runner.position;
    return place !== null && place >= 1 && place <= PLACE_POINTS.length ? PLACE_POINTS[place - 1]! : 1;
  }
  const t = runner.time;
  const w = cls.winnerTime;
  if (t === null || t <= 0 || w === null || w <= 0) return 0;
  // The best time is over everyone in the class, the runner included, so W ≤ T and points ≤ 100.
  return Math.round((100 * Math.min(w, t)) / t);
}

/** One runner's points in one race; `race` indexes the races the standings were made from. */
export interface RaceScore {
  race: number;
  points: number;
}

/** A runner's points in one race, as the standings take them. */
export interface ScoredEntry extends RaceScore {
  /** Who it is: the same key in two races is the same runner (a person id, or a name). */
  who: string;
  name: string;
  birthYear?: string | null;
}

export interface Standing {
  /** 1-based; equal totals share a rank (1, 1, 3). */
  rank: number;
  who: string;
  name: string;
  /** What tells namesakes apart in the standings; null when not known. */
  birthYear: string | null;
  points: number;
  /** How many races the runner started. */
  races: number;
  /** The races whose points make the total (the best N, in race order). */
  counted: RaceScore[];
}

/** Names in the order a club's table lists them (Swedish alphabetical order: å, ä, ö last). */
const byName = new Intl.Collator('sv', { sensitivity: 'variant' });

/** The best `best` scores (all when null): highest first, the earlier race first among equal points. */
function bestScores(scores: readonly RaceScore[], best: number | null): RaceScore[] {
  const sorted = [...scores].sort((a, b) => b.points - a.points || a.race - b.race);
  return (best === null ? sorted : sorted.slice(0, best)).sort((a, b) => a.race - b.race);
}

/**
 * The standings of every runner with a score. A runner in one race twice (two classes) keeps their
 * higher points there. `best` null counts every race.
 */
export function standings(entries: readonly ScoredEntry[], best: number | null): Standing[] {
  const runners = new Map<string, { name: string; birthYear: string | null; races: Map<number, number> }>();
  for (const e of entries) {
    let runner = runners.get(e.who);
    if (!runner) {
      runner = { name: e.name, birthYear: e.birthYear ?? null, races: new Map() };
      runners.set(e.who, runner);
    }
    runner.races.set(e.race, Math.max(runner.races.get(e.race) ?? 0, e.points));
  }
  const rows = [...runners].map(([who, r]) => {
    const counted = bestScores(
      [...r.races].map(([race, points]) => ({ race, points })),
      best,
    );
    return {
      who,
      name: r.name,
      birthYear: r.birthYear,
      points: counted.reduce((sum, s) => sum + s.points, 0),
      races: r.races.size,
      counted,
    };
  });
  rows.sort(
    (a, b) => b.points - a.points || byName.compare(a.name, b.name) || (a.who < b.who ? -1 : a.who > b.who ? 1 : 0),
  );
  let rank = 0;
  return rows.map((row, i) => {
    if (i === 0 || rows[i - 1]!.points !== row.points) rank = i + 1;
    return { rank, ...row };
  });
}

/** Everything scored in the races: one entry per kept runner per race, `who` from `identity`. */
export function scoreRaces(
  races: ReadonlyArray<{ classes: readonly SeasonClass[] }>,
  scoring: Scoring,
  identity: (runner: SeasonRunner) => string,
  options: { classes?: (name: string) => boolean } = {},
): ScoredEntry[] {
  const entries: ScoredEntry[] = [];
  races.forEach((race, index) => {
    for (const cls of race.classes) {
      if (options.classes && !options.classes(cls.name)) continue;
      for (const runner of cls.runners)
        entries.push({
          who: identity(runner),
          name: runner.name,
          birthYear: runner.birthYear,
          race: index,
          points: racePoints(scoring, runner, cls),
        });
    }
  });
  return entries;
}
