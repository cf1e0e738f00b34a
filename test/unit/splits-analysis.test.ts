/**
 * The split-time analysis of docs/splits.md on hand-made courses: the worked example whose every
 * value was computed by hand, then the edge cases real files bring (ties, missing punches, times
 * that go backwards, mispunches, forked classes, relays and multi-race lists).
 */
import { describe, expect, it } from 'vitest';
import type { ResultStatus } from '../../src/eventor/model.js';
import { analyseCourse, MISTAKE_MIN_FRACTION, MISTAKE_MIN_SECONDS } from '../../src/splits/analysis.js';
import { analyseResultList, type ResultListLike } from '../../src/splits/result-list.js';
import { runner } from '../support/split-runners.js';

const field = <K extends 'time' | 'rank' | 'behind' | 'lost' | 'mistake'>(
  course: ReturnType<typeof analyseCourse>,
  name: string,
  key: K,
) => course.results.find((r) => r.name === name)!.legs.map((l) => l[key]);

describe('the worked example: four runners, four controls, one mispunch', () => {
  const codes = ['31', '32', '33', '34'];
  const course = analyseCourse(codes, [
    runner('A', codes, [100, 292, 442, 742], 794),
    runner('B', codes, [100, 280, 520, 820], 874),
    runner('C', codes, [120, 396, 576, 936], 986),
    runner('D', codes, [110, 310, null, 610], 665, 'MissingPunch'),
  ]);

  it('takes best legs from every runner with a leg time, the mispunched one included', () => {
    expect(course.controls).toEqual(codes);
    expect(course.bestLegs).toEqual([100, 180, 150, 300, 50]);
    expect(course.ideal).toBe(780);
    expect(course.tooFewRunners).toBe(false);
  });

  it('gives leg times, the finish leg last, with null around the missing punch', () => {
    expect(field(course, 'A', 'time')).toEqual([100, 192, 150, 300, 52]);
    expect(field(course, 'D', 'time')).toEqual([110, 200, null, null, 55]);
    expect(course.results.find((r) => r.name === 'A')!.legs.map((l) => l.to)).toEqual([...codes, 'F']);
  });

  it('ranks legs with competition ranking (1, 1, 3) among every runner with a time', () => {
    expect(field(course, 'A', 'rank')).toEqual([1, 2, 1, 1, 2]);
    expect(field(course, 'B', 'rank')).toEqual([1, 1, 3, 1, 3]);
    expect(field(course, 'C', 'rank')).toEqual([4, 4, 2, 3, 1]);
    expect(field(course, 'D', 'rank')).toEqual([3, 3, null, null, 4]);
  });

  it('gives the time behind the ideal at every control, the skip showing as ahead', () => {
    expect(field(course, 'A', 'behind')).toEqual([0, 12, 12, 12, 14]);
    expect(field(course, 'B', 'behind')).toEqual([0, 0, 90, 90, 94]);
    expect(field(course, 'C', 'behind')).toEqual([20, 116, 146, 206, 206]);
    expect(field(course, 'D', 'behind')).toEqual([10, 30, null, -120, -115]);
  });

  it('estimates normal performance and marks the mistakes of B (90 s) and C (60 s) only', () => {
    const byName = (name: string) => course.results.find((r) => r.name === name)!;
    expect(byName('A').performance).toBe(1);
    expect(byName('B').performance).toBe(1);
    expect(byName('C').performance).toBeCloseTo(5 / 6, 10);
    expect(field(course, 'A', 'lost')).toEqual([0, 12, 0, 0, 2]);
    expect(field(course, 'A', 'mistake')).toEqual([false, false, false, false, false]);
    expect(field(course, 'B', 'lost')).toEqual([0, 0, 90, 0, 4]);
    expect(field(course, 'B', 'mistake')).toEqual([false, false, true, false, false]);
    // C's finish leg was 10 s faster than expected: no loss, not a negative one.
    expect(field(course, 'C', 'lost')).toEqual([0, 60, 0, 0, 0]);
    expect(field(course, 'C', 'mistake')).toEqual([false, true, false, false, false]);
    expect([byName('A').lost, byName('B').lost, byName('C').lost]).toEqual([0, 90, 60]);
  });

  it('gives the mispunched runner no performance, losses or mistakes', () => {
    const d = course.results.find((r) => r.name === 'D')!;
    expect(d.performance).toBeNull();
    expect(d.lost).toBeNull();
    expect(d.legs.every((l) => l.lost === null && !l.mistake)).toBe(true);
  });
});

