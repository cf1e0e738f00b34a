/**
 * The sandbox Eventor: a loopback HTTP server (node:http) implementing every operation of
 * Eventor's API (docs/eventor.md#operations) over the in-memory dataset, with the real service's
 * conventions (ApiKey header, HTML error pages, TimeZone header, case-insensitive parameters) and
 * injectable faults for client tests.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Reply, RequestContext } from './context.js';
import { errorReply, HttpError, htmlReply, syntheticId } from './context.js';
import { type DatasetSize, SANDBOX_TIME_ZONE, SandboxDataset } from './dataset.js';
import { type FaultRule, Faults } from './faults.js';
import { LoginStore } from './login.js';
import { BadRequest, Query } from './params.js';
import { type LoggedRequest, RequestLog } from './request-log.js';
import { loginPage, matchRoute } from './routes.js';

export interface SandboxEventorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  seed?: number;
  size?: DatasetSize;
  /** The sandbox clock: a fixed Date or a function (tests advance it to expire login links). */
  now?: Date | (() => Date);
  /**
   * The moment the data is generated around (default: the clock's time at start). Sandboxes
   * started one after another with the same seed and moment serve the same events on the same
   * dates, while each clock runs on: the demo's parts show one federation.
   */
  dataAround?: Date;
  /**
   * Behave like a proxy or an older Eventor that does not know the `TimeZone` header: native XML
   * then always carries local (Europe/Stockholm) times. Default false. Settable later on the
   * returned sandbox (`ignoresTimeZoneHeader`).
   */
  ignoresTimeZoneHeader?: boolean;
  /** How many clubs the data has (see `DatasetOptions.clubs`). */
  clubs?: number;
  /** How many members the home club has (see `DatasetOptions.homeClubMembers`). */
  homeClubMembers?: number;
}

export interface SandboxEventor {
  /** Up to and including `/api`, e.g. `http://127.0.0.1:PORT/api`. */
  readonly baseUrl: string;
  /** The home club's API key. */
  readonly apiKey: string;
  readonly dataset: SandboxDataset;
  readonly faults: Faults;
  readonly requests: RequestLog;
  /** The sandbox clock. */
  now(): Date;
  /** Whether `TimeZone: UTC` is ignored (local times always), as some custom Eventor addresses do. */
  ignoresTimeZoneHeader: boolean;
  close(): Promise<void>;
}

export type { FaultRule };

const MAX_BODY = 1024 * 1024;

export async function startSandboxEventor(options: SandboxEventorOptions = {}): Promise<SandboxEventor> {
  const clock: () => Date =
    typeof options.now === 'function'
      ? options.now
      : options.now instanceof Date
        ? (
            (fixed: Date) => () =>
              new Date(fixed.getTime())
          )(options.now)
        : () => new Date();
  const dataset = new SandboxDataset({
    seed: options.seed ?? 1,
    size: options.size ?? 'small',
    now: options.dataAround ?? clock(),
    clock,
    clubs: options.clubs,
    homeClubMembers: options.homeClubMembers,
  });
  const faults = new Faults();
  const requests = new RequestLog();
  const logins = new LoginStore(clock);
  const hanging = new Set<ServerResponse>();
  let origin = '';
  let ignoresTimeZoneHeader = options.ignoresTimeZoneHeader ?? false;

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, errorReply(500, 'An error occurred.'));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const isLogin = /^\/login\//i.test(path);
    // Login tokens are secrets: the log shows the route, never the token.
    const logged = requests.record(
      req.method ?? 'GET',
      isLogin ? '/login/…' : path,
      isLogin ? new URLSearchParams() : url.searchParams,
      Object.keys(req.headers),
    );
    const body = await readBody(req);
    if (body === null) return finish(res, logged, errorReply(413, 'Request body too large.'));

    const decision = faults.take(path);
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    const fault = decision.fault;
    if (fault?.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault?.kind === 'status')
      return finish(
        res,
        logged,
        htmlReply(
          fault.status ?? 503,
          `${fault.status ?? 503} - Service Unavailable`,
          'The service is temporarily unavailable.',
        ),
      );
    if (fault?.kind === 'rateLimit') {
      const reply = htmlReply(429, '429 - Too Many Requests', 'Too many requests.');
      reply.headers = { 'Retry-After': String(fault.retryAfter ?? 1) };
      return finish(res, logged, reply);
    }
    if (fault?.kind === 'huge') return streamHuge(res, logged, fault);
    if (fault?.kind === 'maintenance') {
      return finish(
        res,
        logged,
        htmlReply(200, 'Eventor - Underhåll', 'Eventor är nere för underhåll. Försök igen om en stund.'),
      );
    }

    let reply: Reply;
    if (isLogin) reply = loginPage({ logins }, decodeURIComponent(path.slice('/login/'.length)));
    else reply = await route(req, url, path, body);

    if (fault?.kind === 'malformed' && reply.status === 200 && reply.xml) reply = malformed(reply);
    if (fault?.kind === 'truncate' && reply.status === 200) return truncate(res, logged, reply);
    return finish(res, logged, reply);
  }

  async function route(req: IncomingMessage, url: URL, path: string, body: string): Promise<Reply> {
    // Changes planned on the clock (dataset.changeEvent) happen before the first read after their moment.
    dataset.applyDueChanges();
    const segments = path.split('/').filter((s) => s !== '');
    if (segments[0]?.toLowerCase() !== 'api') return errorReply(404, 'The resource cannot be found.');
    const match = matchRoute(req.method ?? 'GET', segments.slice(1));
    if (match === null) return errorReply(404, 'The resource cannot be found.');
    if (match === 'methodMismatch') return errorReply(405, 'The requested resource does not support this HTTP method.');
    const apiKeyHeader = req.headers['apikey'];
    const apiKey = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
    const club = apiKey ? (dataset.clubForKey(apiKey.trim()) ?? null) : null;
    if (match.route.auth && !club)
      return errorReply(
        403,
        'You do not have permission to view this directory or page using the credentials that you supplied.',
      );
    const tz = req.headers['timezone'];
    const utc = !ignoresTimeZoneHeader && (Array.isArray(tz) ? tz[0] : tz)?.trim().toUpperCase() === 'UTC';
    const ctx: RequestContext = {
      method: req.method ?? 'GET',
      segments: segments.slice(1),
      query: new Query(url.searchParams),
      headers: req.headers,
      body,
      dataset,
      club,
      now: clock,
      logins,
      origin,
      native: {
        timeZone: utc ? 'UTC' : SANDBOX_TIME_ZONE,
        organisation: (id) => dataset.organisation(id),
        syntheticId,
      },
    };
    try {
      return await match.route.handler(ctx, match.params);
    } catch (error) {
      if (error instanceof BadRequest) return errorReply(400, error.message);
      if (error instanceof HttpError) return errorReply(error.status, error.message);
      throw error;
    }
  }

  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    baseUrl: `${origin}/api`,
    apiKey: dataset.homeClub.apiKey,
    dataset,
    faults,
    requests,
    now: clock,
    get ignoresTimeZoneHeader() {
      return ignoresTimeZoneHeader;
    },
    set ignoresTimeZoneHeader(value: boolean) {
      ignoresTimeZoneHeader = value;
    },
    async close(): Promise<void> {
      for (const res of hanging) res.destroy();
      hanging.clear();
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

function headersOf(reply: Reply, length: number): Record<string, string | number> {
  return { 'Content-Type': reply.contentType, 'Content-Length': length, 'Cache-Control': 'private', ...reply.headers };
}

function send(res: ServerResponse, reply: Reply): void {
  // Byte length without copying; chunks are encoded one at a time as they are written.
  const length = reply.chunks.reduce((n, c) => n + Buffer.byteLength(c, 'utf8'), 0);
  res.writeHead(reply.status, headersOf(reply, length));
  void writeAll(res, reply.chunks);
}

/** Writes chunk by chunk, waiting for drain, so a multi-megabyte list never sits in one buffer. */
async function writeAll(res: ServerResponse, chunks: string[]): Promise<void> {
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk, 'utf8')) await drainedOrClosed(res);
  }
  res.end();
}

