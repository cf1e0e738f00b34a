/**
 * The one HTTP layer in front of Eventor (wire notes section 14.1): headers, timeouts, bounded
 * retries with backoff, a concurrency limit per API key, coalescing of identical GETs in flight,
 * and a response cache with stale-if-error. It knows nothing about operations or XML shapes: the
 * caller hands it a parse function, so only bodies that parsed are ever cached.
 *
 * Secrets: the API key, the Username/Password headers and the single-use login links never
 * appear in an error message, an observability event or a map key (keys use a hash of the API key).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, type Dispatcher } from 'undici';
import {
  AuthenticationFailed,
  EventorError,
  InvalidApiKey,
  InvalidResponse,
  NotFound,
  RateLimited,
  Timeout,
  Unreachable,
  Upstream,
  ValidationError,
} from './errors.js';
import type { EventorInstance } from './instances.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 20_000;
/** Longest Retry-After we honour; a longer one is cut to this so a command never hangs for hours. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export const USER_AGENT = `eventor-bot/${readOwnVersion()} (+https://github.com/eventor-bot/eventor-bot)`;

/** Reads the version from our own package.json, wherever the module runs from (src or dist). */
function readOwnVersion(): string {
  try {
    let dir = new URL('.', import.meta.url);
    for (let i = 0; i < 6; i++) {
      try {
        const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: unknown; version?: unknown };
        if (pkg.name === 'eventor-bot' && typeof pkg.version === 'string') return pkg.version;
      } catch {
        // not here: keep walking up
      }
      dir = new URL('..', dir);
    }
  } catch {
    // a bundler may hide import.meta.url; the version is only informative
  }
  return '0.0.0';
}

/** What an observer learns about each attempt, cache hit or coalesced call. Carries no secrets. */
export interface RequestEvent {
  operation: string;
  method: 'GET' | 'PUT';
  /** HTTP status of the attempt; null for a cache hit, a coalesced call or a network failure. */
  status: number | null;
  durationMs: number;
  /** 1-based attempt number; 0 for cache hits and coalesced calls. */
  attempt: number;
  fromCache: boolean;
  coalesced: boolean;
  /** An expired cache entry was served because Eventor failed transiently. */
  stale: boolean;
  /** The error code when the attempt (or the call) failed. */
  error: string | null;
}

export interface CacheOptions {
  /** Most entries kept; the least recently used go first. Default 500. */
  maxEntries?: number;
  /** Rough bound on the cached bodies' total size in characters. Default 64 MiB worth. */
  maxChars?: number;
  /** How long after expiry an entry may still be served when Eventor fails transiently. Default 6 h. */
  maxStaleMs?: number;
  /** Per-operation TTL overrides in ms (0 disables caching of that operation). */
  ttlMs?: Record<string, number>;
}

export interface TransportOptions {
  instance: EventorInstance;
  apiKey: string;
  timeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  retries?: number;
  /**
   * Concurrent requests per API key. Default 4. Clients of one key and origin share one limit,
   * set by the first of them.
   */
  concurrency?: number;
  cache?: boolean | CacheOptions;
  /** An undici dispatcher to use instead of our own keep-alive Agent (tests, proxies). Not closed by close(). */
  dispatcher?: Dispatcher;
  onRequest?: (event: RequestEvent) => void;
  /** Called when a stale cache entry is served instead of an error. */
  onStale?: (info: { operation: string; error: EventorError; expiredForMs: number }) => void;
  /** Backoff base; delay n is random(0, min(maxDelay, base * 2^n)) ("full jitter"). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export interface HttpRequest<T> {
  /** Operation name for events, errors and cache invalidation. */
  operation: string;
  method: 'GET' | 'PUT';
  /** Path below the instance's base URL, already filled in and encoded (`/event/123`). */
  path: string;
  /** Query parameters; the order does not matter for caching. */
  query?: Record<string, string>;
  /** Extra headers. Treated as secret: never part of a cache key, never reported. */
  secretHeaders?: Record<string, string>;
  body?: string;
  contentType?: string;
  /** Time to live of a parsed response; 0 means never cached. */
  cacheTtlMs: number;
  /** Whether identical calls in flight may share one request (never for single-use answers). */
  coalesce: boolean;
  /** Skip the cached answer (still storing the new one): for reads that a write will build on. */
  fresh?: boolean;
  /** Turns the body into the result; throws InvalidResponse (or anything) when it cannot. */
  parse: (body: string) => T;
}

export interface HttpResult<T> {
  value: T;
  fromCache: boolean;
  coalesced: boolean;
  stale: boolean;
}

interface CacheEntry {
  operation: string;
  value: unknown;
  storedAt: number;
  expiresAt: number;
  size: number;
}

