import { APPLICATION_ID_WHERE, applicationIdFromEnv, discordConfigFromEnv } from '../bot/config.js';
import { inviteUrl, isApplicationId } from '../bot/invite.js';
import { ConfigError } from '../config/env.js';
import { type ParsedArgs, rejectLeftovers, takeString, UsageError } from './args.js';
import { warnedEnvironment } from './environment.js';
import { EXIT_FAILURE, EXIT_LASTING, EXIT_OK } from './exit-codes.js';
import { type Io, oneLine } from './io.js';

/**
 * Prints the invite URL for the configured (or given) application id. With DISCORD_TOKEN set it
 * first asks Discord which application the token is, and refuses another id: the link would add
 * another bot. Without a token it needs no network, and cannot check.
 */
export async function runInvite(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const given = takeString(args.flags, 'application-id')?.trim();
  rejectLeftovers(args.flags);
  if (given !== undefined && !isApplicationId(given))
    throw new UsageError(`--application-id takes an application id, 17 to 20 digits (${APPLICATION_ID_WHERE})`);
  const env = warnedEnvironment(io, 'invite');
  const problems: string[] = [];
  const configured = given === undefined ? applicationIdFromEnv(env, problems) : given;
  const hasToken = Boolean(env.DISCORD_TOKEN?.trim());
  const discord = hasToken ? discordConfigFromEnv(env, problems) : null;
  if (problems.length > 0) throw new ConfigError(problems);
  if (discord === null) {
    if (configured === undefined)
      throw new ConfigError([
        `DISCORD_APPLICATION_ID must be set, or --application-id given (${APPLICATION_ID_WHERE})`,
      ]);
    io.out(`${inviteUrl(configured)}\n`);
    return EXIT_OK;
  }
  const { tokenApplication } = await import('../bot/deploy.js');
  let application: { id: string; name: string };
  try {
    application = await tokenApplication({ token: discord.discordToken, apiUrl: discord.discordApiUrl });
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (status === 401) {
      io.err(
        'eventor-bot invite: Discord refused DISCORD_TOKEN (401); check it, or unset it to print the link unchecked\n',
      );
      return EXIT_LASTING;
    }
    io.err(
      `eventor-bot invite: cannot ask Discord at ${discord.discordApiUrl} which application DISCORD_TOKEN is (${oneLine(error)}); ` +
        'try again, or unset DISCORD_TOKEN to print the link unchecked\n',
    );
    return EXIT_FAILURE;
  }
  if (configured !== undefined && configured !== application.id) {
    const source = given === undefined ? 'DISCORD_APPLICATION_ID' : '--application-id';
    io.err(
      `eventor-bot invite: ${source} is ${configured}, but DISCORD_TOKEN belongs to application ${application.id} ` +
        `(${application.name}): the link would add another bot; set ${source === '--application-id' ? 'it' : 'DISCORD_APPLICATION_ID'} to ${application.id}\n`,
    );
    return EXIT_LASTING;
  }
  io.out(`${inviteUrl(application.id)}\n`);
  return EXIT_OK;
}
