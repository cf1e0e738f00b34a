/**
 * Every renderer against data made to break Discord's limits: 20,000 runners, 300 classes, a
 * 10,000-character organiser message, markdown and mentions in every name. Each payload must pass
 * the sandbox Discord's validator.
 */
import { describe, expect, it } from 'vitest';
import type { ClassResult, Entry, EntryFee, EventDocument, SplitTime, StartList } from '../../src/eventor/model.js';
import { renderResultDms, renderStartDms } from '../../src/render/dms.js';
import {
  type MessagePayload,
  renderActivities,
  renderActivity,
  renderClubEntries,
  renderClubEntriesOverview,
  renderClubResults,
  renderClubStartList,
  renderEventCard,
  renderEventList,
  renderPersonResults,
  renderPersonStarts,
} from '../../src/render/index.js';
import {
  activity,
  CLUB,
  classResult,
  ctx,
  entry,
  event,
  eventClass,
  OTHER,
  personResult,
  raceResult,
  resultList,
  startList,
  textOf,
  validPayloads,
} from '../support/render-fixtures.js';

const NASTY = 'A*b_c~~d||e`f`\u0000 @everyone <@1> [x](y) **';
const MESSAGE = Array.from({ length: 400 }, (_, i) => `**${i}** _@everyone_ <@&${i}> ~~||x||~~ \`\``)
  .join('\n')
  .slice(0, 10_000)
  .padEnd(10_000, '*');

/** Valid, and no mention left whole in any text (every name here carries some). */
function allValid(payloads: MessagePayload[]): void {
  for (const payload of validPayloads(payloads)) {
    const text = textOf(payload);
    expect(text).not.toContain('@everyone');
    expect(text).not.toMatch(/<@&?\d/);
  }
}

/** 40 races of event 1 with every text field made to break limits; their ids are `prefix` and a number. */
function nastyRaces(prefix: string) {
  return Array.from({ length: 40 }, (_, i) => ({
    id: `${prefix}${i}`,
    eventId: '1',
    name: NASTY.repeat(3),
    date: '2026-12-05T09:00:00Z',
    distance: NASTY,
    lightCondition: 'Night',
    position: null,
  }));
}

function bigResultList(runners: number, classes: number): ReturnType<typeof resultList> {
  const perClass = Math.ceil(runners / classes);
  const list: ClassResult[] = [];
  for (let c = 0; c < classes; c += 1) {
    const persons = [];
    for (let i = 0; i < perClass && c * perClass + i < runners; i += 1) {
      const n = c * perClass + i;
      const splits: SplitTime[] = Array.from({ length: 25 }, (_, k) => ({
        controlCode: String(31 + k),
        time: 60 * (k + 1) + i,
        status: k === 7 && n % 7 === 0 ? 'Missing' : 'OK',
      }));
      persons.push(
        personResult(`p${n}`, `${NASTY}${n}`, 'Svensson-Långnamn', n % 10 === 0 ? CLUB : OTHER, [
          raceResult({
            position: i + 1,
            time: 1800 + i * 7,
            timeBehind: i * 7,
            splits,
            status: n % 13 === 5 ? 'MissingPunch' : 'OK',
          }),
        ]),
      );
    }
    list.push(classResult(`H${c} ${NASTY}`, persons, { numberOfStarts: persons.length }));
  }
  return resultList(list, { name: `Stor tävling ${NASTY}` });
}

