/**
 * Parsed Eventor answers, kept for one client or shared by every client of an instance, on
 * `lru-cache`: it bounds the entries in count and in size, drops an answer when its own time is
 * up, and shares one fetch among the callers asking for the same key while it is in flight.
 *
 * What stays ours (no library knows about API keys): each answer carries the key it belongs to
 * (none for a key-independent one), so one bound covers all keys and a key's answers never reach
 * another key; keys Eventor refused are remembered; freshness is judged with the reader's TTL.
 *
 * Answers are deep-frozen once, when fetched, and handed out as they are: a cache hit costs the
 * same for a 20,000-runner list as for one event, and no caller can change what another sees.
 */
import { LRUCache } from 'lru-cache';
import { ValidationError } from './errors.js';

/** A value whose every object and array is read-only: what the cache hands out is shared. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer U>
    ? ReadonlyArray<DeepReadonly<U>>
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/**
 * Freezes a parsed answer and everything in it, once. Object.freeze is shallow and no dependency
 * of ours freezes deeply; parsed answers are plain trees (objects, arrays, primitives), so this
 * walk is all it takes.
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value as DeepReadonly<T>;
}

/** One parsed answer and what it belongs to. */
export interface CachedAnswer {
  /** Operation name, for invalidation after a PUT. */
  readonly operation: string;
  /** Fingerprint of the key the answer belongs to; null for a key-independent answer. */
  readonly keyId: string | null;
  /** The parsed body, deep-frozen. */
  readonly value: unknown;
  /** On the fetching client's clock (`now`). */
  readonly storedAt: number;
  readonly expiresAt: number;
  /** The body's size in bytes as it came over the wire: a fair, free proxy for the parsed value's memory. */
  readonly size: number;
}

/** What the fetch of one key needs: the leading caller's way of asking Eventor. */
export interface AnswerFetch {
  /** Asks Eventor; resolves with the answer and how long the cache may keep it (real time). */
  run(): Promise<{ answer: CachedAnswer; keepForMs: number }>;
}

export interface SharedCacheOptions {
  /** Most entries kept; the least recently used go first. Default 500; 0 keeps nothing. */
  maxEntries?: number;
  /** Rough bound on the cached bodies' total size in bytes (as they came over the wire). Default 64 MiB. */
  maxBytes?: number;
}

/**
 * Parsed answers and requests in flight, for one client or for every client of an instance.
 * Entries carry the key they belong to (none for key-independent answers), so one bound covers
 * all keys and a key's answers never reach another key.
 */
export class SharedResponseCache {
  readonly maxEntries: number;
  readonly maxBytes: number;
  /** @internal The answers by request key (see HttpTransport.requestKey), and fetches in flight. */
  readonly entries: LRUCache<string, CachedAnswer, AnswerFetch>;
  /**
   * Fingerprints of keys Eventor refused on their latest request: they get no answers fetched
   * with other keys until Eventor accepts them again, so a revoked key finds out (and its server
   * pauses) instead of living on other clubs' requests.
   * @internal
   */
  readonly refused = new Set<string>();

  constructor(options: SharedCacheOptions = {}) {
    this.maxEntries = nonNegativeInt(options.maxEntries, 500, 'maxEntries');
    this.maxBytes = positiveInt(options.maxBytes, 64 * 1024 * 1024, 'maxBytes');
    this.entries = new LRUCache<string, CachedAnswer, AnswerFetch>({
      // lru-cache reads max 0 as "no bound"; a cache that keeps nothing is told by the transport.
      max: Math.max(1, this.maxEntries),
      maxSize: this.maxBytes,
      sizeCalculation: (answer) => Math.max(1, answer.size),
      fetchMethod: async (_key, _stale, { context, options }) => {
        const { answer, keepForMs } = await context.run();
        // The entry's own lifetime: past its TTL and the stale-if-error window nobody may use it.
        options.ttl = Math.max(1, Math.ceil(keepForMs));
        return answer;
      },
      // A failed refresh keeps the older answer, for stale-if-error (the transport decides
      // per caller whether the failure allows it).
      noDeleteOnFetchRejection: true,
      // Dropping an entry (a PUT's invalidation, a refused key, eviction) must not fail the
      // callers of a fetch in flight: they get its answer, and it is not stored.
      ignoreFetchAbort: true,
    });
  }

  /** Entries kept (requests in flight included). */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes of the cached bodies as they came over the wire (the memory bound's measure). */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** Whether answers may be kept at all (`maxEntries: 0` keeps none). */
  get keeps(): boolean {
    return this.maxEntries > 0;
  }

  /** @internal Answers (not requests in flight) matching `test`, with their keys. */
  *answers(): Generator<[string, CachedAnswer]> {
    // lru-cache's entries() leaves out fetches still in flight.
    yield* this.entries.entries();
  }

  /** @internal */
  deleteWhere(test: (answer: CachedAnswer) => boolean): void {
    for (const [key, answer] of [...this.answers()]) if (test(answer)) this.entries.delete(key);
  }

  /** Drops every cached answer (requests in flight finish; their answers reach their callers). */
  clear(): void {
    this.entries.clear();
  }
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new ValidationError(name, 'must be a positive number');
  return Math.max(1, Math.floor(value));
}

export function nonNegativeInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new ValidationError(name, 'must be a whole number, 0 or more');
  return value;
}
