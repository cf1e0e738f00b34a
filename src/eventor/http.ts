/**
 * The one HTTP layer in front of Eventor (docs/eventor.md#how-the-client-treats-eventor): headers,
 * timeouts, bounded retries with backoff, a concurrency limit per API key, coalescing of identical
 * GETs in flight, and a response cache with stale-if-error. It knows nothing about operations or XML shapes: the
 * caller hands it a parse function, so only bodies that parsed are ever cached.
 *
 * The cache and the sharing of requests in flight are lru-cache's (response-cache.ts); what stays
 * here is what no library knows: which key an answer belongs to, what a refused key may be
 * served, Eventor's statuses as typed errors, and the per-request size cap.
 *
 * Clients of one Eventor instance may share one SharedResponseCache: an answer that does not
 * depend on whose key asked (the caller says so per request) is then fetched once for every key,
 * and an answer that does is kept apart per key, exactly as if each client had its own cache.
 * Answers are deep-frozen and handed out as they are, never copied.
 *
 * Size: a 2xx body is read with a byte count against the request's cap (times the transport's
 * scale); past it, or when Content-Length alone is past it, the body is dropped, the connection
 * closed and the call fails with ResponseTooLarge, never retried. undici's own `maxResponseSize`
 * does not fit: it is one number per dispatcher (our callers pass theirs in), not per request.
 *
 * Secrets: the API key, the Username/Password headers and the single-use login links never
 * appear in an error message, an observability event or a map key (keys use a hash of the API key).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LRUCache } from 'lru-cache';
import { Agent, type Dispatcher, interceptors, type RetryHandler } from 'undici';
import {
  AuthenticationFailed,
  EventorError,
  InvalidApiKey,
  InvalidResponse,
  NotFound,
  RateLimited,
  ResponseTooLarge,
  Timeout,
  Unreachable,
  Upstream,
  ValidationError,
} from './errors.js';
import type { EventorInstance } from './instances.js';
import {
  type AnswerFetch,
  type CachedAnswer,
  type DeepReadonly,
  deepFreeze,
  nonNegativeInt,
  SharedResponseCache,
} from './response-cache.js';

export { type DeepReadonly, type SharedCacheOptions, SharedResponseCache } from './response-cache.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 20_000;
/** The cap of a request that names none (the operations all name theirs). */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/**
 * A JavaScript string holds at most about 2^29 characters in V8 (512 Mi one-byte characters), and
 * an answer becomes one string before it is parsed: no scaled cap may pass this.
 */
