import { describe, expect, it } from 'vitest';
import { countResults } from '../src/bench/count.js';
import { formatFigure, meetsTarget } from '../src/bench/figure.js';
import { runBench } from '../src/bench/main.js';
import { iofTreeFigure, wallClockTimes, zoneConversionFigure } from '../src/bench/kept.js';
import { smallestFittingLimit } from '../src/bench/parse.js';
import { localToInstant } from '../src/time/zones.js';
import { TZDate } from '@date-fns/tz';
import type { ResultList } from '../src/eventor/model.js';

describe('bench output', () => {
  it('prints one figure per line in the agreed shape', () => {
    expect(formatFigure({ name: 'parse-ratio', value: 1.23456, unit: 'x', op: '<=', target: 1.5 })).toBe(
      'BENCH parse-ratio 1.235 x target <= 1.5',
    );
  });

  it('tells whether a figure is within its target, either way round', () => {
    expect(meetsTarget({ name: 'a', value: 1.2, unit: 'x', op: '<=', target: 1.2 })).toBe(true);
    expect(meetsTarget({ name: 'a', value: 1.21, unit: 'x', op: '<=', target: 1.2 })).toBe(false);
    expect(meetsTarget({ name: 'b', value: 3, unit: 'x', op: '>=', target: 4 })).toBe(false);
  });

  it('refuses a section it does not have, naming the ones it has, before measuring anything', async () => {
    const lines: string[] = [];
    await expect(runBench({ only: ['nope'], write: (line) => lines.push(line) })).rejects.toThrow(
      /no bench section named nope \(there are parse, requests/,
    );
    expect(lines).toEqual([]);
  });

  it('counts race results and splits, the check that a measured parse read everything', () => {
    const result = {
      raceId: null,
      raceNumber: null,
      bibNumber: null,
      startTime: null,
      finishTime: null,
      time: 60,
      timeBehind: 0,
      position: 1,
      status: 'OK' as const,
      overall: null,
      course: null,
      cards: [],
      splits: [
        { controlCode: '31', time: 20, status: 'OK' as const },
        { controlCode: '32', time: 40, status: 'OK' as const },
      ],
    };
    const list: ResultList = {
      status: 'complete',
      event: { id: '1', name: 'E', event: null },
      classes: [
        {
          class: { id: '1', name: 'H21', shortName: null, resultListMode: 'Default' },
          numberOfEntries: null,
          numberOfStarts: null,
          courses: [],
          teams: [],
          persons: [{ person: null, organisation: null, results: [result, { ...result, splits: [] }] }],
        },
      ],
    };
    expect(countResults(list)).toEqual({ results: 2, splits: 2 });
  });
});

describe('bench: the hand-written pieces kept against their libraries', () => {
  it('times our IOF XML tree and fast-xml-parser on the same document and prints a figure with its target', () => {
    const lines: string[] = [];
    const xml = `<?xml version="1.0"?><ResultList xmlns="http://www.orienteering.org/datastandard/3.0">${'<ClassResult><Class><Name>H21</Name></Class></ClassResult>'.repeat(200)}</ResultList>`;
    const figure = iofTreeFigure(xml, (line) => lines.push(line), 1);
    expect(figure).toMatchObject({ name: 'iof-tree-vs-fast-xml-parser', unit: 'x', op: '<=', target: 1 });
    expect(figure.value).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^# IOF XML tree .*fast-xml-parser \d+ ms, ours \d+ ms$/);
  });

  it('converts the same wall-clock times both ways, and ours agrees with TZDate', () => {
    const times = wallClockTimes(500);
    expect(new Set(times.map((t) => t.date)).size).toBeGreaterThan(300);
    for (const { date, clock } of times.slice(0, 50)) {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const [h, mi, s] = clock.split(':').map(Number) as [number, number, number];
      const instant = new TZDate(y, m - 1, d, h, mi, s, 'Europe/Stockholm').getTime();
      const theirs = new Date(instant).toISOString().replace('.000Z', 'Z');
      // A time the clocks skipped is read differently by design (zones.ts); none of these 50 is one.
      expect(localToInstant(date, clock, 'Europe/Stockholm')).toBe(theirs);
    }
    const figure = zoneConversionFigure(1_000, () => {}, 1);
    expect(figure).toMatchObject({ name: 'zone-conversion-vs-tzdate', unit: 'x', op: '<=', target: 0.5 });
  });
});

describe('bench: the heap limit search', () => {
  // Each probe is a child process parsing the document: the search must need few of them.
  const fitsFrom = (smallest: number) => async (limitMb: number) => limitMb >= smallest;

  it('finds the smallest fitting limit to within 3 % in a few probes from a close guess, either side', async () => {
    for (const [smallest, guess] of [
      [100, 90],
      [100, 110],
      [100, 100],
      [370, 300],
    ] as const) {
      const found = await smallestFittingLimit(fitsFrom(smallest), guess, 10_000);
      expect(found.limitMb).toBeGreaterThanOrEqual(smallest);
      expect(found.limitMb).toBeLessThanOrEqual(smallest * 1.03);
      expect(found.probes).toBeLessThanOrEqual(7);
    }
  });

  it('says Infinity when nothing up to the ceiling fits', async () => {
    const found = await smallestFittingLimit(fitsFrom(5_000), 100, 400);
    expect(found.limitMb).toBe(Number.POSITIVE_INFINITY);
    expect(found.probes).toBeLessThanOrEqual(12);
  });
});
