/**
 * Fault injection for tests of retries, timeouts and defensive parsing. Rules apply to one path
 * (case-insensitive; a trailing `*` matches a prefix) or to every path, a number of times or
 * until cleared.
 */

export type FaultKind =
  /** Adds `ms` of delay before answering (combines with any other rule). */
  | 'latency'
  /** Answers `status` (500, 502, 503, 520, ...) with a small HTML body. */
  | 'status'
  /** 429 with `Retry-After: retryAfter` seconds. */
  | 'rateLimit'
  /** 200 with an HTML maintenance page instead of XML. */
  | 'maintenance'
  /** The real response, cut off halfway (Content-Length promises more; the socket is then closed). */
  | 'truncate'
  /** 200 with XML that does not parse. */
  | 'malformed'
  /** Never answers (for client timeout tests); the socket stays open until the client gives up or close(). */
  | 'hang'
  /**
   * 200 with an XML prolog and then `bytes` of padding (default 64 MiB), written as fast as the
   * client reads, without Content-Length (chunked) unless `contentLength` announces one (which may
   * lie). How much was written and whether the client hung up first is in the request log.
   */
  | 'huge';

export interface FaultRule {
  /** e.g. `/api/events`; omit for every path. */
  path?: string;
  kind: FaultKind;
  /** For 'status'; default 503. */
  status?: number;
  /** For 'latency'. */
  ms?: number;
  /** For 'rateLimit'; default 1. */
  retryAfter?: number;
  /** For 'huge': how many bytes the body has; default 64 MiB. */
  bytes?: number;
  /** For 'huge': the Content-Length to announce; default none (chunked). */
  contentLength?: number;
  /** How many requests it applies to; default: until removed. */
  times?: number;
}

interface ActiveRule extends FaultRule {
  id: number;
  remaining: number;
}

export interface FaultDecision {
  latencyMs: number;
  /** The first non-latency rule that applies, already counted. */
  fault: FaultRule | null;
}

export class Faults {
  private rules: ActiveRule[] = [];
  private nextId = 1;

  /** Adds a rule; returns its id for remove(). */
  add(rule: FaultRule): number {
    if (rule.times !== undefined && (!Number.isInteger(rule.times) || rule.times < 1))
      throw new RangeError('times must be a positive integer');
    const id = this.nextId++;
    this.rules.push({ ...rule, id, remaining: rule.times ?? Number.POSITIVE_INFINITY });
    return id;
  }

  remove(id: number): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  clear(): void {
    this.rules = [];
  }

  /** Rules still active (for assertions in tests). */
  get active(): readonly FaultRule[] {
    return this.rules.map(({ id: _id, remaining, ...rule }) => ({ ...rule, times: remaining }));
  }

  /** Decides what happens to a request to `path` and counts the rules used. */
  take(path: string): FaultDecision {
    const lower = path.toLowerCase();
    let latencyMs = 0;
    let fault: FaultRule | null = null;
    for (const r of this.rules) {
      if (!matches(r.path, lower) || r.remaining <= 0) continue;
      if (r.kind === 'latency') {
        latencyMs += r.ms ?? 0;
        r.remaining--;
      } else if (fault === null) {
        fault = r;
        r.remaining--;
      }
    }
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return { latencyMs, fault };
  }
}

function matches(rulePath: string | undefined, lowerPath: string): boolean {
  if (rulePath === undefined) return true;
  const p = rulePath.toLowerCase();
  return p.endsWith('*') ? lowerPath.startsWith(p.slice(0, -1)) : lowerPath === p.replace(/\/+$/, '');
}
