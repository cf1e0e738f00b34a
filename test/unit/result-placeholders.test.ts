/**
 * Timing programs write stand-ins for runners and teams that did not finish OK
 * (`Position` 0 or -1, `Time` 0, a finish at midnight before the start, splits at 0:00). Both
 * readers drop them; the result list then shows the status, no place and no "0:00"
 * (docs/iof-xml.md#stand-ins-for-results-that-are-not-ok).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeXmlBytes, detectIofDocument, parseIofResultList } from '../../src/eventor/iof/index.js';
import type { OverallResult, RaceResult, ResultList, TeamResult } from '../../src/eventor/model.js';
import { parseResultList, parseResultListList } from '../../src/eventor/native/index.js';
import { renderClubResults } from '../../src/render/index.js';
import { ctx, textOf } from '../support/render-fixtures.js';
import { NEEDS_SHARED_FIXTURES, SHARED_FIXTURES, sharedFixtures } from '../support/shared-fixtures.js';

// --- IOF XML 3.0 ---------------------------------------------------------------------------------

const IOF = `<?xml version="1.0" encoding="UTF-8"?>
<ResultList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0">
  <Event><Name>Test</Name><StartTime><Date>2024-06-01</Date></StartTime></Event>
  <ClassResult><Class><Name>H21</Name></Class>
    <PersonResult><Person><Name><Family>Ok</Family><Given>Olle</Given></Name></Person><Organisation><Id>321</Id><Name>OK Linné</Name></Organisation>
      <Result><StartTime>2024-06-01T10:00:00+02:00</StartTime><FinishTime>2024-06-01T10:40:00+02:00</FinishTime><Time>2400</Time><TimeBehind>0</TimeBehind><Position>1</Position><Status>OK</Status>
        <SplitTime><ControlCode>31</ControlCode><Time>300</Time></SplitTime></Result></PersonResult>
    <PersonResult><Person><Name><Family>Disq</Family><Given>Dina</Given></Name></Person><Organisation><Id>321</Id><Name>OK Linné</Name></Organisation>
      <Result><StartTime>2024-06-01T10:02:00+02:00</StartTime><FinishTime>2024-06-01T00:00:00+02:00</FinishTime><Time>0</Time><TimeBehind>0</TimeBehind><Position>0</Position><Status>Disqualified</Status>
        <SplitTime><ControlCode>31</ControlCode><Time>0</Time></SplitTime></Result></PersonResult>
    <PersonResult><Person><Name><Family>Miss</Family><Given>Mats</Given></Name></Person><Organisation><Id>321</Id><Name>OK Linné</Name></Organisation>
      <Result><StartTime>2024-06-01T10:04:00+02:00</StartTime><FinishTime>2024-06-01T10:50:00+02:00</FinishTime><Time>2760</Time><Position>-1</Position><Status>MissingPunch</Status></Result></PersonResult>
    <PersonResult><Person><Name><Family>Guest</Family><Given>Gun</Given></Name></Person><Organisation><Id>321</Id><Name>OK Linné</Name></Organisation>
      <Result><StartTime>2024-06-01T10:06:00+02:00</StartTime><Time>0</Time><Position>0</Position><Status>NotCompeting</Status></Result></PersonResult>
  </ClassResult>
  <ClassResult><Class><Name>Relay</Name></Class>
    <TeamResult><Name>OK Linné 1</Name><Organisation><Id>321</Id><Name>OK Linné</Name></Organisation>
      <TeamMemberResult><Person><Name><Family>Leg</Family><Given>Lisa</Given></Name></Person>
        <Result><Leg>1</Leg><StartTime>2024-06-01T12:00:00+02:00</StartTime><FinishTime>2024-06-01T00:00:00+02:00</FinishTime><Time>0</Time><Position type="Leg">0</Position><Status>DidNotFinish</Status>
          <OverallResult><Time>0</Time><TimeBehind>0</TimeBehind><Position>0</Position><Status>DidNotFinish</Status></OverallResult></Result></TeamMemberResult>
    </TeamResult>
  </ClassResult>
</ResultList>`;

// --- Eventor native ------------------------------------------------------------------------------

const PERSON = (id: string, family: string) =>
  `<Person sex="F"><PersonName><Family>${family}</Family><Given sequence="1">Given</Given></PersonName><PersonId>${id}</PersonId></Person>`;
const ORG = '<Organisation><OrganisationId>321</OrganisationId><Name>OK Linné</Name></Organisation>';
const AT = (clock: string) => `<Date>2026-06-06</Date><Clock>${clock}</Clock>`;
const NATIVE = `<?xml version="1.0" encoding="utf-8"?>
<ResultList><Event eventForm="IndSingleDay"><EventId>100</EventId><Name>Test Event</Name><EventClassificationId>4</EventClassificationId><EventStatusId>9</EventStatusId>
  <StartDate>${AT('10:00:00')}</StartDate><Organiser><OrganisationId>5</OrganisationId></Organiser></Event>
  <ClassResult><EventClass><EventClassId>300</EventClassId><Name>D21</Name></EventClass>
    <PersonResult>${PERSON('1', 'Disq')}${ORG}<Result><StartTime>${AT('10:30:00')}</StartTime><FinishTime>${AT('00:00:00')}</FinishTime>
      <Time>0:00</Time><TimeDiff>0:00</TimeDiff><ResultPosition>0</ResultPosition><CompetitorStatus value="Disqualified"/>
      <SplitTime sequence="1"><ControlCode>31</ControlCode><Time>0:00</Time></SplitTime></Result></PersonResult>
    <PersonResult>${PERSON('2', 'Miss')}${ORG}<Result><StartTime>${AT('10:32:00')}</StartTime><FinishTime>${AT('11:20:00')}</FinishTime>
      <Time>48:00</Time><ResultPosition>-1</ResultPosition><CompetitorStatus value="MissingPunch"/></Result></PersonResult>
    <PersonResult>${PERSON('3', 'Ok')}${ORG}<Result><StartTime>${AT('10:34:00')}</StartTime><FinishTime>${AT('11:10:00')}</FinishTime>
      <Time>36:00</Time><TimeDiff>0:00</TimeDiff><ResultPosition>1</ResultPosition><CompetitorStatus value="OK"/></Result></PersonResult>
  </ClassResult>
  <ClassResult><EventClass><EventClassId>301</EventClassId><Name>Stafett</Name></EventClass>
    <TeamResult><TeamName>OK Linné 1</TeamName>${ORG}<StartTime>${AT('18:00:00')}</StartTime><FinishTime>${AT('00:00:00')}</FinishTime>
      <Time>0:00</Time><ResultPosition>0</ResultPosition><TeamStatus value="Disqualified"/>
      <TeamMemberResult>${PERSON('4', 'Leg')}<Leg>1</Leg><StartTime>${AT('18:00:00')}</StartTime><FinishTime>${AT('00:00:00')}</FinishTime><Time>0:00</Time>
        <Position type="Leg">0</Position><CompetitorStatus value="Disqualified"/>
        <OverallResult><Time>0:00</Time><ResultPosition>0</ResultPosition><TeamStatus value="Disqualified"/></OverallResult></TeamMemberResult>
    </TeamResult>
  </ClassResult>
</ResultList>`;

function standing(r: Pick<RaceResult, 'time' | 'timeBehind' | 'position'> & { finishTime?: string | null }) {
  return {
    time: r.time,
    timeBehind: r.timeBehind,
    position: r.position,
    ...(r.finishTime === undefined ? {} : { finishTime: r.finishTime }),
  };
}

describe('placeholders of results that are not OK', () => {
  it('the IOF reader drops Position 0/-1, Time 0, a midnight finish and 0:00 splits', () => {
    const list = parseIofResultList(IOF);
    const [ok, dsq, mp, nc] = list.classes[0]!.persons.map((p) => p.results[0]!);
    expect(standing(ok!)).toEqual({ time: 2400, timeBehind: 0, position: 1, finishTime: '2024-06-01T08:40:00Z' });
    expect(ok!.splits[0]!.time).toBe(300);
    expect(standing(dsq!)).toEqual({ time: null, timeBehind: null, position: null, finishTime: null });
    expect(dsq!.splits[0]).toEqual({ controlCode: '31', time: null, status: 'Missing' });
    // A mispunched runner's real time stays; the place does not.
    expect(standing(mp!)).toEqual({ time: 2760, timeBehind: null, position: null, finishTime: '2024-06-01T08:50:00Z' });
    expect(standing(nc!)).toEqual({ time: null, timeBehind: null, position: null, finishTime: null });
    const team = list.classes[1]!.teams[0]!;
    expect(standing(team)).toEqual({ time: null, timeBehind: null, position: null, finishTime: null });
    expect(team.status).toBe('DidNotFinish');
    const leg = team.members[0]!.result;
    expect(standing(leg)).toEqual({ time: null, timeBehind: null, position: null, finishTime: null });
    expect(leg.overall).toEqual({ time: null, timeBehind: null, position: null, status: 'DidNotFinish' });
  });

  it('the native reader drops them too, for runners, relay teams and their legs', () => {
    const list = parseResultList(NATIVE, { timeZone: 'Europe/Stockholm' });
    const [dsq, mp, ok] = list.classes[0]!.persons.map((p) => p.results[0]!);
    expect(standing(dsq!)).toEqual({ time: null, timeBehind: null, position: null, finishTime: null });
    expect(dsq!.splits[0]).toEqual({ controlCode: '31', time: null, status: 'Missing' });
    expect(standing(mp!)).toEqual({ time: 2880, timeBehind: null, position: null, finishTime: '2026-06-06T09:20:00Z' });
    expect(standing(ok!)).toEqual({ time: 2160, timeBehind: 0, position: 1, finishTime: '2026-06-06T09:10:00Z' });
    const team = list.classes[1]!.teams[0]!;
    expect(standing(team)).toEqual({ time: null, timeBehind: null, position: null, finishTime: null });
    expect(standing(team.members[0]!.result)).toEqual({
      time: null,
      timeBehind: null,
      position: null,
      finishTime: null,
    });
    expect(team.members[0]!.result.overall).toEqual({
      time: null,
      timeBehind: null,
      position: null,
      status: 'Disqualified',
    });
  });

  it('the club\'s result list shows DSQ, MP and not competing without a place or "0:00"', () => {
    const text = textOf(
      renderClubResults(parseIofResultList(IOF), ctx('en'), { organisationId: '321', top: 0, splits: false })[0]!,
    );
    expect(text).toContain('**Dina Disq** · **DSQ**');
    expect(text).toContain('**Mats Miss** · **MP**');
    expect(text).toMatch(/\*\*Gun Guest\*\* · \*\*[^*\n]+\*\*\n/);
    expect(text).not.toMatch(/(^|[^\d:])0:00/);
    expect(text).not.toMatch(/(^|\n)(0|-1)\. /);
  });
});

// --- Real files -----------------------------------------------------------------------------------

const SHARED = SHARED_FIXTURES;
const present = sharedFixtures() !== null;

function xmlFiles(dir: string, depth = 0): string[] {
  if (depth > 5 || !existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...xmlFiles(p, depth + 1));
    else if (name.endsWith('.xml')) out.push(p);
  }
  return out;
}

/** Every standing in a list that breaks the rules: a place when not OK, a place or time of 0 or less, a finish before the start. */
function violations(list: ResultList): string[] {
  const out: string[] = [];
  const check = (
    where: string,
    s: Pick<OverallResult, 'time' | 'position' | 'status'> & { startTime?: string | null; finishTime?: string | null },
  ): void => {
    if (s.position !== null && (s.status !== 'OK' || s.position <= 0))
      out.push(`${where}: position ${s.position} with ${s.status}`);
    if (s.time !== null && s.time <= 0) out.push(`${where}: time ${s.time}`);
    if (s.startTime && s.finishTime && Date.parse(s.finishTime) <= Date.parse(s.startTime))
      out.push(`${where}: finish ${s.finishTime} before start ${s.startTime}`);
  };
  const race = (where: string, r: RaceResult): void => {
    check(where, r);
    if (r.overall) check(`${where}/overall`, r.overall);
    for (const split of r.splits) if (split.time !== null && split.time <= 0) out.push(`${where}: split ${split.time}`);
  };
  for (const c of list.classes) {
    for (const p of c.persons) for (const r of p.results) race(`${c.class.name}/${p.person?.name.family ?? '?'}`, r);
    for (const t of c.teams as TeamResult[]) {
      check(`${c.class.name}/${t.name}`, t);
      for (const m of t.members) race(`${c.class.name}/${t.name}/${m.person?.name.family ?? '?'}`, m.result);
    }
  }
  return out;
}

