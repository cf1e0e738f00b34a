/** Unit tests of the IOF XML 3.0 reader on small synthetic documents. */
import { describe, expect, it } from 'vitest';
import { InvalidResponse, ValidationError } from '../../src/eventor/errors.js';
import {
  decodeXmlBytes,
  detectIofDocument,
  parseIofDocument,
  parseIofResultList,
  parseIofStartList,
} from '../../src/eventor/iof/index.js';
import { ResultList as ResultListSchema } from '../../src/eventor/model.js';

const NS = 'http://www.orienteering.org/datastandard/3.0';

function resultList(body: string, rootAttrs = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ResultList xmlns="${NS}" iofVersion="3.0"${rootAttrs}>
  <Event><Name>Test</Name><StartTime><Date>2024-06-01</Date></StartTime></Event>
  ${body}
</ResultList>`;
}

function person(result: string, extra = ''): string {
  return `<ClassResult><Class><Name>H21</Name></Class>
    <PersonResult><Person><Name><Family>Family</Family><Given>Given</Given></Name></Person>${extra}
      <Result>${result}</Result></PersonResult></ClassResult>`;
}

function firstResult(xml: string, timeZone?: string) {
  const list = parseIofResultList(xml, timeZone === undefined ? {} : { timeZone });
  return list.classes[0]!.persons[0]!.results[0]!;
}

function error(fn: () => unknown): InvalidResponse {
  try {
    fn();
  } catch (e) {
    if (e instanceof InvalidResponse) return e;
    throw e;
  }
  throw new Error('expected an InvalidResponse');
}

describe('decodeXmlBytes', () => {
  const latin = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

  it('decodes windows-1252, including 0x80-0x9F', () => {
    const bytes = latin('<?xml version="1.0" encoding="windows-1252"?><a>\u00e5\u00e4\u00f6 \x80</a>');
    expect(decodeXmlBytes(bytes)).toBe('<?xml version="1.0" encoding="windows-1252"?><a>\u00e5\u00e4\u00f6 \u20ac</a>');
  });

  it('decodes ISO-8859-1 declared with single quotes', () => {
    const bytes = latin("<?xml version='1.0' encoding='ISO-8859-1'?><a>\u00f8</a>");
    expect(decodeXmlBytes(bytes)).toContain('<a>\u00f8</a>');
  });

  it('defaults to UTF-8 without a declaration or without encoding', () => {
    const utf8 = new TextEncoder().encode('<a>\u00f8\u00e5</a>');
    expect(decodeXmlBytes(utf8)).toBe('<a>\u00f8\u00e5</a>');
    const noEncoding = new TextEncoder().encode('<?xml version="1.0"?><a>\u00e4</a>');
    expect(decodeXmlBytes(noEncoding)).toBe('<?xml version="1.0"?><a>\u00e4</a>');
  });

  it('strips a UTF-8 BOM and honours it over the declaration', () => {
    const body = new TextEncoder().encode('<?xml version="1.0" encoding="windows-1252"?><a>\u00f6</a>');
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...body]);
    expect(decodeXmlBytes(bytes)).toBe('<?xml version="1.0" encoding="windows-1252"?><a>\u00f6</a>');
  });

  it('decodes UTF-16 LE and BE with a BOM', () => {
    const text = '<?xml version="1.0" encoding="UTF-16"?><a>\u00f6\u20ac</a>';
    const le = new Uint8Array(2 + text.length * 2);
    const be = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    be.set([0xfe, 0xff]);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      le[2 + i * 2] = c & 0xff;
      le[3 + i * 2] = c >> 8;
      be[2 + i * 2] = c >> 8;
      be[3 + i * 2] = c & 0xff;
    }
    expect(decodeXmlBytes(le)).toBe(text);
    expect(decodeXmlBytes(be)).toBe(text);
  });

  it('accepts common non-standard spellings of Latin-1', () => {
    expect(decodeXmlBytes(latin('<?xml version="1.0" encoding="Latin-1"?><a>\u00e9</a>'))).toContain('<a>\u00e9</a>');
  });

  it('recognises UTF-16 LE without a BOM from the declaration bytes', () => {
    const text = '<?xml version="1.0" encoding="UTF-16"?><a>\u00f6</a>';
    const le = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) le[i * 2] = text.charCodeAt(i);
    expect(decodeXmlBytes(le)).toBe(text);
  });

  it('rejects an encoding the runtime does not know', () => {
    const bytes = latin('<?xml version="1.0" encoding="x-no-such-thing"?><a/>');
    expect(() => decodeXmlBytes(bytes)).toThrow(InvalidResponse);
  });

  it('parses a windows-1252 document end to end', () => {
    const xml = `<?xml version="1.0" encoding="windows-1252"?>${resultList(person('<Status>OK</Status>'))
      .replace(/^<\?xml[^>]*>/, '')
      .replace('>Family<', '>Ex\u00e4mpel \x8a<')}`;
    const list = parseIofResultList(latin(xml));
    expect(list.classes[0]!.persons[0]!.person!.name.family).toBe('Ex\u00e4mpel \u0160');
  });
});

describe('detectIofDocument', () => {
  it('recognises IOF 3.0 by namespace, whatever the prefix', () => {
    expect(detectIofDocument(`<iof:StartList xmlns:iof="${NS}" iofVersion="3.0"/>`)).toMatchObject({
      version: '3.0',
      root: 'StartList',
      namespace: NS,
    });
    expect(
      detectIofDocument(
        `\uFEFF<?xml version="1.0"?>\n<!-- c -->\n<ResultList xmlns="${NS}" iofVersion="3.0" creator="X">`,
      ),
    ).toMatchObject({ version: '3.0', root: 'ResultList', creator: 'X' });
  });

  it('recognises IOF 2.0.3 by DOCTYPE or IOFVersion', () => {
    expect(
      detectIofDocument(
        '<?xml version="1.0"?><!DOCTYPE ResultList SYSTEM "IOFdata.dtd"><ResultList status="complete"></ResultList>',
      ),
    ).toMatchObject({ version: '2.0.3', root: 'ResultList' });
    expect(detectIofDocument('<StartList><IOFVersion version="2.0.3"/></StartList>')).toMatchObject({
      version: '2.0.3',
      iofVersion: '2.0.3',
      root: 'StartList',
    });
  });

  it('says neither for other XML and for non-XML', () => {
    expect(detectIofDocument('<ResultList><Event/></ResultList>')).toMatchObject({ version: null, root: 'ResultList' });
    expect(detectIofDocument('<html><body>Maintenance</body></html>')).toMatchObject({
      version: null,
      root: 'other',
      rootName: 'html',
    });
    expect(detectIofDocument('not xml')).toMatchObject({ version: null, rootName: null });
    expect(detectIofDocument(`<EventList xmlns="${NS}" iofVersion="3.0"/>`)).toMatchObject({
      version: '3.0',
      root: 'other',
      rootName: 'EventList',
    });
  });
});

describe('parseIofDocument: routing and errors', () => {
  it('rejects IOF 2.0.3 clearly', () => {
    const e = error(() =>
      parseIofDocument(
        '<!DOCTYPE ResultList SYSTEM "IOFdata.dtd"><ResultList><IOFVersion version="2.0.3"/></ResultList>',
      ),
    );
    expect(e.problem).toMatch(/IOF XML 2\.0\.3 is not supported.*export IOF XML 3\.0/);
  });

  it('rejects other IOF messages and non-IOF XML', () => {
    expect(error(() => parseIofDocument(`<ClassList xmlns="${NS}" iofVersion="3.0"/>`)).problem).toMatch(
      /ClassList is not supported/,
    );
    expect(error(() => parseIofDocument('<ResultListList/>')).problem).toMatch(/not IOF XML 3\.0/);
    expect(error(() => parseIofDocument('')).problem).toMatch(/not an XML document/);
  });

  it('rejects a start list where a result list is expected and vice versa', () => {
    const start = `<StartList xmlns="${NS}" iofVersion="3.0"><Event><Name>E</Name></Event></StartList>`;
    expect(() => parseIofResultList(start)).toThrow(/expected an IOF XML 3\.0 ResultList/);
    expect(() => parseIofStartList(resultList(''))).toThrow(/expected an IOF XML 3\.0 StartList/);
    expect(parseIofDocument(start).kind).toBe('StartList');
  });

  it('reports malformed XML with a line', () => {
    const e = error(() => parseIofResultList(`<ResultList xmlns="${NS}" iofVersion="3.0">\n<Event>\n</ResultList>`));
    expect(e.problem).toMatch(/malformed XML/);
    expect(e.path).toBe('line 3');
    expect(() => parseIofResultList(`<ResultList xmlns="${NS}" iofVersion="3.0"><Event>`)).toThrow(
      /unexpected end of document/,
    );
  });

  it('rejects an unknown time zone as a caller error', () => {
    expect(() => parseIofResultList(resultList(''), { timeZone: 'Mars/Olympus' })).toThrow(ValidationError);
  });
});

describe('namespaces and order', () => {
  it('matches by namespace, not prefix, and ignores extension elements', () => {
    const xml = `<x:ResultList xmlns:x="${NS}" xmlns:eventor="http://eventor.orientering.se/iofxmlextensions" xmlns:other="urn:other" iofVersion="3.0">
      <x:Event><x:Name>E</x:Name></x:Event>
      <x:ClassResult><x:Class><x:Name>D21</x:Name></x:Class>
        <x:PersonResult><x:Person><x:Name><x:Family>F</x:Family><x:Given>G</x:Given></x:Name></x:Person>
          <x:Result>
            <other:Status>Disqualified</other:Status>
            <x:Time>100</x:Time><x:Status>OK</x:Status>
            <x:Extensions><eventor:Time>999</eventor:Time><other:Status>DidNotStart</other:Status></x:Extensions>
          </x:Result>
        </x:PersonResult>
      </x:ClassResult>
      <x:Extensions><eventor:Anything>1</eventor:Anything></x:Extensions>
    </x:ResultList>`;
    const r = firstResult(xml);
    expect(r.status).toBe('OK');
    expect(r.time).toBe(100);
  });

  it('does not take elements of a foreign default namespace', () => {
    const xml = resultList(person('<Status>OK</Status><Time xmlns="urn:other">5</Time>'));
    expect(firstResult(xml).time).toBeNull();
  });

  it('does not depend on element order', () => {
    const xml =
      resultList(`<ClassResult><PersonResult><Result><Status>OK</Status><Time>12</Time><StartTime>2024-06-01T10:00:00Z</StartTime></Result>
      <Person><Name><Given>G</Given><Family>F</Family></Name><Id>7</Id></Person></PersonResult><Class><Name>X</Name></Class></ClassResult>`);
    const list = parseIofResultList(xml);
    expect(list.classes[0]!.class.name).toBe('X');
    expect(list.classes[0]!.persons[0]!.person).toMatchObject({ id: '7', name: { family: 'F', given: 'G' } });
    expect(list.classes[0]!.persons[0]!.results[0]).toMatchObject({ time: 12, startTime: '2024-06-01T10:00:00Z' });
  });

  it("reads blocks before a misplaced Event with that event's date, in document order", () => {
    const block = (
      name: string,
    ) => `<ClassResult><Class><Name>${name}</Name></Class><PersonResult><Person><Name><Family>F</Family><Given>G</Given></Name></Person>
      <Result><StartTime>10:05:00</StartTime><Status>OK</Status></Result></PersonResult></ClassResult>`;
    const xml = `<ResultList xmlns="${NS}" iofVersion="3.0">${block('A')}${block('B')}<Event><Name>Late</Name><StartTime><Date>2024-07-01</Date></StartTime></Event>${block('C')}<ClassResult/></ResultList>`;
    const list = parseIofResultList(xml);
    expect(list.event.name).toBe('Late');
    expect(list.classes.map((c) => c.class.name)).toEqual(['A', 'B', 'C', '']);
    expect(list.classes.slice(0, 3).map((c) => c.persons[0]!.results[0]!.startTime)).toEqual([
      '2024-07-01T10:05:00',
      '2024-07-01T10:05:00',
      '2024-07-01T10:05:00',
    ]);
  });

  it('decodes entities and CDATA', () => {
    const xml = resultList(
      `<ClassResult><Class><Name>A &amp; B &#x263A; &#65;<![CDATA[ <x> ]]></Name></Class></ClassResult>`,
    );
    expect(parseIofResultList(xml).classes[0]!.class.name).toBe('A & B \u263A A <x>');
  });
});

