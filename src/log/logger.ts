/**
 * Structured logs: one JSON line per event, with a correlation id where there is one.
 * Secrets are kept out twice over: fields with secret-sounding names are dropped, and every
 * value registered with `redact()` (the Discord token, API keys, login links) is masked in
 * whatever text would be written, so a careless message cannot leak one. A secret is masked in
 * every form it takes on its way into a line (SecretMatcher): as it is, JSON-escaped, URL-encoded,
 * HTML-escaped and in base64, in messages, field values and names, and errors' messages and stacks.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const SECRET_FIELD = /pass(word)?|secret|token|api[-_]?key|authorization|login[-_]?url|cookie/i;
const MASK = '[redacted]';
const MAX_TRANSIENT_SECRETS = 2_000;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `fields` (e.g. a correlation id) to every line. */
  child(fields: Record<string, unknown>): Logger;
  /**
   * Masks this value wherever it would appear in a log line from now on. Secrets that come and go
   * (login links, passwords typed once) are `transient`: only the newest few thousand are kept, so
   * a long-running bot's list stays small; tokens and keys stay masked for good. The returned
   * function lets go of a transient secret once nothing can log it any more (a password after its
   * one request), so the logger does not keep it in memory.
   */
  redact(secret: string, lifetime?: 'permanent' | 'transient'): () => void;
}

export function isLogLevel(value: string): value is LogLevel {
  return Object.hasOwn(RANK, value);
}

export function createLogger(
  options: { level?: LogLevel; write?: (line: string) => void; now?: () => Date } = {},
): Logger {
  const threshold = RANK[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const secrets = new Set<string>();
  const transient = new Set<string>();
  const matcher = new SecretMatcher();

  const clean = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return matcher.mask(value);
    if (value instanceof Error) return cleanError(value, depth);
    if (Array.isArray(value)) return depth > 4 ? '[…]' : value.map((v) => clean(v, depth + 1));
    if (value !== null && typeof value === 'object') {
      if (depth > 4) return '[…]';
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value))
        out[matcher.mask(key)] = SECRET_FIELD.test(key) ? MASK : clean(v, depth + 1);
      return out;
    }
    return value;
  };

  /**
   * An error's name, message, stack, code and cause. Not its other fields: libraries hang request
   * details on their errors (discord.js puts the interaction's URL, whose path is the interaction
   * token, and the request body on DiscordAPIError), and no name-based rule can tell which are secret.
   */
  const cleanError = (error: Error, depth: number): Record<string, unknown> => {
    const code = (error as { code?: unknown }).code;
    return {
      name: matcher.mask(error.name),
      message: matcher.mask(error.message),
      ...(typeof code === 'string' || typeof code === 'number'
        ? { code: typeof code === 'string' ? matcher.mask(code) : code }
        : {}),
      ...(typeof error.stack === 'string' ? { stack: matcher.mask(error.stack.slice(0, MAX_STACK_CHARS)) } : {}),
      ...(depth < 2 && error.cause !== undefined ? { cause: clean(error.cause, depth + 1) } : {}),
    };
  };

  const make = (base: Record<string, unknown>): Logger => {
    const log = (level: LogLevel, message: string, fields: Record<string, unknown> = {}): void => {
      if (RANK[level] < threshold) return;
      const record = clean({ time: now().toISOString(), level, msg: message, ...base, ...fields }, 0);
      // Values were masked one by one; the whole line once more catches what serialising made of
      // anything else (a secret in a number, or in a form only the JSON text shows).
      write(`${matcher.mask(JSON.stringify(record))}\n`);
    };
    return {
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      child: (fields) => make({ ...base, ...fields }),
      redact: (secret, lifetime = 'permanent') => {
        if (secret.length < MIN_SECRET_CHARS) return () => {};
        if (lifetime === 'permanent') {
          if (!secrets.has(secret)) {
            secrets.add(secret);
            matcher.add(secret);
          }
          return () => {};
        }
        if (transient.has(secret)) transient.delete(secret);
        else matcher.add(secret);
        transient.add(secret);
        if (transient.size > MAX_TRANSIENT_SECRETS) {
          const oldest = transient.values().next().value as string;
          transient.delete(oldest);
          matcher.remove(oldest);
        }
        return () => {
          if (transient.delete(secret)) matcher.remove(secret);
        };
      },
    };
  };
  return make({});
}

