import { loadDotEnv } from '../config/env.js';
import { type ConfigEnv, unknownVariablesWarning } from '../config/variables.js';
import type { Io } from './io.js';

/**
 * The environment a command configures from: `io.env` when given (tests), else the process's own
 * after reading `.env`; and the one-line warning about variables the bot does not know, if any.
 */
export function commandEnvironment(io: Io): { env: ConfigEnv; unknown: string | null } {
  if (io.env !== undefined) return { env: io.env, unknown: unknownVariablesWarning(null, io.env) };
  const dotEnvFile = loadDotEnv();
  return { env: process.env, unknown: unknownVariablesWarning(dotEnvFile, process.env) };
}

/** {@link commandEnvironment} for a command that says the warning on standard error at once. */
export function warnedEnvironment(io: Io, command: string): ConfigEnv {
  const { env, unknown } = commandEnvironment(io);
  if (unknown !== null) io.err(`eventor-bot ${command}: warning: ${unknown}\n`);
  return env;
}
