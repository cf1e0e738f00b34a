/**
 * How often to ask about a competition (docs/live-results.md#polling): often while the club's
 * runners are out, rarely before the first start and after the last finish, never more often than
 * once per path every 10 seconds, stopped at the end of the competition day or once the board is
 * final; and how long to wait after failures. Pure: the caller says what it knows, this says when next.
 */
import type { LiveRunner } from './model.js';
import { statusAt } from './rows.js';

/** The shortest interval between two requests for one path, whatever the tier. */
export const MIN_INTERVAL_MS = 10_000;

export const TIER_INTERVALS_MS = {
  /** Before the first club start: the day's competitions and the competition itself. */
  before: 10 * 60_000,
  /** A club runner is out, or something changed in the last 5 minutes. */
  hot: 15_000,
  /** Club runners started, nothing changed for 5 minutes. */
  warm: 60_000,
  /** Every club runner has a final state: a late correction is still possible. */
  after: 10 * 60_000,
} as const;

/** How long "a change a moment ago" keeps the tier hot. */
export const HOT_AFTER_CHANGE_MS = 5 * 60_000;
/** How close to the first club start polling turns hot. */
export const HOT_BEFORE_START_S = 5 * 60;

export type Tier = keyof typeof TIER_INTERVALS_MS | 'stop';

export interface TierInput {
  /** The club's runners as last read. */
  runners: readonly LiveRunner[];
  /** Seconds after local midnight of the competition day, now (see `secondsIntoDay`). */
  secondsIntoDay: number;
  /** When the club's runners last changed (epoch ms), or null. */
  lastChangeAt: number | null;
  now: number;
  /** The board is final (Eventor's official results are out, or the admins closed it). */
  final: boolean;
}

export function pollTier(input: TierInput): { tier: Tier; everyMs: number | null } {
  if (input.final || input.secondsIntoDay >= 86_400) return { tier: 'stop', everyMs: null };
  const statuses = input.runners.map((runner) => statusAt(runner, input.secondsIntoDay));
  const out = statuses.some((status) => status === 'running');
  const waiting = input.runners.filter((runner, i) => statuses[i] === 'not-started');
  const firstStart = Math.min(...waiting.map((runner) => runner.start ?? Number.POSITIVE_INFINITY));
  const recentChange = input.lastChangeAt !== null && input.now - input.lastChangeAt < HOT_AFTER_CHANGE_MS;
  if (out || recentChange || firstStart - input.secondsIntoDay <= HOT_BEFORE_START_S)
    return { tier: 'hot', everyMs: TIER_INTERVALS_MS.hot };
  if (waiting.length > 0) {
    // Started runners waiting on later ones: warm, or before everyone's start.
    const anyStarted = statuses.some((status) => status !== 'not-started');
    return anyStarted
      ? { tier: 'warm', everyMs: TIER_INTERVALS_MS.warm }
      : { tier: 'before', everyMs: TIER_INTERVALS_MS.before };
  }
  return input.runners.length === 0
    ? { tier: 'before', everyMs: TIER_INTERVALS_MS.before }
    : { tier: 'after', everyMs: TIER_INTERVALS_MS.after };
}

/**
 * The wait after `failures` failed turns in a row: 30 s doubling up to 10 minutes, with up to a
 * fifth of it random so that many pollers do not come back together; never under MIN_INTERVAL_MS.
 */
export function failureBackoffMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(10 * 60_000, 30_000 * 2 ** Math.max(0, failures - 1));
  return Math.max(MIN_INTERVAL_MS, Math.round(base * (0.8 + 0.2 * random())));
}
