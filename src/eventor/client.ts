/**
 * The typed Eventor client: one method per operation of Eventor's API (docs/eventor.md#operations),
 * plus `call(name, params)` for the CLI. Parameters are validated before anything is sent
 * (operations.ts); the transport (http.ts) does headers, retries, the per-key limit, coalescing
 * and the cache, which clients of one instance may share (`shared`): public answers then serve
 * every key (operations.ts, SHARING).
 */
import { type DeepReadonly, HttpTransport, type TransportOptions } from './http.js';
import type { EventorInstance } from './instances.js';
import type { Competitor } from './model.js';
import {
  isKeyIndependent,
  OPERATIONS,
  type OperationDef,
  type OperationName,
  type OperationParams,
  type OperationResult,
  parseResponse,
  prepareRequest,
} from './operations.js';

/**
 * Documents of at least this many bytes go to the parse worker (parse-worker.ts; the transport
 * hands them over as the bytes that arrived, http.ts `large`). Below it a parse takes under
 * about 80 ms on a busy 2-core machine (a 2 MB result list; parsing runs at roughly 25 MB/s of
 * CPU there), which the copy to the worker and of the model back would mostly eat; above it the
 * main thread would hold acknowledgements longer than Discord's members notice.
 */
export const OFF_THREAD_PARSE_BYTES = 2_000_000;

/** The client's options are the transport's (instance, key, timeouts, retries, cache, hooks), and: */
export interface EventorClientOptions extends TransportOptions {
  /**
   * Documents of at least this many bytes are parsed in a worker thread (parse-worker.ts);
   * default OFF_THREAD_PARSE_BYTES. Tests lower it to send small documents there.
   */
  offThreadParseBytes?: number;
}

export interface CallOptions {
  /** Ask Eventor even when a cached answer is still valid (before a read-modify-write). */
  fresh?: boolean;
}

export interface CallMeta {
  fromCache: boolean;
  coalesced: boolean;
  /** The answer is an expired cache entry served because Eventor failed transiently. */
  stale: boolean;
}

type Params<N extends OperationName> = OperationParams<N>;
/**
 * What the client answers: deep-frozen and shared by every caller (the response cache hands out one
 * value, http.ts), so typed read-only: writing into an answer fails `tsc`, not another caller.
 * A caller that needs a changed value copies it.
 */
export type Result<N extends OperationName> = DeepReadonly<OperationResult<N>>;

export class EventorClient {
  readonly instance: EventorInstance;
  private readonly transport: HttpTransport;
  private readonly offThreadParseBytes: number;

  constructor(options: EventorClientOptions) {
    this.instance = options.instance;
    this.transport = new HttpTransport(options);
    this.offThreadParseBytes = options.offThreadParseBytes ?? OFF_THREAD_PARSE_BYTES;
  }