describe('edge cases', () => {
  const codes = ['40', '41'];

  it('shares tied leg ranks and skips the next (1, 1, 3), also with tenths', () => {
    const course = analyseCourse(codes, [
      runner('P', codes, [60.1, 120], 180),
      runner('Q', codes, [60.1, 130], 190),
      runner('R', codes, [60.3, 125], 185),
    ]);
    expect(course.results.map((r) => r.legs[0]!.rank)).toEqual([1, 1, 3]);
    expect(course.bestLegs[0]).toBe(60.1);
    expect(course.results.map((r) => r.legs[0]!.time)).toEqual([60.1, 60.1, 60.3]);
  });

  it('blanks the legs to and from a missing punch, and the runner keeps the rest', () => {
    const course = analyseCourse(
      ['1', '2', '3'],
      [
        runner('P', ['1', '2', '3'], [50, null, 150], 200),
        runner('Q', ['1', '2', '3'], [55, 100, 160], 210),
        runner('R', ['1', '2', '3'], [52, 105, 155], 205),
      ],
    );
    const p = course.results.find((r) => r.name === 'P')!;
    expect(p.legs.map((l) => l.time)).toEqual([50, null, null, 50]);
    expect(p.legs.map((l) => l.behind)).toEqual([0, null, 5, 5]);
    expect(course.bestLegs).toEqual([50, 45, 50, 50]);
    // OK despite the missing time: still a loss estimate on the legs it has.
    expect(p.performance).not.toBeNull();
  });

  it('treats a time earlier than one before it as missing', () => {
    const course = analyseCourse(codes, [
      runner('Clock', codes, [90, 80], 200),
      runner('Q', codes, [60, 130], 190),
      runner('R', codes, [65, 125], 185),
    ]);
    const clock = course.results.find((r) => r.name === 'Clock')!;
    expect(clock.legs.map((l) => l.time)).toEqual([90, null, null]);
    expect(clock.legs.map((l) => l.rank)).toEqual([3, null, null]);
    expect(course.bestLegs).toEqual([60, 60, 60]);
  });

  it('keeps a result time earlier than the last control, dropping that control time', () => {
    const course = analyseCourse(codes, [runner('P', codes, [60, 130], 120)]);
    expect(course.results[0]!.time).toBe(120);
    expect(course.results[0]!.legs.map((l) => l.time)).toEqual([60, null, null]);
    expect(course.ideal).toBeNull();
    expect(course.tooFewRunners).toBe(true);
  });

  it('counts a mispunched or non-finishing runner for best legs but gives no place or loss', () => {
    const list = classList('H21', [
      person('Fast MP', codes, [50, 100], 150, 'MissingPunch'),
      person('DNF', codes, [70, null], null, 'DidNotFinish'),
      person('OK 1', codes, [60, 120], 180),
      person('OK 2', codes, [62, 125], 190),
    ]);
    const [cls] = analyseResultList(list);
    const course = cls!.courses[0]!;
    expect(course.bestLegs).toEqual([50, 50, 50]);
    const mp = course.results.find((r) => r.name === 'Fast MP')!;
    expect(mp.place).toBeNull();
    expect(mp.legs.map((l) => l.rank)).toEqual([1, 1, 1]);
    expect(mp.lost).toBeNull();
    const dnf = course.results.find((r) => r.name === 'DNF')!;
    expect(dnf.legs.map((l) => l.time)).toEqual([70, null, null]);
    expect(course.results.filter((r) => r.status === 'OK').map((r) => [r.name, r.place])).toEqual([
      ['OK 1', 1],
      ['OK 2', 2],
    ]);
  });

  it('splits a forked class into courses and places across them', () => {
    const a = ['31', '32', '33'];
    const b = ['31', '33', '32'];
    const list = classList('D21', [
      person('A1', a, [60, 120, 180], 240),
      person('B1', b, [55, 110, 170], 230),
      person('A2', a, [65, 130, 190], 250),
      person('A3', a, [70, 140, 200], 260),
      person('Nobody', [], [], null, 'DidNotStart'),
    ]);
    const [cls] = analyseResultList(list);
    expect(cls!.courses.map((c) => c.controls)).toEqual([a, b]);
    expect(cls!.courses.map((c) => c.tooFewRunners)).toEqual([false, true]);
    expect(cls!.courses[1]!.results[0]!.legs.map((l) => l.rank)).toEqual([1, 1, 1, 1]);
    const places = Object.fromEntries(cls!.courses.flatMap((c) => c.results.map((r) => [r.name, r.place])));
    expect(places).toEqual({ B1: 1, A1: 2, A2: 3, A3: 4 });
  });

  it('analyses relay legs and the races of a multi-race list apart', () => {
    const member = (name: string, leg: number, cumulative: number[], time: number) => ({
      person: { name: { given: name, family: '' } },
      leg,
      result: { ...raceResult(codes, cumulative, time, 'OK'), raceNumber: 1 },
    });
    const relay: ResultListLike = {
      classes: [
        {
          class: { name: 'Relay' },
          persons: [],
          teams: [
            { name: 'T1', members: [member('L1a', 1, [60, 120], 180), member('L2a', 2, [70, 140], 200)] },
            { name: 'T2', members: [member('L1b', 1, [65, 125], 185), member('L2b', 2, [75, 150], 210)] },
          ],
        },
      ],
    };
    const legs = analyseResultList(relay);
    expect(legs.map((l) => [l.leg, l.courses[0]!.ideal])).toEqual([
      [1, 180],
      [2, 200],
    ]);

    const stages = classList('H21', [
      {
        person: { name: { given: 'Two', family: 'Stages' } },
        results: [
          { ...raceResult(codes, [60, 120], 180, 'OK'), raceNumber: 1 },
          { ...raceResult(codes, [90, 150], 210, 'OK'), raceNumber: 2 },
        ],
      },
    ]);
    expect(analyseResultList(stages).map((c) => [c.race, c.courses[0]!.ideal])).toEqual([
      ['1', 180],
      ['2', 210],
    ]);
  });

  it('names its thresholds as documented', () => {
    expect([MISTAKE_MIN_SECONDS, MISTAKE_MIN_FRACTION]).toEqual([20, 0.1]);
  });
});

