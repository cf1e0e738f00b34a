/**
 * The client against the sandbox Eventor: every operation with its filters, the own-organisation
 * rule, the PUT round trip, login links, and the transport against injected faults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient, type EventorClientOptions } from '../../src/eventor/client.js';
import {
  AuthenticationFailed,
  InvalidApiKey,
  InvalidResponse,
  NotFound,
  RateLimited,
  Timeout,
  Upstream,
} from '../../src/eventor/errors.js';
import type { RequestEvent } from '../../src/eventor/http.js';
import { customInstance } from '../../src/eventor/instances.js';
import { startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { caught } from '../support/errors.js';

type Sandbox = Awaited<ReturnType<typeof startSandboxEventor>>;

const NOW = new Date('2026-05-15T10:00:00Z');
let sandbox: Sandbox;
let c: EventorClient;
const events: RequestEvent[] = [];
const clients: EventorClient[] = [];

function makeClient(options: Partial<EventorClientOptions> = {}): EventorClient {
  const client = new EventorClient({
    instance: customInstance(sandbox.baseUrl),
    apiKey: sandbox.apiKey,
    sleep: async () => {},
    onRequest: (e) => events.push(e),
    ...options,
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  sandbox = await startSandboxEventor({ port: 0, seed: 7, now: NOW });
  c = makeClient();
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await sandbox?.close();
});

const home = () => sandbox.dataset.homeClub;
const eventWith = (pred: (e: Sandbox['dataset']['events'][number]) => boolean) => {
  const ev = sandbox.dataset.events.find(pred);
  if (!ev) throw new Error('no such sandbox event');
  return ev;
};

describe('EventorClient against the sandbox: organisations and persons', () => {
  it('finds the organisation of the key, all organisations and one', async () => {
    const own = await c.organisationForApiKey();
    expect(own.id).toBe(home().id);
    const all = await c.organisations({ includeProperties: true });
    expect(all.length).toBe(sandbox.dataset.organisations.length);
    const district = sandbox.dataset.districts[0]!;
    const one = await c.organisation({ id: district.id });
    expect(one.kind).toBe('district');
    expect(one.name).toBe(district.name);
  });

  it('lists the members and their competitor settings', async () => {
    const persons = await c.persons({
      organisationId: home().id,
      includeContactDetails: true,
      includePersonIdentifiers: true,
    });
    expect(persons.length).toBe(home().members.length);
    const competitors = await c.competitors({ organisationId: home().id });
    expect(competitors.length).toBe(home().members.filter((m) => m.hasSettings).length);
  });

  it("answers 403 for another organisation's members", async () => {
    const other = sandbox.dataset.clubs[1]!;
    expect(await caught(c.persons({ organisationId: other.id }))).toBeInstanceOf(InvalidApiKey);
    expect(await caught(c.competitors({ organisationId: other.id }))).toBeInstanceOf(InvalidApiKey);
  });

  it('saves competitor settings with a PUT, and competitor() shows the change', async () => {
    const member = home().members.find((m) => m.competitor.competitorId !== null)!;
    const competitorId = member.competitor.competitorId!;
    const before = await c.competitor({ competitorId });
    const number = String(8_000_000 + Math.floor(Math.random() * 100_000));
    const saved = await c.saveCompetitor({ ...before, cards: [{ number, type: 'SI' }] });
    expect(saved.cards.map((x) => x.number)).toEqual([number]);
    const after = await c.competitor({ competitorId });
    expect(after.cards.map((x) => x.number)).toEqual([number]);
    const list = await c.competitors({ organisationId: home().id });
    expect(list.find((x) => x.competitorId === competitorId)?.cards.map((x) => x.number)).toEqual([number]);
  });

  it('returns a login link, and never reports it', async () => {
    const member = home().members[0]!;
    const url = await c.externalLoginUrl({ personId: member.person.id!, organisationId: home().id });
    expect(url).toMatch(/^https?:\/\//);
    expect(JSON.stringify(events)).not.toContain(url);
  });

  it('authenticates a person by user name and password, and refuses a wrong password', async () => {
    const member = home().members[0]!;
    const person = await c.authenticatePerson({ username: member.username, password: member.password });
    expect(person.id).toBe(member.person.id);
    const error = await caught(c.authenticatePerson({ username: member.username, password: `${member.password}x` }));
    expect(error).toBeInstanceOf(AuthenticationFailed);
    const text = `${error.message} ${error.stack} ${JSON.stringify(events)}`;
    expect(text).not.toContain(member.password);
    const logged = sandbox.requests.filter((r) => r.path.toLowerCase() === '/api/authenticateperson');
    expect(logged.length).toBe(2);
    for (const r of logged) {
      expect(r.query).toEqual({});
      expect(r.headerNames).toEqual(expect.arrayContaining(['username', 'password', 'apikey', 'user-agent']));
    }
  });
});

describe('EventorClient against the sandbox: events', () => {
  it('lists every event, and filters by district, classification and date range', async () => {
    const all = await c.events();
    expect(all.length).toBe(sandbox.dataset.events.length);

    const district = sandbox.dataset.districts[0]!;
    const clubs = new Set(sandbox.dataset.expandOrganisation(district.id));
    const byDistrict = await c.events({ organisationIds: [district.id] });
    expect(byDistrict.length).toBeGreaterThan(0);
    expect(byDistrict.length).toBeLessThan(all.length);
    const expected = sandbox.dataset.events
      .filter((e) => e.event.organisers.some((o) => o.id !== null && clubs.has(o.id)))
      .map((e) => e.id)
      .sort();
    expect(byDistrict.map((e) => e.id).sort()).toEqual(expected);

    const national = await c.events({ classificationIds: ['national'] });
    expect(national.length).toBeGreaterThan(0);
    expect(national.every((e) => e.classification === 'national')).toBe(true);

    const from = '2026-05-01';
    const to = '2026-06-30';
    const ranged = await c.events({ fromDate: from, toDate: to, includeEntryBreaks: true, includeAttributes: true });
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged.length).toBeLessThan(all.length);
    for (const e of ranged) {
      expect(e.start! <= '2026-06-30T23:59:59Z').toBe(true);
      expect((e.finish ?? e.start)! >= '2026-05-01T00:00:00Z').toBe(true);
    }
    expect(ranged.some((e) => e.entryBreaks.length > 0)).toBe(true);
  });

  it('reads one event, its documents, classes and fees', async () => {
    const ev = eventWith((e) => e.fees.length > 0 && e.documents.length > 0);
    const one = await c.event({ eventId: ev.id });
    expect(one.name).toBe(ev.name);
    expect(one.start).toBe(ev.event.start);
    const docs = await c.eventDocuments({ eventIds: [ev.id] });
    expect(docs.length).toBe(ev.documents.length);
    expect(docs.every((d) => d.eventId === ev.id)).toBe(true);
    const classes = await c.eventClasses({ eventId: ev.id, includeEntryFees: true });
    expect(classes.length).toBeGreaterThan(0);
    expect(classes.some((k) => k.entryFeeIds.length > 0)).toBe(true);
    const fees = await c.entryFees({ eventId: ev.id });
    expect(fees.map((f) => f.id).sort()).toEqual(ev.fees.map((f) => f.id).sort());
    expect(await caught(c.event({ eventId: 99_999_999 }))).toBeInstanceOf(NotFound);
  });

  it('reads the same instants whether it asks for UTC or parses the local times of the instance', async () => {
    const ev = eventWith((e) => e.event.start !== null);
    const local = makeClient({
      instance: customInstance(sandbox.baseUrl, { supportsUtcHeader: false, nativeTimeZone: 'Europe/Stockholm' }),
    });
    const [utc, native] = await Promise.all([c.event({ eventId: ev.id }), local.event({ eventId: ev.id })]);
    expect(native.start).toBe(utc.start);
    expect(native.finish).toBe(utc.finish);
    expect(native.entryBreaks).toEqual(utc.entryBreaks);
  });

  it('lists entries and counts them', async () => {
    const ev = eventWith((e) => e.hasStartList);
    const entries = await c.entries({
      organisationIds: home().id,
      eventIds: ev.id,
      includePersonElement: true,
      includeOrganisationElement: true,
      includeEventElement: true,
    });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.event.id === ev.id)).toBe(true);
    const counts = await c.competitorCount({ organisationIds: [home().id], eventIds: [ev.id] });
    expect(counts.length).toBeGreaterThan(0);
    expect(counts[0]!.eventId).toBe(ev.id);
    const ranged = await c.entries({
      organisationIds: home().id,
      fromEventDate: '2026-01-01',
      toEventDate: '2026-12-31',
      includeEntryFees: true,
    });
    expect(ranged.length).toBeGreaterThan(entries.length);
  });
});

describe('EventorClient against the sandbox: starts and results', () => {
  it('reads start lists per event (native and IOF), person and organisation', async () => {
    const ev = eventWith((e) => e.hasStartList && e.shape === 'single');
    const list = await c.eventStarts({ eventId: ev.id });
    expect(list.classes.length).toBeGreaterThan(0);
    const iof = await c.eventStartsIof({ eventId: ev.id });
    expect(iof.xml).toContain('datastandard/3.0');
    expect(iof.list.classes.length).toBe(list.classes.length);
    const own = await c.organisationStarts({ organisationIds: home().id, eventId: ev.id });
    expect(own.classes.length).toBeGreaterThan(0);
    expect(own.classes.length).toBeLessThanOrEqual(list.classes.length);
    const member = home().members[0]!;
    const person = await c.personStarts({ personId: member.person.id!, fromDate: '2025-01-01', toDate: '2027-01-01' });
    expect(person.length).toBeGreaterThan(0);
  });

  it('reads result lists per event (native, top, splits, IOF), person and organisation', async () => {
    const ev = eventWith((e) => e.hasResults && e.shape === 'single');
    const full = await c.eventResults({ eventId: ev.id });
    expect(full.classes.length).toBeGreaterThan(0);
    const top = await c.eventResults({ eventId: ev.id, top: 1, includeSplitTimes: true });
    const count = (l: typeof full) => l.classes.reduce((n, k) => n + k.persons.length + k.teams.length, 0);
    expect(count(top)).toBeLessThan(count(full));
    expect(top.classes.every((k) => k.persons.length <= 1)).toBe(true);
    const iof = await c.eventResultsIof({ eventId: ev.id, includeSplitTimes: true, totalResult: false });
    expect(iof.list.classes.length).toBe(full.classes.length);
    const own = await c.organisationResults({ organisationIds: [home().id], eventId: ev.id, top: 3 });
    expect(own.classes.length).toBeGreaterThan(0);
    const member = home().members[0]!;
    const mine = await c.personResults({
      personId: member.person.id!,
      fromDate: '2025-01-01',
      toDate: '2026-05-15',
      includeSplitTimes: true,
      top: 2,
    });
    expect(mine.length).toBeGreaterThan(0);
  });
});

describe('EventorClient against the sandbox: activities', () => {
  it('lists activities of a period and reads one with its registrations', async () => {
    const list = await c.activities({
      organisationId: home().id,
      from: '2026-01-01',
      to: '2026-12-31',
      includeRegistrations: true,
    });
    expect(list.length).toBeGreaterThan(0);
    expect(list.some((a) => a.registrations.length > 0)).toBe(true);
    const one = await c.activity({ organisationId: home().id, id: list[0]!.id, includeRegistrations: true });
    expect(one.id).toBe(list[0]!.id);
    expect(one.name).toBe(list[0]!.name);
  });
});

describe('EventorClient against the sandbox: faults', () => {
  it('refuses a wrong API key with InvalidApiKey', async () => {
    const wrong = makeClient({ apiKey: '00000000000000000000000000000000' });
    expect(await caught(wrong.organisationForApiKey())).toBeInstanceOf(InvalidApiKey);
  });

  it('retries 503 and 429 and then succeeds', async () => {
    const fresh = makeClient({ cache: false });
    sandbox.faults.add({ path: '/api/organisations', kind: 'status', status: 503, times: 2 });
    expect((await fresh.organisations()).length).toBeGreaterThan(0);
    sandbox.faults.add({ path: '/api/organisations', kind: 'rateLimit', retryAfter: 1, times: 1 });
    const sleeps: number[] = [];
    const timed = makeClient({
      cache: false,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expect((await timed.organisations()).length).toBeGreaterThan(0);
    expect(sleeps).toEqual([1000]);
    sandbox.faults.clear();
  });

  it('reports exhausted retries as typed errors', async () => {
    const fresh = makeClient({ cache: false, retries: 1 });
    sandbox.faults.add({ path: '/api/organisations', kind: 'status', status: 520 });
    const upstream = await caught(fresh.organisations());
    expect(upstream).toBeInstanceOf(Upstream);
    expect((upstream as Upstream).status).toBe(520);
    sandbox.faults.clear();
    sandbox.faults.add({ path: '/api/organisations', kind: 'rateLimit', retryAfter: 2 });
    expect(await caught(fresh.organisations())).toBeInstanceOf(RateLimited);
    sandbox.faults.clear();
  });

  it('rejects a maintenance page, a truncated and a malformed document', async () => {
    const fresh = makeClient({ cache: false, retries: 0 });
    for (const kind of ['maintenance', 'truncate', 'malformed'] as const) {
      sandbox.faults.add({ path: '/api/events', kind, times: 1 });
      const error = await caught(fresh.events());
      expect(error, kind).toBeInstanceOf(InvalidResponse);
    }
    sandbox.faults.clear();
  });

  it('times out a hanging answer', async () => {
    const fresh = makeClient({ cache: false, timeoutMs: 200 });
    sandbox.faults.add({ path: '/api/events', kind: 'hang', times: 1 });
    expect(await caught(fresh.events())).toBeInstanceOf(Timeout);
    sandbox.faults.clear();
  });

  it('serves stale data when Eventor fails after the entry expired', async () => {
    let now = NOW.getTime();
    const cached = makeClient({ now: () => now, retries: 0 });
    const first = await cached.callWithMeta('organisation', { id: home().id });
    expect(first.meta.stale).toBe(false);
    now += 25 * 3_600_000;
    sandbox.faults.add({ path: '/api/organisation/*', kind: 'status', status: 503 });
    const second = await cached.callWithMeta('organisation', { id: home().id });
    expect(second.meta.stale).toBe(true);
    expect(second.data).toEqual(first.data);
    sandbox.faults.clear();
  });

  it('never reports the API key in an event', () => {
    expect(events.length).toBeGreaterThan(20);
    expect(JSON.stringify(events)).not.toContain(sandbox.apiKey);
  });
});
