import { describe, expect, it } from 'vitest';
import {
  discordTimestamp,
  escapeEventorText,
  fitPayload,
  formatPlace,
  formatStatus,
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
  splitRows,
  splitTable,
  truncate,
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

describe('shared pieces', () => {
  it('formats a Discord timestamp for a known instant', () => {
    expect(discordTimestamp('2026-05-01T10:00:00Z', 'D')).toBe('<t:1777629600:D>');
    expect(discordTimestamp('2026-05-01T10:00:00Z', 'R')).toBe('<t:1777629600:R>');
  });

  it('formats places and statuses', () => {
    expect(formatPlace(1, { medals: true })).toBe('🥇');
    expect(formatPlace(3, { medals: true })).toBe('🥉');
    expect(formatPlace(4, { medals: true })).toBe('4.');
    expect(formatPlace(null)).toBe('');
    expect(formatStatus('MissingPunch', 'en')).toBe('MP');
    expect(formatStatus('MissingPunch', 'sv')).toBe('Felst.');
    expect(formatStatus('DidNotFinish', 'nb')).toBe('Brutt');
    expect(formatStatus('DidNotStart', 'sv')).toBe('Ej start');
    expect(formatStatus('OK', 'en')).toBe('');
  });

  it('escapes markdown and neutralises mentions and control characters', () => {
    const text = escapeEventorText(
      '**Bold** _x_ @everyone @here <@123> <@&456> <#789> ~~s~~ ||sp|| `code`\u0007\u202Eend\n> quote\n# head',
    );
    expect(text).not.toMatch(/(?<!\\)\*\*/);
    expect(text).not.toContain('@everyone');
    expect(text).not.toContain('@here');
    expect(text).not.toMatch(/<[@#]/);
    expect(text).not.toContain('\u0007');
    expect(text).not.toContain('\u202E');
    expect(text).toContain('\\`code\\`');
    expect(text).toContain('\\> quote');
    expect(text).toContain('\\# head');
    expect(text).toContain('\\~\\~s\\~\\~');
  });

  it('truncates with an ellipsis and never splits a surrogate pair', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
    expect(truncate('ab🥇cd', 4)).toBe('ab…');
  });

  it('fitPayload cuts every limit and closes a cut code block', () => {
    const long = 'x'.repeat(5000);
    const payload = fitPayload({
      content: long,
      embeds: Array.from({ length: 12 }, () => ({
        title: long,
        description: `\`\`\`\n${long}`,
        fields: Array.from({ length: 30 }, () => ({ name: long, value: long })),
        footer: { text: long },
      })),
      components: Array.from({ length: 7 }, (_, r) => ({
        type: 1,
        components: Array.from({ length: 7 }, (_, b) => ({ type: 2, style: 2, custom_id: `b${r}-${b}`, label: long })),
      })),
    } as never);
    validPayloads(payload);
    expect(payload.embeds!.length).toBeLessThanOrEqual(10);
    expect(payload.embeds![0]!.description!.endsWith('```')).toBe(true);
    expect(payload.components!.length).toBe(5);
    expect(payload.components![0]!.components.length).toBe(5);
  });

  it('fitPayload drops a component whose custom id is too long or repeated, and always turns mentions off', () => {
    const payload = fitPayload({
      content: 'hi',
      allowedMentions: { parse: ['everyone'] },
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 2, custom_id: 'x'.repeat(101), label: 'a' },
            { type: 2, style: 2, custom_id: 'ok', label: 'b' },
            { type: 2, style: 2, custom_id: 'ok', label: 'c' },
          ],
        },
      ],
    } as never);
    validPayloads(payload);
    expect(payload.components![0]!.components.map((c) => (c as { label: string }).label)).toEqual(['b']);
  });
});

describe('splits', () => {
  const result = raceResult({
    time: 600,
    splits: [
      { controlCode: '31', time: 100, status: 'OK' },
      { controlCode: '99', time: 130, status: 'Additional' },
      { controlCode: '32', time: null, status: 'Missing' },
      { controlCode: '33', time: 400, status: 'OK' },
      { controlCode: '34', time: 520, status: 'OK' },
    ],
  });

  it('computes legs: Missing as -, Additional skipped, finish leg = total − last split', () => {
    expect(splitRows(result)).toEqual([
      { number: 1, code: '31', leg: 100, cumulative: 100 },
      { number: 2, code: '32', leg: null, cumulative: null },
      { number: 3, code: '33', leg: null, cumulative: 400 },
      { number: 4, code: '34', leg: 120, cumulative: 520 },
      { number: null, code: '', leg: 80, cumulative: 600 },
    ]);
  });

  it('is a narrow code block', () => {
    const table = splitTable(result, 'sv');
    const lines = table.split('\n');
    expect(lines[0]).toBe('```');
    expect(lines.at(-1)).toBe('```');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(32);
    expect(table).toContain(' 1  31        1:40     1:40');
    expect(table).toContain(' 2  32           -        -');
    expect(table).toContain(' 4  34        2:00     8:40');
    expect(table).toContain('    Mål       1:20    10:00');
    expect(lines[1]).toContain('Sträcka');
  });
});

