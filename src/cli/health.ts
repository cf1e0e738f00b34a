/**
 * `eventor-bot health` (docs/operators.md#monitoring): reads the heartbeats the running bot's
 * processes record and exits 0 (healthy) or 1 (not), with one line saying why. Only those two
 * codes, whatever goes wrong: Docker's HEALTHCHECK reserves every other.
 */
import { judgeHealth, processName } from '../app/health.js';
import { DEFAULT_DATABASE_PATH } from '../bot/config.js';
import { databaseUrlFromEnv } from '../config/database.js';
import { ConfigError } from '../config/errors.js';
import { formatShards, shardingFromEnv } from '../config/sharding.js';
import { StoreError } from '../store/errors.js';
import { readHeartbeats } from '../store/open.js';
import { type ParsedArgs, rejectLeftovers, UsageError } from './args.js';
import { commandEnvironment } from './environment.js';
import type { Io } from './io.js';

export async function runHealth(args: ParsedArgs, io: Io): Promise<number> {
  try {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
    rejectLeftovers(args.flags);
    // No warning about unknown variables: this runs every half minute, and `start` says it once.
    const { env } = commandEnvironment(io);
    const problems: string[] = [];
    const sharding = shardingFromEnv(env, problems);
    const databaseUrl = databaseUrlFromEnv(env, problems);
    if (problems.length > 0) throw new ConfigError(problems);
    const { description, beats } = await readHeartbeats({
      databasePath: env.DATABASE_PATH?.trim() || DEFAULT_DATABASE_PATH,
      databaseUrl: databaseUrl ?? undefined,
    });
    // SHARDS set: this is one process's place (a container of compose.postgres.yaml), judged alone.
    const own =
      sharding && env.SHARDS?.trim() ? processName(formatShards(sharding.shards), sharding.shardCount) : undefined;
    const verdict = judgeHealth(beats, new Date(), own);
    if (verdict.healthy) {
      io.out(`${verdict.line}\n`);
      return 0;
    }
    io.err(`${beats.length === 0 ? `${verdict.line} (${description})` : verdict.line}\n`);
    return 1;
  } catch (error) {
    if (error instanceof UsageError) io.err(`eventor-bot health: ${error.message}\n`);
    else if (error instanceof ConfigError || error instanceof StoreError) io.err(`unhealthy: ${error.message}\n`);
    else throw error;
    return 1;
  }
}
