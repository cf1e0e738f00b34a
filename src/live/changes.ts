/**
 * What changed for the club between two reads (docs/live-results.md#following-a-competition),
 * from the rows themselves: `api.php`'s hash also changes two minutes after a change with nothing
 * new, so a new token alone is never news.
 */
import type { LiveRunner, LiveStatus } from './model.js';
import { foldText } from './names.js';

/** States a runner ends the race in; a finish message is about one of these. */
export const FINAL_STATUSES: ReadonlySet<LiveStatus> = new Set(['finished', 'mp', 'dnf', 'dsq']);

/**
 * A runner's identity within a competition: class, name, club (folded) and start time, which tells
 * namesakes of one club and class apart; the services give rows no id.
 */
export function runnerKey(runner: Pick<LiveRunner, 'className' | 'name' | 'club' | 'start'>): string {
  return [...[runner.className, runner.name, runner.club].map(foldText), runner.start ?? ''].join('|');
}

export interface FinishNews {
  runner: LiveRunner;
  key: string;
  /** The runner had a final state before, and its status, time or place changed (a correction, a new place). */
  corrected: boolean;
}

/** The runners who reached a final state since `before` (null: nothing read before), and those whose final state changed. */
export function finishesSince(before: readonly LiveRunner[] | null, after: readonly LiveRunner[]): FinishNews[] {
  const earlier = new Map((before ?? []).map((runner) => [runnerKey(runner), runner]));
  const news: FinishNews[] = [];
  for (const runner of after) {
    if (!FINAL_STATUSES.has(runner.status)) continue;
    const key = runnerKey(runner);
    const was = earlier.get(key);
    if (was === undefined || !FINAL_STATUSES.has(was.status)) news.push({ runner, key, corrected: false });
    else if (was.status !== runner.status || was.time !== runner.time || was.place !== runner.place)
      news.push({ runner, key, corrected: true });
  }
  return news;
}
