/**
 * Backing off when a feed's run fails: exponentially from 5 minutes to at most 4 hours, with nothing
 * said in club channels (an Eventor outage is not the club's news); the next run that goes through
 * ends it and catches up (the ledger knows what was posted).
 */
import { EventorError, InvalidApiKey } from '../eventor/errors.js';

const MINUTE = 60_000;
export const BACKOFF_BASE_MS = 5 * MINUTE;
export const BACKOFF_MAX_MS = 4 * 60 * MINUTE;

/** Transient Eventor trouble (outage, timeout, rate limit): back off, no message to anyone. */
export function isTransient(error: unknown): boolean {
  return error instanceof EventorError && !(error instanceof InvalidApiKey);
}

interface BackOffState {
  failures: number;
  retryAt: number;
}

/** The back-off of each (server, feed), by the scheduler's key for it. */
export class BackOffs {
  readonly #states = new Map<string, BackOffState>();

  /** Whether the key is still waiting out a failure. */
  waiting(key: string, now: Date): boolean {
    return now.getTime() < (this.#states.get(key)?.retryAt ?? 0);
  }

  /** One more failure: how many in a row, and how long until the next try. */
  failed(key: string, now: Date): { failures: number; delay: number } {
    const state = this.#states.get(key) ?? { failures: 0, retryAt: 0 };
    state.failures += 1;
    const delay = Math.min(BACKOFF_BASE_MS * 2 ** (state.failures - 1), BACKOFF_MAX_MS);
    state.retryAt = now.getTime() + delay;
    this.#states.set(key, state);
    return { failures: state.failures, delay };
  }

  succeeded(key: string): void {
    this.#states.delete(key);
  }
}
