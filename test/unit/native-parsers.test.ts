/**
 * Unit tests of the Eventor native XML parsers with small synthetic documents (no real data).
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/eventor/errors.js';
import type { Competitor, EventDocument, ResultList } from '../../src/eventor/model.js';
import {
  Competitor as CompetitorSchema,
  EventDocument as EventDocumentSchema,
  ResultList as ResultListSchema,
} from '../../src/eventor/model.js';
import {
  detectNativeRoot,
  NATIVE_ROOTS,
  parseActivity,
  parseActivityList,
  parseCompetitor,
  parseCompetitorCountList,
  parseCompetitorList,
  parseDocumentList,
  parseEntryFeeList,
  parseEntryList,
  parseEvent,
  parseEventClassList,
  parseEventList,
  parseExternalLoginUrl,
  parseOrganisation,
  parseOrganisationList,
  parsePerson,
  parsePersonList,
  parseResultList,
  parseResultListList,
  parseStartList,
  parseStartListList,
  serializeCompetitor,
} from '../../src/eventor/native/index.js';
import { validateClassedList, validateList } from '../../src/eventor/native/validate.js';
import { checkStructure, parseNativeDocument, parseNativeDocumentChunked } from '../../src/eventor/xml.js';

const UTC = { timeZone: 'UTC' };
const STHLM = { timeZone: 'Europe/Stockholm' };
const OSLO = { timeZone: 'Europe/Oslo' };
const DECL = '<?xml version="1.0" encoding="utf-8"?>\n';
const NS = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

function invalid(fn: () => unknown): InvalidResponse {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidResponse);
    return error as InvalidResponse;
  }
  throw new Error('expected an InvalidResponse');
}

const EVENT = `<Event eventForm="IndSingleDay">
  <EventId>100</EventId><Name>Test Event</Name>
  <EventClassificationId>4</EventClassificationId><EventStatusId>9</EventStatusId>
  <DisciplineId>1</DisciplineId>
  <StartDate><Date>2026-06-06</Date><Clock>10:00:00</Clock></StartDate>
  <Organiser><OrganisationId>5</OrganisationId></Organiser>
  <EventRace raceDistance="Middle"><EventRaceId>200</EventRaceId><EventId>100</EventId><Name/>
    <RaceDate><Date>2026-06-06</Date><Clock>10:00:00</Clock></RaceDate></EventRace>
</Event>`;

function person(id: string, family = 'Family', given = '<Given sequence="1">Given</Given>'): string {
  return `<Person sex="F"><PersonName><Family>${family}</Family>${given}</PersonName><PersonId>${id}</PersonId>
    <BirthDate><Date>2001-01-01</Date></BirthDate><Nationality><CountryId value="752"/></Nationality></Person>`;
}

const ORG =
  '<Organisation><OrganisationId>7</OrganisationId><Name>Club A</Name><ShortName>CA</ShortName><OrganisationTypeId>5</OrganisationTypeId><Country><CountryId value="752"/><Alpha3 value="SWE"/></Country></Organisation>';

function resultList(body: string, attrs = ''): string {
  return `${DECL}<ResultList ${NS}${attrs}>${EVENT}<ClassResult numberOfEntries="2" numberOfStarts="2">
    <EventClass><EventClassId>300</EventClassId><Name>D21</Name><ClassShortName>D21</ClassShortName></EventClass>${body}</ClassResult></ResultList>`;
}

function personResult(id: string, result: string): string {
  return `<PersonResult>${person(id)}${ORG}${result}</PersonResult>`;
}

const OK_RESULT = `<Result><ResultId>1</ResultId><BibNumber>12</BibNumber><CCardId>123456</CCardId>
  <StartTime><Date>2026-06-06</Date><Clock>10:30:00</Clock></StartTime>
  <FinishTime><Date>2026-06-06</Date><Clock>11:16:33</Clock></FinishTime>
  <Time>46:33</Time><TimeDiff>0:00</TimeDiff><ResultPosition>1</ResultPosition>
  <CompetitorStatus value="OK"/>
  <SplitTime sequence="2"><ControlCode>32</ControlCode><Time>10:05</Time></SplitTime>
  <SplitTime sequence="1"><ControlCode>31</ControlCode><Time>4:01</Time></SplitTime>
  <SplitTime sequence="3"><ControlCode>33</ControlCode><Time/></SplitTime>
  <SplitTime sequence="4"><ControlCode>100</ControlCode></SplitTime>
</Result>`;

describe('xml: document checks', () => {
  it('rejects malformed XML with InvalidResponse', () => {
    const e = invalid(() => parseEvent(`${DECL}<Event><EventId>1</Name></Event>`, UTC));
    expect(e.problem).toMatch(/malformed XML/);
    expect(e.message).not.toMatch(/undefined/);
  });

  it('rejects a truncated body (fast-xml-parser alone would accept it)', () => {
    const full = resultList(personResult('1', OK_RESULT));
    for (const cut of [full.length - 1, full.length - 20, Math.floor(full.length / 2), 60]) {
      const e = invalid(() => parseResultList(full.slice(0, cut), STHLM));
      expect(e.problem).toMatch(/malformed XML|truncated/);
    }
  });

  it('rejects a truncated attribute and an unterminated tag', () => {
    expect(invalid(() => parseEventList(`${DECL}<EventList><Event eventForm="Ind`, UTC)).problem).toMatch(/malformed/);
    expect(invalid(() => parseEventList(`${DECL}<EventList><Event`, UTC)).problem).toMatch(/malformed/);
  });

  it('rejects an HTML page (403 or maintenance) clearly', () => {
    const html =
      '<!DOCTYPE html>\n<html><head><title>403 - Forbidden</title></head><body><p>Access denied<br></body></html>';
    const e = invalid(() => parseEventList(html, UTC));
    expect(e.problem).toMatch(/HTML page/);
    expect(invalid(() => parseEventList('<html><body>Down for maintenance</body></html>', UTC)).problem).toMatch(
      /HTML/,
    );
  });

  it('rejects non-XML bodies and empty bodies', () => {
    expect(invalid(() => parseEventList('Bad Request', UTC)).problem).toMatch(/not XML/);
    expect(invalid(() => parseEventList('{"error":"x"}', UTC)).problem).toMatch(/not XML/);
    expect(invalid(() => parseEventList('', UTC)).problem).toMatch(/empty/);
    expect(invalid(() => parseEventList('   \n', UTC)).problem).toMatch(/empty/);
  });

  it('rejects the wrong root, naming both', () => {
    const e = invalid(() => parseEventList(`${DECL}<Event><EventId>1</EventId></Event>`, UTC));
    expect(e.problem).toBe('expected <EventList>, got <Event>');
  });

  it('rejects IOF XML 3.0 documents even when the root name matches', () => {
    const iof = `${DECL}<EventList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0" creator="Eventor"><Event><Id>1</Id><Name>x</Name></Event></EventList>`;
    expect(invalid(() => parseEventList(iof, UTC)).problem).toMatch(/IOF XML 3.0/);
    expect(detectNativeRoot(iof)).toBeNull();
  });

  it('rejects content after the root and text after it', () => {
    expect(invalid(() => parseEventList(`${DECL}<EventList/><EventList/>`, UTC)).problem).toMatch(/after the root/);
    expect(invalid(() => parseEventList(`${DECL}<EventList/>trailing`, UTC)).problem).toMatch(/after the root/);
  });

  it('accepts a BOM, comments, CDATA and attributes with > inside', () => {
    const xml = `\uFEFF${DECL}<!-- c --><EventList ${NS}><Event><EventId>1</EventId><Name><![CDATA[A & <B>]]></Name>
      <EventClassificationId>4</EventClassificationId><EventStatusId>9</EventStatusId>
      <StartDate><Date>2026-01-01</Date></StartDate><WebURL a="x>y">https://x.example/?a=1&amp;b=2</WebURL></Event></EventList>`;
    const [event] = parseEventList(xml, UTC);
    expect(event!.name).toBe('A & <B>');
    expect(event!.urls).toEqual(['https://x.example/?a=1&b=2']);
  });

  it('decodes entities, numeric character references included', () => {
    const xml = `${DECL}<Organisation><OrganisationId>1</OrganisationId><Name>L&#248;p &amp; Co &#xE5;</Name></Organisation>`;
    expect(parseOrganisation(xml, UTC).name).toBe('Løp & Co å');
  });

  it('checkStructure reports mismatches and unclosed elements', () => {
    expect(checkStructure('<A><B></A>')).toMatch(/does not match/);
    expect(checkStructure('<A><B/>')).toMatch(/ends inside <A>/);
    expect(checkStructure('<A><B x="1"/></A>')).toBeNull();
  });

  it('detectNativeRoot names the root or null', () => {
    expect(detectNativeRoot(`${DECL}<ResultListList ${NS}/>`)).toBe('ResultListList');
    expect(detectNativeRoot('<html></html>')).toBeNull();
    expect(detectNativeRoot('not xml')).toBeNull();
    expect(detectNativeRoot('<Something/>')).toBeNull();
    expect(NATIVE_ROOTS).toContain('CompetitorCountList');
    expect(NATIVE_ROOTS).toHaveLength(20);
  });

  it('parses big lists class by class with the same result as in one go', () => {
    const xml = resultList(
      personResult('1', OK_RESULT) + personResult('2', OK_RESULT.replace('<ResultPosition>1', '<ResultPosition>2')),
    );
    const whole = parseNativeDocument(xml, 'ResultList');
    const chunked = parseNativeDocumentChunked(xml, 'ResultList', 'ClassResult', 0);
    expect([...chunked.chunks]).toEqual([(whole['ClassResult'] as unknown[])[0]]);
    expect(chunked.root['Event']).toEqual(whole['Event']);
    expect(chunked.root['ClassResult']).toBeUndefined();
  });
});

describe('accessors: missing and empty elements', () => {
  it('names the path of a missing required element', () => {
    const xml = resultList(
      personResult('1', OK_RESULT) + personResult('2', OK_RESULT.replace('<CompetitorStatus value="OK"/>', '')),
    );
    const e = invalid(() => parseResultList(xml, STHLM));
    expect(e.problem).toBe('missing <CompetitorStatus>');
    expect(e.path).toBe('ResultList/ClassResult/PersonResult[2]/Result/CompetitorStatus');
  });

  it('names the path of a missing Result', () => {
    const xml = resultList(personResult('1', OK_RESULT) + personResult('2', ''));
    expect(invalid(() => parseResultList(xml, STHLM)).path).toBe('ResultList/ClassResult/PersonResult[2]/Result');
  });

  it('names the path of a missing event id', () => {
    const e = invalid(() => parseEventList(`${DECL}<EventList><Event><Name>x</Name></Event></EventList>`, UTC));
    expect(e.problem).toBe('missing <EventId>');
    expect(e.path).toBe('EventList/Event/EventId');
  });

  it('turns empty ids into null, never ""', () => {
    const xml = `${DECL}<StartList ${NS}><EventId>100</EventId><ClassStart><EventClassId>300</EventClassId>
      <PersonStart><Person><PersonName><Family>F</Family><Given sequence="1">G</Given></PersonName><PersonId></PersonId></Person>
      <OrganisationId/><Start><BibNumber>0</BibNumber><StartTime><Date>2026-06-06</Date><Clock>10:00:00</Clock></StartTime></Start></PersonStart>
      </ClassStart></StartList>`;
    const list = parseStartList(xml, UTC);
    const p = list.classes[0]!.persons[0]!;
    expect(p.person!.id).toBeNull();
    expect(p.organisation).toBeNull();
    expect(p.starts[0]!.bibNumber).toBeNull();
    expect(list.event).toEqual({ id: '100', name: null, event: null });
    expect(list.classes[0]!.class).toEqual({ id: '300', name: '', shortName: null, resultListMode: 'Default' });
  });

  it('reads an empty <Name/> as an empty name, but a missing one is an error', () => {
    const ev = (name: string) =>
      `${DECL}<Event><EventId>1</EventId>${name}<StartDate><Date>2026-01-01</Date></StartDate></Event>`;
    expect(parseEvent(ev('<Name/>'), UTC).name).toBe('');
    expect(invalid(() => parseEvent(ev(''), UTC)).path).toBe('Event/Name');
  });

  it('ignores unknown elements', () => {
    const xml = `${DECL}<Organisation><OrganisationId>1</OrganisationId><Name>N</Name><Whatever><Deep>1</Deep></Whatever><WRSInfo/></Organisation>`;
    expect(parseOrganisation(xml, UTC).id).toBe('1');
  });
});

describe('names, times and statuses', () => {
  it('joins Given names in sequence order', () => {
    const given = '<Given sequence="2">Anna</Given><Given sequence="1">Karin</Given><Given sequence="3">Maria</Given>';
    const xml = `${DECL}<PersonList>${person('9', 'Svensson', given)}</PersonList>`;
    const [p] = parsePersonList(xml, UTC);
    expect(p!.name).toEqual({ family: 'Svensson', given: 'Karin Anna Maria' });
    expect(p!.countryCode).toBeNull();
    expect(p!.birthDate).toBe('2001-01-01');
  });

  it('converts Date+Clock in the document zone, across DST', () => {
    const ev = (
      date: string,
      clock: string,
    ) => `${DECL}<Event><EventId>1</EventId><Name>x</Name><EventClassificationId>9</EventClassificationId>
      <EventStatusId>99</EventStatusId><StartDate><Date>${date}</Date><Clock>${clock}</Clock></StartDate></Event>`;
    expect(parseEvent(ev('2026-01-15', '12:00:00'), STHLM).start).toBe('2026-01-15T11:00:00Z');
    expect(parseEvent(ev('2026-07-15', '12:00:00'), STHLM).start).toBe('2026-07-15T10:00:00Z');
    // 02:30 does not exist on 2026-03-29 in Stockholm: it is read as 03:30 CEST (time.ts's rule).
    expect(parseEvent(ev('2026-03-29', '02:30:00'), STHLM).start).toBe('2026-03-29T01:30:00Z');
    // 02:30 happens twice on 2026-10-25: either reading is a correct instant (time.ts documents the
    // earlier one but currently returns the later one; that choice belongs to time.ts).
    expect(parseEvent(ev('2026-10-25', '02:30:00'), STHLM).start).toMatch(/^2026-10-25T0[01]:30:00Z$/);
    expect(parseEvent(ev('2026-10-25', '03:30:00'), STHLM).start).toBe('2026-10-25T02:30:00Z');
    expect(parseEvent(ev('2026-07-15', '12:00:00'), UTC).start).toBe('2026-07-15T12:00:00Z');
    const e = parseEvent(ev('2026-07-15', '12:00:00'), UTC);
    expect(e.classification).toBe('unknown');
    expect(e.classificationId).toBe('9');
    expect(e.status).toBe('unknown');
    expect(e.statusId).toBe('99');
  });

  it('reports an unreadable date with its path', () => {
    const xml = `${DECL}<Event><EventId>1</EventId><Name>x</Name><StartDate><Date>26.06.2026</Date></StartDate></Event>`;
    expect(invalid(() => parseEvent(xml, UTC)).path).toBe('Event/StartDate');
  });

  it('maps native statuses and rejects unknown ones with the path', () => {
    const statuses: Record<string, string> = {
      OK: 'OK',
      MisPunch: 'MissingPunch',
      SportWithdr: 'SportingWithdrawal',
      DidNotStart: 'DidNotStart',
      DidNotFinish: 'DidNotFinish',
      Disqualified: 'Disqualified',
      OverTime: 'OverTime',
      NotCompeting: 'NotCompeting',
      Moved: 'Moved',
      MovedUp: 'MovedUp',
      Cancelled: 'Cancelled',
      Active: 'Active',
      Inactive: 'Inactive',
      Finished: 'Finished',
    };
    for (const [native, model] of Object.entries(statuses)) {
      const xml = resultList(personResult('1', `<Result><CompetitorStatus value="${native}"/></Result>`));
      expect(parseResultList(xml, UTC).classes[0]!.persons[0]!.results[0]!.status).toBe(model);
    }
    const e = invalid(() =>
      parseResultList(resultList(personResult('1', '<Result><CompetitorStatus value="Teleported"/></Result>')), UTC),
    );
    expect(e.problem).toBe("unknown CompetitorStatus 'Teleported'");
    expect(e.path).toBe('ResultList/ClassResult/PersonResult/Result/CompetitorStatus');
    expect(
      invalid(() =>
        parseResultList(resultList(personResult('1', '<Result><CompetitorStatus value="__proto__"/></Result>')), UTC),
      ).problem,
    ).toMatch(/unknown/);
  });
});

describe('result lists', () => {
  it('normalises a single-race result with splits', () => {
    const list = parseResultList(resultList(personResult('1', OK_RESULT)), STHLM);
    expect(list.status).toBe('complete');
    expect(list.event.event!.races[0]!.id).toBe('200');
    const cls = list.classes[0]!;
    expect(cls.class).toEqual({ id: '300', name: 'D21', shortName: 'D21', resultListMode: 'Default' });
    expect(cls.numberOfEntries).toBe(2);
    const p = cls.persons[0]!;
    expect(p.person).toEqual({
      id: '1',
      name: { family: 'Family', given: 'Given' },
      sex: 'F',
      birthDate: '2001-01-01',
      countryCode: null,
    });
    expect(p.organisation).toEqual({ id: '7', name: 'Club A', shortName: 'CA', countryCode: 'SWE' });
    expect(p.results).toHaveLength(1);
    const r = p.results[0]!;
    expect(r).toMatchObject({
      raceId: null,
      bibNumber: '12',
      startTime: '2026-06-06T08:30:00Z',
      finishTime: '2026-06-06T09:16:33Z',
      time: 2793,
      timeBehind: 0,
      position: 1,
      status: 'OK',
      cards: [{ number: '123456', type: null }],
    });
    expect(r.splits).toEqual([
      { controlCode: '31', time: 241, status: 'OK' },
      { controlCode: '32', time: 605, status: 'OK' },
      { controlCode: '33', time: null, status: 'Missing' },
      { controlCode: '100', time: null, status: 'Missing' },
    ]);
  });

  it('has null position and time behind when not OK, and reads H:MM:SS', () => {
    const xml = resultList(
      personResult('1', '<Result><Time>1:06:45</Time><CompetitorStatus value="MisPunch"/></Result>'),
    );
    const r = parseResultList(xml, UTC).classes[0]!.persons[0]!.results[0]!;
    expect(r).toMatchObject({ time: 4005, timeBehind: null, position: null, status: 'MissingPunch' });
  });

  it('gives one RaceResult per race for multi-day results', () => {
    const multi = `<RaceResult><EventRaceId>201</EventRaceId><Result><Time>30:00</Time><TimeDiff>1:00</TimeDiff><ResultPosition>2</ResultPosition><CompetitorStatus value="OK"/></Result></RaceResult>
      <RaceResult><EventRaceId>202</EventRaceId><Result><CompetitorStatus value="DidNotStart"/></Result></RaceResult>`;
    const r = parseResultList(resultList(personResult('1', multi)), UTC).classes[0]!.persons[0]!.results;
    expect(r.map((x) => [x.raceId, x.time, x.timeBehind, x.position, x.status])).toEqual([
      ['201', 1800, 60, 2, 'OK'],
      ['202', null, null, null, 'DidNotStart'],
    ]);
  });

  it('takes a single Result race id from its EventRaceId', () => {
    const r = parseResultList(
      resultList(personResult('1', '<Result><EventRaceId>205</EventRaceId><CompetitorStatus value="OK"/></Result>')),
      UTC,
    );
    expect(r.classes[0]!.persons[0]!.results[0]!.raceId).toBe('205');
  });

  it('normalises relays, with TimeBehind in seconds', () => {
    const team = `<TeamResult><TeamName>Club A 1</TeamName>${ORG}<BibNumber>88</BibNumber>
      <StartTime><Date>2026-06-06</Date><Clock>18:00:00</Clock></StartTime><Time>1:41:00</Time><ResultPosition>9</ResultPosition><TeamStatus value="OK"/>
      <TeamMemberResult>${person('1')}${ORG}<Leg>1</Leg><LegOrder>1</LegOrder><Time>20:00</Time><TimeBehind type="Leg">678</TimeBehind>
        <Position type="Leg">94</Position><CompetitorStatus value="OK"/>
        <OverallResult><Time>20:00</Time><ResultPosition>94</ResultPosition><TeamStatus value="OK"/></OverallResult></TeamMemberResult>
      <TeamMemberResult>${person('2')}<Leg>2</Leg><LegOrder>1</LegOrder><Time>21:00</Time><CompetitorStatus value="DidNotFinish"/>
        <OverallResult><Time>41:00</Time><TeamStatus value="DidNotFinish"/></OverallResult></TeamMemberResult>
    </TeamResult>`;
    const list = parseResultList(resultList(team), STHLM);
    const t = list.classes[0]!.teams[0]!;
    expect(t).toMatchObject({
      name: 'Club A 1',
      bibNumber: '88',
      startTime: '2026-06-06T16:00:00Z',
      time: 6060,
      position: 9,
      status: 'OK',
      timeBehind: null,
    });
    expect(t.organisations.map((o) => o.id)).toEqual(['7']);
    expect(t.members).toHaveLength(2);
    expect(t.members[0]!.result).toMatchObject({ time: 1200, timeBehind: 678, position: 94, status: 'OK' });
    expect(t.members[0]!.result.overall).toEqual({ time: 1200, timeBehind: null, position: 94, status: 'OK' });
    expect(t.members[1]!).toMatchObject({ leg: 2, legOrder: 1, organisation: null });
    expect(t.members[1]!.result.overall!.status).toBe('DidNotFinish');
  });

  it('reads ResultList@status and rejects unknown ones', () => {
    expect(parseResultList(resultList('', ' status="Snapshot"'), UTC).status).toBe('snapshot');
    expect(invalid(() => parseResultList(resultList('', ' status="partial"'), UTC)).path).toBe('ResultList/@status');
  });

  it('returns empty lists for self-closed roots', () => {
    expect(parseResultListList(`${DECL}<ResultListList ${NS}/>`, UTC)).toEqual([]);
    expect(parseStartListList(`${DECL}<StartListList ${NS} />`, UTC)).toEqual([]);
    expect(parseEventList(`${DECL}<EventList></EventList>`, UTC)).toEqual([]);
    expect(parseEntryList('<EntryList/>', UTC)).toEqual([]);
  });

  it('parses a result list of several thousand runners (sampled validation, chunked parse)', () => {
    const persons: string[] = [];
    for (let i = 0; i < 2500; i++) persons.push(personResult(String(i + 1), OK_RESULT));
    const body = persons.join('');
    const xml = resultList(body).replace(
      '</ResultList>',
      `<ClassResult><EventClass><EventClassId>301</EventClassId><Name>H21</Name></EventClass>${body}</ClassResult></ResultList>`,
    );
    expect(xml.length).toBeGreaterThan(1_000_000);
    const list = parseResultList(xml, STHLM);
    expect(list.classes.map((c) => c.persons.length)).toEqual([2500, 2500]);
    expect(list.classes[1]!.persons[2499]!.results[0]!.splits).toHaveLength(4);
    const broken = xml.replace(/(<PersonResult>(?:(?!<\/PersonResult>).)*?)<CompetitorStatus value="OK"\/>/s, '$1');
    expect(
      invalid(() => parseResultList(`${broken.slice(0, broken.lastIndexOf('</ResultList>'))}</ResultList>`, STHLM))
        .path,
    ).toBe('ResultList/ClassResult[1]/PersonResult[1]/Result/CompetitorStatus');
    expect(invalid(() => parseResultList(xml.slice(0, -40), STHLM)).problem).toMatch(/truncated|malformed/);
  });
});

describe('start lists', () => {
  it('gives one RaceStart per race for multi-race starts, and teams', () => {
    const xml = `${DECL}<StartList>${EVENT}<ClassStart numberOfEntries="3"><EventClass timePresentation="N"><EventClassId>300</EventClassId><Name>U1</Name></EventClass>
      <PersonStart>${person('1')}${ORG}
        <RaceStart><EventRaceId>201</EventRaceId><Start><BibNumber>5</BibNumber><CCard><CCardId>99</CCardId><PunchingUnitType value="SI"/></CCard>
          <StartTime><Date>2026-06-06</Date><Clock>10:00:00</Clock></StartTime></Start></RaceStart>
        <RaceStart><EventRaceId>202</EventRaceId><Start><StartTime><Date>2026-06-07</Date><Clock>09:00:00</Clock></StartTime><CourseLength>4200</CourseLength></Start></RaceStart>
      </PersonStart>
      <TeamStart><TeamName>T1</TeamName><OrganisationId>7</OrganisationId><BibNumber>3</BibNumber>
        <StartTime><Date>2026-06-06</Date><Clock>12:00:00</Clock></StartTime>
        <TeamMemberStart>${person('2')}<Leg>1</Leg><LegOrder>1</LegOrder><CCardId>77</CCardId><StartTime><Date>2026-06-06</Date><Clock>12:00:00</Clock></StartTime></TeamMemberStart>
      </TeamStart></ClassStart></StartList>`;
    const list = parseStartList(xml, OSLO);
    const c = list.classes[0]!;
    expect(c.class.resultListMode).toBe('UnorderedNoTimes');
    expect(c.persons[0]!.starts.map((s) => [s.raceId, s.startTime, s.bibNumber])).toEqual([
      ['201', '2026-06-06T08:00:00Z', '5'],
      ['202', '2026-06-07T07:00:00Z', null],
    ]);
    expect(c.persons[0]!.starts[0]!.cards).toEqual([{ number: '99', type: 'SI' }]);
    expect(c.persons[0]!.starts[1]!.course).toEqual({ name: null, length: 4200, climb: null, controls: null });
    const t = c.teams[0]!;
    expect(t).toMatchObject({ name: 'T1', bibNumber: '3', startTime: '2026-06-06T10:00:00Z' });
    expect(t.members[0]!).toMatchObject({ leg: 1, legOrder: 1 });
    expect(t.members[0]!.start.cards).toEqual([{ number: '77', type: null }]);
  });
});

describe('big start lists', () => {
  it('parses a start list over the chunking threshold class by class', () => {
    const start = (
      i: number,
    ) => `<PersonStart>${person(String(i))}${ORG}<Start><BibNumber>${i}</BibNumber><CCardId>${500000 + i}</CCardId>
      <StartTime><Date>2026-06-06</Date><Clock>10:${String(i % 60).padStart(2, '0')}:00</Clock></StartTime></Start></PersonStart>`;
    const cls = (id: number, from: number) =>
      `<ClassStart numberOfEntries="2000"><EventClass><EventClassId>${id}</EventClassId><Name>C${id}</Name></EventClass>${Array.from(
        { length: 2000 },
        (_, k) => start(from + k),
      ).join('')}</ClassStart>`;
    const xml = `${DECL}<StartList ${NS}>${EVENT}${cls(1, 1)}${cls(2, 2001)}</StartList>`;
    expect(xml.length).toBeGreaterThan(1_000_000);
    const list = parseStartList(xml, OSLO);
    expect(list.event.id).toBe('100');
    expect(list.classes.map((c) => [c.class.id, c.persons.length])).toEqual([
      ['1', 2000],
      ['2', 2000],
    ]);
    expect(list.classes[1]!.persons[1999]!.starts[0]).toMatchObject({
      bibNumber: '4000',
      cards: [{ number: '504000', type: null }],
      startTime: '2026-06-06T08:40:00Z',
    });
    const broken = xml.replace(
      '<PersonStart><Person sex="F"><PersonName><Family>Family</Family><Given sequence="1">Given</Given></PersonName><PersonId>2001</PersonId>',
      '<PersonStart><Person sex="F"><PersonId>2001</PersonId>',
    );
    expect(invalid(() => parseStartList(broken, OSLO)).path).toBe(
      'StartList/ClassStart[2]/PersonStart[1]/Person/PersonName',
    );
  });
});

describe('events and friends', () => {
  const event = `${DECL}<Event ${NS} eventForm="IndMultiDay"><EventId>1</EventId><Name>E</Name><EventClassificationId>1</EventClassificationId>
    <EventStatusId>10</EventStatusId><StartDate><Date>2026-05-12</Date><Clock>17:30:00</Clock></StartDate>
    <Organiser><Organisation><OrganisationId>150</OrganisationId><Name>Org</Name><ShortName>O</ShortName><Country><CountryId value="578"/><Alpha3 value="NOR"/></Country></Organisation>
      <Organisation><OrganisationId>3</OrganisationId><Name>District</Name><CountryId value="578"/></Organisation></Organiser>
    <EntryBreak><ValidToDate><Date>2026-05-05</Date><Clock>23:59:59</Clock></ValidToDate></EntryBreak>
    <EntryBreak><ValidFromDate><Date>2026-05-06</Date><Clock>00:00:00</Clock></ValidFromDate><ValidToDate><Date>2026-05-10</Date><Clock>23:59:59</Clock></ValidToDate></EntryBreak>
    <EventRace><EventRaceId>10</EventRaceId><EventId>1</EventId><Name>Dag 1</Name><RaceDate><Date>2026-05-12</Date><Clock>17:30:00</Clock></RaceDate>
      <EventCenterPosition x="10.74" y="59.96" unit="WGS-84"/></EventRace>
    <EventRace><EventRaceId>11</EventRaceId><Name/><RaceDate><Date>2026-05-13</Date></RaceDate></EventRace>
    <WebURL>https://example.org</WebURL><PunchingUnitType value="emiTag"/>
    <HashTableEntry><Key>Eventor_Message</Key><Value>Line 1
Line 2 &lt;b&gt;</Value></HashTableEntry>
    <HashTableEntry><Key>officialResult_10</Key><Value>2026-05-12 18:17:24</Value></HashTableEntry>
    <HashTableEntry><Key>__proto__</Key><Value>x</Value></HashTableEntry>
    <ParentEvent><EventId>0</EventId></ParentEvent></Event>`;

  it('normalises an Event', () => {
    const e = parseEvent(event, OSLO);
    expect(e).toMatchObject({
      id: '1',
      form: 'IndMultiDay',
      classification: 'championship',
      status: 'canceled',
      start: '2026-05-12T15:30:00Z',
      finish: null,
      parentEventId: '0',
    });
    expect(e.organisers).toEqual([
      { id: '150', name: 'Org', shortName: 'O', countryCode: 'NOR' },
      { id: '3', name: 'District', shortName: null, countryCode: null },
    ]);
    expect(e.entryBreaks).toEqual([
      { from: null, to: '2026-05-05T21:59:59Z' },
      { from: '2026-05-05T22:00:00Z', to: '2026-05-10T21:59:59Z' },
    ]);
    // 05-05 21:59:59Z appears as both a "to" and a "from - 1 s": once.
    expect(e.entryDeadlines).toEqual(['2026-05-05T21:59:59Z', '2026-05-10T21:59:59Z']);
    expect(e.races).toEqual([
      {
        id: '10',
        eventId: '1',
        name: 'Dag 1',
        date: '2026-05-12T15:30:00Z',
        distance: null,
        lightCondition: null,
        position: { lat: 59.96, lon: 10.74 },
      },
      {
        id: '11',
        eventId: '1',
        name: null,
        date: '2026-05-12T22:00:00Z',
        distance: null,
        lightCondition: null,
        position: null,
      },
    ]);
    expect(e.message).toBe('Line 1\nLine 2 <b>');
    expect(e.properties['officialResult_10']).toBe('2026-05-12 18:17:24');
    expect(Object.getPrototypeOf(e.properties)).toBe(Object.prototype);
    expect(Object.hasOwn(e.properties, '__proto__')).toBe(true);
    expect(e.punchingUnitTypes).toEqual(['emiTag']);
    expect(e.urls).toEqual(['https://example.org']);
  });

  it('reads DocumentList attributes, xs:dateTime in the document zone', () => {
    const xml = `${DECL}<DocumentList><Document id="5" referenceId="1" name="Innbydelse" url="https://x.example/d/5" type="Invitation" modifyDate="2026-04-14T15:59:39"/></DocumentList>`;
    expect(parseDocumentList(xml, OSLO)).toEqual([
      {
        id: '5',
        eventId: '1',
        name: 'Innbydelse',
        url: 'https://x.example/d/5',
        type: 'Invitation',
        modifiedAt: '2026-04-14T13:59:39Z',
      },
    ]);
    expect(invalid(() => parseDocumentList(`${DECL}<DocumentList><Document url="u"/></DocumentList>`, OSLO)).path).toBe(
      'DocumentList/Document/@id',
    );
  });

  it('reads event classes with fees in sequence order and relay legs', () => {
    const xml = `${DECL}<EventClassList><EventClass sex="B" teamEntry="Y" numberOfLegs="3" lowAge="5" numberOfEntries="19"><EventClassId>1</EventClassId><Name>Relay</Name>
      <ClassShortName>R</ClassShortName><EventClassStatus value="normal"/><ClassType><ClassTypeId>2</ClassTypeId></ClassType>
      <ClassEntryFee><EntryFeeId>60</EntryFeeId><Sequence>60</Sequence></ClassEntryFee><ClassEntryFee><EntryFeeId>20</EntryFeeId><Sequence>20</Sequence></ClassEntryFee>
      <ClassRaceInfo relayLeg="1" noOfEntries="19" noOfStarts="18"><ClassRaceInfoId>9</ClassRaceInfoId><EventRaceId>8</EventRaceId><ClassRaceStatus value="allocated"/></ClassRaceInfo>
      </EventClass></EventClassList>`;
    expect(parseEventClassList(xml, UTC)).toEqual([
      {
        id: '1',
        name: 'Relay',
        shortName: 'R',
        sex: 'B',
        minAge: 5,
        maxAge: null,
        status: 'normal',
        classTypeId: '2',
        baseClassId: null,
        numberOfEntries: 19,
        teamEntry: true,
        numberOfLegs: 3,
        entryFeeIds: ['20', '60'],
        races: [{ id: '9', raceId: '8', relayLeg: 1, entries: 19, starts: 18, status: 'allocated' }],
      },
    ]);
  });

  it('reads entry fees', () => {
    const xml = `${DECL}<EntryFeeList><EntryFee taxIncluded="N" entryFeeType="youth" valueOperator="percent"><EntryFeeId>1</EntryFeeId><Name>Late</Name>
      <Amount currency="NOK">50</Amount><ValidFromDate><Date>2026-05-01</Date><Clock>00:00:00</Clock></ValidFromDate>
      <FromDateOfBirth><Date>2010-01-01</Date></FromDateOfBirth></EntryFee></EntryFeeList>`;
    expect(parseEntryFeeList(xml, OSLO)).toEqual([
      {
        id: '1',
        name: 'Late',
        amount: 50,
        currency: 'NOK',
        type: 'youth',
        valueOperator: 'percent',
        taxIncluded: false,
        validFrom: '2026-04-30T22:00:00Z',
        validTo: null,
        birthDateFrom: '2010-01-01',
        birthDateTo: null,
      },
    ]);
  });

  it('reads entries with ids, a full event, classes by sequence, and team entries', () => {
    const xml = `${DECL}<EntryList><Entry><EntryId>1</EntryId><Competitor><CompetitorId>ab12</CompetitorId><PersonId>cd34</PersonId><OrganisationId>89</OrganisationId>
      <CCard><CCardId>9407999</CCardId><PunchingUnitType value="emiTag"/></CCard></Competitor>
      <EntryClass sequence="2"><EventClassId>22</EventClassId></EntryClass><EntryClass sequence="1"><EventClass><EventClassId>11</EventClassId><Name>H21</Name></EventClass></EntryClass>
      ${EVENT}<EventRaceId>200</EventRaceId><BibNumber/><EntryDate><Date>2026-04-14</Date><Clock>14:46:04</Clock></EntryDate>
      <EntryEntryFee><EntryFeeId>5</EntryFeeId><Sequence>1</Sequence></EntryEntryFee></Entry>
      <Entry><EntryId>2</EntryId><TeamName>Team</TeamName><OrganisationId>7</OrganisationId>
      <TeamCompetitor><TeamCompetitorId>1</TeamCompetitorId><PersonId>5</PersonId><TeamSequence>1</TeamSequence></TeamCompetitor><EventId>100</EventId></Entry></EntryList>`;
    const [a, b] = parseEntryList(xml, OSLO);
    expect(a).toMatchObject({
      id: '1',
      classIds: ['11', '22'],
      classNames: ['H21'],
      raceIds: ['200'],
      bibNumber: null,
      entryDate: '2026-04-14T12:46:04Z',
      entryFeeIds: ['5'],
      team: null,
      competitor: {
        competitorId: 'ab12',
        personId: 'cd34',
        person: null,
        organisation: { id: '89', name: null, shortName: null, countryCode: null },
        cards: [{ number: '9407999', type: 'emiTag' }],
      },
    });
    expect(a!.event.event!.id).toBe('100');
    expect(b).toMatchObject({
      competitor: null,
      team: { name: 'Team', organisations: [{ id: '7' }], members: [{ personId: '5', organisationId: null, leg: 1 }] },
      event: { id: '100', event: null },
    });
  });

  it('reads competitor counts from attributes', () => {
    const xml = `${DECL}<CompetitorCountList><CompetitorCount eventId="1" eventRaceId="2" numberOfEntries="162" numberOfStarts="0">
      <ClassCompetitorCount eventClassId="3" numberOfEntries="5" numberOfStarts="4"/><OrganisationCompetitorCount organisationId="4" numberOfEntries="2" numberOfStarts="1"/>
      </CompetitorCount></CompetitorCountList>`;
    expect(parseCompetitorCountList(xml, UTC)).toEqual([
      {
        eventId: '1',
        raceId: '2',
        entries: 162,
        starts: 0,
        classes: [{ classId: '3', entries: 5, starts: 4 }],
        organisations: [{ organisationId: '4', entries: 2, starts: 1 }],
      },
    ]);
  });
});

describe('organisations, persons, competitors, login link, activities', () => {
  const org = `<Organisation><OrganisationId>273</OrganisationId><Name>Club</Name><ShortName>C</ShortName><OrganisationTypeId>2</OrganisationTypeId>
    <CountryId value="578"/><Address careOf="A" street="S 1" city="X" zipCode="1234"><AddressType value="official"/><Country><CountryId value="578"/><Alpha3 value="NOR"/></Country></Address>
    <Tele mobilePhoneNumber="123" mailAddress="a@example.org"><TeleType value="official"/></Tele>
    <ParentOrganisation><OrganisationId>3</OrganisationId></ParentOrganisation><ModifyDate><Date>2017-05-24</Date><Clock>22:53:27</Clock></ModifyDate></Organisation>`;

  it('reads an organisation and a list', () => {
    const o = parseOrganisation(DECL + org, OSLO);
    expect(o).toEqual({
      id: '273',
      name: 'Club',
      shortName: 'C',
      mediaName: null,
      kind: 'district',
      typeId: '2',
      countryCode: null,
      parentId: '3',
      modifiedAt: '2017-05-24T20:53:27Z',
      contact: {
        emails: ['a@example.org'],
        phones: ['123'],
        addresses: [{ careOf: 'A', street: 'S 1', zipCode: '1234', city: 'X', countryCode: 'NOR' }],
      },
    });
    expect(parseOrganisationList(`${DECL}<OrganisationList>${org}${org}</OrganisationList>`, OSLO)).toHaveLength(2);
    expect(invalid(() => parseOrganisation(`${DECL}<Organisation><Name>x</Name></Organisation>`, OSLO)).path).toBe(
      'Organisation/OrganisationId',
    );
  });

  it('reads a person with roles (authenticatePerson)', () => {
    const xml = `${DECL}<Person sex="M"><PersonName><Family>F</Family><Given sequence="1">G</Given></PersonName><PersonId>9</PersonId>
      <OrganisationId>7</OrganisationId><Role><OrganisationId>7</OrganisationId><RoleTypeId>1</RoleTypeId></Role><Role><OrganisationId>7</OrganisationId><RoleTypeId>10</RoleTypeId></Role>
      <ExternalPersonId typeId="2" id="X1"/><ModifyDate><Date>2026-01-01</Date><Clock>12:00:00</Clock></ModifyDate></Person>`;
    expect(parsePerson(xml, STHLM)).toEqual({
      id: '9',
      name: { family: 'F', given: 'G' },
      sex: 'M',
      birthDate: null,
      countryCode: null,
      organisationId: '7',
      roles: [
        { organisationId: '7', roleTypeId: '1' },
        { organisationId: '7', roleTypeId: '10' },
      ],
      externalIds: [{ type: '2', id: 'X1' }],
      contact: null,
      modifiedAt: '2026-01-01T11:00:00Z',
    });
    expect(invalid(() => parsePerson(`${DECL}<Person><PersonId>1</PersonId></Person>`, UTC)).path).toBe(
      'Person/PersonName',
    );
  });

  const competitor: Competitor = {
    competitorId: '55',
    personId: '9',
    person: null,
    organisationId: '7',
    cards: [
      { number: '123456', type: 'SI' },
      { number: '9<&>"', type: null },
    ],
    preselectedClasses: [
      { sequence: 1, baseClassId: '30', classShortName: null },
      { sequence: 2, baseClassId: null, classShortName: 'H21 & "K"' },
    ],
    disciplineId: '1',
    modifiedAt: null,
  };

  it('serialises a Competitor in XSD order, escaped, and reads it back', () => {
    const xml = serializeCompetitor(competitor);
    expect(xml).toContain(
      '<Competitor><CompetitorId>55</CompetitorId><PersonId>9</PersonId><OrganisationId>7</OrganisationId><PreSelectedClass sequence="1"><BaseClassId>30</BaseClassId></PreSelectedClass>',
    );
    expect(xml).toContain(
      '<CCard><CCardId>123456</CCardId><PunchingUnitType value="SI"/></CCard><CCard><CCardId>9&lt;&amp;&gt;&quot;</CCardId></CCard><DisciplineId>1</DisciplineId></Competitor>',
    );
    expect(detectNativeRoot(xml)).toBe('Competitor');
    const back = parseCompetitor(xml, UTC);
    expect(back).toEqual(competitor);
    expect(CompetitorSchema.parse(back)).toEqual(competitor);
  });

  it('reads a competitor list with a full Person', () => {
    const xml = `${DECL}<CompetitorList><Competitor><CompetitorId>1</CompetitorId>${person('9')}<OrganisationId>7</OrganisationId>
      <PreSelectedClass sequence="1"><BaseClass><BaseClassId>4</BaseClassId></BaseClass></PreSelectedClass>
      <CCard><CCardId>5</CCardId><PunchingUnitType value="Unknown"/></CCard><ModifyDate><Date>2026-01-01</Date></ModifyDate></Competitor></CompetitorList>`;
    const [c] = parseCompetitorList(xml, UTC);
    expect(c).toMatchObject({
      competitorId: '1',
      personId: '9',
      organisationId: '7',
      cards: [{ number: '5', type: null }],
      preselectedClasses: [{ sequence: 1, baseClassId: '4', classShortName: null }],
      modifiedAt: '2026-01-01T00:00:00Z',
    });
    expect(c!.person!.name.family).toBe('Family');
  });

  it('reads the external login URL as text or in a Url child, never echoing it in errors', () => {
    expect(
      parseExternalLoginUrl(
        `${DECL}<ExternalLoginUrl>https://eventor.example/Login?t=abc&amp;x=1</ExternalLoginUrl>`,
        UTC,
      ),
    ).toBe('https://eventor.example/Login?t=abc&x=1');
    expect(
      parseExternalLoginUrl(
        `${DECL}<ExternalLoginUrl><Url>https://eventor.example/L?t=1</Url></ExternalLoginUrl>`,
        UTC,
      ),
    ).toBe('https://eventor.example/L?t=1');
    expect(invalid(() => parseExternalLoginUrl(`${DECL}<ExternalLoginUrl/>`, UTC)).problem).toMatch(/no URL/);
    const e = invalid(() => parseExternalLoginUrl(`${DECL}<ExternalLoginUrl>secret-token-123</ExternalLoginUrl>`, UTC));
    expect(e.message).not.toContain('secret-token-123');
  });

  it('reads activities from attributes, local xs:dateTime in the document zone', () => {
    const act = `<Activity id="1" organisationId="7" visibleFrom="2026-03-01T00:00:00" visibleTo="2026-04-01T00:00:00" startTime="2026-03-29T02:30:00"
      registrationDeadline="2026-03-20T23:59:00Z" allowExternalRegistrations="false" registrationCount="2" url="https://x.example/a/1" entryAccessLevel="LoggedIn" modifyDate="2026-02-01T10:00:00">
      <Name>Training</Name><Information>Bring a lamp</Information>
      <ActivityAttribute id="3" type="RadioButtons" order="1"><Name>Food</Name><Value>Yes</Value><Value default="true">No</Value></ActivityAttribute>
      <ActivityRegistration personId="9" organisationId="7" modifyDate="2026-03-02T12:00:00"><AttributeValue activityAttributeId="3">Yes</AttributeValue></ActivityRegistration>
    </Activity>`;
    const [a] = parseActivityList(`${DECL}<ActivityList>${act}</ActivityList>`, STHLM);
    expect(a).toEqual({
      id: '1',
      organisationId: '7',
      name: 'Training',
      information: 'Bring a lamp',
      startTime: '2026-03-29T01:30:00Z',
      registrationDeadline: '2026-03-20T23:59:00Z',
      visibleFrom: '2026-02-28T23:00:00Z',
      visibleTo: '2026-03-31T22:00:00Z',
      url: 'https://x.example/a/1',
      registrationCount: 2,
      allowExternalRegistrations: false,
      entryAccessLevel: 'LoggedIn',
      attributes: [{ id: '3', type: 'RadioButtons', name: 'Food', values: ['Yes', 'No'] }],
      registrations: [{ personId: '9', organisationId: '7', values: ['Yes'], modifiedAt: '2026-03-02T11:00:00Z' }],
      modifiedAt: '2026-02-01T09:00:00Z',
    });
    expect(parseActivity(DECL + act, STHLM).id).toBe('1');
    expect(
      invalid(() => parseActivity(DECL + act.replace('startTime="2026-03-29T02:30:00"', 'startTime="soon"'), STHLM))
        .path,
    ).toBe('Activity/@startTime');
  });
});

describe('output validation', () => {
  const doc: EventDocument = { id: '1', eventId: null, name: 'n', url: 'u', type: null, modifiedAt: null };

  it('names the path of a value that does not match the model', () => {
    const bad = { ...doc, modifiedAt: 'yesterday' } as EventDocument;
    const e = invalid(() => validateList(EventDocumentSchema, [doc, bad], 'DocumentList/Document'));
    expect(e.path).toBe('DocumentList/Document[1].modifiedAt');
  });

  it('validates long lists by sample and still catches a broken class structure', () => {
    const docs = Array.from({ length: 5000 }, (_, i) => ({ ...doc, id: String(i + 1) }));
    expect(validateList(EventDocumentSchema, docs, 'DocumentList/Document')).toBe(docs);
    const list = parseResultList(resultList(personResult('1', OK_RESULT)), UTC);
    const big: ResultList = {
      ...list,
      classes: [{ ...list.classes[0]!, persons: Array.from({ length: 3000 }, () => list.classes[0]!.persons[0]!) }],
    };
    expect(validateClassedList(ResultListSchema, big, 'ResultList')).toBe(big);
    const broken = { ...big, classes: [{ ...big.classes[0]!, numberOfEntries: 1.5 }] } as ResultList;
    expect(invalid(() => validateClassedList(ResultListSchema, broken, 'ResultList')).path).toBe(
      'ResultList (sampled).classes[0].numberOfEntries',
    );
  });
});
