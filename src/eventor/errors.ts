/**
 * Typed errors of the Eventor client. Every message is safe to log: it never contains an API key,
 * a password or a login link (callers pass operation names and paths, never headers or URLs with
 * secrets).
 */
export type EventorErrorCode =
  | 'ValidationError'
  | 'InvalidApiKey'
  | 'AuthenticationFailed'
  | 'NotFound'
  | 'RateLimited'
  | 'Upstream'
  | 'Unreachable'
  | 'Timeout'
  | 'InvalidResponse'
  | 'ResponseTooLarge';

export abstract class EventorError extends Error {
  abstract readonly code: EventorErrorCode;
  /** Whether trying again later may succeed (used by retries and by the cache's stale-if-error). */
  abstract readonly transient: boolean;
  readonly operation: string | undefined;

  constructor(message: string, options: { operation?: string | undefined; cause?: unknown } = {}) {
    super(
      options.operation ? `${options.operation}: ${message}` : message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = new.target.name;
    this.operation = options.operation;
  }
}

/** A bad input: nothing was sent. */
export class ValidationError extends EventorError {
  readonly code = 'ValidationError';
  readonly transient = false;
  constructor(
    readonly parameter: string,
    problem: string,
    options: { operation?: string } = {},
  ) {
    super(`invalid parameter '${parameter}': ${problem}`, options);
  }
}

/** 403: the API key is missing, wrong or revoked (Eventor answers with an HTML page). */
export class InvalidApiKey extends EventorError {
  readonly code = 'InvalidApiKey';
  readonly transient = false;
  constructor(options: { operation?: string } = {}) {
    super('Eventor refused the API key (HTTP 403)', options);
  }
}

/** 401 from authenticatePerson: wrong user name or password. */
export class AuthenticationFailed extends EventorError {
  readonly code = 'AuthenticationFailed';
  readonly transient = false;
  constructor(options: { operation?: string } = {}) {
    super('Eventor did not accept the user name and password (HTTP 401)', options);
  }
}

export class NotFound extends EventorError {
  readonly code = 'NotFound';
  readonly transient = false;
  constructor(what: string, options: { operation?: string } = {}) {
    super(`not found: ${what}`, options);
  }
}

/** 429 after the retries ran out. */
export class RateLimited extends EventorError {
  readonly code = 'RateLimited';
  readonly transient = true;
  constructor(
    readonly retryAfterSeconds: number | null,
    options: { operation?: string } = {},
  ) {
    super(
      `Eventor is rate limiting this key${retryAfterSeconds === null ? '' : ` (retry after ${retryAfterSeconds} s)`}`,
      options,
    );
  }
}

/** 5xx (and Cloudflare 520-524) after the retries ran out. */
export class Upstream extends EventorError {
  readonly code = 'Upstream';
  readonly transient = true;
  constructor(
    readonly status: number,
    options: { operation?: string } = {},
  ) {
    super(`Eventor answered HTTP ${status}`, options);
  }
}

/** The connection failed (refused, reset, DNS) after the retries ran out. */
export class Unreachable extends EventorError {
  readonly code = 'Unreachable';
  readonly transient = true;
  constructor(reason: string, options: { operation?: string; cause?: unknown } = {}) {
    super(`Eventor could not be reached (${reason})`, options);
  }
}

export class Timeout extends EventorError {
  readonly code = 'Timeout';
  readonly transient = true;
  constructor(
    readonly timeoutMs: number,
    options: { operation?: string } = {},
  ) {
    super(`Eventor did not answer within ${Math.round(timeoutMs / 1000)} s`, options);
  }
}

/**
 * A 2xx that we cannot use: not XML (a maintenance page), the wrong root element, a truncated
 * or malformed document, or a document missing something we rely on. `path` names where.
 */
export class InvalidResponse extends EventorError {
  readonly code = 'InvalidResponse';
  readonly transient = true;
  constructor(
    readonly problem: string,
    readonly path: string | null = null,
    options: { operation?: string; cause?: unknown } = {},
  ) {
    super(`unusable response: ${problem}${path ? ` at ${path}` : ''}`, options);
  }
}

/**
 * A 2xx larger than its operation may be (operations.ts, RESPONSE CAPS): the client stopped
 * reading and closed the connection, so a broken or hostile host cannot fill the bot's memory.
 * Not retried and not transient: the same request would bring the same answer.
 */
export class ResponseTooLarge extends EventorError {
  readonly code = 'ResponseTooLarge';
  readonly transient = false;
  constructor(
    readonly limitBytes: number,
    /** The Content-Length Eventor announced, when that alone was over the limit; null when counted while reading. */
    readonly declaredBytes: number | null,
    options: { operation?: string } = {},
  ) {
    super(
      `the answer is larger than the ${formatMiB(limitBytes)} allowed for this operation${declaredBytes === null ? '' : ` (Content-Length ${formatMiB(declaredBytes)})`}; the rest was not read`,
      options,
    );
  }
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${mib >= 10 ? Math.round(mib) : Math.round(mib * 10) / 10} MiB`;
}