describe('durations', () => {
  it('reads xs:double seconds', () => {
    expect(firstResult(resultList(person('<Time>2001</Time><Status>OK</Status>'))).time).toBe(2001);
    expect(firstResult(resultList(person('<Time>258.7</Time><Status>OK</Status>'))).time).toBe(258.7);
    expect(firstResult(resultList(person('<Time>968.0</Time><Status>OK</Status>'))).time).toBe(968);
    expect(firstResult(resultList(person('<Time>1E3</Time><Status>OK</Status>'))).time).toBe(1000);
  });

  it('reads empty Time and Position as null', () => {
    const r = firstResult(resultList(person('<Time/><Position></Position><Status>OK</Status>')));
    expect(r.time).toBeNull();
    expect(r.position).toBeNull();
  });

  it.each(['978,3', 'NaN', 'INF', '-INF', '12:30', 'abc'])('rejects %s naming the path', (bad) => {
    const e = error(() => parseIofResultList(resultList(person(`<Time>${bad}</Time><Status>OK</Status>`))));
    expect(e.path).toBe('ResultList/ClassResult[1]/PersonResult[1]/Result[1]/Time');
  });

  it('names the split in the path', () => {
    const e = error(() =>
      parseIofResultList(
        resultList(
          person(
            '<Status>OK</Status><SplitTime><ControlCode>31</ControlCode><Time>1</Time></SplitTime><SplitTime><ControlCode>32</ControlCode><Time>x</Time></SplitTime>',
          ),
        ),
      ),
    );
    expect(e.path).toBe('ResultList/ClassResult[1]/PersonResult[1]/Result[1]/SplitTime[2]/Time');
  });

  it('rejects a non-integer position', () => {
    expect(() => parseIofResultList(resultList(person('<Position>1.5</Position><Status>OK</Status>')))).toThrow(
      /not an integer/,
    );
  });
});

