/**
 * One shared response cache for the clients of one Eventor instance: public answers are fetched
 * once for every club's key, each key's own answers stay with it, and a key Eventor refuses
 * neither fails nor feeds other keys. Real clients against the sandbox Eventor over HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventorAccess } from '../../src/club/eventor-access.js';
import { botConfigFromEnv } from '../../src/bot/config.js';
import { EventorClient, type EventorClientOptions } from '../../src/eventor/client.js';
import { InvalidApiKey } from '../../src/eventor/errors.js';
import { SharedResponseCache } from '../../src/eventor/http.js';
import { customInstance } from '../../src/eventor/instances.js';
import { OPERATION_NAMES, OPERATIONS } from '../../src/eventor/operations.js';
import { createLogger } from '../../src/log/logger.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import type { Store } from '../../src/store/interfaces.js';
import { caught } from '../support/errors.js';

const NOW = new Date('2026-05-15T10:00:00Z');
let sandbox: SandboxEventor;
let shared: SharedResponseCache;
const clients: EventorClient[] = [];

beforeEach(async () => {
  sandbox = await startSandboxEventor({ port: 0, seed: 5, now: NOW });
  shared = new SharedResponseCache();
});

afterEach(async () => {
  while (clients.length > 0) await clients.pop()!.close();
  await sandbox.close();
});

const clubs = () => sandbox.dataset.clubs;

/** A client of the sandbox with the key of the club at `index` (0 is the home club). */
function clientOf(index: number, options: Partial<EventorClientOptions> = {}): EventorClient {
  const client = new EventorClient({
    instance: customInstance(sandbox.baseUrl),
    apiKey: sandbox.dataset.keyFor(clubs()[index]!.id),
    shared,
    sleep: async () => {},
    ...options,
  });
  clients.push(client);
  return client;
}

const count = (path: string) => sandbox.requests.count(path);
const range = { fromDate: '2026-05-01', toDate: '2026-06-30' };

describe('which operations are key-independent', () => {
  it('marks exactly the public reads, and every operation says which it is', () => {
    const independent = OPERATION_NAMES.filter((name) => OPERATIONS[name].keyIndependent).sort();
    expect(independent).toEqual([
      'entryfees',
      'event',
      'eventclasses',
      'events',
      'events-documents',
      'organisations',
      'results-event',
      'results-event-iofxml',
      'starts-event',
      'starts-event-iofxml',
    ]);
    expect(OPERATIONS.organisations.keyBoundWith).toEqual(['includeProperties']);
    for (const name of [
      'organisation-apikey',
      'persons',
      'competitors',
      'competitor',
      'save-competitor',
      'external-login-url',
      'authenticate-person',
      'starts-organisation',
      'results-organisation',
      'starts-person',
      'results-person',
      'activities',
      'activity',
    ] as const) {
      expect(OPERATIONS[name].keyIndependent, name).toBe(false);
    }
  });
});

