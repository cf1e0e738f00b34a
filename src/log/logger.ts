/**
 * Structured logs: one JSON line per event, with a correlation id where there is one.
 * Secrets are kept out twice over: fields with secret-sounding names are dropped, and every
 * value registered with `redact()` (the Discord token, API keys, login links) is masked in
 * whatever text would be written, so a careless message cannot leak one.
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

export function createLogger(options: { level?: LogLevel; write?: (line: string) => void; now?: () => Date } = {}): Logger {
  const threshold = RANK[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const secrets = new Set<string>();
  const transient = new Set<string>();

  const mask = (text: string): string => {
    let out = text;
    for (const set of [secrets, transient]) for (const secret of set) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  };

  const clean = (value: unknown, depth: number): unknown => {
    if (value instanceof Error) return { name: value.name, message: value.message, ...(depth < 2 && value.cause !== undefined ? { cause: clean(value.cause, depth + 1) } : {}) };
    if (Array.isArray(value)) return depth > 4 ? '[…]' : value.map((v) => clean(v, depth + 1));
    if (value !== null && typeof value === 'object') {
      if (depth > 4) return '[…]';
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) out[key] = SECRET_FIELD.test(key) ? MASK : clean(v, depth + 1);
      return out;
    }
    return value;
  };

  const make = (base: Record<string, unknown>): Logger => {
    const log = (level: LogLevel, message: string, fields: Record<string, unknown> = {}): void => {
      if (RANK[level] < threshold) return;
      const record = clean({ time: now().toISOString(), level, msg: message, ...base, ...fields }, 0);
      write(`${mask(JSON.stringify(record))}\n`);
    };
    return {
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      child: (fields) => make({ ...base, ...fields }),
      redact: (secret, lifetime = 'permanent') => {
        if (secret.length < 6) return () => {};
        if (lifetime === 'permanent') {
          secrets.add(secret);
          return () => {};
        }
        transient.delete(secret);
        transient.add(secret);
        if (transient.size > MAX_TRANSIENT_SECRETS) transient.delete(transient.values().next().value as string);
        return () => void transient.delete(secret);
      },
    };
  };
  return make({});
}
