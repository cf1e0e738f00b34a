/**
 * Faults of the sandbox LiveResultat, for the client's tests: a rule applies to the requests whose
 * key starts with its `path` (the REST path, `/competitions/50001/classresults`, or `api.php/<method>`
 * for the older API), a number of times or until removed.
 */

export type LiveFaultKind =
  /** Adds `ms` before answering (combines with any other rule). */
  | 'latency'
  /** Answers `status` (default 503) with a small HTML page. */
  | 'status'
  /** The real answer cut off halfway: Content-Length promises it whole, then the connection closes. */
  | 'truncate'
  /** Never answers; the connection stays open until the client gives up or the sandbox closes. */
  | 'hang'
  /** 200 and a JSON-looking body that never ends (`bytes`, default 64 MiB), written as fast as the client reads. */
  | 'huge'
  /** 200 with text that is not JSON at all (a maintenance page). */
  | 'maintenance'
  /** The answer of another competition (`competitionId`) instead of the one asked for. */
  | 'otherCompetition';

export interface LiveFaultRule {
  /** A prefix of the request key; omit for every request. */
  path?: string;
  kind: LiveFaultKind;
  status?: number;
  ms?: number;
  bytes?: number;
  competitionId?: number;
  /** How many requests it applies to; default: until removed. */
  times?: number;
}

interface ActiveRule extends LiveFaultRule {
  id: number;
  remaining: number;
}

export class LiveFaults {
  #rules: ActiveRule[] = [];
  #nextId = 1;

  add(rule: LiveFaultRule): number {
    if (rule.times !== undefined && (!Number.isInteger(rule.times) || rule.times < 1))
      throw new RangeError('times must be a positive integer');
    const id = this.#nextId++;
    this.#rules.push({ ...rule, id, remaining: rule.times ?? Number.POSITIVE_INFINITY });
    return id;
  }

  remove(id: number): void {
    this.#rules = this.#rules.filter((rule) => rule.id !== id);
  }

  clear(): void {
    this.#rules = [];
  }

  /** What happens to a request with this key: the delay, and the first other rule that applies (counted). */
  take(key: string): { latencyMs: number; fault: LiveFaultRule | null } {
    let latencyMs = 0;
    let fault: LiveFaultRule | null = null;
    for (const rule of this.#rules) {
      if ((rule.path !== undefined && !key.startsWith(rule.path)) || rule.remaining <= 0) continue;
      if (rule.kind === 'latency') {
        latencyMs += rule.ms ?? 0;
        rule.remaining--;
      } else if (fault === null) {
        fault = rule;
        rule.remaining--;
      }
    }
    this.#rules = this.#rules.filter((rule) => rule.remaining > 0);
    return { latencyMs, fault };
  }
}