/** A tiny FIFO semaphore: Eventor asks for restraint, and queues stay short, so no library is needed. */
class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(readonly limit: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next();
      else this.active--;
    };
  }
}

// Clients that share an API key share its limit (a bot may build several clients for one club).
const limiters = new Map<string, { semaphore: Semaphore; users: number }>();

/** Short, non-reversible fingerprint of a secret, safe to use in map keys. */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504, 520, 521, 522, 523, 524]);

/** Retry-After as milliseconds: delta seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return null;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

class AttemptFailure {
  constructor(readonly error: EventorError, readonly retryable: boolean, readonly retryAfterMs: number | null) {}
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Whether a 2xx body is XML at all (a maintenance page is HTML, often with a 200). */
export function looksLikeXml(body: string, contentType: string | undefined): boolean {
  const head = body.replace(/^\uFEFF/, '').trimStart().slice(0, 256).toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return false;
  if (contentType !== undefined && /xml/i.test(contentType)) return true;
  return head.startsWith('<?xml') || /^<[a-z_]/.test(head);
}

export class HttpTransport {
  readonly instance: EventorInstance;
  // A true private field: util.inspect and JSON.stringify of a client never show it.
  readonly #apiKey: string;
  private readonly keyId: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly limiterKey: string;
  private readonly semaphore: Semaphore;
  private readonly cacheEnabled: boolean;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly maxStaleMs: number;
  private readonly ttlOverrides: Record<string, number>;
  private readonly cache = new Map<string, CacheEntry>();
  private cacheChars = 0;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly onRequest: ((event: RequestEvent) => void) | undefined;
  private readonly onStale: TransportOptions['onStale'];
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private closed = false;

