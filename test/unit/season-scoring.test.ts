/**
 * The cup scorings exactly as docs/season.md defines them, on the worked example whose every number
 * was worked out by hand there, then the edges: ties, statuses other than OK, missing times and
 * places, places past 15, best N larger than the races, lists that hold only the club, relays and
 * multi-race events.
 */
import { describe, expect, it } from 'vitest';
import type { ResultStatus } from '../../src/eventor/model.js';
import { cupStandings, raceCounts } from '../../src/season/cup.js';
import { isStart, type SeasonClass, seasonRaces } from '../../src/season/races.js';
import { PLACE_POINTS, racePoints, type ScoredEntry, scoreRaces, standings } from '../../src/season/scoring.js';
import {
  CLUB,
  classResult,
  cupRules,
  event,
  OTHER,
  person,
  raceResult,
  resultList,
  workedExample,
} from '../support/season-lists.js';

const clubOnly = { keep: (p: { organisation: { id: string | null } | null }) => p.organisation?.id === CLUB.id };
const races = () => workedExample().flatMap((list) => seasonRaces(list, { ...clubOnly, complete: true }));
const byName = (entries: readonly ScoredEntry[]) =>
  Object.fromEntries(entries.map((e) => [`${e.name} ${e.race}`, e.points]));
const table = (rows: ReturnType<typeof standings>) => rows.map((r) => [r.rank, r.name, r.points]);

describe('the worked example (docs/season.md#a-worked-example)', () => {
  it("keeps the club's runners and the whole class's best OK time: a missing punch's faster time is no best", () => {
    const [first, second] = races();
    expect(first!.classes[0]!.winnerTime).toBe(2400);
    expect(first!.classes[0]!.starts).toBe(5);
    expect(first!.classes[0]!.runners.map((r) => r.name)).toEqual(['Erik Lund', 'Nils Ek', 'Karl Holm', 'Per Ås']);
    // Nils did not start the second race: he is not in it.
    expect(second!.classes[0]!.runners.map((r) => r.name)).toEqual(['Karl Holm', 'Per Ås', 'Erik Lund']);
    expect(second!.classes[0]!.starts).toBe(3);
  });

  it('winner-ratio: round(100 × W / T) for OK, 0 for the missing punch', () => {
    expect(byName(scoreRaces(races(), 'winner-ratio', (r) => r.name))).toEqual({
      'Erik Lund 0': 91, // 100 × 2400 / 2640 = 90.9
      'Nils Ek 0': 91,
      'Karl Holm 0': 80, // 100 × 2400 / 3000
      'Per Ås 0': 0,
      'Karl Holm 1': 100,
      'Per Ås 1': 95, // 100 × 1800 / 1890 = 95.2
      'Erik Lund 1': 83, // 100 × 1800 / 2160 = 83.3
    });
  });

  it('place: 25, 20, 16, 13 … with the tie sharing second place and the next runner fourth', () => {
    expect(byName(scoreRaces(races(), 'place', (r) => r.name))).toEqual({
      'Erik Lund 0': 20,
      'Nils Ek 0': 20,
      'Karl Holm 0': 13,
      'Per Ås 0': 0,
      'Karl Holm 1': 25,
      'Per Ås 1': 20,
      'Erik Lund 1': 16,
    });
  });

  it('standings over every race: by total, equal totals sharing a rank, then by name', () => {
    expect(
      table(
        standings(
          scoreRaces(races(), 'winner-ratio', (r) => r.name),
          null,
        ),
      ),
    ).toEqual([
      [1, 'Karl Holm', 180],
      [2, 'Erik Lund', 174],
      [3, 'Per Ås', 95],
      [4, 'Nils Ek', 91],
    ]);
    expect(
      table(
        standings(
          scoreRaces(races(), 'place', (r) => r.name),
          null,
        ),
      ),
    ).toEqual([
      [1, 'Karl Holm', 38],
      [2, 'Erik Lund', 36],
      [3, 'Nils Ek', 20],
      [3, 'Per Ås', 20],
    ]);
  });

  it('best 1: each runner their one best race; Erik and Nils share third, Erik first by name', () => {
    const rows = standings(
      scoreRaces(races(), 'winner-ratio', (r) => r.name),
      1,
    );
    expect(table(rows)).toEqual([
      [1, 'Karl Holm', 100],
      [2, 'Per Ås', 95],
      [3, 'Erik Lund', 91],
      [3, 'Nils Ek', 91],
    ]);
    expect(rows[2]).toMatchObject({ races: 2, counted: [{ race: 0, points: 91 }] });
  });

  it('best N larger than the races a runner ran counts them all', () => {
    const all = standings(
      scoreRaces(races(), 'place', (r) => r.name),
      null,
    );
    expect(
      standings(
        scoreRaces(races(), 'place', (r) => r.name),
        5,
      ),
    ).toEqual(all);
    expect(all.find((r) => r.name === 'Erik Lund')!.counted).toEqual([
      { race: 0, points: 20 },
      { race: 1, points: 16 },
    ]);
  });
});