const pickIds = { page: (n: number) => `events:page:${n}`, pick: 'events:pick' };

describe('renderEventList', () => {
  const events = [
    event(),
    event({ id: '1002', name: 'Nattcupen', status: 'canceled', start: '2026-12-10T17:00:00Z', entryDeadlines: [] }),
    event({ id: '1003', name: 'Vintersprint', start: '2026-12-12T09:00:00Z' }),
  ];

  it('shows date, organiser, level, the next deadline and a picker, in English', () => {
    const [payload] = validPayloads(
      renderEventList(events, ctx('en', { organisationNames: new Map([['321', 'OK Linné']]) }), {
        page: 1,
        pageSize: 2,
        customIds: pickIds,
      }),
    );
    const text = textOf(payload!);
    expect(text).toContain('<t:1796461200:D> **Höstsprinten**');
    expect(text).toContain('OK Linné · District event · Entry open');
    // The ordinary deadline (20 Nov) has passed on 22 Nov; the late one is next.
    expect(text).toContain('Late entry closes <t:1795993199:R>');
    expect(text).not.toContain('1795215599');
    expect(text).toContain('~~Nattcupen~~ ❌ **Cancelled**');
    expect(payload!.embeds![0]!.footer!.text).toBe('Page 1 of 2 · 3 events');
    const [selectRow, buttonRow] = payload!.components!;
    const select = selectRow!.components[0] as {
      custom_id: string;
      options: Array<{ label: string; value: string; description?: string }>;
    };
    expect(select.custom_id).toBe('events:pick');
    expect(select.options.map((o) => o.value)).toEqual(['1001', '1002']);
    expect(select.options[0]!.description).toBe('Sat, 5 Dec 2026');
    const buttons = buttonRow!.components as Array<{ custom_id: string; disabled: boolean; label: string }>;
    expect(buttons.map((b) => [b.label, b.custom_id, b.disabled])).toEqual([
      ['Previous', 'events:page:1', true],
      ['Next', 'events:page:2', false],
    ]);
  });

  it('counts one event in the singular, in each language', () => {
    const one = [events[0]!];
    const footer = (language: 'en' | 'sv' | 'nb') =>
      validPayloads(renderEventList(one, ctx(language), { page: 1, pageSize: 2, customIds: pickIds }))[0]!.embeds![0]!
        .footer!.text;
    expect(footer('en')).toBe('Page 1 of 1 · 1 event');
    expect(footer('sv')).toBe('Sida 1 av 1 · 1 tävling');
    expect(footer('nb')).toBe('Side 1 av 1 · 1 løp');
  });

  it('clamps the page and translates into Swedish', () => {
    const [payload] = validPayloads(renderEventList(events, ctx('sv'), { page: 9, pageSize: 2, customIds: pickIds }));
    const text = textOf(payload!);
    expect(text).toContain('3. <t:1797066000:D> **Vintersprint**');
    expect(text).toContain('Distriktstävling · Anmälan öppen');
    expect(text).toContain('Efteranmälan stänger');
    expect(payload!.embeds![0]!.footer!.text).toBe('Sida 2 av 2 · 3 tävlingar');
    const buttons = payload!.components![1]!.components as Array<{ label: string; disabled: boolean }>;
    expect(buttons.map((b) => [b.label, b.disabled])).toEqual([
      ['Föregående', false],
      ['Nästa', true],
    ]);
  });

  it('shows a multi-day event as a range of days in the server zone', () => {
    const weekend = event({ start: '2026-12-05T08:00:00Z', finish: '2026-12-05T23:30:00Z' });
    // 23:30 UTC is 00:30 on Sunday in Stockholm.
    expect(textOf(renderEventList([weekend], ctx('en'), { page: 1, customIds: pickIds }))).toContain(
      '<t:1796457600:D> – <t:1796513400:D>',
    );
    expect(
      textOf(renderEventList([weekend], ctx('en', { timeZone: 'UTC' }), { page: 1, customIds: pickIds })),
    ).not.toContain('–');
  });

  it('says so when there are no events, without buttons', () => {
    const [payload] = validPayloads(renderEventList([], ctx('sv'), { page: 1, customIds: pickIds }));
    expect(textOf(payload!)).toContain('Inga kommande tävlingar hittades.');
    expect(payload!.components).toBeUndefined();
  });
});

