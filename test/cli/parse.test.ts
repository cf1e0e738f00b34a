/**
 * `eventor-bot parse` over the other IOF XML 3.0 documents a club meets: EntryList,
 * ClassList, EventList and CourseData are summarised; documents it does not read get one line.
 * Synthetic files are written by the test; the official examples in ../shared/fixtures/iof are
 * read too when that folder exists (skipped, saying so, when it does not).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capture } from '../support/cli-process.js';
import { NEEDS_SHARED_FIXTURES, SHARED_FIXTURES } from '../support/shared-fixtures.js';

const IOF = 'xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0" creator="test"';
const EXAMPLES = path.join(SHARED_FIXTURES, 'iof', 'official', 'examples');
const examplesPresent = existsSync(EXAMPLES);

interface Summary {
  kind: string;
  events: Array<{
    id: string | null;
    name: string | null;
    start: string | null;
    end: string | null;
    races: unknown[];
    classes: number;
  }>;
  classes: number;
  entries: number | null;
  courses: number | null;
  controls: number | null;
  perClass: Array<{ name: string; entries: number | null; legs: number | null; courses: string[] }>;
}

async function parse(file: string, ...flags: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capture();
  const code = await main(['parse', file, ...flags], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function summary(file: string, ...flags: string[]): Promise<{ format: string; root: string; data: Summary }> {
  const { code, out, err } = await parse(file, ...flags);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as { format: string; root: string; data: Summary };
}

describe('parse summarises the other IOF XML 3.0 documents', () => {
  let dir: string;
  const write = async (name: string, xml: string): Promise<string> => {
    const file = path.join(dir, name);
    await writeFile(file, xml);
    return file;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-cli-parse-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('an EntryList: the event with its dates, entries in total and per class (a team once)', async () => {
    const file = await write(
      'entries.xml',
      `<?xml version="1.0" encoding="UTF-8"?>
<EntryList ${IOF}>
  <Event><Id type="Eventor">4711</Id><Name>Vårsprinten</Name>
    <StartTime><Date>2026-05-02</Date><Time>10:00:00+02:00</Time></StartTime>
    <EndTime><Date>2026-05-03</Date><Time>15:00:00+02:00</Time></EndTime>
    <Race><RaceNumber>1</RaceNumber><Name>Dag 1</Name><StartTime><Date>2026-05-02</Date></StartTime></Race>
    <Race><RaceNumber>2</RaceNumber><Name>Dag 2</Name><StartTime><Date>2026-05-03</Date></StartTime></Race>
    <Class><Name>H21</Name></Class><Class><Name>D21</Name></Class><Class><Name>H10</Name></Class>
  </Event>
  <PersonEntry><Person><Name><Family>Ek</Family><Given>Bo</Given></Name></Person><Class><Name>H21</Name></Class></PersonEntry>
  <PersonEntry><Person><Name><Family>Al</Family><Given>Cy</Given></Name></Person><Class><Name>H21</Name></Class></PersonEntry>
  <PersonEntry><Person><Name><Family>Lund</Family><Given>Anna</Given></Name></Person><Class><Name>D21</Name></Class></PersonEntry>
  <TeamEntry><Name>OK Linné 1</Name><TeamEntryPerson><Leg>1</Leg></TeamEntryPerson><TeamEntryPerson><Leg>2</Leg></TeamEntryPerson><Class><Name>Stafett</Name></Class></TeamEntry>
</EntryList>`,
    );
    const parsed = await summary(file);
    expect(parsed.format).toBe('iof-xml-3.0');
    expect(parsed.root).toBe('EntryList');
    expect(parsed.data.events).toEqual([
      {
        id: '4711',
        name: 'Vårsprinten',
        start: '2026-05-02T08:00:00Z',
        end: '2026-05-03T13:00:00Z',
        races: [
          { number: 1, name: 'Dag 1', date: '2026-05-02' },
          { number: 2, name: 'Dag 2', date: '2026-05-03' },
        ],
        classes: 3,
      },
    ]);
    expect(parsed.data.entries).toBe(4);
    expect(parsed.data.classes).toBe(4);
    expect(parsed.data.perClass.map((c) => [c.name, c.entries])).toEqual([
      ['H21', 2],
      ['D21', 1],
      ['H10', 0],
      ['Stafett', 1],
    ]);
  });

  it('a ClassList: per class the number of competitors and the relay legs', async () => {
    const file = await write(
      'classes.xml',
      `<ClassList ${IOF}>
  <Class numberOfCompetitors="35"><Id>1</Id><Name>Men Open</Name><Leg/><Leg maxNumberOfCompetitors="3"/><Leg/></Class>
  <Class><Id>2</Id><Name>H21</Name></Class>
</ClassList>`,
    );
    const parsed = await summary(file);
    expect(parsed.root).toBe('ClassList');
    expect(parsed.data.classes).toBe(2);
    expect(parsed.data.events).toEqual([]);
    expect(parsed.data.perClass).toEqual([
      { name: 'Men Open', entries: 35, legs: 3, courses: [] },
      { name: 'H21', entries: null, legs: null, courses: [] },
    ]);
  });

  it('an EventList: each event with its dates and classes; a time without offset in the given zone', async () => {
    const file = await write(
      'events.xml',
      `<EventList ${IOF}>
  <Event><Name>Nattcupen</Name><StartTime><Date>2026-11-05</Date><Time>18:30:00</Time></StartTime><Class><Name>Öppen</Name></Class></Event>
  <Event><Name>Höstsprinten</Name><StartTime><Date>2026-12-05</Date></StartTime></Event>
</EventList>`,
    );
    const parsed = await summary(file, '--time-zone', 'Europe/Stockholm');
    expect(parsed.root).toBe('EventList');
    expect(parsed.data.events.map((e) => [e.name, e.start, e.classes])).toEqual([
      ['Nattcupen', '2026-11-05T17:30:00Z', 1],
      ['Höstsprinten', '2026-12-05', 0],
    ]);
    expect(parsed.data.classes).toBe(1);
    // Classes of several events are not one list.
    expect(parsed.data.perClass).toEqual([]);
  });

  it('a CourseData: courses and controls over every race, the courses of each class', async () => {
    const file = await write(
      'courses.xml',
      `<CourseData ${IOF}>
  <Event><Name>Vårsprinten</Name><StartTime><Date>2026-05-02</Date></StartTime></Event>
  <RaceCourseData>
    <Control><Id>S</Id></Control><Control><Id>31</Id></Control><Control><Id>32</Id></Control><Control><Id>F</Id></Control>
    <Course><Name>A</Name><Length>4200</Length><CourseControl type="Start"><Control>S</Control></CourseControl></Course>
    <Course><Name>B</Name></Course>
    <ClassCourseAssignment><ClassName>H21</ClassName><CourseName>A</CourseName></ClassCourseAssignment>
    <ClassCourseAssignment><ClassName>H21</ClassName><CourseName>B</CourseName></ClassCourseAssignment>
    <ClassCourseAssignment><ClassName>D21</ClassName><CourseName>B</CourseName></ClassCourseAssignment>
  </RaceCourseData>
  <RaceCourseData>
    <Control><Id>S2</Id></Control>
    <Course><Name>C</Name></Course>
  </RaceCourseData>
</CourseData>`,
    );
    const parsed = await summary(file);
    expect(parsed.root).toBe('CourseData');
    expect(parsed.data.events.map((e) => [e.name, e.start])).toEqual([['Vårsprinten', '2026-05-02']]);
    expect(parsed.data.courses).toBe(3);
    expect(parsed.data.controls).toBe(5);
    expect(parsed.data.perClass.map((c) => [c.name, c.courses])).toEqual([
      ['H21', ['A', 'B']],
      ['D21', ['B']],
    ]);
  });

  it('an IOF document it does not read gets one line naming it and what parse reads, exit 1', async () => {
    const file = await write(
      'organisations.xml',
      `<OrganisationList ${IOF}><Organisation><Name>OK Linné</Name></Organisation></OrganisationList>`,
    );
    const { code, out, err } = await parse(file);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toContain('IOF XML 3.0 OrganisationList is not read');
    expect(err).toContain('EntryList, ClassList, EventList, CourseData (a summary)');
  });

  it.skipIf(!examplesPresent)(
    `reads the official IOF examples of each summarised kind ${NEEDS_SHARED_FIXTURES}`,
    async () => {
      const entries = await summary(path.join(EXAMPLES, 'EntryList1.xml'));
      expect(entries.data.entries).toBe(3);
      expect(entries.data.perClass.map((c) => [c.name, c.entries])).toEqual([
        ['Men Elite', 2],
        ['Open', 1],
      ]);
      expect(entries.data.events[0]).toMatchObject({ name: 'Example event', start: '2011-07-31T09:00:00Z' });
      const relayEntries = await summary(path.join(EXAMPLES, 'EntryList2.xml'));
      expect(relayEntries.data.entries).toBe(2);
      expect(relayEntries.data.perClass).toEqual([{ name: 'Open', entries: 2, legs: 3, courses: [] }]);
      const classes = await summary(path.join(EXAMPLES, 'ClassList.xml'));
      expect(classes.data.perClass.map((c) => [c.name, c.entries, c.legs])).toEqual([
        ['Men Open', 35, 3],
        ['Women Open', 38, 3],
      ]);
      const events = await summary(path.join(EXAMPLES, 'Event_name_and_start_time.xml'));
      expect(events.root).toBe('EventList');
      expect(events.data.events.map((e) => [e.name, e.start])).toEqual([['Example event', '2011-07-31T08:00:00Z']]);
      const courses = await summary(path.join(EXAMPLES, 'CourseData_Individual_Step2.xml'));
      expect([courses.data.courses, courses.data.controls]).toEqual([2, 8]);
      expect(courses.data.perClass.map((c) => [c.name, c.courses])).toEqual([
        ['Men Open', ['A', 'B']],
        ['Women Open', ['A', 'B']],
      ]);
      const other = await parse(path.join(EXAMPLES, 'CompetitorList.xml'));
      expect(other.code).toBe(1);
      expect(other.err).toContain('IOF XML 3.0 CompetitorList is not read');
    },
  );
});
