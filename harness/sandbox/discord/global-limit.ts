/**
 * Discord's global rate limit (rate-limits.mdx, "Global Rate Limit"): 50 requests a second per
 * bot token; past it, a 429 with `X-RateLimit-Global: true`, `X-RateLimit-Scope: global` and
 * `retry_after`. "Interaction endpoints are not bound to the bot's Global Rate Limit": requests
 * made with an interaction token (callbacks, the interaction webhook) carry no bot token and are
 * neither counted nor refused.
 *
 * The window runs on the real monotonic clock, whatever the sandbox's `now`: a fake clock that
 * stands still (or jumps hours) would otherwise never let the bucket refill, or refill it at will.
 */
import { performance } from 'node:perf_hooks';

export interface GlobalRateLimitOptions {
  /** Requests per window per bot token (Discord: 50). */
  requests: number;
  /** The window (Discord: one second). */
  windowMs: number;
}

export const DISCORD_GLOBAL_RATE_LIMIT: GlobalRateLimitOptions = { requests: 50, windowMs: 1000 };

/** One bot token's global bucket: a window that starts with its first request, as Discord's second does. */
export class GlobalBucket {
  readonly #options: GlobalRateLimitOptions;
  #windowEnds = 0;
  #used = 0;

  constructor(options: GlobalRateLimitOptions = DISCORD_GLOBAL_RATE_LIMIT) {
    this.#options = options;
  }

  /** Counts one request; the seconds to wait when the bucket is empty (then it is not counted), else null. */
  take(): number | null {
    const now = performance.now();
    if (now >= this.#windowEnds) {
      this.#windowEnds = now + this.#options.windowMs;
      this.#used = 0;
    }
    if (this.#used >= this.#options.requests) return (this.#windowEnds - now) / 1000;
    this.#used++;
    return null;
  }
}