describe('renderEventCard', () => {
  const multi = event({
    message: 'Parkering **200 m** @everyone',
    urls: ['https://hostsprinten.se'],
    races: [
      {
        id: '2001',
        eventId: '1001',
        name: null,
        date: '2026-12-05T09:00:00Z',
        distance: 'Middle',
        lightCondition: 'Day',
        position: { lat: 59.3293, lon: 18.0686 },
      },
      {
        id: '2002',
        eventId: '1001',
        name: null,
        date: '2026-12-06T08:00:00Z',
        distance: 'Long',
        lightCondition: 'Day',
        position: null,
      },
    ],
  });
  const extras = {
    classes: [eventClass('1', 'H21'), eventClass('2', 'D21'), eventClass('3', 'Inskolning')],
    fees: [
      {
        id: 'a',
        name: 'Adult',
        amount: 160,
        currency: 'SEK',
        type: 'adult',
        valueOperator: 'fixed' as const,
        taxIncluded: null,
        validFrom: null,
        validTo: null,
        birthDateFrom: null,
        birthDateTo: null,
      },
      {
        id: 'b',
        name: 'Late entry',
        amount: 50,
        currency: null,
        type: 'notSpecified',
        valueOperator: 'percent' as const,
        taxIncluded: null,
        validFrom: null,
        validTo: null,
        birthDateFrom: null,
        birthDateTo: null,
      },
    ],
    documents: [
      {
        id: 'd',
        eventId: '1001',
        name: 'Invitation [PM]',
        url: 'https://eventor.orientering.se/Documents/Event/1001/1/PM 2.pdf',
        type: null,
        modifiedAt: null,
      },
    ],
    clubEntries: 7,
  };

  it('has every section in English, with the Eventor and map links', () => {
    const [payload] = validPayloads(
      renderEventCard(multi, extras, ctx('en', { organisationNames: new Map([['321', 'OK Linné']]) })),
    );
    const embed = payload!.embeds![0]!;
    expect(embed.url).toBe('https://eventor.orientering.se/Events/Show/1001');
    const field = (name: string) => embed.fields!.find((f) => f.name === name)?.value;
    expect(field('Stages')).toBe(
      '**Stage 1** · <t:1796461200:D> · Middle distance\n**Stage 2** · <t:1796544000:D> · Long distance',
    );
    expect(field('Organiser')).toBe('OK Linné');
    expect(field('Level')).toBe('District event');
    expect(field('Discipline')).toBe('Foot orienteering');
    expect(field('Entry deadlines')).toBe(
      '~~Ordinary entry: <t:1795215599:f> (<t:1795215599:R>)~~ (closed)\nLate entry: <t:1795993199:f> (<t:1795993199:R>)',
    );
    // One label per field: the field's name says what the number is.
    expect(field('Entered from the club')).toBe('7');
    expect(embed.fields!.map((f) => f.value).join('\n')).not.toMatch(/Entered:/);
    expect(field('Classes (3)')).toBe('H21, D21, Inskolning');
    expect(field('Entry fees')).toBe('Adult: 160 SEK\nLate entry: +50 %');
    expect(field('Documents and links')).toContain(
      '[Invitation PM](https://eventor.orientering.se/Documents/Event/1001/1/PM%202.pdf)',
    );
    expect(field('Documents and links')).toContain('(https://hostsprinten.se)');
    expect(field('Location')).toBe(
      '[OpenStreetMap](https://www.openstreetmap.org/?mlat=59.32930&mlon=18.06860#map=14/59.32930/18.06860)',
    );
    expect(embed.description).toContain('Message from the organiser');
    expect(embed.description).toContain('\\*\\*200 m\\*\\*');
    expect(embed.description).not.toContain('@everyone');
    const buttons = payload!.components![0]!.components as Array<{ url: string; label: string }>;
    expect(buttons.map((b) => b.label)).toEqual(['Open in Eventor', 'Location']);
  });

  it('in Swedish, and a cancelled event says so', () => {
    const [payload] = validPayloads(renderEventCard(event({ status: 'canceled' }), extras, ctx('sv')));
    const embed = payload!.embeds![0]!;
    expect(embed.title).toBe('❌ Höstsprinten');
    const field = (name: string) => embed.fields!.find((f) => f.name === name)?.value;
    expect(field('Status')).toBe('❌ **Inställd**');
    expect(field('Anmälningsstopp')).toContain('Efteranmälan: <t:1795993199:f>');
    expect(field('Anmälningsstopp')).toContain('~~Ordinarie anmälan');
    expect(field('Datum')).toBe('<t:1796461200:D> · Sprint');
    expect(field('Anmälningsavgifter')).toBe('Adult: 160 SEK\nLate entry: +50 %');
    expect(field('Anmälda från klubben')).toBe('7');
  });
});

