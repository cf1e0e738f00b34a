/**
 * The split-time analysis over the real result lists with split times in ../shared/fixtures/iof:
 * for named runners the values were computed once and checked by hand against the file (the best
 * first leg, the places the producer wrote, the leg times of the mistakes). Every readable file is
 * also checked for what must hold whatever the data: best legs are the fastest leg times, they rank
 * 1, the ideal is their sum and no complete OK result beats it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultList } from '../../src/eventor/model.js';
import { parseXmlFile } from '../../src/eventor/parse-file.js';
import { analyseResultList } from '../../src/splits/result-list.js';
import { NEEDS_SHARED_FIXTURES, sharedFixtures } from '../support/shared-fixtures.js';

const IOF = sharedFixtures('iof');

interface Named {
  name: string;
  place: number | null;
  time: number | null;
  /** Leg ranks of the first legs. */
  ranks: (number | null)[];
  lost: number | null;
  /** Every mistake leg: the control it goes to and the seconds lost. */
  mistakes: [string, number | null][];
}

interface Case {
  file: string;
  class: string;
  race?: string;
  leg?: number;
  /** Courses (variants) in the class. */
  courses: number;
  /** Runners on the named runners' course. */
  runners: number;
  controls: number;
  ideal: number | null;
  /** The first best legs. */
  bestLegs: (number | null)[];
  named: Named[];
}

