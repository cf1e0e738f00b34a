/**
 * The competition's own clock (docs/live-results.md#time-zones): start times count from local
 * midnight of the competition day. The zone is the one the source names, else Swedish local time
 * shifted by `timediff` hours, which is how LiveResultat's own viewer reads it.
 */
import { isValidTimeZone, localToInstant } from '../time/zones.js';
import type { LiveCompetition } from './model.js';

const SWEDISH_TIME = 'Europe/Stockholm';

/** Epoch milliseconds of local midnight starting the competition day. */
export function competitionMidnight(competition: Pick<LiveCompetition, 'date' | 'timeZone' | 'timediff'>): number {
  if (competition.timeZone !== null && isValidTimeZone(competition.timeZone))
    return Date.parse(localToInstant(competition.date, '00:00:00', competition.timeZone)!);
  return Date.parse(localToInstant(competition.date, '00:00:00', SWEDISH_TIME)!) - competition.timediff * 3_600_000;
}

/** Whole seconds from the competition day's local midnight to `now` (negative before the day, past 86,400 after it). */
export function secondsIntoDay(
  competition: Pick<LiveCompetition, 'date' | 'timeZone' | 'timediff'>,
  now: Date,
): number {
  return Math.floor((now.getTime() - competitionMidnight(competition)) / 1000);
}

/** A start time (seconds after local midnight) as `HH:MM:SS`; past midnight the hours go on (25:10:00). */
export function clockText(secondsAfterMidnight: number): string {
  const h = Math.floor(secondsAfterMidnight / 3600);
  const m = Math.floor((secondsAfterMidnight % 3600) / 60);
  const s = secondsAfterMidnight % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

/** The IANA zone the competition runs in, when it can be named: the source's, or Swedish time when `timediff` is 0. */
export function competitionZone(competition: Pick<LiveCompetition, 'timeZone' | 'timediff'>): string | null {
  if (competition.timeZone !== null && isValidTimeZone(competition.timeZone)) return competition.timeZone;
  return competition.timediff === 0 ? SWEDISH_TIME : null;
}
