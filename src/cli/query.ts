import { setFlagsFromString } from 'node:v8';
import { eventorConfigFromEnv } from '../config/env.js';
import { EventorClient } from '../eventor/client.js';
import { EventorError, ValidationError } from '../eventor/errors.js';
import { OPERATIONS, type OperationName } from '../eventor/operations.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, UsageError } from './args.js';
import { warnedEnvironment } from './environment.js';
import type { Io } from './io.js';

/**
 * undici parses HTTP with llhttp compiled to WebAssembly. After the first answer V8 finds its one
 * large function hot and recompiles it with its optimising compiler on a background thread: some
 * 35 MB and about a sixth of a bare request's process CPU, for a command that reads one answer
 * and exits. Baseline code parses an answer as correctly (the body bytes pass through llhttp in
 * large spans either way). Set before the first request, when undici first compiles the parser;
 * the bot's own long-running process keeps V8's defaults.
 */
function baselineWebAssemblyOnly(): void {
  setFlagsFromString('--liftoff-only');
}

function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

function describeOperations(): string {
  return Object.entries(OPERATIONS)
    .map(
      ([name, op]) =>
        `  ${name.padEnd(22)} ${op.method} /api${op.path}  ${op.parameterNames.map((p) => (op.required.includes(p) ? `--${p}` : `[--${p}]`)).join(' ')}`,
    )
    .join('\n');
}

export async function runQuery(args: ParsedArgs, io: Io): Promise<number> {
  if (takeBoolean(args.flags, 'list')) {
    io.out(`Operations:\n${describeOperations()}\n`);
    return 0;
  }
  // `--raw events`: the parser took the operation for the flag's value. --raw takes none.
  const rawFlag = args.flags.get('raw');
  if (typeof rawFlag === 'string' && rawFlag !== 'true' && rawFlag !== 'false') {
    args.positionals.unshift(rawFlag);
    args.flags.set('raw', true);
  }
  const [name, extra] = args.positionals;
  if (name === undefined)
    throw new UsageError(
      `name an operation, e.g. eventor-bot query events --fromDate 2026-05-01\n\nOperations:\n${describeOperations()}`,
    );
  if (extra !== undefined)
    throw new UsageError(`unexpected argument '${extra}' (parameters are given as --name value)`);
  if (!isOperationName(name))
    throw new UsageError(`unknown operation '${name}'; 'eventor-bot query --list' lists them`);
  const raw = takeBoolean(args.flags, 'raw');
  const operation = OPERATIONS[name];
  if (raw && operation.format !== 'iofxml') {
    const documents = Object.entries(OPERATIONS)
      .filter(([, op]) => op.format === 'iofxml')
      .map(([n]) => n);
    throw new UsageError(
      `--raw prints the IOF XML of ${documents.join(' and ')}; '${name}' answers in Eventor's own XML, printed as JSON`,
    );
  }
  const params: Record<string, string | boolean> = {};
  for (const [flag, value] of args.flags) {
    const parameter = operation.parameterNames.find((p) => p.toLowerCase() === flag.toLowerCase());
    if (parameter === undefined) continue;
    params[parameter] = value;
    args.flags.delete(flag);
  }
  rejectLeftovers(args.flags);

  baselineWebAssemblyOnly();
  const env = warnedEnvironment(io, 'query');
  const config = eventorConfigFromEnv(env);
  const client = new EventorClient({
    instance: config.instance,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    cache: false,
    responseLimitScale: config.responseLimitScale,
  });
  try {
    const result = await client.call(name, params);
    if (raw && typeof result === 'object' && result !== null && 'xml' in result && typeof result.xml === 'string') {
      io.out(result.xml.endsWith('\n') ? result.xml : `${result.xml}\n`);
    } else {
      io.out(`${JSON.stringify(result, null, 2)}\n`);
    }
    return 0;
  } catch (error) {
    // The error names the operation itself; the line already does.
    const message =
      error instanceof Error && error.message.startsWith(`${name}: `)
        ? error.message.slice(name.length + 2)
        : (error as Error).message;
    if (error instanceof ValidationError) {
      io.err(`eventor-bot query ${name}: ${message}\n`);
      return 2;
    }
    if (error instanceof EventorError) {
      const baseUrl = config.instance.baseUrl;
      const hint =
        error.code === 'NotFound' && !/\/api$/.test(baseUrl)
          ? ` (EVENTOR_BASE_URL is ${baseUrl}: it must end in /api, e.g. https://eventor.orientering.se/api)`
          : '';
      io.err(`eventor-bot query ${name}: ${error.name}: ${message}${hint}\n`);
      return 1;
    }
    throw error;
  } finally {
    await client.close();
  }
}
