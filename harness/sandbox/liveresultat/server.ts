/**
 * The sandbox LiveResultat: a loopback HTTP server (node:http) with both APIs over the sandbox
 * Eventor's races as they run on the sandbox clock (docs/live-results.md). The REST API is served
 * at the root (`/competitions…`), the older one at `/api.php`. The REST API answers with an ETag
 * that depends on the body and on the Accept-Encoding asked with (as the real CDN keys it), a 304
 * to a matching If-None-Match, and gzip or brotli when accepted; `api.php` answers uncompressed,
 * with `last_hash`. Faults (faults.ts) and the options (options.ts) can be changed while it runs.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import type { SandboxDataset } from '../eventor/dataset.js';
import { type LiveFaultRule, LiveFaults } from './faults.js';
import { legacyRoute } from './legacy.js';
import { DEFAULT_LIVE_OPTIONS, type LiveOptions } from './options.js';
import { restRoute } from './rest.js';
import { LiveWorld } from './world.js';

export interface SandboxLiveOptions {
  /** The sandbox Eventor's data, whose races it serves. */
  dataset: SandboxDataset;
  /** The sandbox clock (default: the dataset's). */
  now?: () => Date;
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  options?: Partial<LiveOptions>;
}

export interface LiveRequest {
  api: 'rest' | 'legacy';
  /** The REST path, or `api.php/<method>`. */
  key: string;
  query: Record<string, string>;
  acceptEncoding: string | null;
  ifNoneMatch: string | null;
  status: number | null;
  /** For the 'huge' fault: the body bytes the client took, and whether it hung up first. */
  streamed?: { bytesWritten: number; closedEarly: boolean };
}

export interface SandboxLiveResultat {
  /** LIVERESULTAT_URL for this sandbox. */
  readonly restUrl: string;
  /** LIVERESULTAT_LEGACY_URL for this sandbox. */
  readonly legacyUrl: string;
  readonly world: LiveWorld;
  /** Change them at will: the next answer follows. */
  readonly options: LiveOptions;
  readonly faults: LiveFaults;
  /** Every request, oldest first (at most 10,000). */
  readonly requests: LiveRequest[];
  close(): Promise<void>;
}

export type { LiveFaultRule };

const MAX_LOGGED = 10_000;

