/**
 * Conformance of the native parsers with the real Eventor response samples in
 * `<repo>/../shared/fixtures/eventor` (see its README). The samples hold real names, so they are
 * read from there and never copied here; assertions use ids, counts, times and statuses only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/eventor/errors.js';
import * as native from '../../src/eventor/native/index.js';
import { parseHashTableTime } from '../../src/eventor/time.js';
import { NEEDS_SHARED_FIXTURES, SHARED_FIXTURES, sharedFixtures } from '../support/shared-fixtures.js';

const dir = path.join(SHARED_FIXTURES, 'eventor');
const exists = sharedFixtures('eventor') !== null;

const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');

/** Zone of each sample's Date+Clock values: NO and SE send local time, AU sends UTC (docs/eventor.md#time-zones). */
const SWEDISH = new Set(['results-person-relay.xml', 'results-person-multiday.xml', 'results-organisation.xml']);
function zoneOf(name: string): string {
  if (name === 'events-au.xml') return 'UTC';
  return SWEDISH.has(name) ? 'Europe/Stockholm' : 'Europe/Oslo';
}
const opts = (name: string) => ({ timeZone: zoneOf(name) });

const PARSERS = native.NATIVE_PARSERS;

const NOT_NATIVE = new Set(['events-iofxml-edited.xml']);