const CASES: Case[] = [
  {
    file: 'real/quickevent_results_kam-2025-10-18_splits.xml',
    class: 'H21C',
    courses: 1,
    runners: 86,
    controls: 28,
    ideal: 1788,
    bestLegs: [103, 40, 24],
    named: [
      { name: 'Baptiste Rollier', place: 1, time: 1940, ranks: [11, 15, 14, 12], lost: 0, mistakes: [] },
      {
        name: 'Patrik Sedláček',
        place: 3,
        time: 1993,
        ranks: [1, 3, 3, 2],
        lost: 44,
        mistakes: [
          ['44', 22],
          ['151', 22],
        ],
      },
    ],
  },
  {
    file: 'real/otime_results_2012-06-13_splits_iso-8859-1.xml',
    class: 'Lang',
    courses: 1,
    runners: 39,
    controls: 17,
    ideal: 2708,
    bestLegs: [114, 112, 103],
    named: [
      {
        name: 'Olav Eide',
        place: 1,
        time: 2940,
        ranks: [2, 2, 2, 14],
        lost: 155,
        mistakes: [
          ['127', 32],
          ['167', 48],
          ['152', 74],
        ],
      },
    ],
  },
  {
    file: 'real/sidroid_results_shk-2023-01-22_splits.xml',
    class: 'D',
    courses: 1,
    runners: 78,
    controls: 13,
    ideal: 986,
    bestLegs: [46, 180, 28],
    named: [
      { name: 'Pangrácová Anna', place: 1, time: 1012, ranks: [2, 2, 2, 1], lost: 0, mistakes: [] },
      {
        name: 'Kynčlová Anna',
        place: 3,
        time: 1098,
        ranks: [10, 1, 1, 59],
        lost: 65,
        mistakes: [
          ['105', 37],
          ['109', 28],
        ],
      },
    ],
  },
  {
    file: 'real/unknown-sw_results_miltonrigg-2014-01-18_splits_INVALID.xml',
    class: 'Green',
    courses: 1,
    runners: 44,
    controls: 11,
    ideal: 1557,
    bestLegs: [80, 74, 127],
    named: [
      { name: 'Andy Lewsley', place: 1, time: 1720, ranks: [3, 7, 2, 6], lost: 0, mistakes: [] },
      { name: 'Jeff Powell Davies', place: 3, time: 1762, ranks: [1, 5, 6, 2], lost: 114, mistakes: [['110', 114]] },
    ],
  },
  {
    file: 'real/os2010_relay-speaker-results_2015-01-25_splits_cp1252.xml',
    class: 'Men',
    leg: 1,
    courses: 1,
    runners: 15,
    controls: 6,
    ideal: 2078,
    bestLegs: [565, 932, 160],
    named: [
      { name: 'Tuomas Kotro', place: 1, time: 2097, ranks: [3, 5, 5, 1], lost: 0, mistakes: [] },
      { name: 'Vladimir Barchukov', place: 10, time: 2167, ranks: [7, 7, 1, 13], lost: 43, mistakes: [['40', 43]] },
    ],
  },
  {
    file: 'real/os2010_relay-results_wmtboc-2016_splits_cp1252.xml',
    class: 'M17',
    leg: 1,
    courses: 1,
    runners: 11,
    controls: 3,
    ideal: 1671,
    bestLegs: [1335, 307, 29],
    named: [{ name: 'Rodin Valery', place: 1, time: 1727, ranks: [1, 6, 7, 1], lost: 49, mistakes: [['100', 49]] }],
  },
  {
    file: 'real/oe2010_speaker-results_2015-03-02_splits_cp1252.xml',
    class: 'H20E',
    courses: 1,
    runners: 48,
    controls: 2,
    ideal: 3885,
    bestLegs: [2358, 1307, 220],
    named: [
      { name: 'Aaro Asikainen', place: 1, time: 4010, ranks: [3, 2, 1], lost: 0, mistakes: [] },
      {
        name: 'Leo Laakkonen',
        place: 2,
        time: 4040,
        ranks: [1, 4, 9],
        lost: 162,
        mistakes: [
          ['67', 134],
          ['F', 28],
        ],
      },
    ],
  },
  {
    file: 'real/ooresults_results_2023-01-15_splits.xml',
    class: 'Bahn A - Männer',
    courses: 1,
    runners: 4,
    controls: 4,
    ideal: 723,
    bestLegs: [67, 123, 152],
    named: [
      { name: 'Christian Lindner', place: 1, time: 801, ranks: [1, 1, 2, 1], lost: 62, mistakes: [['F', 62]] },
      {
        name: 'Olaf Scholz',
        place: 2,
        time: 971,
        ranks: [4, 2, 1, 2],
        lost: 168,
        mistakes: [
          ['121', 113],
          ['124', 55],
        ],
      },
    ],
  },
  {
    file: 'real/sportident-center_results_2024-06-22_splits.xml',
    class: 'Catégorie-3',
    courses: 1,
    runners: 4,
    controls: 28,
    ideal: 940,
    bestLegs: [31, 45, 29],
    named: [
      { name: 'Loic CAPBERN', place: 1, time: 968, ranks: [2, 2, 1, 1], lost: 0, mistakes: [] },
      { name: 'Mathias LATASTE', place: 4, time: 1049, ranks: [1, 4, 2, 1], lost: 63, mistakes: [['118', 63]] },
    ],
  },
  {
    file: 'real/helga_results_snapshot_individual_2019-01-24.xml',
    class: 'Open',
    courses: 2,
    runners: 4,
    controls: 1,
    ideal: 1129,
    bestLegs: [1086, 43],
    named: [{ name: 'Robert', place: 1, time: 1270, ranks: [1, 4], lost: 141, mistakes: [['F', 141]] }],
  },
  {
    file: 'official/examples/ResultList1.xml',
    class: 'Men Elite',
    courses: 2,
    runners: 1,
    controls: 5,
    ideal: 2001,
    bestLegs: [501, 219, 98],
    named: [{ name: 'George Wood', place: 1, time: 2001, ranks: [1, 1, 1, 1], lost: null, mistakes: [] }],
  },
  {
    file: 'official/examples/ResultList2.xml',
    class: 'Open',
    leg: 2,
    courses: 1,
    runners: 4,
    controls: 3,
    ideal: 1225,
    bestLegs: [601, 348, 239],
    named: [
      { name: 'Penny Fisher', place: 1, time: 1225, ranks: [1, 1, 1, 1], lost: 0, mistakes: [] },
      { name: 'Anne Collins', place: 3, time: 1375, ranks: [3, 3, 3, 3], lost: 71, mistakes: [['100', 71]] },
    ],
  },
  {
    file: 'official/examples/ResultList3.xml',
    class: 'Men Elite',
    race: '1',
    courses: 2,
    runners: 1,
    controls: 5,
    ideal: 2001,
    bestLegs: [501, 219, 98],
    named: [{ name: 'George Wood', place: 1, time: 2001, ranks: [1, 1, 1, 1], lost: null, mistakes: [] }],
  },
  {
    file: 'edge-cases/splitsbrowser_fractional-times.xml',
    class: 'Class 1',
    courses: 1,
    runners: 3,
    controls: 3,
    ideal: 712,
    bestLegs: [108.2, 244, 148.7],
    named: [
      { name: 'First Runner', place: 1, time: 734.7, ranks: [1, 3, 1, 1], lost: 0, mistakes: [] },
      {
        name: 'Third Runner',
        place: 2,
        time: 813,
        ranks: [2, 1, 3, 2],
        lost: 95,
        mistakes: [
          ['212', 72],
          ['208', 23],
        ],
      },
    ],
  },
  {
    file: 'edge-cases/splitsbrowser_negative-split.xml',
    class: 'Class 1',
    courses: 1,
    runners: 3,
    controls: 3,
    ideal: 712,
    bestLegs: [108, 244, 149],
    named: [
      { name: 'First Runner', place: 1, time: 734, ranks: [1, 2, 1, 1], lost: 0, mistakes: [] },
      { name: 'Second Runner', place: 3, time: 852, ranks: [null, null, 2, 3], lost: 0, mistakes: [] },
    ],
  },
];

