/**
 * Command-line flags: `--name value`, `--name=value`, and a bare `--flag` meaning `true`.
 * node:util parseArgs cannot take flags it does not know in advance, and `query` takes the
 * parameters of whichever operation is named, so unknown flags are collected here.
 */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseFlags(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const body = arg.slice(2);
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq);
    if (name === '') throw new UsageError(`unreadable option '${arg}'`);
    if (flags.has(name)) throw new UsageError(`option --${name} is given twice`);
    if (eq !== -1) {
      flags.set(name, body.slice(eq + 1));
    } else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) {
      flags.set(name, argv[++i]!);
    } else {
      flags.set(name, true);
    }
  }
  return { positionals, flags };
}

/** Takes a flag's value out of `flags`, so that what is left over can be reported as unknown. */
export function takeString(flags: Map<string, string | true>, name: string): string | undefined {
  const value = flags.get(name);
  if (value === undefined) return undefined;
  flags.delete(name);
  if (value === true) throw new UsageError(`option --${name} needs a value`);
  return value;
}

export function takeBoolean(flags: Map<string, string | true>, name: string): boolean {
  const value = flags.get(name);
  if (value === undefined) return false;
  flags.delete(name);
  if (value === true || value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`option --${name} takes no value (or true/false)`);
}

export function rejectLeftovers(flags: Map<string, string | true>): void {
  const names = [...flags.keys()];
  if (names.length > 0)
    throw new UsageError(`unknown option${names.length > 1 ? 's' : ''}: ${names.map((n) => `--${n}`).join(', ')}`);
}
