/**
 * `eventor-bot cup` as its own process (the built program): the worked example of docs/season.md
 * over files in the repository (IOF XML 3.0 and Eventor's native list, a two-stage file), the
 * fixed `--json` shape, the text table, one clear message per bad input, and real files from
 * ../shared/fixtures when they are there.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CupJson } from '../../src/cli/cup.js';
import { PLACE_POINTS } from '../../src/season/scoring.js';
import { runProgram } from '../support/cli-process.js';
import { NEEDS_SHARED_FIXTURES, sharedFixtures } from '../support/shared-fixtures.js';

const FIXTURES = path.resolve('test/fixtures/cup');
const RACE_1 = path.join(FIXTURES, 'race-1-iof.xml');
const RACE_2 = path.join(FIXTURES, 'race-2-eventor.xml');
const STAGES = path.join(FIXTURES, 'stages-iof.xml');

const cup = (...args: string[]) => runProgram(['cup', ...args]);
const json = async (...args: string[]): Promise<CupJson> => {
  const { code, stdout, stderr } = await cup(...args, '--json');
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as CupJson;
};

/** What every cup answer must hold, whatever the files. */
function wellFormed(result: CupJson): void {
  expect(Object.keys(result)).toEqual(['scoring', 'best', 'races', 'standings']);
  for (const race of result.races) expect(Object.keys(race)).toEqual(['file', 'event', 'race', 'date']);
  result.standings.forEach((s, i) => {
    expect(Object.keys(s)).toEqual(['rank', 'name', 'points', 'races', 'counted']);
    expect(s.points).toBe(s.counted.reduce((sum, c) => sum + c.points, 0));
    expect(s.counted.length).toBeLessThanOrEqual(result.best ?? s.races);
    for (const c of s.counted) expect(c.race).toBeLessThan(result.races.length);
    const before = result.standings[i - 1];
    if (before) {
      expect(before.points).toBeGreaterThanOrEqual(s.points);
      expect(s.rank).toBe(before.points === s.points ? before.rank : i + 1);
    } else expect(s.rank).toBe(1);
  });
}