describe('absolute times', () => {
  const at = (t: string, timeZone?: string) =>
    firstResult(resultList(person(`<StartTime>${t}</StartTime><Status>OK</Status>`)), timeZone).startTime;

  it('converts offsets and Z to UTC instants', () => {
    expect(at('2011-07-30T10:00:00+01:00')).toBe('2011-07-30T09:00:00Z');
    expect(at('2011-07-30T10:00:00-06:00')).toBe('2011-07-30T16:00:00Z');
    expect(at('2011-07-30T00:30:00+02:00')).toBe('2011-07-29T22:30:00Z');
    expect(at('2017-08-27T10:10:02Z')).toBe('2017-08-27T10:10:02Z');
  });

  it('keeps non-zero fractions and drops zero ones', () => {
    expect(at('2011-07-30T10:00:00.9-06:00')).toBe('2011-07-30T16:00:00.9Z');
    expect(at('2015-03-02T12:18:00.000')).toBe('2015-03-02T12:18:00');
    expect(at('2015-03-02T12:18:35.800')).toBe('2015-03-02T12:18:35.8');
  });

  it('keeps times without offset as wall-clock text, or converts them with a zone', () => {
    expect(at('2015-03-02T12:18:00')).toBe('2015-03-02T12:18:00');
    expect(at('2015-03-02T12:18:00', 'Europe/Stockholm')).toBe('2015-03-02T11:18:00Z');
    expect(at('2015-07-02T12:18:00', 'Europe/Stockholm')).toBe('2015-07-02T10:18:00Z');
    expect(at('2015-07-02T12:18:00Z', 'Europe/Stockholm')).toBe('2015-07-02T12:18:00Z');
  });

  it('reads a dateTime without seconds', () => {
    expect(at('2014-01-18T11:34')).toBe('2014-01-18T11:34:00');
  });

  it('combines a bare time of day with the race or event date', () => {
    expect(at('10:05:00')).toBe('2024-06-01T10:05:00');
    expect(at('10:05:00+02:00')).toBe('2024-06-01T08:05:00Z');
    const noDate = `<ResultList xmlns="${NS}" iofVersion="3.0"><Event><Name>E</Name></Event>${person('<StartTime>10:05:00</StartTime><Status>OK</Status>')}</ResultList>`;
    expect(firstResult(noDate).startTime).toBeNull();
  });

  it('reads an unreadable time as null rather than losing the list', () => {
    expect(at('2019-06-12T')).toBeNull();
    expect(at('2014-13-07T11:30:00')).toBeNull();
  });
});

