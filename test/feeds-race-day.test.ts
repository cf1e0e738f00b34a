import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSchedulerSession } from '../src/demo/scheduler-session.js';

/**
 * The demo's race weekend (part 3 of `npm run demo`: the sandbox with its fixed seed and its fixed
 * "now", the real scheduler on a simulated clock, a start list, results and a correction published
 * on the way) as recorded from `main` before the race-day saving of requests (issue 12 §2). Only
 * the closing count of Eventor requests is left out: fewer requests is the point.
 */
const RECORDED_TRANSCRIPT = new URL('./fixtures/race-weekend-transcript.txt', import.meta.url);

function withoutRequestCount(transcript: string): string {
  return transcript.replace(/; \d+ Eventor requests in all\./, '; <n> Eventor requests in all.');
}

describe('race day, politely: what one club costs Eventor on the day it races', () => {
  it('posts the same posts at the same times as before the saving: the demo race weekend, recorded', async () => {
    const lines: string[] = [];
    const session = await runSchedulerSession((line) => void lines.push(line));
    expect(session.problems).toEqual([]);
    expect(withoutRequestCount(`${lines.join('\n')}\n`)).toBe(readFileSync(RECORDED_TRANSCRIPT, 'utf8'));
  }, 240_000);
});
