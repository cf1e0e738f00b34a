/**
 * The typed errors of the live-results client. Each message is one line that names what failed
 * and never quotes what the service sent (a name in it could be anything), so it is safe to log
 * and to show an operator.
 */
import type { LiveSourceKind } from './model.js';

/** Every code, and whether asking again later may succeed: transient failures count towards the fallback. */
const TRANSIENT = {
  /** The competition (or the page asked for) does not exist there. */
  NotFound: false,
  /** The source refused the request as malformed (HTTP 400). */
  Refused: false,
  /** A 5xx after the retries ran out. */
  Unavailable: true,
  /** The connection failed (refused, reset, DNS) after the retries ran out. */
  Unreachable: true,
  Timeout: true,
  /** A 2xx we cannot use: invalid JSON, a cut-off body, a shape we do not know. */
  InvalidResponse: true,
  /** Larger than the cap: the rest was not read. The same request brings the same answer. */
  TooLarge: false,
  /** The answer is about another competition or class than the one asked for. */
  WrongCompetition: false,
} as const satisfies Record<string, boolean>;

export type LiveErrorCode = keyof typeof TRANSIENT;

export class LiveError extends Error {
  override name = 'LiveError';
  constructor(
    readonly code: LiveErrorCode,
    message: string,
    /** Which API failed; null before a source was chosen. */
    readonly source: LiveSourceKind | null = null,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  /** Whether asking again later may succeed (`TRANSIENT`). */
  get transient(): boolean {
    return TRANSIENT[this.code];
  }
}
