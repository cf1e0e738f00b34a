import { describe, expect, it } from 'vitest';
import { countResults } from '../src/bench/count.js';
import { formatFigure } from '../src/bench/figure.js';
import type { ResultList } from '../src/eventor/model.js';

describe('bench output', () => {
  it('prints one figure per line in the agreed shape', () => {
    expect(formatFigure({ name: 'parse-ratio', value: 1.23456, unit: 'x', op: '<=', target: 1.5 })).toBe(
      'BENCH parse-ratio 1.235 x target <= 1.5',
    );
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
