import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient, type EventorClientOptions } from '../../src/eventor/client.js';
import { InvalidResponse, ValidationError } from '../../src/eventor/errors.js';
import type { RequestEvent } from '../../src/eventor/http.js';
import { customInstance } from '../../src/eventor/instances.js';
import type { Competitor } from '../../src/eventor/answers.js';
import type { Organisation, ResultList } from '../../src/eventor/model.js';
import {
  isComplete,
  OPERATION_NAMES,
  OPERATIONS,
  prepareRequest,
  rootElementName,
} from '../../src/eventor/operations.js';
import { caught } from '../support/errors.js';
import { fetchSyntheticEventor, type SyntheticEventor } from '../support/synthetic-eventor.js';

// Synthetic bodies in Eventor's shapes, written by the sandbox Eventor from its seeded dataset.
// (The real sample files in ../shared/fixtures are for the conformance tests only.)
let synthetic: SyntheticEventor;
beforeAll(async () => {
  synthetic = await fetchSyntheticEventor();
});

/** Sets the Date and Clock of the first `element` (e.g. `StartDate`) of a native document. */
function withDateTime(xml: string, element: string, date: string, clock: string): string {
  const pattern = new RegExp(`<${element}>[\\s\\S]*?</${element}>`);
  if (!pattern.test(xml)) throw new Error(`no <${element}> to set`);
  return xml.replace(pattern, `<${element}><Date>${date}</Date><Clock>${clock}</Clock></${element}>`);
}

/** Synthetic native times: 10:00 wall clock, which is 08:00Z in Stockholm (CEST) and 10:00Z when it is UTC. */
const START = { date: '2026-07-01', clock: '10:00:00' };
const FINISH = { date: '2026-07-01', clock: '15:00:00' };
const withSyntheticTimes = (xml: string) =>
  withDateTime(withDateTime(xml, 'StartDate', START.date, START.clock), 'FinishDate', FINISH.date, FINISH.clock);

const API_KEY = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const PASSWORD = 'S3cret-Passw0rd!';
const LOGIN_URL = 'https://eventor.example/Login/External?token=0b5c9d7e6f1a2b3c4d5e';

const PERSON_XML = `<?xml version="1.0" encoding="utf-8"?>
<Person sex="F"><PersonName><Family>Svensson</Family><Given sequence="1">Anna</Given></PersonName><PersonId>4711</PersonId>
<BirthDate><Date>1990-01-02</Date></BirthDate><OrganisationId>321</OrganisationId></Person>`;
const LOGIN_XML = `<?xml version="1.0" encoding="utf-8"?><ExternalLoginUrl>${LOGIN_URL}</ExternalLoginUrl>`;
const COMPETITOR_XML = (card: string) => `<?xml version="1.0" encoding="utf-8"?>
<Competitor><CompetitorId>99</CompetitorId><PersonId>4711</PersonId><OrganisationId>321</OrganisationId>
<CCard><CCardId>${card}</CCardId><PunchingUnitType value="SI"/></CCard><DisciplineId>1</DisciplineId></Competitor>`;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const cleanups: Array<() => Promise<void>> = [];
/** Exceptions thrown by a test server's handler: answered with 500, and failing the test. */
const handlerErrors: string[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  const errors = handlerErrors.splice(0);
  if (errors.length) throw new Error(`the test server's handler threw:\n${errors.join('\n')}`);
});

