/**
 * Conformance of the IOF XML 3.0 reader over every file in the shared fixtures
 * (`<repo>/../shared/fixtures/iof`): official examples, real files from timing software in
 * several encodings, edge cases and IOF 2.0.3 files. The fixtures are never copied into the repo;
 * when the folder is absent the suite is skipped and says so.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/eventor/errors.js';
import type { IofDocument } from '../../src/eventor/iof/index.js';
import {
  decodeXmlBytes,
  detectIofDocument,
  parseIofDocument,
  parseIofResultList,
  parseIofStartList,
} from '../../src/eventor/iof/index.js';
import type { RaceResult, ResultList, StartList } from '../../src/eventor/model.js';
import { ResultList as ResultListSchema, StartList as StartListSchema } from '../../src/eventor/model.js';
import { NEEDS_SHARED_FIXTURES, SHARED_FIXTURES, sharedFixtures } from '../support/shared-fixtures.js';

const FIXTURES = join(SHARED_FIXTURES, 'iof');
const present = sharedFixtures('iof') !== null;

function listXml(dir: string, depth = 0): string[] {
  if (depth > 5) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listXml(p, depth + 1));
    else if (name.endsWith('.xml')) out.push(p);
  }
  return out;
}

const bytesOf = (rel: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, rel)));

interface Stats {
  classes: number;
  persons: number;
  teams: number;
  members: number;
  splits: number;
  missing: number;
  additional: number;
  statuses: Record<string, number>;
  withOverall: number;
  startsWithoutTime: number;
  vacant: number;
}

function stats(doc: IofDocument): Stats {
  const s: Stats = {
    classes: doc.list.classes.length,
    persons: 0,
    teams: 0,
    members: 0,
    splits: 0,
    missing: 0,
    additional: 0,
    statuses: {},
    withOverall: 0,
    startsWithoutTime: 0,
    vacant: 0,
  };
  const result = (r: RaceResult): void => {
    s.splits += r.splits.length;
    for (const x of r.splits) {
      if (x.status === 'Missing') s.missing++;
      if (x.status === 'Additional') s.additional++;
    }
    s.statuses[r.status] = (s.statuses[r.status] ?? 0) + 1;
    if (r.overall !== null) s.withOverall++;
  };
  if (doc.kind === 'ResultList') {
    for (const c of doc.list.classes) {
      s.persons += c.persons.length;
      s.teams += c.teams.length;
      for (const p of c.persons) {
        if (p.person === null) s.vacant++;
        p.results.forEach(result);
      }
      for (const t of c.teams) {
        s.members += t.members.length;
        for (const m of t.members) result(m.result);
      }
    }
  } else {
    for (const c of doc.list.classes) {
      s.persons += c.persons.length;
      s.teams += c.teams.length;
      for (const p of c.persons) {
        if (p.person === null) s.vacant++;
        for (const st of p.starts) if (st.startTime === null) s.startsWithoutTime++;
      }
      for (const t of c.teams) s.members += t.members.length;
    }
  }
  return s;
}

function allStrings(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 20) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) allStrings(v, out, depth + 1);
  else if (value !== null && typeof value === 'object')
    for (const v of Object.values(value)) allStrings(v, out, depth + 1);
  return out;
}

function firstResult(list: ResultList): RaceResult {
  const r = list.classes[0]?.persons[0]?.results[0];
  if (!r) throw new Error('no first result');
  return r;
}

function firstStartTime(list: StartList): string | null {
  return list.classes[0]?.persons[0]?.starts[0]?.startTime ?? null;
}

type Expectation =
  { parse: 'ResultList' | 'StartList'; check?: (doc: IofDocument) => void } | { reject: RegExp; path?: RegExp };

const OTHER_MESSAGE = /IOF XML 3\.0 \w+ is not supported; expected a ResultList or a StartList/;

/** Every fixture file has an entry here; a new file fails the suite until it is given one. */
const EXPECT: Record<string, Expectation> = {
  // --- official examples -----------------------------------------------------------------------
  'official/examples/ResultList1.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const s = stats(doc);
      expect(s).toMatchObject({
        classes: 2,
        persons: 3,
        splits: 12,
        missing: 2,
        additional: 2,
        statuses: { OK: 1, MissingPunch: 1, DidNotStart: 1 },
      });
      const list = doc.list as ResultList;
      // 10:00:00+01:00 -> 09:00:00Z
      expect(firstResult(list).startTime).toBe('2011-07-30T09:00:00Z');
      // Butterfly: the course is per result.
      expect(list.classes.flatMap((c) => c.persons).some((p) => p.results[0]?.course !== null)).toBe(true);
    },
  },
  'official/examples/ResultList2.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 1, persons: 0, teams: 3, members: 11, splits: 27, withOverall: 11 });
      const team = (doc.list as ResultList).classes[0]!.teams[0]!;
      // Team standing = OverallResult of the last leg; leg values are the type="Leg" ones.
      const last = team.members[team.members.length - 1]!;
      expect(team.status).toBe(last.result.overall!.status);
      expect(team.time).toBe(last.result.overall!.time);
      expect(team.members[0]!.result).toMatchObject({ time: 1438, timeBehind: 5, position: 2 });
      expect(team.members.filter((m) => m.leg === 2).map((m) => m.legOrder)).toEqual(
        [1, 2, 3].slice(0, team.members.filter((m) => m.leg === 2).length),
      );
    },
  },
  'official/examples/ResultList3.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      expect(stats(doc)).toMatchObject({ classes: 1, persons: 2, splits: 17, withOverall: 3 });
      const p = list.classes[0]!.persons[0]!;
      expect(p.results.map((r) => r.raceNumber)).toEqual([1, 2]);
      expect(p.results[1]!.overall).toEqual({ time: 5001, timeBehind: 0, position: 1, status: 'OK' });
      expect(list.classes[0]!.courses.map((c) => c.length)).toEqual([4650, 8600]);
      // Repeated control codes (butterfly) are kept in order, as strings.
      expect(p.results[0]!.splits.map((s) => s.controlCode)).toEqual(['31', '32', '31', '33', '31']);
    },
  },
  'official/examples/ResultList4.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 1, persons: 2, statuses: { OK: 1, MissingPunch: 1 } });
    },
  },
  'official/examples/StartList1.xml': {
    parse: 'StartList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 2, persons: 3 });
      expect(firstStartTime(doc.list as StartList)).toBe('2011-07-30T09:00:00Z');
    },
  },
  'official/examples/StartList2.xml': {
    parse: 'StartList',
    check: (doc) => expect(stats(doc)).toMatchObject({ classes: 1, teams: 2, members: 8 }),
  },
  'official/examples/StartList3.xml': {
    parse: 'StartList',
    check: (doc) => {
      const list = doc.list as StartList;
      expect(stats(doc)).toMatchObject({ classes: 1, persons: 2 });
      expect(list.classes[0]!.persons[0]!.starts.map((s) => s.raceNumber)).toEqual([1, 2]);
    },
  },
  'official/examples/StartList4.xml': {
    parse: 'StartList',
    check: (doc) => expect(stats(doc)).toMatchObject({ classes: 1, teams: 2, members: 8 }),
  },
  'official/examples/StartList_Individual_Step3.xml': {
    parse: 'StartList',
    check: (doc) => expect(stats(doc)).toMatchObject({ classes: 1, persons: 2 }),
  },
  'official/examples/StartList_Relay_Step3.xml': {
    parse: 'StartList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 1, teams: 2, members: 8 });
      const team = (doc.list as StartList).classes[0]!.teams[0]!;
      expect(team.startTime).toBe(team.members.find((m) => m.leg === 1)!.start.startTime);
    },
  },
  'official/examples/ClassList.xml': { reject: OTHER_MESSAGE },
  'official/examples/ClassList_Individual_Step1.xml': { reject: OTHER_MESSAGE },
  'official/examples/ClassList_Relay_Step1.xml': { reject: OTHER_MESSAGE },
  'official/examples/CompetitorList.xml': { reject: OTHER_MESSAGE },
  'official/examples/CourseData_Individual_Step2.xml': { reject: OTHER_MESSAGE },
  'official/examples/CourseData_Individual_Step4.xml': { reject: OTHER_MESSAGE },
  'official/examples/CourseData_Relay_Step2.xml': { reject: OTHER_MESSAGE },
  'official/examples/CourseData_Relay_Step4.xml': { reject: OTHER_MESSAGE },
  'official/examples/EntryList1.xml': { reject: OTHER_MESSAGE },
  'official/examples/EntryList2.xml': { reject: OTHER_MESSAGE },
  'official/examples/Event_name_and_start_time.xml': { reject: OTHER_MESSAGE },
  'official/examples/OrganisationList.xml': { reject: OTHER_MESSAGE },

  // --- real files --------------------------------------------------------------------------------
  'real/quickevent_results_kam-2025-10-18_splits.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({
        classes: 42,
        persons: 1014,
        splits: 16735,
        missing: 131,
        additional: 0,
        statuses: { OK: 932, MissingPunch: 33, DidNotStart: 49 },
      });
      const list = doc.list as ResultList;
      // +02:00 on the wire -> UTC.
      expect(firstResult(list).startTime).toBe('2025-10-18T08:43:00Z');
      // Two Person Ids (CZE, QuickEvent): the first is taken when none is typed Eventor.
      expect(list.classes[0]!.persons[0]!.person!.id).not.toBeNull();
      // DNS rows carry only StartTime and Status.
      const dns = list.classes
        .flatMap((c) => c.persons)
        .flatMap((p) => p.results)
        .filter((r) => r.status === 'DidNotStart');
      expect(dns.every((r) => r.time === null && r.position === null)).toBe(true);
      // Missing splits have no time.
      expect(
        list.classes
          .flatMap((c) => c.persons)
          .flatMap((p) => p.results)
          .flatMap((r) => r.splits)
          .filter((s) => s.status === 'Missing')
          .every((s) => s.time === null),
      ).toBe(true);
    },
  },
  'real/quickevent_startlist_kam-2025-10-18.xml': {
    parse: 'StartList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 44, persons: 974 });
      expect(firstStartTime(doc.list as StartList)).toBe('2025-10-18T08:41:00Z');
      expect((doc.list as StartList).classes.flatMap((c) => c.persons).some((p) => p.starts[0]!.cards.length > 0)).toBe(
        true,
      );
    },
  },
  'real/meos_startlist_fra-2026-03-21.xml': {
    parse: 'StartList',
    check: (doc) => {
      const s = stats(doc);
      expect(s).toMatchObject({ classes: 41, persons: 807, startsWithoutTime: 37 });
      const firstTimed = (doc.list as StartList).classes
        .flatMap((c) => c.persons)
        .flatMap((p) => p.starts)
        .find((st) => st.startTime !== null);
      expect(firstTimed?.startTime).toBe('2026-03-21T12:30:00Z');
      // `Nationality code=".."` is no country code.
      const codes = (doc.list as StartList).classes.flatMap((c) => c.persons).map((p) => p.person?.countryCode ?? null);
      expect(codes.every((c) => c === null || /^[A-Za-z]{2,3}$/.test(c))).toBe(true);
    },
  },
  'real/sidroid_results_shk-2023-01-22_splits.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 7, persons: 334, splits: 4879, additional: 39, missing: 17 });
      expect(stats(doc).statuses.NotCompeting).toBe(3);
      // No offset on the wire and no zone given: wall-clock text.
      expect(firstResult(doc.list as ResultList).startTime).toBe('2023-01-22T10:35:09');
    },
  },
  'real/sportident-center_results_2024-06-22_splits.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 4, persons: 6, splits: 156 });
    },
  },
  'real/otime_results_2012-06-13_splits_iso-8859-1.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      expect(stats(doc)).toMatchObject({
        classes: 3,
        persons: 94,
        splits: 1197,
        missing: 38,
        statuses: { MissingPunch: 8 },
      });
      expect(firstResult(list).startTime).toBe('2012-06-13T16:11:06Z');
      // ISO-8859-1: `ø` (0xF8) decodes to U+00F8.
      expect(list.event.name).toBe('Rankingl\u00f8p 10-2012');
    },
  },
  'real/helga_results_2017-08-27.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 41, persons: 386, splits: 0, statuses: { NotCompeting: 3 } });
      expect(firstResult(doc.list as ResultList).startTime).toBe('2017-08-27T10:10:02Z');
    },
  },
  'real/helga_startlist_2017-08-27.xml': {
    parse: 'StartList',
    check: (doc) => expect(stats(doc)).toMatchObject({ classes: 41, persons: 414 }),
  },
  'real/helga_results_snapshot_individual_2019-01-24.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect((doc.list as ResultList).status).toBe('snapshot');
      expect(stats(doc)).toMatchObject({ classes: 1, persons: 6, splits: 6 });
    },
  },
  'real/helga_results_snapshot_relay_2019-01-23.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect((doc.list as ResultList).status).toBe('snapshot');
      expect(stats(doc)).toMatchObject({ classes: 1, teams: 3, members: 6, splits: 3 });
    },
  },
  'real/oe2010_speaker-results_2015-03-02_splits_cp1252.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      expect(stats(doc)).toMatchObject({ classes: 5, persons: 191, splits: 357, statuses: { DidNotFinish: 14 } });
      // `.000` milliseconds without offset: wall-clock text, zero fraction dropped.
      expect(firstResult(list).startTime).toBe('2015-03-02T12:18:00');
      // windows-1252: `ö` (0xF6) decodes to U+00F6 in club names.
      const clubs = list.classes.flatMap((c) => c.persons).map((p) => p.organisation?.name ?? '');
      expect(clubs.some((n) => n.includes('\u00f6'))).toBe(true);
      // DNF rows: no place, and their unpunched controls are Missing without a time.
      const dnf = list.classes
        .flatMap((c) => c.persons)
        .flatMap((p) => p.results)
        .filter((r) => r.status === 'DidNotFinish');
      expect(dnf.every((r) => r.position === null)).toBe(true);
      expect(
        dnf
          .flatMap((r) => r.splits)
          .filter((x) => x.status === 'Missing')
          .every((x) => x.time === null),
      ).toBe(true);
    },
  },
  'real/oe2010_speaker-results_tenths_comma-decimal_INVALID_cp1252.xml': {
    reject: /'978,3' is not a number of seconds/,
    path: /^ResultList\/ClassResult\[1\]\/PersonResult\[1\]\/Result\[1\]\/Time$/,
  },
  'real/oe2010_startlist_sowc-2016_cp1252.xml': {
    parse: 'StartList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 2, persons: 90 });
      expect((doc.list as StartList).classes[0]!.persons[0]!.starts[0]!.raceNumber).toBe(1);
    },
  },
  'real/oe2010_startlist_sow2014-e1_large_cp1252.xml': {
    parse: 'StartList',
    check: (doc) => {
      const list = doc.list as StartList;
      expect(stats(doc)).toMatchObject({ classes: 54, persons: 4842 });
      const clubs = list.classes.flatMap((c) => c.persons).map((p) => p.organisation?.name ?? '');
      expect(clubs.some((n) => /[\u00e4\u00f6\u00fc\u00e9\u00e5]/.test(n))).toBe(true);
    },
  },
  'real/os2010_relay-results_wmtboc-2016_splits_cp1252.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      // 9 ClassResult blocks for 5 classes; 48 TeamResult blocks merge into 42 teams.
      expect(stats(doc)).toMatchObject({ classes: 5, teams: 42, members: 48, splits: 174 });
      const m120 = list.classes.find((c) => c.class.name === 'M120')!;
      expect(m120.teams).toHaveLength(2);
      expect(m120.teams[0]!.members.map((m) => m.leg)).toEqual([1, 2, 3]);
      expect(m120.teams[0]!.status).toBe(m120.teams[0]!.members[2]!.result.overall?.status ?? m120.teams[0]!.status);
    },
  },
  'real/os2010_relay-speaker-results_2015-01-25_splits_cp1252.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      expect(stats(doc)).toMatchObject({
        classes: 2,
        teams: 26,
        members: 78,
        splits: 420,
        statuses: { DidNotStart: 2 },
      });
      for (const team of list.classes.flatMap((c) => c.teams)) {
        expect(team.members.map((m) => m.leg)).toEqual([1, 2, 3]);
        expect(team.status).toBe(team.members[2]!.result.overall!.status);
      }
    },
  },
  'real/os2010_relay-results_nuorisoviesti-2016_cp1252.xml': {
    parse: 'ResultList',
    check: (doc) => expect(stats(doc)).toMatchObject({ classes: 1, teams: 2, members: 2, splits: 8 }),
  },
  'real/quickevent-2019_relay-results_INVALID.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      // Empty <TeamMemberResult/> are skipped; team names come from <Organization>.
      expect(stats(doc)).toMatchObject({ classes: 5, teams: 21, members: 17 });
      expect(list.classes.flatMap((c) => c.teams).every((t) => t.name.length > 0)).toBe(true);
    },
  },
  'real/ooresults_results_2023-01-15_splits.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc)).toMatchObject({ classes: 2, persons: 6, splits: 24, missing: 1 });
      expect(firstResult(doc.list as ResultList).startTime).toBe('2023-01-15T09:10:00Z');
    },
  },
  'real/unknown-sw_results_miltonrigg-2014-01-18_splits_INVALID.xml': {
    parse: 'ResultList',
    check: (doc) => {
      // dateTime without seconds, empty <Position/> and <Time/>, elements out of order.
      expect(stats(doc)).toMatchObject({ classes: 3, persons: 70, splits: 676 });
      expect(firstResult(doc.list as ResultList).startTime).toBe('2014-01-18T11:19:01');
    },
  },

  // --- edge cases ----------------------------------------------------------------------------
  'edge-cases/splitsbrowser_all-statuses.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(stats(doc).statuses).toMatchObject({
        OK: 2,
        MissingPunch: 1,
        DidNotStart: 1,
        DidNotFinish: 1,
        Disqualified: 1,
        NotCompeting: 1,
        OverTime: 1,
      });
      // One row has a broken date (`2014-060-07`): that time is null, the row is kept.
      expect((doc.list as ResultList).classes[0]!.persons.some((p) => p.results[0]!.startTime === null)).toBe(true);
    },
  },
  'edge-cases/splitsbrowser_relay-team-statuses.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      expect(stats(doc)).toMatchObject({ classes: 1, teams: 13, members: 39 });
      // No OverallResult anywhere: the status is the first non-OK leg status.
      for (const team of list.classes[0]!.teams) {
        const firstBad = team.members.find((m) => m.result.status !== 'OK');
        expect(team.status).toBe(firstBad?.result.status ?? 'OK');
        if (firstBad === undefined) expect(team.time).toBe(team.members.reduce((s, m) => s + m.result.time!, 0));
      }
    },
  },
  'edge-cases/splitsbrowser_fractional-times.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(firstResult(doc.list as ResultList).time).toBe(734.7);
      expect(firstResult(doc.list as ResultList).splits[0]!.time).toBe(108.2);
    },
  },
  'edge-cases/splitsbrowser_additional-control.xml': {
    parse: 'ResultList',
    check: (doc) => expect(stats(doc)).toMatchObject({ persons: 3, additional: 1 }),
  },
  'edge-cases/splitsbrowser_individual-and-team.xml': {
    parse: 'ResultList',
    check: (doc) => expect(stats(doc)).toMatchObject({ classes: 2, persons: 1, teams: 1, members: 2 }),
  },
  'edge-cases/splitsbrowser_multiple-courses.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      expect(list.classes.map((c) => c.courses.length)).toEqual([1, 1]);
      expect(list.classes[0]!.courses[0]!.length).toBeGreaterThan(0);
    },
  },
  'edge-cases/splitsbrowser_nonstarters-only.xml': {
    parse: 'ResultList',
    check: (doc) => expect(stats(doc)).toMatchObject({ persons: 3, missing: 9, statuses: { DidNotStart: 3 } }),
  },
  'edge-cases/splitsbrowser_competitor-with-no-name.xml': {
    parse: 'ResultList',
    check: (doc) => expect(stats(doc)).toMatchObject({ persons: 3, vacant: 1 }),
  },
  'edge-cases/splitsbrowser_negative-split.xml': {
    parse: 'ResultList',
    check: (doc) => expect(stats(doc)).toMatchObject({ persons: 3, splits: 9 }),
  },
  'edge-cases/splitsbrowser_malformed.xml': { reject: /malformed XML/, path: /^line 4$/ },
  'edge-cases/splitsbrowser_empty.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(doc.list.classes).toEqual([]);
      expect(doc.list.event).toEqual({ id: null, name: null, event: null });
    },
  },
  'edge-cases/rg2_classresult-missing-class.xml': {
    parse: 'ResultList',
    check: (doc) => {
      expect(doc.list.classes).toHaveLength(1);
      expect(doc.list.classes[0]!.class).toEqual({ id: null, name: '', shortName: null, resultListMode: 'Default' });
    },
  },
  'edge-cases/time-only-start-finish_person-id-order.xml': {
    parse: 'ResultList',
    check: (doc) => {
      // Bare `10:05:00` is combined with the event date; Person/Id after Name is still read.
      const r = firstResult(doc.list as ResultList);
      expect(r.startTime).toBe('2024-01-01T10:05:00');
      expect(r.finishTime).toBe('2024-01-01T10:47:32');
      expect((doc.list as ResultList).classes[0]!.persons[0]!.person!.id).toBe('10001');
    },
  },

  // --- Eventor imitations ----------------------------------------------------------------------
  'eventor-style/ResultList_eventor_extensions_handcrafted.xml': {
    parse: 'ResultList',
    check: (doc) => {
      const list = doc.list as ResultList;
      expect(list.event).toEqual({ id: 'evt-100', name: 'Example Sprint Cup', event: null });
      expect(stats(doc)).toMatchObject({ classes: 1, persons: 2, statuses: { OK: 2 } });
      expect(list.classes[0]!.persons[0]!.organisation).toMatchObject({ id: '500', countryCode: 'NOR' });
      expect(firstResult(list).startTime).toBe('2024-05-15T17:00:00Z');
    },
  },
  'eventor-style/EventList_eventor_extensions_handcrafted.xml': { reject: OTHER_MESSAGE },

  // --- IOF 2.0.3 -------------------------------------------------------------------------------
  'v2-for-detection/iof-2.0.3_ResultList_example2.xml': {
    reject: /IOF XML 2\.0\.3 is not supported.*export IOF XML 3\.0/,
  },
  'v2-for-detection/iof-2.0.3_StartList_example2.xml': {
    reject: /IOF XML 2\.0\.3 is not supported.*export IOF XML 3\.0/,
  },
};