describe('points of one result', () => {
  const cls = (winnerTime: number | null): SeasonClass => ({ name: 'H21', starts: 30, winnerTime, runners: [] });
  const runner = (status: 'OK' | 'Disqualified' | 'DidNotFinish', time: number | null, position: number | null) => ({
    personId: '1',
    name: 'A B',
    birthYear: null,
    status,
    time,
    position,
    courseLength: null,
  });

  it('place: the table for places 1 to 15, then 1 for every other OK runner', () => {
    expect(PLACE_POINTS).toEqual([25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    for (let place = 1; place <= 15; place++)
      expect(racePoints('place', runner('OK', 1000, place), cls(900))).toBe(PLACE_POINTS[place - 1]);
    expect(racePoints('place', runner('OK', 1000, 16), cls(900))).toBe(1);
    expect(racePoints('place', runner('OK', 1000, 250), cls(900))).toBe(1);
  });

  it('a disqualification or a DNF is 0 in both scorings, whatever its time', () => {
    for (const status of ['Disqualified', 'DidNotFinish'] as const) {
      expect(racePoints('place', runner(status, 800, null), cls(900))).toBe(0);
      expect(racePoints('winner-ratio', runner(status, 800, null), cls(900))).toBe(0);
    }
  });

  it('an OK result without a time: 0 under winner-ratio (nothing to compare), 1 under place when unplaced', () => {
    expect(racePoints('winner-ratio', runner('OK', null, 3), cls(900))).toBe(0);
    expect(racePoints('winner-ratio', runner('OK', 1000, 3), cls(null))).toBe(0);
    expect(racePoints('place', runner('OK', null, null), cls(null))).toBe(1);
    expect(racePoints('place', runner('OK', null, 3), cls(null))).toBe(16);
  });

  it('winner-ratio rounds half up and is 100 for the winner', () => {
    expect(racePoints('winner-ratio', runner('OK', 900, 1), cls(900))).toBe(100);
    // 100 × 1000 / 1600 = 62.5
    expect(racePoints('winner-ratio', runner('OK', 1600, 9), cls(1000))).toBe(63);
    // 100 × 1000 / 3001 = 33.32…
    expect(racePoints('winner-ratio', runner('OK', 3001, 20), cls(1000))).toBe(33);
  });
});

describe("what a race holds: the club's own list, relays, multi-race events, statuses", () => {
  it("a club's own list without the winner: the best time from a runner's time behind, places as Eventor gives them", () => {
    const list = resultList(event('7', 'Natt', '2026-10-01T17:00:00Z'), [
      classResult(
        'D21',
        [
          person({ given: 'Anna', family: 'Berg', time: 3300, timeBehind: 300, position: 5 }),
          person({ given: 'Eva', family: 'Dahl', time: 3600, timeBehind: 600, position: 9 }),
        ],
        40,
      ),
    ]);
    const [race] = seasonRaces(list, { ...clubOnly, complete: false });
    const cls = race!.classes[0]!;
    expect(cls).toMatchObject({ winnerTime: 3000, starts: 40 });
    expect(cls.runners.map((r) => [r.name, r.position])).toEqual([
      ['Anna Berg', 5],
      ['Eva Dahl', 9],
    ]);
    expect(racePoints('winner-ratio', cls.runners[0]!, cls)).toBe(91);
  });

  it('a complete list without places: places from times, ties sharing one', () => {
    const list = resultList(null, [
      classResult('H21', [
        person({ given: 'A', family: 'A', time: 100 }),
        person({ given: 'B', family: 'B', time: 90 }),
        person({ given: 'C', family: 'C', time: 100 }),
        person({ given: 'D', family: 'D', time: 120 }),
        person({ given: 'E', family: 'E', time: 80, status: 'Disqualified' }),
      ]),
    ]);
    const [race] = seasonRaces(list, { keep: () => true, complete: true });
    expect(race!.classes[0]!.runners.map((r) => [r.name, r.position])).toEqual([
      ['A A', 2],
      ['B B', 1],
      ['C C', 2],
      ['D D', 4],
      ['E E', null],
    ]);
  });

  it('relays do not count: a class of teams makes no class', () => {
    const relay = classResult('Stafett', []);
    relay.teams.push({
      name: 'Lag 1',
      organisations: [{ id: CLUB.id, name: CLUB.name, shortName: null, countryCode: null }],
      bibNumber: null,
      startTime: null,
      finishTime: null,
      time: 5000,
      timeBehind: 0,
      position: 1,
      status: 'OK',
      members: [],
    });
    const [race] = seasonRaces(resultList(event('8', 'Stafetten', '2026-09-01T08:00:00Z'), [relay]), {
      ...clubOnly,
      complete: true,
    });
    expect(race!.classes).toEqual([]);
  });

  it('each race of a multi-race event apart, keyed by its race, with its own best time and date', () => {
    const ev = event('9', 'Tredagars', '2026-07-01T08:00:00Z', {
      races: [1, 2].map((n) => ({
        id: `90${n}`,
        eventId: '9',
        name: `Etapp ${n}`,
        date: `2026-07-0${n}T08:00:00Z`,
        distance: null,
        lightCondition: null,
        position: null,
      })),
    });
    const twoRaces = (given: string, t1: number, t2: number, club = CLUB) =>
      person({ given, family: 'X', club }, [
        raceResult({ given, family: 'X', raceId: '901', time: t1 }),
        raceResult({ given, family: 'X', raceId: '902', time: t2 }),
      ]);
    const list = resultList(ev, [classResult('H21', [twoRaces('A', 100, 300), twoRaces('B', 120, 200, OTHER)])]);
    const found = seasonRaces(list, { ...clubOnly, complete: true });
    expect(found.map((r) => [r.key, r.raceNumber, r.raceName, r.date])).toEqual([
      ['9:901', 1, 'Etapp 1', '2026-07-01T08:00:00Z'],
      ['9:902', 2, 'Etapp 2', '2026-07-02T08:00:00Z'],
    ]);
    expect(found.map((r) => r.classes[0]!.winnerTime)).toEqual([100, 200]);
    expect(found.map((r) => r.classes[0]!.runners[0]!.position)).toEqual([1, 2]);
  });

  it('a start is any result, valid or not; not starting, moving class or being out on the course is none', () => {
    const started: ResultStatus[] = ['OK', 'MissingPunch', 'Disqualified', 'DidNotFinish', 'OverTime', 'NotCompeting'];
    const not: ResultStatus[] = ['DidNotStart', 'DidNotEnter', 'Moved', 'MovedUp', 'Cancelled', 'Active', 'Inactive'];
    expect(started.every(isStart)).toBe(true);
    expect(not.some(isStart)).toBe(false);
  });
});

describe('a cup: which races and classes count', () => {
  const rules = cupRules;
  const dated = () => races().map((race) => ({ race, day: race.date!.slice(0, 10) }));

  it('every filter empty: every race of the range', () => {
    expect(cupStandings(rules(), dated(), () => true).races.map((r) => r.eventId)).toEqual(['501', '502']);
  });

  it('the date range is inclusive and by local day; levels, disciplines and chosen events all apply', () => {
    const [first] = races();
    expect(raceCounts(rules({ from: '2026-04-11', to: '2026-04-11' }), first!, '2026-04-11')).toBe(true);
    expect(raceCounts(rules({ from: '2026-04-12' }), first!, '2026-04-11')).toBe(false);
    expect(raceCounts(rules(), first!, null)).toBe(false);
    expect(raceCounts(rules({ levels: ['national'] }), first!, '2026-04-11')).toBe(false);
    expect(raceCounts(rules({ levels: ['local', 'national'] }), first!, '2026-04-11')).toBe(true);
    expect(raceCounts(rules({ disciplines: ['2'] }), first!, '2026-04-11')).toBe(false);
    expect(raceCounts(rules({ eventIds: ['502'] }), first!, '2026-04-11')).toBe(false);
    expect(raceCounts(rules({ eventIds: ['501'], levels: ['local'] }), first!, '2026-04-11')).toBe(true);
  });

  it('classes that do not count leave their runners out; races index the races that count', () => {
    const only = cupStandings(rules({ eventIds: ['502'], classes: ['D21'] }), dated(), (name) => name === 'D21');
    expect(only.races.map((r) => r.eventId)).toEqual(['502']);
    expect(only.standings).toEqual([]);
    const second = cupStandings(rules({ eventIds: ['502'] }), dated(), () => true);
    expect(second.standings[0]).toMatchObject({ name: 'Karl Holm', points: 25, counted: [{ race: 0, points: 25 }] });
  });
});
