/**
 * Typed errors of the Eventor client. Every message is safe to log: it never contains an API key,
 * a password or a login link (callers pass operation names and paths, never headers or URLs with
 * secrets).
 */
/**
 * Every error's code, and whether trying again later may succeed (read by the retries, the cache's
 * stale-if-error and `/status`): one table, so that no class can forget to say.
 */
const TRANSIENT = {
  ValidationError: false,
  InvalidApiKey: false,
  AuthenticationFailed: false,
  NotFound: false,
  RateLimited: true,
  Upstream: true,
  Unreachable: true,
  Timeout: true,
  InvalidResponse: true,
  /** The same request would bring the same answer. */
  ResponseTooLarge: false,
} as const satisfies Record<string, boolean>;

export type EventorErrorCode = keyof typeof TRANSIENT;

/** What every error may carry besides its own fields: the operation it happened in, and the cause. */
export interface EventorErrorOptions {
  operation?: string | undefined;
  cause?: unknown;
}

export abstract class EventorError extends Error {
  abstract readonly code: EventorErrorCode;
  readonly operation: string | undefined;

  constructor(message: string, options: EventorErrorOptions = {}) {
    super(
      options.operation ? `${options.operation}: ${message}` : message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = new.target.name;
    this.operation = options.operation;
  }

  /** Whether trying again later may succeed (`TRANSIENT`). */
  get transient(): boolean {
    return TRANSIENT[this.code];
  }
}

/** A bad input: nothing was sent. */
export class ValidationError extends EventorError {
  readonly code = 'ValidationError';
  constructor(
    readonly parameter: string,
    problem: string,
    options: EventorErrorOptions = {},
  ) {
    super(`invalid parameter '${parameter}': ${problem}`, options);
  }
}

/** 403: the API key is missing, wrong or revoked (Eventor answers with an HTML page). */
export class InvalidApiKey extends EventorError {
  readonly code = 'InvalidApiKey';
  constructor(options: EventorErrorOptions = {}) {
    super('Eventor refused the API key (HTTP 403)', options);
  }
}

/** 401 from authenticatePerson: wrong user name or password. */
export class AuthenticationFailed extends EventorError {
  readonly code = 'AuthenticationFailed';
  constructor(options: EventorErrorOptions = {}) {
    super('Eventor did not accept the user name and password (HTTP 401)', options);
  }
}

export class NotFound extends EventorError {
  readonly code = 'NotFound';
  constructor(what: string, options: EventorErrorOptions = {}) {
    super(`not found: ${what}`, options);
  }
}

/** 429 after the retries ran out. */
export class RateLimited extends EventorError {
  readonly code = 'RateLimited';
  constructor(
    readonly retryAfterSeconds: number | null,
    options: EventorErrorOptions = {},
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
  constructor(
    readonly status: number,
    options: EventorErrorOptions = {},
  ) {
    super(`Eventor answered HTTP ${status}`, options);
  }
}

/** The connection failed (refused, reset, DNS) after the retries ran out. */
export class Unreachable extends EventorError {
  readonly code = 'Unreachable';
  constructor(reason: string, options: EventorErrorOptions = {}) {
    super(`Eventor could not be reached (${reason})`, options);
  }
}

export class Timeout extends EventorError {
  readonly code = 'Timeout';
  constructor(
    readonly timeoutMs: number,
    options: EventorErrorOptions = {},
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
  constructor(
    readonly problem: string,
    readonly path: string | null = null,
    options: EventorErrorOptions = {},
  ) {
    super(`unusable response: ${problem}${path ? ` at ${path}` : ''}`, options);
  }
}

/**
 * A 2xx larger than its operation may be (operations.ts, RESPONSE CAPS): the client stopped
 * reading and closed the connection, so a broken or hostile host cannot fill the bot's memory.
 * Not retried and not transient (`TRANSIENT`).
 */
export class ResponseTooLarge extends EventorError {
  readonly code = 'ResponseTooLarge';
  constructor(
    readonly limitBytes: number,
    /** The Content-Length Eventor announced, when that alone was over the limit; null when counted while reading. */
    readonly declaredBytes: number | null,
    options: EventorErrorOptions = {},
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