describe('entries', () => {
  const entries = [
    entry('1', 'Bo', 'Ek', '1'),
    entry('2', 'Al', 'Ek', '2', ['D21']),
    entry('3', 'Cy', 'Åberg', '1'),
    entry('4', 'Di', 'Ek', '9'),
  ];

  it("groups the club's entries by class with counts", () => {
    const [payload] = validPayloads(
      renderClubEntries(event(), entries, ctx('en'), {
        classes: [eventClass('1', 'H21'), eventClass('2', 'D21 lång')],
      }),
    );
    const text = textOf(payload!);
    expect(text).toContain('Entered from the club: 4');
    expect(text).toContain('**H21** (2)\n• Bo Ek\n• Cy Åberg');
    expect(text).toContain('**D21 lång** (1)\n• Al Ek');
    expect(text).toContain('**No class** (1)\n• Di Ek');
    expect(text.indexOf('H21')).toBeLessThan(text.indexOf('D21 lång'));
  });

  it('in Swedish, and the overview per event', () => {
    const [payload] = validPayloads(renderClubEntries(event(), [], ctx('sv')));
    expect(textOf(payload!)).toContain('Ingen från klubben har anmält sig än.');
    const [overview] = validPayloads(
      renderClubEntriesOverview(
        [
          { event: event(), count: 4 },
          { event: event({ id: '5', name: 'Natt', status: 'canceled' }), count: 0 },
        ],
        ctx('sv'),
      ),
    );
    const text = textOf(overview!);
    expect(text).toContain('Klubbens anmälningar');
    expect(text).toContain(
      '<t:1796461200:D> [Höstsprinten](https://eventor.orientering.se/Events/Show/1001)\nAnmälda: 4 · Efteranmälan stänger <t:1795993199:R>',
    );
    expect(text).toContain('Anmälda: 0\n');
    expect(text.match(/stänger/g)).toHaveLength(1);
    expect(text).toContain('[Natt](https://eventor.orientering.se/Events/Show/5) ❌ Inställd');
  });
});

function person(id: string, given: string, family: string) {
  return { id, name: { given, family }, sex: null, birthDate: null, countryCode: null };
}
function start(startTime: string | null, raceNumber = 1, bibNumber: string | null = null) {
  return { raceId: null, raceNumber, startTime, bibNumber, cards: [], course: null };
}
const H21 = { id: '1', name: 'H21', shortName: null, resultListMode: 'Default' as const };

describe('start lists', () => {
  const twoDay = startList([
    {
      class: H21,
      numberOfEntries: 3,
      courses: [],
      persons: [
        {
          person: person('b', 'Bo', 'Ek'),
          organisation: CLUB,
          starts: [start('2026-12-05T10:32:00Z', 1, '123'), start('2026-12-06T09:15:30Z', 2, '123')],
        },
        {
          person: person('c', 'Cy', 'Ek'),
          organisation: CLUB,
          starts: [start('2026-12-05T10:02:00Z', 1), start(null, 2)],
        },
        { person: person('x', 'Xi', 'Ek'), organisation: OTHER, starts: [start('2026-12-05T10:00:00Z', 1)] },
      ],
      teams: [],
    },
    {
      class: { ...H21, id: '2', name: 'Stafett H' },
      numberOfEntries: 2,
      courses: [],
      persons: [],
      teams: [
        {
          name: 'OK Linné 1',
          organisations: [CLUB],
          bibNumber: '7',
          startTime: '2026-12-05T08:00:00Z',
          members: [
            { person: person('e', 'Ed', 'Ek'), organisation: CLUB, leg: 2, legOrder: null, start: start(null) },
            {
              person: person('d', 'Du', 'Ek'),
              organisation: CLUB,
              leg: 1,
              legOrder: null,
              start: start('2026-12-05T08:00:00Z'),
            },
          ],
        },
        { name: 'IFK 1', organisations: [OTHER], bibNumber: '8', startTime: null, members: [] },
      ],
    },
  ]);

  it("shows the club's starters by class and race, sorted by start time (server zone), relays with legs", () => {
    const [payload] = validPayloads(renderClubStartList(twoDay, ctx('en'), { organisationId: '321' }));
    const text = textOf(payload!);
    expect(text).toContain('Starting from the club: 4');
    expect(text).toContain('**H21** · Stage 1\n`11:02` Cy Ek\n`11:32` Bo Ek · Bib 123');
    expect(text).toContain('**H21** · Stage 2\n`10:15:30` Bo Ek · Bib 123\n`--:--` Cy Ek');
    expect(text).not.toContain('Xi Ek');
    expect(text).toContain('**OK Linné 1** · Bib 7 · `09:00`\n  Leg 1 · Du Ek · `09:00`\n  Leg 2 · Ed Ek');
    expect(text).not.toContain('IFK 1');
  });

  it("shows a member's starts per race, in Swedish", () => {
    const [payload] = validPayloads(renderPersonStarts('Bo Ek', [twoDay], ctx('sv'), { personId: 'b' }));
    const text = textOf(payload!);
    expect(payload!.embeds![0]!.title).toBe('Starttider: Bo Ek');
    expect(text).toContain('Etapp 1 · **H21** · <t:1796466720:D> **11:32** · Startnr 123');
    expect(text).toContain('Etapp 2 · **H21** · <t:1796548530:D> **10:15:30** · Startnr 123');
    const [relay] = validPayloads(renderPersonStarts('Ed Ek', [twoDay], ctx('en')));
    expect(textOf(relay!)).toContain('**Stafett H** · OK Linné 1 · Leg 2 · start time not published yet · Bib 7');
    expect(textOf(relay!)).not.toContain('Du Ek');
    const [none] = validPayloads(renderPersonStarts('Bo Ek', [], ctx('sv')));
    expect(textOf(none!)).toContain('Inga kommande starter hittades.');
  });
});

