/**
 * Placeholder values of results that are not OK. Timing programs fill the fields of disqualified,
 * mispunched or not-finished runners and teams with stand-ins: `Position` 0 or -1, `Time` 0, a
 * finish time at midnight (before the start). IOF XML 3.0 says a position means something only
 * when the status is OK, and neither a zero time nor a finish before the start is a time at all,
 * so both readers (IOF and native) drop them here, and nothing downstream shows "placed 0" or "0:00".
 */
import type { OverallResult, RaceResult, SplitTime, TeamResult } from './model.js';

/** A standing: a place and a time behind only when OK and real; no zero time. */
export function overallWithoutPlaceholders(overall: OverallResult): OverallResult {
  const ok = overall.status === 'OK';
  return {
    time: realTime(overall.time),
    timeBehind: ok ? overall.timeBehind : null,
    position: ok ? realPosition(overall.position) : null,
    status: overall.status,
  };
}

/** A runner's race (or a relay member's leg): standing fields as above, and no finish before the start. */
export function raceResultWithoutPlaceholders(result: RaceResult): RaceResult {
  const ok = result.status === 'OK';
  return {
    ...result,
    finishTime: realFinish(result.startTime, result.finishTime),
    time: realTime(result.time),
    timeBehind: ok ? result.timeBehind : null,
    position: ok ? realPosition(result.position) : null,
    splits: result.splits.some((s) => s.time !== null && s.time <= 0)
      ? result.splits.map(splitWithoutPlaceholder)
      : result.splits,
    overall: result.overall === null ? null : overallWithoutPlaceholders(result.overall),
  };
}

/** A relay team's own standing (its members are cleaned one by one by the readers). */
export function teamResultWithoutPlaceholders(team: TeamResult): TeamResult {
  const ok = team.status === 'OK';
  return {
    ...team,
    finishTime: realFinish(team.startTime, team.finishTime),
    time: realTime(team.time),
    timeBehind: ok ? team.timeBehind : null,
    position: ok ? realPosition(team.position) : null,
  };
}

function realPosition(position: number | null): number | null {
  return position !== null && position > 0 ? position : null;
}

function realTime(seconds: number | null): number | null {
  return seconds !== null && seconds > 0 ? seconds : null;
}

/** A finish at or before the start (midnight, typically) is a stand-in for "no finish". */
function realFinish(start: string | null, finish: string | null): string | null {
  if (finish === null || start === null) return finish;
  return Date.parse(finish) <= Date.parse(start) ? null : finish;
}

/** A punch at 0:00 (or before the start) is a missing punch written as a zero. */
function splitWithoutPlaceholder(split: SplitTime): SplitTime {
  if (split.time === null || split.time > 0) return split;
  return { ...split, time: null, status: split.status === 'OK' ? 'Missing' : split.status };
}
