/**
 * How the cost of work grows with its size, measured relatively (test/README.md: no speed target
 * in an assertion). `costGrowth` times the same work at a small and a large size, each the best of
 * a few runs in CPU time, and gives the cost per item at the large size over that at the small: a
 * step that searches a list once per item (n²) gives about the ratio of the sizes, an n log n one
 * little more than 1. A slow or busy machine slows both sizes alike, so the ratio stays.
 */
import type { ClassResult, OrganisationRef, PersonResult, ResultList, SplitTime } from '../../src/eventor/model.js';
import { classResult, personResult, raceResult, resultList } from './render-fixtures.js';

/** Runs at each size; the best is kept (another process's burst only ever makes a run slower). */
const REPEATS = 5;

/**
 * The CPU time per item of `prepare(n)()` at `sizes[1]` over that at `sizes[0]`. `prepare` builds
 * the input (not timed) and returns the work to time. Both sizes run once first, and then take
 * turns, so that both are timed in code the JIT has compiled alike.
 */
export function costGrowth(prepare: (n: number) => () => unknown, sizes: readonly [number, number]): number {
  const time = (n: number): number => {
    const work = prepare(n);
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / n;
  };
  for (const n of sizes) time(n);
  const best = [Infinity, Infinity];
  for (let k = 0; k < REPEATS; k++) sizes.forEach((n, i) => (best[i] = Math.min(best[i]!, time(n))));
  return best[1]! / best[0]!;
}

/**
 * A class of `runners` with split times on `controls` controls, every `clubEvery`-th runner of
 * `club` (ids `p1`, `p2`… in the order given), paces and mistakes made up deterministically.
 */
export function largeClass(
  name: string,
  runners: number,
  controls: number,
  club: OrganisationRef,
  other: OrganisationRef,
  clubEvery = 1,
): ClassResult {
  let seed = 11;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const codes = Array.from({ length: controls }, (_, k) => String(31 + k));
  const persons: PersonResult[] = Array.from({ length: runners }, (_, r) => {
    let at = 0;
    const splits: SplitTime[] = codes.map((controlCode) => ({
      controlCode,
      time: (at += 60 + Math.round(random() * 120) + (random() < 0.05 ? 90 : 0)),
      status: 'OK',
    }));
    const organisation = r % clubEvery === 0 ? club : other;
    return personResult(`p${r + 1}`, 'Runner', String(r + 1), organisation, [
      raceResult({ time: at + 30 + Math.round(random() * 30), splits }),
    ]);
  });
  return classResult(name, persons);
}

/** A list of one such class. */
export function largeList(
  runners: number,
  controls: number,
  club: OrganisationRef,
  other: OrganisationRef,
  clubEvery = 1,
): ResultList {
  return resultList([largeClass('H21', runners, controls, club, other, clubEvery)]);
}
