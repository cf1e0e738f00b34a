import { COMMANDS } from '../../commands/index.js';
import { applicationIdFromEnv, discordConfigFromEnv } from '../bot/config.js';
import { deployCommands } from '../bot/deploy.js';
import { inviteUrl } from '../bot/invite.js';
import { ConfigError } from '../config/env.js';
import { type ParsedArgs, rejectLeftovers, takeString, UsageError } from './args.js';
import { warnedEnvironment } from './environment.js';
import type { Io } from './io.js';

export async function runDeployCommands(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const guildId = takeString(args.flags, 'guild');
  if (guildId !== undefined) {
    const copy = 'Discord: Settings > Advanced > Developer Mode, then right-click the server > Copy Server ID';
    if (!/^\d+$/.test(guildId)) throw new UsageError(`--guild takes a server id, digits only (${copy})`);
    if (guildId.length < 17)
      throw new UsageError(`--guild ${guildId} is too short for a Discord server id (17 to 20 digits; ${copy})`);
    if (guildId.length > 20)
      throw new UsageError(
        `--guild ${guildId.slice(0, 24)}${guildId.length > 24 ? '…' : ''} is too long for a Discord server id (17 to 20 digits; ${copy})`,
      );
  }
  rejectLeftovers(args.flags);
  const env = warnedEnvironment(io, 'deploy-commands');
  const problems: string[] = [];
  const { discordToken, discordApiUrl } = discordConfigFromEnv(env, problems);
  const configuredId = applicationIdFromEnv(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  try {
    const { count, scope, applicationId } = await deployCommands({
      token: discordToken,
      apiUrl: discordApiUrl,
      commands: COMMANDS,
      guildId,
    });
    io.out(
      `Registered ${count} commands for ${scope}.${guildId ? '' : ' Global commands can take up to an hour to appear.'}\n`,
    );
    // The next step: adding the bot to a server (the same URL as `eventor-bot invite`).
    io.out(`Add the bot to a server: ${inviteUrl(applicationId)}\n`);
    // `invite` would print a URL for another application than the one this token is.
    if (configuredId !== undefined && configuredId !== applicationId)
      io.err(
        `eventor-bot deploy-commands: DISCORD_APPLICATION_ID is ${configuredId}, but DISCORD_TOKEN belongs to application ${applicationId}; set it to ${applicationId}\n`,
      );
    return 0;
  } catch (error) {
    io.err(`eventor-bot deploy-commands: Discord refused: ${(error as Error).message}\n`);
    return 1;
  }
}
