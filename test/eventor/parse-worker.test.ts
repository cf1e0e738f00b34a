/**
 * Large documents are parsed off the main thread (src/eventor/parse-worker.ts): the real client
 * against the sandbox Eventor, with the worker thread running the compiled build. What is checked
 * is where the parse ran (the worker's counters) and that the answer, or the error, is the one
 * the main thread gives; no timing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient, type EventorClientOptions, OFF_THREAD_PARSE_BYTES } from '../../src/eventor/client.js';
import { InvalidResponse } from '../../src/eventor/errors.js';
import { customInstance } from '../../src/eventor/instances.js';
import { parseWorkerStats, stopParseWorker } from '../../src/eventor/parse-worker.js';
import { startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { caught } from '../support/errors.js';

type Sandbox = Awaited<ReturnType<typeof startSandboxEventor>>;

const NOW = new Date('2026-05-15T10:00:00Z');
let sandbox: Sandbox;
const clients: EventorClient[] = [];
const closers: Array<() => Promise<void>> = [];

/** A client of its own (so no answer comes from another's cache) against `baseUrl`. */
function makeClient(baseUrl: string, apiKey: string, options: Partial<EventorClientOptions> = {}): EventorClient {
  const client = new EventorClient({
    instance: customInstance(baseUrl),
    apiKey,
    sleep: async () => {},
    ...options,
  });
  clients.push(client);
  return client;
}
const onMainThread = { offThreadParseBytes: Number.POSITIVE_INFINITY };
const inWorker = { offThreadParseBytes: 1 };

/** A loopback Eventor answering every request with `body`. */
async function serveBody(body: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

beforeAll(async () => {
  sandbox = await startSandboxEventor({ port: 0, seed: 7, now: NOW });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const close of closers) await close();
  await sandbox?.close();
  await stopParseWorker();
});

const eventWithResults = () => {
  const ev = sandbox.dataset.events.find((e) => e.hasResults && e.shape === 'single');
  if (!ev) throw new Error('no sandbox event with results');
  return ev;
};

/** The sandbox's result list of an event with splits, its classes repeated until it is a large document. */
async function largeResultList(): Promise<string> {
  const res = await fetch(`${sandbox.baseUrl}/results/event?eventId=${eventWithResults().id}&includeSplitTimes=true`, {
    headers: { ApiKey: sandbox.apiKey },
  });
  const xml = await res.text();
  const first = xml.indexOf('<ClassResult');
  const end = xml.lastIndexOf('</ResultList>');
  expect(first).toBeGreaterThan(0);
  const classes = xml.slice(first, end);
  const copies = Math.ceil(OFF_THREAD_PARSE_BYTES / classes.length) + 1;
  expect(copies).toBeLessThan(10_000);
  return `${xml.slice(0, first)}${classes.repeat(copies)}${xml.slice(end)}`;
}

