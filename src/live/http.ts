/**
 * The one HTTP layer in front of the live-results services (docs/live-results.md#how-the-client-asks):
 * GETs on undici with a deadline per attempt, retries of 5xx and failed connections only (undici's
 * retry interceptor, with our jittered backoff), one `Accept-Encoding` on every request (the CDN
 * keys its ETags on it, so a varying header would defeat every 304), the body decompressed and
 * counted against a cap while it streams (past it the connection is closed and nothing more read),
 * and every failure as a typed LiveError. It knows nothing of the APIs' paths or shapes.
 *
 * Decompression is node:zlib's: undici's own decompress interceptor is marked experimental and
 * prints a warning on standard error the first time it is used.
 */
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, type Dispatcher, interceptors, type RetryHandler } from 'undici';
import { LiveError } from './errors.js';
import type { LiveSourceKind } from './model.js';

/** Sent on every request, never varied (see above). */
export const LIVE_ACCEPT_ENCODING = 'gzip, br';
export const DEFAULT_LIVE_TIMEOUT_MS = 15_000;
/** Two retries: at most three tries of one request (docs/live-results.md#failures). */
export const DEFAULT_LIVE_RETRIES = 2;
/**
 * The most bytes one answer may have once decompressed. The largest a live source sends is the
 * unfiltered competition list (under 1 MB) or a big competition's export (a few MB).
 */
export const DEFAULT_LIVE_MAX_BYTES = 16 * 1024 * 1024;

const RETRY_STATUSES = [500, 502, 503, 504];
const RETRY_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
]);

export interface LiveHttpOptions {
  /** The User-Agent header (the program and its version). */
  userAgent: string;
  /** Per attempt, headers and whole body; the wait before a retry does not count. Default 15 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, for 5xx and failed connections. Default 2. */
  retries?: number;
  maxResponseBytes?: number;
  /** Another dispatcher than our keep-alive Agent (tests); the retry interceptor is composed on it. Not closed by close(). */
  dispatcher?: Dispatcher;
  /** Backoff before retry n: random(0, min(maxDelay, base × 2^(n-1))). Defaults 500 ms and 5 s. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
}

export interface LiveHttpResponse {
  /** 200, 304, 400 or 404: what the callers read meaning into; anything else is an error. */
  status: number;
  etag: string | null;
  /** The decompressed body as text (empty for a 304 and the 4xx). */
  body: string;
}

export class LiveHttp {
  readonly #source: LiveSourceKind;
  readonly #userAgent: string;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #maxBytes: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #random: () => number;
  readonly #ownAgent: Agent | null;
  readonly #dispatcher: Dispatcher;
  #closed = false;