describe('results', () => {
  const splits = [
    { controlCode: '31', time: 100, status: 'OK' as const },
    { controlCode: '32', time: null, status: 'Missing' as const },
    { controlCode: '33', time: 400, status: 'OK' as const },
  ];
  const list = resultList([
    classResult(
      'H21',
      [
        personResult('a', 'Anna', 'Ek', OTHER, [raceResult({ position: 1, time: 1800, timeBehind: 0 })]),
        personResult('b', 'Bo', 'Ek', CLUB, [
          raceResult({
            position: 2,
            time: 1900,
            timeBehind: 100,
            splits: [{ controlCode: '31', time: 300, status: 'OK' }],
          }),
        ]),
        personResult('c', 'Cy', 'Ek', OTHER, [raceResult({ position: 3, time: 2000, timeBehind: 200 })]),
        personResult('d', 'Di', 'Ek', OTHER, [raceResult({ position: 4, time: 2100, timeBehind: 300 })]),
        personResult('e', 'Ed', 'Ek', CLUB, [raceResult({ position: 5, time: 2222, timeBehind: 422 })]),
        personResult('f', 'Fa', 'Ek', CLUB, [raceResult({ status: 'MissingPunch', time: 2500, splits })]),
        personResult('g', 'Gu', 'Ek', CLUB, [raceResult({ status: 'Moved' })]),
        personResult('h', 'Ha', 'Ek', CLUB, [raceResult({ status: 'Active' })]),
      ],
      { numberOfStarts: 120 },
    ),
    classResult(
      'D10',
      [personResult('i', 'Ida', 'Ek', CLUB, [raceResult({ position: 1, time: 900, timeBehind: 0 })])],
      {
        class: { id: 'D10', name: 'D10', shortName: null, resultListMode: 'UnorderedNoTimes' },
      },
    ),
    classResult('D21', [personResult('j', 'Jo', 'Ek', CLUB, [raceResult({ position: 1, time: 3000, timeBehind: 0 })])]),
  ]);

  it("shows the club's results with podiums, time behind, statuses and the top for context", () => {
    const [payload] = validPayloads(
      renderClubResults(list, ctx('en'), { organisationId: '321', top: 2, splits: false }),
    );
    const text = textOf(payload!);
    expect(payload!.embeds![0]!.title).toBe('Results: Höstsprinten');
    expect(text).toContain('Results from the club: 6');
    expect(text).toContain(
      '**H21** (120)\n1. Anna Ek (IFK Gbg) · 30:00\n🥈 **Bo Ek** · 31:40 +1:40\n3. Cy Ek (IFK Gbg) · 33:20 +3:20\n5. **Ed Ek** · 37:02 +7:02\n**Ha Ek** · *not finished yet*\n**Fa Ek** · **MP**',
    );
    expect(text).not.toContain('Di Ek');
    expect(text).not.toContain('Gu Ek');
    // UnorderedNoTimes: a name, no place, no time.
    expect(text).toContain('**D10** (1)\n**Ida Ek** · ✓');
    expect(text).not.toContain('15:00');
    expect(text).toContain('**D21** (1)\n🥇 **Jo Ek** · 50:00');
  });

  it('adds split tables for members on request, in Swedish', () => {
    const [payload] = validPayloads(
      renderClubResults(list, ctx('sv'), { organisationId: '321', top: 0, splits: true }),
    );
    const text = textOf(payload!);
    expect(text).toContain(
      '**Fa Ek** · **Felst.**\n```\n #  Kod    Sträcka      Tid\n 1  31        1:40     1:40\n 2  32           -        -\n 3  33           -     6:40\n    Mål      35:00    41:40\n```',
    );
    expect(text).toContain('Resultat från klubben: 6');
    expect(text).not.toContain('Anna Ek');
    const [nobody] = validPayloads(renderClubResults(list, ctx('sv'), { organisationId: '555', top: 3, splits: true }));
    expect(textOf(nobody!)).toContain('Ingen från klubben finns med i resultatlistan.');
  });

  it("shows a member's results with place of starters and splits", () => {
    const [payload] = validPayloads(renderPersonResults('Bo Ek', [list], ctx('en'), { splits: true, personId: 'b' }));
    const text = textOf(payload!);
    expect(payload!.embeds![0]!.title).toBe('Results: Bo Ek');
    expect(text).toContain(
      '**[Höstsprinten](https://eventor.orientering.se/Events/Show/1001)** · <t:1791622800:D>\n**H21** · 2/120 31:40 +1:40\n```',
    );
    expect(text).toContain('Finish');
    const [mp] = validPayloads(renderPersonResults('Fa Ek', [list], ctx('sv'), { splits: false, personId: 'f' }));
    expect(textOf(mp!)).toContain('**H21** · **Felst.**');
    const [moved] = validPayloads(renderPersonResults('Gu Ek', [list], ctx('sv'), { splits: false, personId: 'g' }));
    expect(textOf(moved!)).toContain('Inga resultat hittades.');
  });

  it('multi-race: per race and overall', () => {
    const stages = resultList(
      [
        classResult('H21', [
          personResult('b', 'Bo', 'Ek', CLUB, [
            raceResult({
              raceNumber: 1,
              position: 3,
              time: 1900,
              timeBehind: 100,
              overall: { position: 3, time: 1900, timeBehind: 100, status: 'OK' },
            }),
            raceResult({
              raceNumber: 2,
              position: 1,
              time: 1500,
              timeBehind: 0,
              overall: { position: 2, time: 3400, timeBehind: 20, status: 'OK' },
            }),
          ]),
        ]),
      ],
      {
        races: [
          { ...event().races[0]!, id: 'r1', name: null },
          { ...event().races[0]!, id: 'r2', name: 'Jaktstart' },
        ],
      },
    );
    const [payload] = validPayloads(
      renderClubResults(stages, ctx('en'), { organisationId: '321', top: 3, splits: false }),
    );
    const text = textOf(payload!);
    expect(text).toContain('**H21** · Stage 1 (1)\n🥉 **Bo Ek** · 31:40 +1:40');
    expect(text).toContain('**H21** · Jaktstart (1)\n🥇 **Bo Ek** · 25:00');
    expect(text).toContain('**H21** · Overall (1)\n🥈 **Bo Ek** · 56:40 +0:20');
    const [mine] = validPayloads(renderPersonResults('Bo Ek', [stages], ctx('sv'), { splits: false }));
    expect(textOf(mine!)).toContain(
      'Etapp 1 · **H21** · 3/1 31:40 +1:40\nJaktstart · **H21** · 1/1 25:00\nTotalt · 2. 56:40 +0:20',
    );
  });

  it("relays: the club's team with legs, other teams for context", () => {
    const leg = (position: number, time: number, status: 'OK' | 'MissingPunch' = 'OK') =>
      raceResult({ position, time, timeBehind: null, status });
    const relay = resultList([
      classResult('H Stafett', [], {
        numberOfStarts: 2,
        teams: [
          {
            name: 'IFK 1',
            organisations: [OTHER],
            bibNumber: '1',
            startTime: null,
            finishTime: null,
            time: 5000,
            timeBehind: 0,
            position: 1,
            status: 'OK',
            members: [],
          },
          {
            name: 'OK Linné 1',
            organisations: [CLUB],
            bibNumber: '2',
            startTime: null,
            finishTime: null,
            time: 5100,
            timeBehind: 100,
            position: 2,
            status: 'OK',
            members: [
              { person: person('m2', 'Mo', 'Ek'), organisation: CLUB, leg: 2, legOrder: null, result: leg(1, 2400) },
              { person: person('m1', 'Mi', 'Ek'), organisation: CLUB, leg: 1, legOrder: null, result: leg(4, 2700) },
            ],
          },
        ],
      }),
    ]);
    const [payload] = validPayloads(
      renderClubResults(relay, ctx('sv'), { organisationId: '321', top: 3, splits: false }),
    );
    expect(textOf(payload!)).toContain(
      '**H Stafett** (2)\n1. IFK 1 · 1:23:20\n🥈 **OK Linné 1** · 1:25:00 +1:40\n  Sträcka 1 · Mi Ek · 4. 45:00\n  Sträcka 2 · Mo Ek · 1. 40:00',
    );
    const [mine] = validPayloads(renderPersonResults('Mo Ek', [relay], ctx('en'), { splits: false }));
    expect(textOf(mine!)).toContain('**H Stafett** · OK Linné 1 · Leg 2 · 1. 40:00 · Team: 2. 1:25:00 +1:40');
  });
});

