/**
 * What /splits shows of a result list (src/app/splits.ts): the member's race, leg and course, the
 * club's runners drawn strong, and one refusal for each list that leaves nothing to show. Then the
 * answer's payload: the words, the pictures as files and the embeds pointing at them.
 */
import { describe, expect, it } from 'vitest';
import { MAX_HIGHLIGHT, splitsView } from '../../src/app/splits.js';
import type { OrganisationRef, PersonResult, RaceResult, TeamResult } from '../../src/eventor/model.js';
import { BARS_FILE, GRAPH_FILE, renderSplitsAnswer, splitsPictureTitle } from '../../src/render/index.js';
import {
  CLUB,
  classResult,
  ctx,
  OTHER,
  personResult,
  raceResult,
  resultList,
  validPayloads,
} from '../support/render-fixtures.js';

const CODES = ['31', '32', '33'];

/** A race result over `codes` whose legs take `legs` seconds each (the last leg to the finish). */
function run(legs: number[], overrides: Partial<RaceResult> = {}, codes = CODES): RaceResult {
  let at = 0;
  const splits = codes.map((controlCode, i) => ({ controlCode, time: (at += legs[i]!), status: 'OK' as const }));
  return raceResult({ time: at + legs[codes.length]!, splits, ...overrides });
}

const runner = (id: string, org: OrganisationRef, ...results: RaceResult[]): PersonResult =>
  personResult(id, 'Runner', id, org, results);

/** Six runners of a class, `club` of them from the club: ids p1.. in result order (p1 fastest). */
function field(club: number, overrides: Partial<RaceResult> = {}): PersonResult[] {
  return Array.from({ length: 6 }, (_, i) =>
    runner(`p${i + 1}`, i < club ? CLUB : OTHER, run([60 + i * 5, 70 + i * 3, 80 + i * 7, 20 + i], overrides)),
  );
}

const request = (personIds: string[] = [], className: string | null = null, named = false) => ({
  personIds,
  className,
  named,
});
const name = (view: ReturnType<typeof splitsView>, i: number) => view.course.results[i]!.personId;

describe('splitsView: which course, and who is drawn strong', () => {
  it("the member first, then the club's runners in result order; the other classes with club runners", () => {
    const list = resultList([classResult('H21', field(3)), classResult('D21', field(1)), classResult('H50', field(0))]);
    const view = splitsView(list, CLUB.id!, request(['p3']));
    expect(view.group).toEqual({ class: 'H21', race: null, leg: null });
    expect(name(view, view.focus!)).toBe('p3');
    expect(view.highlight.map((i) => name(view, i))).toEqual(['p3', 'p1', 'p2']);
    expect(view.otherClasses).toEqual(['D21']);
    expect(view.ownNotFound).toBe(false);
  });

  it("without a member, the club's first class; a caller without a result gets the club's runners", () => {
    const list = resultList([classResult('H21', field(0)), classResult('D21', field(2))]);
    const club = splitsView(list, CLUB.id!, request());
    expect([club.group.class, club.focus, club.ownNotFound]).toEqual(['D21', null, false]);
    const own = splitsView(list, CLUB.id!, request(['nobody']));
    expect([own.group.class, own.focus, own.ownNotFound]).toEqual(['D21', null, true]);
  });

  it('without a member, a club class too small to compare gives way to the next one with enough runners', () => {
    const pair = field(2).slice(0, 2);
    const list = resultList([classResult('H21', pair), classResult('D21', field(1))]);
    const view = splitsView(list, CLUB.id!, request());
    expect([view.group.class, view.focus]).toEqual(['D21', null]);
    // With no class large enough, the refusal says why.
    expect(() => splitsView(resultList([classResult('H21', pair)]), CLUB.id!, request())).toThrow(
      'splits.error.tooFew',
    );
  });

  it("a member with several persons: the first of them, in the member's order, with a result", () => {
    const list = resultList([classResult('H21', field(3))]);
    const view = splitsView(list, CLUB.id!, request(['absent', 'p4', 'p2']));
    expect(name(view, view.focus!)).toBe('p4');
  });

  it('draws at most a dozen strong', () => {
    const many = Array.from({ length: 20 }, (_, i) => runner(`c${i}`, CLUB, run([60 + i, 70, 80, 20])));
    const view = splitsView(resultList([classResult('H21', many)]), CLUB.id!, request(['c15']));
    expect(view.highlight).toHaveLength(MAX_HIGHLIGHT);
    expect(name(view, view.highlight[0]!)).toBe('c15');
  });

  it('a multi-race event: the latest race the member ran', () => {
    const persons = [1, 2, 3, 4].map((n) =>
      runner(
        `p${n}`,
        CLUB,
        run([60 + n, 70, 80, 20], { raceNumber: 1 }),
        ...(n === 4 ? [] : [run([50 + n, 60, 70, 20], { raceNumber: 2 })]),
      ),
    );
    const list = resultList([classResult('H21', persons)]);
    const latest = splitsView(list, CLUB.id!, request(['p1']));
    expect(latest.group.race).toBe('2');
    expect(splitsPictureTitle(latest, 'en')).toBe('H21, Stage 2');
    expect(splitsView(list, CLUB.id!, request(['p4'])).group.race).toBe('1');
  });

  it("a relay: the member's leg", () => {
    const team = (n: number): TeamResult => ({
      name: `Team ${n}`,
      organisations: [CLUB],
      bibNumber: null,
      startTime: null,
      finishTime: null,
      time: null,
      timeBehind: null,
      position: null,
      status: 'OK',
      members: [1, 2].map((leg) => ({
        person: {
          id: `t${n}l${leg}`,
          name: { given: 'Leg', family: `${n}-${leg}` },
          sex: null,
          birthDate: null,
          countryCode: null,
        },
        organisation: null,
        leg,
        legOrder: null,
        result: run([60 + n * leg, 70, 80, 20]),
      })),
    });
    const list = resultList([classResult('H21', [], { teams: [1, 2, 3].map(team) })]);
    const view = splitsView(list, CLUB.id!, request(['t2l2']));
    expect(view.group.leg).toBe(2);
    expect(splitsPictureTitle(view, 'sv')).toBe('H21, Sträcka 2');
    expect(name(view, view.focus!)).toBe('t2l2');
    // Relay members run for their team's club.
    expect(view.highlight).toHaveLength(3);
  });

  it("a forked class: the member's course", () => {
    const other = ['41', '42', '43'];
    const persons = [...field(0), ...[1, 2, 3].map((n) => runner(`f${n}`, CLUB, run([60 + n, 70, 80, 20], {}, other)))];
    const view = splitsView(resultList([classResult('H21', persons)]), CLUB.id!, request(['f2']));
    expect(view.course.controls).toEqual(other);
    expect(name(view, view.focus!)).toBe('f2');
  });

  it('the class option matches names whatever the case; the member not in it is an error when named', () => {
    const open = field(1).map((p) => ({ ...p, person: { ...p.person!, id: `o${p.person!.id}` } }));
    const list = resultList([classResult('H21', field(2)), classResult('Öppen 1', open)]);
    expect(splitsView(list, CLUB.id!, request([], 'öppen 1')).group.class).toBe('Öppen 1');
    expect(() => splitsView(list, CLUB.id!, request(['p2'], 'Öppen 1', true))).toThrow('splits.error.notInResults');
    expect(splitsView(list, CLUB.id!, request(['p2'], 'Öppen 1')).ownNotFound).toBe(true);
  });
});