  constructor(source: LiveSourceKind, options: LiveHttpOptions) {
    this.#source = source;
    this.#userAgent = options.userAgent;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_LIVE_TIMEOUT_MS;
    this.#retries = options.retries ?? DEFAULT_LIVE_RETRIES;
    this.#maxBytes = options.maxResponseBytes ?? DEFAULT_LIVE_MAX_BYTES;
    this.#baseDelayMs = options.baseDelayMs ?? 500;
    this.#maxDelayMs = options.maxDelayMs ?? 5_000;
    this.#random = options.random ?? Math.random;
    this.#ownAgent = options.dispatcher
      ? null
      : new Agent({
          connections: 4,
          keepAliveTimeout: 30_000,
          headersTimeout: this.#timeoutMs,
          bodyTimeout: this.#timeoutMs,
        });
    // throwOnError: false hands back the last 5xx when the retries end, mapped below like any status.
    this.#dispatcher = (options.dispatcher ?? this.#ownAgent!).compose(
      interceptors.retry({
        throwOnError: false,
        maxRetries: this.#retries,
        methods: ['GET'],
        statusCodes: RETRY_STATUSES,
      }),
    );
  }

  /** GET `url` with `headers` (If-None-Match and the like) added to ours. */
  async get(url: URL, headers: Record<string, string> = {}): Promise<LiveHttpResponse> {
    if (this.#closed) throw new LiveError('Unreachable', 'the live-results client is closed', this.#source);
    const what = `${url.pathname}${url.searchParams.has('method') ? ` (${url.searchParams.get('method')})` : ''}`;
    const controller = new AbortController();
    let timer = setTimeout(() => controller.abort(), this.#timeoutMs);
    let attempt = 1;
    let headersArrived = false;
    const retry: RetryHandler.RetryCallback = (err, _context, callback) => {
      const statusCode = (err as { statusCode?: unknown }).statusCode;
      const code = (err as { code?: unknown }).code;
      // A body already arriving is not resumed (undici would ask for a byte range the services do not serve).
      const retryable =
        !headersArrived &&
        !this.#closed &&
        attempt <= this.#retries &&
        (typeof statusCode === 'number'
          ? RETRY_STATUSES.includes(statusCode)
          : typeof code === 'string' && RETRY_ERROR_CODES.has(code));
      if (!retryable) {
        callback(err);
        return;
      }
      clearTimeout(timer);
      const delay = this.#random() * Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (attempt - 1));
      attempt++;
      setTimeout(() => {
        timer = setTimeout(() => controller.abort(), this.#timeoutMs);
        callback(this.#closed ? err : null);
      }, delay);
    };

    try {
      const response = await this.#dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: {
          ...headers,
          'user-agent': this.#userAgent,
          accept: 'application/json',
          'accept-encoding': LIVE_ACCEPT_ENCODING,
        },
        signal: controller.signal,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        retryOptions: { retry },
      } as Dispatcher.RequestOptions & { retryOptions: RetryHandler.RetryOptions });
      headersArrived = true;
      const status = response.statusCode;
      const etag = header(response.headers, 'etag');
      if (status === 200) {
        const body = await this.#readBody(response.body, header(response.headers, 'content-encoding'), what);
        return { status, etag, body };
      }
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      if (status === 304 || status === 400 || status === 404) return { status, etag, body: '' };
      if (status >= 500 || status === 429)
        throw new LiveError(
          'Unavailable',
          `the live-results service answered HTTP ${status} for ${what}`,
          this.#source,
        );
      if (status >= 300 && status < 400)
        throw new LiveError(
          'InvalidResponse',
          `the live-results service redirected ${what} (HTTP ${status}, not followed: configure the final address)`,
          this.#source,
        );
      throw new LiveError(
        'InvalidResponse',
        `the live-results service answered HTTP ${status} for ${what}`,
        this.#source,
      );
    } catch (error) {
      if (error instanceof LiveError) throw error;
      if (controller.signal.aborted || isTimeout(error))
        throw new LiveError(
          'Timeout',
          `the live-results service did not answer ${what} within ${Math.round(this.#timeoutMs / 1000)} s`,
          this.#source,
        );
      const reason = networkReason(error);
      if (headersArrived)
        throw new LiveError(
          'InvalidResponse',
          `the answer to ${what} was cut off before its end (${reason})`,
          this.#source,
        );
      throw new LiveError('Unreachable', `the live-results service could not be reached (${reason})`, this.#source);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The body decompressed (gzip, brotli, deflate or none) and decoded, counting the decompressed
   * bytes as they come: past the cap the streams are destroyed, which closes the connection.
   */
  async #readBody(body: Readable, encoding: string | null, what: string): Promise<string> {
    const decoder = decompressor(encoding);
    if (decoder === undefined)
      throw new LiveError('InvalidResponse', `the answer to ${what} has an unknown Content-Encoding`, this.#source);
    let output: AsyncIterable<Buffer> = body;
    if (decoder !== null) {
      // pipeline destroys both on an error in either, so the iteration below ends with it.
      pipeline(body, decoder, () => undefined);
      output = decoder;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of output) {
        received += chunk.length;
        if (received > this.#maxBytes) {
          body.on('error', () => undefined);
          body.destroy();
          decoder?.destroy();
          throw new LiveError(
            'TooLarge',
            `the answer to ${what} is larger than the ${Math.round(this.#maxBytes / (1024 * 1024))} MiB allowed; the rest was not read`,
            this.#source,
          );
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof LiveError) throw error;
      if (isTimeout(error)) throw error;
      // A broken compressed stream reads as a cut-off body, which it nearly always is.
      throw new LiveError(
        'InvalidResponse',
        `the answer to ${what} was cut off or corrupt (${networkReason(error)})`,
        this.#source,
      );
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(chunks, received));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#ownAgent?.close();
  }
}

/** The decompressing stream for a Content-Encoding; null for none, undefined for one we cannot read. */
function decompressor(encoding: string | null): ReturnType<typeof createGunzip> | null | undefined {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return null;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'br') return createBrotliDecompress();
  if (name === 'deflate') return createInflate();
  return undefined;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
  );
}

/** A short reason from a network error: its code only (a message may quote hosts or headers). */
function networkReason(error: unknown): string {
  const code =
    (error as { code?: unknown } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'network error';
}