// Both listeners go when either fires: racing two `once()` promises would leave one behind per
// chunk, and a 140 MB list has thousands of chunks.
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function finish(res: ServerResponse, logged: { status: number | null }, reply: Reply): void {
  logged.status = reply.status;
  send(res, reply);
}

/** The real reply, cut off halfway: Content-Length promises the whole body, then the socket closes. */
function truncate(res: ServerResponse, logged: { status: number | null }, reply: Reply): void {
  logged.status = reply.status;
  const full = Buffer.from(reply.chunks.join(''), 'utf8');
  res.writeHead(reply.status, headersOf(reply, full.length));
  res.write(full.subarray(0, Math.floor(full.length / 2)), () => {
    res.socket?.destroy();
  });
}

const HUGE_CHUNK = Buffer.alloc(64 * 1024, ' ');

/**
 * The 'huge' fault: a prolog, then padding in 64 KiB writes, each after the previous one was
 * taken (so what the server counts is what the client's side took, give or take the sockets'
 * buffers), until `bytes` or the client hangs up. One chunk is reused: the server's memory
 * stays flat however large the answer.
 */
function streamHuge(res: ServerResponse, logged: LoggedRequest, fault: FaultRule): void {
  const total = fault.bytes ?? 64 * 1024 * 1024;
  const streamed = { bytesWritten: 0, closedEarly: false };
  logged.status = 200;
  logged.streamed = streamed;
  res.writeHead(200, {
    'Content-Type': 'text/xml; charset=utf-8',
    ...(fault.contentLength === undefined ? {} : { 'Content-Length': fault.contentLength }),
  });
  const prolog = Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n', 'utf8');
  let finished = false;
  res.on('close', () => {
    if (!finished) streamed.closedEarly = true;
  });
  const next = (): void => {
    if (res.destroyed || streamed.closedEarly) return;
    const left = total - streamed.bytesWritten;
    if (left <= 0) {
      finished = true;
      res.end();
      return;
    }
    const chunk =
      streamed.bytesWritten === 0
        ? prolog.subarray(0, Math.min(prolog.length, left))
        : HUGE_CHUNK.subarray(0, Math.min(HUGE_CHUNK.length, left));
    res.write(chunk, (error) => {
      if (error) return;
      streamed.bytesWritten += chunk.length;
      next();
    });
  };
  next();
}

/** XML that does not parse: the root's end tag is mismatched and a bare `&` appears. */
function malformed(reply: Reply): Reply {
  const text = reply.chunks.join('');
  const end = text.lastIndexOf('</');
  const broken =
    end > 0 ? `${text.slice(0, end)}<Broken attr="a & b"></Mismatch>` : `${text.replace(/\/>\s*$/, '>')}<Broken & >`;
  return { ...reply, chunks: [broken] };
}