describe('splitsView: one refusal for each list with nothing to show', () => {
  const refusal = (list: ReturnType<typeof resultList>, req = request()) => {
    try {
      splitsView(list, CLUB.id!, req);
    } catch (error) {
      return (error as Error).message;
    }
    return 'no refusal';
  };

  it('no results, no splits, an unknown class, too few runners, nobody from the club, a named member not there', () => {
    expect(refusal(resultList([]))).toBe('splits.error.noResults');
    const bare = field(2).map((p) => ({ ...p, results: p.results.map((r) => ({ ...r, splits: [] })) }));
    expect(refusal(resultList([classResult('H21', bare)]))).toBe('splits.error.noSplits');
    expect(refusal(resultList([classResult('H21', field(2))]), request([], 'D99'))).toBe('splits.error.unknownClass');
    expect(refusal(resultList([classResult('H21', field(2).slice(0, 2))]))).toBe('splits.error.tooFew');
    expect(refusal(resultList([classResult('H21', field(0))]))).toBe('splits.error.noClubRunners');
    expect(refusal(resultList([classResult('H21', field(2))]), request(['x'], null, true))).toBe(
      'splits.error.notInResults',
    );
  });
});

describe('renderSplitsAnswer', () => {
  const list = resultList([classResult('H21', field(3)), classResult('D21', field(1))]);
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

  it('the graph and the bars as files with alt text, the embeds pointing at them, within limits', () => {
    const view = splitsView(list, CLUB.id!, request(['p2']));
    const payload = renderSplitsAnswer(
      view,
      { graph: { png, alt: 'graph alt' }, bars: { png, alt: 'x'.repeat(2000) } },
      ctx(),
    );
    validPayloads(payload);
    expect(payload.pictures!.map((p) => [p.name, p.description.length])).toEqual([
      [GRAPH_FILE, 9],
      [BARS_FILE, 1024],
    ]);
    expect(payload.embeds!.map((e) => e.image?.url)).toEqual([
      `attachment://${GRAPH_FILE}`,
      `attachment://${BARS_FILE}`,
    ]);
    const text = payload.embeds![0]!.description!;
    expect(text).toContain('**Runner p2** 2.');
    expect(text).toContain('Other classes with club runners: D21');
  });

  it('in Swedish, without pictures: no files and no image', () => {
    const view = splitsView(list, CLUB.id!, request());
    const payload = renderSplitsAnswer(view, { graph: null, bars: null }, ctx('sv'));
    expect(payload.pictures).toBeUndefined();
    expect(payload.embeds![0]!.image).toBeUndefined();
    expect(payload.embeds![0]!.title).toContain('Sträcktider: H21');
  });
});