const MIN_SECRET_CHARS = 6;
const MAX_STACK_CHARS = 4_000;
/** Variants are found by their first few characters; every variant is at least this long. */
const PREFIX_CHARS = 4;

/**
 * The registered secrets in every form they can take in a log line, found in one pass over the
 * text: each position's next few characters pick the few variants that could start there.
 * Variants are counted, so two secrets that share one (or one registered twice) keep it masked
 * until the last of them is let go.
 */
export class SecretMatcher {
  readonly #byPrefix = new Map<string, Map<string, number>>();

  add(secret: string): void {
    for (const variant of secretVariants(secret)) {
      const prefix = variant.slice(0, PREFIX_CHARS);
      let bucket = this.#byPrefix.get(prefix);
      if (!bucket) {
        bucket = new Map();
        this.#byPrefix.set(prefix, bucket);
      }
      bucket.set(variant, (bucket.get(variant) ?? 0) + 1);
    }
  }

  remove(secret: string): void {
    for (const variant of secretVariants(secret)) {
      const prefix = variant.slice(0, PREFIX_CHARS);
      const bucket = this.#byPrefix.get(prefix);
      const count = bucket?.get(variant);
      if (bucket === undefined || count === undefined) continue;
      if (count > 1) bucket.set(variant, count - 1);
      else {
        bucket.delete(variant);
        if (bucket.size === 0) this.#byPrefix.delete(prefix);
      }
    }
  }

  /** The text with every variant of every secret replaced by the mask, longest match first. */
  mask(text: string): string {
    if (this.#byPrefix.size === 0 || text.length < PREFIX_CHARS) return text;
    let out = '';
    let copied = 0;
    for (let i = 0; i + PREFIX_CHARS <= text.length;) {
      const bucket = this.#byPrefix.get(text.slice(i, i + PREFIX_CHARS));
      let matched = 0;
      if (bucket)
        for (const variant of bucket.keys())
          if (variant.length > matched && text.startsWith(variant, i)) matched = variant.length;
      if (matched === 0) {
        i++;
        continue;
      }
      out += text.slice(copied, i) + MASK;
      i += matched;
      copied = i;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }
}

/**
 * The forms a secret takes on its way into a log line: as it is; JSON-escaped, once or twice (`"`
 * and `\` and control characters, and non-ASCII as `\u00e5` the way ASCII-only serialisers write it, either
 * case); URL-encoded (encodeURIComponent, encodeURI, and forms with `+` for spaces, with upper-
 * and lower-case percent hex); HTML-escaped (error pages); and base64 and base64url, also inside a
 * longer encoded text (an `Authorization: Basic` value holds `user:password`), by the characters
 * that come out the same whatever bytes surround the secret.
 */
export function secretVariants(secret: string): Set<string> {
  const variants = new Set<string>([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  variants.add(json);
  // A JSON text quoted in a string (an error quoting a request body that held a JSON field).
  variants.add(JSON.stringify(json).slice(1, -1));
  const asciiJson = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  variants.add(asciiJson);
  variants.add(asciiJson.replace(/\\u[0-9a-f]{4}/g, (e) => `\\u${e.slice(2).toUpperCase()}`));
  for (const encoded of percentEncodings(secret)) {
    variants.add(encoded);
    variants.add(encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()));
  }
  variants.add(secret.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!));
  const bytes = Buffer.from(secret, 'utf8');
  for (let offset = 0; offset < 3; offset++) {
    // With `offset` bytes before it, the characters fully inside the secret's bits are fixed.
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const stable = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (stable.length < MIN_SECRET_CHARS) continue;
    variants.add(stable);
    variants.add(stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  for (const variant of variants) if (variant.length < PREFIX_CHARS) variants.delete(variant);
  return variants;
}

function percentEncodings(secret: string): string[] {
  const out = [new URLSearchParams([['', secret]]).toString().slice(1)];
  try {
    out.push(encodeURIComponent(secret), encodeURI(secret), encodeURIComponent(secret).replace(/%20/g, '+'));
  } catch {
    // A lone surrogate cannot be percent-encoded (URIError), so it never appears that way either.
  }
  return out;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