describe('large documents are parsed in a worker thread', () => {
  it('a large result list is parsed in the worker and gives the model the main thread gives', async () => {
    const xml = await largeResultList();
    expect(xml.length).toBeGreaterThanOrEqual(OFF_THREAD_PARSE_BYTES);
    const baseUrl = await serveBody(xml);
    const before = parseWorkerStats().documentsParsed;
    const offThread = await makeClient(baseUrl, 'key').eventResults({ eventId: '1' });
    expect(parseWorkerStats().documentsParsed).toBe(before + 1);
    const mainThread = await makeClient(baseUrl, 'key', onMainThread).eventResults({ eventId: '1' });
    expect(parseWorkerStats().documentsParsed).toBe(before + 1);
    expect(offThread.classes.length).toBeGreaterThan(1);
    expect(offThread).toEqual(mainThread);
  });

  it('the main thread reads the model one piece per turn of its event loop, never all at once', async () => {
    const xml = await largeResultList();
    const baseUrl = await serveBody(xml);
    const client = makeClient(baseUrl, 'key');
    // At every turn of the loop, how many answers were read since the turn before.
    const perTurn: number[] = [];
    let last = parseWorkerStats().answersRead;
    let ticking = true;
    const tick = (): void => {
      const now = parseWorkerStats().answersRead;
      perTurn.push(now - last);
      last = now;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const before = parseWorkerStats().answersRead;
    const list = await client.eventResults({ eventId: '1' });
    ticking = false;
    const read = parseWorkerStats().answersRead - before;
    // A class, its runners in pieces, and the rest: many answers, each read in a turn of its own.
    expect(read).toBeGreaterThan(list.classes.length);
    expect(Math.max(...perTurn)).toBe(1);
  });

  it('lists, single documents and arrays come back whole from the worker', async () => {
    const ev = eventWithResults();
    const home = sandbox.dataset.homeClub;
    const before = parseWorkerStats().documentsParsed;
    const worker = makeClient(sandbox.baseUrl, sandbox.apiKey, inWorker);
    const main = makeClient(sandbox.baseUrl, sandbox.apiKey, onMainThread);
    expect(await worker.eventResults({ eventId: ev.id })).toEqual(await main.eventResults({ eventId: ev.id }));
    expect(await worker.event({ eventId: ev.id })).toEqual(await main.event({ eventId: ev.id }));
    const window = { fromDate: '2026-04-01', toDate: '2026-06-30' };
    const events = await worker.events(window);
    expect(events.length).toBeGreaterThan(1);
    expect(events).toEqual(await main.events(window));
    expect(await worker.organisation({ id: home.id })).toEqual(await main.organisation({ id: home.id }));
    expect(parseWorkerStats().documentsParsed).toBe(before + 4);
  });

  it('a malformed large document fails with the same error as on the main thread', async () => {
    const xml = await largeResultList();
    // An end tag lost in the middle of the list: the root still closes, the structure does not.
    const cut = xml.indexOf('</PersonResult>', Math.floor(xml.length / 2));
    const broken = xml.slice(0, cut) + xml.slice(cut + '</PersonResult>'.length);
    const baseUrl = await serveBody(broken);
    const rejectedBefore = parseWorkerStats().documentsRejected;
    const offThread = await caught(makeClient(baseUrl, 'key').eventResults({ eventId: '1' }));
    expect(parseWorkerStats().documentsRejected).toBe(rejectedBefore + 1);
    const mainThread = await caught(makeClient(baseUrl, 'key', onMainThread).eventResults({ eventId: '1' }));
    expect(offThread).toBeInstanceOf(InvalidResponse);
    expect(offThread.message).toMatch(/malformed XML/);
    expect(offThread.message).toBe(mainThread.message);
    expect({ code: offThread.code, operation: offThread.operation, path: (offThread as InvalidResponse).path }).toEqual(
      {
        code: mainThread.code,
        operation: mainThread.operation,
        path: (mainThread as InvalidResponse).path,
      },
    );
  });

  it('when the worker dies the documents it held fail cleanly, and the next one starts a new worker', async () => {
    const ev = eventWithResults();
    await stopParseWorker();
    const startedBefore = parseWorkerStats().workersStarted;
    const request = caught(makeClient(sandbox.baseUrl, sandbox.apiKey, inWorker).eventResults({ eventId: ev.id }));
    // Wait (bounded) until the document is in the worker, then stop it under the request.
    const deadline = Date.now() + 10_000;
    for (let i = 0; i < 100_000 && parseWorkerStats().inFlight === 0 && Date.now() < deadline; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(parseWorkerStats().inFlight).toBe(1);
    await stopParseWorker();
    const startedAfterDeath = parseWorkerStats().workersStarted;
    expect(startedAfterDeath).toBe(startedBefore + 1);
    const error = await request;
    expect(error).toBeInstanceOf(InvalidResponse);
    expect(error.message).toMatch(/results-event: unusable response: could not read the XML \(the parser thread/);
    expect(parseWorkerStats().inFlight).toBe(0);

    const next = await makeClient(sandbox.baseUrl, sandbox.apiKey, inWorker).eventResults({ eventId: ev.id });
    expect(next.classes.length).toBeGreaterThan(0);
    expect(parseWorkerStats().workersStarted).toBe(startedAfterDeath + 1);
  });
});