describe.skipIf(!present)(`real result lists carry no placeholders once read ${NEEDS_SHARED_FIXTURES}`, () => {
  it('IOF XML 3.0 result lists from timing programs', () => {
    let lists = 0;
    const found: string[] = [];
    for (const file of xmlFiles(join(SHARED, 'iof'))) {
      const bytes = new Uint8Array(readFileSync(file));
      let list: ResultList;
      try {
        if (detectIofDocument(decodeXmlBytes(bytes)).root !== 'ResultList') continue;
        list = parseIofResultList(bytes);
      } catch {
        continue; // files the reader refuses are the conformance suite's business
      }
      lists++;
      found.push(...violations(list).map((v) => `${file.slice(SHARED.length + 1)}: ${v}`));
    }
    expect(lists).toBeGreaterThan(5);
    expect(found).toEqual([]);
  });

  it('Eventor native result lists', () => {
    let lists = 0;
    const found: string[] = [];
    for (const file of xmlFiles(join(SHARED, 'eventor')).filter((f) => /results-/.test(f))) {
      const xml = readFileSync(file, 'utf8');
      const parsed = /<ResultListList[\s>]/.test(xml)
        ? parseResultListList(xml, { timeZone: 'Europe/Stockholm' })
        : [parseResultList(xml, { timeZone: 'Europe/Stockholm' })];
      lists += parsed.length;
      for (const list of parsed) found.push(...violations(list).map((v) => `${file.slice(SHARED.length + 1)}: ${v}`));
    }
    expect(lists).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });
});
