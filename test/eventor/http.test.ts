import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationFailed,
  type EventorError,
  InvalidApiKey,
  InvalidResponse,
  NotFound,
  RateLimited,
  Timeout,
  Unreachable,
  Upstream,
  ValidationError,
} from '../../src/eventor/errors.js';
import {
  type HttpRequest,
  HttpTransport,
  parseRetryAfter,
  type RequestEvent,
  SharedResponseCache,
  type TransportOptions,
  USER_AGENT,
} from '../../src/eventor/http.js';
import { customInstance } from '../../src/eventor/instances.js';
import { caught } from '../support/errors.js';

const API_KEY = 'k3y5ecret0123456789abcdef01234567';
const PASSWORD = 'hunter2-Pa55word';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TestServer {
  baseUrl: string;
  seen: Seen[];
  active: number;
  maxActive: number;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function startServer(
  handler: (req: Seen, res: ServerResponse, n: number) => void | Promise<void>,
): Promise<TestServer> {
  const state: TestServer = { baseUrl: '', seen: [], active: 0, maxActive: 0, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      state.seen.push(seen);
      state.active++;
      state.maxActive = Math.max(state.maxActive, state.active);
      res.on('close', () => state.active--);
      void Promise.resolve(handler(seen, res, state.seen.length)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}/api`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  cleanups.push(state.close);
  return state;
}

const XML = (root: string, inner = '') => `<?xml version="1.0" encoding="utf-8"?><${root}>${inner}</${root}>`;

function xmlResponse(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' });
  res.end(body);
}

function transport(
  server: TestServer,
  options: Partial<TransportOptions> = {},
  events: RequestEvent[] = [],
): HttpTransport {
  const t = new HttpTransport({
    instance: customInstance(server.baseUrl),
    apiKey: API_KEY,
    sleep: async () => {},
    onRequest: (e) => events.push(e),
    ...options,
  });
  cleanups.push(() => t.close());
  return t;
}

const get = (path = '/events', extra: Partial<HttpRequest<string>> = {}): HttpRequest<string> => ({
  operation: 'events',
  method: 'GET',
  path,
  cacheTtlMs: 0,
  coalesce: false,
  parse: (body) => body,
  ...extra,
});

describe('HttpTransport headers and URL', () => {
  it('sends ApiKey, a descriptive User-Agent, Accept and TimeZone: UTC, and the query', async () => {
    const server = await startServer((_req, res) => xmlResponse(res, XML('EventList')));
    const t = transport(server);
    const result = await t.request(get('/events', { query: { fromDate: '2026-05-01 00:00:00', eventIds: '1,2' } }));
    expect(result.value).toContain('<EventList>');
    const seen = server.seen[0]!;
    expect(seen.method).toBe('GET');
    expect(seen.url).toBe('/api/events?fromDate=2026-05-01+00%3A00%3A00&eventIds=1%2C2');
    expect(seen.headers['apikey']).toBe(API_KEY);
    expect(seen.headers['user-agent']).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^eventor-bot\/\d+\.\d+\.\d+\S* \(\+https:\/\/github\.com\/eventor-bot\/eventor-bot\)$/);
    expect(seen.headers['accept']).toBe('application/xml');
    expect(seen.headers['timezone']).toBe('UTC');
    expect(t.nativeTimeZone).toBe('UTC');
  });

  it('leaves TimeZone out for instances that do not honour it and parses in their own zone', async () => {
    const server = await startServer((_req, res) => xmlResponse(res, XML('EventList')));
    const t = transport(server, {
      instance: customInstance(server.baseUrl, { supportsUtcHeader: false, nativeTimeZone: 'Australia/Sydney' }),
    });
    await t.request(get());
    expect(server.seen[0]!.headers['timezone']).toBeUndefined();
    expect(t.nativeTimeZone).toBe('Australia/Sydney');
  });

  it('sends secret headers as headers, never in the URL, and a PUT body with its content type', async () => {
    const server = await startServer((_req, res) => xmlResponse(res, XML('Person')));
    const t = transport(server);
    await t.request(
      get('/authenticatePerson', {
        operation: 'authenticate-person',
        secretHeaders: { Username: 'anna', Password: PASSWORD },
      }),
    );
    const seen = server.seen[0]!;
    expect(seen.url).toBe('/api/authenticatePerson');
    expect(seen.headers['username']).toBe('anna');
    expect(seen.headers['password']).toBe(PASSWORD);
    await t.request(get('/competitor', { method: 'PUT', body: '<Competitor/>', contentType: 'application/xml' }));
    expect(server.seen[1]!.method).toBe('PUT');
    expect(server.seen[1]!.headers['content-type']).toBe('application/xml');
    expect(server.seen[1]!.body).toBe('<Competitor/>');
  });

  it('decodes bodies as UTF-8', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(Buffer.from(XML('Organisation', '<Name>Sjövalla FK Løp</Name>'), 'utf8'));
    });
    const t = transport(server);
    expect((await t.request(get())).value).toContain('Sjövalla FK Løp');
  });

  it('rejects an empty API key before sending', () => {
    expect(() => new HttpTransport({ instance: customInstance('http://127.0.0.1:9/api'), apiKey: ' ' })).toThrow(
      ValidationError,
    );
  });
});

describe('HttpTransport retries', () => {
  it('retries 429 honouring Retry-After in seconds, then succeeds', async () => {
    const server = await startServer((_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '2' });
        res.end('slow down');
      } else xmlResponse(res, XML('EventList'));
    });
    const sleeps: number[] = [];
    const t = transport(server, {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0,
    });
    await t.request(get());
    expect(server.seen).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('honours Retry-After as an HTTP date and caps it', async () => {
    const now = Date.parse('2026-05-01T10:00:00Z');
    expect(parseRetryAfter('Fri, 01 May 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    const server = await startServer((_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '3600' });
        res.end();
      } else xmlResponse(res, XML('EventList'));
    });
    const sleeps: number[] = [];
    const t = transport(server, {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      maxRetryAfterMs: 60_000,
    });
    await t.request(get());
    expect(sleeps).toEqual([60_000]);
  });

  it('retries 503 and 520 with exponential backoff and full jitter, then succeeds', async () => {
    const server = await startServer((_req, res, n) => {
      if (n === 1) {
        res.writeHead(503);
        res.end();
      } else if (n === 2) {
        res.writeHead(520);
        res.end();
      } else xmlResponse(res, XML('EventList'));
    });
    const sleeps: number[] = [];
    const events: RequestEvent[] = [];
    const t = transport(
      server,
      {
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        random: () => 0.5,
        baseDelayMs: 100,
      },
      events,
    );
    await t.request(get());
    expect(server.seen).toHaveLength(3);
    expect(sleeps).toEqual([50, 100]);
    expect(events.map((e) => [e.attempt, e.status, e.error])).toEqual([
      [1, 503, 'Upstream'],
      [2, 520, 'Upstream'],
      [3, 200, null],
    ]);
  });

  it('gives up after the retries with Upstream(status)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(502);
      res.end('<html>bad gateway</html>');
    });
    const t = transport(server, { retries: 2 });
    const error = await caught(t.request(get()));
    expect(error).toBeInstanceOf(Upstream);
    expect((error as Upstream).status).toBe(502);
    expect(server.seen).toHaveLength(3);
  });

  it('gives up on 429 with RateLimited(retryAfter)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '7' });
      res.end();
    });
    const t = transport(server, { retries: 1 });
    const error = await caught(t.request(get()));
    expect(error).toBeInstanceOf(RateLimited);
    expect((error as RateLimited).retryAfterSeconds).toBe(7);
    expect(server.seen).toHaveLength(2);
  });

  it('does not count the wait before a retry against the timeout of an attempt', async () => {
    const server = await startServer((_req, res, n) => {
      if (n === 1) {
        res.writeHead(503, { 'retry-after': '1' });
        res.end('<html>busy</html>');
      } else xmlResponse(res, XML('EventList'));
    });
    // The wait is real and longer than the timeout: the paused 503 and its connection must survive it.
    const t = transport(server, {
      timeoutMs: 200,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 400))),
    });
    expect((await t.request(get())).value).toContain('<EventList>');
    expect(server.seen).toHaveLength(2);
  });

  it('retries only GETs: a PUT that met a 503 is not sent again', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const t = transport(server, { retries: 2 });
    const error = await caught(
      t.request(get('/competitor', { operation: 'save-competitor', method: 'PUT', body: '<Competitor/>' })),
    );
    expect(error).toBeInstanceOf(Upstream);
    expect(server.seen.map((s) => s.method)).toEqual(['PUT']);
  });

  it('retries connection errors and then reports Unreachable', async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const baseUrl = server.baseUrl;
    await server.close();
    cleanups.pop();
    const sleeps: number[] = [];
    const t = new HttpTransport({
      instance: customInstance(baseUrl),
      apiKey: API_KEY,
      retries: 2,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    cleanups.push(() => t.close());
    const error = await caught(t.request(get()));
    expect(error).toBeInstanceOf(Unreachable);
    expect(sleeps).toHaveLength(2);
    expect(error.message).not.toContain(API_KEY);
  });

  it('retries a connection reset by the server', async () => {
    const server = await startServer((_req, res, n) => {
      if (n === 1) res.socket?.destroy();
      else xmlResponse(res, XML('EventList'));
    });
    const t = transport(server);
    await t.request(get());
    expect(server.seen).toHaveLength(2);
  });
});

describe('HttpTransport status mapping', () => {
  const cases: Array<[number, new (...args: never[]) => EventorError]> = [
    [403, InvalidApiKey],
    [401, AuthenticationFailed],
    [404, NotFound],
    [400, ValidationError],
  ];
  for (const [status, type] of cases) {
    it(`maps ${status} to ${type.name} without retrying`, async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(`<html><head><title>${status}</title></head><body>Bad Request ${API_KEY}</body></html>`);
      });
      const t = transport(server);
      const error = await caught(t.request(get('/event/1')));
      expect(error).toBeInstanceOf(type);
      expect(error.message).not.toContain(API_KEY);
      expect(server.seen).toHaveLength(1);
    });
  }

  it('treats a 200 HTML maintenance page as InvalidResponse', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html><body>Eventor is down for maintenance</body></html>');
    });
    const t = transport(server);
    const error = await caught(t.request(get()));
    expect(error).toBeInstanceOf(InvalidResponse);
    expect(error.message).toContain('not XML (maintenance page?)');
  });

  it('treats a 200 plain-text body and an empty body as InvalidResponse', async () => {
    const server = await startServer((_req, res, n) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(n === 1 ? 'Service temporarily unavailable' : '');
    });
    const t = transport(server);
    expect(await caught(t.request(get()))).toBeInstanceOf(InvalidResponse);
    expect(await caught(t.request(get()))).toBeInstanceOf(InvalidResponse);
  });

  it('accepts XML with a non-XML content type when the body is XML', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(XML('EventList'));
    });
    const t = transport(server);
    expect((await t.request(get())).value).toContain('EventList');
  });

  it('turns a parser failure into InvalidResponse and does not retry it', async () => {
    const server = await startServer((_req, res) => xmlResponse(res, '<?xml version="1.0"?><EventList><Event>'));
    const t = transport(server);
    const error = await caught(
      t.request(
        get('/events', {
          parse: () => {
            throw new Error('unclosed tag');
          },
        }),
      ),
    );
    expect(error).toBeInstanceOf(InvalidResponse);
    expect(server.seen).toHaveLength(1);
  });

  it('times out a server that does not answer', async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const t = transport(server, { timeoutMs: 150 });
    const started = Date.now();
    const error = await caught(t.request(get()));
    expect(error).toBeInstanceOf(Timeout);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.seen).toHaveLength(1);
  });

  it('times out a body that trickles in too slowly', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<?xml version="1.0"?><EventList>');
      const timer = setInterval(() => res.write('<Event/>'), 30);
      res.on('close', () => clearInterval(timer));
    });
    const t = transport(server, { timeoutMs: 300 });
    expect(await caught(t.request(get()))).toBeInstanceOf(Timeout);
  });
});

describe('HttpTransport concurrency, coalescing and cache', () => {
  const slow = (ms: number) => (_req: Seen, res: ServerResponse) => {
    setTimeout(() => xmlResponse(res, XML('EventList')), ms);
  };

  it('limits concurrent requests per API key', async () => {
    const server = await startServer(slow(40));
    const t = transport(server, { concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => t.request(get(`/event/${i}`))));
    expect(server.seen).toHaveLength(8);
    expect(server.maxActive).toBe(2);
  });

  it('shares the limit between clients with the same key, not with other keys', async () => {
    const server = await startServer(slow(40));
    const a = transport(server, { concurrency: 2 });
    const b = transport(server, { concurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).request(get(`/event/${i}`))));
    expect(server.maxActive).toBe(2);
    const other = transport(server, { concurrency: 2, apiKey: 'another-key-0000000000000000000000' });
    server.maxActive = 0;
    await Promise.all(Array.from({ length: 4 }, (_, i) => (i % 2 ? a : other).request(get(`/event/${i}`))));
    expect(server.maxActive).toBe(4);
  });

  it('coalesces identical GETs in flight into one request, every caller getting the one frozen answer', async () => {
    const server = await startServer(slow(50));
    const events: RequestEvent[] = [];
    const t = transport(server, { cache: false }, events);
    const req = get('/events', { coalesce: true, parse: (body) => ({ body }) as unknown as string });
    const results = await Promise.all(Array.from({ length: 5 }, () => t.request(req)));
    expect(server.seen).toHaveLength(1);
    expect(results.filter((r) => r.coalesced)).toHaveLength(4);
    // One answer shared, not five copies: frozen, so no caller can change another's.
    expect(new Set(results.map((r) => r.value)).size).toBe(1);
    expect(Object.isFrozen(results[0]!.value)).toBe(true);
    expect(events.filter((e) => e.coalesced)).toHaveLength(4);
  });

  it('hands every reader the one frozen cached answer: a caller cannot change what the next one is served', async () => {
    const server = await startServer((_req, res) => xmlResponse(res, XML('EventList', '<Event/>')));
    const t = transport(server);
    type Parsed = { events: Array<{ name: string }> };
    const req: HttpRequest<Parsed> = {
      ...(get() as Omit<HttpRequest<string>, 'parse' | 'large'>),
      cacheTtlMs: 60_000,
      coalesce: true,
      parse: () => ({ events: [{ name: 'Sprint' }] }),
    };
    const first = await t.request(req);
    expect(() => {
      (first.value.events as Array<{ name: string }>).push({ name: 'Added' });
    }).toThrow(TypeError);
    expect(() => {
      (first.value.events[0] as { name: string }).name = 'Changed';
    }).toThrow(TypeError);
    const second = await t.request(req);
    expect(second.fromCache).toBe(true);
    // The very object, not a copy (a hit costs the same for any size of answer), and unchanged.
    expect(second.value).toBe(first.value);
    expect(second.value).toEqual({ events: [{ name: 'Sprint' }] });
    expect(server.seen).toHaveLength(1);
  });

  it('does not coalesce requests marked as not coalescable, nor different URLs', async () => {
    const server = await startServer(slow(30));
    const t = transport(server, { cache: false });
    await Promise.all([
      t.request(get()),
      t.request(get()),
      t.request(get('/x', { coalesce: true })),
      t.request(get('/y', { coalesce: true })),
    ]);
    expect(server.seen).toHaveLength(4);
  });

  it('serves from the cache within the TTL and fetches again after it', async () => {
    const server = await startServer((_req, res, n) => xmlResponse(res, XML('EventList', `<n>${n}</n>`)));
    let now = 1_000_000;
    const events: RequestEvent[] = [];
    const t = transport(server, { now: () => now }, events);
    const req = get('/events', { cacheTtlMs: 60_000, coalesce: true, query: { b: '2', a: '1' } });
    expect((await t.request(req)).value).toContain('<n>1</n>');
    now += 59_000;
    const hit = await t.request({ ...req, query: { a: '1', b: '2' } });
    expect(hit.fromCache).toBe(true);
    expect(hit.value).toContain('<n>1</n>');
    now += 2_000;
    const miss = await t.request(req);
    expect(miss.fromCache).toBe(false);
    expect(miss.value).toContain('<n>2</n>');
    expect(server.seen).toHaveLength(2);
    expect(events.filter((e) => e.fromCache)).toHaveLength(1);
  });

  it('never caches when the TTL is 0, when the cache is off, or for a PUT', async () => {
    const server = await startServer((_req, res) => xmlResponse(res, XML('EventList')));
    const off = transport(server, { cache: false });
    await off.request(get('/a', { cacheTtlMs: 60_000 }));
    await off.request(get('/a', { cacheTtlMs: 60_000 }));
    const on = transport(server);
    await on.request(get('/b'));
    await on.request(get('/b'));
    await on.request(get('/c', { method: 'PUT', cacheTtlMs: 60_000 }));
    await on.request(get('/c', { method: 'PUT', cacheTtlMs: 60_000 }));
    expect(server.seen).toHaveLength(6);
  });

  it('serves a stale entry when Eventor fails transiently, within the max-stale window', async () => {
    let fail = false;
    const server = await startServer((_req, res) => {
      if (fail) {
        res.writeHead(503);
        res.end();
      } else xmlResponse(res, XML('EventList', '<ok/>'));
    });
    let now = 0;
    const stale: string[] = [];
    const events: RequestEvent[] = [];
    const t = transport(
      server,
      {
        now: () => now,
        retries: 1,
        cache: { maxStaleMs: 3_600_000 },
        onStale: (i) => stale.push(`${i.operation}:${i.error.code}`),
      },
      events,
    );
    const req = get('/events', { cacheTtlMs: 60_000, coalesce: true });
    await t.request(req);
    fail = true;
    now = 120_000;
    const result = await t.request(req);
    expect(result.stale).toBe(true);
    expect(result.fromCache).toBe(true);
    expect(result.value).toContain('<ok/>');
    expect(stale).toEqual(['events:Upstream']);
    expect(events.some((e) => e.stale)).toBe(true);
    now = 60_000 + 3_600_000 + 1;
    expect(await caught(t.request(req))).toBeInstanceOf(Upstream);
  });

  it('does not serve stale data on a non-transient error', async () => {
    let status = 200;
    const server = await startServer((_req, res) => {
      if (status === 200) xmlResponse(res, XML('EventList'));
      else {
        res.writeHead(status);
        res.end();
      }
    });
    let now = 0;
    const t = transport(server, { now: () => now });
    const req = get('/events', { cacheTtlMs: 1_000, coalesce: true });
    await t.request(req);
    status = 403;
    now = 5_000;
    expect(await caught(t.request(req))).toBeInstanceOf(InvalidApiKey);
  });

  it('bounds the cache, evicting the least recently used entry, and invalidates by operation', async () => {
    const server = await startServer((req, res) => xmlResponse(res, XML('X', req.url)));
    const t = transport(server, { cache: { maxEntries: 2 } });
    const r = (path: string, operation = 'events') => t.request(get(path, { cacheTtlMs: 60_000, operation }));
    await r('/a');
    await r('/b');
    await r('/a'); // hit: /a becomes most recent
    await r('/c'); // evicts /b
    expect(t.cacheSize).toBe(2);
    await r('/a');
    expect(server.seen.map((s) => s.url)).toEqual(['/api/a', '/api/b', '/api/c']);
    await r('/b');
    expect(server.seen).toHaveLength(4);
    await r('/d', 'competitor');
    t.invalidate(['competitor']);
    await r('/d', 'competitor');
    expect(server.seen.filter((s) => s.url === '/api/d')).toHaveLength(2);
  });
});

describe('HttpTransport keeps secrets out of errors and events', () => {
  it('never puts the API key or a password into an error message or an onRequest event', async () => {
    const replies = [403, 401, 404, 400, 429, 503, 520, 200];
    const server = await startServer((req, res) => {
      const status = Number(new URL(req.url, 'http://x').searchParams.get('s'));
      if (status === 200) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html>${API_KEY}</html>`);
        return;
      }
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(`<html>${API_KEY} ${PASSWORD}</html>`);
    });
    const events: RequestEvent[] = [];
    const t = transport(server, { retries: 1 }, events);
    const messages: string[] = [];
    for (const s of replies) {
      const error = await caught(
        t.request(
          get('/authenticatePerson', {
            query: { s: String(s) },
            secretHeaders: { Username: 'anna', Password: PASSWORD },
          }),
        ),
      );
      messages.push(
        error.message,
        String(error),
        error.stack ?? '',
        JSON.stringify(error),
        String((error as { cause?: unknown }).cause ?? ''),
      );
    }
    const timeoutServer = await startServer(() => {});
    const slow = transport(timeoutServer, { timeoutMs: 100 }, events);
    const e = await caught(slow.request(get('/x', { secretHeaders: { Password: PASSWORD } })));
    messages.push(e.message, e.stack ?? '');
    const text = messages.join('\n') + JSON.stringify(events);
    expect(events.length).toBeGreaterThan(8);
    for (const secret of [API_KEY, PASSWORD, API_KEY.slice(0, 12)]) expect(text).not.toContain(secret);
  });
});

