/**
 * The LiveResultat client (src/live) over real HTTP against the sandbox LiveResultat: both APIs
 * read into one model, conditional requests on every read, the fallback to api.php and back, and
 * every fault the sandbox can make met with one typed error and nothing half-read.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient, LiveError, type LiveSource, secondsIntoDay, statusAt } from '../../src/live/index.js';
import { CompetitionTracker } from '../../src/live/tracker.js';
import { clubAliases } from '../../src/live/clubs.js';
import { clubRace, clubRelay, type LiveTestWorld, raceSpan, startLiveTestWorld } from '../support/live-world.js';

let world: LiveTestWorld;
let rest: LiveSource;
let legacy: LiveSource;

beforeAll(async () => {
  // A short deadline: the hanging fault below waits it out.
  world = await startLiveTestWorld({}, { timeoutMs: 2_000 });
  ({ rest, legacy } = world.sources);
});
afterAll(async () => {
  await world?.close();
});
afterEach(() => {
  world.live.faults.clear();
});

const restOnly = () => new LiveClient({ rest, legacy: null });
const legacyOnly = () => new LiveClient({ rest: null, legacy });

describe('reading a competition', () => {
  it('both APIs read the same competition, classes and results into one model', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const a = await restOnly().competition(competition.id);
    const b = await legacyOnly().competition(competition.id);
    expect(a).toMatchObject({
      id: competition.id,
      name: competition.name,
      date: competition.date,
      timeZone: 'Europe/Stockholm',
    });
    // api.php names no zone and no country, and gives the stage fields only to stages.
    expect(b).toEqual({ ...a, timeZone: null, country: null, multiDayStage: null, multiDayFirstDay: null });
    const day = await restOnly().competitionsOn(competition.date);
    expect(day.map((c) => c.id)).toContain(competition.id);
    expect((await legacyOnly().competitionsOn(competition.date)).map((c) => c.id).sort()).toEqual(
      day.map((c) => c.id).sort(),
    );

    const restClasses = await restOnly().classes(competition.id);
    const legacyClasses = await legacyOnly().classes(competition.id);
    expect(restClasses.kind === 'data' && legacyClasses.kind === 'data').toBe(true);
    if (restClasses.kind !== 'data' || legacyClasses.kind !== 'data') return;
    expect(legacyClasses.data).toEqual(restClasses.data);
    // Every class, `/` or raw tab in a name or not, reads the same through both.
    for (const name of restClasses.data) {
      const r = await restOnly().classResults(competition.id, name);
      const l = await legacyOnly().classResults(competition.id, name);
      if (r.kind !== 'data' || l.kind !== 'data') throw new Error('expected data');
      const strip = (runners: typeof r.data.runners) => runners.map(({ changedAt: _c, start: _s, ...rest }) => rest);
      expect(strip(l.data.runners)).toEqual(strip(r.data.runners));
    }
  });

  it('a double upload reads as one runner each, the tab in a name as a space, a tie as the same place', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const doubled = race.classes.find((c) => c.runners.some((r) => r.ghost))!;
    for (const client of [restOnly(), legacyOnly()]) {
      const answer = await client.classResults(competition.id, doubled.name);
      if (answer.kind !== 'data') throw new Error('expected data');
      expect(answer.data.runners.length).toBe(doubled.runners.filter((r) => !r.ghost).length);
      expect(answer.data.runners.every((r) => !/\t/.test(r.name))).toBe(true);
      const finished = answer.data.runners.filter((r) => r.status === 'finished');
      expect(finished.length).toBeGreaterThan(0);
      expect(finished[0]).toMatchObject({ place: 1, behind: 0 });
    }
  });

  it('an unknown class is an empty class; an unknown competition NotFound on both APIs', async () => {
    const { competition } = clubRace(world);
    const answer = await restOnly().classResults(competition.id, 'NOPE');
    expect(answer.kind === 'data' && answer.data.runners).toEqual([]);
    for (const client of [restOnly(), legacyOnly()]) {
      const error = await client.competition(99_999_999).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LiveError);
      expect((error as LiveError).code).toBe('NotFound');
    }
  });

  it('asks with one constant Accept-Encoding, and conditionally: a 304 (REST), NOT MODIFIED (api.php)', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 3_600_000);
    const cls = race.classes[0]!.name;
    const before = world.live.requests.length;
    const first = await restOnly().classResults(competition.id, cls);
    if (first.kind !== 'data') throw new Error('expected data');
    expect(first.token).toMatch(/^rest:/);
    expect((await restOnly().classResults(competition.id, cls, first.token)).kind).toBe('notModified');
    const legacyFirst = await legacyOnly().classResults(competition.id, cls);
    if (legacyFirst.kind !== 'data') throw new Error('expected data');
    expect(legacyFirst.token).toMatch(/^legacy:[0-9a-f]{32}$/);
    expect((await legacyOnly().classResults(competition.id, cls, legacyFirst.token)).kind).toBe('notModified');
    // A token of the other API is not sent (it could never match).
    expect((await legacyOnly().classResults(competition.id, cls, first.token)).kind).toBe('data');
    const asked = world.live.requests.slice(before);
    expect(new Set(asked.map((r) => r.acceptEncoding))).toEqual(new Set(['gzip, br']));
    expect(asked.filter((r) => r.api === 'rest').map((r) => r.status)).toEqual([200, 304]);
    expect(asked.filter((r) => r.api === 'legacy').map((r) => r.query.last_hash ?? null)).toEqual([
      null,
      legacyFirst.token!.slice('legacy:'.length),
      null,
    ]);
  });
});

describe('the points the sources leave open', () => {
  it('reads the same whichever way each goes (waiting status, unreached splits, envelopes, ties, compression)', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).firstStart + 45 * 60_000);
    const read = async () => {
      const client = restOnly();
      const day = await client.competitionsOn(competition.date);
      const overview = await client.overview(competition.id);
      const classes = [];
      for (const cls of race.classes) {
        const answer = await client.classResults(competition.id, cls.name);
        if (answer.kind !== 'data') throw new Error('expected data');
        classes.push(answer.data);
      }
      return { day, overview: overview?.kind === 'data' ? overview.data : null, classes };
    };
    const usual = await read();
    const variants = [
      { restWaitingStatus: 9 },
      { restUnreachedSplits: 'omitted' },
      { restListEnvelope: 'array' },
      { restTiedPlace: 'equals' },
      { exportEventId: 'absent' },
      { compress: false },
    ] as const;
    const saved = { ...world.live.options };
    for (const variant of variants) {
      Object.assign(world.live.options, variant);
      try {
        expect(await read(), JSON.stringify(variant)).toEqual(usual);
      } finally {
        Object.assign(world.live.options, saved);
      }
    }
    world.live.options.timezone = 'empty';
    try {
      // No zone named: Swedish time, as timediff 0 says.
      const competitionRead = await restOnly().competition(competition.id);
      expect(competitionRead.timeZone).toBeNull();
      expect(secondsIntoDay(competitionRead, new Date(world.now()))).toBe(
        secondsIntoDay({ ...competitionRead, timeZone: 'Europe/Stockholm' }, new Date(world.now())),
      );
    } finally {
      world.live.options.timezone = 'named';
    }
  });
});

describe('following a competition for the club', () => {
  it('tracks the race as it runs: to start, out with radio controls, home; reading only what changed', async () => {
    const { competition, race } = clubRace(world);
    const { firstStart, lastFinalAt } = raceSpan(race);
    const tracker = new CompetitionTracker(restOnly(), competition.id, clubAliases({ name: world.homeClub }));
    world.setNow(firstStart - 10 * 60_000);
    const before = await tracker.refresh();
    expect(before.errors).toEqual([]);
    expect(before.runners.length).toBeGreaterThanOrEqual(5);
    const at = (ms: number) => secondsIntoDay(before.competition, new Date(ms));
    expect(before.runners.every((r) => statusAt(r, at(world.now())) === 'not-started')).toBe(true);

    const quiet = world.live.requests.length;
    const unchanged = await tracker.refresh();
    expect(unchanged.changed).toBe(false);
    // One conditional export and nothing else: no class changed.
    expect(world.live.requests.slice(quiet).map((r) => `${r.key} ${r.status}`)).toEqual([
      `/competitions/${competition.id}/export 304`,
    ]);

    world.setNow(firstStart + 30 * 60_000);
    const during = await tracker.refresh();
    expect(during.changed).toBe(true);
    const statuses = during.runners.map((r) => statusAt(r, at(world.now())));
    expect(statuses).toContain('running');
    expect(during.runners.some((r) => r.radios.some((radio) => radio.time !== null && radio.place !== null))).toBe(
      true,
    );

    world.setNow(lastFinalAt + 60_000);
    const after = await tracker.refresh();
    const final = after.runners.map((r) => statusAt(r, at(world.now())));
    expect(final.every((s) => ['finished', 'mp', 'dnf', 'dsq', 'dns'].includes(s))).toBe(true);
    expect(final).toContain('finished');
    expect(final.some((s) => s === 'mp' || s === 'dnf')).toBe(true);
    expect(after.clubStrings.map((c) => c.how)).toEqual(['exact']);
  });

  it('on api.php: every class once to find the club, then only the club classes with their hashes', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 3_600_000);
    const tracker = new CompetitionTracker(legacyOnly(), competition.id, clubAliases({ name: world.homeClub }));
    const first = await tracker.refresh();
    expect(first.source).toBe('legacy');
    expect(first.errors).toEqual([]);
    const clubClasses = race.classes.filter((c) => c.runners.some((r) => r.club === world.homeClub));
    expect(new Set(tracker.clubClasses)).toEqual(new Set(clubClasses.map((c) => c.name)));
    const mark = world.live.requests.length;
    const second = await tracker.refresh();
    expect(second.changed).toBe(false);
    const asked = world.live.requests.slice(mark);
    expect(asked.filter((r) => r.key === 'api.php/getclassresults').length).toBe(clubClasses.length);
    expect(asked.every((r) => r.key === 'api.php/getcompetitioninfo' || r.query.last_hash !== undefined)).toBe(true);
  });

  it('an empty answer for a class that had runners is not taken as everyone gone', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const tracker = new CompetitionTracker(legacyOnly(), competition.id, clubAliases({ name: world.homeClub }));
    const full = await tracker.refresh();
    const cls = tracker.clubClasses[0]!;
    const renamed = world.live.world.race(competition.id)!.classes.find((c) => c.name === cls)!;
    renamed.name = `${cls} (omdöpt)`;
    try {
      const after = await tracker.refresh();
      expect(after.runners.filter((r) => r.className === cls)).toEqual(full.runners.filter((r) => r.className === cls));
    } finally {
      renamed.name = cls;
    }
  });

  it('relay teams count as the club ("Granskogens OK 2")', async () => {
    const { competition, race } = clubRelay(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const state = await new CompetitionTracker(
      restOnly(),
      competition.id,
      clubAliases({ name: world.homeClub }),
    ).refresh();
    expect(state.runners.length).toBeGreaterThan(0);
    expect(state.runners.every((r) => r.club.startsWith(`${world.homeClub} `) && /-\d$/.test(r.className))).toBe(true);
    expect(state.clubStrings.every((c) => c.how === 'team' && c.team !== null)).toBe(true);
  });
});

describe('failures', () => {
  it('after three failed REST reads the client turns to api.php, and back after a while', async () => {
    const { competition } = clubRace(world);
    let clock = 0;
    const client = new LiveClient({ rest, legacy, fallbackAfter: 3, fallbackForMs: 60_000, now: () => clock });
    world.live.faults.add({ path: `/competitions/${competition.id}`, kind: 'status', status: 503 });
    for (let i = 0; i < 3; i++) {
      const error = await client.competition(competition.id).catch((e: unknown) => e);
      expect((error as LiveError).code).toBe('Unavailable');
    }
    expect(client.active).toBe('legacy');
    expect((await client.competition(competition.id)).id).toBe(competition.id);
    world.live.faults.clear();
    clock = 60_000;
    expect(client.active).toBe('rest');
    expect((await client.competition(competition.id)).id).toBe(competition.id);
    // A 404 is an answer, not a failure: it never switches.
    for (let i = 0; i < 4; i++) await client.competition(99_999_999).catch(() => undefined);
    expect(client.active).toBe('rest');
  });

  it('a 5xx is retried twice within a read; a fourth answer is not waited for', async () => {
    const { competition } = clubRace(world);
    world.live.faults.add({ path: `/competitions/${competition.id}`, kind: 'status', status: 502, times: 2 });
    const mark = world.live.requests.length;
    expect((await restOnly().competition(competition.id)).id).toBe(competition.id);
    expect(world.live.requests.slice(mark).map((r) => r.status)).toEqual([502, 502, 200]);
  });

  it('each fault is one typed error: slow, cut off, endless, not JSON, another competition', async () => {
    const { competition } = clubRace(world);
    const path = `/competitions/${competition.id}`;
    const codeOf = async (rule: Parameters<typeof world.live.faults.add>[0], client = restOnly()) => {
      const id = world.live.faults.add(rule);
      try {
        const error = await client.competition(competition.id).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LiveError);
        // One line, naming no host and quoting nothing the service sent.
        expect((error as Error).message).not.toMatch(/\n|127\.0\.0\.1/);
        return (error as LiveError).code;
      } finally {
        world.live.faults.remove(id);
      }
    };
    expect(await codeOf({ path, kind: 'hang' })).toBe('Timeout');
    expect(await codeOf({ path, kind: 'truncate' })).toBe('InvalidResponse');
    expect(await codeOf({ path, kind: 'maintenance' })).toBe('InvalidResponse');
    expect(await codeOf({ path, kind: 'otherCompetition', competitionId: competition.id + 1 })).toBe(
      'WrongCompetition',
    );
    expect(
      await codeOf(
        { path: 'api.php/getcompetitioninfo', kind: 'otherCompetition', competitionId: competition.id + 1 },
        legacyOnly(),
      ),
    ).toBe('WrongCompetition');
    const mark = world.live.requests.length;
    expect(await codeOf({ path, kind: 'huge', bytes: 64 * 1024 * 1024 })).toBe('TooLarge');
    const streamed = world.live.requests.slice(mark).find((r) => r.streamed)!.streamed!;
    // Cut off near the cap (16 MiB), not read to the end.
    expect(streamed.bytesWritten).toBeLessThan(32 * 1024 * 1024);
  });

  it('an export about another competition is refused by the tracker, which keeps nothing of it', async () => {
    const { competition } = clubRace(world);
    world.live.faults.add({
      path: `/competitions/${competition.id}/export`,
      kind: 'otherCompetition',
      competitionId: competition.id + 1,
    });
    const tracker = new CompetitionTracker(restOnly(), competition.id, clubAliases({ name: world.homeClub }));
    const error = await tracker.refresh().catch((e: unknown) => e);
    expect((error as LiveError).code).toBe('WrongCompetition');
  });
});