describe('statuses', () => {
  const ALL = [
    'OK',
    'Finished',
    'MissingPunch',
    'Disqualified',
    'DidNotFinish',
    'Active',
    'Inactive',
    'OverTime',
    'SportingWithdrawal',
    'NotCompeting',
    'Moved',
    'MovedUp',
    'DidNotStart',
    'DidNotEnter',
    'Cancelled',
  ] as const;

  it.each(ALL)('reads %s', (status) => {
    expect(firstResult(resultList(person(`<Status>${status}</Status>`))).status).toBe(status);
  });

  it('rejects a missing or unknown Status naming the path', () => {
    const missing = error(() => parseIofResultList(resultList(person('<Time>1</Time>'))));
    expect(missing.problem).toMatch(/missing result Status/);
    expect(missing.path).toBe('ResultList/ClassResult[1]/PersonResult[1]/Result[1]/Status');
    expect(() => parseIofResultList(resultList(person('<Status>Winner</Status>')))).toThrow(
      /unknown result status 'Winner'/,
    );
    const overall = error(() =>
      parseIofResultList(resultList(person('<Status>OK</Status><OverallResult><Time>1</Time></OverallResult>'))),
    );
    expect(overall.path).toBe('ResultList/ClassResult[1]/PersonResult[1]/Result[1]/OverallResult/Status');
  });

  it('maps the list status', () => {
    expect(parseIofResultList(resultList('')).status).toBe('complete');
    expect(parseIofResultList(resultList('', ' status="Snapshot"')).status).toBe('snapshot');
    expect(parseIofResultList(resultList('', ' status="Delta"')).status).toBe('delta');
    expect(parseIofResultList(resultList('', ' status="Complete"')).status).toBe('complete');
    expect(() => parseIofResultList(resultList('', ' status="Partial"'))).toThrow(/unknown ResultList status/);
  });
});

