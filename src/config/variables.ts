/**
 * The variables eventor-bot reads, in one list: the configuration readers (`env.ts`,
 * `bot/config.ts`) take a `ConfigEnv`, so reading a name that is not here fails `tsc`, and
 * `.env.example` documents the same names (a test checks both). A name in `.env` that is not
 * here, or one in the environment that looks like ours, is a likely typo: `start` says so.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

export const VARIABLES = [
  'EVENTOR_INSTANCE',
  'EVENTOR_BASE_URL',
  'EVENTOR_API_KEY',
  'EVENTOR_DEFAULT_GUILDS',
  'EVENTOR_TIME_ZONE',
  'EVENTOR_TIMEOUT_MS',
  'EVENTOR_MAX_RESPONSE_MB',
  'EVENTOR_CUSTOM_URLS',
  'LIVERESULTAT_URL',
  'LIVERESULTAT_LEGACY_URL',
  'DISCORD_TOKEN',
  'DISCORD_API_URL',
  'DISCORD_APPLICATION_ID',
  'SHARD_COUNT',
  'SHARDS',
  'DATABASE_PATH',
  'DATABASE_INIT',
  'DATABASE_URL',
  // Not read by our configuration but by PostgreSQL's driver: listed so that `.env` may hold it.
  'PGPASSWORD',
  'SECRET_KEY',
  'DEFAULT_LOCALE',
  'DEFAULT_TIME_ZONE',
  'LOG_LEVEL',
  'SANDBOX_CLOCK',
] as const;

export type VariableName = (typeof VARIABLES)[number];

/** What the configuration readers may read: `process.env` is one. */
export type ConfigEnv = Readonly<Partial<Record<VariableName, string | undefined>>>;

const KNOWN: ReadonlySet<string> = new Set(VARIABLES);
/** The environment's names that look like ours (a typo there is as likely as in `.env`). */
const OUR_PREFIXES = ['EVENTOR_', 'DISCORD_', 'LIVERESULTAT_'];
/** Not ours, but at home in a `.env` and harmless there (Node reads TZ when it changes). */
const TOLERATED = new Set(['TZ', 'NODE_ENV']);
/**
 * A name worth quoting: a variable name of a usual shape and length. Anything else (a value
 * pasted on a line of its own with a `=` after it) may be a secret, so it is counted, not shown.
 */
const SHOWABLE = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*$/;
const MAX_SHOWN_CHARS = 40;

/**
 * One line naming the unknown variables in `.env` (`dotEnvFile`, when one was read) and those in
 * `env` with our prefixes, each with the known one it likely stands for; null when there are none.
 * Names only, never values.
 */
export function unknownVariablesWarning(dotEnvFile: string | null, env: NodeJS.ProcessEnv): string | null {
  const inFile = new Set<string>();
  if (dotEnvFile !== null) {
    try {
      for (const name of Object.keys(parseEnv(readFileSync(dotEnvFile, 'utf8')))) inFile.add(name);
    } catch {
      // Read once already by the loader; if it cannot be read again, there is nothing to warn about.
    }
  }
  const unknown = new Map<string, string>();
  for (const name of inFile) if (!KNOWN.has(name) && !TOLERATED.has(name)) unknown.set(name, 'in .env');
  for (const name of Object.keys(env))
    if (!KNOWN.has(name) && !unknown.has(name) && OUR_PREFIXES.some((p) => name.startsWith(p)))
      unknown.set(name, 'in the environment');
  if (unknown.size === 0) return null;
  const shown: string[] = [];
  let hidden = 0;
  for (const [name, where] of [...unknown].sort(([a], [b]) => a.localeCompare(b))) {
    if (name.length > MAX_SHOWN_CHARS || !SHOWABLE.test(name) || looksLikeAValue(name)) {
      hidden++;
      continue;
    }
    const meant = likelyMeant(name);
    shown.push(`${name} (${where}${meant ? `; did you mean ${meant}?` : ''})`);
  }
  if (hidden > 0) shown.push(`${hidden} more whose names are not variable names (not shown)`);
  return `unknown variables, ignored: ${shown.join(', ')}; the known ones are in .env.example`;
}

/** A long run of letters and digits without underscores reads more like a key than a name. */
function looksLikeAValue(name: string): boolean {
  return !name.includes('_') && name.length > 16;
}

/** The known variable within two edits (case aside) of `name`, the nearest; null when none is. */
export function likelyMeant(name: string): string | null {
  const upper = name.toUpperCase();
  if (upper.length < 4) return null;
  let best: { name: string; distance: number } | null = null;
  for (const known of VARIABLES) {
    const distance = editDistance(upper, known);
    if (distance <= 2 && (best === null || distance < best.distance)) best = { name: known, distance };
  }
  return best?.name ?? null;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * One line naming the variables `.env` (its text) sets more than once, with the lines: the last
 * one wins, and a later empty one (the template's `DISCORD_TOKEN=` below a pasted block) empties
 * a value set above it without a word. Null when every name is set once. Names only, never values.
 */
export function repeatedVariablesWarning(text: string): string | null {
  const lines = new Map<string, Array<{ line: number; empty: boolean }>>();
  const rows = text.split(/\r?\n/);
  for (let i = 0; i < rows.length; i++) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(rows[i]!);
    if (!match) continue;
    const name = match[1]!;
    const rest = match[2]!;
    // A quoted value may run over several lines (Node's .env format): its lines are not assignments.
    let end = i;
    const quote = /^["'`]/.exec(rest)?.[0];
    if (quote !== undefined && !rest.slice(1).includes(quote) && i + 1 < rows.length) {
      end = i + 1;
      while (end + 1 < rows.length && !rows[end]!.includes(quote)) end++;
    }
    const value = parseEnv(rows.slice(i, end + 1).join('\n'))[name] ?? '';
    const seen = lines.get(name) ?? [];
    seen.push({ line: i + 1, empty: value === '' });
    i = end;
    lines.set(name, seen);
  }
  const repeated: string[] = [];
  for (const [name, seen] of lines) {
    if (seen.length < 2 || !SHOWABLE.test(name) || name.length > MAX_SHOWN_CHARS) continue;
    const last = seen.at(-1)!;
    const emptied = last.empty && seen.some((s) => !s.empty);
    repeated.push(
      `${name} on lines ${seen.map((s) => s.line).join(', ')}${emptied ? ` (the last, empty, wins: ${name} is empty)` : ''}`,
    );
  }
  if (repeated.length === 0) return null;
  return `variables set more than once in .env, the last line of each wins: ${repeated.join('; ')}`;
}
