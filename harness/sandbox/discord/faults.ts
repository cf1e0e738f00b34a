/**
 * Fault injection: make chosen REST calls fail the way Discord sometimes does, so a bot's
 * back-off and error handling can be tested without waiting for the real thing.
 */

/**
 * Which requests a fault applies to. A string matches the route template (`/channels/:channelId/messages`)
 * or the concrete path (`/channels/123/messages`), optionally prefixed by a method (`POST /channels/...`);
 * a RegExp is tested against `"METHOD /path"`. Omitted: every route.
 */
export type RouteMatcher = string | RegExp;

export interface RateLimitFault {
  route?: RouteMatcher;
  /** How many matching requests get a 429 before the route works again. */
  times: number;
  /** Sent as the `Retry-After` header (which discord.js honours) and as JSON `retry_after`. */
  retryAfterSeconds: number;
  /** Global rate limit (`X-RateLimit-Global: true`) instead of a per-route one. */
  global?: boolean;
}

export interface ServerErrorFault {
  route?: RouteMatcher;
  times: number;
  status?: number;
}

/**
 * The request is carried out, but its answer is lost on the way back (a proxy's 502, a dropped
 * connection): the client sees a failure for something that happened, and may well send it again.
 */
export interface LostAnswerFault {
  route?: RouteMatcher;
  times: number;
  status?: number;
}

export interface DelayFault {
  route?: RouteMatcher;
  ms: number;
  /** Default: every matching request until `clear()`. */
  times?: number;
}

/**
 * The request is carried out at once, but the answer is held back for `ms` (or until the client
 * hangs up): the window in which a client can die having done something it never heard of.
 */
export interface SlowAnswerFault {
  route?: RouteMatcher;
  ms: number;
  times: number;
}

/**
 * Matching requests wait for each other: each is held until `count` of them are waiting, and then
 * all go on at once (or until `maxWaitMs` after the first arrived, when fewer came). Lines up
 * requests that several clients make of the same thing, so that a race between them is certain to
 * happen rather than left to the scheduler; a client that stands back in time is simply not waited for.
 */
export interface HoldTogetherFault {
  route?: RouteMatcher;
  count: number;
  maxWaitMs: number;
}

/** The requests one HoldTogetherFault is holding, and whether it has let them go. */
export class Gathering {
  readonly #count: number;
  readonly #maxWaitMs: number;
  readonly #waiting: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #released = false;

  constructor(count: number, maxWaitMs: number) {
    this.#count = count;
    this.#maxWaitMs = maxWaitMs;
  }

  get released(): boolean {
    return this.#released;
  }

  /** Resolves when `count` requests have arrived, or `maxWaitMs` after the first did. */
  arrive(): Promise<void> {
    if (this.#released) return Promise.resolve();
    const held = new Promise<void>((resolve) => this.#waiting.push(resolve));
    if (this.#waiting.length >= this.#count) this.release();
    else this.#timer ??= setTimeout(() => this.release(), this.#maxWaitMs);
    return held;
  }

  /** Lets every held request go on (also what clear() does, so that none is held for good). */
  release(): void {
    this.#released = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
}

export type ActiveFault =
  | { kind: 'rateLimit'; retryAfterSeconds: number; global: boolean }
  | { kind: 'serverError'; status: number }
  | { kind: 'lostAnswer'; status: number }
  | { kind: 'slowAnswer'; ms: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'holdTogether'; gathering: Gathering };

interface Entry {
  route: RouteMatcher | undefined;
  remaining: number;
  fault: ActiveFault;
}

function matches(matcher: RouteMatcher | undefined, method: string, path: string, template: string | null): boolean {
  if (matcher === undefined) return true;
  if (matcher instanceof RegExp) return matcher.test(`${method} ${path}`);
  const space = matcher.indexOf(' ');
  const wantMethod = space > 0 ? matcher.slice(0, space).toUpperCase() : null;
  const target = space > 0 ? matcher.slice(space + 1) : matcher;
  if (wantMethod && wantMethod !== method) return false;
  return target === path || target === template;
}

export class Faults {
  private entries: Entry[] = [];

  rateLimit(options: RateLimitFault): void {
    this.entries.push({
      route: options.route,
      remaining: options.times,
      fault: { kind: 'rateLimit', retryAfterSeconds: options.retryAfterSeconds, global: options.global ?? false },
    });
  }

  serverError(options: ServerErrorFault): void {
    this.entries.push({
      route: options.route,
      remaining: options.times,
      fault: { kind: 'serverError', status: options.status ?? 502 },
    });
  }

  loseAnswer(options: LostAnswerFault): void {
    this.entries.push({
      route: options.route,
      remaining: options.times,
      fault: { kind: 'lostAnswer', status: options.status ?? 502 },
    });
  }

  slowAnswer(options: SlowAnswerFault): void {
    this.entries.push({
      route: options.route,
      remaining: options.times,
      fault: { kind: 'slowAnswer', ms: options.ms },
    });
  }

  delay(options: DelayFault): void {
    this.entries.push({
      route: options.route,
      remaining: options.times ?? Infinity,
      fault: { kind: 'delay', ms: options.ms },
    });
  }

  holdTogether(options: HoldTogetherFault): void {
    this.entries.push({
      route: options.route,
      remaining: options.count,
      fault: { kind: 'holdTogether', gathering: new Gathering(options.count, options.maxWaitMs) },
    });
  }

  clear(): void {
    for (const entry of this.entries) if (entry.fault.kind === 'holdTogether') entry.fault.gathering.release();
    this.entries = [];
  }

  /** Pending faults (for assertions such as "all injected 429s were consumed"). */
  pending(): number {
    return this.entries.reduce((sum, entry) => sum + (Number.isFinite(entry.remaining) ? entry.remaining : 1), 0);
  }

  /** Consume the faults that apply to one request: delays and holds first, then at most one failure. */
  take(method: string, path: string, template: string | null): ActiveFault[] {
    const taken: ActiveFault[] = [];
    let failed = false;
    for (const entry of this.entries) {
      if (entry.remaining <= 0 || !matches(entry.route, method, path, template)) continue;
      if (entry.fault.kind === 'holdTogether' && entry.fault.gathering.released) continue;
      if (entry.fault.kind !== 'delay' && entry.fault.kind !== 'holdTogether') {
        if (failed) continue;
        failed = true;
      }
      entry.remaining -= 1;
      taken.push(entry.fault);
    }
    this.entries = this.entries.filter(
      (entry) => entry.remaining > 0 && !(entry.fault.kind === 'holdTogether' && entry.fault.gathering.released),
    );
    // What holds a request back comes before what it then fails with.
    const waitsFirst = (fault: ActiveFault): number =>
      fault.kind === 'delay' || fault.kind === 'holdTogether' ? -1 : 0;
    return taken.sort((a, b) => waitsFirst(a) - waitsFirst(b));
  }
}