describe('persons, organisations, classes', () => {
  it('prefers the Eventor person id, else the first', () => {
    const xml = resultList(`<ClassResult><Class><Id>3</Id><Name>H21</Name><ShortName>H</ShortName></Class>
      <PersonResult><Person sex="M"><Id type="CZE">A1</Id><Id type="Eventor">42</Id><Name><Family>F</Family><Given>G</Given></Name><BirthDate>1990-05-06</BirthDate><Nationality code="SWE">Sweden</Nationality></Person>
        <Organisation><Id>9</Id><Name>Club</Name><ShortName>CL</ShortName><Country code="NOR">Norway</Country></Organisation>
        <Result><Status>OK</Status><ControlCard punchingSystem="SI">123456</ControlCard><ControlCard punchingSystem="Emit">77</ControlCard></Result></PersonResult>
      <PersonResult><Person><Id type="CZE">B2</Id><Id type="QuickEvent">99</Id><Name><Family>F2</Family><Given>G2</Given></Name></Person><Result><Status>OK</Status></Result></PersonResult>
    </ClassResult>`);
    const cls = parseIofResultList(xml).classes[0]!;
    expect(cls.class).toEqual({ id: '3', name: 'H21', shortName: 'H', resultListMode: 'Default' });
    expect(cls.persons[0]!.person).toEqual({
      id: '42',
      name: { family: 'F', given: 'G' },
      sex: 'M',
      birthDate: '1990-05-06',
      countryCode: 'SWE',
    });
    expect(cls.persons[0]!.organisation).toEqual({ id: '9', name: 'Club', shortName: 'CL', countryCode: 'NOR' });
    expect(cls.persons[0]!.results[0]!.cards).toEqual([
      { number: '123456', type: 'SI' },
      { number: '77', type: 'Emit' },
    ]);
    expect(cls.persons[1]!.person!.id).toBe('B2');
  });

  it('reads resultListMode and numberOfCompetitors', () => {
    const xml = resultList(
      '<ClassResult><Class resultListMode="UnorderedNoTimes" numberOfCompetitors="12"><Name>U10</Name></Class></ClassResult>',
    );
    const cls = parseIofResultList(xml).classes[0]!;
    expect(cls.class.resultListMode).toBe('UnorderedNoTimes');
    expect(cls.numberOfEntries).toBe(12);
  });

  it('reads an organisation with only a ShortName', () => {
    const xml = resultList(person('<Status>OK</Status>', '<Organisation><ShortName>ABC</ShortName></Organisation>'));
    expect(parseIofResultList(xml).classes[0]!.persons[0]!.organisation).toEqual({
      id: null,
      name: null,
      shortName: 'ABC',
      countryCode: null,
    });
  });

  it('reads the Event id and name, and Eventor race ids from the extensions', () => {
    const xml = `<ResultList xmlns="${NS}" xmlns:eventor="http://eventor.orientering.se/iofxmlextensions" iofVersion="3.0" creator="Eventor">
      <Event><Id type="Eventor">100</Id><Name>Cup</Name>
        <Race><RaceNumber>1</RaceNumber><Name>Day 1</Name><Extensions><eventor:EventRaceId type="Eventor">501</eventor:EventRaceId></Extensions></Race>
        <Race><RaceNumber>2</RaceNumber><Name>Day 2</Name><Extensions><eventor:EventRaceId type="Eventor">502</eventor:EventRaceId></Extensions></Race>
      </Event>
      ${person('<Status>OK</Status>').replace('<Result>', '<Result raceNumber="2">')}
    </ResultList>`;
    const list = parseIofResultList(xml);
    expect(list.event).toEqual({ id: '100', name: 'Cup', event: null });
    expect(list.classes[0]!.persons[0]!.results[0]).toMatchObject({ raceNumber: 2, raceId: '502' });
  });
});

