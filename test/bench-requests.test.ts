import { describe, expect, it } from 'vitest';
import { measureEventorRequests, requestsFigures } from '../src/bench/requests.js';

describe('bench: Eventor requests per hour as servers of one club grow', () => {
  it('3 servers make at most 3 times the requests of 1, and the figure lines have the bench format', async () => {
    const lines: string[] = [];
    const figures = await requestsFigures((line) => void lines.push(line), {
      servers: [1, 3],
      spread: [{ servers: 4, clubs: 2 }],
      hours: 3,
    });
    expect(figures.map((f) => f.name)).toEqual([
      'eventor-requests-per-hour-1-servers',
      'eventor-requests-per-hour-3-servers',
      'eventor-requests-per-hour-4-servers-2-clubs',
    ]);
    const [one, three, spread] = figures;
    expect(one!.value).toBeGreaterThan(0);
    expect(three!.value).toBeLessThanOrEqual(3 * one!.value);
    expect(three!.target).toBeCloseTo(3 * one!.value, 2);
    expect(spread!.target).toBeCloseTo(2 * one!.value, 2);
    const bench = lines.filter((l) => l.startsWith('BENCH '));
    expect(bench).toHaveLength(3);
    for (const line of bench)
      expect(line).toMatch(
        /^BENCH eventor-requests-per-hour-\d+-servers(-\d+-clubs)? \d+(\.\d+)? req\/h target <= \d+(\.\d+)?$/,
      );
    expect(lines.some((l) => /^# ratio 3\/1: \d+\.\d\d$/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('# 4 server(s) of 2 clubs'))).toBe(true);
  }, 30_000);

  it('counts requests over the window it simulated', async () => {
    const run = await measureEventorRequests({ servers: 1, hours: 1 });
    expect(run.hours).toBe(1);
    expect(run.clubs).toBe(1);
    expect(run.to.getTime() - run.from.getTime()).toBe(3_600_000);
    expect(run.perHour).toBe(run.requests);
  }, 15_000);

  it('servers of different clubs ask with their own keys, and more servers of the same clubs add no requests', async () => {
    const hours = 2;
    const two = await measureEventorRequests({ servers: 2, clubs: 2, hours });
    const four = await measureEventorRequests({ servers: 4, clubs: 2, hours });
    // Both clubs' own questions are asked (once per club: their servers share the club's client).
    expect(two.byPath.some(([path]) => path === '/api/activities')).toBe(true);
    expect(four.requests).toBe(two.requests);
  }, 30_000);

  it('simulates the race day alone when asked: local 00:00 to 24:00 of the race date, the whole run its race day', async () => {
    const run = await measureEventorRequests({ servers: 1, window: 'race-day', hours: 3 });
    expect(run.hours).toBe(24);
    expect(run.raceDay).not.toBeNull();
    expect(run.raceDay!.requests).toBe(run.requests);
    // Midnight in Stockholm (CEST in October): 22:00 UTC the day before.
    expect(run.from.toISOString()).toMatch(/T2[23]:00:00\.000Z$/);
    expect(run.from.toISOString() < `${run.raceDay!.date}T00:00:00.000Z`).toBe(true);
  }, 30_000);
});