function analyse(file: string) {
  const parsed = parseXmlFile(readFileSync(path.join(IOF!, file)));
  expect(parsed.root).toBe('ResultList');
  return analyseResultList(parsed.data as ResultList);
}

describe.skipIf(IOF === null)(`split analysis of real result lists ${NEEDS_SHARED_FIXTURES}`, () => {
  for (const c of CASES) {
    it(`${c.file}: ${c.class}${c.race ? ` race ${c.race}` : ''}${c.leg ? ` leg ${c.leg}` : ''}`, () => {
      const group = analyse(c.file).find(
        (g) => g.class === c.class && g.race === (c.race ?? null) && g.leg === (c.leg ?? null),
      )!;
      expect(group.courses).toHaveLength(c.courses);
      const course = group.courses.find((k) => k.results.some((r) => r.name === c.named[0]!.name))!;
      expect(course.results).toHaveLength(c.runners);
      expect(course.controls).toHaveLength(c.controls);
      expect(course.ideal).toBe(c.ideal);
      expect(course.bestLegs.slice(0, c.bestLegs.length)).toEqual(c.bestLegs);
      for (const named of c.named) {
        const r = course.results.find((x) => x.name === named.name)!;
        expect({
          name: r.name,
          place: r.place,
          time: r.time,
          ranks: r.legs.map((l) => l.rank).slice(0, named.ranks.length),
          lost: r.lost,
          mistakes: r.legs.filter((l) => l.mistake).map((l) => [l.to, l.lost]),
        }).toEqual(named);
      }
    });
  }

  it('every readable result list with split times keeps the invariants of the analysis', () => {
    const files = readdirSync(IOF!, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.xml'))
      .filter((f) => readFileSync(path.join(IOF!, f), 'latin1').includes('<SplitTime'))
      .sort();
    let checked = 0;
    for (const file of files) {
      let classes;
      try {
        classes = analyse(file);
      } catch (error) {
        // The two files no IOF 3.0 reader should take: comma decimals and IOF 2.0.3.
        expect(file).toMatch(/comma-decimal_INVALID|iof-2\.0\.3/);
        expect((error as Error).message).not.toBe('');
        continue;
      }
      checked += 1;
      for (const course of classes.flatMap((g) => g.courses)) {
        course.bestLegs.forEach((best, k) => {
          const times = course.results.map((r) => r.legs[k]!.time).filter((t): t is number => t !== null);
          expect(best, file).toBe(times.length === 0 ? null : Math.min(...times));
          for (const r of course.results)
            if (r.legs[k]!.time === best && best !== null) expect(r.legs[k]!.rank).toBe(1);
        });
        if (course.ideal !== null) {
          const sum = course.bestLegs.reduce<number>((s, b) => s + b!, 0);
          expect(course.ideal, file).toBeCloseTo(sum, 6);
          for (const r of course.results)
            if (r.status === 'OK' && r.legs.every((l) => l.time !== null))
              expect(r.time!, file).toBeGreaterThanOrEqual(course.ideal - 1e-6);
        }
        for (const r of course.results)
          if (r.status !== 'OK')
            expect([r.place, r.lost, r.legs.some((l) => l.mistake)], file).toEqual([null, null, false]);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});
