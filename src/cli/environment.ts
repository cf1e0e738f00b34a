import { readFileSync } from 'node:fs';
import { loadDotEnv } from '../config/env.js';
import { type ConfigEnv, repeatedVariablesWarning, unknownVariablesWarning } from '../config/variables.js';
import type { Io } from './io.js';

/**
 * The environment a command configures from: `io.env` when given (tests), else the process's own
 * after reading `.env`; and the one-line warnings about it: variables the bot does not know, and
 * variables `.env` sets more than once (a later empty line wins over a value above it).
 */
export function commandEnvironment(io: Io): { env: ConfigEnv; warnings: string[] } {
  if (io.env !== undefined) return { env: io.env, warnings: present([unknownVariablesWarning(null, io.env)]) };
  const dotEnvFile = loadDotEnv();
  let repeated: string | null = null;
  if (dotEnvFile !== null) {
    try {
      repeated = repeatedVariablesWarning(readFileSync(dotEnvFile, 'utf8'));
    } catch {
      // Read once already by the loader; if it cannot be read again, there is nothing to warn about.
    }
  }
  return { env: process.env, warnings: present([repeated, unknownVariablesWarning(dotEnvFile, process.env)]) };
}

const present = (lines: ReadonlyArray<string | null>): string[] => lines.filter((line) => line !== null);

/** {@link commandEnvironment} for a command that says the warnings on standard error at once. */
export function warnedEnvironment(io: Io, command: string): ConfigEnv {
  const { env, warnings } = commandEnvironment(io);
  for (const warning of warnings) io.err(`eventor-bot ${command}: warning: ${warning}\n`);
  return env;
}
