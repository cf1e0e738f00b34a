/**
 * What the sandbox was asked, for tests and benchmarks: method, path, query and header NAMES.
 * Values of secrets (ApiKey, Password, and login tokens in paths) are never recorded.
 */

export interface LoggedRequest {
  method: string;
  path: string;
  /** Query parameters with secret values replaced by `***`. */
  query: Record<string, string>;
  /** Header names in lower case, never their values. */
  headerNames: string[];
  status: number | null;
  /** For a streamed fault ('huge'): the body bytes the client took before the end or its hang-up. */
  streamed?: { bytesWritten: number; closedEarly: boolean };
}

const SECRET_PARAMS = new Set(['apikey', 'password']);
const MAX_ENTRIES = 10_000;

/** An array of requests (newest last, capped at 10,000) plus counts per path. */
export class RequestLog extends Array<LoggedRequest> {
  // Array methods such as filter/map return plain arrays, not RequestLogs.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  private readonly counts = new Map<string, number>();

  /** Requests to `path` (case-insensitive, e.g. `/api/events`) since start or clear(). */
  count(path?: string): number {
    if (path === undefined) {
      let total = 0;
      for (const n of this.counts.values()) total += n;
      return total;
    }
    return this.counts.get(path.toLowerCase()) ?? 0;
  }

  /** Requests per path (lower case) since start or clear(), however many the log itself still holds. */
  byPath(): ReadonlyMap<string, number> {
    return this.counts;
  }

  record(method: string, path: string, params: URLSearchParams, headerNames: string[]): LoggedRequest {
    const query: Record<string, string> = {};
    for (const [k, v] of params) query[k] = SECRET_PARAMS.has(k.toLowerCase()) ? '***' : v;
    const entry: LoggedRequest = { method, path, query, headerNames, status: null };
    this.push(entry);
    if (this.length > MAX_ENTRIES) this.splice(0, this.length - MAX_ENTRIES);
    const key = path.toLowerCase();
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return entry;
  }

  clear(): void {
    this.length = 0;
    this.counts.clear();
  }
}
