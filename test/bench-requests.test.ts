import { describe, expect, it } from 'vitest';
import { measureEventorRequests, requestsFigures } from '../src/bench/requests.js';

describe('bench: Eventor requests per hour as servers of one club grow', () => {
  it('3 servers make at most 3 times the requests of 1, and the figure lines have the bench format', async () => {
    const lines: string[] = [];
    const figures = await requestsFigures((line) => void lines.push(line), { servers: [1, 3], hours: 3 });
    expect(figures.map((f) => f.name)).toEqual(['eventor-requests-per-hour-1-servers', 'eventor-requests-per-hour-3-servers']);
    const [one, three] = figures;
    expect(one!.value).toBeGreaterThan(0);
    expect(three!.value).toBeLessThanOrEqual(3 * one!.value);
    expect(three!.target).toBeCloseTo(3 * one!.value, 2);
    const bench = lines.filter((l) => l.startsWith('BENCH '));
    expect(bench).toHaveLength(2);
    for (const line of bench) expect(line).toMatch(/^BENCH eventor-requests-per-hour-\d+-servers \d+(\.\d+)? req\/h target <= \d+(\.\d+)?$/);
    expect(lines.some((l) => /^# ratio 3\/1: \d+\.\d\d$/.test(l))).toBe(true);
  }, 20_000);

  it('counts requests over the window it simulated', async () => {
    const run = await measureEventorRequests({ servers: 1, hours: 1 });
    expect(run.hours).toBe(1);
    expect(run.to.getTime() - run.from.getTime()).toBe(3_600_000);
    expect(run.perHour).toBe(run.requests);
  }, 15_000);
});
