/**
 * A race of a loopback world worth following live (docs/live-results.md#the-sandbox): a past
 * single race of the sandbox, whose competition the sandbox LiveResultat serves, with at least five
 * of the home club's runners and runners of two other clubs; its competition, its race as uploaded,
 * and the three clubs as LiveResultat names them (the home club first). The demo and the bench
 * follow it from before its first start.
 */
import type { LiveCompetitionRecord, LiveRaceRecord } from '../sandbox/liveresultat/index.js';
import type { LoopbackWorld } from './world.js';

export interface LiveRaceOfWorld {
  competition: LiveCompetitionRecord;
  race: LiveRaceRecord;
  clubs: [string, string, string];
  /** Epoch ms of the first start, and of the last upload (a finish, a status, a correction). */
  firstStart: number;
  lastUpload: number;
}

export function liveRaceOf(world: Pick<LoopbackWorld, 'live' | 'eventor'>, before: Date): LiveRaceOfWorld {
  const live = world.live;
  if (live === null) throw new Error('the world has no sandbox LiveResultat (start it with `live`)');
  const home = world.eventor.dataset.homeClub.organisation.shortName ?? world.eventor.dataset.homeClub.name;
  const today = before.toISOString().slice(0, 10);
  for (const competition of live.world.competitions) {
    if (competition.eventId === null || competition.date >= today) continue;
    if (world.eventor.dataset.event(competition.eventId)?.shape !== 'single') continue;
    const race = live.world.race(competition.id)!;
    const runners = race.classes.flatMap((c) => c.runners).filter((r) => !r.ghost);
    const counts = new Map<string, number>();
    for (const runner of runners) counts.set(runner.club, (counts.get(runner.club) ?? 0) + 1);
    if ((counts.get(home) ?? 0) < 5) continue;
    const others = [...counts.entries()]
      .filter(([club]) => club !== home)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([club]) => club);
    if (others.length < 2) continue;
    const starts = runners.flatMap((r) => (r.start === null ? [] : [race.midnight + r.start * 10]));
    const uploads = runners.map((r) => Math.max(r.final?.at ?? 0, r.correction?.at ?? 0));
    return {
      competition,
      race,
      clubs: [home, others[0]!, others[1]!],
      firstStart: Math.min(...starts),
      lastUpload: Math.max(...uploads),
    };
  }
  throw new Error(`no past sandbox race before ${today} with five home runners and two other clubs`);
}