describe('clients of different clubs sharing one cache', () => {
  it('make one request for a public operation and one each for a key-bound one', async () => {
    const a = clientOf(0);
    const b = clientOf(1);
    const listA = await a.events(range);
    const listB = await b.events(range);
    expect(count('/api/events')).toBe(1);
    expect(listB).toEqual(listA);
    // One frozen answer for both clubs, not a copy each.
    expect(listB).toBe(listA);
    expect(Object.isFrozen(listB[0])).toBe(true);

    const ev = listA[0]!;
    await a.event({ eventId: ev.id });
    const meta = await b.callWithMeta('event', { eventId: ev.id });
    expect(meta.meta.fromCache).toBe(true);
    expect(count(`/api/event/${ev.id}`)).toBe(1);

    // What the key itself is, and each club's own data, are asked with each key.
    expect((await a.organisationForApiKey()).id).toBe(clubs()[0]!.id);
    expect((await b.organisationForApiKey()).id).toBe(clubs()[1]!.id);
    await a.organisationForApiKey();
    await b.organisationForApiKey();
    expect(count('/api/organisation/apiKey')).toBe(2);
    const ownA = await a.activities({ organisationId: clubs()[0]!.id, from: '2026-05-01', to: '2026-06-30' });
    const ownB = await b.activities({ organisationId: clubs()[1]!.id, from: '2026-05-01', to: '2026-06-30' });
    expect(count('/api/activities')).toBe(2);
    expect(ownA.every((x) => x.organisationId === clubs()[0]!.id)).toBe(true);
    expect(ownB.every((x) => x.organisationId === clubs()[1]!.id)).toBe(true);

    // The same key-bound question with another key is still its own request (and its own answer).
    await a.organisation({ id: clubs()[0]!.id });
    await b.organisation({ id: clubs()[0]!.id });
    expect(count(`/api/organisation/${clubs()[0]!.id}`)).toBe(2);
    await a.organisations();
    await b.organisations();
    expect(count('/api/organisations')).toBe(1);
    await a.organisations({ includeProperties: true });
    await b.organisations({ includeProperties: true });
    expect(count('/api/organisations')).toBe(3);
  });

  it('a key-bound answer is never served to another key, even for the same URL', async () => {
    const a = clientOf(0);
    const b = clientOf(1);
    await a.competitors({ organisationId: clubs()[0]!.id });
    // The same URL with another club's key: Eventor refuses it (own organisation only).
    expect(await caught(b.competitors({ organisationId: clubs()[0]!.id }))).toBeInstanceOf(InvalidApiKey);
    expect(count('/api/competitors')).toBe(2);
  });

  it("coalesces concurrent identical public requests across keys, no caller able to change another's answer", async () => {
    const ev = sandbox.dataset.events.find((e) => e.hasResults && e.syntheticRunners === 0)!;
    sandbox.faults.add({ path: '/api/results/event', kind: 'latency', ms: 150 });
    const [a, b, c] = [clientOf(0), clientOf(1), clientOf(2)];
    const answers = await Promise.all(
      [a, b, c].map((client) => client.callWithMeta('results-event', { eventId: ev.id })),
    );
    expect(count('/api/results/event')).toBe(1);
    expect(answers.filter((x) => x.meta.coalesced)).toHaveLength(2);
    expect(answers[1]!.data).toEqual(answers[0]!.data);
    // One caller cannot change the answer: neither the others' nor the cached one changes.
    expect(() => {
      (answers[0]!.data.classes as unknown[]).length = 0;
    }).toThrow(TypeError);
    expect(answers[1]!.data.classes.length).toBeGreaterThan(0);
    expect((await c.eventResults({ eventId: ev.id })).classes.length).toBe(answers[2]!.data.classes.length);
    expect(count('/api/results/event')).toBe(1);
  });

  it("a refused key's failure does not reach other keys waiting on the same request", async () => {
    const a = clientOf(0);
    const b = clientOf(1);
    const c = clientOf(2);
    await a.organisationForApiKey();
    sandbox.dataset.revokeKey(clubs()[0]!.id);
    sandbox.faults.add({ path: '/api/events', kind: 'latency', ms: 150 });
    // A leads (its key is not known to be refused yet); B and C join its request.
    const pa = a.events(range);
    const pb = b.callWithMeta('events', range);
    const pc = c.callWithMeta('events', range);
    expect(await caught(pa)).toBeInstanceOf(InvalidApiKey);
    const [rb, rc] = await Promise.all([pb, pc]);
    expect(rb.data.length).toBeGreaterThan(0);
    expect(rc.data).toEqual(rb.data);
    // A's 403, then one request with B's or C's key that the other joined.
    expect(sandbox.requests.filter((r) => r.path === '/api/events').map((r) => r.status)).toEqual([403, 200]);

    // The refused key is not served the cached answer (that would hide the refusal) ...
    expect(await caught(a.events(range))).toBeInstanceOf(InvalidApiKey);
    expect(count('/api/events')).toBe(3);
    // ... while the others still are.
    expect((await b.callWithMeta('events', range)).meta.fromCache).toBe(true);
    expect(count('/api/events')).toBe(3);

    // Once Eventor accepts the key again, it shares again.
    sandbox.dataset.restoreKey(clubs()[0]!.id);
    await a.events(range);
    expect(count('/api/events')).toBe(4);
    expect((await a.callWithMeta('events', range)).meta.fromCache).toBe(true);
    expect(count('/api/events')).toBe(4);
  });

  it("a refused key joining another key's request does not fail it either", async () => {
    const a = clientOf(0);
    const b = clientOf(1);
    sandbox.dataset.revokeKey(clubs()[1]!.id);
    await caught(b.organisationForApiKey());
    sandbox.faults.add({ path: '/api/events', kind: 'latency', ms: 100 });
    // B is known refused: it does not join A's request and asks with its own key.
    const [ra, rb] = await Promise.allSettled([a.events(range), b.events(range)]);
    expect(ra.status).toBe('fulfilled');
    expect(rb.status === 'rejected' && rb.reason instanceof InvalidApiKey).toBe(true);
    expect(count('/api/events')).toBe(2);
  });

  it("one key's rate limit is not another key's either", async () => {
    const a = clientOf(0, { retries: 0 });
    const b = clientOf(1, { retries: 0 });
    sandbox.faults.add({ path: '/api/events', kind: 'latency', ms: 100 });
    sandbox.faults.add({ path: '/api/events', kind: 'rateLimit', times: 1 });
    const [ra, rb] = await Promise.allSettled([a.events(range), b.events(range)]);
    expect(ra.status).toBe('rejected');
    expect(rb.status).toBe('fulfilled');
    expect(sandbox.requests.filter((r) => r.path === '/api/events').map((r) => r.status)).toEqual([429, 200]);
  });

  it("a PUT drops its key's cached competitor answers and leaves the public ones", async () => {
    const a = clientOf(0);
    const b = clientOf(1);
    const member = clubs()[0]!.members.find((m) => m.competitor.competitorId !== null)!;
    const competitorId = member.competitor.competitorId!;
    const otherMember = clubs()[1]!.members.find((m) => m.competitor.competitorId !== null)!;
    await a.events(range);
    const before = await a.competitor({ competitorId });
    await b.competitor({ competitorId: otherMember.competitor.competitorId! });
    await a.competitor({ competitorId });
    expect(count(`/api/competitor/${competitorId}`)).toBe(1);

    const saved = await a.saveCompetitor({ ...before, cards: [{ number: '7654321', type: 'SI' }] });
    expect(saved.cards.map((x) => x.number)).toEqual(['7654321']);
    const after = await a.competitor({ competitorId });
    expect(after.cards.map((x) => x.number)).toEqual(['7654321']);
    expect(count(`/api/competitor/${competitorId}`)).toBe(2);
    // The other club's own answer and the public one were not touched.
    await b.competitor({ competitorId: otherMember.competitor.competitorId! });
    expect(count(`/api/competitor/${otherMember.competitor.competitorId!}`)).toBe(1);
    await b.events(range);
    expect(count('/api/events')).toBe(1);
  });

  it('serves a stale public answer to every key when Eventor fails transiently', async () => {
    let now = NOW.getTime();
    const a = clientOf(0, { now: () => now, retries: 0 });
    const b = clientOf(1, { now: () => now, retries: 0 });
    const list = await a.events(range);
    now += 11 * 60_000;
    sandbox.faults.add({ path: '/api/events', kind: 'status', status: 503 });
    const stale = await b.callWithMeta('events', range);
    expect(stale.meta.stale).toBe(true);
    expect(stale.data).toEqual(list);
  });

  it("judges freshness by the reader's TTL, and bounds memory across keys", async () => {
    let now = NOW.getTime();
    const a = clientOf(0, { now: () => now });
    const b = clientOf(1, { now: () => now, cache: { ttlMs: { events: 60_000 } } });
    await a.events(range);
    now += 2 * 60_000;
    await a.events(range);
    expect(count('/api/events')).toBe(1);
    await b.events(range);
    expect(count('/api/events')).toBe(2);

    const small = new SharedResponseCache({ maxEntries: 3 });
    const c = clientOf(0, { shared: small });
    const d = clientOf(1, { shared: small });
    for (const client of [c, d]) {
      await client.organisationForApiKey();
      await client.organisations();
    }
    await c.events(range);
    expect(small.size).toBe(3);
    expect(small.bytes).toBeGreaterThan(0);
  });

  it('keeps keys out of the cache keys', async () => {
    const a = clientOf(0);
    const b = clientOf(1);
    await Promise.all([a.events(range), b.events(range), a.organisationForApiKey(), b.organisationForApiKey()]);
    const keys = [...shared.entries.keys()].join('\n');
    for (const club of clubs().slice(0, 2)) {
      expect(keys).not.toContain(club.apiKey);
      expect(keys).not.toContain(club.apiKey.slice(0, 12));
    }
  });
});