  /** Any operation by its CLI name; the parameters are checked against the operation's schema. */
  async call<N extends OperationName>(name: N, params?: Params<N>, options?: CallOptions): Promise<Result<N>>;
  async call(name: string, params?: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  async call(name: string, params?: unknown, options: CallOptions = {}): Promise<unknown> {
    return (await this.callWithMeta(name as OperationName, params as never, options)).data;
  }

  /** Like call, and says whether the answer came from the cache, a shared request or stale data. */
  async callWithMeta<N extends OperationName>(
    name: N,
    params?: Params<N>,
    options: CallOptions = {},
  ): Promise<{ data: Result<N>; meta: CallMeta }> {
    const prepared = prepareRequest(name, params);
    const def = OPERATIONS[name] as OperationDef;
    const context = { timeZone: this.transport.nativeTimeZone, nativeTimeZone: this.instance.nativeTimeZone };
    const result = await this.transport.request({
      operation: name,
      method: prepared.method,
      path: prepared.path,
      query: prepared.query,
      secretHeaders: prepared.secretHeaders,
      body: prepared.body,
      contentType: prepared.body === undefined ? undefined : 'application/xml; charset=utf-8',
      cacheTtlMs: def.cacheTtlMs,
      maxResponseBytes: def.maxResponseBytes,
      coalesce: def.coalesce,
      keyIndependent: isKeyIndependent(name, prepared.query),
      ...(options.fresh ? { fresh: true } : {}),
      // Only a body under the threshold arrives as text: it is parsed here.
      parse: (xml) => parseResponse(name, xml, context),
      large: {
        bytesFrom: this.offThreadParseBytes,
        // Loaded with the first large document: a query or a start that never gets one does not
        // pay for the worker's module (node:worker_threads, node:v8).
        parseBytes: async (bytes) => (await import('./parse-worker.js')).parseResponseOffThread(name, bytes, context),
      },
    });
    if (def.invalidates.length > 0) this.transport.invalidate(def.invalidates);
    return {
      data: result.value,
      meta: { fromCache: result.fromCache, coalesced: result.coalesced, stale: result.stale },
    };
  }

  events(params: Params<'events'> = {}): Promise<Result<'events'>> {
    return this.call('events', params);
  }

  eventDocuments(params: Params<'events-documents'> = {}): Promise<Result<'events-documents'>> {
    return this.call('events-documents', params);
  }

  event(params: Params<'event'>): Promise<Result<'event'>> {
    return this.call('event', params);
  }

  eventClasses(params: Params<'eventclasses'>): Promise<Result<'eventclasses'>> {
    return this.call('eventclasses', params);
  }

  entryFees(params: Params<'entryfees'>): Promise<Result<'entryfees'>> {
    return this.call('entryfees', params);
  }

  organisationForApiKey(): Promise<Result<'organisation-apikey'>> {
    return this.call('organisation-apikey', {});
  }

  organisations(params: Params<'organisations'> = {}): Promise<Result<'organisations'>> {
    return this.call('organisations', params);
  }

  organisation(params: Params<'organisation'>): Promise<Result<'organisation'>> {
    return this.call('organisation', params);
  }

  persons(params: Params<'persons'>): Promise<Result<'persons'>> {
    return this.call('persons', params);
  }

  competitors(params: Params<'competitors'>): Promise<Result<'competitors'>> {
    return this.call('competitors', params);
  }

  competitor(params: Params<'competitor'>): Promise<Result<'competitor'>> {
    return this.call('competitor', params);
  }

  /** PUT /competitor. Never cached; drops cached competitor answers afterwards. */
  saveCompetitor(competitor: DeepReadonly<Competitor>): Promise<Result<'save-competitor'>> {
    // The request only reads it (the schema's parse makes its own copy): a read-only value is fine.
    return this.call('save-competitor', { competitor: competitor as Competitor });
  }

  /** A single-use link valid for 5 minutes: show it only to the person it is for, never log it. */
  externalLoginUrl(params: Params<'external-login-url'>): Promise<Result<'external-login-url'>> {
    return this.call('external-login-url', params);
  }

  /** Username and Password travel as headers, never in the URL, a log or a cache key. */
  authenticatePerson(params: Params<'authenticate-person'>): Promise<Result<'authenticate-person'>> {
    return this.call('authenticate-person', params);
  }

  entries(params: Params<'entries'> = {}): Promise<Result<'entries'>> {
    return this.call('entries', params);
  }

  competitorCount(params: Params<'competitorcount'>): Promise<Result<'competitorcount'>> {
    return this.call('competitorcount', params);
  }

  eventStarts(params: Params<'starts-event'>): Promise<Result<'starts-event'>> {
    return this.call('starts-event', params);
  }

  eventStartsIof(params: Params<'starts-event-iofxml'>): Promise<Result<'starts-event-iofxml'>> {
    return this.call('starts-event-iofxml', params);
  }

  personStarts(params: Params<'starts-person'>): Promise<Result<'starts-person'>> {
    return this.call('starts-person', params);
  }

  organisationStarts(params: Params<'starts-organisation'>): Promise<Result<'starts-organisation'>> {
    return this.call('starts-organisation', params);
  }

  eventResults(params: Params<'results-event'>): Promise<Result<'results-event'>> {
    return this.call('results-event', params);
  }

  eventResultsIof(params: Params<'results-event-iofxml'>): Promise<Result<'results-event-iofxml'>> {
    return this.call('results-event-iofxml', params);
  }

  personResults(params: Params<'results-person'>): Promise<Result<'results-person'>> {
    return this.call('results-person', params);
  }

  organisationResults(params: Params<'results-organisation'>): Promise<Result<'results-organisation'>> {
    return this.call('results-organisation', params);
  }

  activities(params: Params<'activities'>): Promise<Result<'activities'>> {
    return this.call('activities', params);
  }

  activity(params: Params<'activity'>): Promise<Result<'activity'>> {
    return this.call('activity', params);
  }

  /** Drops every cached answer (e.g. after a configuration change). */
  clearCache(): void {
    this.transport.clearCache();
  }

  /** Closes the connection pool (unless a dispatcher was injected). */
  close(): Promise<void> {
    return this.transport.close();
  }
}
