/**
 * /results split tables with the class's analysis (src/render/splits.ts): each leg's rank and the
 * time lost on it beside the leg and total times, found for the club's runner in the analysis of
 * the event's complete list, on lines that fit a phone in every language; without a figure, `-`.
 */
import { describe, expect, it } from 'vitest';
import { formatElapsed } from '../../src/eventor/time.js';
import type { RaceResult } from '../../src/eventor/model.js';
import type { Language } from '../../src/i18n/index.js';
import { renderClubResults, renderPersonResults } from '../../src/render/index.js';
import { SPLIT_LINE_MAX, splitLegsLookup, splitTable } from '../../src/render/splits.js';
import { analyseResultList } from '../../src/splits/result-list.js';
import {
  CLUB,
  classResult,
  ctx,
  OTHER,
  personResult,
  raceResult,
  resultList,
  textOf,
  validPayloads,
} from '../support/render-fixtures.js';

const CODES = ['31', '32', '33'];

/** A result with cumulative times at the controls (null: a missing punch) and a result time. */
function run(cumulative: (number | null)[], time: number | null, status: RaceResult['status'] = 'OK'): RaceResult {
  return raceResult({
    time,
    status,
    splits: cumulative.map((t, k) => ({ controlCode: CODES[k]!, time: t, status: t === null ? 'Missing' : 'OK' })),
  });
}

// Dag Berg (the club's) loses about two minutes on the leg to 32; Fia Lund (the club's) gives up after 32.
const list = resultList([
  classResult('H21', [
    personResult('1', 'Anna', 'Ek', OTHER, [run([100, 200, 300], 400)]),
    personResult('2', 'Bo', 'Al', OTHER, [run([105, 210, 315], 420)]),
    personResult('3', 'Cai', 'Ås', OTHER, [run([110, 220, 330], 440)]),
    personResult('4', 'Dag', 'Berg', CLUB, [run([100, 330, 430], 530)]),
    personResult('5', 'Eva', 'Lind', OTHER, [run([120, 240, 360], 480)]),
    personResult('6', 'Fia', 'Lund', CLUB, [run([115, 230, null], null, 'DidNotFinish')]),
  ]),
]);
const analyses = analyseResultList(list);
const course = analyses[0]!.courses[0]!;
const dag = course.results.find((r) => r.name === 'Dag Berg')!;
const lookup = splitLegsLookup(analyses);
const dagResult = list.classes[0]!.persons[3]!.results[0]!;

/** The lines of a fenced table, fences left out. */
const rows = (table: string): string[] => table.split('\n').slice(1, -1);
const cells = (line: string): string[] => line.trim().split(/\s+/);

