/**
 * What a server is shown of a live competition (docs/live-results.md#race-day-in-discord), pure:
 * its club's runners among those the poller read, the board's hash (what it shows, without the
 * moment it was read, so an unchanged board is never edited), the finish messages with their keys,
 * and what the poller keeps for every process to read (`live_snapshots`).
 */
import { z } from 'zod';
import { type ClubAliases, clubAliases, clubRunners } from '../../../live/clubs.js';
import { FINAL_STATUSES, runnerKey } from '../../../live/changes.js';
import { competitionMidnight, secondsIntoDay } from '../../../live/day.js';
import { LiveCompetition, LiveRunner } from '../../../live/model.js';
import { lastRadio, statusAt } from '../../../live/rows.js';
import { type MessagePayload, type RenderContext, renderFinishMessage } from '../../../render/index.js';
import { ledgerKey, sha256 } from '../../delivery/keys.js';
import { LIVE_FEED, type LiveRaceRecord } from './race.js';

/** What a poll of one competition left for every process: the competition and the followed clubs' runners. */
export const LiveSnapshot = z.object({
  competition: LiveCompetition,
  runners: z.array(LiveRunner),
  /** LiveResultat was failing at the last turns: this is the last state read. */
  failing: z.boolean(),
});
export type LiveSnapshot = z.infer<typeof LiveSnapshot>;

/** A stored snapshot, or null when there is none or it does not read. */
export function readSnapshot(text: string | null | undefined): LiveSnapshot | null {
  if (!text) return null;
  try {
    const parsed = LiveSnapshot.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A race's club, as its runners are told apart in the competition: Eventor's names and the admins'. */
export function aliasesOf(record: Pick<LiveRaceRecord, 'clubNames'>): ClubAliases {
  return clubAliases({ name: null }, record.clubNames);
}

/** The runners of one server's club among those read. */
export function runnersOf(record: Pick<LiveRaceRecord, 'clubNames'>, runners: readonly LiveRunner[]): LiveRunner[] {
  const aliases = aliasesOf(record);
  return aliases.keys.size === 0 ? [] : clubRunners(aliases, runners);
}

/**
 * The hash of what a board shows: each runner as it stands at this moment (a runner counts as out
 * from the start time on), whether it is final and links the results, whether the source is down.
 * The moment it was read is left out: the same runners read again are the same board.
 */
export function boardHash(
  competition: Pick<LiveCompetition, 'id' | 'name'>,
  runners: readonly LiveRunner[],
  seconds: number,
  state: { final: boolean; resultsUrl: string | null; failing: boolean },
): string {
  const shown = runners.map((r) => {
    const last = lastRadio(r);
    return [
      r.className,
      r.name,
      statusAt(r, seconds),
      r.start,
      r.time,
      r.place,
      r.behind,
      last === null ? null : [last.code, last.place, last.behind],
    ];
  });
  return sha256(JSON.stringify([competition.id, competition.name, shown, state]));
}

/** Whether every runner is home (or never started), so the race can be over for the club. */
export function allHome(runners: readonly LiveRunner[], seconds: number): boolean {
  return runners.every((r) => {
    const status = statusAt(r, seconds);
    return FINAL_STATUSES.has(status) || status === 'dns';
  });
}

export interface FinishItem {
  itemKey: string;
  payload: MessagePayload;
  /** What a finish message says that is its own: its status and time (a later place is no news; a corrected time is). */
  contentHash: string;
  /** When the runner finished (epoch ms), as well as can be told. */
  finishedAt: number;
}

/** When a runner finished: the start and the time on the competition's clock, else when the row last changed. */
function finishedAt(competition: LiveCompetition, runner: LiveRunner, now: number): number {
  if (runner.start !== null && runner.time !== null)
    return competitionMidnight(competition) + (runner.start + runner.time) * 1000;
  return runner.changedAt !== null ? runner.changedAt * 1000 : now;
}

/**
 * The finish messages of a race's club runners, in the order they finished. Two of the club's
 * runners of one class with the same given name are called by their whole names.
 */
export function finishItems(
  competition: LiveCompetition,
  runners: readonly LiveRunner[],
  race: { eventId: string; raceId: string },
  ctx: RenderContext,
): FinishItem[] {
  const given = (name: string) => (name.includes(',') ? (name.split(',')[1] ?? '') : name).trim().split(/\s+/)[0];
  const items: FinishItem[] = [];
  for (const runner of runners) {
    if (!FINAL_STATUSES.has(runner.status)) continue;
    const namesakes = runners.filter(
      (other) => other.className === runner.className && given(other.name) === given(runner.name),
    ).length;
    const payload = renderFinishMessage(runner, ctx, { fullName: namesakes > 1 });
    if (payload === null) continue;
    items.push({
      itemKey: ledgerKey(LIVE_FEED, race.eventId, race.raceId, 'finish', sha256(runnerKey(runner)).slice(0, 16)),
      payload,
      contentHash: sha256(JSON.stringify([runner.status, runner.time])),
      finishedAt: finishedAt(competition, runner, ctx.now.getTime()),
    });
  }
  return items.sort((a, b) => a.finishedAt - b.finishedAt || a.itemKey.localeCompare(b.itemKey));
}

/** Seconds into the competition day at `now`. */
export function secondsAt(competition: LiveCompetition, now: Date): number {
  return secondsIntoDay(competition, now);
}