describe.skipIf(!present)(`IOF XML conformance over the real files ${NEEDS_SHARED_FIXTURES}`, () => {
  const files = present ? listXml(FIXTURES).map((f) => relative(FIXTURES, f).split('\\').join('/')) : [];

  it('has an expectation for every fixture file', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((f) => !(f in EXPECT))).toEqual([]);
  });

  for (const rel of present ? files : []) {
    const expectation = EXPECT[rel];
    if (!expectation) continue;
    it(rel, () => {
      const bytes = bytesOf(rel);
      if ('parse' in expectation) {
        const doc = parseIofDocument(bytes);
        expect(doc.kind).toBe(expectation.parse);
        // The output is the shared domain model, whatever the producer wrote.
        if (doc.kind === 'ResultList') ResultListSchema.parse(doc.list);
        else StartListSchema.parse(doc.list);
        const strings = allStrings(doc.list);
        expect(strings.filter((s) => s.includes('\uFFFD') || /\u00C3[\u0080-\u00BF]/.test(s))).toEqual([]);
        expectation.check?.(doc);
      } else {
        let error: unknown;
        try {
          parseIofDocument(bytes);
        } catch (e) {
          error = e;
        }
        // Never a crash (TypeError...): a clear InvalidResponse.
        expect(error).toBeInstanceOf(InvalidResponse);
        const e = error as InvalidResponse;
        expect(e.problem).toMatch(expectation.reject);
        if (expectation.path) expect(e.path ?? '').toMatch(expectation.path);
      }
    });
  }

  it('detects version and root kind of every file', () => {
    for (const rel of files) {
      const info = detectIofDocument(decodeXmlBytes(bytesOf(rel)));
      if (rel.startsWith('v2-for-detection/')) expect(info.version, rel).toBe('2.0.3');
      else expect(info.version, rel).toBe('3.0');
      const expectation = EXPECT[rel];
      if (expectation && 'parse' in expectation) expect(info.root, rel).toBe(expectation.parse);
    }
  });

  it('converts wall-clock times with a given zone', () => {
    // OE2010 writes local time without offset; Europe/Helsinki is +02:00 in March.
    const oe = parseIofResultList(bytesOf('real/oe2010_speaker-results_2015-03-02_splits_cp1252.xml'), {
      timeZone: 'Europe/Helsinki',
    });
    expect(firstResult(oe).startTime).toBe('2015-03-02T10:18:00Z');
    // Swiss O Week in July: +02:00 summer time.
    const sow = parseIofStartList(bytesOf('real/oe2010_startlist_sow2014-e1_large_cp1252.xml'), {
      timeZone: 'Europe/Zurich',
    });
    expect(firstStartTime(sow)).toBe('2014-07-20T08:57:06Z');
    // Times with an offset are not affected by the zone.
    const qe = parseIofResultList(bytesOf('real/quickevent_results_kam-2025-10-18_splits.xml'), {
      timeZone: 'America/New_York',
    });
    expect(firstResult(qe).startTime).toBe('2025-10-18T08:43:00Z');
  });

  it('never crashes on truncated or corrupted files: a list or an InvalidResponse', () => {
    // Deterministic LCG so a failure is reproducible; every loop is bounded.
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const sources = [
      'official/examples/ResultList2.xml',
      'official/examples/ResultList3.xml',
      'official/examples/StartList3.xml',
      'real/os2010_relay-results_nuorisoviesti-2016_cp1252.xml',
      'real/ooresults_results_2023-01-15_splits.xml',
    ];
    const junk = ['<', '>', '&', '"', '</Result>', '<Status>', 'x', '\u0000', ']]>', '<!--', '<?', '=', ' ', 'NaN'];
    let parsed = 0;
    let rejected = 0;
    for (const rel of sources) {
      const text = decodeXmlBytes(bytesOf(rel));
      for (let i = 0; i < 150; i++) {
        const at = rand(text.length);
        const mutated =
          i % 3 === 0
            ? text.slice(0, at)
            : i % 3 === 1
              ? text.slice(0, at) + junk[rand(junk.length)]! + text.slice(at)
              : text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + rand(40)));
        try {
          parseIofDocument(mutated);
          parsed++;
        } catch (e) {
          if (!(e instanceof InvalidResponse))
            throw new Error(`${rel} mutation ${i} at ${at}: ${String(e)}`, { cause: e });
          rejected++;
        }
      }
    }
    expect(parsed + rejected).toBe(sources.length * 150);
    expect(rejected).toBeGreaterThan(0);
  });

  it('reads the large start list quickly', () => {
    const bytes = bytesOf('real/oe2010_startlist_sow2014-e1_large_cp1252.xml');
    parseIofStartList(bytes);
    const t0 = performance.now();
    parseIofStartList(bytes);
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});
