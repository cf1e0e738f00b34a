/** /next and the day-before reminder: the join of entries, events and start lists, and their rendering. */
import { describe, expect, it } from 'vitest';
import { nextRacesOf } from '../../src/club/next-races.js';
import type { StartList } from '../../src/eventor/model.js';
import { LOGIN_BUTTON_ID } from '../../src/render/login-button.js';
import { type NextRace, renderDayBeforeDm, renderNextRaces } from '../../src/render/next.js';
import { CLUB, ctx, entry, event, NOW, startList, textOf, validPayloads } from '../support/render-fixtures.js';

function race(overrides: Partial<NextRace> = {}): NextRace {
  const e = event();
  return {
    personId: 'p1',
    event: e,
    race: null,
    at: e.start,
    className: 'H21',
    start: '2026-12-05T09:32:00Z',
    ...overrides,
  };
}

function drawn(personId: string, className: string, startTime: string): StartList {
  return startList([
    {
      class: { id: 'c1', name: className, shortName: null, resultListMode: 'Default' },
      numberOfEntries: 1,
      courses: [],
      persons: [
        {
          person: {
            id: personId,
            name: { given: 'Anna', family: 'Berg' },
            sex: null,
            birthDate: null,
            countryCode: null,
          },
          organisation: CLUB,
          starts: [{ raceId: null, raceNumber: 1, startTime, bibNumber: null, cards: [], course: null }],
        },
      ],
      teams: [],
    },
  ]);
}

describe('the races a person has entered (nextRacesOf)', () => {
  const entries = [entry('1', 'Anna', 'Berg', 'c1'), entry('2', 'Olle', 'Berg', 'c2')];

  it('takes the class and start time from a start list, else the class list, and only the persons asked', () => {
    const classNames = new Map([
      ['c1', 'D21'],
      ['c2', 'H12'],
    ]);
    const undrawn = nextRacesOf({ entries, events: [event()], startLists: [], classNames }, ['p1'], NOW);
    expect(undrawn).toEqual([
      expect.objectContaining({ personId: 'p1', className: 'D21', start: null, at: '2026-12-05T09:00:00Z' }),
    ]);
    const lists = [drawn('p1', 'D21 Lång', '2026-12-05T10:32:00Z')];
    const both = nextRacesOf({ entries, events: [event()], startLists: lists, classNames }, ['p1', 'p2'], NOW);
    expect(both.map((r) => [r.personId, r.className, r.start])).toEqual([
      ['p2', 'H12', null],
      ['p1', 'D21 Lång', '2026-12-05T10:32:00Z'],
    ]);
  });

  it('leaves out races long past and events Eventor did not give, keeps a cancelled one', () => {
    const past = event({ id: '1001', start: '2026-11-20T09:00:00Z', races: [] });
    expect(nextRacesOf({ entries, events: [past], startLists: [], classNames: new Map() }, ['p1'], NOW)).toEqual([]);
    expect(nextRacesOf({ entries, events: [], startLists: [], classNames: new Map() }, ['p1'], NOW)).toEqual([]);
    const cancelled = event({ status: 'canceled' });
    expect(
      nextRacesOf({ entries, events: [cancelled], startLists: [], classNames: new Map() }, ['p1'], NOW),
    ).toHaveLength(1);
  });

  it('lists each race entered of a multi-race event', () => {
    const races = [1, 2, 3].map((n) => ({
      id: `r${n}`,
      eventId: '1001',
      name: `Etapp ${n}`,
      date: `2026-12-0${4 + n}T09:00:00Z`,
      distance: null,
      lightCondition: null,
      position: null,
    }));
    const multi = event({ races });
    const stages = { ...entry('1', 'Anna', 'Berg', 'c1'), raceIds: ['r1', 'r3'] };
    const found = nextRacesOf(
      { entries: [stages], events: [multi], startLists: [], classNames: new Map() },
      ['p1'],
      NOW,
    );
    expect(found.map((r) => r.race?.id)).toEqual(['r1', 'r3']);
  });
});

describe('/next rendered', () => {
  it('shows class, start time, the map, the deadlines ahead and the login button, within the limits', () => {
    const [payload] = validPayloads(
      renderNextRaces([{ personId: 'p1', name: 'Anna Berg', own: true, races: [race()] }], ctx('en'), {
        refreshId: 'next:refresh:x',
      }),
    );
    const text = textOf(payload!);
    expect(text).toContain('Your next races');
    expect(text).toContain('Höstsprinten');
    expect(text).toContain('**H21**');
    expect(text).toContain('start **10:32**');
    expect(text).toContain('openstreetmap.org');
    // The ordinary deadline has passed; the late one is still ahead.
    expect(text).toContain('<t:1795993199:f>');
    expect(text).not.toContain('<t:1795215599:f>');
    const buttons = payload!.components![0]!.components.map((c) => ('custom_id' in c ? c.custom_id : null));
    expect(buttons).toEqual([LOGIN_BUTTON_ID, 'next:refresh:x']);
  });

  it('says when the start time is not out, the class unknown, or nothing is entered, in Swedish too', () => {
    const text = textOf(
      renderNextRaces(
        [
          { personId: 'p1', name: 'Anna Berg', own: true, races: [race({ start: null, className: null })] },
          { personId: 'p2', name: 'Olle Berg', own: false, races: [] },
        ],
        ctx('sv'),
      ),
    );
    expect(text).toContain('Nästa lopp för dina kopplade personer');
    expect(text).toContain('starttiden är inte ute än');
    expect(text).toContain('klassen är inte känd än');
    expect(text).toContain('Olle Berg har inga anmälningar');
  });

  it('escapes Eventor text and keeps whole races when there are too many to show', () => {
    const hostile = race({ event: event({ name: '@everyone **[x](https://evil.example)**' }) });
    const many = Array.from({ length: 60 }, (_, i) =>
      race({ event: event({ id: String(2000 + i), name: `Lopp ${'x'.repeat(80)} ${i}` }) }),
    );
    const [payload] = validPayloads(
      renderNextRaces([{ personId: 'p1', name: 'Anna', own: true, races: [hostile, ...many] }], ctx('en')),
    );
    const text = textOf(payload!);
    expect(text).not.toContain('@everyone');
    // The name's link syntax is escaped: only the link to Eventor is a link.
    expect(text).toContain('\\[x\\](https://evil.example)');
    expect(text).toMatch(/…and \d+ more|and \d+ more/);
    expect(payload!.embeds![0]!.description!.length).toBeLessThanOrEqual(4096);
  });
});

describe('the day-before reminder DM', () => {
  it('reads "Tomorrow 10:32, H21, <event>" with the map and a link, naming another person', () => {
    const [own] = validPayloads(
      renderDayBeforeDm(race(), ctx('en'), { own: true, personName: 'Anna', server: 'OK Linné' }),
    );
    expect(own!.content).toMatch(/^Tomorrow 10:32, \*\*H21\*\*, \*\*Höstsprinten\*\*/);
    expect(own!.content).toContain('openstreetmap.org');
    expect(own!.content).toContain('OK Linné');
    const [other] = validPayloads(
      renderDayBeforeDm(race({ start: null }), ctx('nb'), { own: false, personName: 'Olle Berg', server: null }),
    );
    expect(other!.content).toMatch(
      /^Olle Berg, i morgen: \*\*H21\*\*, \*\*Höstsprinten\*\* \(starttiden er ikke ute ennå\)/,
    );
  });
});