export async function startSandboxLiveResultat(config: SandboxLiveOptions): Promise<SandboxLiveResultat> {
  const clock = config.now ?? config.dataset.clock;
  const options: LiveOptions = { ...DEFAULT_LIVE_OPTIONS, ...config.options };
  const world = new LiveWorld(config.dataset, options, () => clock().getTime());
  const faults = new LiveFaults();
  const requests: LiveRequest[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/html' }).end('<html><body>500</body></html>');
      else res.destroy();
    }
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const raw = req.url ?? '/';
    const url = new URL(raw, 'http://sandbox.invalid');
    const legacy = url.pathname === '/api.php';
    const key = legacy ? `api.php/${(url.searchParams.get('method') ?? '').toLowerCase()}` : url.pathname;
    const logged: LiveRequest = {
      api: legacy ? 'legacy' : 'rest',
      key,
      query: Object.fromEntries(url.searchParams),
      acceptEncoding: header(req, 'accept-encoding'),
      ifNoneMatch: header(req, 'if-none-match'),
      status: null,
    };
    requests.push(logged);
    if (requests.length > MAX_LOGGED) requests.splice(0, requests.length - MAX_LOGGED);
    if (req.method !== 'GET') return send(res, logged, 405, 'text/plain', Buffer.from('Method Not Allowed'));

    const { latencyMs, fault } = faults.take(key);
    const act = async (): Promise<void> => {
      if (fault?.kind === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (fault?.kind === 'status') {
        const status = fault.status ?? 503;
        return send(res, logged, status, 'text/html', Buffer.from(`<html><body><h1>${status}</h1></body></html>`));
      }
      if (fault?.kind === 'huge') return streamHuge(res, logged, fault.bytes ?? 64 * 1024 * 1024);
      if (fault?.kind === 'maintenance')
        return send(
          res,
          logged,
          200,
          'text/html',
          Buffer.from('<!DOCTYPE html><html><body>Underhåll pågår</body></html>'),
        );
      // Another competition's answer: the id in the path (REST) or `comp` (api.php) swapped before routing.
      const swap = fault?.kind === 'otherCompetition' ? String(fault.competitionId ?? 0) : null;
      let body: Buffer;
      let status: number;
      let headers: Record<string, string>;
      if (legacy) {
        const query = new URLSearchParams(url.searchParams);
        if (swap !== null && query.has('comp')) query.set('comp', swap);
        const reply = legacyRoute(world, query);
        status = reply.status;
        body = Buffer.from(reply.text, 'utf8');
        const expires = new Date(clock().getTime() + 15_000).toUTCString();
        headers = {
          'Content-Type': 'application/json; charset=utf-8',
          'Access-Control-Allow-Origin': '*',
          'Cache-Control': 'max-age=15',
          Expires: expires,
        };
      } else {
        // Routed on the raw path: a `/` inside an encoded class name is a separate segment to the router too.
        const segments = raw
          .split('?')[0]!
          .split('/')
          .filter((s) => s !== '');
        if (swap !== null && segments[0] === 'competitions' && segments[1] !== undefined) segments[1] = swap;
        const reply = restRoute(world, segments, url.searchParams);
        status = reply.status;
        const text = reply.body === null ? '' : JSON.stringify(reply.body);
        const encoding = pickEncoding(logged.acceptEncoding, options.compress && status === 200);
        // The CDN keys its copies, and their ETags, on the Accept-Encoding asked with.
        const etag = `"${createHash('md5')
          .update(`${text}|${encoding ?? 'identity'}|${logged.acceptEncoding ?? ''}`)
          .digest('hex')}"`;
        headers = {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'public, max-age=5',
          'X-Cache': 'Miss from cloudfront',
          ...(status === 200 ? { ETag: etag } : {}),
        };
        if (
          status === 200 &&
          logged.ifNoneMatch !== null &&
          logged.ifNoneMatch.split(',').some((t) => t.trim() === etag)
        )
          return send(res, logged, 304, null, Buffer.alloc(0), headers);
        const plain = Buffer.from(text, 'utf8');
        // Compressed off the event loop: the service runs on its own machines, and in the bench and the
        // tests its compression (brotli's best, tens of ms for an export) must not hold the bot's loop.
        body = encoding === 'br' ? await brotliAsync(plain) : encoding === 'gzip' ? await gzipAsync(plain) : plain;
        if (encoding !== null) headers['Content-Encoding'] = encoding;
        headers.Vary = 'Accept-Encoding';
      }
      if (fault?.kind === 'truncate' && status === 200) return truncate(res, logged, status, headers, body);
      send(res, logged, status, headers['Content-Type'] ?? null, body, headers);
    };
    const run = (): void => {
      act().catch(() => res.destroy());
    };
    if (latencyMs > 0) setTimeout(run, latencyMs);
    else run();
  }

  server.listen(config.port ?? 0, config.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    restUrl: origin,
    legacyUrl: `${origin}/api.php`,
    world,
    options,
    faults,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** br when accepted, else gzip when accepted, else none. */
function pickEncoding(accepted: string | null, allowed: boolean): 'br' | 'gzip' | null {
  if (!allowed || accepted === null) return null;
  const names = accepted.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  return names.includes('br') ? 'br' : names.includes('gzip') ? 'gzip' : null;
}

function send(
  res: ServerResponse,
  logged: LiveRequest,
  status: number,
  contentType: string | null,
  body: Buffer,
  headers: Record<string, string> = {},
): void {
  logged.status = status;
  const all: Record<string, string | number> = { ...headers, 'Content-Length': body.length };
  if (contentType !== null) all['Content-Type'] = contentType;
  else delete all['Content-Type'];
  res.writeHead(status, all);
  res.end(status === 304 ? undefined : body);
}

/** The real answer cut off halfway: Content-Length promises all of it, then the connection closes. */
function truncate(
  res: ServerResponse,
  logged: LiveRequest,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
): void {
  logged.status = status;
  res.writeHead(status, { ...headers, 'Content-Length': body.length });
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
}

const PADDING = Buffer.alloc(64 * 1024, ' ');

/** A JSON-looking body that goes on for `total` bytes, each 64 KiB written once the previous one was taken. */
function streamHuge(res: ServerResponse, logged: LiveRequest, total: number): void {
  const streamed = { bytesWritten: 0, closedEarly: false };
  logged.status = 200;
  logged.streamed = streamed;
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  const head = Buffer.from('{"competitions":[', 'utf8');
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
    const chunk = (streamed.bytesWritten === 0 ? head : PADDING).subarray(0, Math.min(left, 64 * 1024));
    res.write(chunk, (error) => {
      if (error) return;
      streamed.bytesWritten += chunk.length;
      next();
    });
  };
  next();
}