describe('activities', () => {
  it('lists activities with start, registrations and deadline', () => {
    const [payload] = validPayloads(
      renderActivities(
        [
          activity(),
          activity({
            id: '78',
            name: 'Klubbmöte',
            registrationDeadline: '2026-11-01T00:00:00Z',
            url: null,
            registrationCount: null,
          }),
        ],
        ctx('en'),
      ),
    );
    const text = textOf(payload!);
    expect(text).toContain(
      '<t:1795627800:f> **[Intervallträning](https://eventor.orientering.se/Activities/Show/77)**\nRegistered: 12 · Register by <t:1795557600:f> (<t:1795557600:R>)',
    );
    expect(text).toContain('**Klubbmöte**\n~~Register by <t:1793491200:f> (<t:1793491200:R>)~~ (closed)');
  });

  it('one activity in Swedish, its information escaped', () => {
    const [payload] = validPayloads(
      renderActivity(activity({ information: 'Samling **vid** stugan @here <@&55>' }), ctx('sv')),
    );
    const embed = payload!.embeds![0]!;
    expect(embed.title).toBe('Intervallträning');
    expect(embed.description).toBe('Samling \\*\\*vid\\*\\* stugan @\u200bhere <\u200b@&55>');
    expect(embed.fields!.map((f) => f.name)).toEqual(['Börjar', 'Anmälda', 'Sista anmälningsdag']);
    // The values are bare: no "Anmälda: 12" under "Anmälda", no "Anmäl dig senast" under the deadline.
    expect(embed.fields!.map((f) => f.value)).toEqual([
      '<t:1795627800:F> (<t:1795627800:R>)',
      '12',
      '<t:1795557600:f> (<t:1795557600:R>)',
    ]);
    expect((payload!.components![0]!.components[0] as { label: string }).label).toBe('Öppna i Eventor');
  });
});