describe('eventor-bot cup', () => {
  it('the worked example, winner-ratio: an IOF file and an Eventor list, each one race', async () => {
    const result = await json(RACE_1, RACE_2, '--club', '321', '--scoring', 'winner-ratio');
    wellFormed(result);
    expect(result).toEqual({
      scoring: 'winner-ratio',
      best: null,
      races: [
        { file: RACE_1, event: 'Vårsprinten', race: 1, date: '2026-04-11' },
        { file: RACE_2, event: 'Skogsträffen', race: 1, date: '2026-05-16' },
      ],
      standings: [
        {
          rank: 1,
          name: 'Karl Holm',
          points: 180,
          races: 2,
          counted: [
            { race: 0, points: 80 },
            { race: 1, points: 100 },
          ],
        },
        {
          rank: 2,
          name: 'Erik Lund',
          points: 174,
          races: 2,
          counted: [
            { race: 0, points: 91 },
            { race: 1, points: 83 },
          ],
        },
        {
          rank: 3,
          name: 'Per Ås',
          points: 95,
          races: 2,
          counted: [
            { race: 0, points: 0 },
            { race: 1, points: 95 },
          ],
        },
        { rank: 4, name: 'Nils Ek', points: 91, races: 1, counted: [{ race: 0, points: 91 }] },
      ],
    });
  });

  it('place with --best 1, the club by its name or short name: equal totals share a rank, then by name', async () => {
    const byName = await json(RACE_1, RACE_2, '--club', 'ok skogen', '--scoring', 'place', '--best', '1');
    wellFormed(byName);
    expect(byName.standings.map((s) => [s.rank, s.name, s.points])).toEqual([
      [1, 'Karl Holm', 25],
      [2, 'Erik Lund', 20],
      [2, 'Nils Ek', 20],
      [2, 'Per Ås', 20],
    ]);
    // The Eventor list names the club's short name too; the IOF file only its name.
    const short = await json(RACE_2, '--club', 'Skogen', '--scoring', 'place');
    expect(short.standings.map((s) => s.name)).toEqual(['Karl Holm', 'Per Ås', 'Erik Lund']);
  });

  it('each race of a multi-race file counted apart, and the same name in two files is one runner', async () => {
    const result = await json(RACE_1, STAGES, '--club', '321', '--scoring', 'place');
    wellFormed(result);
    expect(result.races).toEqual([
      { file: RACE_1, event: 'Vårsprinten', race: 1, date: '2026-04-11' },
      { file: STAGES, event: 'Sommarhelgen', race: 1, date: '2026-06-20' },
      { file: STAGES, event: 'Sommarhelgen', race: 2, date: '2026-06-21' },
    ]);
    expect(result.standings.map((s) => [s.rank, s.name, s.points])).toEqual([
      [1, 'Erik Lund', 65],
      [2, 'Karl Holm', 58],
      [3, 'Nils Ek', 20],
      [4, 'Per Ås', 0],
    ]);
    const karl = result.standings.find((s) => s.name === 'Karl Holm')!;
    expect(karl).toEqual({
      rank: 2,
      name: 'Karl Holm',
      points: 58,
      races: 3,
      counted: [
        { race: 0, points: 13 },
        { race: 1, points: 20 },
        { race: 2, points: 25 },
      ],
    });
  });

  it('the text table: the races, then rank, name, points, races and the points that count', async () => {
    const { code, stdout, stderr } = await cup(RACE_1, RACE_2, '--club', '321', '--scoring', 'winner-ratio');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Scoring: winner-ratio, every race counts');
    expect(stdout).toContain(`1. Vårsprinten, 2026-04-11 (${RACE_1})`);
    expect(stdout).toMatch(/^1\.\s+Karl Holm\s+180\s+2\s+80 \(1\) 100 \(2\)$/m);
    expect(stdout).toMatch(/^4\.\s+Nils Ek\s+91\s+1\s+91 \(1\)$/m);
  });

  it('one clear message for each bad input: usage errors exit 2, files that cannot be used exit 1', async () => {
    const tries: Array<[string[], number, RegExp]> = [
      [[], 2, /name the result list files/],
      [[RACE_1, '--scoring', 'place'], 2, /name the club: --club/],
      [[RACE_1, '--club', '321'], 2, /--scoring takes winner-ratio or place/],
      [[RACE_1, '--club', '321', '--scoring', 'points'], 2, /--scoring takes winner-ratio or place \(not 'points'\)/],
      [[RACE_1, '--club', '321', '--scoring', 'place', '--best', '0'], 2, /--best takes a whole number of races/],
      [[RACE_1, RACE_1, '--club', '321', '--scoring', 'place'], 2, /given twice/],
      [[RACE_1, '--club', '321', '--scoring', 'place', '--colour', 'red'], 2, /unknown option: --colour/],
      [[path.join(FIXTURES, 'nothing.xml'), '--club', '321', '--scoring', 'place'], 1, /cannot read .*: no such file/],
      [
        [RACE_1, '--club', 'IFK Nowhere', '--scoring', 'place'],
        1,
        /no runner of the club 'IFK Nowhere' in the files; their clubs: IK Annan \(99\), OK Skogen \(321\)/,
      ],
    ];
    for (const [args, exit, message] of tries) {
      const { code, stdout, stderr } = await cup(...args);
      expect(code, args.join(' ')).toBe(exit);
      expect(stderr, args.join(' ')).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stdout).toBe('');
    }
  });
});

const iof = sharedFixtures('iof');
const eventor = sharedFixtures('eventor');

describe.skipIf(iof === null || eventor === null)(`eventor-bot cup on real files ${NEEDS_SHARED_FIXTURES}`, () => {
  it("Eventor's own list of a club's results, and a big QuickEvent list: well formed, each scoring within its bounds", async () => {
    const native = path.join(eventor!, 'results-organisation.xml');
    for (const scoring of ['place', 'winner-ratio']) {
      const result = await json(native, '--club', 'Sjövalla FK', '--scoring', scoring);
      wellFormed(result);
      expect(result.races).toHaveLength(1);
      expect(result.standings.length).toBeGreaterThan(20);
      for (const s of result.standings)
        for (const c of s.counted)
          if (scoring === 'place') expect([0, ...PLACE_POINTS]).toContain(c.points);
          else expect(c.points).toBeLessThanOrEqual(100);
      // Someone of the club won a class: 25 and 100 points.
      expect(result.standings[0]!.counted[0]!.points).toBe(scoring === 'place' ? 25 : 100);
    }
    const big = path.join(iof!, 'real', 'quickevent_results_kam-2025-10-18_splits.xml');
    const result = await json(big, '--club', 'KAM', '--scoring', 'winner-ratio', '--best', '3');
    wellFormed(result);
    expect(result.standings.length).toBeGreaterThan(5);
  });

  it('the official two-stage example: each stage its own race; a file of another kind is refused', async () => {
    const stages = path.join(iof!, 'official', 'examples', 'ResultList3.xml');
    const result = await json(stages, '--club', '5', '--scoring', 'place');
    wellFormed(result);
    expect(result.races.map((r) => r.race)).toEqual([1, 2]);
    const start = path.join(iof!, 'official', 'examples', 'StartList1.xml');
    const refused = await cup(start, '--club', '5', '--scoring', 'place');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'is a StartList; cup reads an IOF XML 3.0 ResultList or an Eventor native ResultList',
    );
  });
});