describe.skipIf(!exists)(`Eventor native samples ${NEEDS_SHARED_FIXTURES}`, () => {
  const files = exists
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.xml'))
        .sort()
    : [];

  it('finds the samples', () => {
    expect(files.length).toBeGreaterThanOrEqual(27);
  });

  describe('every native sample parses with the parser of its root', () => {
    for (const file of files.filter((f) => !NOT_NATIVE.has(f))) {
      it(file, () => {
        const xml = read(file);
        const root = native.detectNativeRoot(xml);
        expect(root, `${file} has a native root`).not.toBeNull();
        expect(() => PARSERS[root!](xml, opts(file))).not.toThrow();
      });
    }
  });

  it('events-iofxml-edited.xml (IOF XML 3.0) is a clear InvalidResponse, not a native EventList', () => {
    const xml = read('events-iofxml-edited.xml');
    expect(native.detectNativeRoot(xml)).toBeNull();
    let error: unknown;
    try {
      native.parseEventList(xml, { timeZone: 'UTC' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidResponse);
    expect((error as InvalidResponse).problem).toMatch(/IOF XML 3\.0/);
  });

  it('event.xml: Oslo times, entry deadline, organiser, race, hash table', () => {
    const e = native.parseEvent(read('event.xml'), opts('event.xml'));
    expect(e).toMatchObject({
      id: '17535',
      classification: 'local',
      classificationId: '4',
      status: 'completed',
      statusId: '9',
      form: null,
      disciplineIds: ['1'],
      start: '2023-09-26T15:00:00Z',
      finish: '2023-09-26T18:00:00Z',
      modifiedAt: '2023-09-26T17:17:38Z',
      classTypeIds: ['2'],
      punchingUnitTypes: ['Emit'],
      parentEventId: null,
    });
    // 2023-09-25 23:59:59 Oslo (CEST) is the deadline.
    expect(e.entryBreaks).toEqual([{ from: null, to: '2023-09-25T21:59:59Z' }]);
    expect(e.entryDeadlines).toEqual(['2023-09-25T21:59:59Z']);
    expect(e.organisers).toEqual([{ id: '141', name: 'Gneist, IL', shortName: 'Gneist, IL', countryCode: 'NOR' }]);
    expect(e.officials.map((o) => o.roleTypeId)).toEqual(['101', '102', '104']);
    expect(e.races).toEqual([
      {
        id: '18200',
        eventId: '17535',
        name: null,
        date: '2023-09-26T15:00:00Z',
        distance: 'Sprint',
        lightCondition: null,
        position: { lat: 60.297721224283, lon: 5.27274900788226 },
      },
    ]);
    expect(Object.keys(e.properties)).toEqual([
      'Eventor_Message',
      'officialResult_18200',
      'Eventor_EntryChangeDeadlines',
      'Eventor_LiveloxEventConfigurations',
    ]);
    expect(e.message).toMatch(/^Liveresultater på https:\/\//);
    // The hash table time is UTC, ModifyDate local: two seconds apart once both are instants
    // (docs/eventor.md#hash-table-entries).
    const official = Date.parse(parseHashTableTime(e.properties['officialResult_18200']!)!);
    expect(Date.parse(e.modifiedAt!) - official).toBe(2000);
  });

  it('event deadlines agree with Eventor_EntryChangeDeadlines (stored in UTC)', () => {
    for (const file of ['event.xml', 'event-multiday.xml', 'event-unformatted.xml']) {
      const e = native.parseEvent(read(file), opts(file));
      const change = parseHashTableTime(e.properties['Eventor_EntryChangeDeadlines']!.split(';')[0]!);
      expect(e.entryDeadlines.at(-1), file).toBe(file === 'event.xml' ? '2023-09-25T21:59:59Z' : change);
    }
  });

  it('event-multiday.xml: three races on three days', () => {
    const e = native.parseEvent(read('event-multiday.xml'), opts('event-multiday.xml'));
    expect(e.form).toBe('IndMultiDay');
    expect(e.classification).toBe('club');
    expect(e.status).toBe('entryOpened');
    expect(e.races.map((r) => [r.id, r.name, r.date])).toEqual([
      ['19226', 'Dag 1', '2023-06-27T16:00:00Z'],
      ['19227', 'Dag 2', '2023-07-11T16:00:00Z'],
      ['19228', 'Dag 3', '2023-07-25T16:00:00Z'],
    ]);
    expect(e.urls).toEqual(['https://gneist.no']);
    expect(e.entryDeadlines).toEqual(['2023-06-27T14:00:59Z']);
    expect(e.message!.split('\n')).toHaveLength(2);
  });

  it('event-relay.xml: two entry breaks give three deadlines', () => {
    const e = native.parseEvent(read('event-relay.xml'), opts('event-relay.xml'));
    expect(e.form).toBe('RelaySingleDay');
    expect(e.status).toBe('reported');
    expect(e.classification).toBe('district');
    expect(e.entryBreaks).toEqual([
      { from: null, to: '2023-06-16T17:00:59Z' },
      { from: '2023-06-15T20:01:00Z', to: '2023-06-17T20:01:59Z' },
    ]);
    expect(e.entryDeadlines).toEqual(['2023-06-15T20:00:59Z', '2023-06-16T17:00:59Z', '2023-06-17T20:01:59Z']);
    expect(e.properties['startList_18134']).toBe('2023-06-17 22:22:29');
  });

  it('event-unformatted.xml: one line, hex person ids kept as strings, WRSInfo ignored', () => {
    const e = native.parseEvent(read('event-unformatted.xml'), opts('event-unformatted.xml'));
    expect(e.id).toBe('23894');
    expect(e.start).toBe('2026-05-12T15:30:00Z');
    expect(e.officials).toEqual([{ personId: '6a2d56', roleTypeId: '103' }]);
    expect(e.punchingUnitTypes).toEqual(['emiTag']);
    expect(e.races[0]!.distance).toBe('Middle');
    expect(e.message!.split('\n').length).toBe(3);
    expect(e.properties['officialResult_24715']).toBe('2026-05-12 18:17:24');
  });

  it('events-au.xml: 20 events, Date+Clock already UTC, organiser ids only', () => {
    const list = native.parseEventList(read('events-au.xml'), opts('events-au.xml'));
    expect(list).toHaveLength(20);
    const first = list[0]!;
    expect(first).toMatchObject({
      id: '20967',
      start: '2025-12-24T13:00:00Z',
      status: 'entryOpened',
      classification: 'local',
    });
    expect(first.organisers).toEqual([
      { id: '5', name: null, shortName: null, countryCode: null },
      { id: '29', name: null, shortName: null, countryCode: null },
    ]);
    const xmas = list.find((e) => e.id === '22567')!;
    expect(xmas.races).toHaveLength(5);
    expect(xmas.races[0]).toMatchObject({
      id: '23147',
      name: 'Day 1',
      date: '2025-12-27T05:00:00Z',
      distance: 'Middle',
    });
    expect(xmas.races[0]!.position).toEqual({ lat: -32.9961743164889, lon: 151.536115925507 });
    expect(list.filter((e) => e.status === 'canceled').map((e) => e.id)).toEqual(['23742']);
    const messages = list.map((e) => e.message).filter((m): m is string => m !== null);
    expect(messages).toHaveLength(17);
    // Cut at 240 characters by the list; trimming drops a trailing space where the cut fell on one.
    for (const m of messages) expect(m.length).toBeGreaterThanOrEqual(239);
    expect(messages.filter((m) => m.length === 240).length).toBeGreaterThanOrEqual(15);
    expect(list.every((e) => e.classification !== 'unknown')).toBe(true);
  });

  it('events-documents*.xml: attributes only, modifyDate local', () => {
    const docs = native.parseDocumentList(read('events-documents.xml'), opts('events-documents.xml'));
    expect(docs.map((d) => [d.id, d.eventId, d.type, d.modifiedAt])).toEqual([
      ['39190', '17535', 'Invitation', '2023-09-22T18:54:29Z'],
      ['39446', '17535', 'Other', '2023-09-25T05:51:50Z'],
    ]);
    const docs2026 = native.parseDocumentList(read('events-documents-2026.xml'), opts('events-documents-2026.xml'));
    expect(docs2026).toHaveLength(5);
    expect(docs2026[0]!.url).toBe('https://eventor-norway.orientering.se/Documents/Event/49903/Innbydelse');
    expect(docs2026.filter((d) => !d.url.includes('eventor-norway'))).toHaveLength(2);
    expect(docs2026[0]!.modifiedAt).toBe('2026-04-14T13:59:39Z');
  });

  it('eventclasses*.xml: fees, relay legs, classes without fees', () => {
    const classes = native.parseEventClassList(read('eventclasses.xml'), opts('eventclasses.xml'));
    expect(classes).toHaveLength(14);
    expect(classes[0]).toMatchObject({
      id: '168800',
      name: 'DN',
      sex: 'F',
      numberOfEntries: 15,
      classTypeId: '2',
      status: 'normal',
      entryFeeIds: ['56981'],
      teamEntry: false,
    });
    expect(classes[0]!.races).toEqual([
      { id: '183235', raceId: '18200', relayLeg: null, entries: 15, starts: 13, status: 'notAllocated' },
    ]);
    expect(classes[2]).toMatchObject({ minAge: 11, maxAge: 12 });
    const [relay] = native.parseEventClassList(read('eventclasses-relay.xml'), opts('eventclasses-relay.xml'));
    expect(relay).toMatchObject({
      id: '176445',
      sex: 'B',
      teamEntry: true,
      numberOfLegs: 5,
      numberOfEntries: 19,
      entryFeeIds: ['59549', '59550'],
    });
    expect(relay!.races.map((r) => r.relayLeg)).toEqual([1, 2, 3, 4, 5]);
    const noFees = native.parseEventClassList(read('eventclasses-no-fees.xml'), opts('eventclasses-no-fees.xml'));
    expect(noFees).toHaveLength(18);
    expect(noFees.every((c) => c.entryFeeIds.length === 0)).toBe(true);
  });

  it('entryfees.xml: four fees, birth-date limits', () => {
    const fees = native.parseEntryFeeList(read('entryfees.xml'), opts('entryfees.xml'));
    expect(
      fees.map((f) => [f.id, f.amount, f.currency, f.type, f.taxIncluded, f.birthDateFrom, f.birthDateTo]),
    ).toEqual([
      ['76965', 50, 'NOK', 'youth', false, null, null],
      ['76964', 50, 'NOK', 'adult', false, null, null],
      ['76966', 50, 'NOK', 'adult', false, null, '2009-12-31'],
      ['76967', 50, 'NOK', 'youth', false, '2010-01-01', null],
    ]);
    expect(fees.every((f) => f.validTo === '2026-05-12T14:30:59Z' && f.valueOperator === 'fixed')).toBe(true);
  });

  it('entries.xml: anonymised hex ids stay strings', () => {
    const entries = native.parseEntryList(read('entries.xml'), opts('entries.xml'));
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      id: '1650756',
      event: { id: '23894', name: null, event: null },
      classIds: ['220825'],
      raceIds: ['24715'],
      bibNumber: null,
      entryDate: '2026-04-14T12:46:04Z',
      team: null,
      competitor: {
        competitorId: '302d09',
        personId: 'c283c4',
        person: null,
        organisation: { id: '89' },
        cards: [{ number: '9407999', type: 'emiTag' }],
      },
    });
  });

  it('entries-with-event-element.xml: every entry carries the full event', () => {
    const entries = native.parseEntryList(
      read('entries-with-event-element.xml'),
      opts('entries-with-event-element.xml'),
    );
    expect(entries).toHaveLength(10);
    for (const entry of entries) {
      expect(entry.event.event).not.toBeNull();
      expect(entry.event.event!.entryDeadlines).toEqual(['2023-09-25T21:59:59Z']);
      expect(entry.event.id).toBe('17535');
    }
    expect(entries[0]!.competitor!.cards).toEqual([{ number: '525404', type: 'Emit' }]);
  });

  it('competitorcount.xml: counts in attributes', () => {
    expect(native.parseCompetitorCountList(read('competitorcount.xml'), opts('competitorcount.xml'))).toEqual([
      { eventId: '23894', raceId: null, entries: 162, starts: 0, classes: [], organisations: [] },
    ]);
  });

  it('organisation*.xml: country, contact, parent; the mojibake sample still parses', () => {
    const org = native.parseOrganisation(read('organisation.xml'), opts('organisation.xml'));
    expect(org).toMatchObject({
      id: '273',
      kind: 'club',
      typeId: '3',
      countryCode: 'NOR',
      parentId: '3',
      modifiedAt: '2017-05-24T20:53:27Z',
    });
    expect(org.contact!.addresses[0]!.countryCode).toBe('NOR');
    expect(org.contact!.emails).toHaveLength(1);
    const clean = native.parseOrganisation(read('organisation-apikey.xml'), opts('organisation-apikey.xml'));
    const garbled = native.parseOrganisation(
      read('organisation-apikey-client-mojibake.xml'),
      opts('organisation-apikey-client-mojibake.xml'),
    );
    expect(clean).toMatchObject({ id: '135', parentId: '4', countryCode: 'NOR', modifiedAt: '2017-04-22T19:37:33Z' });
    expect(garbled.id).toBe('135');
    expect(garbled.contact!.addresses[0]!.street).toContain('Ã¸');
    expect(clean.contact!.addresses[0]!.street).not.toContain('Ã');
  });

  it('starts-event.xml: 28 classes, 97 starters, empty PersonIds as null, BibNumber 0 as null', () => {
    const list = native.parseStartList(read('starts-event.xml'), opts('starts-event.xml'));
    expect(list.event.id).toBe('9206');
    expect(list.event.event!.organisers.map((o) => o.id)).toEqual(['135', '18', '4']);
    expect(list.classes).toHaveLength(28);
    const persons = list.classes.flatMap((c) => c.persons);
    expect(persons).toHaveLength(97);
    expect(persons.filter((p) => p.person!.id === null)).toHaveLength(9);
    expect(persons.every((p) => p.starts.length === 1 && p.starts[0]!.raceId === null)).toBe(true);
    expect(list.classes[0]!.class).toEqual({
      id: '90000',
      name: 'N-åpen',
      shortName: 'N-åpen',
      resultListMode: 'Default',
    });
    expect(list.classes[0]!.numberOfEntries).toBe(4);
    expect(persons[0]!.starts[0]).toEqual({
      raceId: null,
      raceNumber: null,
      startTime: '2018-08-25T12:00:00Z',
      bibNumber: null,
      cards: [],
      course: null,
    });
    expect(persons[0]!.organisation!.countryCode).toBe('NOR');
  });

  it('starts-person.xml and the empty StartListList', () => {
    const lists = native.parseStartListList(read('starts-person.xml'), opts('starts-person.xml'));
    expect(lists).toHaveLength(1);
    const p = lists[0]!.classes[0]!.persons[0]!;
    expect(p.person).toEqual({
      id: '354',
      name: { family: 'Family', given: 'Given' },
      sex: 'M',
      birthDate: '1992-01-01',
      countryCode: 'NOR',
    });
    expect(p.starts).toEqual([
      {
        raceId: null,
        raceNumber: null,
        startTime: '2023-10-03T16:03:47Z',
        bibNumber: null,
        cards: [{ number: '256968', type: null }],
        course: null,
      },
    ]);
    expect(native.parseStartListList(read('starts-person-empty.xml'), opts('starts-person-empty.xml'))).toEqual([]);
  });

  it('results-organisation.xml: 7 classes, 47 runners, statuses, no splits', () => {
    const list = native.parseResultList(read('results-organisation.xml'), opts('results-organisation.xml'));
    expect(list.status).toBe('complete');
    expect(list.event.id).toBe('22536');
    expect(list.classes).toHaveLength(7);
    expect(list.classes[0]).toMatchObject({ numberOfEntries: 25, numberOfStarts: 24 });
    const results = list.classes.flatMap((c) => c.persons).map((p) => p.results);
    expect(results).toHaveLength(47);
    expect(results.every((r) => r.length === 1)).toBe(true);
    const counts: Record<string, number> = {};
    for (const [r] of results) counts[r!.status] = (counts[r!.status] ?? 0) + 1;
    expect(counts).toEqual({ OK: 41, MissingPunch: 5, DidNotStart: 1 });
    expect(results.flat().every((r) => r.splits.length === 0)).toBe(true);
    expect(results[0]![0]).toMatchObject({
      startTime: '2018-06-06T08:46:00Z',
      finishTime: '2018-06-06T09:01:19Z',
      time: 919,
      timeBehind: 0,
      position: 1,
      cards: [{ number: '8030512', type: null }],
    });
    for (const r of results.flat().filter((x) => x.status === 'MissingPunch')) {
      expect(r.time).not.toBeNull();
      expect(r.position).toBeNull();
      expect(r.timeBehind).toBeNull();
    }
  });

  it('results-person.xml: H:MM:SS and MM:SS elapsed times', () => {
    const lists = native.parseResultListList(read('results-person.xml'), opts('results-person.xml'));
    expect(lists).toHaveLength(2);
    expect(lists[0]!.classes[0]!.persons[0]!.results[0]).toMatchObject({
      startTime: '2023-08-26T13:04:24Z',
      time: 4005,
      timeBehind: 1224,
      position: 4,
      status: 'OK',
      bibNumber: '49',
    });
  });

  it('results-person-snapshot-inactive.xml: snapshot list, Inactive status', () => {
    const [list] = native.parseResultListList(
      read('results-person-snapshot-inactive.xml'),
      opts('results-person-snapshot-inactive.xml'),
    );
    expect(list!.status).toBe('snapshot');
    expect(list!.classes[0]!.persons[0]!.results[0]).toMatchObject({
      status: 'Inactive',
      time: null,
      position: null,
      startTime: '2023-10-03T16:03:47Z',
    });
    expect(native.parseResultListList(read('results-person-empty.xml'), opts('results-person-empty.xml'))).toEqual([]);
  });

  it('results-person-relay.xml: a relay team, TimeBehind in seconds', () => {
    const lists = native.parseResultListList(read('results-person-relay.xml'), opts('results-person-relay.xml'));
    expect(lists).toHaveLength(13);
    const relay = lists[0]!;
    expect(relay.event.event!.form).toBe('RelaySingleDay');
    expect(relay.classes[0]!.persons).toHaveLength(0);
    const team = relay.classes[0]!.teams[0]!;
    expect(team).toMatchObject({
      bibNumber: '88',
      startTime: '2018-06-19T18:03:00Z',
      finishTime: '2018-06-19T18:23:00Z',
      time: 1200,
      timeBehind: null,
      position: 99,
      status: 'OK',
    });
    expect(team.organisations.map((o) => o.id)).toEqual(['321']);
    expect(team.members).toHaveLength(1);
    const member = team.members[0]!;
    expect(member).toMatchObject({ leg: 5, legOrder: 1 });
    expect(member.result).toMatchObject({ time: 1200, timeBehind: 678, position: 94, status: 'OK' });
    expect(member.result.overall).toEqual({ time: 6060, timeBehind: null, position: 99, status: 'OK' });
    const statuses = lists.flatMap((l) => l.classes.flatMap((c) => c.persons.map((p) => p.results[0]!.status)));
    expect(statuses.filter((s) => s === 'DidNotStart')).toHaveLength(1);
  });

  it('results-person-multiday.xml: RaceResult per EventRaceId', () => {
    const lists = native.parseResultListList(read('results-person-multiday.xml'), opts('results-person-multiday.xml'));
    expect(lists).toHaveLength(49);
    const multi = lists.find((l) => l.event.id === '15568')!;
    expect(multi.event.event!.form).toBe('IndMultiDay');
    const results = multi.classes.flatMap((c) => c.persons.flatMap((p) => p.results));
    expect(results.map((r) => r.raceId)).toEqual(['16419', '16421', '16420']);
    expect(results[0]).toMatchObject({
      startTime: '2017-07-10T16:01:00Z',
      finishTime: '2017-07-10T16:17:58Z',
      time: 1018,
      timeBehind: 5,
      position: 2,
      status: 'OK',
    });
    const withRace = lists.filter((l) => l.classes.some((c) => c.persons.some((p) => p.results[0]!.raceId !== null)));
    expect(withRace.map((l) => l.event.id)).toEqual(['15568', '15250', '16881', '15203']);
  });
});
