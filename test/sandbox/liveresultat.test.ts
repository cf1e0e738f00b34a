/**
 * The sandbox LiveResultat behaves as docs/live-results.md says the real services do: both APIs,
 * the race unfolding on the clock from the sandbox Eventor's start list and results, ETags and 304,
 * `last_hash`, the quirks and the faults.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clubRace,
  clubRelay,
  type LiveTestWorld,
  raceSpan,
  startLiveTestWorld,
  startOf,
} from '../support/live-world.js';

let world: LiveTestWorld;
beforeAll(async () => {
  world = await startLiveTestWorld();
});
afterAll(async () => {
  await world?.close();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await request(url, { headers });
  const raw = Buffer.from(await response.body.arrayBuffer());
  const encoding = response.headers['content-encoding'];
  const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
  return { status: response.statusCode, headers: response.headers, text: body.toString('utf8') };
}

const rest = (path: string, headers?: Record<string, string>) => get(`${world.live.restUrl}${path}`, headers);
const legacy = (query: string) => get(`${world.live.legacyUrl}?${query}`);
const json = async (path: string) => JSON.parse((await rest(path)).text) as Record<string, unknown>;

type Row = Record<string, unknown> & { name: string; club: string; splits?: Record<string, unknown> };

describe('the competitions', () => {
  it('lists every race as its own competition, a multi-day event stage by stage, newest first', async () => {
    const list = (await json('/competitions')).competitions as Record<string, unknown>[];
    expect(list.length).toBe(world.live.world.competitions.length);
    // The unfiltered list has only the five basic fields.
    expect(Object.keys(list[0]!).sort()).toEqual(['date', 'id', 'name', 'organizer', 'timediff']);
    const dates = list.map((c) => c.date as string);
    expect([...dates].sort().reverse()).toEqual(dates);
    const stages = world.live.world.competitions.filter((c) => c.multiDayStage !== null);
    expect(stages.length).toBeGreaterThan(1);
    const first = stages.find((c) => c.multiDayStage === 2)!;
    expect(first.multiDayFirstDay).toBe(first.id - 2);
  });

  it('filters by date, adding country, hasResults and the stage fields, and answers 404 for an unknown id', async () => {
    const { competition } = clubRace(world);
    const day = (await json(`/competitions?date=${competition.date}`)).competitions as Record<string, unknown>[];
    expect(day.length).toBeGreaterThanOrEqual(2);
    expect(day.every((c) => c.date === competition.date)).toBe(true);
    const entry = day.find((c) => c.id === competition.id)!;
    // hasResults is false for a past date, as the real list has it.
    expect(entry).toMatchObject({
      country: competition.country,
      hasResults: false,
      multiDayStage: 1,
      multiDayFirstDay: competition.id,
    });
    expect(competition.country).toMatch(/^(se|no)$/);
    const one = await json(`/competitions/${competition.id}`);
    expect(one).toMatchObject({ id: competition.id, timezone: 'Europe/Stockholm', isPublic: true });
    expect(typeof one.serverTime).toBe('number');
    expect((await rest('/competitions/99999999')).status).toBe(404);
    world.live.options.timezone = 'empty';
    expect((await json(`/competitions/${competition.id}`)).timezone).toBe('');
    world.live.options.timezone = 'named';
  });

  it('api.php: the competition of an unknown id is the id alone; a missing method is 400', async () => {
    const unknown = await legacy('method=getcompetitioninfo&comp=99999999');
    expect(unknown.status).toBe(200);
    expect(JSON.parse(unknown.text)).toEqual({ id: 99999999 });
    const none = await legacy('comp=1');
    expect(none.status).toBe(400);
    expect(JSON.parse(none.text)).toEqual({ status: 'ERR', message: 'No method given' });
  });
});

describe('a race on the clock', () => {
  it('has no classes before the start list is uploaded, then the start list, then punches and finishes as they happen', async () => {
    const { competition, race } = clubRace(world);
    const { firstStart, lastFinalAt } = raceSpan(race);
    world.setNow(race.uploadAt - 60_000);
    expect(((await json(`/competitions/${competition.id}/classes`)).classes as string[]).length).toBe(0);

    world.setNow(firstStart - 60_000);
    const classes = (await json(`/competitions/${competition.id}/classes`)).classes as string[];
    expect(classes.length).toBe(race.classes.length);
    const cls = race.classes.find(
      (c) => c.runners.length >= 3 && c.radioControls.length > 0 && !c.runners.some((r) => r.ghost),
    )!;
    const before = (await json(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(cls.name)}`))
      .results as Row[];
    expect(
      before.every((r) => r.status === 10 && r.place === '' && r.result === '' && typeof r.start === 'number'),
    ).toBe(true);

    // A runner's first radio control: passed at start + split, placed among those through.
    const runner = cls.runners.find((r) => r.radios.length > 0)!;
    const radio = runner.radios[0]!;
    world.setNow(radio.at);
    const during = (await json(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(cls.name)}`))
      .results as Row[];
    const row = during.find((r) => r.name === runner.name)!;
    expect(row.splits![String(radio.code)]).toBe(radio.time);
    expect(row.splits![`${radio.code}_status`]).toBe(0);
    expect(row.splits![`${radio.code}_place`]).toBeGreaterThanOrEqual(1);
    expect(typeof row.splits![`${radio.code}_changed`]).toBe('number');
    expect(row.progress).toBeGreaterThan(0);
    // The start is the start list's: the sandbox Eventor's start time for this person.
    expect(startOf(race, row.start as number)).toBe(startOf(race, runner.start!));

    world.setNow(lastFinalAt + 60_000);
    const after = (await json(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(cls.name)}`))
      .results as Row[];
    const placed = after.filter((r) => r.status === 0);
    expect(placed.length).toBeGreaterThan(0);
    expect(placed[0]).toMatchObject({ place: '1', timeplus: 0, progress: 100 });
    for (const r of after.filter((r) => r.status !== 0)) expect(r.place).toBe('-');
  });

  it('matches the sandbox Eventor: start times from its start list, results from its result list', () => {
    const { competition, race } = clubRace(world);
    const ev = world.dataset.event(competition.eventId!)!;
    const details = world.dataset.details(ev);
    const home = world.dataset.homeClub.id;
    const starts = (details.startList?.classes ?? [])
      .flatMap((c) => c.persons)
      .filter((p) => p.organisation?.id === home);
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) {
      const live = race.classes.flatMap((c) => c.runners).find((r) => r.personId === start.person?.id && !r.ghost)!;
      expect(startOf(race, live.start!)).toBe(Date.parse(start.starts[0]!.startTime!));
    }
  });

  it('marks MP at the finish and DNF after the last punch, and corrects a wrong finish time later', async () => {
    const { competition, race } = clubRace(world);
    // Runners of classes uploaded once, so that a name is one row.
    const all = race.classes
      .filter((c) => !c.runners.some((r) => r.ghost))
      .flatMap((c) => c.runners.map((r) => ({ cls: c, r })));
    const mp = all.find(({ r }) => r.final?.status === 3)!;
    const corrected = race.classes
      .flatMap((c) => c.runners.map((r) => ({ cls: c, r })))
      .find(({ r }) => r.correction !== null)!;
    const read = async (cls: string) =>
      (await json(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(cls)}`)).results as Row[];
    world.setNow(mp.r.final!.at - 1000);
    expect((await read(mp.cls.name)).find((r) => r.name === mp.r.name)!.status).toBe(10);
    world.setNow(mp.r.final!.at);
    expect((await read(mp.cls.name)).find((r) => r.name === mp.r.name)).toMatchObject({ status: 3, place: '-' });

    const dnf = all.find(({ r }) => r.final?.status === 2)!;
    const lastPunch = Math.max(startOf(race, dnf.r.start!), ...dnf.r.radios.map((p) => p.at));
    expect(dnf.r.final!.at).toBe(lastPunch + 15 * 60_000);
    world.setNow(dnf.r.final!.at);
    expect((await read(dnf.cls.name)).find((r) => r.name === dnf.r.name)).toMatchObject({
      status: 2,
      place: '-',
      result: '',
    });
    // api.php shows a runner without a result as 9, the REST API as 10 (both configurable).
    world.setNow(mp.r.final!.at - 1000);
    const waiting = JSON.parse(
      (
        await legacy(
          `method=getclassresults&comp=${competition.id}&class=${encodeURIComponent(mp.cls.name)}&unformattedTimes=true`,
        )
      ).text,
    ) as { results: Row[] };
    expect(waiting.results.find((r) => r.name === mp.r.name)!.status).toBe(9);

    world.setNow(corrected.r.final!.at);
    // The finished row, not a ghost of a double upload.
    const wrong = (await read(corrected.cls.name)).find((r) => r.name === corrected.r.name && r.status === 0)!;
    expect(wrong.result).toBe(corrected.r.correction!.wrongResult);
    world.setNow(corrected.r.correction!.at);
    const right = (await read(corrected.cls.name)).find((r) => r.name === corrected.r.name && r.status === 0)!;
    expect(right.result).toBe(corrected.r.final!.result);
    expect(right.changed).toBe(Math.floor(corrected.r.correction!.at / 1000));
  });

  it('relays: each leg a class `<Class>-<leg>`, the team as the club, the team time so far', async () => {
    const { competition, race } = clubRelay(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const classes = (await json(`/competitions/${competition.id}/classes`)).classes as string[];
    expect(classes.some((c) => /-1$/.test(c)) && classes.some((c) => /-3$/.test(c))).toBe(true);
    const leg2 = race.classes.find((c) => c.relayLeg === 2)!;
    const rows = (await json(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(leg2.name)}`))
      .results as Row[];
    const team = rows.find((r) => r.club.startsWith(`${world.homeClub} `) && r.status === 0)!;
    expect(team.club).toMatch(/ \d$/);
    // The team's time so far: leg 2's total is leg 1's time and leg 2's own.
    world.live.options.relayLegTime = 'leg';
    const own = (
      (await json(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(leg2.name)}`))
        .results as Row[]
    ).find((r) => r.club === team.club)!;
    const leg1 = world.live.world
      .race(competition.id)!
      .classes.find((c) => c.relayLeg === 1)!
      .runners.find((r) => r.club === team.club)!;
    world.live.options.relayLegTime = 'cumulative';
    expect(team.result).toBe((own.result as number) + leg1.final!.result!);
    const exported = await json(`/competitions/${competition.id}/export`);
    expect((exported.classes as Record<string, unknown>[]).find((c) => c.name === leg2.name)).toMatchObject({
      relayLeg: 2,
    });
  });
});

describe('change detection', () => {
  it('REST: an ETag per body and Accept-Encoding; If-None-Match gives 304 with no body', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 3_600_000);
    const path = `/competitions/${competition.id}/classes`;
    const first = await rest(path, { 'accept-encoding': 'gzip, br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe('public, max-age=5');
    const etag = first.headers.etag as string;
    const again = await rest(path, { 'accept-encoding': 'gzip, br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // Another Accept-Encoding is another copy at the CDN: the ETag does not match it.
    const other = await rest(path, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    expect(other.headers.etag).not.toBe(etag);
    expect(JSON.parse(other.text)).toEqual(JSON.parse(first.text));
  });

  it('api.php: last_hash gives NOT MODIFIED; the hash changes again 120 s after a change with nothing new (DT_RowClass)', async () => {
    const { competition, race } = clubRace(world);
    // A finish with nothing else happening in its class for 200 s either side.
    const moments = (r: (typeof race.classes)[number]['runners'][number]) =>
      [r.final?.at, r.correction?.at, ...r.radios.map((p) => p.at)].filter((t): t is number => t !== undefined);
    const found = race.classes
      .flatMap((cls) => cls.runners.map((runner) => ({ cls, runner })))
      .find(
        ({ cls, runner }) =>
          !runner.ghost &&
          runner.final?.status === 0 &&
          runner.correction === null &&
          cls.runners.every((r) => r === runner || moments(r).every((t) => Math.abs(t - runner.final!.at) > 200_000)),
      );
    expect(found).toBeDefined();
    const { cls, runner } = found!;
    const query = `method=getclassresults&comp=${competition.id}&class=${encodeURIComponent(cls.name)}&unformattedTimes=true`;
    world.setNow(runner.final!.at + 1000);
    const fresh = await legacy(query);
    expect(fresh.text).toContain('"DT_RowClass":"new_result","DT_RowClass":"new_result"');
    const hash = (JSON.parse(fresh.text) as { hash: string }).hash;
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse((await legacy(`${query}&last_hash=${hash}`)).text)).toEqual({ status: 'NOT MODIFIED' });
    world.setNow(runner.final!.at + 121_000);
    const later = JSON.parse((await legacy(`${query}&last_hash=${hash}`)).text) as { hash: string; results: unknown[] };
    expect(later.hash).not.toBe(hash);
    const strip = (rows: unknown[]) => JSON.stringify(rows).replace(/,"DT_RowClass":"new_result"/g, '');
    expect(strip(later.results)).toBe(strip((JSON.parse(fresh.text) as { results: unknown[] }).results));
  });
});

describe('the documented quirks', () => {
  it('a class with `/`: served by the query form, 404 by the path form', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt);
    const slash = race.classes.find((c) => c.name.includes('/'))!;
    expect(slash.name).toMatch(/^[DH]20\/21$/);
    const query = await rest(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(slash.name)}`);
    expect((JSON.parse(query.text) as { results: unknown[] }).results.length).toBe(slash.runners.length);
    expect(
      (await rest(`/competitions/${competition.id}/classes/${encodeURIComponent(slash.name)}/results`)).status,
    ).toBe(404);
    const plain = race.classes.find((c) => !c.name.includes('/'))!;
    expect(
      (await rest(`/competitions/${competition.id}/classes/${encodeURIComponent(plain.name)}/results`)).status,
    ).toBe(200);
  });

  it('an unknown class is answered 200 and empty; an empty club 400', async () => {
    const { competition } = clubRace(world);
    const unknown = await rest(`/competitions/${competition.id}/classresults?class=NOPE`);
    expect(unknown.status).toBe(200);
    expect(JSON.parse(unknown.text)).toMatchObject({ className: 'NOPE', splitControls: [], results: [] });
    expect((await rest(`/competitions/${competition.id}/clubresults?club=`)).status).toBe(400);
    const club = JSON.parse(
      (await rest(`/competitions/${competition.id}/clubresults?club=${encodeURIComponent(world.homeClub)}`)).text,
    ) as {
      results: Row[];
    };
    expect(club.results.length).toBeGreaterThan(0);
    expect(club.results.every((r) => r.club === world.homeClub && typeof r.class === 'string')).toBe(true);
  });

  it('a double upload: every runner of one class twice, the ghost "not started" with the same start', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt);
    const doubled = race.classes.find((c) => c.runners.some((r) => r.ghost))!;
    const rows = (await json(`/competitions/${competition.id}/classresults?class=${encodeURIComponent(doubled.name)}`))
      .results as Row[];
    const pairs = new Map<string, Row[]>();
    for (const row of rows)
      pairs.set(`${row.name}|${row.club}`, [...(pairs.get(`${row.name}|${row.club}`) ?? []), row]);
    expect([...pairs.values()].every((pair) => pair.length === 2)).toBe(true);
    for (const pair of pairs.values()) {
      expect(pair[0]!.start).toBe(pair[1]!.start);
      expect(pair.some((r) => r.status === 10)).toBe(true);
    }
  });

  it('api.php: a raw tab in a name makes the JSON invalid; missing start times are ""; the REST API escapes the tab', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt);
    const tabbed = race.classes
      .flatMap((c) => c.runners.map((r) => ({ c, r })))
      .find(({ r }) => r.name.includes('\t'))!;
    const text = (
      await legacy(
        `method=getclassresults&comp=${competition.id}&class=${encodeURIComponent(tabbed.c.name)}&unformattedTimes=true`,
      )
    ).text;
    expect(text).toContain('\t');
    expect(() => JSON.parse(text)).toThrow();
    const viaRest = await rest(
      `/competitions/${competition.id}/classresults?class=${encodeURIComponent(tabbed.c.name)}`,
    );
    expect((JSON.parse(viaRest.text) as { results: Row[] }).results.some((r) => r.name === tabbed.r.name)).toBe(true);
    const missing = race.classes.find(
      (c) => c.runners.some((r) => r.startMissing) && !c.runners.some((r) => r.name.includes('\t')),
    )!;
    const rows = (
      JSON.parse(
        (
          await legacy(
            `method=getclassresults&comp=${competition.id}&class=${encodeURIComponent(missing.name)}&unformattedTimes=true`,
          )
        ).text,
      ) as { results: Row[] }
    ).results;
    expect(rows.some((r) => r.start === '')).toBe(true);
    expect(rows.some((r) => typeof r.start === 'number')).toBe(true);
  });

  it('passings: the 50 newest punches newest first (api.php: 5, times formatted); remaining empties when the race is over', async () => {
    const { competition, race } = clubRace(world);
    const { firstStart, lastFinalAt } = raceSpan(race);
    world.setNow(firstStart + 40 * 60_000);
    const passings = (await json(`/competitions/${competition.id}/passings`)).passings as {
      changed: number;
      control: number;
    }[];
    expect(passings.length).toBeGreaterThan(0);
    expect(passings.length).toBeLessThanOrEqual(50);
    expect(passings.map((p) => p.changed)).toEqual([...passings.map((p) => p.changed)].sort((a, b) => b - a));
    const last = JSON.parse((await legacy(`method=getlastpassings&comp=${competition.id}`)).text) as {
      passings: { time: string }[];
    };
    expect(last.passings.length).toBeLessThanOrEqual(5);
    expect(last.passings.every((p) => /^\d+:\d\d$/.test(p.time))).toBe(true);
    expect(((await json(`/competitions/${competition.id}/remaining`)).runners as unknown[]).length).toBeGreaterThan(0);
    world.setNow(lastFinalAt + 60_000);
    expect((await json(`/competitions/${competition.id}/remaining`)).runners).toEqual(
      // Only the ghosts of the double upload would stay "not started"; they are not listed.
      [],
    );
  });
});

describe('faults', () => {
  it('5xx, slow, truncated, an endless body and another competition, each on the paths named', async () => {
    const { competition } = clubRace(world);
    const path = `/competitions/${competition.id}/classes`;
    world.live.faults.add({ path, kind: 'status', status: 502, times: 1 });
    expect((await rest(path)).status).toBe(502);
    expect((await rest(path)).status).toBe(200);

    world.live.faults.add({ path, kind: 'latency', ms: 300, times: 1 });
    const started = performance.now();
    expect((await rest(path)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);

    world.live.faults.add({ path, kind: 'truncate', times: 1 });
    await expect(rest(path, { 'accept-encoding': 'identity' })).rejects.toThrow();

    world.live.faults.add({
      path: `/competitions/${competition.id}`,
      kind: 'otherCompetition',
      competitionId: competition.id + 2,
      times: 1,
    });
    expect((await json(`/competitions/${competition.id}`)).id).toBe(competition.id + 2);
    expect((await json(`/competitions/${competition.id}`)).id).toBe(competition.id);

    world.live.faults.add({ path, kind: 'huge', bytes: 1024 * 1024, times: 1 });
    const huge = await rest(path);
    expect(huge.text.length).toBe(1024 * 1024);
    expect(() => JSON.parse(huge.text)).toThrow();
    world.live.faults.clear();
  });
});
