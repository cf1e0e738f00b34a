import { describe, expect, it } from 'vitest';
import { formatFigure } from '../../harness/bench/figure.js';
import { nextFigures } from '../../harness/bench/next.js';

describe('bench: what /next and the day-before reminder cost Eventor', () => {
  it('/next asks a few requests cold and none a minute later; the reminder adds little to the evening', async () => {
    const lines: string[] = [];
    const figures = await nextFigures((line) => void lines.push(line));
    expect(figures.map((f) => f.name)).toEqual([
      'eventor-requests-next-cold',
      'eventor-requests-next-warm',
      'eventor-requests-day-before-reminder-extra',
    ]);
    const [cold, warm, extra] = figures;
    // The club's entries, the events and the person's start lists at least.
    expect(cold!.value).toBeGreaterThanOrEqual(3);
    expect(warm!.value).toBe(0);
    expect(extra!.value).toBeGreaterThanOrEqual(0);
    for (const figure of figures) {
      expect(figure.value).toBeLessThanOrEqual(figure.target);
      expect(formatFigure(figure)).toMatch(/^BENCH eventor-requests-[a-z-]+ \d+ req target <= \d+$/);
    }
    expect(lines.some((l) => l.startsWith('# /next of one linked person: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('# the evening before the race of '))).toBe(true);
  }, 60_000);
});