describe('splits, courses, multi-race', () => {
  it('reads split statuses and keeps control codes as strings', () => {
    const r = firstResult(
      resultList(
        person(`<Time>400</Time><Status>MissingPunch</Status>
      <SplitTime><ControlCode>031</ControlCode><Time>100</Time></SplitTime>
      <SplitTime status="Missing"><ControlCode>32</ControlCode></SplitTime>
      <SplitTime status="Additional"><ControlCode>99</ControlCode><Time>150</Time></SplitTime>
      <SplitTime><ControlCode>33</ControlCode></SplitTime>`),
      ),
    );
    expect(r.splits).toEqual([
      { controlCode: '031', time: 100, status: 'OK' },
      { controlCode: '32', time: null, status: 'Missing' },
      { controlCode: '99', time: 150, status: 'Additional' },
      { controlCode: '33', time: null, status: 'OK' },
    ]);
  });

  it('reads one Result per race with OverallResult, and class courses in race order', () => {
    const xml = resultList(`<ClassResult><Class><Name>H21</Name></Class>
      <Course raceNumber="2"><Name>Long</Name><Length>8600</Length><Climb>280</Climb><NumberOfControls>20</NumberOfControls></Course>
      <Course raceNumber="1"><Name>Middle</Name><Length>4650</Length></Course>
      <PersonResult><Person><Name><Family>F</Family><Given>G</Given></Name></Person>
        <Result raceNumber="1"><Time>2001</Time><Position>1</Position><Status>OK</Status><OverallResult><Time>2001</Time><Position>1</Position><Status>OK</Status></OverallResult><Course><Name>M1</Name></Course></Result>
        <Result raceNumber="2"><Status>DidNotStart</Status><OverallResult><Status>DidNotFinish</Status></OverallResult></Result>
      </PersonResult></ClassResult>`);
    const cls = parseIofResultList(xml).classes[0]!;
    expect(cls.courses).toEqual([
      { name: 'Middle', length: 4650, climb: null, controls: null },
      { name: 'Long', length: 8600, climb: 280, controls: 20 },
    ]);
    const [r1, r2] = cls.persons[0]!.results;
    expect(r1).toMatchObject({
      raceNumber: 1,
      time: 2001,
      overall: { time: 2001, timeBehind: null, position: 1, status: 'OK' },
      course: { name: 'M1', length: null, climb: null, controls: null },
    });
    expect(r2).toMatchObject({ raceNumber: 2, status: 'DidNotStart', overall: { time: null, status: 'DidNotFinish' } });
  });
});