describe('split table with leg ranks and time lost', () => {
  it('finds the runner in the analysis by class, name, status and time', () => {
    const found = lookup({ className: 'H21', name: 'Dag Berg', leg: null, result: dagResult });
    expect(found?.runner).toBe(dag);
    expect(lookup({ className: 'D21', name: 'Dag Berg', leg: null, result: dagResult })).toBeNull();
    expect(lookup({ className: 'H21', name: 'Dag Berg', leg: null, result: { ...dagResult, time: 531 } })).toBeNull();
    expect(lookup({ className: 'H21', name: 'Dag Berg', leg: 1, result: dagResult })).toBeNull();
  });

  it('shows each leg with its rank among every runner of the class and the time lost on it', () => {
    const table = splitTable(
      dagResult,
      'en',
      lookup({ className: 'H21', name: 'Dag Berg', leg: null, result: dagResult }),
    );
    const lines = rows(table);
    expect(cells(lines[0]!)).toEqual(['#', 'Code', 'Leg', 'Total', 'Rk', 'Lost']);
    // Leg 1: 1:40, as fast as the winner (ranks 1, 1, 3). Leg 2: 3:50, slowest of six.
    expect(cells(lines[1]!).slice(0, 5)).toEqual(['1', '31', '1:40', '1:40', '1']);
    expect(cells(lines[2]!).slice(0, 5)).toEqual(['2', '32', '3:50', '5:30', '6']);
    expect(dag.legs[1]!.mistake).toBe(true);
    expect(cells(lines[2]!)[5]).toBe(`+${formatElapsed(dag.legs[1]!.lost!)}`);
    expect(dag.legs[1]!.lost!).toBeGreaterThan(100);
    expect(cells(lines[4]!).slice(0, 4)).toEqual(['Finish', '1:40', '8:50', String(dag.legs[3]!.rank)]);
    for (const [k, line] of lines.slice(1).entries()) {
      const lost = dag.legs[k]!.lost!;
      expect(cells(line).at(-1)).toBe(Math.round(lost) === 0 ? '0' : `+${formatElapsed(lost)}`);
    }
  });

  it('shows the leg ranks of a runner who did not finish, and no time lost (only OK runners get one)', () => {
    const fia = list.classes[0]!.persons[5]!.results[0]!;
    const legs = lookup({ className: 'H21', name: 'Fia Lund', leg: null, result: fia });
    expect(legs).not.toBeNull();
    const lines = rows(splitTable(fia, 'en', legs));
    // 1:55 on leg 1 is the fifth of six; no finish row without a result time.
    expect(cells(lines[1]!)).toEqual(['1', '31', '1:55', '1:55', '5', '-']);
    expect(cells(lines[3]!)).toEqual(['3', '33', '-', '-', '-', '-']);
    expect(lines).toHaveLength(4);
  });

  it.each(['en', 'sv', 'nb'] as const)(
    'fits a phone in %s, even with hour-long legs, long codes and ranks in the hundreds',
    (language: Language) => {
      const long = raceResult({
        time: 36_100,
        splits: [{ controlCode: 'LONGCODE1', time: 32_400, status: 'OK' }],
      });
      const legs = {
        course: {
          controls: ['LONGCODE1'],
          bestLegs: [100, 100],
          legRunners: [412, 412],
          ideal: 200,
          tooFewRunners: false,
          tooLarge: false,
          results: [],
        },
        runner: {
          name: 'X',
          status: 'OK' as const,
          time: 36_100,
          place: 400,
          lost: 3_700,
          performance: 1,
          legs: [
            { to: 'LONGCODE1', time: 32_400, rank: 412, behind: 32_300, lost: 3_700, mistake: true },
            { to: 'F', time: 3_700, rank: 399, behind: 35_900, lost: 3_599, mistake: true },
          ],
        },
      };
      for (const table of [
        splitTable(long, language, legs),
        splitTable(dagResult, language, lookup({ className: 'H21', name: 'Dag Berg', leg: null, result: dagResult })),
      ]) {
        for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(SPLIT_LINE_MAX);
      }
      expect(splitTable(long, language, legs)).toContain('+1:01:40');
    },
  );
});

describe('/results with the analysis', () => {
  it("puts the ranks and losses under the club's runners in the club's results", () => {
    const pages = validPayloads(
      renderClubResults(list, ctx('sv'), {
        organisationId: '321',
        top: 1,
        splits: true,
        analyses: new Map([['1001', analyses]]),
      }),
    );
    const text = textOf(pages[0]!);
    expect(text).toMatch(/^\s*#\s+Kod\s+Sträcka\s+Tid\s+Pl\s+Tapp$/m);
    expect(text).toMatch(
      new RegExp(`^\\s*2\\s+32\\s+3:50\\s+5:30\\s+6\\s+\\+${formatElapsed(dag.legs[1]!.lost!)}$`, 'm'),
    );
    // The winner shown for context gets no table; Dag and Fia one each.
    expect(text.match(/```/g)).toHaveLength(4);
  });

  it('shows the plain table where the event was not analysed', () => {
    const text = textOf(
      validPayloads(renderClubResults(list, ctx('en'), { organisationId: '321', top: 0, splits: true }))[0]!,
    );
    expect(text).toMatch(/^\s*#\s+Code\s+Leg\s+Total$/m);
    expect(text).not.toContain('Lost');
  });

  it("puts them under a member's own results of an analysed event", () => {
    const own = resultList([classResult('H21', [list.classes[0]!.persons[3]!])]);
    const text = textOf(
      validPayloads(
        renderPersonResults('Dag Berg', [own], ctx('nb'), {
          splits: true,
          personId: '4',
          analyses: new Map([['1001', analyses]]),
        }),
      )[0]!,
    );
    expect(text).toMatch(/^\s*#\s+Post\s+Strekk\s+Tid\s+Pl\s+Tap$/m);
    expect(text).toMatch(/^\s*2\s+32\s+3:50\s+5:30\s+6\s+\+\d+:\d\d$/m);
  });
});
