/**
 * A sandbox Eventor dataset and the sandbox LiveResultat over it, on a clock the test moves by hand
 * (from the test instant, test/README.md#the-test-instant), the real client's two sources pointed
 * at it, and the races worth following: one individual race with the home club's runners, and one
 * relay.
 */
import { createLiveSources, type LiveHttpOptions, type LiveSource } from '../../src/live/index.js';
import { SandboxDataset } from '../../harness/sandbox/eventor/dataset.js';
import {
  type LiveCompetitionRecord,
  type LiveOptions,
  type LiveRaceRecord,
  type SandboxLiveResultat,
  startSandboxLiveResultat,
} from '../../harness/sandbox/liveresultat/index.js';
import { testNow } from './clock.js';

export interface LiveTestWorld {
  dataset: SandboxDataset;
  live: SandboxLiveResultat;
  /** The sandbox clock, in epoch ms. */
  now(): number;
  setNow(ms: number): void;
  /** The home club's short name, as the sandbox uploads club names. */
  homeClub: string;
  /** The client's sources on the sandbox; short timeouts and backoff unless `http` says otherwise. */
  sources: { rest: LiveSource; legacy: LiveSource };
  close(): Promise<void>;
}

export async function startLiveTestWorld(
  options: Partial<LiveOptions> = {},
  http: Partial<LiveHttpOptions> = {},
): Promise<LiveTestWorld> {
  let now = testNow().getTime();
  const clock = () => new Date(now);
  const dataset = new SandboxDataset({ seed: 1, now: testNow(), clock });
  const live = await startSandboxLiveResultat({ dataset, now: clock, options });
  const sources = createLiveSources(
    { restUrl: live.restUrl, legacyUrl: live.legacyUrl },
    { userAgent: 'eventor-bot-test', timeoutMs: 5_000, baseDelayMs: 1, maxDelayMs: 5, ...http },
  );
  return {
    dataset,
    live,
    now: () => now,
    setNow(ms) {
      now = ms;
    },
    homeClub: dataset.homeClub.organisation.shortName ?? dataset.homeClub.name,
    sources,
    async close() {
      await sources.rest.close();
      await sources.legacy.close();
      await live.close();
    },
  };
}

/** What picking a race reads: the sandbox Eventor's data, the sandbox LiveResultat over it, the home club's name there. */
export type LiveRaceSource = Pick<LiveTestWorld, 'dataset' | 'live' | 'homeClub'>;

/** The number of the home club's runners of a race (ghost rows not counted). */
function homeRunners(world: LiveRaceSource, race: LiveRaceRecord): number {
  return race.classes.reduce((n, c) => n + c.runners.filter((r) => !r.ghost && r.club === world.homeClub).length, 0);
}

/**
 * The first individual race of the past 60 days with home-club runners in at least three classes,
 * an MP or a DNF among them, and a late correction of a club runner.
 */
export function clubRace(world: LiveRaceSource): { competition: LiveCompetitionRecord; race: LiveRaceRecord } {
  // The data's own "now", not the clock, which tests move.
  const today = world.dataset.now.toISOString().slice(0, 10);
  for (const competition of world.live.world.competitions) {
    if (competition.eventId === null || competition.date >= today) continue;
    const ev = world.dataset.event(competition.eventId);
    if (ev?.shape !== 'single') continue;
    const race = world.live.world.race(competition.id)!;
    const club = race.classes.filter((c) => c.runners.some((r) => !r.ghost && r.club === world.homeClub));
    const failed = club.some((c) =>
      c.runners.some((r) => r.club === world.homeClub && (r.final?.status === 3 || r.final?.status === 2)),
    );
    const corrected = club.some((c) => c.runners.some((r) => r.club === world.homeClub && r.correction !== null));
    if (club.length >= 3 && failed && corrected && homeRunners(world, race) >= 5) return { competition, race };
  }
  throw new Error(`no past race with enough home-club runners before ${today}`);
}

/** The first relay with a home-club team. */
export function clubRelay(world: LiveRaceSource): { competition: LiveCompetitionRecord; race: LiveRaceRecord } {
  for (const competition of world.live.world.competitions) {
    if (competition.eventId === null || world.dataset.event(competition.eventId)?.shape !== 'relay') continue;
    const race = world.live.world.race(competition.id)!;
    if (race.classes.some((c) => c.runners.some((r) => r.club.startsWith(`${world.homeClub} `))))
      return { competition, race };
  }
  throw new Error('no relay with a home-club team');
}

/** Epoch ms of a runner's start (hundredths after the race's midnight). */
export function startOf(race: LiveRaceRecord, start: number): number {
  return race.midnight + start * 10;
}

/** The earliest and the latest start of the race's runners, epoch ms. */
export function raceSpan(race: LiveRaceRecord): { firstStart: number; lastFinalAt: number } {
  const runners = race.classes.flatMap((c) => c.runners);
  const firstStart = Math.min(...runners.filter((r) => r.start !== null).map((r) => startOf(race, r.start!)));
  const lastFinalAt = Math.max(...runners.map((r) => Math.max(r.final?.at ?? 0, r.correction?.at ?? 0)));
  return { firstStart, lastFinalAt };
}