async function startServer(handler: (req: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(s);
      try {
        handler(s, res);
      } catch (error) {
        // Never leave the request hanging: answer 500, and let afterEach fail the test.
        const message = `${s.method} ${s.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
        handlerErrors.push(message);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`test server handler failed: ${message}`);
        } else res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { baseUrl, seen };
}

function send(res: ServerResponse, body: string, status = 200) {
  res.writeHead(status, { 'content-type': 'application/xml; charset=utf-8' });
  res.end(body);
}

/** A server that answers each path with a synthetic body, like Eventor would. */
async function fixtureServer(overrides: Record<string, () => string> = {}) {
  const b = synthetic.bodies;
  const byPath: Record<string, () => string> = {
    '/api/events': () => withSyntheticTimes(b.events),
    '/api/events/documents': () => b.eventsDocuments,
    '/api/eventclasses': () => b.eventClasses,
    '/api/organisation/apiKey': () => b.organisationApiKey,
    '/api/entries': () => b.entries,
    '/api/competitorcount': () => b.competitorCount,
    '/api/starts/event': () => b.startsEvent,
    '/api/starts/person': () => b.startsPerson,
    '/api/results/organisation': () => b.resultsOrganisation,
    '/api/results/person': () => b.resultsPerson,
    '/api/results/event/iofxml': () => b.resultsEventIof,
    '/api/starts/event/iofxml': () => b.startsEventIof,
    '/api/authenticatePerson': () => PERSON_XML,
    '/api/externalLoginUrl': () => LOGIN_XML,
    ...overrides,
  };
  return startServer((req, res) => {
    const path = req.url.split('?')[0]!;
    const body =
      byPath[path] ??
      (path.startsWith('/api/event/')
        ? () => withSyntheticTimes(b.event)
        : path.startsWith('/api/entryfees/')
          ? () => b.entryFees
          : path.startsWith('/api/organisation/')
            ? () => b.organisation
            : undefined);
    if (body) send(res, body());
    else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>not found</html>');
    }
  });
}

function client(baseUrl: string, options: Partial<EventorClientOptions> = {}) {
  const c = new EventorClient({
    instance: customInstance(baseUrl),
    apiKey: API_KEY,
    sleep: async () => {},
    ...options,
  });
  cleanups.push(() => c.close());
  return c;
}

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://x').searchParams);
}

describe('operations table', () => {
  it("has every operation of Eventor's API with its method, path and root", () => {
    expect(OPERATION_NAMES).toEqual([
      'events',
      'events-documents',
      'event',
      'eventclasses',
      'entryfees',
      'organisation-apikey',
      'organisations',
      'organisation',
      'persons',
      'competitors',
      'competitor',
      'save-competitor',
      'external-login-url',
      'authenticate-person',
      'entries',
      'competitorcount',
      'starts-event',
      'starts-event-iofxml',
      'starts-person',
      'starts-organisation',
      'results-event',
      'results-event-iofxml',
      'results-person',
      'results-organisation',
      'activities',
      'activity',
    ]);
    expect(OPERATIONS.event.path).toBe('/event/{eventId}');
    expect(OPERATIONS['save-competitor'].method).toBe('PUT');
    expect(OPERATIONS.events.required).toEqual([]);
    expect(OPERATIONS.competitorcount.required).toEqual(['organisationIds']);
    expect(OPERATIONS.activities.required).toEqual(['organisationId', 'from', 'to']);
    // Required in practice although the documentation says optional
    // (docs/eventor.md#required-parameters-the-documentation-marks-optional).
    expect(OPERATIONS['results-event'].required).toEqual(['eventId']);
    expect(OPERATIONS['starts-event'].required).toEqual(['eventId']);
    expect(OPERATIONS['results-person'].required).toEqual(['personId']);
    expect(OPERATIONS['starts-person'].required).toEqual(['personId']);
    expect(OPERATIONS['starts-organisation'].required).toEqual(['organisationIds', 'eventId']);
    expect(OPERATIONS['results-organisation'].required).toEqual(['organisationIds', 'eventId']);
    expect(OPERATIONS['results-event'].note).toContain(
      'docs/eventor.md#required-parameters-the-documentation-marks-optional',
    );
    expect(OPERATIONS.entries.parameterNames).toContain('includeEventElement');
    for (const name of ['external-login-url', 'authenticate-person', 'save-competitor'] as const) {
      expect(OPERATIONS[name].cacheTtlMs).toBe(0);
      expect(OPERATIONS[name].coalesce).toBe(false);
    }
    expect(OPERATIONS.organisations.cacheTtlMs).toBe(24 * 3_600_000);
    expect(OPERATIONS['results-event'].cacheTtlMs).toBe(60_000);
  });

  it('finds the root element and notices a cut-off document', () => {
    expect(rootElementName('\uFEFF<?xml version="1.0"?>\n<!-- c --><iof:ResultList xmlns:iof="x">')).toBe('ResultList');
    expect(isComplete('<?xml version="1.0"?><EventList a="1"><Event/></EventList>\n', 'EventList')).toBe(true);
    expect(isComplete('<?xml version="1.0"?><ResultListList xmlns:xsi="x" />', 'ResultListList')).toBe(true);
    expect(isComplete('<?xml version="1.0"?><EventList><Event/>', 'EventList')).toBe(false);
    expect(isComplete('<?xml version="1.0"?><EventList><Event/></Event', 'EventList')).toBe(false);
  });

  it('normalises parameters into what Eventor expects', () => {
    const events = prepareRequest('events', {
      fromDate: '2026-05-01',
      toDate: new Date('2026-05-31T22:00:00Z'),
      fromModifyDate: '2026-04-01T10:00:00+02:00',
      toModifyDate: '2026-04-02 10:00:00',
      eventIds: [1, '2'],
      organisationIds: '3, 4',
      classificationIds: ['national', 4],
      includeEntryBreaks: 'true',
      includeAttributes: false,
    });
    expect(events).toEqual({
      method: 'GET',
      path: '/events',
      query: {
        fromDate: '2026-05-01 00:00:00',
        toDate: '2026-05-31 22:00:00',
        fromModifyDate: '2026-04-01 08:00:00',
        toModifyDate: '2026-04-02 10:00:00',
        eventIds: '1,2',
        organisationIds: '3,4',
        classificationIds: '2,4',
        includeEntryBreaks: 'true',
        includeAttributes: 'false',
      },
      secretHeaders: {},
      body: undefined,
    });
    expect(prepareRequest('event', { eventId: 123 }).path).toBe('/event/123');
    expect(prepareRequest('organisation', { id: '12' }).path).toBe('/organisation/12');
    // Eventor's ids are digits: a text id would come back as a 400 that names no parameter.
    expect(() => prepareRequest('organisation', { id: 'ab12' })).toThrow(/invalid parameter 'id'.*whole number/);
    expect(
      prepareRequest('activities', { organisationId: 1, from: '2026-05-01', to: new Date('2026-05-31T12:00:00Z') })
        .query,
    ).toEqual({ organisationId: '1', from: '2026-05-01 00:00:00', to: '2026-05-31 23:59:59' });
    expect(prepareRequest('results-event', { eventId: '9', top: '3', includeSplitTimes: true }).query).toEqual({
      eventId: '9',
      top: '3',
      includeSplitTimes: 'true',
    });
    const auth = prepareRequest('authenticate-person', { username: 'anna', password: PASSWORD });
    expect(auth.query).toEqual({});
    expect(auth.secretHeaders).toEqual({ Username: 'anna', Password: PASSWORD });
  });
});

describe('parameter validation: a bad input is a ValidationError naming the parameter, and nothing is sent', () => {
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['events', { fromDate: 'yesterday' }, 'fromDate'],
    ['events', { toDate: new Date(Number.NaN) }, 'toDate'],
    ['events', { fromDate: 20260501 }, 'fromDate'],
    ['events', { eventIds: '1,,2' }, 'eventIds'],
    ['events', { eventIds: '1,2,' }, 'eventIds'],
    ['events', { eventIds: [] }, 'eventIds'],
    ['events', { eventIds: ['1,2'] }, 'eventIds'],
    ['events', { organisationIds: [1.5] }, 'organisationIds'],
    ['events', { classificationIds: '7' }, 'classificationIds'],
    ['events', { includeEntryBreaks: 'yes' }, 'includeEntryBreaks'],
    ['events', { includeAttributes: 1 }, 'includeAttributes'],
    ['events', { fromDate: '2026-06-01', toDate: '2026-05-01' }, 'fromDate'],
    ['events', { fromModifyDate: '2026-06-01T00:00:00Z', toModifyDate: '2026-05-31T23:59:59Z' }, 'fromModifyDate'],
    ['events', { bogus: 1 }, 'bogus'],
    ['events', { eventid: 1 }, 'eventid'],
    ['event', {}, 'eventId'],
    ['event', { eventId: '' }, 'eventId'],
    ['event', { eventId: '  ' }, 'eventId'],
    ['event', { eventId: -1 }, 'eventId'],
    ['event', { eventId: 1.5 }, 'eventId'],
    ['event', { eventId: 'a b' }, 'eventId'],
    ['event', { eventId: true }, 'eventId'],
    ['eventclasses', { eventId: 1, includeEntryFees: 'maybe' }, 'includeEntryFees'],
    ['organisation', {}, 'id'],
    ['persons', { includeContactDetails: true }, 'organisationId'],
    ['competitors', {}, 'organisationId'],
    ['competitor', { competitorId: '' }, 'competitorId'],
    ['external-login-url', { personId: 1 }, 'organisationId'],
    ['authenticate-person', { username: 'anna' }, 'password'],
    ['authenticate-person', { username: 'anna', password: `${PASSWORD}\r\nX-Injected: 1` }, 'password'],
    ['authenticate-person', { username: 'anna', password: `${PASSWORD}\u4e2d` }, 'password'],
    ['authenticate-person', { username: '', password: PASSWORD }, 'username'],
    ['entries', { fromEntryDate: '2026-02-01', toEntryDate: '2026-01-01' }, 'fromEntryDate'],
    ['entries', { eventClassIds: ',' }, 'eventClassIds'],
    ['competitorcount', {}, 'organisationIds'],
    ['competitorcount', { organisationIds: 1, personIds: 'x y' }, 'personIds'],
    ['starts-event', {}, 'eventId'],
    ['starts-event-iofxml', { eventId: 1, eventRaceId: '' }, 'eventRaceId'],
    ['starts-person', {}, 'personId'],
    ['starts-person', { personId: 1, fromDate: '2026-13-01' }, 'fromDate'],
    ['starts-organisation', { organisationIds: 1 }, 'eventId'],
    ['results-event', {}, 'eventId'],
    ['results-event', { eventId: 1, top: 0 }, 'top'],
    ['results-event', { eventId: 1, top: 2.5 }, 'top'],
    ['results-event', { eventId: 1, top: 'ten' }, 'top'],
    ['results-event-iofxml', { eventId: 1, totalResult: 'no' }, 'totalResult'],
    ['results-person', { eventIds: 1 }, 'personId'],
    ['results-organisation', { eventId: 1 }, 'organisationIds'],
    ['results-organisation', { organisationIds: 1, eventId: 2, top: -1 }, 'top'],
    ['activities', { organisationId: 1, from: '2026-05-01' }, 'to'],
    ['activities', { organisationId: 1, from: '2026-05-10', to: '2026-05-01' }, 'from'],
    ['activity', { organisationId: 1 }, 'id'],
    ['save-competitor', { competitor: {} }, 'competitor'],
    ['save-competitor', { competitor: '{not json' }, 'competitor'],
  ];

  it('rejects every kind of bad input before sending anything', async () => {
    const server = await fixtureServer();
    const c = client(server.baseUrl);
    for (const [name, params, parameter] of bad) {
      const error = await caught(c.call(name, params));
      expect(error, `${name} ${JSON.stringify(params)}`).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).parameter, `${name} ${JSON.stringify(params)}`).toBe(parameter);
      expect(error.message).toContain(parameter);
      expect(error.message).not.toContain(PASSWORD);
    }
    const unknownOp = await caught(c.call('nope', {}));
    expect(unknownOp).toBeInstanceOf(ValidationError);
    expect(server.seen).toHaveLength(0);
  });
});

describe('EventorClient against a loopback server', () => {
  it('sends normalised parameters and parses the answer', async () => {
    const server = await fixtureServer();
    const c = client(server.baseUrl);
    const events = await c.events({
      fromDate: '2026-05-01',
      toDate: '2026-05-31',
      organisationIds: [15, 16],
      classificationIds: 'district',
      includeEntryBreaks: true,
    });
    expect(events.map((e) => e.id)).toEqual(synthetic.facts.eventIds);
    // It asked for UTC, so the synthetic 10:00 and 15:00 are read as UTC.
    expect(events[0]!.start).toBe('2026-07-01T10:00:00Z');
    expect(events[0]!.finish).toBe('2026-07-01T15:00:00Z');
    const q = query(server.seen[0]!.url);
    expect(q).toEqual({
      fromDate: '2026-05-01 00:00:00',
      toDate: '2026-05-31 23:59:59',
      organisationIds: '15,16',
      classificationIds: '3',
      includeEntryBreaks: 'true',
    });
    expect(server.seen[0]!.headers['apikey']).toBe(API_KEY);
    expect(server.seen[0]!.headers['timezone']).toBe('UTC');
  });

  it('parses native times as UTC when it asked for UTC, else in the instance zone', async () => {
    const server = await fixtureServer();
    const utc = await client(server.baseUrl).event({ eventId: 1 });
    const stockholm = await client(server.baseUrl, {
      instance: customInstance(server.baseUrl, { supportsUtcHeader: false, nativeTimeZone: 'Europe/Stockholm' }),
    }).event({ eventId: 1 });
    expect(utc.id).toBe(synthetic.facts.event.id);
    expect(utc.name).toBe(synthetic.facts.event.name);
    // <StartDate><Date>2026-07-01</Date><Clock>10:00:00</Clock></StartDate>, FinishDate at 15:00.
    expect(utc.start).toBe('2026-07-01T10:00:00Z');
    expect(utc.finish).toBe('2026-07-01T15:00:00Z');
    expect(stockholm.start).toBe('2026-07-01T08:00:00Z');
    expect(stockholm.finish).toBe('2026-07-01T13:00:00Z');
    expect(server.seen[0]!.headers['timezone']).toBe('UTC');
    expect(server.seen[1]!.headers['timezone']).toBeUndefined();
  });

  it('sends Username and Password as headers only, and never shares an authentication request', async () => {
    const server = await fixtureServer();
    const events: RequestEvent[] = [];
    const c = client(server.baseUrl, { onRequest: (e) => events.push(e) });
    const [a, b] = await Promise.all([
      c.authenticatePerson({ username: 'anna', password: PASSWORD }),
      c.authenticatePerson({ username: 'anna', password: PASSWORD }),
    ]);
    expect(a.id).toBe('4711');
    expect(b.name.family).toBe('Svensson');
    expect(server.seen).toHaveLength(2);
    for (const s of server.seen) {
      expect(s.url).toBe('/api/authenticatePerson');
      expect(s.headers['username']).toBe('anna');
      expect(s.headers['password']).toBe(PASSWORD);
    }
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it('returns login links uncached, unshared and unlogged', async () => {
    const server = await fixtureServer();
    const events: RequestEvent[] = [];
    const c = client(server.baseUrl, { onRequest: (e) => events.push(e) });
    const links = await Promise.all([
      c.externalLoginUrl({ personId: 4711, organisationId: 321 }),
      c.externalLoginUrl({ personId: 4711, organisationId: 321 }),
    ]);
    expect(links).toEqual([LOGIN_URL, LOGIN_URL]);
    await c.externalLoginUrl({ personId: 4711, organisationId: 321 });
    expect(server.seen).toHaveLength(3);
    expect(query(server.seen[0]!.url)).toEqual({ personId: '4711', organisationId: '321' });
    expect(JSON.stringify(events)).not.toContain('token');
  });

  it('keeps a login link out of the error when its answer cannot be read', async () => {
    const server = await fixtureServer({
      '/api/externalLoginUrl': () =>
        `<?xml version="1.0"?><ExternalLoginUrl><Oops>${LOGIN_URL}</Oops><ExternalLoginUrl>`,
    });
    const c = client(server.baseUrl);
    const error = await caught(c.externalLoginUrl({ personId: 1, organisationId: 2 }));
    expect(error).toBeInstanceOf(InvalidResponse);
    expect(`${error.message} ${error.stack} ${String(error.cause)}`).not.toContain('token');
  });

  it('rejects a wrong root, a truncated and a malformed document as InvalidResponse', async () => {
    const list = synthetic.bodies.events;
    let body = synthetic.bodies.event;
    const server = await fixtureServer({ '/api/events': () => body });
    const c = client(server.baseUrl, { cache: false });
    const wrongRoot = await caught(c.events());
    expect(wrongRoot).toBeInstanceOf(InvalidResponse);
    expect(wrongRoot.message).toContain('EventList');
    body = list.slice(0, Math.floor(list.length / 2));
    expect(await caught(c.events())).toBeInstanceOf(InvalidResponse);
    body = '<?xml version="1.0"?><EventList><Event><EventId>1</EventId><Name>x</Event></EventList>';
    expect(await caught(c.events())).toBeInstanceOf(InvalidResponse);
  });

  it('returns the IOF XML text with the parsed list', async () => {
    const server = await fixtureServer();
    const c = client(server.baseUrl);
    const results = await c.eventResultsIof({
      eventId: 1,
      eventRaceId: 2,
      includeSplitTimes: true,
      totalResult: false,
    });
    expect(results.xml).toContain('datastandard/3.0');
    expect(results.xml).toBe(synthetic.bodies.resultsEventIof);
    expect(results.list.event.id).toBe(synthetic.facts.iofResults.eventId);
    expect(results.list.classes.map((k) => k.class.name)).toEqual(synthetic.facts.iofResults.classNames);
    expect(query(server.seen[0]!.url)).toEqual({
      eventId: '1',
      eventRaceId: '2',
      includeSplitTimes: 'true',
      totalResult: 'false',
    });
    const starts = await c.eventStartsIof({ eventId: 1 });
    expect(starts.xml).toContain('<StartList');
    expect(starts.list.event.id).toBe(synthetic.facts.iofStarts.eventId);
    expect(starts.list.classes.map((k) => k.class.name)).toEqual(synthetic.facts.iofStarts.classNames);
  });

  it('PUTs competitor settings as XML and drops the cached competitor', async () => {
    let card = '111111';
    const server = await startServer((req, res) => {
      if (req.method === 'PUT') {
        card = /<CCardId>(\d+)<\/CCardId>/.exec(req.body)?.[1] ?? card;
        send(res, COMPETITOR_XML(card));
      } else send(res, COMPETITOR_XML(card));
    });
    const c = client(server.baseUrl);
    const before = await c.competitor({ competitorId: 99 });
    expect(before.cards[0]!.number).toBe('111111');
    await c.competitor({ competitorId: 99 });
    expect(server.seen).toHaveLength(1);
    const changed: Competitor = { ...before, cards: [{ number: '222222', type: 'SI' }] };
    const saved = await c.saveCompetitor(changed);
    expect(saved.cards[0]!.number).toBe('222222');
    const put = server.seen[1]!;
    expect(put.method).toBe('PUT');
    expect(put.url).toBe('/api/competitor');
    expect(put.headers['content-type']).toMatch(/^application\/xml/);
    expect(put.body).toContain('<CCardId>222222</CCardId>');
    const after = await c.competitor({ competitorId: 99 });
    expect(after.cards[0]!.number).toBe('222222');
    expect(server.seen).toHaveLength(3);
  });

  it('coalesces identical calls and caches them, saying so in callWithMeta', async () => {
    const server = await fixtureServer();
    const c = client(server.baseUrl);
    const all = await Promise.all(Array.from({ length: 4 }, () => c.callWithMeta('organisation-apikey')));
    expect(server.seen).toHaveLength(1);
    expect(all.filter((r) => r.meta.coalesced)).toHaveLength(3);
    const again = await c.callWithMeta('organisation-apikey');
    expect(again.meta.fromCache).toBe(true);
    expect(again.data).toEqual(all[0]!.data);
    expect((again.data as Organisation).id).toBe(synthetic.facts.homeClub.id);
    expect((again.data as Organisation).name).toBe(synthetic.facts.homeClub.name);
    expect(server.seen).toHaveLength(1);
  });

  it('takes CLI-style string parameters in call()', async () => {
    const server = await fixtureServer();
    const c = client(server.baseUrl);
    const personId = synthetic.facts.resultsPersonId;
    const list = await c.call('results-person', {
      personId,
      fromDate: '2026-01-01',
      toDate: '2026-12-31',
      includeSplitTimes: 'true',
      top: '3',
    });
    // One parsed list per <ResultList> of the synthetic body, in its order.
    const served = [
      ...synthetic.bodies.resultsPerson.matchAll(/<ResultList\b[^>]*>\s*<Event\b[^>]*>\s*<EventId>(\d+)<\/EventId>/g),
    ].map((m) => m[1]);
    expect(served.length).toBeGreaterThan(0);
    expect((list as ResultList[]).map((r) => r.event.id)).toEqual(served);
    expect(query(server.seen[0]!.url)).toEqual({
      personId,
      fromDate: '2026-01-01 00:00:00',
      toDate: '2026-12-31 23:59:59',
      includeSplitTimes: 'true',
      top: '3',
    });
  });

  it('does not show the API key when the client is inspected or serialised', async () => {
    const server = await fixtureServer();
    const c = client(server.baseUrl);
    const own = await c.organisationForApiKey();
    expect(own.id).toBe(synthetic.facts.homeClub.id);
    expect(inspect(c, { depth: 4 })).not.toContain(API_KEY);
    expect(JSON.stringify({ instance: c.instance })).not.toContain(API_KEY);
  });
});