describe('relays', () => {
  const member = (
    leg: number,
    status: string,
    extra = '',
    legOrder = '',
  ) => `<TeamMemberResult><Person><Name><Family>L${leg}${legOrder}</Family><Given>G</Given></Name></Person>
    <Result><Leg>${leg}</Leg>${legOrder ? `<LegOrder>${legOrder}</LegOrder>` : ''}<StartTime>2024-06-01T10:0${leg}:00Z</StartTime><FinishTime>2024-06-01T10:3${leg}:00Z</FinishTime><Time>${leg * 100}</Time>
      <TimeBehind type="Course">7</TimeBehind><TimeBehind type="Leg">${leg}</TimeBehind><Position type="Course">9</Position><Position type="Leg">${leg + 1}</Position>
      <Status>${status}</Status>${extra}</Result></TeamMemberResult>`;

  it('takes team standing from the last leg OverallResult and leg values of type Leg', () => {
    const xml =
      resultList(`<ClassResult><Class><Name>Relay</Name></Class><TeamResult><Name>Team 1</Name><Organisation><Name>Club</Name></Organisation><BibNumber>5</BibNumber>
      ${member(1, 'OK', '<OverallResult><Time>100</Time><Position>2</Position><Status>OK</Status></OverallResult>')}
      ${member(2, 'OK', '<OverallResult><Time>300</Time><TimeBehind>20</TimeBehind><Position>1</Position><Status>OK</Status></OverallResult>')}
    </TeamResult></ClassResult>`);
    const team = parseIofResultList(xml).classes[0]!.teams[0]!;
    expect(team).toMatchObject({
      name: 'Team 1',
      bibNumber: '5',
      time: 300,
      timeBehind: 20,
      position: 1,
      status: 'OK',
      startTime: '2024-06-01T10:01:00Z',
      finishTime: '2024-06-01T10:32:00Z',
    });
    expect(team.organisations).toEqual([{ id: null, name: 'Club', shortName: null, countryCode: null }]);
    expect(team.members[1]).toMatchObject({
      leg: 2,
      legOrder: null,
      result: { time: 200, timeBehind: 2, position: 3 },
    });
  });

  it('derives the team status from members when no OverallResult is written', () => {
    const bad = resultList(
      `<ClassResult><Class><Name>R</Name></Class><TeamResult><Name>T</Name>${member(1, 'OK')}${member(2, 'MissingPunch')}${member(3, 'DidNotStart')}</TeamResult></ClassResult>`,
    );
    expect(parseIofResultList(bad).classes[0]!.teams[0]).toMatchObject({
      status: 'MissingPunch',
      time: null,
      position: null,
    });
    const ok = resultList(
      `<ClassResult><Class><Name>R</Name></Class><TeamResult><Name>T</Name>${member(1, 'OK')}${member(2, 'OK')}</TeamResult></ClassResult>`,
    );
    expect(parseIofResultList(ok).classes[0]!.teams[0]).toMatchObject({ status: 'OK', time: 300, position: null });
  });

  it('merges a class spread over one ClassResult per leg (OS2010)', () => {
    const block = (leg: number, overall: string) => `<ClassResult><Class><Id>7</Id><Name>Men</Name></Class>
      <TeamResult><Name>A</Name><BibNumber>1</BibNumber>${member(leg, 'OK', overall)}</TeamResult>
      <TeamResult><Name>B</Name><BibNumber>2</BibNumber>${member(leg, 'OK')}</TeamResult></ClassResult>`;
    const xml = resultList(
      block(2, '<OverallResult><Time>300</Time><Position>1</Position><Status>OK</Status></OverallResult>') +
        block(1, '<OverallResult><Time>100</Time><Position>1</Position><Status>OK</Status></OverallResult>'),
    );
    const list = parseIofResultList(xml);
    expect(list.classes).toHaveLength(1);
    const [a, b] = list.classes[0]!.teams;
    expect(a!.members.map((m) => m.leg)).toEqual([1, 2]);
    expect(a).toMatchObject({ name: 'A', time: 300, position: 1, status: 'OK' });
    expect(b!.members.map((m) => m.leg)).toEqual([1, 2]);
    ResultListSchema.parse(list);
  });

  it('handles unmanned legs and empty members', () => {
    const xml = resultList(`<ClassResult><Class><Name>R</Name></Class><TeamResult><Name>T</Name>${member(1, 'OK')}
      <TeamMemberResult><Result><Leg>2</Leg><Status>DidNotStart</Status></Result></TeamMemberResult>
      <TeamMemberResult></TeamMemberResult></TeamResult></ClassResult>`);
    const team = parseIofResultList(xml).classes[0]!.teams[0]!;
    expect(team.members).toHaveLength(2);
    expect(team.members[1]!.person).toBeNull();
    expect(team.status).toBe('DidNotStart');
  });
});

