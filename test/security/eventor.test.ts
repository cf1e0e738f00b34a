/**
 * What a host at the Eventor base URL (a broken Eventor, or one pretending to be it) can do to the
 * bot with the size of its answers. Each attack is performed for real: the sandbox Eventor streams
 * the huge answer over HTTP on loopback, the real client reads it, and in the last test the real
 * bot (discord.js against the sandbox Discord) serves two members at once while it happens.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { InvalidResponse, ResponseTooLarge } from '../../src/eventor/errors.js';
import { type HttpRequest, HttpTransport } from '../../src/eventor/http.js';
import { customInstance } from '../../src/eventor/instances.js';
import { OPERATIONS } from '../../src/eventor/operations.js';
import { t } from '../../src/i18n/index.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { LoggedRequest } from '../../harness/sandbox/eventor/request-log.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { caught } from '../support/errors.js';
import { startTestWorld } from '../support/test-world.js';
import { runningTestClock } from '../support/clock.js';

const MiB = 1024 * 1024;
const HUGE = 64 * MiB;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function sandbox(): Promise<SandboxEventor> {
  const eventor = await startSandboxEventor({ port: 0, now: runningTestClock().now });
  cleanups.push(() => eventor.close());
  return eventor;
}

function clientOf(eventor: SandboxEventor, options: { responseLimitScale?: number } = {}): EventorClient {
  // Default retries (3), real sleeps: a retried huge answer would show as more requests.
  const client = new EventorClient({ instance: customInstance(eventor.baseUrl), apiKey: eventor.apiKey, ...options });
  cleanups.push(() => client.close());
  return client;
}

/** The sandbox's record of the streamed answer, once the server has seen the connection end (bounded wait). */
async function streamedRecord(eventor: SandboxEventor, path: string): Promise<NonNullable<LoggedRequest['streamed']>> {
  for (let i = 0; i < 200; i++) {
    const entry = eventor.requests.find((r) => r.path.toLowerCase() === path.toLowerCase() && r.streamed);
    if (entry?.streamed?.closedEarly) return entry.streamed;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the sandbox never saw the client hang up on ${path} within 5 s`);
}

/** A real garbage collector without --expose-gc on the command line, so measurements see live memory only. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Runs `work` while sampling heap plus array buffers every few ms; returns the largest growth over the start, in bytes. */
async function peakGrowthDuring(work: () => Promise<unknown>): Promise<number> {
  const gc = exposeGc();
  gc();
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const baseline = used();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, used());
  }, 2);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, used());
  return peak - baseline;
}

describe('an answer larger than its operation may be (sandbox Eventor over HTTP)', () => {
  it('64 MiB streamed without Content-Length: cut off at the cap, typed error, connection closed early, memory bounded, not retried', async () => {
    const eventor = await sandbox();
    eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'huge', bytes: HUGE });
    const client = clientOf(eventor);
    let error: unknown;
    const growth = await peakGrowthDuring(async () => {
      error = await caught(client.organisationForApiKey());
    });
    expect(error).toBeInstanceOf(ResponseTooLarge);
    const tooLarge = error as ResponseTooLarge;
    expect(tooLarge.code).toBe('ResponseTooLarge');
    expect(tooLarge.operation).toBe('organisation-apikey');
    expect(tooLarge.limitBytes).toBe(OPERATIONS['organisation-apikey'].maxResponseBytes);
    expect(tooLarge.limitBytes).toBe(4 * MiB);
    expect(tooLarge.declaredBytes).toBeNull();
    expect(`${tooLarge.message} ${tooLarge.stack} ${JSON.stringify(tooLarge)}`).not.toContain(eventor.apiKey);
    expect(tooLarge.message).toContain('4 MiB');

    const streamed = await streamedRecord(eventor, '/api/organisation/apiKey');
    expect(streamed.closedEarly).toBe(true);
    // The cap plus what the two sockets' buffers took: far below what the server meant to send.
    expect(streamed.bytesWritten).toBeLessThan(HUGE / 2);
    // Reading it whole would take 64 MiB of buffers and then a 64 MiB string; the cut-off read
    // holds the 4 MiB read so far and the garbage of its chunks (about 15 MiB measured here).
    expect(growth).toBeLessThan(HUGE / 2);
    // Not retried: the same request would bring the same answer.
    expect(eventor.requests.count('/api/organisation/apiKey')).toBe(1);
  });

  it('a Content-Length over the cap fails before the body is read', async () => {
    const eventor = await sandbox();
    eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'huge', bytes: HUGE, contentLength: HUGE });
    const client = clientOf(eventor);
    const error = await caught(client.organisationForApiKey());
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect((error as ResponseTooLarge).declaredBytes).toBe(HUGE);
    expect(error.message).toContain('Content-Length 64 MiB');
    const streamed = await streamedRecord(eventor, '/api/organisation/apiKey');
    // Only what the sockets' buffers took before the hang-up reached them; the client read none of it.
    expect(streamed.bytesWritten).toBeLessThan(HUGE / 2);
    expect(eventor.requests.count('/api/organisation/apiKey')).toBe(1);
  });

  it('a lying Content-Length under the cap: only the announced bytes are taken, and the rest hangs up the connection', async () => {
    const eventor = await sandbox();
    eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'huge', bytes: HUGE, contentLength: 1024 });
    const client = clientOf(eventor);
    const growth = await peakGrowthDuring(async () => {
      const error = await caught(client.organisationForApiKey());
      // 1 KiB of padding is no document: unusable, never the 64 MiB behind it.
      expect(error).toBeInstanceOf(InvalidResponse);
    });
    const streamed = await streamedRecord(eventor, '/api/organisation/apiKey');
    expect(streamed.bytesWritten).toBeLessThan(HUGE / 2);
    expect(growth).toBeLessThan(HUGE / 4);
  });

  it('the operator scales every cap with one number: the same answers fit or not', async () => {
    const eventor = await sandbox();
    // EVENTOR_MAX_RESPONSE_MB=8 makes the largest tier 8 MiB and one object's 1/64 of that, 128 KiB.
    const scaled = clientOf(eventor, { responseLimitScale: 8 / 256 });
    expect((await scaled.organisationForApiKey()).id).toBeTruthy();
    eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'huge', bytes: 256 * 1024, times: 1 });
    const error = await caught(scaled.call('organisation-apikey', {}, { fresh: true }));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect((error as ResponseTooLarge).limitBytes).toBe(128 * 1024);
    expect(error.message).toContain('0.1 MiB');
  });
});

describe('the cap at its edge (a loopback server of the test)', () => {
  async function serve(body: Buffer, chunked: boolean): Promise<string> {
    const server = createServer((_req, res: ServerResponse) => {
      res.writeHead(200, {
        'content-type': 'text/xml; charset=utf-8',
        ...(chunked ? {} : { 'content-length': body.length }),
      });
      // Two writes, so a chunked answer really arrives in parts.
      res.write(body.subarray(0, body.length >> 1));
      res.end(body.subarray(body.length >> 1));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  }

  const request = (maxResponseBytes: number): HttpRequest<string> => ({
    operation: 'events',
    method: 'GET',
    path: '/events',
    cacheTtlMs: 0,
    coalesce: false,
    maxResponseBytes,
    parse: (xml) => xml,
  });

  for (const chunked of [false, true]) {
    it(`a body of exactly the cap is read whole, one byte more is refused (${chunked ? 'chunked' : 'Content-Length'})`, async () => {
      // Multi-byte characters straddle the halves: decoding chunk by chunk must not break them.
      const doc = Buffer.from(
        `<?xml version="1.0" encoding="utf-8"?><EventList>${'Åsa Ødegård '.repeat(500)}</EventList>`,
        'utf8',
      );
      const baseUrl = await serve(doc, chunked);
      const transport = new HttpTransport({
        instance: customInstance(baseUrl),
        apiKey: 'edge-key-0123456789',
        sleep: async () => {},
      });
      cleanups.push(() => transport.close());
      expect((await transport.request(request(doc.length))).value).toBe(doc.toString('utf8'));
      const error = await caught(transport.request(request(doc.length - 1)));
      expect(error).toBeInstanceOf(ResponseTooLarge);
      expect((error as ResponseTooLarge).declaredBytes).toBe(chunked ? null : doc.length);
    });
  }
});

describe('end to end: one member hits a huge answer while another is served (real bot, sandbox Discord and Eventor)', () => {
  let world: LoopbackWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it("the member gets one clear message, no stack trace; the other member's /help is acknowledged within Discord's 3 s and answered", async () => {
    world = await startTestWorld();
    const w = world;
    w.eventor.faults.add({ path: '/api/events', kind: 'huge', bytes: HUGE });
    const run = (name: string, user: typeof w.member) =>
      w.discord.runCommand({
        guildId: w.guild.id,
        channelId: w.channel.id,
        user,
        locale: user === w.member ? 'en-GB' : 'sv-SE',
        name,
        options: {},
      });

    const events = run('events', w.member);
    const help = run('help', w.swedishMember);
    const [eventsReply, helpReply] = await Promise.all([
      events.reply({ timeoutMs: 20_000 }),
      help.reply({ timeoutMs: 20_000 }),
    ]);

    // Both acknowledged in time: the sandbox Discord rejects a late callback with 10062 and records it.
    for (const handle of [events, help]) {
      expect(handle.acknowledged).toBe(true);
      expect(handle.history().filter((e) => e.kind === 'rejected')).toEqual([]);
    }
    expect(renderMessageText(helpReply, { header: false })).toContain(t('sv', 'help.title'));

    const text = renderMessageText(eventsReply, { header: false });
    expect(text).toContain(t('en', 'error.eventorAnswerTooLarge'));
    expect(text).not.toMatch(/Error|\bat .+:\d+|ResponseTooLarge|MiB/);

    const streamed = await streamedRecord(w.eventor, '/api/events');
    expect(streamed.closedEarly).toBe(true);
    expect(streamed.bytesWritten).toBeLessThan(HUGE);
    // The operator learns what happened, and the logs hold no key.
    const logged = w.logLines.filter((l) => l.includes('ResponseTooLarge'));
    expect(logged.length).toBeGreaterThan(0);
    expect(w.logLines.join('\n')).not.toContain(w.eventor.apiKey);

    // The bot is still there for the same member afterwards.
    const again = await run('help', w.member).reply({ timeoutMs: 10_000 });
    expect(renderMessageText(again, { header: false })).toContain(t('en', 'help.title'));
  });
});