describe('the other language of each renderer', () => {
  it('club start list in Swedish, with relay legs', () => {
    const list = startList([
      {
        class: { id: '2', name: 'Stafett D', shortName: null, resultListMode: 'Default' },
        numberOfEntries: 1,
        courses: [],
        persons: [],
        teams: [
          {
            name: 'OK Linné 2',
            organisations: [CLUB],
            bibNumber: null,
            startTime: null,
            members: [{ person: null, organisation: CLUB, leg: 1, legOrder: null, start: start(null) }],
          },
        ],
      },
    ]);
    const [payload] = validPayloads(renderClubStartList(list, ctx('sv'), { organisationId: '321' }));
    expect(payload!.embeds![0]!.title).toBe('Startlista: Höstsprinten');
    expect(textOf(payload!)).toContain('**Stafett D**\n**OK Linné 2**\n  Sträcka 1 · Vakant');
    const [empty] = validPayloads(renderClubStartList(list, ctx('sv'), { organisationId: '1' }));
    expect(textOf(empty!)).toContain('Ingen från klubben finns med i startlistan.');
  });

  it('activities in Swedish and one activity in English', () => {
    const [list] = validPayloads(renderActivities([activity()], ctx('sv')));
    expect(textOf(list!)).toContain('Anmälda: 12 · Anmäl dig senast <t:1795557600:f>');
    const [none] = validPayloads(renderActivities([], ctx('sv')));
    expect(textOf(none!)).toContain('Inga kommande aktiviteter.');
    const [one] = validPayloads(renderActivity(activity(), ctx('en')));
    expect(one!.embeds![0]!.fields!.map((f) => f.name)).toEqual(['Starts', 'Registered', 'Registration deadline']);
    expect(one!.embeds![0]!.fields!.map((f) => f.value)).toEqual([
      '<t:1795627800:F> (<t:1795627800:R>)',
      '12',
      '<t:1795557600:f> (<t:1795557600:R>)',
    ]);
  });

  it('entries overview in English', () => {
    const [payload] = validPayloads(renderClubEntriesOverview([{ event: event(), count: 2 }], ctx('en')));
    expect(textOf(payload!)).toContain('Entered: 2 · Late entry closes <t:1795993199:R>');
    const early = renderClubEntriesOverview(
      [{ event: event({ entryDeadlines: ['2026-11-28T22:59:59Z'] }), count: 2 }],
      ctx('en'),
    );
    expect(textOf(early[0]!)).toContain('Entered: 2 · Entry closes <t:1795906799:R>');
    const [none] = validPayloads(renderClubEntriesOverview([], ctx('en')));
    expect(textOf(none!)).toContain('No entries from the club in upcoming events.');
  });

  it('an event listed twice gets one picker option', () => {
    const payload = renderEventList([event(), event()], ctx('en'), { page: 1, customIds: pickIds });
    validPayloads(payload);
    expect((payload.components![0]!.components[0] as { options: unknown[] }).options).toHaveLength(1);
  });
});

describe('Norwegian smoke test', () => {
  it('renders every kind of output in Bokmål', () => {
    const c = ctx('nb');
    expect(textOf(validPayloads(renderEventList([event()], c, { page: 1, customIds: pickIds }))[0]!)).toContain(
      'Kretsløp · Påmelding åpen',
    );
    const card = textOf(validPayloads(renderEventCard(event(), { clubEntries: 3 }, c))[0]!);
    expect(card).toContain('Etteranmelding');
    expect(card).toContain('Påmeldte fra klubben\n3');
    expect(textOf(validPayloads(renderClubEntries(event(), [entry('1', 'Bo', 'Ek', '1')], c))[0]!)).toContain(
      'Påmeldte fra klubben: 1',
    );
    expect(textOf(validPayloads(renderActivities([activity()], c))[0]!)).toContain('Meld deg på innen');
    const results = resultList([
      classResult('H21', [personResult('b', 'Bo', 'Ek', CLUB, [raceResult({ status: 'DidNotFinish' })])]),
    ]);
    expect(
      textOf(validPayloads(renderClubResults(results, c, { organisationId: '321', top: 3, splits: false }))[0]!),
    ).toContain('**Bo Ek** · **Brutt**');
    expect(
      splitTable(raceResult({ time: 60, splits: [{ controlCode: '31', time: 30, status: 'OK' }] }), 'nb'),
    ).toContain('Strekk');
  });
});

