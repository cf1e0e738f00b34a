import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureEventorRequests, RACE_DAY_TARGET_PER_HOUR } from '../../harness/bench/requests.js';
import { runSchedulerSession } from '../../harness/demo/scheduler-session.js';

/**
 * The demo's race weekend (part 3 of `npm run demo`: the sandbox with its fixed seed and its fixed
 * "now", the real scheduler on a simulated clock, a start list, results and a correction published
 * on the way) as recorded from `main` before the race-day saving of requests
 * (docs/decisions/race-day-requests.md), then once more when the results threads got their split
 * graphs (the same posts at the same times, the threads' messages added), again when a club
 * cup's standings were posted and edited (only the cup's lines added), when the posts' marker
 * became invisible (the same posts, without `<ref>`), and when the walk got its close after the
 * weekend (a deleted post and a refused permission; appended, the weekend unchanged). Only the
 * closing count of
 * Eventor requests is left out (fewer requests is the point), and the pictures' sizes in bytes.
 */
const RECORDED_TRANSCRIPT = new URL('../fixtures/race-weekend-transcript.txt', import.meta.url);

function withoutRequestCount(transcript: string): string {
  return (
    transcript
      .replace(/; \d+ Eventor requests in all\./, '; <n> Eventor requests in all.')
      // A picture's size in bytes may differ with the machine's image encoder, not with what it shows.
      .replace(/(\[file: [^,\]]+), \d+ bytes\]/g, '$1, <n> bytes]')
  );
}

describe('race day, politely: what one club costs Eventor on the day it races', () => {
  it(`costs at most ${RACE_DAY_TARGET_PER_HOUR} requests an hour, with one entries request an hour`, async () => {
    const run = await measureEventorRequests({ servers: 1 });
    const day = run.raceDay;
    expect(day).not.toBeNull();
    expect(day!.hours).toBe(24);
    const byPath = new Map(day!.byPath);
    // Results are still asked on every 5-minute run once the race has started ...
    expect(byPath.get('/api/results/organisation')).toBeGreaterThan(12 * 6);
    // ... while the club's entries are asked once an hour for every feed (and the calendar's day) ...
    expect(byPath.get('/api/entries')).toBeLessThanOrEqual(24 + 2);
    // ... and the events of the day are kept for the hour, not asked on every run.
    expect(byPath.get('/api/events')).toBeLessThanOrEqual(24 * 5);
    expect(day!.perHour).toBeLessThanOrEqual(RACE_DAY_TARGET_PER_HOUR);
  }, 240_000);

  // [SQLite only]: the recording holds the replies to commands as well, and a reply ready before
  // any I/O goes out as the first response (src/bot/first-answer.ts). On SQLite the store's reads
  // are no I/O; on PostgreSQL they are, so each reply is a deferral and an edit ("edited").
  it('[SQLite only] posts the same posts at the same times as before the saving: the demo race weekend, recorded', async () => {
    const lines: string[] = [];
    const session = await runSchedulerSession((line) => void lines.push(line));
    expect(session.problems).toEqual([]);
    expect(withoutRequestCount(`${lines.join('\n')}\n`)).toBe(readFileSync(RECORDED_TRANSCRIPT, 'utf8'));
  }, 240_000);
});