describe('EventorAccess', () => {
  it('hands every client of one instance the same cache, so clubs share public answers', async () => {
    const store = {} as Store;
    const access = new EventorAccess({
      store,
      defaultEventor: null,
      defaultGuilds: new Set(),
      log: createLogger({ write: () => {} }),
    });
    try {
      const instance = customInstance(sandbox.baseUrl);
      const a = access.clientFor(instance, sandbox.dataset.keyFor(clubs()[0]!.id));
      const b = access.clientFor(instance, sandbox.dataset.keyFor(clubs()[1]!.id));
      expect(b).not.toBe(a);
      expect(access.clientFor(instance, sandbox.dataset.keyFor(clubs()[0]!.id))).toBe(a);
      await a.events(range);
      await b.events(range);
      expect(count('/api/events')).toBe(1);
      await a.organisationForApiKey();
      await b.organisationForApiKey();
      expect(count('/api/organisation/apiKey')).toBe(2);
    } finally {
      await access.close();
    }
  });
});

describe("the operator's EVENTOR_TIMEOUT_MS", () => {
  const baseEnv = { DISCORD_TOKEN: 'token', SECRET_KEY: 'timeout-test-secret-key-0123456789', EVENTOR_INSTANCE: '' };

  it('is read for every server, also without a default Eventor, and refused in one line when it is not a number', () => {
    expect(botConfigFromEnv({ ...baseEnv, EVENTOR_TIMEOUT_MS: '150' }).eventorTimeoutMs).toBe(150);
    expect(botConfigFromEnv(baseEnv).eventorTimeoutMs).toBeUndefined();
    expect(() => botConfigFromEnv({ ...baseEnv, EVENTOR_TIMEOUT_MS: 'soon' })).toThrow(
      /EVENTOR_TIMEOUT_MS must be a positive whole number/,
    );
  });

  it("bounds each attempt of a server's client", async () => {
    const access = new EventorAccess({
      store: {} as Store,
      defaultEventor: null,
      defaultGuilds: new Set(),
      timeoutMs: 150,
      log: createLogger({ write: () => {} }),
    });
    try {
      sandbox.faults.add({ path: '/api/organisation/apiKey', kind: 'latency', ms: 1_000, times: 5 });
      const client = access.clientFor(customInstance(sandbox.baseUrl), sandbox.dataset.keyFor(clubs()[0]!.id));
      expect((await caught(client.organisationForApiKey())).code).toBe('Timeout');
    } finally {
      sandbox.faults.clear();
      await access.close();
    }
  });
});