describe('namesakes in one list', () => {
  const withBirth = (
    e: ReturnType<typeof entry>,
    birthDate: string | null,
    club?: { id: string; name: string },
  ): ReturnType<typeof entry> => ({
    ...e,
    competitor: {
      ...e.competitor!,
      person: { ...e.competitor!.person!, birthDate },
      ...(club ? { organisation: { ...e.competitor!.organisation!, ...club } } : {}),
    },
  });

  it('tells two entries of one name apart by birth year, else by club; a lone name stays bare', () => {
    const entries = [
      withBirth(entry('1', 'Elin', 'Hedlund', '1'), '1987-03-02'),
      withBirth(entry('2', 'Elin', 'Hedlund', '1'), '2009-11-20'),
      withBirth(entry('3', 'Bo', 'Ek', '1'), '1990-01-01'),
      withBirth(entry('4', 'Anna', 'Lund', '2'), null, { id: '900', name: 'IFK Göteborg' }),
      withBirth(entry('5', 'Anna', 'Lund', '2'), null),
    ];
    const text = textOf(
      validPayloads(
        renderClubEntries(event(), entries, ctx('en'), { classes: [eventClass('1', 'D21'), eventClass('2', 'D45')] }),
      )[0]!,
    );
    expect(text).toContain('• Elin Hedlund (1987)');
    expect(text).toContain('• Elin Hedlund (2009)');
    expect(text).toContain('• Bo Ek\n');
    expect(text).toContain('• Anna Lund (IFK Göteborg)');
    expect(text).toContain(`• Anna Lund (${CLUB.name})`);
  });
});

describe('namesakes in start and result lists', () => {
  const born = (id: string, given: string, family: string, birthDate: string | null) => ({
    ...person(id, given, family),
    birthDate,
  });

  it('a start list tells two starters of one name apart by birth year; other names stay bare', () => {
    const list = startList([
      {
        class: H21,
        numberOfEntries: 3,
        courses: [],
        teams: [],
        persons: [
          {
            person: born('a', 'Elin', 'Hedlund', '1987-03-02'),
            organisation: CLUB,
            starts: [start('2026-12-05T10:00:00Z')],
          },
          {
            person: born('b', 'Elin', 'Hedlund', '2009-11-20'),
            organisation: CLUB,
            starts: [start('2026-12-05T10:02:00Z')],
          },
          { person: born('c', 'Bo', 'Ek', '1990-01-01'), organisation: CLUB, starts: [start('2026-12-05T10:04:00Z')] },
        ],
      },
    ]);
    const text = textOf(validPayloads(renderClubStartList(list, ctx('en'), { organisationId: '321' }))[0]!);
    expect(text).toContain('`11:00` Elin Hedlund (1987)\n`11:02` Elin Hedlund (2009)\n`11:04` Bo Ek\n');
  });

  it('a result list tells namesakes apart among the shown rows, members and the top of the others alike', () => {
    const list = resultList([
      classResult('D21', [
        {
          ...personResult('a', 'Elin', 'Hedlund', OTHER, [raceResult({ position: 1, time: 1800, timeBehind: 0 })]),
          person: born('a', 'Elin', 'Hedlund', '1987-03-02'),
        },
        {
          ...personResult('b', 'Elin', 'Hedlund', CLUB, [raceResult({ position: 2, time: 1900, timeBehind: 100 })]),
          person: born('b', 'Elin', 'Hedlund', '2009-11-20'),
        },
        personResult('c', 'Bo', 'Ek', CLUB, [raceResult({ position: 3, time: 2000, timeBehind: 200 })]),
      ]),
    ]);
    const text = textOf(
      validPayloads(renderClubResults(list, ctx('en'), { organisationId: '321', top: 1, splits: false }))[0]!,
    );
    expect(text).toContain(
      '1. Elin Hedlund (1987, IFK Gbg) · 30:00\n🥈 **Elin Hedlund** (2009) · 31:40 +1:40\n🥉 **Bo Ek** · 33:20 +3:20',
    );
  });

  it('a list without namesakes is unchanged', () => {
    const list = resultList([
      classResult('D21', [
        {
          ...personResult('a', 'Elin', 'Hedlund', OTHER, [raceResult({ position: 1, time: 1800, timeBehind: 0 })]),
          person: born('a', 'Elin', 'Hedlund', '1987-03-02'),
        },
        {
          ...personResult('b', 'Elin', 'Ek', CLUB, [raceResult({ position: 2, time: 1900, timeBehind: 100 })]),
          person: born('b', 'Elin', 'Ek', '2009-11-20'),
        },
      ]),
    ]);
    const text = textOf(
      validPayloads(renderClubResults(list, ctx('en'), { organisationId: '321', top: 1, splits: false }))[0]!,
    );
    expect(text).toContain('1. Elin Hedlund (IFK Gbg) · 30:00\n🥈 **Elin Ek** · 31:40 +1:40');
    const starts = startList([
      {
        class: H21,
        numberOfEntries: 2,
        courses: [],
        teams: [],
        persons: [
          {
            person: born('a', 'Elin', 'Hedlund', '1987-03-02'),
            organisation: CLUB,
            starts: [start('2026-12-05T10:00:00Z')],
          },
          {
            person: born('b', 'Elin', 'Ek', '2009-11-20'),
            organisation: CLUB,
            starts: [start('2026-12-05T10:02:00Z')],
          },
        ],
      },
    ]);
    expect(textOf(validPayloads(renderClubStartList(starts, ctx('en'), { organisationId: '321' }))[0]!)).toContain(
      '**H21**\n`11:00` Elin Hedlund\n`11:02` Elin Ek',
    );
  });
});
