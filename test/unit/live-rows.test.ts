/**
 * Reading LiveResultat's rows (src/live/rows.ts, text.ts): units, statuses, places, splits and
 * their suffixes, double uploads, LiveRes's differences, invalid JSON; and what changed between
 * two reads (changes.ts).
 */
import { describe, expect, it } from 'vitest';
import { finishesSince, runnerKey } from '../../src/live/changes.js';
import { clockText, competitionMidnight, secondsIntoDay } from '../../src/live/day.js';
import { LiveError } from '../../src/live/errors.js';
import type { LiveRunner } from '../../src/live/model.js';
import { controlsFrom, lastRadio, liveStatusOf, runnersFromRows, statusAt } from '../../src/live/rows.js';
import { cleanText, LIVE_TEXT_MAX, parseLiveJson } from '../../src/live/text.js';
import { liveRunner } from '../support/live-runners.js';

const CONTROLS = controlsFrom([
  { code: 1049, name: '(49)' },
  { code: '1050', name: 'Radio' },
  { code: 1000, name: 'Finish' },
  { code: 100, name: 'Start' },
]);

describe('rows into runners', () => {
  it('reads a REST row: hundredths into whole seconds, place, behind and the radio controls by their suffixes', () => {
    const [runner] = runnersFromRows(
      [
        {
          place: '1',
          name: 'Anna Berg',
          club: 'OK Exempel',
          bib: '303',
          result: 252099,
          status: 0,
          timeplus: 0,
          progress: 100,
          start: 4380000,
          changed: 1789302753,
          splits: {
            '1049': 229900,
            '1049_status': 0,
            '1049_place': 7,
            '1049_timeplus': 1550,
            '1049_changed': 1789302753,
            '1050': '',
            '1050_status': 1,
            '1050_place': '',
          },
        },
      ],
      'H21',
      CONTROLS,
    );
    expect(CONTROLS).toEqual([
      { code: 1049, name: '(49)' },
      { code: 1050, name: 'Radio' },
    ]);
    expect(runner).toEqual({
      name: 'Anna Berg',
      club: 'OK Exempel',
      className: 'H21',
      status: 'finished',
      start: 43800,
      time: 2520,
      place: 1,
      behind: 0,
      radios: [
        { code: 1049, time: 2299, place: 7, behind: 15 },
        { code: 1050, time: null, place: null, behind: null },
      ],
      changedAt: 1789302753,
    });
    expect(lastRadio(runner!)).toEqual({ code: 1049, time: 2299, place: 7, behind: 15 });
  });

  it('reads an api.php row: times as strings, "" for none, "-3" for a non-starter, "=" a tie', () => {
    const runners = runnersFromRows(
      [
        { place: '1', name: 'A', club: 'K', result: '252000', status: 0, timeplus: '0', start: 3600000 },
        { place: '=', name: 'B', club: 'K', result: '252000', status: 0, timeplus: '0', start: 3600000 },
        { place: '3', name: 'C', club: 'K', result: '260000', status: 0, timeplus: '8000', start: '' },
        { place: '', name: 'D', club: 'K', result: '', status: 9, timeplus: '', start: 3700000 },
        { place: '-', name: 'E', club: 'K', result: '-3', status: 1, timeplus: '', start: 3700000 },
      ],
      'D21',
      [],
    );
    expect(runners.map((r) => [r.name, r.status, r.place, r.time, r.behind, r.start])).toEqual([
      ['A', 'finished', 1, 2520, 0, 36000],
      ['B', 'finished', 1, 2520, 0, 36000],
      ['C', 'finished', 3, 2600, 80, null],
      ['D', 'not-started', null, null, null, 37000],
      ['E', 'dns', null, null, null, 37000],
    ]);
  });

  it('LiveRes: a leader with a negative lead is 0 behind; "F" (finished, not approved) is no place', () => {
    const runners = runnersFromRows(
      [
        { place: '1', name: 'A', club: 'K', result: 100000, status: 0, timeplus: -1500, start: 3600000 },
        { place: 'F', name: 'B', club: 'K', result: 110000, status: 13, timeplus: 10000, start: 3600000 },
      ],
      'H21',
      [],
    );
    expect(runners.map((r) => [r.status, r.place, r.behind])).toEqual([
      ['finished', 1, 0],
      ['finished', null, 100],
    ]);
  });

  it('folds a double upload into one runner: the row with a result, else the one with punches', () => {
    const real = {
      place: '2',
      name: 'Anna Berg',
      club: 'OK Exempel',
      result: 250000,
      status: 0,
      timeplus: 500,
      start: 4380000,
    };
    const ghost = {
      place: '',
      name: 'Anna Berg',
      club: 'OK Exempel',
      result: '',
      status: 9,
      timeplus: '',
      start: 4380000,
    };
    const other = {
      place: '1',
      name: 'Bo Ek',
      club: 'OK Exempel',
      result: 249500,
      status: 0,
      timeplus: 0,
      start: 4300000,
    };
    expect(runnersFromRows([ghost, other, real], 'H21', []).map((r) => [r.name, r.status])).toEqual([
      ['Anna Berg', 'finished'],
      ['Bo Ek', 'finished'],
    ]);
    // Namesakes of one club and class start apart: two runners, not a ghost.
    const namesake = { ...real, place: '3', result: 260000, start: 4500000 };
    expect(runnersFromRows([real, namesake], 'H21', []).map((r) => [r.name, r.place])).toEqual([
      ['Anna Berg', 2],
      ['Anna Berg', 3],
    ]);
    const out = { ...ghost, splits: { '1049': 100000, '1049_status': 0, '1049_place': 1 } };
    const [one] = runnersFromRows([ghost, out], 'H21', CONTROLS);
    expect(one!.status).toBe('running');
  });

  it('maps every status code; 9 and 10 and an OK without time say only "no result yet"', () => {
    expect([0, 1, 2, 3, 4, 5, 11, 12, 13, 20, 99].map((code) => liveStatusOf(code, 100, false))).toEqual([
      'finished',
      'dns',
      'dnf',
      'mp',
      'dsq',
      'other',
      'dns',
      'other',
      'finished',
      'other',
      'other',
    ]);
    expect([9, 10, 0, null].map((code) => liveStatusOf(code, null, false))).toEqual(Array(4).fill('not-started'));
    expect([9, 10, 0].map((code) => liveStatusOf(code, null, true))).toEqual(Array(3).fill('running'));
  });

  it('a runner without a result is out once the start time has passed', () => {
    const [runner] = runnersFromRows([{ name: 'A', club: 'K', status: 10, start: 3600000 }], 'H21', []);
    expect(statusAt(runner!, 35_999)).toBe('not-started');
    expect(statusAt(runner!, 36_000)).toBe('running');
  });

  it('ignores what is not a row, and keeps no nameless runner', () => {
    expect(runnersFromRows([null, 7, 'x', [], { name: '' }, { name: '  ', club: 'K' }], 'H21', [])).toEqual([]);
    expect(runnersFromRows({ not: 'a list' }, 'H21', [])).toEqual([]);
  });
});