function raceResult(
  codes: readonly string[],
  cumulative: readonly (number | null)[],
  time: number | null,
  status: ResultStatus,
) {
  const r = runner('', codes, cumulative, time, status);
  return { raceNumber: null, raceId: null, status, time, splits: r.splits };
}

function person(
  name: string,
  codes: readonly string[],
  cumulative: readonly (number | null)[],
  time: number | null,
  status: ResultStatus = 'OK',
) {
  return { person: { name: { given: name, family: '' } }, results: [raceResult(codes, cumulative, time, status)] };
}

function classList(name: string, persons: ResultListLike['classes'][number]['persons']): ResultListLike {
  return { classes: [{ class: { name }, persons, teams: [] }] };
}

describe('a control time after the result time', () => {
  it('is the wrong one, not every time after it', () => {
    const codes = ['1', '2', '3'];
    const course = analyseCourse(codes, [
      runner('Bad first', codes, [13642, 476, 632], 852),
      runner('Q', codes, [100, 350, 500], 700),
      runner('R', codes, [110, 360, 520], 720),
    ]);
    const bad = course.results.find((r) => r.name === 'Bad first')!;
    expect(bad.legs.map((l) => l.time)).toEqual([null, null, 156, 220]);
    expect(bad.legs.map((l) => l.behind)).toEqual([null, 126, 132, 152]);
  });
});