describe('HttpTransport cut-off bodies', () => {
  it('retries a body cut off by a closed connection, then reports InvalidResponse', async () => {
    const server = await startServer((_req, res) => {
      const body = XML('EventList', '<Event/>'.repeat(50));
      res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(body.length) });
      res.write(body.slice(0, 60));
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const t = transport(server, { retries: 2 });
    const error = await caught(t.request(get()));
    expect(error).toBeInstanceOf(InvalidResponse);
    expect(error.message).toContain('truncated');
    expect(server.seen).toHaveLength(3);
  });
});

describe('HttpTransport dispatcher', () => {
  it('uses an injected undici dispatcher and leaves closing it to its owner', async () => {
    const { Pool } = await import('undici');
    const server = await startServer((_req, res) => xmlResponse(res, XML('EventList')));
    const pool = new Pool(new URL(server.baseUrl).origin, { connections: 1 });
    const t = new HttpTransport({ instance: customInstance(server.baseUrl), apiKey: API_KEY, dispatcher: pool });
    expect((await t.request(get())).value).toContain('EventList');
    await t.close();
    expect(pool.closed).toBe(false);
    await pool.close();
    expect(await caught(t.request(get()))).toBeInstanceOf(Unreachable);
  });
});

describe('HttpTransport: a large body is handed over as its bytes', () => {
  it('gives a body of bytesFrom bytes or more to parseBytes undecoded, a smaller one to parse as text', async () => {
    const big = XML('EventList', `<Event><Name>Öppet möte</Name></Event>`.repeat(50));
    const server = await startServer((req, res) =>
      xmlResponse(res, req.url?.startsWith('/api/big') ? big : XML('EventList', '<Event/>')),
    );
    const t = transport(server);
    const seen: string[] = [];
    const large = {
      bytesFrom: 1000,
      parseBytes: async (bytes: Uint8Array) => {
        seen.push(`bytes ${bytes.byteLength}`);
        return new TextDecoder().decode(bytes);
      },
    };
    const parse = (body: string) => {
      seen.push(`text ${body.length}`);
      return body;
    };
    const bigResult = await t.request(get('/big', { parse, large }));
    expect(bigResult.value).toBe(big);
    const small = await t.request(get('/small', { parse, large }));
    expect(small.value).toBe(XML('EventList', '<Event/>'));
    expect(seen).toEqual([`bytes ${Buffer.byteLength(big)}`, `text ${XML('EventList', '<Event/>').length}`]);
  });

  it('counts a large answer at its size in the cache, though its bytes were moved away to be parsed', async () => {
    const big = XML('EventList', `<Event><Name>Öppet möte</Name></Event>`.repeat(500));
    const server = await startServer((_req, res) => xmlResponse(res, big));
    const shared = new SharedResponseCache();
    const t = transport(server, { shared });
    const large = {
      bytesFrom: 1000,
      // As the parse worker does: the bytes are transferred, which leaves the transport's view empty.
      parseBytes: async (bytes: Uint8Array) => {
        expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
        const moved = structuredClone(bytes, { transfer: [bytes.buffer as ArrayBuffer] });
        expect(bytes.byteLength).toBe(0);
        return new TextDecoder().decode(moved);
      },
    };
    const result = await t.request(get('/events', { cacheTtlMs: 60_000, large }));
    expect(result.value).toBe(big);
    expect(shared.bytes).toBe(Buffer.byteLength(big));
  });

  it('counts a small answer kept as text in bytes too, the unit of the cache bound, not in characters', async () => {
    const small = XML('EventList', `<Event><Name>Öppet möte på Årsta</Name></Event>`.repeat(3));
    expect(Buffer.byteLength(small)).toBeGreaterThan(small.length);
    const server = await startServer((_req, res) => xmlResponse(res, small));
    const shared = new SharedResponseCache();
    const t = transport(server, { shared });
    const result = await t.request(get('/events', { cacheTtlMs: 60_000 }));
    expect(result.value).toBe(small);
    expect(shared.bytes).toBe(Buffer.byteLength(small));
  });

  it('still refuses a large maintenance page as not XML, from its first bytes', async () => {
    const page = `<!DOCTYPE html><html><body>${'Underhåll pågår. '.repeat(200)}</body></html>`;
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    const t = transport(server);
    let handed = 0;
    const large = {
      bytesFrom: 100,
      parseBytes: async () => {
        handed++;
        return '';
      },
    };
    await expect(t.request(get('/events', { large }))).rejects.toMatchObject({ name: 'InvalidResponse' });
    expect(handed).toBe(0);
  });
});
