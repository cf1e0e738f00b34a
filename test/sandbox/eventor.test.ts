/**
 * The sandbox Eventor over real loopback HTTP (fetch), checked with fast-xml-parser: routes and
 * roots, auth and own-organisation rules, filters and flags, login links, PUT, time zones,
 * faults and determinism. Not through the project's Eventor client, on purpose.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';

const NOW = new Date('2026-06-15T10:00:00Z');
const ARRAYS = new Set([
  'Event',
  'EventRace',
  'ClassResult',
  'PersonResult',
  'TeamResult',
  'TeamMemberResult',
  'SplitTime',
  'Entry',
  'EventClass',
  'ClassEntryFee',
  'Document',
  'Organisation',
  'Person',
  'HashTableEntry',
  'ResultList',
  'StartList',
  'ClassStart',
  'PersonStart',
  'RaceResult',
  'RaceStart',
  'CompetitorCount',
  'EntryFee',
  'Activity',
  'ActivityRegistration',
  'Competitor',
  'EntryBreak',
  'CCard',
  'EventAttribute',
  'TeamStart',
  'ActivityAttribute',
]);
// Roots are never arrays (jPath of a root is its own name).
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name, jpath) => ARRAYS.has(name) && jpath !== name,
});
// The test walks parsed XML of any shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type X = Record<string, any>;

let clockMs = NOW.getTime();
let sb: SandboxEventor;

async function get(path: string, headers: Record<string, string> = {}, key: string | null = sb.apiKey) {
  const res = await fetch(`${sb.baseUrl}${path}`, {
    headers: { ...(key === null ? {} : { ApiKey: key }), ...headers },
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, headers: res.headers };
}

async function xml(path: string, headers: Record<string, string> = {}): Promise<X> {
  const r = await get(path, headers);
  expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
  expect(r.type).toContain('xml');
  expect(XMLValidator.validate(r.text)).toBe(true);
  return parser.parse(r.text) as X;
}

const home = () => sb.dataset.homeClub;
const foreign = () => sb.dataset.clubs[1]!;
const events = (pred: (e: SandboxEvent) => boolean) => sb.dataset.events.filter(pred);
const pastSingle = () => events((e) => e.hasResults && e.shape === 'single')[0]!;
const pastMulti = () => events((e) => e.hasResults && e.shape === 'multi')[0]!;
const pastRelay = () => events((e) => e.hasResults && e.shape === 'relay')[0]!;

beforeAll(async () => {
  sb = await startSandboxEventor({ port: 0, seed: 42, now: () => new Date(clockMs) });
});
afterAll(async () => {
  await sb?.close();
});

describe('routes', () => {
  it("answers every operation of Eventor's API with its root element", async () => {
    const ev = pastSingle();
    const member = home().members[0]!;
    const activity = sb.dataset.activities.find((a) => a.organisationId === home().id)!;
    const paths: [string, string][] = [
      ['/events', 'EventList'],
      ['/events/documents', 'DocumentList'],
      [`/event/${ev.id}`, 'Event'],
      [`/eventclasses?eventId=${ev.id}`, 'EventClassList'],
      [`/entryfees/events/${ev.id}`, 'EntryFeeList'],
      ['/organisation/apiKey', 'Organisation'],
      ['/organisations', 'OrganisationList'],
      [`/organisation/${foreign().id}`, 'Organisation'],
      [`/persons/organisations/${home().id}`, 'PersonList'],
      [`/competitors?organisationId=${home().id}`, 'CompetitorList'],
      [`/competitor/${member.competitor.competitorId}`, 'Competitor'],
      [`/externalLoginUrl?personId=${member.person.id}&organisationId=${home().id}`, 'ExternalLoginUrl'],
      [`/entries?organisationIds=${home().id}`, 'EntryList'],
      [`/competitorcount?organisationIds=${home().id}&eventIds=${ev.id}`, 'CompetitorCountList'],
      [`/starts/event?eventId=${ev.id}`, 'StartList'],
      [`/starts/person?personId=${member.person.id}`, 'StartListList'],
      [`/starts/organisation?organisationIds=${home().id}&eventId=${ev.id}`, 'StartList'],
      [`/results/event?eventId=${ev.id}`, 'ResultList'],
      [`/results/person?personId=${member.person.id}`, 'ResultListList'],
      [`/results/organisation?organisationIds=${home().id}&eventId=${ev.id}`, 'ResultList'],
      [`/activities?organisationId=${home().id}&from=2026-01-01&to=2026-12-31`, 'ActivityList'],
      [`/activity?organisationId=${home().id}&id=${activity.id}`, 'Activity'],
    ];
    for (const [path, root] of paths) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.type).toBe('application/xml; charset=utf-8');
      expect(r.text.startsWith('<?xml version="1.0" encoding="utf-8"?>\n')).toBe(true);
      expect(XMLValidator.validate(r.text), path).toBe(true);
      const doc = parser.parse(r.text) as X;
      expect(
        Object.keys(doc).filter((k) => k !== '?xml'),
        path,
      ).toEqual([root]);
      // No namespace on native roots; xsi/xsd declared.
      expect(r.text).toMatch(
        new RegExp(
          `<${root} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"`,
        ),
      );
    }
    const auth = await get('/authenticatePerson', { Username: member.username, Password: member.password }, null);
    expect(auth.status).toBe(200);
    expect(Object.keys(parser.parse(auth.text) as X)).toContain('Person');
  });

  it('writes a self-closed root for an empty list, and 404 for an unknown event', async () => {
    const empty = await get('/events?fromDate=1990-01-01&toDate=1990-01-02');
    expect(
      empty.text
        .trimEnd()
        .endsWith(
          '<EventList xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" />',
        ),
    ).toBe(true);
    expect((await get('/event/99999999')).status).toBe(404);
    expect((await get('/results/event?eventId=99999999')).status).toBe(404);
    expect((await get('/no/such/thing')).status).toBe(404);
  });

  it('treats parameter names case-insensitively and ignores unknown ones', async () => {
    const ev = pastSingle();
    const a = await xml(`/events?EVENTIDS=${ev.id}&EventStatusId=3&whatever=1`);
    expect(a['EventList'].Event.map((e: X) => e.EventId)).toEqual([ev.id]);
    const b = await get(`/Event/${ev.id}`);
    expect(b.status).toBe(200);
    // Empty values count as absent (OriGo sends `fromDate=&eventIds=`).
    const c = await xml('/events?fromDate=&toDate=&eventIds=');
    expect(c['EventList'].Event.length).toBe(sb.dataset.events.length);
  });
});

describe('auth', () => {
  it('answers 403 with an HTML page without a key or with a wrong key', async () => {
    for (const key of [null, 'not-a-key', '0123456789abcdef0123456789abcdef']) {
      const r = await get('/events', {}, key);
      expect(r.status).toBe(403);
      expect(r.type).toContain('text/html');
      expect(r.text).toContain('<title>403 - Forbidden</title>');
    }
  });

  it('enforces the own-organisation rules (docs/eventor.md#own-organisation-rules)', async () => {
    const other = foreign();
    const ev = pastSingle();
    const theirMember = other.members[0]!;
    const paths = [
      `/persons/organisations/${other.id}`,
      `/competitors?organisationId=${other.id}`,
      `/competitor/${theirMember.competitor.competitorId}`,
      `/externalLoginUrl?personId=${theirMember.person.id}&organisationId=${other.id}`,
      `/externalLoginUrl?personId=${theirMember.person.id}&organisationId=${home().id}`,
      `/starts/organisation?organisationIds=${other.id}&eventId=${ev.id}`,
      `/results/organisation?organisationIds=${home().id},${other.id}&eventId=${ev.id}`,
      `/activities?organisationId=${other.id}&from=2026-01-01&to=2026-12-31`,
      `/activity?organisationId=${other.id}&id=${sb.dataset.activities.find((a) => a.organisationId === other.id)!.id}`,
    ];
    for (const path of paths) {
      const r = await get(path);
      expect(r.status, path).toBe(403);
      expect(r.text).toContain('403 - Forbidden');
    }
    // The other club's key sees its own members.
    const own = await get(`/persons/organisations/${other.id}`, {}, other.apiKey);
    expect(own.status).toBe(200);
    // Public data of any organisation is readable.
    expect((await get(`/organisation/${other.id}`)).status).toBe(200);
  });

  it('authenticates a person by Username/Password headers (or query), 401 otherwise', async () => {
    const m = home().members[3]!;
    const ok = parser.parse(
      (await get('/authenticatePerson', { Username: m.username, Password: m.password }, null)).text,
    ) as X;
    expect(ok['Person'].PersonId).toBe(m.person.id);
    expect(ok['Person'].Role).toBeDefined();
    const q = await get(
      `/authenticatePerson?username=${encodeURIComponent(m.username)}&password=${encodeURIComponent(m.password)}`,
      {},
      null,
    );
    expect(q.status).toBe(200);
    const bad = await get('/authenticatePerson', { Username: m.username, Password: 'wrong' }, null);
    expect(bad.status).toBe(401);
    expect((await get('/authenticatePerson', {}, null)).status).toBe(401);
  });

  it('never logs key, password or login token values', async () => {
    const m = home().members[1]!;
    await get('/authenticatePerson?Password=secret-in-query', { Username: m.username, Password: m.password });
    const doc = await xml(`/externalLoginUrl?personId=${m.person.id}&organisationId=${home().id}`);
    const url = String(doc['ExternalLoginUrl']['#text']);
    await fetch(url);
    const dump = JSON.stringify([...sb.requests]);
    expect(dump).not.toContain(sb.apiKey);
    expect(dump).not.toContain(m.password);
    expect(dump).not.toContain('secret-in-query');
    expect(dump).not.toContain(url.split('/').pop()!);
    expect(dump).toContain('apikey');
    expect(sb.requests.count('/api/authenticatePerson')).toBeGreaterThan(0);
  });
});

describe('filters and flags', () => {
  it('/events: default range is everything; date range, modify dates, ids, classifications', async () => {
    const all = (await xml('/events'))['EventList'].Event as X[];
    expect(all.length).toBe(sb.dataset.events.length);
    const from = new Date(clockMs).toISOString().slice(0, 10);
    const future = (await xml(`/events?fromDate=${from}%2000:00:00&toDate=9999-12-31%2023:59:59`))['EventList']
      .Event as X[];
    expect(future.length).toBeGreaterThan(0);
    expect(future.length).toBeLessThan(all.length);
    const national = (await xml('/events?classificationIds=1,2'))['EventList'].Event as X[];
    expect(national.every((e) => ['1', '2'].includes(e.EventClassificationId))).toBe(true);
    const some = sb.dataset.events.slice(0, 3).map((e) => e.id);
    expect(
      ((await xml(`/events?eventIds=${some.join(',')}`))['EventList'].Event as X[]).map((e) => e.EventId).sort(),
    ).toEqual([...some].sort());
    const recent = (
      await xml(
        `/events?fromModifyDate=${new Date(clockMs - 10 * 86_400_000).toISOString().slice(0, 19).replace('T', '+')}`,
      )
    )['EventList'].Event as X[];
    expect(recent.length).toBeLessThan(all.length);
    expect(recent.every((e) => e.ModifyDate)).toBe(true);
  });

  it('/events: a district id selects the events of its clubs', async () => {
    const district = sb.dataset.districts[0]!;
    const clubs = new Set(sb.dataset.expandOrganisation(district.id));
    const list = (await xml(`/events?organisationIds=${district.id}`))['EventList'].Event as X[];
    expect(list.length).toBeGreaterThan(0);
    for (const e of list) expect([].concat(e.Organiser.OrganisationId).some((id: string) => clubs.has(id))).toBe(true);
    const expected = sb.dataset.events.filter((e) => e.event.organisers.some((o) => clubs.has(o.id!))).length;
    expect(list.length).toBe(expected);
  });

  it('/events: EntryBreak and EventAttribute only with their flags; Organiser ids only', async () => {
    const plain = (await xml('/events'))['EventList'].Event as X[];
    expect(plain.some((e) => e.EntryBreak)).toBe(false);
    expect(plain.some((e) => e.EventAttribute)).toBe(false);
    expect(plain.some((e) => e.Organiser.Organisation)).toBe(false);
    const full = (await xml('/events?includeEntryBreaks=true&includeAttributes=true'))['EventList'].Event as X[];
    expect(full.every((e) => e.EntryBreak.length === 2)).toBe(true);
    expect(full.some((e) => e.EventAttribute)).toBe(true);
    expect((await get('/events?includeEntryBreaks=maybe')).status).toBe(400);
  });

  it('rejects malformed dates and ids with 400 "Bad Request"', async () => {
    for (const path of [
      '/events?fromDate=yesterday',
      '/events?toDate=2026-13-01',
      '/events?eventIds=1,x',
      '/entries?fromEntryDate=2026-02-30',
      '/eventclasses',
      `/activities?organisationId=${home().id}`,
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.text).toContain('Bad Request');
    }
  });

  it('/eventclasses: fees only with includeEntryFees; /entryfees has the late fee in percent', async () => {
    const ev = pastSingle();
    const plain = (await xml(`/eventclasses?eventId=${ev.id}`))['EventClassList'].EventClass as X[];
    expect(plain.some((c) => c.ClassEntryFee)).toBe(false);
    const fees = (await xml(`/eventclasses?eventId=${ev.id}&includeEntryFees=true`))['EventClassList']
      .EventClass as X[];
    expect(fees.every((c) => c.ClassEntryFee.length === 2)).toBe(true);
    const list = (await xml(`/entryfees/events/${ev.id}`))['EntryFeeList'].EntryFee as X[];
    expect(list.some((f) => f['@_valueOperator'] === 'percent')).toBe(true);
    expect(list.some((f) => f['@_entryFeeType'] === 'youth')).toBe(true);
    const relay = (await xml(`/eventclasses?eventId=${pastRelay().id}`))['EventClassList'].EventClass as X[];
    expect(relay.every((c) => c['@_teamEntry'] === 'Y' && c['@_numberOfLegs'] === '3')).toBe(true);
  });

  it('contact details and identifiers only with their flags', async () => {
    const plain = await get(`/persons/organisations/${home().id}`);
    expect(plain.text).not.toContain('<Tele');
    expect(plain.text).not.toContain('<Address');
    expect(plain.text).not.toContain('<ExternalPersonId');
    const full = await get(
      `/persons/organisations/${home().id}?includeContactDetails=true&includePersonIdentifiers=true`,
    );
    expect(full.text).toContain('<Tele');
    expect(full.text).toContain('<Address');
    expect(full.text).toContain('<ExternalPersonId');
    expect((await get('/organisations')).text).not.toContain('<Tele');
    expect((await get('/organisations?includeProperties=true')).text).toContain('<Tele');
  });

  it('/events/documents filters like /events', async () => {
    const ev = pastSingle();
    const docs = (await xml(`/events/documents?eventIds=${ev.id}`))['DocumentList'].Document as X[];
    expect(docs.length).toBeGreaterThan(0);
    expect(
      docs.every(
        (d) => d['@_referenceId'] === ev.id && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(d['@_modifyDate']),
      ),
    ).toBe(true);
  });

  it('/entries: the entrant club, include flags and entry-date filter', async () => {
    const list = (await xml(`/entries?organisationIds=${home().id}`))['EntryList'].Entry as X[];
    expect(list.length).toBeGreaterThan(10);
    for (const e of list) {
      const orgs = e.Competitor ? [e.Competitor[0].OrganisationId] : [].concat(e.OrganisationId);
      expect(orgs).toContain(home().id);
      expect(e.Competitor?.[0].Person).toBeUndefined();
      expect(e.EventId).toBeDefined();
    }
    const full = (
      await xml(
        `/entries?organisationIds=${home().id}&includePersonElement=true&includeEventElement=true&includeOrganisationElement=true&includeEntryFees=true`,
      )
    )['EntryList'].Entry as X[];
    const individual = full.filter((e) => e.Competitor);
    expect(individual.length).toBeGreaterThan(0);
    expect(
      individual.every((e) => e.Competitor[0].Person && e.Competitor[0].Organisation && e.Event && e.EntryEntryFee),
    ).toBe(true);
    const cutoff = new Date(clockMs - 30 * 86_400_000).toISOString().slice(0, 10);
    const late =
      ((await xml(`/entries?organisationIds=${home().id}&fromEntryDate=${cutoff}`))['EntryList'].Entry as
        X[] | undefined) ?? [];
    expect(late.length).toBeLessThan(list.length);
    // A district id counts its clubs' entrants.
    const district = (await xml(`/entries?organisationIds=${home().organisation.parentId}`))['EntryList'].Entry as X[];
    expect(district.length).toBeGreaterThanOrEqual(list.length);
  });

  it('/competitorcount counts the entries of the given organisations', async () => {
    const ev = pastSingle();
    const expected = sb.dataset.entriesAt(ev).filter((e) => e.competitor?.organisation?.id === home().id).length;
    const doc = await xml(`/competitorcount?organisationIds=${home().id}&eventIds=${ev.id}`);
    const c = doc['CompetitorCountList'].CompetitorCount[0];
    expect(c['@_eventId']).toBe(ev.id);
    expect(Number(c['@_numberOfEntries'])).toBe(expected);
    expect((await get('/competitorcount')).status).toBe(400);
  });
});

describe('starts and results', () => {
  it('/results/event: native statuses, no position unless OK, splits only on request, top N', async () => {
    const ev = pastSingle();
    const doc = await xml(`/results/event?eventId=${ev.id}`);
    const classes = doc['ResultList'].ClassResult as X[];
    const results = classes.flatMap((c) => (c.PersonResult as X[]).map((p) => p.Result));
    expect(results.length).toBeGreaterThan(10);
    expect(results.some((r) => r.SplitTime)).toBe(false);
    for (const r of results) {
      const status = r.CompetitorStatus['@_value'];
      expect(['OK', 'MisPunch', 'DidNotStart', 'DidNotFinish']).toContain(status);
      if (status !== 'OK') expect(r.ResultPosition).toBeUndefined();
      if (status === 'OK') expect(r.Time).toMatch(/^(\d+:)?\d{1,2}:\d{2}$/);
    }
    const withSplits = await xml(`/results/event?eventId=${ev.id}&includeSplitTimes=true`);
    const splitResults = (withSplits['ResultList'].ClassResult as X[]).flatMap((c) =>
      (c.PersonResult as X[]).map((p) => p.Result),
    );
    expect(splitResults.some((r) => r.SplitTime?.length > 3)).toBe(true);
    const top = await xml(`/results/event?eventId=${ev.id}&top=2`);
    for (const c of top['ResultList'].ClassResult as X[]) {
      for (const p of (c.PersonResult ?? []) as X[]) expect(Number(p.Result.ResultPosition)).toBeLessThanOrEqual(2);
    }
  });

  it('the dataset has realistic statuses over its past events', () => {
    const statuses = new Map<string, number>();
    for (const ev of events((e) => e.hasResults)) {
      for (const c of sb.dataset.details(ev).resultList!.classes) {
        for (const p of c.persons) for (const r of p.results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }
    const ok = statuses.get('OK') ?? 0;
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(ok / total).toBeGreaterThan(0.8);
    for (const s of ['MissingPunch', 'DidNotStart', 'DidNotFinish']) expect(statuses.get(s) ?? 0).toBeGreaterThan(0);
  });

  it('multi-day lists use RaceResult/RaceStart; relays TeamResult with TimeBehind in seconds', async () => {
    const multi = pastMulti();
    const r = await xml(`/results/event?eventId=${multi.id}`);
    const pr = (r['ResultList'].ClassResult as X[])[0]!.PersonResult[0];
    expect(pr.Result).toBeUndefined();
    expect(pr.RaceResult.length).toBe(multi.event.races.length);
    expect(pr.RaceResult[0].EventRaceId).toBe(multi.event.races[0]!.id);
    const s = await xml(`/starts/event?eventId=${multi.id}`);
    expect((s['StartList'].ClassStart as X[])[0]!.PersonStart[0].RaceStart.length).toBe(multi.event.races.length);
    const relay = await get(`/results/event?eventId=${pastRelay().id}`);
    expect(relay.text).toMatch(/<TimeBehind type="Leg">\d+<\/TimeBehind>/);
    expect(relay.text).toContain('<TeamStatus value=');
    expect(relay.text).toContain('<OverallResult>');
  });

  it('/results/organisation: own club only, plus top N per class', async () => {
    const ev = pastSingle();
    const own = await xml(`/results/organisation?organisationIds=${home().id}&eventId=${ev.id}`);
    const persons = (own['ResultList'].ClassResult as X[]).flatMap((c) => c.PersonResult as X[]);
    expect(persons.length).toBeGreaterThan(0);
    expect(persons.every((p) => p.Organisation[0].OrganisationId === home().id)).toBe(true);
    const withTop = await xml(`/results/organisation?organisationIds=${home().id}&eventId=${ev.id}&top=1`);
    const more = (withTop['ResultList'].ClassResult as X[]).flatMap((c) => c.PersonResult as X[]);
    expect(more.length).toBeGreaterThanOrEqual(persons.length);
    expect(more.some((p) => p.Organisation[0].OrganisationId !== home().id && p.Result.ResultPosition === '1')).toBe(
      true,
    );
  });

  it('/results/person and /starts/person: one list per event with the person', async () => {
    // A home-club runner in a class with at least four OK results, so that top=3 adds others.
    let ev = pastSingle();
    let person = null as
      | null
      | NonNullable<
          ReturnType<typeof sb.dataset.details>['resultList']
        >['classes'][number]['persons'][number]['person'];
    for (const e of events((x) => x.hasResults && x.shape === 'single')) {
      const cls = sb.dataset
        .details(e)
        .resultList!.classes.find(
          (c) =>
            c.persons.filter((p) => p.results[0]!.status === 'OK').length >= 4 &&
            c.persons.some((p) => p.organisation?.id === home().id),
        );
      if (cls) {
        ev = e;
        person = cls.persons.find((p) => p.organisation?.id === home().id)!.person;
        break;
      }
    }
    if (!person) throw new Error('no suitable runner in the dataset');
    const doc = await xml(`/results/person?personId=${person.id}`);
    const lists = doc['ResultListList'].ResultList as X[];
    expect(lists.length).toBeGreaterThan(0);
    for (const l of lists) {
      const persons = (l.ClassResult as X[]).flatMap((c) => (c.PersonResult ?? []) as X[]);
      expect(persons.map((p) => p.Person[0].PersonId)).toEqual([person.id]);
    }
    expect(lists.some((l) => l.Event[0].EventId === ev.id)).toBe(true);
    const withTop = await xml(`/results/person?personId=${person.id}&eventIds=${ev.id}&top=3`);
    const topClasses = (withTop['ResultListList'].ResultList as X[])[0]!.ClassResult as X[];
    // The top N of the person's own class only.
    expect(topClasses.length).toBe(1);
    expect(topClasses[0]!.PersonResult.length).toBeGreaterThan(1);
    const starts = await xml(`/starts/person?personId=${person.id}`);
    expect((starts['StartListList'].StartList as X[]).length).toBeGreaterThan(0);
    const none = await get('/starts/person?personId=1');
    expect(none.text).toContain(
      '<StartListList xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" />',
    );
  });

  it('/starts/organisation lists only the own club', async () => {
    const ev = pastSingle();
    const doc = await xml(`/starts/organisation?organisationIds=${home().id}&eventId=${ev.id}`);
    const persons = (doc['StartList'].ClassStart as X[]).flatMap((c) => c.PersonStart as X[]);
    expect(persons.length).toBeGreaterThan(0);
    expect(persons.every((p) => p.Organisation[0].OrganisationId === home().id)).toBe(true);
  });

  it('/activities needs from/to and filters by period; registrations only with the flag', async () => {
    const path = `/activities?organisationId=${home().id}&from=2000-01-01&to=2099-12-31`;
    const plain = (await xml(path))['ActivityList'].Activity as X[];
    expect(plain.length).toBe(sb.dataset.activities.filter((a) => a.organisationId === home().id).length);
    expect(plain.some((a) => a.ActivityRegistration)).toBe(false);
    expect(plain.every((a) => a.ActivityAttribute.length === 2)).toBe(true);
    const regs = (await xml(`${path}&includeRegistrations=true`))['ActivityList'].Activity as X[];
    expect(regs.some((a) => a.ActivityRegistration)).toBe(true);
    expect((await get(`/activities?organisationId=${home().id}&from=2000-01-01`)).status).toBe(400);
  });
});

describe('login links, PUT and time zones', () => {
  it('an external login link works once, and expires after five minutes', async () => {
    const m = home().members[2]!;
    const linkOf = async () =>
      String(
        (await xml(`/externalLoginUrl?personId=${m.person.id}&organisationId=${home().id}`))['ExternalLoginUrl'][
          '#text'
        ],
      );
    const url = await linkOf();
    expect(url).toMatch(new RegExp(`^${sb.baseUrl.replace('/api', '')}/login/[A-Za-z0-9_-]{20,}$`));
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain(`${m.person.name.given} ${m.person.name.family}`.replace(/&/g, '&amp;'));
    expect((await fetch(url)).status).toBe(410);
    const second = await linkOf();
    expect(second).not.toBe(url);
    clockMs += 5 * 60_000 + 1000;
    try {
      expect((await fetch(second)).status).toBe(410);
    } finally {
      clockMs = NOW.getTime();
    }
    expect((await fetch(`${sb.baseUrl.replace('/api', '')}/login/unknown-token`)).status).toBe(403);
  });

  it('PUT /api/competitor saves cards and classes; GET shows them; foreign persons 403; bad bodies 400', async () => {
    const m = home().members[5]!;
    const body = `<?xml version="1.0" encoding="utf-8"?>
<Competitor><CompetitorId>${m.competitor.competitorId}</CompetitorId><PersonId>${m.person.id}</PersonId><OrganisationId>${home().id}</OrganisationId>
<PreSelectedClass sequence="1"><ClassShortName>H21</ClassShortName></PreSelectedClass>
<CCard><CCardId>7654321</CCardId><PunchingUnitType value="SI"/></CCard><CCard><CCardId>505050</CCardId><PunchingUnitType value="emiTag"/></CCard>
<DisciplineId>1</DisciplineId></Competitor>`;
    const put = await fetch(`${sb.baseUrl}/competitor`, {
      method: 'PUT',
      headers: { ApiKey: sb.apiKey, 'Content-Type': 'application/xml' },
      body,
    });
    expect(put.status).toBe(200);
    const saved = parser.parse(await put.text()) as X;
    expect(saved['Competitor'].CCard.map((c: X) => c.CCardId)).toEqual(['7654321', '505050']);
    const again = await xml(`/competitor/${m.competitor.competitorId}`);
    expect(again['Competitor'].CCard.map((c: X) => c.CCardId)).toEqual(['7654321', '505050']);
    const list = await xml(`/competitors?organisationId=${home().id}`);
    expect(
      (list['CompetitorList'].Competitor as X[]).find((c) => c.CompetitorId === m.competitor.competitorId)!.CCard[1]
        .PunchingUnitType['@_value'],
    ).toBe('emiTag');

    const theirs = foreign().members[0]!;
    const forbidden = await fetch(`${sb.baseUrl}/competitor`, {
      method: 'PUT',
      headers: { ApiKey: sb.apiKey },
      body: body
        .replace(m.competitor.competitorId!, theirs.competitor.competitorId!)
        .replace(`<PersonId>${m.person.id}</PersonId>`, ''),
    });
    expect(forbidden.status).toBe(403);
    for (const bad of ['<Competitor><CompetitorId>1', '', '<Other/>']) {
      const r = await fetch(`${sb.baseUrl}/competitor`, { method: 'PUT', headers: { ApiKey: sb.apiKey }, body: bad });
      expect(r.status).toBe(400);
      expect(await r.text()).toContain('Bad Request');
    }
  });

  it('the TimeZone: UTC header switches native times from Stockholm time to UTC', async () => {
    const ev = pastSingle();
    const l = (await xml(`/event/${ev.id}`))['Event'];
    const u = (await xml(`/event/${ev.id}`, { TimeZone: 'UTC' }))['Event'];
    const instant = ev.event.start!;
    expect(`${u.StartDate.Date}T${u.StartDate.Clock}Z`).toBe(instant);
    const offsetH = (Date.parse(`${l.StartDate.Date}T${l.StartDate.Clock}Z`) - Date.parse(instant)) / 3_600_000;
    expect([1, 2]).toContain(offsetH);
  });
});

describe('IOF XML 3.0', () => {
  it('/starts/event/iofxml and /results/event/iofxml answer IOF 3.0 documents', async () => {
    const ev = pastSingle();
    const starts = await get(`/starts/event/iofxml?eventId=${ev.id}`);
    expect(starts.status).toBe(200);
    expect(starts.type).toBe('application/xml; charset=utf-8');
    expect(starts.text).toMatch(/<StartList[^>]*xmlns="http:\/\/www.orienteering.org\/datastandard\/3.0"/);
    expect(XMLValidator.validate(starts.text)).toBe(true);
    const plain = await get(`/results/event/iofxml?eventId=${ev.id}`);
    expect(plain.text).toMatch(/<ResultList[^>]*xmlns="http:\/\/www.orienteering.org\/datastandard\/3.0"/);
    expect(plain.text).not.toContain('<SplitTime');
    const splits = await get(`/results/event/iofxml?eventId=${ev.id}&includeSplitTimes=true`);
    expect(splits.text).toContain('<SplitTime');
    expect(splits.text).toContain('<Status>MissingPunch</Status>');
  });

  it('picks a race with eventRaceId and adds totals with totalResult on multi-day events', async () => {
    const multi = pastMulti();
    const race2 = multi.event.races[1]!;
    const one = parser.parse(
      (await get(`/results/event/iofxml?eventId=${multi.id}&eventRaceId=${race2.id}`)).text,
    ) as X;
    const pr = (one['ResultList'].ClassResult as X[])[0]!.PersonResult[0];
    expect([].concat(pr.Result).length).toBe(1);
    const total = await get(`/results/event/iofxml?eventId=${multi.id}&totalResult=true`);
    expect(total.text).toContain('<OverallResult>');
    expect((await get(`/results/event/iofxml?eventId=${multi.id}&eventRaceId=1`)).status).toBe(404);
    expect((await get('/results/event/iofxml')).status).toBe(400);
  });
});

describe('faults', () => {
  it('status, rate limit, maintenance, malformed, truncate, latency and hang', async () => {
    sb.faults.add({ path: '/api/events', kind: 'status', status: 503, times: 2 });
    expect((await get('/events')).status).toBe(503);
    expect((await get('/events')).status).toBe(503);
    expect((await get('/events')).status).toBe(200);

    for (const status of [500, 502, 520]) {
      sb.faults.add({ path: '/api/organisation/apiKey', kind: 'status', status, times: 1 });
      expect((await get('/organisation/apiKey')).status).toBe(status);
    }

    sb.faults.add({ kind: 'rateLimit', retryAfter: 7, times: 1 });
    const limited = await get('/organisations');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');

    sb.faults.add({ path: '/api/events', kind: 'maintenance', times: 1 });
    const maintenance = await get('/events');
    expect(maintenance.status).toBe(200);
    expect(maintenance.type).toContain('text/html');

    sb.faults.add({ path: '/api/events', kind: 'malformed', times: 1 });
    const broken = await get('/events');
    expect(broken.status).toBe(200);
    expect(XMLValidator.validate(broken.text)).not.toBe(true);

    sb.faults.add({ path: '/api/events', kind: 'truncate', times: 1 });
    await expect(get('/events')).rejects.toThrow();

    sb.faults.add({ path: '/api/organisation/*', kind: 'latency', ms: 150, times: 1 });
    const t0 = Date.now();
    expect((await get('/organisation/apiKey')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);

    sb.faults.add({ path: '/api/events', kind: 'hang' });
    await expect(
      fetch(`${sb.baseUrl}/events`, { headers: { ApiKey: sb.apiKey }, signal: AbortSignal.timeout(200) }),
    ).rejects.toThrow();
    sb.faults.clear();
    expect(sb.faults.active).toEqual([]);
    expect((await get('/events')).status).toBe(200);
  });
});

describe('test helpers', () => {
  it('touchEvent and correctResult change what the service answers', async () => {
    const ev = events((e) => e.hasResults && e.shape === 'single')[1]!;
    const list = sb.dataset.details(ev).resultList!;
    const cls = list.classes.find((c) => c.persons.filter((p) => p.results[0]!.status === 'OK').length >= 2)!;
    const winner = cls.persons[0]!;
    const second = cls.persons[1]!;
    sb.dataset.correctResult(ev.id, winner.person!.id!, { status: 'Disqualified' });
    expect(second.results[0]!.position).toBe(1);
    expect(winner.results[0]!.position).toBeNull();
    const doc = await xml(`/results/event?eventId=${ev.id}`);
    const c = (doc['ResultList'].ClassResult as X[]).find((x) => x.EventClass[0].EventClassId === cls.class.id)!;
    expect(
      c.PersonResult.find((p: X) => p.Person[0].PersonId === winner.person!.id).Result.CompetitorStatus['@_value'],
    ).toBe('Disqualified');
    const since = new Date(clockMs - 1000).toISOString().slice(0, 19).replace('T', ' ');
    const changed = (await xml(`/events?fromModifyDate=${encodeURIComponent(since)}`))['EventList'].Event as X[];
    expect(changed.map((e) => e.EventId)).toContain(ev.id);
    sb.dataset.touchEvent(sb.dataset.events[0]!.id, new Date(clockMs));
    const touched = (await xml(`/events?fromModifyDate=${encodeURIComponent(since)}`))['EventList'].Event as X[];
    expect(touched.length).toBe(changed.length + (changed.some((e) => e.EventId === sb.dataset.events[0]!.id) ? 0 : 1));
  });

  it('counts requests per path', async () => {
    const before = sb.requests.count('/api/organisations');
    await get('/organisations');
    await get('/ORGANISATIONS');
    expect(sb.requests.count('/api/organisations')).toBe(before + 2);
    const last = sb.requests[sb.requests.length - 1]!;
    expect(last.headerNames).toContain('apikey');
    expect(last.status).toBe(200);
  });
});

describe('determinism and size', () => {
  it('the same seed and clock give byte-identical XML', async () => {
    // Two fresh sandboxes: the shared one has been mutated by other tests.
    const a = await startSandboxEventor({ seed: 42, now: NOW });
    const b = await startSandboxEventor({ seed: 42, now: NOW });
    try {
      const ev = a.dataset.events.find((e) => e.hasResults && e.shape === 'relay')!;
      for (const path of [
        '/events?includeEntryBreaks=true',
        `/results/event?eventId=${ev.id}&includeSplitTimes=true`,
        `/entries?organisationIds=${a.dataset.homeClub.id}`,
        '/organisations?includeProperties=true',
      ]) {
        const [x, y] = await Promise.all(
          [a, b].map((s) => fetch(`${s.baseUrl}${path}`, { headers: { ApiKey: s.apiKey } }).then((r) => r.text())),
        );
        expect(x!.length, path).toBeGreaterThan(500);
        expect(y, path).toBe(x);
      }
      expect(a.apiKey).toBe(sb.apiKey);
    } finally {
      await a.close();
      await b.close();
    }
    const different = await startSandboxEventor({ seed: 43, now: NOW });
    try {
      expect(different.apiKey).not.toBe(sb.apiKey);
    } finally {
      await different.close();
    }
  });

  it('has the promised variety: districts, clubs, classifications, shapes, statuses', () => {
    const ds = sb.dataset;
    expect(ds.districts.length).toBeGreaterThanOrEqual(3);
    expect(ds.clubs.length).toBeGreaterThanOrEqual(12);
    expect(ds.clubs.some((c) => /[åäöø]/i.test(c.name))).toBe(true);
    expect(new Set(ds.events.map((e) => e.event.classificationId))).toEqual(new Set(['1', '2', '3', '4', '5', '6']));
    expect(new Set(ds.events.map((e) => e.shape))).toEqual(new Set(['single', 'multi', 'relay']));
    const statuses = new Set(ds.events.map((e) => e.event.status));
    for (const s of ['canceled', 'entryOpened', 'entryClosed', 'completed'])
      expect(statuses.has(s as never)).toBe(true);
    expect(ds.events.some((e) => e.hasStartList && !e.hasResults)).toBe(true);
    expect(ds.events.some((e) => (e.event.message ?? '').includes('\n') && (e.event.message ?? '').includes('@'))).toBe(
      true,
    );
    expect(ds.events.some((e) => e.event.organisers.length > 1)).toBe(true);
    const ids = ds.persons.map((p) => p.person.id);
    expect(ds.persons.every((p) => p.competitor.competitorId !== p.person.id)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ds.keyFor(ds.homeClub.id)).toBe(sb.apiKey);
  });

  it("the 'large' knob adds a 20,000-runner multi-day event, generated lazily", async () => {
    const large = await startSandboxEventor({ seed: 42, size: 'large', now: NOW });
    try {
      const big = large.dataset.events.find((e) => e.syntheticRunners > 0)!;
      expect(big.materialized).toBeNull();
      const t0 = Date.now();
      const results = large.dataset.details(big).resultList!;
      const runners = results.classes.reduce((n, c) => n + c.persons.length, 0);
      expect(runners).toBeGreaterThanOrEqual(20_000);
      expect(results.classes[0]!.persons[0]!.results.length).toBe(3);
      expect(Date.now() - t0).toBeLessThan(10_000);
      // Small lists of the same sandbox do not generate the big event.
      const other = large.dataset.events.find((e) => e.syntheticRunners === 0 && e.hasResults)!;
      expect(large.dataset.details(other).resultList).not.toBeNull();
    } finally {
      await large.close();
    }
    expect(sb.dataset.events.some((e) => e.syntheticRunners > 0)).toBe(false);
  });
});

describe('changes over time', () => {
  it('publishing results changes nothing else: entries and the draw stay as they were', () => {
    for (const ev of [pastSingle(), pastRelay()]) {
      // From freshly generated data (earlier tests changed some of it in place).
      ev.materialized = null;
      const before = sb.dataset.details(ev);
      const entries = JSON.stringify(before.entries);
      const starts = JSON.stringify(before.startList);
      ev.hasResults = false;
      ev.materialized = null;
      const hidden = sb.dataset.details(ev);
      expect(hidden.resultList?.classes.flatMap((c) => c.persons).some((p) => p.results.length > 0) ?? false).toBe(
        false,
      );
      expect(JSON.stringify(hidden.entries)).toBe(entries);
      expect(JSON.stringify(hidden.startList)).toBe(starts);
      ev.hasResults = true;
      ev.materialized = null;
      expect(JSON.stringify(sb.dataset.details(ev).entries)).toBe(entries);
    }
  });

  it('a correction is dated by the sandbox clock, so modify-date filters find it', () => {
    const ev = pastSingle();
    const runner = sb.dataset
      .details(ev)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.results[0]?.status === 'OK')!;
    const saved = clockMs;
    clockMs += 3 * 86_400_000;
    try {
      sb.dataset.correctResult(ev.id, runner.person!.id!, { time: 1234 });
      expect(Date.parse(ev.event.modifiedAt!)).toBe(Math.floor(clockMs / 1000) * 1000);
    } finally {
      clockMs = saved;
    }
  });

  it('entries appear as the sandbox clock passes their entry dates, through /entries and /competitorcount', async () => {
    const upcoming = sb.dataset.events.find((ev) => {
      if (!ev.event.start || Date.parse(ev.event.start) <= clockMs || ev.syntheticRunners > 0) return false;
      const all = sb.dataset.details(ev).entries.filter((e) => e.competitor?.organisation?.id === home().id);
      return (
        all.some((e) => Date.parse(e.entryDate!) > clockMs) && all.some((e) => Date.parse(e.entryDate!) <= clockMs)
      );
    });
    if (!upcoming) throw new Error('the sandbox has no upcoming event with club entries both made and still to come');
    const listed = async (): Promise<number> => {
      const doc = await xml(`/entries?organisationIds=${home().id}&eventIds=${upcoming.id}`);
      return ([doc['EntryList'].Entry ?? []].flat() as X[]).length;
    };
    const counted = async (): Promise<number> =>
      Number(
        (await xml(`/competitorcount?organisationIds=${home().id}&eventIds=${upcoming.id}`))['CompetitorCountList']
          .CompetitorCount[0]['@_numberOfEntries'],
      );
    const saved = clockMs;
    const now = await listed();
    expect(await counted()).toBe(now);
    clockMs = Date.parse(upcoming.event.start!);
    try {
      const later = await listed();
      expect(later).toBeGreaterThan(now);
      expect(later).toBe(
        sb.dataset.details(upcoming).entries.filter((e) => e.competitor?.organisation?.id === home().id).length,
      );
      expect(await counted()).toBe(later);
    } finally {
      clockMs = saved;
    }
  });
});
