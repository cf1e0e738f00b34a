import { APPLICATION_ID_WHERE, applicationIdFromEnv } from '../bot/config.js';
import { inviteUrl, isApplicationId } from '../bot/invite.js';
import { ConfigError } from '../config/env.js';
import { type ParsedArgs, rejectLeftovers, takeString, UsageError } from './args.js';
import { warnedEnvironment } from './environment.js';
import type { Io } from './io.js';

/** Prints the invite URL for the configured (or given) application id. Needs no token and no network. */
export async function runInvite(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const given = takeString(args.flags, 'application-id')?.trim();
  rejectLeftovers(args.flags);
  if (given !== undefined && !isApplicationId(given))
    throw new UsageError(`--application-id takes an application id, 17 to 20 digits (${APPLICATION_ID_WHERE})`);
  let applicationId = given;
  if (applicationId === undefined) {
    const env = warnedEnvironment(io, 'invite');
    const problems: string[] = [];
    applicationId = applicationIdFromEnv(env, problems);
    if (problems.length > 0) throw new ConfigError(problems);
    if (applicationId === undefined)
      throw new ConfigError([
        `DISCORD_APPLICATION_ID must be set, or --application-id given (${APPLICATION_ID_WHERE})`,
      ]);
  }
  io.out(`${inviteUrl(applicationId)}\n`);
  return 0;
}