describe('limits', () => {
  const big = bigResultList(20_000, 300);

  it('club results of a 20,000-runner list, with splits, stay within limits and say how many more', () => {
    const pages = renderClubResults(big, ctx('sv'), { organisationId: '321', top: 3, splits: true });
    allValid(pages);
    expect(pages.length).toBe(10);
    expect(pages[0]!.embeds![0]!.footer!.text).toBe('Sida 1 av 10');
    expect(pages[9]!.embeds![0]!.description).toMatch(/…och \d+ till$/);
    expect(textOf(pages[0]!)).toContain('Resultat från klubben: 2000');
    const unlimited = renderClubResults(big, ctx('en'), {
      organisationId: '321',
      top: 3,
      splits: false,
      maxPages: 1000,
    });
    allValid(unlimited);
    expect(unlimited.at(-1)!.embeds![0]!.description).not.toMatch(/more$/);
  });

  it('a member with 300 results and splits', () => {
    const lists = big.classes.map((c) => ({ ...big, classes: [{ ...c, persons: c.persons.slice(0, 1) }] }));
    allValid(renderPersonResults(NASTY, lists, ctx('en'), { splits: true, maxPages: 3 }));
  });

  it('an event card with a 10,000-character message, 300 classes, fees and documents', () => {
    const classes = Array.from({ length: 300 }, (_, i) => eventClass(String(i), `${NASTY} ${i}`));
    const fees: EntryFee[] = Array.from({ length: 300 }, (_, i) => ({
      id: String(i),
      name: NASTY,
      amount: i,
      currency: 'SEK',
      type: null,
      valueOperator: 'fixed',
      taxIncluded: null,
      validFrom: null,
      validTo: null,
      birthDateFrom: null,
      birthDateTo: null,
    }));
    const documents: EventDocument[] = Array.from({ length: 300 }, (_, i) => ({
      id: String(i),
      eventId: '1',
      name: NASTY.repeat(5),
      url: `https://example.org/${'d'.repeat(400)}/${i}.pdf`,
      type: null,
      modifiedAt: null,
    }));
    const races = nastyRaces('');
    const e = event({
      name: NASTY.repeat(20),
      message: MESSAGE,
      organisers: Array.from({ length: 50 }, (_, i) => ({
        id: String(i),
        name: NASTY.repeat(3),
        shortName: null,
        countryCode: null,
      })),
      races,
      entryDeadlines: Array.from(
        { length: 50 },
        (_, i) => `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
      ),
      urls: Array.from({ length: 50 }, (_, i) => `https://example.org/${i}`),
    });
    const [payload] = [renderEventCard(e, { classes, fees, documents, clubEntries: 12 }, ctx('sv'))];
    allValid([payload]);
    const embed = payload.embeds![0]!;
    expect(embed.fields!.find((f) => f.name === 'Klasser (300)')!.value).toMatch(/…och \d+ till$/);
    expect(embed.description!.startsWith('**Meddelande från arrangören**')).toBe(true);
    expect(embed.description!.endsWith('…')).toBe(true);
    expect(embed.title).toContain('A\\*b\\_c');
  });

  it('an event list of 1,000 events with nasty names, any page, any page size', () => {
    const events = Array.from({ length: 1000 }, (_, i) =>
      event({
        id: String(10_000 + i),
        name: NASTY.repeat(10),
        organisers: [{ id: '1', name: NASTY.repeat(10), shortName: null, countryCode: null }],
      }),
    );
    for (const page of [-5, 1, 2, 40, 1000]) {
      const payload = renderEventList(events, ctx('en'), {
        page,
        pageSize: 100,
        customIds: { page: (n) => `p:${n}`, pick: 'pick' },
      });
      allValid([payload]);
      const select = payload.components![0]!.components[0] as { options: unknown[] };
      expect(select.options.length).toBe(25);
    }
  });

  it('entries: 5,000 in 300 classes; the overview of 500 events', () => {
    const entries: Entry[] = Array.from({ length: 5000 }, (_, i) => entry(String(i), NASTY, `Ek${i}`, String(i % 300)));
    const classes = Array.from({ length: 300 }, (_, i) => eventClass(String(i), `${NASTY}${i}`));
    const pages = renderClubEntries(event({ name: NASTY.repeat(20) }), entries, ctx('nb'), { classes });
    allValid(pages);
    expect(pages.at(-1)!.embeds![0]!.description).toMatch(/…og \d+ til$/);
    allValid(
      renderClubEntriesOverview(
        Array.from({ length: 500 }, (_, i) => ({ event: event({ id: String(i), name: NASTY.repeat(10) }), count: i })),
        ctx('en'),
      ),
    );
  });

  it('start lists: 20,000 runners in 300 classes, the club and one member', () => {
    const classes: StartList['classes'] = Array.from({ length: 300 }, (_, c) => ({
      class: { id: String(c), name: `${NASTY}${c}`, shortName: null, resultListMode: 'Default' as const },
      numberOfEntries: 67,
      courses: [],
      persons: Array.from({ length: 67 }, (_, i) => ({
        person: {
          id: `p${c}-${i}`,
          name: { given: NASTY, family: String(i) },
          sex: null,
          birthDate: null,
          countryCode: null,
        },
        organisation: i % 2 === 0 ? CLUB : OTHER,
        starts: [1, 2, 3].map((raceNumber) => ({
          raceId: null,
          raceNumber,
          startTime: `2026-12-0${raceNumber}T10:${String(i % 60).padStart(2, '0')}:00Z`,
          bibNumber: NASTY,
          cards: [],
          course: null,
        })),
      })),
      teams: [],
    }));
    const list = startList(classes, { name: NASTY.repeat(20) });
    allValid(renderClubStartList(list, ctx('sv'), { organisationId: '321' }));
    allValid(renderPersonStarts(NASTY.repeat(20), [list], ctx('en')));
  });

  it('activities: 500 of them, and one with 10,000 characters of information', () => {
    allValid(
      renderActivities(
        Array.from({ length: 500 }, (_, i) =>
          activity({ id: String(i), name: NASTY.repeat(10), url: `https://example.org/${i}` }),
        ),
        ctx('sv'),
      ),
    );
    const payload = renderActivity(
      activity({ name: NASTY.repeat(20), information: MESSAGE, url: `https://example.org/${'x'.repeat(600)}` }),
      ctx('en'),
    );
    allValid([payload]);
    expect(payload.components).toBeUndefined();
  });

  it('personal DMs: every field at its longest, relay legs, 40 races, in every language', () => {
    const races = nastyRaces('r');
    const longEvent = { name: NASTY.repeat(20), races };
    const course = { name: NASTY.repeat(10), length: 123_456, climb: 9_999, controls: 99 };
    const cards = [{ number: NASTY.repeat(10), type: 'SI' as const }];
    const person = (id: string) => ({
      id,
      name: { given: NASTY.repeat(10), family: NASTY.repeat(10) },
      sex: null,
      birthDate: null,
      countryCode: null,
    });
    const start = (raceId: string) => ({
      raceId,
      raceNumber: null,
      startTime: '2026-12-05T10:00:00Z',
      bibNumber: NASTY.repeat(10),
      cards,
      course,
    });
    const starts = startList(
      [
        {
          class: { id: 'c', name: NASTY.repeat(10), shortName: null, resultListMode: 'Default' as const },
          numberOfEntries: 1,
          courses: [],
          persons: [{ person: person('me'), organisation: CLUB, starts: races.slice(0, 39).map((r) => start(r.id)) }],
          teams: [
            {
              name: NASTY.repeat(10),
              organisations: [CLUB],
              bibNumber: NASTY.repeat(10),
              startTime: '2026-12-05T10:00:00Z',
              members: [
                {
                  person: person('me'),
                  organisation: CLUB,
                  leg: 3,
                  legOrder: 1,
                  start: { ...start('r0'), raceId: 'r39', startTime: null },
                },
              ],
            },
          ],
        },
      ],
      longEvent,
    );
    const standing = { time: 99_999, timeBehind: 99_999, position: 999, status: 'OK' as const };
    const result = (raceId: string) =>
      raceResult({ raceId, raceNumber: null, ...standing, overall: standing, course, cards, bibNumber: NASTY });
    const results = resultList(
      [
        classResult(
          NASTY.repeat(10),
          [
            personResult(
              'me',
              NASTY.repeat(10),
              NASTY.repeat(10),
              CLUB,
              races.slice(0, 39).map((r) => result(r.id)),
            ),
          ],
          { numberOfStarts: 9_999 },
        ),
        classResult(`${NASTY}relay`, [], {
          teams: [
            {
              name: NASTY.repeat(10),
              organisations: [CLUB],
              bibNumber: NASTY,
              startTime: null,
              finishTime: null,
              ...standing,
              members: [
                {
                  person: person('me'),
                  organisation: CLUB,
                  leg: 7,
                  legOrder: 1,
                  result: { ...result('r39'), status: 'MissingPunch' },
                },
              ],
            },
          ],
        }),
      ],
      longEvent,
    );
    for (const language of ['en', 'sv', 'nb'] as const) {
      for (const own of [true, false]) {
        const options = { personId: 'me', own, server: NASTY.repeat(20) };
        const startDms = renderStartDms([starts], ctx(language), options);
        // One per race: 39 of their own and the relay leg in the last, each within Discord's limits.
        expect(startDms).toHaveLength(40);
        allValid(startDms.map((dm) => dm.payload));
        const resultDms = renderResultDms([results], ctx(language), options);
        expect(resultDms).toHaveLength(40);
        allValid(resultDms.map((dm) => dm.payload));
      }
    }
  });

  it('names with markdown and backticks come out escaped', () => {
    const list = resultList([
      classResult('H21', [
        personResult('b', '*Bo*_`x`', '~~Ek~~||y||', CLUB, [raceResult({ position: 1, time: 60, timeBehind: 0 })]),
      ]),
    ]);
    const text = textOf(renderClubResults(list, ctx('en'), { organisationId: '321', top: 0, splits: false })[0]!);
    expect(text).toContain('**\\*Bo\\*\\_\\`x\\` \\~\\~Ek\\~\\~\\|\\|y\\|\\|**');
    void OTHER;
  });
});