  constructor(options: TransportOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw new ValidationError('apiKey', 'is empty');
    if (/[\r\n\0]/.test(options.apiKey)) throw new ValidationError('apiKey', 'contains line breaks');
    this.instance = options.instance;
    this.#apiKey = options.apiKey.trim();
    this.keyId = fingerprint(this.#apiKey);
    const base = new URL(options.instance.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.timeoutMs = positive(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
    this.retries = nonNegativeInt(options.retries, DEFAULT_RETRIES, 'retries');
    const concurrency = nonNegativeInt(options.concurrency, DEFAULT_CONCURRENCY, 'concurrency');
    if (concurrency < 1) throw new ValidationError('concurrency', 'must be at least 1');
    this.baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
    this.maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.onRequest = options.onRequest;
    this.onStale = options.onStale;

    const cacheOptions = options.cache === undefined || options.cache === true ? {} : options.cache === false ? null : options.cache;
    this.cacheEnabled = cacheOptions !== null;
    this.maxEntries = cacheOptions?.maxEntries ?? 500;
    this.maxChars = cacheOptions?.maxChars ?? 64 * 1024 * 1024;
    this.maxStaleMs = cacheOptions?.maxStaleMs ?? 6 * 3_600_000;
    this.ttlOverrides = cacheOptions?.ttlMs ?? {};

    if (options.dispatcher) {
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    } else {
      // An Agent keeps one keep-alive pool per origin; redirects are not followed, because the
      // ApiKey header would travel along to wherever the Location points.
      this.dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 30_000, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
      this.ownsDispatcher = true;
    }

    this.limiterKey = `${this.origin}|${this.keyId}`;
    let limiter = limiters.get(this.limiterKey);
    if (!limiter) {
      limiter = { semaphore: new Semaphore(concurrency), users: 0 };
      limiters.set(this.limiterKey, limiter);
    }
    limiter.users++;
    this.semaphore = limiter.semaphore;
  }

  /** The zone native times arrive in: UTC when we ask for it, else the instance's own. */
  get nativeTimeZone(): string {
    return this.instance.supportsUtcHeader ? 'UTC' : this.instance.nativeTimeZone;
  }

  async request<T>(req: HttpRequest<T>): Promise<HttpResult<T>> {
    if (this.closed) throw new Unreachable('client closed', { operation: req.operation });
    const ttl = this.cacheEnabled && req.method === 'GET' ? (this.ttlOverrides[req.operation] ?? req.cacheTtlMs) : 0;
    const key = this.requestKey(req);
    const started = this.now();

    if (ttl > 0 && req.fresh !== true) {
      const entry = this.cache.get(key);
      if (entry && entry.expiresAt > this.now()) {
        // Re-insert to mark it most recently used.
        this.cache.delete(key);
        this.cache.set(key, entry);
        this.emit({ operation: req.operation, method: req.method, status: null, durationMs: 0, attempt: 0, fromCache: true, coalesced: false, stale: false, error: null });
        return { value: structuredClone(entry.value) as T, fromCache: true, coalesced: false, stale: false };
      }
    }

    if (req.coalesce && req.method === 'GET') {
      const pending = this.inFlight.get(key);
      if (pending) {
        try {
          const shared = (await pending) as HttpResult<T>;
          this.emit({ operation: req.operation, method: req.method, status: null, durationMs: this.now() - started, attempt: 0, fromCache: shared.fromCache, coalesced: true, stale: shared.stale, error: null });
          return { ...shared, value: structuredClone(shared.value), coalesced: true };
        } catch (error) {
          this.emit({ operation: req.operation, method: req.method, status: null, durationMs: this.now() - started, attempt: 0, fromCache: false, coalesced: true, stale: false, error: error instanceof EventorError ? error.code : 'Error' });
          throw error;
        }
      }
      const promise = this.fetchAndCache(req, key, ttl);
      this.inFlight.set(key, promise);
      try {
        const result = await promise;
        // Followers clone in their own continuations, which run before our caller's, so the
        // leader may keep the original unless the cache holds it too.
        return ttl > 0 ? { ...result, value: structuredClone(result.value) } : result;
      } finally {
        this.inFlight.delete(key);
      }
    }
    const result = await this.fetchAndCache(req, key, ttl);
    return ttl > 0 ? { ...result, value: structuredClone(result.value) } : result;
  }

  /** Drops cached answers of the given operations (after a PUT changed what they show). */
  invalidate(operations: readonly string[]): void {
    for (const [key, entry] of this.cache) {
      if (operations.includes(entry.operation)) {
        this.cache.delete(key);
        this.cacheChars -= entry.size;
      }
    }
  }

  clearCache(): void {
    this.cache.clear();
    this.cacheChars = 0;
  }

  get cacheSize(): number {
    return this.cache.size;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const limiter = limiters.get(this.limiterKey);
    if (limiter && --limiter.users <= 0) limiters.delete(this.limiterKey);
    this.cache.clear();
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private requestKey(req: HttpRequest<unknown>): string {
    const query = Object.entries(req.query ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const qs = new URLSearchParams(query).toString();
    return `${req.method} ${this.origin}${this.basePath}${req.path}${qs ? `?${qs}` : ''} ${this.keyId}`;
  }

  private async fetchAndCache<T>(req: HttpRequest<T>, key: string, ttl: number): Promise<HttpResult<T>> {
    try {
      const { value, size } = await this.fetchWithRetries(req);
      if (ttl > 0) this.store(key, req.operation, value, size, ttl);
      return { value, fromCache: false, coalesced: false, stale: false };
    } catch (error) {
      if (ttl > 0 && error instanceof EventorError && error.transient) {
        const entry = this.cache.get(key);
        const expiredFor = entry ? this.now() - entry.expiresAt : Infinity;
        if (entry && expiredFor <= this.maxStaleMs) {
          this.emit({ operation: req.operation, method: req.method, status: null, durationMs: 0, attempt: 0, fromCache: true, coalesced: false, stale: true, error: error.code });
          this.onStale?.({ operation: req.operation, error, expiredForMs: Math.max(0, expiredFor) });
          return { value: entry.value as T, fromCache: true, coalesced: false, stale: true };
        }
      }
      throw error;
    }
  }

  /** `size` is the body's length: a fair, free proxy for the parsed value's memory. */
  private store(key: string, operation: string, value: unknown, size: number, ttl: number): void {
    if (size > this.maxChars) return;
    const old = this.cache.get(key);
    if (old) {
      this.cache.delete(key);
      this.cacheChars -= old.size;
    }
    const now = this.now();
    this.cache.set(key, { operation, value, storedAt: now, expiresAt: now + ttl, size });
    this.cacheChars += size;
    for (const [k, entry] of this.cache) {
      if (this.cache.size <= this.maxEntries && this.cacheChars <= this.maxChars) break;
      this.cache.delete(k);
      this.cacheChars -= entry.size;
    }
  }

  private async fetchWithRetries<T>(req: HttpRequest<T>): Promise<{ value: T; size: number }> {
    for (let attempt = 1; ; attempt++) {
      const release = await this.semaphore.acquire();
      let failure: AttemptFailure;
      try {
        return await this.attempt(req, attempt);
      } catch (error) {
        if (!(error instanceof AttemptFailure)) throw error;
        failure = error;
      } finally {
        release();
      }
      if (!failure.retryable || attempt > this.retries || this.closed) throw failure.error;
      const backoff = this.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
      const delay = failure.retryAfterMs === null ? backoff : Math.min(this.maxRetryAfterMs, Math.max(failure.retryAfterMs, backoff));
      await this.sleep(delay);
    }
  }

  /** One attempt; resolves with the parsed value or rejects with an AttemptFailure. */
  private async attempt<T>(req: HttpRequest<T>, attempt: number): Promise<{ value: T; size: number }> {
    const started = this.now();
    const op = { operation: req.operation };
    let status: number | null = null;
    const report = (error: EventorError | null) =>
      this.emit({ operation: req.operation, method: req.method, status, durationMs: this.now() - started, attempt, fromCache: false, coalesced: false, stale: false, error: error ? error.code : null });

    const headers: Record<string, string> = {
      ...req.secretHeaders,
      ApiKey: this.#apiKey,
      'User-Agent': USER_AGENT,
      Accept: 'application/xml',
    };
    if (this.instance.supportsUtcHeader) headers.TimeZone = 'UTC';
    if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/xml; charset=utf-8';
    const qs = new URLSearchParams(Object.entries(req.query ?? {})).toString();
    const path = `${this.basePath}${req.path}${qs ? `?${qs}` : ''}`;

    // One deadline for the whole attempt: undici's bodyTimeout is per chunk, so a slow trickle
    // of a large list could otherwise run far past it.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let statusCode: number;
    let body: string;
    let responseHeaders: Record<string, string | string[] | undefined>;
    try {
      const response = await this.dispatcher.request({
        origin: this.origin,
        path,
        method: req.method,
        headers,
        body: req.body,
        signal: controller.signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      statusCode = response.statusCode;
      status = statusCode;
      responseHeaders = response.headers;
      if (statusCode >= 200 && statusCode < 300) {
        body = await response.body.text();
      } else {
        // Error bodies are HTML pages or plain text: read and drop them so the socket is reused.
        await response.body.dump({ limit: 256 * 1024 }).catch(() => undefined);
        body = '';
      }
    } catch (error) {
      const timedOut = controller.signal.aborted || isTimeoutError(error);
      // A connection lost after the status line means a cut-off document: retry it, and if it
      // keeps happening say that the answer was unusable rather than that Eventor is unreachable.
      const mapped = timedOut
        ? new Timeout(this.timeoutMs, op)
        : status !== null
          ? new InvalidResponse(`truncated body: the connection closed before the whole document arrived (${networkReason(error)})`, null, { ...op, cause: sanitizedCause(error) })
          : new Unreachable(networkReason(error), { ...op, cause: sanitizedCause(error) });
      report(mapped);
      // Timeouts are not retried: a slow Eventor is slow again, and a Discord reply cannot wait minutes.
      throw new AttemptFailure(mapped, !timedOut, null);
    } finally {
      clearTimeout(timer);
    }

    if (statusCode >= 200 && statusCode < 300) {
      let value: T;
      try {
        if (body.trim() === '') throw new InvalidResponse('empty body', null, op);
        if (!looksLikeXml(body, headerValue(responseHeaders, 'content-type'))) throw new InvalidResponse('not XML (maintenance page?)', null, op);
        value = req.parse(body);
      } catch (error) {
        const mapped = error instanceof EventorError
          ? error
          : new InvalidResponse(`could not read the XML (${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'})`, null, { ...op, cause: error });
        report(mapped);
        throw new AttemptFailure(mapped, false, null);
      }
      report(null);
      return { value, size: body.length };
    }

    const retryAfterMs = parseRetryAfter(responseHeaders['retry-after'], this.now());
    let error: EventorError;
    if (statusCode === 403) error = new InvalidApiKey(op);
    else if (statusCode === 401) error = new AuthenticationFailed(op);
    else if (statusCode === 404) error = new NotFound(req.path, op);
    else if (statusCode === 400) error = new ValidationError('parameters', 'Eventor rejected the request as a Bad Request (HTTP 400)', op);
    else if (statusCode === 429) error = new RateLimited(retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000), op);
    else if (statusCode >= 300 && statusCode < 400) error = new InvalidResponse(`HTTP ${statusCode} redirect (not followed; set the instance base URL to the final address)`, null, op);
    else error = new Upstream(statusCode, op);
    report(error);
    throw new AttemptFailure(error, RETRY_STATUSES.has(statusCode), retryAfterMs);
  }

  private emit(event: RequestEvent): void {
    if (!this.onRequest) return;
    try {
      this.onRequest(event);
    } catch {
      // An observer must not break a request.
    }
  }
}

function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT'
    || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));
}

/** A short reason from a network error: its code only, since messages can quote hosts and headers. */
function networkReason(error: unknown): string {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'network error';
}

/** Keeps the error class and code for debugging, not the message (undici may echo request details). */
function sanitizedCause(error: unknown): Error {
  const e = new Error(networkReason(error));
  e.name = error instanceof Error ? error.name : 'Error';
  return e;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new ValidationError(name, 'must be a positive number');
  return value;
}

function nonNegativeInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new ValidationError(name, 'must be a whole number, 0 or more');
  return value;
}
