/**
 * Matching Eventor to LiveResultat (src/live/match.ts, clubs.ts): the competition of a race, a
 * pasted address, the club's strings, each runner against the club's entries; and the polling
 * tiers (tiers.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  type ClubEntry,
  classFits,
  clubAliases,
  clubRunners,
  crossCheck,
  matchClubStrings,
  runnerOfPerson,
} from '../../src/live/clubs.js';
import {
  linkedCompetitionProblems,
  liveLinksIn,
  matchCompetition,
  parseLiveAddress,
  type RaceToMatch,
} from '../../src/live/match.js';
import type { LiveCompetition, LiveRunner } from '../../src/live/model.js';
import { liveRunner } from '../support/live-runners.js';
import { failureBackoffMs, MIN_INTERVAL_MS, pollTier, TIER_INTERVALS_MS } from '../../src/live/tiers.js';

const comp = (over: Partial<LiveCompetition>): LiveCompetition => ({
  id: 1,
  name: 'x',
  organiser: 'x',
  date: '2026-09-19',
  timeZone: null,
  timediff: 0,
  country: null,
  multiDayStage: null,
  multiDayFirstDay: null,
  ...over,
});

const race: RaceToMatch = {
  date: '2026-09-19',
  eventName: 'Höstsprinten 2026',
  raceName: null,
  raceNumber: 1,
  raceCount: 1,
  organisers: [{ name: 'Granskogens Orienteringsklubb', shortName: 'Granskogens OK' }],
  countryCode: 'SWE',
  linkedIds: [],
};

describe('the live competition of a race', () => {
  const right = comp({ id: 40537, name: 'Höstsprinten', organiser: 'Granskogens OK', country: 'se' });
  const training = comp({ id: 40538, name: 'Klubbträning', organiser: 'Rävlyans OK', country: 'se' });
  const otherDay = comp({ id: 40539, name: 'Höstsprinten', organiser: 'Granskogens OK', date: '2026-09-20' });

  it('is confident when one of the day is clearly the race, whatever its organiser typed', () => {
    const typed = comp({ id: 40540, name: 'Höstsprinten, Granskogen', organiser: 'Granskogen', country: 'se' });
    for (const candidate of [right, typed]) {
      const match = matchCompetition(race, [training, candidate, otherDay]);
      expect(match).toMatchObject({ kind: 'confident', competition: { id: candidate.id }, by: 'search' });
    }
  });

  it('offers the candidates when two fit alike, and says none when nothing fits', () => {
    const twin = comp({ id: 40541, name: 'Höstsprinten ungdom', organiser: 'Granskogens OK', country: 'se' });
    const match = matchCompetition(race, [right, twin, training]);
    expect(match.kind).toBe('uncertain');
    if (match.kind !== 'uncertain') return;
    expect(match.candidates.map((c) => c.competition.id).sort()).toEqual([40537, 40541]);
    expect(matchCompetition(race, [training, otherDay])).toEqual({ kind: 'none' });
    expect(matchCompetition(race, [])).toEqual({ kind: 'none' });
  });

  it('takes a competition the event links to, over any score', () => {
    const match = matchCompetition({ ...race, linkedIds: [40538] }, [right, training]);
    expect(match).toMatchObject({ kind: 'confident', competition: { id: 40538 }, by: 'link' });
  });

  it('maps each stage of a multi-day event to its own competition, and a country that differs counts against', () => {
    const stages = [1, 2, 3].map((stage) =>
      comp({
        id: 40600 + stage,
        name: `Hällmyren 3-dagars, etapp ${stage}`,
        organiser: 'Ekåsens OK',
        multiDayStage: stage,
        multiDayFirstDay: 40601,
      }),
    );
    const stage2: RaceToMatch = {
      ...race,
      eventName: 'Hällmyren 3-dagars',
      raceName: 'Etapp 2',
      raceNumber: 2,
      raceCount: 3,
      organisers: [{ name: 'Ekåsens OK', shortName: 'Ekåsens OK' }],
    };
    expect(matchCompetition(stage2, stages)).toMatchObject({ kind: 'confident', competition: { id: 40602 } });
    const abroad = comp({ ...right, id: 40700, country: 'no' });
    expect(matchCompetition(race, [abroad, right])).toMatchObject({ kind: 'confident', competition: { id: 40537 } });
  });

  it('a competition set by hand on another day is refused; an unlike one is worth a word', () => {
    expect(linkedCompetitionProblems(race, otherDay)).toEqual(['other-day']);
    expect(linkedCompetitionProblems(race, training)).toEqual(['unlike']);
    expect(linkedCompetitionProblems(race, right)).toEqual([]);
  });
});

describe('a competition given by an admin', () => {
  it('takes the id from an id, a LiveResultat or LiveRes address, and nothing else', () => {
    expect(parseLiveAddress(' 40488 ')).toEqual({ id: 40488, service: null });
    expect(parseLiveAddress('https://liveresultat.orientering.se/followfull.php?comp=40488&lang=sv#H21')).toEqual({
      id: 40488,
      service: 'liveresultat',
    });
    expect(parseLiveAddress('liveresultat.orientering.se/followfull.php?comp=17262')).toEqual({
      id: 17262,
      service: 'liveresultat',
    });
    expect(parseLiveAddress('https://api.orienteering.services/competitions/40488/classes')).toEqual({
      id: 40488,
      service: 'liveresultat',
    });
    expect(parseLiveAddress('https://www.liveres.live/followfull.php?comp=123')).toEqual({
      id: 123,
      service: 'liveres',
    });
    expect(parseLiveAddress('')).toEqual({ problem: 'empty' });
    expect(parseLiveAddress('0')).toEqual({ problem: 'not-an-address' });
    expect(parseLiveAddress('javascript:alert(1)')).toEqual({ problem: 'not-an-address' });
    expect(parseLiveAddress('https://evil.example/followfull.php?comp=40488')).toEqual({ problem: 'other-site' });
    expect(parseLiveAddress('https://liveresultat.orientering.se.evil.example/?comp=1')).toEqual({
      problem: 'other-site',
    });
    expect(parseLiveAddress('https://liveresultat.orientering.se/index.php')).toEqual({ problem: 'no-competition' });
    expect(parseLiveAddress('https://liveresultat.orientering.se/followfull.php?comp=1e9')).toEqual({
      problem: 'no-competition',
    });
  });

  it('finds the live links in an event message and its documents, each once', () => {
    expect(
      liveLinksIn([
        'Liveresultat: https://liveresultat.orientering.se/followfull.php?comp=17262&lang=sv. Välkomna!',
        null,
        'https://liveresultat.orientering.se/followfull.php?comp=17262',
        '<https://liveres.live/followfull.php?comp=99>',
        'https://example.org/live',
      ]),
    ).toEqual([
      { id: 17262, service: 'liveresultat' },
      { id: 99, service: 'liveres' },
    ]);
  });
});

const runner = (name: string, club: string, className: string, over: Partial<LiveRunner> = {}): LiveRunner =>
  liveRunner({ name, club, className, start: 36000, ...over });

describe("the club's strings", () => {
  const aliases = clubAliases({ name: 'Granskogens Orienteringsklubb', shortName: 'Granskogens OK' }, ['GOK']);

  it('knows its names as written, alike forms, and its relay teams; not other clubs', () => {
    expect(
      matchClubStrings(aliases, [
        'Granskogens OK',
        'GOK',
        'granskogens orienteringsklubb',
        'OK Granskogens',
        'Granskogens OK 2',
        'Granskogens SK',
        'Granskogens OK',
        'Rävlyans OK 1',
        '',
      ]),
    ).toEqual([
      { club: 'Granskogens OK', how: 'exact', team: null },
      { club: 'GOK', how: 'exact', team: null },
      { club: 'granskogens orienteringsklubb', how: 'alike', team: null },
      { club: 'OK Granskogens', how: 'alike', team: null },
      { club: 'Granskogens OK 2', how: 'team', team: 2 },
    ]);
    const all = [runner('A', 'Granskogens OK', 'H21'), runner('B', 'Granskogens SK', 'H21')];
    expect(clubRunners(aliases, all).map((r) => r.name)).toEqual(['A']);
  });

  it('folds diacritics and Norwegian letters, and the long forms of both languages', () => {
    const norwegian = clubAliases({ name: 'Løvsletta Orienteringslag' });
    expect(matchClubStrings(norwegian, ['Lovsletta OL'])).toEqual([{ club: 'Lovsletta OL', how: 'alike', team: null }]);
    const ifk = clubAliases({ name: 'IFK Göteborg' });
    expect(matchClubStrings(ifk, ['IFK Göteborg Orientering'])[0]?.how).toBe('alike');
  });
});

describe('runners against the club entries', () => {
  const entries: ClubEntry[] = [
    { personId: '1', name: 'Astrid Lövgren', className: 'D10' },
    { personId: '2', name: 'Anna Berg', className: 'D21' },
    { personId: '3', name: 'Anna Berg', className: 'D45' },
    { personId: '4', name: 'Erik Ek', className: 'H21' },
    { personId: '5', name: 'Per Ek', className: 'Ungdom', leg: 1 },
  ];

  it('confirms by name and class, tells another class, an ambiguous name and an unlisted runner apart', () => {
    const checked = crossCheck(
      [
        runner('Astrid Lövgren', 'GOK', 'D10'),
        runner('Berg, Anna', 'GOK', 'D20/21'),
        runner('Erik Ek', 'GOK', 'H35'),
        runner('Per Ek', 'GOK 1', 'Ungdom-1'),
        runner('Nils Nilsson', 'GOK', 'H21'),
        runner('Anna Berg', 'GOK', 'Öppen 1'),
      ],
      entries,
    );
    expect(
      checked.map(({ check }) =>
        check.kind === 'confirmed' || check.kind === 'other-class'
          ? `${check.kind} ${check.entry.personId}`
          : check.kind,
      ),
    ).toEqual(['confirmed 1', 'confirmed 2', 'other-class 4', 'confirmed 5', 'unlisted', 'ambiguous']);
  });

  it('an ambiguous runner is never taken for a member: no finish message about a namesake', () => {
    const twins = crossCheck([runner('Anna Berg', 'GOK', 'D21'), runner('Anna Berg', 'GOK', 'D21')], entries);
    expect(runnerOfPerson(twins, '2')).toEqual({ problem: 'ambiguous' });
    const one = crossCheck([runner('Anna Berg', 'GOK', 'D21')], entries);
    expect(runnerOfPerson(one, '2')).toMatchObject({ runner: { name: 'Anna Berg' } });
    expect(runnerOfPerson(one, '3')).toEqual({ problem: 'not-found' });
    const both = crossCheck([runner('Anna Berg', 'GOK', 'Öppen 1')], entries);
    expect(runnerOfPerson(both, '2')).toEqual({ problem: 'ambiguous' });
  });

  it('a class with `/` holds each of the classes it names', () => {
    expect(classFits('H45/50', 'H50')).toBe(true);
    expect(classFits('K20/21', 'K21')).toBe(true);
    expect(classFits('D20/21', 'D21')).toBe(true);
    expect(classFits('D20/21', 'H21')).toBe(false);
    expect(classFits('H21', 'h 21')).toBe(true);
    expect(classFits('Ungdom-2', 'Ungdom', 2)).toBe(true);
    expect(classFits('Ungdom-2', 'Ungdom', 1)).toBe(false);
  });
});

describe('polling tiers', () => {
  const base = { secondsIntoDay: 10 * 3600, lastChangeAt: null, now: 1_000_000_000, final: false };
  it('rare before the first start, often while runners are out, then warm, then rare, then stopped', () => {
    const waiting = runner('A', 'K', 'H21', { start: 12 * 3600 });
    expect(pollTier({ ...base, runners: [waiting] })).toEqual({ tier: 'before', everyMs: TIER_INTERVALS_MS.before });
    expect(pollTier({ ...base, runners: [waiting], secondsIntoDay: 12 * 3600 - 240 }).tier).toBe('hot');
    const out = runner('B', 'K', 'H21', { start: 9 * 3600 });
    expect(pollTier({ ...base, runners: [out, waiting] })).toEqual({ tier: 'hot', everyMs: 15_000 });
    const home = runner('C', 'K', 'H21', { status: 'finished', time: 2000, place: 1, behind: 0 });
    expect(pollTier({ ...base, runners: [home, waiting] }).tier).toBe('warm');
    expect(pollTier({ ...base, runners: [home, waiting], lastChangeAt: base.now - 60_000 }).tier).toBe('hot');
    expect(pollTier({ ...base, runners: [home] })).toEqual({ tier: 'after', everyMs: 600_000 });
    expect(pollTier({ ...base, runners: [home], final: true })).toEqual({ tier: 'stop', everyMs: null });
    expect(pollTier({ ...base, runners: [out], secondsIntoDay: 86_400 }).tier).toBe('stop');
    for (const tier of Object.values(TIER_INTERVALS_MS)) expect(tier).toBeGreaterThanOrEqual(MIN_INTERVAL_MS);
  });

  it('backs off on failures: 30 s doubling to 10 minutes, jittered, never under the floor', () => {
    expect(failureBackoffMs(1, () => 1)).toBe(30_000);
    expect(failureBackoffMs(2, () => 1)).toBe(60_000);
    expect(failureBackoffMs(10, () => 1)).toBe(600_000);
    expect(failureBackoffMs(1, () => 0)).toBe(24_000);
  });
});