export const MAX_RESPONSE_BYTES_CEILING = 512 * 1024 * 1024 - 1024;
/** Longest Retry-After we honour; a longer one is cut to this so a command never hangs for hours. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export const USER_AGENT = `eventor-bot/${readOwnVersion()} (+https://github.com/eventor-bot/eventor-bot)`;

/** Reads the version from our own package.json, wherever the module runs from (src or dist). */
function readOwnVersion(): string {
  try {
    let dir = new URL('.', import.meta.url);
    for (let i = 0; i < 6; i++) {
      try {
        const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
          name?: unknown;
          version?: unknown;
        };
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
  /** Rough bound on the cached bodies' total size in bytes (as they came over the wire). Default 64 MiB. */
  maxBytes?: number;
  /** How long after expiry an entry may still be served when Eventor fails transiently. Default 6 h. */
  maxStaleMs?: number;
  /** Per-operation TTL overrides in ms (0 disables caching of that operation). */
  ttlMs?: Record<string, number>;
}

export interface TransportOptions {
  instance: EventorInstance;
  apiKey: string;
  /**
   * Cache and in-flight requests shared with other clients of the same instance (whatever their
   * key). Its own bounds apply instead of `cache.maxEntries`/`cache.maxBytes`; the clients sharing
   * it should share a clock (`now`). Default: a cache of this client's own.
   */
  shared?: SharedResponseCache;
  /** Per attempt (headers and the whole body); the wait before a retry does not count. Default 30 s. */
  timeoutMs?: number;
  /** Retries of a GET after its first attempt (undici's retry interceptor; a PUT is never retried). Default 3. */
  retries?: number;
  /**
   * Concurrent requests per API key. Default 4. Clients of one key and origin share one limit,
   * set by the first of them.
   */
  concurrency?: number;
  cache?: boolean | CacheOptions;
  /**
   * Multiplies every request's `maxResponseBytes` (the operator's EVENTOR_MAX_RESPONSE_MB over the
   * default 256). Default 1. A scaled cap never passes MAX_RESPONSE_BYTES_CEILING.
   */
  responseLimitScale?: number;
  /**
   * An undici dispatcher to use instead of our own keep-alive Agent (tests, proxies); the retry
   * interceptor is composed on it all the same. Not closed by close().
   */
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
  /**
   * The most bytes a 2xx body may have (before the transport's scale); past it the request is
   * cut off and fails with ResponseTooLarge. Default DEFAULT_MAX_RESPONSE_BYTES.
   */
  maxResponseBytes?: number;
  /** Whether identical calls in flight may share one request (never for single-use answers). */
  coalesce: boolean;
  /** Skip the cached answer (still storing the new one): for reads that a write will build on. */
  fresh?: boolean;
  /**
   * The answer is the same whichever key asks (public data), so clients with other keys that
   * share this one's SharedResponseCache may be served it, and it them. Default false: the
   * answer is kept to this key. Ignored for PUT and for requests with secret headers.
   */
  keyIndependent?: boolean;
  /**
   * Turns the body into the result; throws (or rejects with) InvalidResponse (or anything) when it
   * cannot. A promise when the parse runs off the main thread (parse-worker.ts).
   */
  parse: (body: string) => T | Promise<T>;
  /**
   * A body of at least `bytesFrom` bytes goes to `parseBytes` as the bytes that arrived, undecoded:
   * decoding and joining a 141 MB result list, then copying the text to the parser's thread, held
   * the main thread for about a second; the bytes are handed over without a copy (parse-worker.ts).
   */
  large?: { bytesFrom: number; parseBytes: (bytes: Uint8Array) => Promise<T> };
}

export interface HttpResult<T> {
  /** Deep-frozen: cached and coalesced answers are shared by every caller, never copied. */
  value: DeepReadonly<T>;
  fromCache: boolean;
  coalesced: boolean;
  stale: boolean;
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

/** How one request may share: the answer's key, and whether the asking key is refused. */
interface Sharing {
  keyIndependent: boolean;
  refused: boolean;
  /** Where the key-independent answer lives (null when the request is key-bound). */
  sharedKey: string | null;
}

/** A shared fetch's failure, with whose key it travelled: a refusal of that key is no answer for others. */
class FlightFailure {
  constructor(
    readonly error: unknown,
    readonly keyId: string,
  ) {}
}

/** A body cut off after the headers: fetchWithRetries asks for it again whole. */
class CutOffBody {
  constructor(readonly error: EventorError) {}
}

/** What came back for one request: a 2xx's body (text, or bytes when large), or only the status. */
interface Received {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string | Uint8Array;
  /** The body's size as it came over the wire: what the cache counts, whether kept as text or bytes. */
  bytes: number;
}

/**
 * One attempt of a request, and the next one when undici retries: its deadline (undici's
 * bodyTimeout is per chunk, so a slow trickle of a large list could otherwise run far past it;
 * it does not run while waiting to retry), its slot of the key's concurrency (held per attempt and
 * given back while waiting to retry), and what it reports.
 */
class Attempt {
  status: number | null = null;
  headersArrived = false;
  #controller = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #release: (() => void) | null = null;
  #started = 0;

  constructor(
    private readonly transport: {
      now: () => number;
      timeoutMs: number;
      emit: (event: RequestEvent) => void;
      semaphore: Semaphore;
    },
    private readonly operation: string,
    private readonly method: 'GET' | 'PUT',
    readonly count: { attempt: number },
  ) {}

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Takes a slot and starts the deadline. */
  async begin(): Promise<void> {
    this.#started = this.transport.now();
    this.#timer = setTimeout(() => this.#controller.abort(), this.transport.timeoutMs);
    this.#release = await this.transport.semaphore.acquire();
  }

  /** The retry after this one: a slot again, a deadline of its own, counted. */
  async next(): Promise<void> {
    this.#release = await this.transport.semaphore.acquire();
    this.count.attempt++;
    this.#started = this.transport.now();
    this.status = null;
    this.#timer = setTimeout(() => this.#controller.abort(), this.transport.timeoutMs);
  }

  /** Stops the deadline and gives the slot back (again harmlessly). */
  end(): void {
    clearTimeout(this.#timer);
    this.#release?.();
    this.#release = null;
  }

  /** Reports the attempt: how it ended, after how long. */
  report(error: EventorError | null): void {
    this.transport.emit({
      operation: this.operation,
      method: this.method,
      status: this.status,
      durationMs: this.transport.now() - this.#started,
      attempt: this.count.attempt,
      fromCache: false,
      coalesced: false,
      stale: false,
      error: error ? error.code : null,
    });
  }

  /** Reports the error and hands it back, to be thrown. */
  failed<E extends EventorError>(error: E): E {
    this.report(error);
    return error;
  }
}

/** Eventor's answer to a request it did not serve, as the typed error callers handle. */
function statusError(
  statusCode: number,
  path: string,
  retryAfterMs: number | null,
  op: { operation: string },
): EventorError {
  if (statusCode === 403) return new InvalidApiKey(op);
  if (statusCode === 401) return new AuthenticationFailed(op);
  if (statusCode === 404) return new NotFound(path, op);
  if (statusCode === 400)
    return new ValidationError('parameters', 'Eventor rejected the request as a Bad Request (HTTP 400)', op);
  if (statusCode === 429) return new RateLimited(retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000), op);
  if (statusCode >= 300 && statusCode < 400)
    return new InvalidResponse(
      `HTTP ${statusCode} redirect (not followed; set the instance base URL to the final address)`,
      null,
      op,
    );
  return new Upstream(statusCode, op);
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Whether a 2xx body is XML at all (a maintenance page is HTML, often with a 200). */
export function looksLikeXml(body: string, contentType: string | undefined): boolean {
  const head = body
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 256)
    .toLowerCase();
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
  /** The dispatcher requests go through: the keep-alive Agent (or the injected one) with undici's retries. */
  private readonly dispatcher: Dispatcher;
  /** Our own Agent, closed by close(); null when the caller passed a dispatcher (theirs to close). */
  private readonly ownDispatcher: Agent | null;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly responseLimitScale: number;
  private readonly limiterKey: string;
  private readonly semaphore: Semaphore;
  private readonly cacheEnabled: boolean;
  private readonly maxStaleMs: number;
  private readonly ttlOverrides: Record<string, number>;
  private readonly cache: SharedResponseCache;
  /** Whether the cache is this client's alone (then close() empties it). */
  private readonly ownsCache: boolean;
  private readonly onRequest: ((event: RequestEvent) => void) | undefined;
  private readonly onStale: TransportOptions['onStale'];
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private closed = false;

  constructor(options: TransportOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '')
      throw new ValidationError('apiKey', 'is empty');
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
    this.responseLimitScale = positive(options.responseLimitScale, 1, 'responseLimitScale');
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.onRequest = options.onRequest;
    this.onStale = options.onStale;

    const cacheOptions =
      options.cache === undefined || options.cache === true ? {} : options.cache === false ? null : options.cache;
    this.cacheEnabled = cacheOptions !== null;
    this.maxStaleMs = cacheOptions?.maxStaleMs ?? 6 * 3_600_000;
    this.ttlOverrides = cacheOptions?.ttlMs ?? {};
    this.ownsCache = options.shared === undefined;
    this.cache =
      options.shared ??
      new SharedResponseCache({ maxEntries: cacheOptions?.maxEntries, maxBytes: cacheOptions?.maxBytes });

    // An Agent keeps one keep-alive pool per origin; redirects are not followed, because the
    // ApiKey header would travel along to wherever the Location points.
    this.ownDispatcher = options.dispatcher
      ? null
      : new Agent({
          connections: concurrency,
          keepAliveTimeout: 30_000,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        });
    // undici retries (send() decides per attempt, see there). throwOnError: false hands us the
    // last answer when retries end, so its status maps to a typed error like any other.
    this.dispatcher = (options.dispatcher ?? this.ownDispatcher!).compose(
      interceptors.retry({
        throwOnError: false,
        maxRetries: this.retries,
        methods: ['GET'],
        statusCodes: [...RETRY_STATUSES],
      }),
    );

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
    const ttl =
      this.cacheEnabled && this.cache.keeps && req.method === 'GET'
        ? (this.ttlOverrides[req.operation] ?? req.cacheTtlMs)
        : 0;
    // Credentials in headers make an answer the caller's own, whatever the operation claims.
    const claimsIndependent =
      req.keyIndependent === true && req.method === 'GET' && Object.keys(req.secretHeaders ?? {}).length === 0;
    // A key Eventor refused is served nothing fetched with other keys (that would hide the
    // refusal): its requests are its own, read no cache and join only its own key's requests,
    // until Eventor accepts it.
    const refused = claimsIndependent && this.cache.refused.has(this.keyId);
    const how: Sharing = {
      keyIndependent: claimsIndependent && !refused,
      refused,
      sharedKey: claimsIndependent ? this.requestKey(req, true) : null,
    };
    const key = this.requestKey(req, how.keyIndependent);

    if (ttl > 0 && req.fresh !== true && !refused) {
      // Read with allowStale: the library's clock only says when an answer must go; whether it
      // is fresh is the reader's TTL's call (another client may have stored it with a longer one).
      const answer = this.cache.entries.get(key, { allowStale: true });
      if (answer && this.freshUntil(answer, ttl) > this.now()) {
        this.emitWithoutRequest(req, { durationMs: 0, fromCache: true, coalesced: false, stale: false, error: null });
        return { value: answer.value as DeepReadonly<T>, fromCache: true, coalesced: false, stale: false };
      }
    }
    if (!req.coalesce || req.method !== 'GET') {
      try {
        const { answer, keepForMs } = await this.fetchAnswer(req, ttl, how);
        if (ttl > 0) this.cache.entries.set(key, answer, { ttl: keepForMs });
        return { value: answer.value as DeepReadonly<T>, fromCache: false, coalesced: false, stale: false };
      } catch (error) {
        return this.staleOrThrow(req, key, ttl, error, !refused);
      }
    }
    return this.fetchShared(req, key, ttl, how);
  }

  /**
   * Identical GETs in flight share one request: lru-cache's fetch() runs the first caller's
   * fetch and hands its promise to everyone who asks for the key before it settles.
   */
  private async fetchShared<T>(req: HttpRequest<T>, key: string, ttl: number, how: Sharing): Promise<HttpResult<T>> {
    // Answers not to be kept are shared only while in flight: under a key of their own, so they
    // never replace a kept answer, and dropped as soon as they arrive.
    const flightKey = ttl > 0 ? key : `${key} (in flight)`;
    const started = this.now();
    const context: AnswerFetch = {
      run: async () => {
        try {
          return await this.fetchAnswer(req, ttl, how);
        } catch (error) {
          throw new FlightFailure(error, this.keyId);
        }
      },
    };
    for (;;) {
      const status: LRUCache.Status<string, CachedAnswer, AnswerFetch> = {};
      let answer: CachedAnswer | undefined;
      try {
        // forceRefresh: this caller already found no answer fresh for its own TTL.
        answer = await this.cache.entries.fetch(flightKey, { context, forceRefresh: true, allowStale: false, status });
      } catch (failure) {
        const error = failure instanceof FlightFailure ? failure.error : failure;
        const joined = status.fetch === 'inflight';
        // Another key was refused or throttled: that says nothing about ours, so ask again
        // (the cache, another request in flight, or Eventor with our own key).
        if (joined && failure instanceof FlightFailure && failure.keyId !== this.keyId && isAboutTheKey(error))
          continue;
        if (joined)
          this.emitWithoutRequest(req, {
            durationMs: this.now() - started,
            fromCache: false,
            coalesced: true,
            stale: false,
            error: error instanceof EventorError ? error.code : 'Error',
          });
        return this.staleOrThrow(req, key, ttl, error, !how.refused);
      }
      if (answer === undefined) throw new InvalidResponse('no answer', null, { operation: req.operation });
      const coalesced = status.fetch === 'inflight';
      if (ttl <= 0 && !coalesced && this.cache.entries.peek(flightKey, { allowStale: true }) === answer)
        this.cache.entries.delete(flightKey);
      if (coalesced)
        this.emitWithoutRequest(req, {
          durationMs: this.now() - started,
          fromCache: false,
          coalesced: true,
          stale: false,
          error: null,
        });
      return { value: answer.value as DeepReadonly<T>, fromCache: false, coalesced, stale: false };
    }
  }

  /** Stale-if-error: a transient failure serves the expired answer, within maxStaleMs past its time. */
  private staleOrThrow<T>(
    req: HttpRequest<T>,
    key: string,
    ttl: number,
    error: unknown,
    staleAllowed: boolean,
  ): HttpResult<T> {
    if (ttl > 0 && staleAllowed && error instanceof EventorError && error.transient) {
      const answer = this.cache.entries.get(key, { allowStale: true });
      const expiredFor = answer ? this.now() - this.freshUntil(answer, ttl) : Number.POSITIVE_INFINITY;
      if (answer && expiredFor <= this.maxStaleMs) {
        this.emitWithoutRequest(req, {
          durationMs: 0,
          fromCache: true,
          coalesced: false,
          stale: true,
          error: error.code,
        });
        this.onStale?.({ operation: req.operation, error, expiredForMs: Math.max(0, expiredFor) });
        return { value: answer.value as DeepReadonly<T>, fromCache: true, coalesced: false, stale: true };
      }
    }
    throw error;
  }

  /**
   * Drops cached answers of the given operations (after a PUT changed what they show): this
   * key's own and the key-independent ones; other keys' own answers cannot show our change.
   */
  invalidate(operations: readonly string[]): void {
    this.cache.deleteWhere(
      (answer) => operations.includes(answer.operation) && (answer.keyId === null || answer.keyId === this.keyId),
    );
  }

  /** Drops every cached answer this client can be served: its key's and the key-independent ones. */
  clearCache(): void {
    this.cache.deleteWhere((answer) => answer.keyId === null || answer.keyId === this.keyId);
  }

  /** Cached answers this client can be served. */
  get cacheSize(): number {
    let n = 0;
    for (const [, answer] of this.cache.answers()) if (answer.keyId === null || answer.keyId === this.keyId) n++;
    return n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const limiter = limiters.get(this.limiterKey);
    if (limiter && --limiter.users <= 0) limiters.delete(this.limiterKey);
    // A shared cache belongs to whoever made it, and other clients still read from it.
    if (this.ownsCache) this.cache.clear();
    await this.ownDispatcher?.close();
  }

  /**
   * The cache and coalescing key. Key-independent answers leave the key out; all others carry its
   * fingerprint. The zones are in it because they shape the parsed value
   * (docs/eventor.md#time-zones), and clients of one base URL may be configured with different ones.
   */
  private requestKey(req: HttpRequest<unknown>, keyIndependent: boolean): string {
    const query = Object.entries(req.query ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const qs = new URLSearchParams(query).toString();
    const zones = `${this.nativeTimeZone}|${this.instance.nativeTimeZone}`;
    return `${req.method} ${this.origin}${this.basePath}${req.path}${qs ? `?${qs}` : ''} ${zones} ${keyIndependent ? '*' : this.keyId}`;
  }

  /** An answer is fresh for the reader's own TTL too: another client may have stored it with a longer one. */
  private freshUntil(answer: CachedAnswer, ttl: number): number {
    return Math.min(answer.expiresAt, answer.storedAt + ttl);
  }

  /**
   * Asks Eventor and returns the answer, deep-frozen, with how long the cache may keep it: its TTL
   * and the stale-if-error window after it. A refusal of the key drops what the key had.
   */
  private async fetchAnswer<T>(
    req: HttpRequest<T>,
    ttl: number,
    how: Sharing,
  ): Promise<{ answer: CachedAnswer; keepForMs: number }> {
    try {
      const { value, size } = await this.fetchWithRetries(req);
      this.cache.refused.delete(this.keyId);
      const now = this.now();
      const answer: CachedAnswer = {
        operation: req.operation,
        keyId: how.keyIndependent ? null : this.keyId,
        value: deepFreeze(value),
        storedAt: now,
        expiresAt: now + ttl,
        size,
      };
      const keepForMs = ttl > 0 ? ttl + this.maxStaleMs : 1;
      // Accepted again: the public answer goes where every key (this one included) reads it.
      if (how.refused && how.sharedKey !== null && ttl > 0)
        this.cache.entries.set(how.sharedKey, { ...answer, keyId: null }, { ttl: keepForMs });
      return { answer, keepForMs };
    } catch (error) {
      if (error instanceof InvalidApiKey) {
        this.cache.refused.add(this.keyId);
        // Every answer this key got before is now a lie about it (the key check of /status
        // above all): the next call must ask Eventor and meet the refusal itself.
        this.cache.deleteWhere((answer) => answer.keyId === this.keyId);
      }
      throw error;
    }
  }

  /**
   * Retries are undici's (interceptors.retry, composed on the dispatcher): this only says, per
   * failed attempt, whether and when to try again (our statuses, GETs only, full jitter, Retry-After
   * capped), and reports the attempt. One thing undici does not do for us: a body cut off after
   * the headers is resumed by undici with a Range request, which Eventor's API does not serve; so
   * such a body is asked for again whole, here, within the same count of retries.
   */
  private async fetchWithRetries<T>(req: HttpRequest<T>): Promise<{ value: T; size: number }> {
    const count = { attempt: 1 };
    for (;;) {
      try {
        return await this.send(req, count);
      } catch (error) {
        if (!(error instanceof CutOffBody)) throw error;
        if (req.method !== 'GET' || count.attempt > this.retries || this.closed) throw error.error;
        await this.sleep(this.backoff(count.attempt));
        count.attempt++;
      }
    }
  }

  /** Delay before retry number `attempt`: random(0, min(maxDelay, base * 2^(attempt-1))), "full jitter". */
  private backoff(attempt: number): number {
    return this.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
  }

  /** One request, retried by undici; resolves with the parsed value or rejects with an EventorError (or CutOffBody). */
  private async send<T>(req: HttpRequest<T>, count: { attempt: number }): Promise<{ value: T; size: number }> {
    const attempt = new Attempt(
      { now: this.now, timeoutMs: this.timeoutMs, emit: (event) => this.emit(event), semaphore: this.semaphore },
      req.operation,
      req.method,
      count,
    );
    await attempt.begin();
    let response: Received;
    try {
      response = await this.exchange(req, attempt);
    } finally {
      attempt.end();
    }
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const value = await this.valueOf(req, response, attempt);
      attempt.report(null);
      return { value, size: response.bytes };
    }
    const op = { operation: req.operation };
    throw attempt.failed(
      statusError(response.statusCode, req.path, parseRetryAfter(response.headers['retry-after'], this.now()), op),
    );
  }

  /** The request as Eventor is sent it: the key in its header, UTC asked for where the instance takes it. */
  private requestOf<T>(req: HttpRequest<T>): { path: string; headers: Record<string, string>; limitBytes: number } {
    const headers: Record<string, string> = {
      ...req.secretHeaders,
      ApiKey: this.#apiKey,
      'User-Agent': USER_AGENT,
      Accept: 'application/xml',
    };
    if (this.instance.supportsUtcHeader) headers.TimeZone = 'UTC';
    if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/xml; charset=utf-8';
    const qs = new URLSearchParams(Object.entries(req.query ?? {})).toString();
    const limitBytes = Math.min(
      MAX_RESPONSE_BYTES_CEILING,
      Math.floor((req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES) * this.responseLimitScale),
    );
    return { path: `${this.basePath}${req.path}${qs ? `?${qs}` : ''}`, headers, limitBytes };
  }

  /**
   * Whether undici tries again after a failed attempt, and when: our statuses, GETs only, full
   * jitter, Retry-After capped; never once the body is being read (see fetchWithRetries).
   */
  private retryFor<T>(req: HttpRequest<T>, attempt: Attempt): RetryHandler.RetryCallback {
    const op = { operation: req.operation };
    return (err, _context, callback) => {
      const statusCode = (err as { statusCode?: unknown }).statusCode;
      const failedStatus = typeof statusCode === 'number' ? statusCode : null;
      const retryable =
        !attempt.headersArrived &&
        req.method === 'GET' &&
        attempt.count.attempt <= this.retries &&
        !this.closed &&
        (failedStatus === null ? !isTimeoutError(err) : RETRY_STATUSES.has(failedStatus));
      if (!retryable) {
        // undici hands on the response (throwOnError: false) or the error; reported there.
        callback(err);
        return;
      }
      const responseHeaders = (err as { headers?: Record<string, string | string[] | undefined> }).headers ?? {};
      const retryAfterMs = failedStatus === null ? null : parseRetryAfter(responseHeaders['retry-after'], this.now());
      attempt.status = failedStatus;
      attempt.report(
        failedStatus === null
          ? this.networkFailure(err, false, op)
          : statusError(failedStatus, req.path, retryAfterMs, op),
      );
      const backoff = this.backoff(attempt.count.attempt);
      const delay = retryAfterMs === null ? backoff : Math.min(this.maxRetryAfterMs, Math.max(retryAfterMs, backoff));
      attempt.end();
      void this.sleep(delay)
        .then(async () => {
          await attempt.next();
          callback(this.closed ? err : null);
        })
        .catch(() => callback(err));
    };
  }

  /** Sends the request and reads what comes back, within the attempt's deadline and the size cap. */
  private async exchange<T>(req: HttpRequest<T>, attempt: Attempt): Promise<Received> {
    const op = { operation: req.operation };
    const { path, headers, limitBytes } = this.requestOf(req);
    try {
      const response = await this.dispatcher.request({
        origin: this.origin,
        path,
        method: req.method,
        headers,
        body: req.body,
        signal: attempt.signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        retryOptions: { retry: this.retryFor(req, attempt) },
      } as Dispatcher.RequestOptions & { retryOptions: RetryHandler.RetryOptions });
      attempt.headersArrived = true;
      attempt.status = response.statusCode;
      if (response.statusCode < 200 || response.statusCode >= 300) {
        // Error bodies are HTML pages or plain text: read and drop them so the socket is reused.
        await response.body.dump({ limit: 256 * 1024 }).catch(() => undefined);
        return { statusCode: response.statusCode, headers: response.headers, body: '', bytes: 0 };
      }
      const { body, bytes } = await readBodyWithin(
        response.body,
        limitBytes,
        headerValue(response.headers, 'content-length'),
        op,
        req.large?.bytesFrom ?? Number.POSITIVE_INFINITY,
      );
      return { statusCode: response.statusCode, headers: response.headers, body, bytes };
    } catch (error) {
      if (error instanceof ResponseTooLarge) throw attempt.failed(error);
      const timedOut = attempt.signal.aborted || isTimeoutError(error);
      const mapped = timedOut
        ? new Timeout(this.timeoutMs, op)
        : this.networkFailure(error, attempt.status !== null, op);
      attempt.report(mapped);
      // A connection lost after the status line means a cut-off document: asked again whole.
      if (!timedOut && attempt.status !== null) throw new CutOffBody(mapped);
      // Timeouts are not retried: a slow Eventor is slow again, and a Discord reply cannot wait minutes.
      throw mapped;
    }
  }

  /** The parsed answer of a 2xx: a large body stays bytes, and its start tells whether it is XML at all. */
  private async valueOf<T>(req: HttpRequest<T>, response: Received, attempt: Attempt): Promise<T> {
    const op = { operation: req.operation };
    try {
      const text = typeof response.body === 'string' ? response.body : null;
      if (text !== null && text.trim() === '') throw new InvalidResponse('empty body', null, op);
      const head = text ?? new TextDecoder('utf-8').decode((response.body as Uint8Array).subarray(0, 4096));
      if (!looksLikeXml(head, headerValue(response.headers, 'content-type')))
        throw new InvalidResponse('not XML (maintenance page?)', null, op);
      return text !== null || !req.large
        ? await req.parse(text ?? '')
        : await req.large.parseBytes(response.body as Uint8Array);
    } catch (error) {
      throw attempt.failed(
        error instanceof EventorError
          ? error
          : new InvalidResponse(
              `could not read the XML (${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'})`,
              null,
              { ...op, cause: error },
            ),
      );
    }
  }

  /**
   * A network failure as a typed error: after the status line it is a cut-off document (say that
   * the answer was unusable rather than that Eventor is unreachable), before it Eventor unreachable.
   */
  private networkFailure(error: unknown, afterHeaders: boolean, op: { operation: string }): EventorError {
    return afterHeaders
      ? new InvalidResponse(
          `truncated body: the connection closed before the whole document arrived (${networkReason(error)})`,
          null,
          { ...op, cause: sanitizedCause(error) },
        )
      : new Unreachable(networkReason(error), { ...op, cause: sanitizedCause(error) });
  }

  /** A call answered without a request of its own: from the cache, or by joining another caller's request in flight. */
  private emitWithoutRequest(
    req: Pick<HttpRequest<unknown>, 'operation' | 'method'>,
    answer: Pick<RequestEvent, 'durationMs' | 'fromCache' | 'coalesced' | 'stale' | 'error'>,
  ): void {
    this.emit({ operation: req.operation, method: req.method, status: null, attempt: 0, ...answer });
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

/**
 * The body, counting bytes as they arrive: past `limitBytes` (or when Content-Length says it will
 * be) the stream is destroyed, which makes undici abort the request and close the socket, so
 * nothing more is read. Decoded as UTF-8 (a BOM dropped, as undici's text() does); a body of
 * `bytesFrom` bytes or more is returned as its bytes, undecoded, in one buffer of its own (so that
 * it can be handed to another thread without a copy).
 */
async function readBodyWithin(
  body: Dispatcher.ResponseData['body'],
  limitBytes: number,
  contentLength: string | undefined,
  op: { operation: string },
  bytesFrom: number,
): Promise<{ body: string | Uint8Array; bytes: number }> {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  if (Number.isFinite(declared) && declared > limitBytes) {
    abandon(body);
    throw new ResponseTooLarge(limitBytes, declared, op);
  }
  // When Content-Length announces a large body, its bytes are copied into one buffer as they
  // arrive, a chunk at a time between other work, instead of joined at the end in one copy that
  // held the main thread for half a second on a 141 MB result list.
  let whole = Number.isInteger(declared) && declared >= bytesFrom ? Buffer.allocUnsafeSlow(declared) : null;
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (received + chunk.length > limitBytes) {
      abandon(body);
      throw new ResponseTooLarge(limitBytes, null, op);
    }
    if (whole !== null && received + chunk.length > whole.length) {
      // More than announced: go on joining at the end, from what is in so far.
      chunks.push(whole.subarray(0, received));
      whole = null;
    }
    if (whole !== null) chunk.copy(whole, received);
    else chunks.push(chunk);
    received += chunk.length;
  }
  // Buffer.concat of more than a few kB allocates a buffer of its own (not Node's shared pool).
  const bytes = whole !== null ? whole.subarray(0, received) : Buffer.concat(chunks, received);
  return { body: received >= bytesFrom ? bytes : new TextDecoder('utf-8').decode(bytes), bytes: received };
}

/**
 * Stops reading and closes the connection. Destroying an undici body emits its abort as an
 * 'error' event, which would take the whole process down if nobody listened: we know, so we listen.
 */
function abandon(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/** Failures that belong to the key that asked (refused, throttled), not to the request. */
function isAboutTheKey(error: unknown): boolean {
  return error instanceof InvalidApiKey || error instanceof RateLimited;
}

function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
  );
}

/** A short reason from a network error: its code only, since messages can quote hosts and headers. */
function networkReason(error: unknown): string {
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code ??
    (error as { cause?: { code?: unknown } } | null)?.cause?.code;
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
