/**
 * No place a member or a feed reaches does more than n log n work in the runners Eventor sent
 * (docs/splits.md#how-long-it-takes). Each piece of work is timed at two sizes, sixteen times
 * apart (the analysis's own steps thirty-two), and its cost per runner must not grow with the
 * size: a step that searched a list once per runner made it grow about as much as the size.
 * Relative CPU time, never a time limit (test/support/growth.ts); where such a step would be too
 * cheap to stand out at the sizes a class may have (docs/splits.md#limits), the analysis's own
 * steps are timed on more runners than that, or the reads are counted.
 */
import { describe, expect, it } from 'vitest';
import { splitsView } from '../../src/app/splits.js';
import { clubGraphMessages, runnerPictures } from '../../src/feeds/kinds/results/split-pictures.js';
import { renderClubResults } from '../../src/render/index.js';
import { runnerAnalysisLines } from '../../src/render/split-analysis.js';
import { analyseCourse, competitionRanks, type RunnerAnalysis } from '../../src/splits/analysis.js';
import { seasonRaces } from '../../src/season/races.js';
import { analyseResultList, type ClassAnalysis, placeOkRunners } from '../../src/splits/result-list.js';
import { costGrowth, largeList } from '../support/growth.js';
import { CLUB, ctx, OTHER } from '../support/render-fixtures.js';

/** A class of 250 runners against one of 4,000 (10 controls): sixteen times the runners. */
const SIZES = [250, 4_000] as const;
const CONTROLS = 10;
/** The cost per runner may grow this much over the sixteenfold size: n log n and a busy machine's noise, not n². */
const MAX_GROWTH = 4;
/** More runners than a class may have, for the analysis's own steps: thirty-two times as many. */
const LARGE_SIZES = [1_000, 32_000] as const;
/** Over those sizes, a memory's worth more than the cache holds: n² would grow by about 32. */
const MAX_LARGE_GROWTH = 8;

/** `n` times in tenths with many ties, as a large class's results have them. */
const times = (n: number): number[] => Array.from({ length: n }, (_, i) => 36_000 + ((i * 7_919) % (n * 2)));

/** The analyses with every course's runners counting how often one of them is read. */
function counted(analyses: ClassAnalysis[]): { analyses: ClassAnalysis[]; reads: () => number } {
  let reads = 0;
  const counting = <T extends object>(list: T[]): T[] =>
    new Proxy(list, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  return {
    analyses: analyses.map((a) => ({
      ...a,
      courses: a.courses.map((c) => ({ ...c, results: counting(c.results) })),
    })),
    reads: () => reads,
  };
}

describe('the analysis grows n log n in the runners', () => {
  it('leg ranks', () => {
    const growth = costGrowth((n) => {
      const values = times(n);
      return () => competitionRanks(values);
    }, LARGE_SIZES);
    expect(growth).toBeLessThan(MAX_LARGE_GROWTH);
  });

  it('places over the courses of a class', () => {
    const growth = costGrowth((n) => {
      const results = times(n).map((t, i) => ({
        status: i % 9 === 0 ? 'MissingPunch' : 'OK',
        time: t / 10,
        place: null,
      }));
      return () => placeOkRunners([{ results: results as RunnerAnalysis[] }]);
    }, LARGE_SIZES);
    expect(growth).toBeLessThan(MAX_LARGE_GROWTH);
  });

  it('/season: the places of a complete list counted from its times', () => {
    const growth = costGrowth((n) => {
      const list = largeList(n, 0, CLUB, OTHER);
      return () => seasonRaces(list, { keep: () => true, complete: true });
    }, LARGE_SIZES);
    expect(growth).toBeLessThan(MAX_LARGE_GROWTH);
  });

  it('a course of two controls, every step of it', () => {
    const growth = costGrowth((n) => {
      const runners = largeList(n, 2, CLUB, OTHER).classes[0]!.persons.map((p) => ({
        name: p.person!.id!,
        status: p.results[0]!.status,
        time: p.results[0]!.time,
        splits: p.results[0]!.splits,
      }));
      return () => analyseCourse(['31', '32'], runners);
    }, LARGE_SIZES);
    expect(growth).toBeLessThan(MAX_LARGE_GROWTH);
  });
});

describe('the cost per runner of each place does not grow with the class', () => {
  it('/splits: the course of a member, analysed and chosen', () => {
    const growth = costGrowth((n) => {
      const list = largeList(n, CONTROLS, CLUB, OTHER, 10);
      return () => splitsView(list, CLUB.id!, { className: null, personIds: ['p11'], named: false });
    }, SIZES);
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it('/results with splits: the club’s classes analysed and every club runner’s table', () => {
    const growth = costGrowth((n) => {
      const list = largeList(n, CONTROLS, CLUB, OTHER, 2);
      return () => {
        const analyses = new Map([['1001', analyseResultList(list)]]);
        renderClubResults(list, ctx(), { organisationId: CLUB.id!, top: 3, splits: true, analyses });
      };
    }, SIZES);
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it('/results with splits: each club runner’s legs are found without reading the class again', () => {
    // A pass over the class per runner is cheap in time at these sizes, so its reads are counted.
    const readsPerRunner = SIZES.map((n) => {
      const list = largeList(n, CONTROLS, CLUB, OTHER, 2);
      const { analyses, reads } = counted(analyseResultList(list));
      const payloads = renderClubResults(list, ctx(), {
        organisationId: CLUB.id!,
        top: 3,
        splits: true,
        analyses: new Map([['1001', analyses]]),
      });
      // The tables did find the runners' legs: they have the leg rank's column.
      expect(JSON.stringify(payloads)).toContain(' Rk ');
      return reads() / n;
    });
    expect(readsPerRunner[1]!).toBeLessThanOrEqual(2 * readsPerRunner[0]!);
  });

  it('the results thread: the graph messages of a class of club runners', () => {
    const growth = costGrowth((n) => {
      // Half the class of the club: the thread's club runners stay within its limit.
      const list = largeList(n, CONTROLS, CLUB, OTHER, 2);
      return () => clubGraphMessages(list, CLUB.id!, 'en');
    }, SIZES);
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it('the words under the pictures, for every runner of the course', () => {
    const growth = costGrowth((n) => {
      const course = analyseResultList(largeList(n, CONTROLS, CLUB, OTHER))[0]!.courses[0]!;
      return () => course.results.map((runner) => runnerAnalysisLines(course, runner, 'sv'));
    }, SIZES);
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it('the result DM: the runner’s class analysed, their pictures asked for', () => {
    const growth = costGrowth((n) => {
      const list = largeList(n, CONTROLS, CLUB, OTHER);
      return () => runnerPictures(list, `p${n}`, 'nb');
    }, SIZES);
    expect(growth).toBeLessThan(MAX_GROWTH);
  });
});
