import { rejectLeftovers, takeBoolean, UsageError, type ParsedArgs } from './args.js';
import type { Io } from './main.js';
import { eventorConfigFromEnv, loadDotEnv } from '../config/env.js';
import { EventorClient } from '../eventor/client.js';
import { EventorError, ValidationError } from '../eventor/errors.js';
import { OPERATIONS, type OperationName } from '../eventor/operations.js';

function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

function describeOperations(): string {
  return Object.entries(OPERATIONS)
    .map(([name, op]) => `  ${name.padEnd(22)} ${op.method} /api${op.path}  ${op.parameterNames.map((p) => (op.required.includes(p) ? `--${p}` : `[--${p}]`)).join(' ')}`)
    .join('\n');
}

export async function runQuery(args: ParsedArgs, io: Io): Promise<number> {
  if (takeBoolean(args.flags, 'list')) {
    io.out(`Operations:\n${describeOperations()}\n`);
    return 0;
  }
  const [name, extra] = args.positionals;
  if (name === undefined) throw new UsageError(`name an operation, e.g. eventor-bot query events --fromDate 2026-05-01\n\nOperations:\n${describeOperations()}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}' (parameters are given as --name value)`);
  if (!isOperationName(name)) throw new UsageError(`unknown operation '${name}'; 'eventor-bot query --list' lists them`);
  const raw = takeBoolean(args.flags, 'raw');
  const operation = OPERATIONS[name];
  const params: Record<string, string | boolean> = {};
  for (const [flag, value] of args.flags) {
    const parameter = operation.parameterNames.find((p) => p.toLowerCase() === flag.toLowerCase());
    if (parameter === undefined) continue;
    params[parameter] = value;
    args.flags.delete(flag);
  }
  rejectLeftovers(args.flags);

  let env = io.env;
  if (env === undefined) {
    loadDotEnv();
    env = process.env;
  }
  const config = eventorConfigFromEnv(env);
  const client = new EventorClient({ instance: config.instance, apiKey: config.apiKey, timeoutMs: config.timeoutMs, cache: false,
    ...(config.responseLimitScale === undefined ? {} : { responseLimitScale: config.responseLimitScale }) });
  try {
    const result = await client.call(name, params);
    if (raw && typeof result === 'object' && result !== null && 'xml' in result && typeof result.xml === 'string') {
      io.out(result.xml.endsWith('\n') ? result.xml : `${result.xml}\n`);
    } else {
      io.out(`${JSON.stringify(result, null, 2)}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof ValidationError) {
      io.err(`eventor-bot query ${name}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof EventorError) {
      io.err(`eventor-bot query ${name}: ${error.name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await client.close();
  }
}