describe('text from the service', () => {
  it('mends invalid JSON with a raw control character; refuses what is not JSON with one line', () => {
    // The tab kept, so that a class named so can be asked for again; names are cleaned later.
    expect(parseLiveJson('{"name":"Anna\tBerg"}', 'x', 'legacy')).toEqual({ name: 'Anna\tBerg' });
    // A control character between the tokens too: each read as a space.
    expect(parseLiveJson('{\u0001"name":"Anna\tBerg"}', 'x', 'legacy')).toEqual({ name: 'Anna Berg' });
    const error = (() => {
      try {
        parseLiveJson('<!DOCTYPE html><html>down</html>', 'api.php getclasses', 'legacy');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LiveError);
    expect((error as LiveError).message).toBe('the answer to api.php getclasses is an HTML page');
    expect(() => parseLiveJson('{"a":', 'x', 'rest')).toThrow('is not valid JSON');
  });

  it('names become one line, cut at LIVE_TEXT_MAX characters', () => {
    expect(cleanText(' Anna\n\u0000 Berg\u0085 ')).toBe('Anna Berg');
    const long = cleanText('x'.repeat(5000));
    expect(long.length).toBe(LIVE_TEXT_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(cleanText({ toString: () => 'no' })).toBe('');
  });
});

describe('the competition day', () => {
  const base = { date: '2026-03-29', timeZone: null, timediff: 0 };
  it('counts from local midnight: the named zone, else Swedish time shifted by timediff', () => {
    expect(new Date(competitionMidnight(base)).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(competitionMidnight({ ...base, timediff: 1 })).toISOString()).toBe('2026-03-28T22:00:00.000Z');
    expect(new Date(competitionMidnight({ ...base, timeZone: 'Europe/Helsinki' })).toISOString()).toBe(
      '2026-03-28T22:00:00.000Z',
    );
    // The clocks go forward that night: 10:00 is 9 hours of real time after midnight.
    expect(secondsIntoDay(base, new Date('2026-03-29T08:00:00Z'))).toBe(9 * 3600);
    expect(clockText(34_200)).toBe('09:30:00');
  });
});

describe('what changed', () => {
  const runner = (over: Partial<LiveRunner>): LiveRunner =>
    liveRunner({ name: 'Astrid Berg', club: 'OK', status: 'running', start: 36000, ...over });
  it('tells each finish once, and a changed final state as a correction', () => {
    const out = runner({});
    const home = runner({ status: 'finished', time: 1800, place: 2, behind: 41 });
    expect(finishesSince(null, [out])).toEqual([]);
    expect(finishesSince([out], [home])).toEqual([{ runner: home, key: runnerKey(home), corrected: false }]);
    expect(finishesSince([home], [home])).toEqual([]);
    const moved = { ...home, place: 3 };
    expect(finishesSince([home], [moved])).toEqual([{ runner: moved, key: runnerKey(home), corrected: true }]);
    expect(runnerKey(home)).toBe(runnerKey({ ...home, name: 'ASTRID  berg' }));
    expect(runnerKey(home)).not.toBe(runnerKey({ ...home, start: 36120 }));
  });
});