describe('start lists', () => {
  it('reads individual, vacant, multi-race and relay starts', () => {
    const xml = `<StartList xmlns="${NS}" iofVersion="3.0"><Event><Name>E</Name></Event>
      <ClassStart><Class><Name>H21</Name></Class><Course><Length>5000</Length></Course>
        <PersonStart><Person><Id>1</Id><Name><Family>F</Family><Given>G</Given></Name></Person><Organisation><Name>C</Name></Organisation>
          <Start raceNumber="1"><BibNumber>10</BibNumber><StartTime>2024-06-01T10:00:00+02:00</StartTime><ControlCard punchingSystem="SI">5</ControlCard></Start>
          <Start raceNumber="2"><StartTime>2024-06-02T09:00:00+02:00</StartTime><Course><Length>7000</Length></Course></Start></PersonStart>
        <PersonStart><Start><StartTime>2024-06-01T10:02:00+02:00</StartTime></Start></PersonStart>
      </ClassStart>
      <ClassStart><Class><Name>Relay</Name></Class>
        <TeamStart><Name>T</Name><BibNumber>3</BibNumber>
          <TeamMemberStart><Person><Name><Family>A</Family><Given>B</Given></Name></Person><Start><Leg>1</Leg><StartTime>2024-06-01T12:00:00Z</StartTime></Start></TeamMemberStart>
          <TeamMemberStart><Start><Leg>2</Leg></Start></TeamMemberStart>
        </TeamStart></ClassStart></StartList>`;
    const list = parseIofStartList(xml);
    const [p1, vacant] = list.classes[0]!.persons;
    expect(list.classes[0]!.courses[0]!.length).toBe(5000);
    expect(p1!.starts).toEqual([
      {
        raceId: null,
        raceNumber: 1,
        startTime: '2024-06-01T08:00:00Z',
        bibNumber: '10',
        cards: [{ number: '5', type: 'SI' }],
        course: null,
      },
      {
        raceId: null,
        raceNumber: 2,
        startTime: '2024-06-02T07:00:00Z',
        bibNumber: null,
        cards: [],
        course: { name: null, length: 7000, climb: null, controls: null },
      },
    ]);
    expect(vacant!.person).toBeNull();
    const team = list.classes[1]!.teams[0]!;
    expect(team).toMatchObject({ name: 'T', bibNumber: '3', startTime: '2024-06-01T12:00:00Z' });
    expect(team.members.map((m) => [m.leg, m.person === null])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});

describe('performance', () => {
  it('reads a 20,000-runner result list with splits in linear time', () => {
    const splits = Array.from(
      { length: 20 },
      (_, i) => `<SplitTime><ControlCode>${31 + i}</ControlCode><Time>${(i + 1) * 60}</Time></SplitTime>`,
    ).join('');
    const runner = (
      i: number,
    ) => `<PersonResult><Person><Id>${i}</Id><Name><Family>F${i}</Family><Given>G</Given></Name></Person><Organisation><Id>1</Id><Name>C</Name></Organisation>
      <Result><StartTime>2024-06-01T10:00:00+02:00</StartTime><FinishTime>2024-06-01T10:30:00+02:00</FinishTime><Time>1800</Time><TimeBehind>0</TimeBehind><Position>1</Position><Status>OK</Status>${splits}</Result></PersonResult>`;
    const build = (n: number) => {
      const parts: string[] = [];
      for (let c = 0; c < n / 500; c++) {
        parts.push(`<ClassResult><Class><Name>C${c}</Name></Class>`);
        for (let i = 0; i < 500; i++) parts.push(runner(c * 500 + i));
        parts.push('</ClassResult>');
      }
      return resultList(parts.join('\n'));
    };
    const small = build(2000);
    const big = build(20000);
    parseIofResultList(small);
    let t = performance.now();
    parseIofResultList(small);
    const tSmall = performance.now() - t;
    t = performance.now();
    const list = parseIofResultList(big);
    const tBig = performance.now() - t;
    expect(list.classes.reduce((n, c) => n + c.persons.length, 0)).toBe(20000);
    expect(list.classes[39]!.persons[499]!.results[0]!.splits).toHaveLength(20);
    // 10x the data: far less than 100x the time (quadratic), with slack for GC noise.
    expect(tBig).toBeLessThan(Math.max(tSmall * 40, 1000));
    expect(tBig).toBeLessThan(15_000);
  });
});
