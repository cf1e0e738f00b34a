/**
 * The split analysis in words (src/render/split-analysis.ts) on the worked example of
 * docs/splits.md: mistakes named largest first with their leg rank, the total, and one line saying
 * why when there is no estimate, in every language.
 */
import { describe, expect, it } from 'vitest';
import { analyseCourse } from '../../src/splits/analysis.js';
import { runnerAnalysisLines } from '../../src/render/split-analysis.js';
import { runner } from '../support/split-runners.js';

const codes = ['31', '32', '33', '34'];
const course = analyseCourse(codes, [
  runner('A', codes, [100, 292, 442, 742], 794),
  runner('B', codes, [100, 280, 520, 820], 874),
  runner('C', codes, [120, 396, 576, 936], 986),
  runner('D', codes, [110, 310, null, 610], 665, 'MissingPunch'),
]);
const named = (name: string) => course.results.find((r) => r.name === name)!;

describe('runnerAnalysisLines', () => {
  it('counts the runners with a time on each leg: the "of" of a leg rank', () => {
    expect(course.legRunners).toEqual([4, 4, 3, 3, 4]);
    expect(runnerAnalysisLines(course, named('C'), 'en')[0]).toMatch(/\(leg rank \d+\/4\)$/);
  });

  it('names each mistake with its leg rank, largest first, then the total', () => {
    const c = named('C');
    const mistakes = c.legs.map((l, k) => ({ l, k })).filter(({ l }) => l.mistake);
    expect(mistakes.length).toBeGreaterThan(0);
    const lines = runnerAnalysisLines(course, c, 'en');
    expect(lines).toHaveLength(mistakes.length + 1);
    const largest = [...mistakes].sort((a, b) => b.l.lost! - a.l.lost!)[0]!;
    const at = largest.k === codes.length ? 'the finish' : `control ${largest.k + 1}`;
    expect(lines[0]).toMatch(new RegExp(`^lost \\d+:\\d\\d at ${at} \\(leg rank ${largest.l.rank}/\\d+\\)$`));
    expect(lines.at(-1)).toMatch(/^about \d+:\d\d in mistakes over the course$/);
  });

  it('says why there is no estimate for a runner who mispunched', () => {
    expect(runnerAnalysisLines(course, named('D'), 'en')).toEqual([
      'no estimate of time lost: only runners with a valid result get one',
    ]);
  });

  it('speaks Swedish and Norwegian', () => {
    expect(runnerAnalysisLines(course, named('C'), 'sv').at(-1)).toMatch(/^cirka \d+:\d\d i bommar under banan$/);
    expect(runnerAnalysisLines(course, named('C'), 'nb').at(-1)).toMatch(/^omtrent \d+:\d\d i bom gjennom løypa$/);
  });
});
