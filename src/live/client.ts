/**
 * `LiveClient`: the one adapter the rest of the program asks (docs/live-results.md#the-two-apis).
 * It reads from the REST API and, after repeated failures of it (5xx, failed connections, timeouts,
 * cut-off or unreadable answers), from `api.php` for a while, then tries the REST API again. A
 * failure is still thrown to the caller (who keeps what it had and asks again at its next turn);
 * only the source of the next call changes. A 404, a refusal or an answer about another
 * competition never switches: the other API would say the same.
 */
import { LiveError } from './errors.js';
import type { LiveHttpOptions } from './http.js';
import type { Conditional, LiveClassResults, LiveCompetition, LiveOverview, LiveSourceKind } from './model.js';
import { LegacySource, type LiveSource, RestSource } from './sources.js';
import type { LiveEndpoints } from './endpoints.js';

export { type LiveEndpoints, PUBLIC_LIVE_ENDPOINTS } from './endpoints.js';

/** Consecutive transient failures of a source before the client turns to the other. */
export const DEFAULT_FALLBACK_AFTER = 3;
/** How long the client stays with the fallback before it tries the REST API again. */
export const DEFAULT_FALLBACK_FOR_MS = 10 * 60_000;

export interface LiveClientOptions {
  /** The sources (share them between clients: each holds a keep-alive pool). */
  rest: LiveSource | null;
  legacy: LiveSource | null;
  /** Which to ask first; default the REST API when there is one. */
  prefer?: LiveSourceKind;
  fallbackAfter?: number;
  fallbackForMs?: number;
  now?: () => number;
}

/** Both sources on the operator's endpoints, sharing the HTTP options. */
export function createLiveSources(
  endpoints: LiveEndpoints,
  http: LiveHttpOptions,
): { rest: LiveSource; legacy: LiveSource } {
  return {
    rest: new RestSource({ ...http, baseUrl: endpoints.restUrl }),
    legacy: new LegacySource({ ...http, baseUrl: endpoints.legacyUrl }),
  };
}

export class LiveClient {
  readonly #sources: Record<LiveSourceKind, LiveSource | null>;
  readonly #preferred: LiveSourceKind;
  readonly #fallbackAfter: number;
  readonly #fallbackForMs: number;
  readonly #now: () => number;
  #active: LiveSourceKind;
  #failures = 0;
  #switchedAt = 0;

  constructor(options: LiveClientOptions) {
    this.#sources = { rest: options.rest, legacy: options.legacy };
    const preferred = options.prefer ?? (options.rest !== null ? 'rest' : 'legacy');
    if (this.#sources[preferred] === null) throw new Error(`no ${preferred} source to prefer`);
    this.#preferred = preferred;
    this.#active = preferred;
    this.#fallbackAfter = options.fallbackAfter ?? DEFAULT_FALLBACK_AFTER;
    this.#fallbackForMs = options.fallbackForMs ?? DEFAULT_FALLBACK_FOR_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The source the next call goes to. */
  get active(): LiveSourceKind {
    if (this.#active !== this.#preferred && this.#now() - this.#switchedAt >= this.#fallbackForMs) {
      this.#active = this.#preferred;
      // One more failure and it is back on the fallback.
      this.#failures = this.#fallbackAfter - 1;
    }
    return this.#active;
  }

  async #ask<T>(call: (source: LiveSource) => Promise<T>): Promise<T> {
    const kind = this.active;
    const source = this.#sources[kind]!;
    try {
      const value = await call(source);
      if (this.#active === kind) this.#failures = 0;
      return value;
    } catch (error) {
      if (error instanceof LiveError && error.transient && this.#active === kind) {
        this.#failures++;
        const other: LiveSourceKind = kind === 'rest' ? 'legacy' : 'rest';
        if (this.#failures >= this.#fallbackAfter && this.#sources[other] !== null) {
          this.#active = other;
          this.#failures = 0;
          this.#switchedAt = this.#now();
        }
      }
      throw error;
    }
  }

  competitionsOn(date: string): Promise<LiveCompetition[]> {
    return this.#ask((source) => source.competitionsOn(date));
  }

  competition(id: number): Promise<LiveCompetition> {
    return this.#ask((source) => source.competition(id));
  }

  classes(id: number, token?: string | null): Promise<Conditional<string[]>> {
    return this.#ask((source) => source.classes(id, token));
  }

  classResults(id: number, className: string, token?: string | null): Promise<Conditional<LiveClassResults>> {
    return this.#ask((source) => source.classResults(id, className, token));
  }

  /** The export (REST only); null while the client reads `api.php`. */
  overview(id: number, token?: string | null): Promise<Conditional<LiveOverview> | null> {
    return this.#ask((source) => source.overview(id, token));
  }
}
