import { describe, expect, it } from 'vitest';
import { formatFigure } from '../../harness/bench/figure.js';
import {
  DIGEST_TARGET_PER_WEEK,
  measureEventorRequests,
  requestsFigures,
  WEEKEND_TARGET_PER_HOUR,
} from '../../harness/bench/requests.js';

describe('bench: Eventor requests per hour, and as servers grow', () => {
  it("the section's figures: servers of one club ask no more than one, of K clubs no more than K single-club bots", async () => {
    const lines: string[] = [];
    const figures = await requestsFigures((line) => void lines.push(line), {
      weekendHours: 3,
      servers: 3,
      clubs: 2,
      calendarHours: 72,
    });
    // Three hours from Thursday do not reach the race day: its figure says so and is left out.
    expect(figures.map((f) => f.name)).toEqual([
      'eventor-requests-per-hour-1-servers',
      'eventor-requests-digest-per-week',
      'eventor-requests-race-day-3-servers',
      'eventor-requests-race-day-3-servers-2-clubs',
      'eventor-requests-calendar-per-club-week',
    ]);
    expect(lines).toContain('# race day: not covered by the 3 h simulated');
    const [weekend, digest, sameClub, twoClubs] = figures;
    expect(weekend!.value).toBeGreaterThan(0);
    expect(weekend!.target).toBe(WEEKEND_TARGET_PER_HOUR);
    // The digest posts once in its window, and asks something of its own for it (the entries of
    // races whose start list is not out), within its target.
    expect(digest!.value).toBeGreaterThan(0);
    expect(digest!.target).toBe(DIGEST_TARGET_PER_WEEK);
    expect(formatFigure(digest!)).toMatch(/^BENCH eventor-requests-digest-per-week \d+ req\/week target <= 3$/);
    expect(lines.some((l) => l.startsWith("#   the digest's own: /api/entries 1"))).toBe(true);
    // The targets come from the one-server race day run, printed beside them.
    const alone = /^# race day alone: 1 server (\d+\.\d) req\/h/.exec(
      lines.find((l) => l.startsWith('# race day alone')) ?? '',
    );
    expect(alone).not.toBeNull();
    expect(sameClub!.target.toFixed(1)).toBe(alone![1]);
    expect(twoClubs!.target).toBeCloseTo(2 * sameClub!.target, 6);
    for (const figure of figures) {
      expect(figure.value).toBeLessThanOrEqual(figure.target);
      if (figure === digest) continue;
      expect(formatFigure(figure)).toMatch(
        /^BENCH eventor-requests-[a-z0-9-]+ \d+(\.\d+)? req\/(h|week) target <= \d+(\.\d+)?$/,
      );
    }
    // The calendar kind asks Eventor: its events and the club's entry counts.
    expect(figures.at(-1)!.value).toBeGreaterThan(0);
    expect(lines.filter((l) => l.startsWith('#   by path: /api/')).length).toBe(5);
  }, 120_000);

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
