import type { RunningBot } from '../bot/bot.js';
import { botConfigFromEnv } from '../bot/config.js';
import { loadDotEnv } from '../config/env.js';
import { createLogger, type Logger } from '../log/logger.js';
import { StoreError } from '../store/database.js';
import { SecretBox } from '../store/secrets.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, UsageError } from './args.js';
import type { Io } from './io.js';

/**
 * The bot as `start` and `tick` run it: configured from the environment (or `.env`), logging to
 * stderr. Null (after saying why) when the database or Discord's login refuses.
 */
export async function startConfiguredBot(
  args: ParsedArgs,
  io: Io,
  command: string,
  options: { scheduler: boolean },
): Promise<{ bot: RunningBot; log: Logger } | null> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const initialiseDatabase = takeBoolean(args.flags, 'init-database');
  rejectLeftovers(args.flags);
  let env = io.env;
  if (env === undefined) {
    loadDotEnv();
    env = process.env;
  }
  const configured = botConfigFromEnv(env);
  const config = initialiseDatabase ? { ...configured, initialiseDatabase } : configured;
  const log = createLogger({ level: config.logLevel, write: (line) => io.err(line) });
  // The key derivation (scrypt, slow on purpose) runs in the thread pool while this thread loads
  // the bot, discord.js and the commands: the two biggest parts of the way to "bot ready".
  const secretBox = SecretBox.derive(config.secretKey);
  const [{ startBot }, { COMMANDS }] = await Promise.all([import('../bot/bot.js'), import('../../commands/index.js')]);
  try {
    return {
      bot: await startBot({ config, log, commands: COMMANDS, scheduler: options.scheduler, secretBox }),
      log,
    };
  } catch (error) {
    if (error instanceof StoreError) {
      io.err(`eventor-bot ${command}: ${error.message}\n`);
      return null;
    }
    const code = (error as { code?: string }).code;
    if (code === 'TokenInvalid' || code === 'DisallowedIntents') {
      io.err(
        `eventor-bot ${command}: Discord refused to log in (${code}); check DISCORD_TOKEN and the bot's intents\n`,
      );
      return null;
    }
    const discordProblem = discordLoginProblem(error, config.discordApiUrl);
    if (discordProblem) {
      io.err(`eventor-bot ${command}: ${discordProblem}\n`);
      if (config.logLevel === 'debug' && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
      return null;
    }
    throw error;
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** Discord could not be reached, or what answered is not Discord's REST API: said with the address, in one line. */
function discordLoginProblem(error: unknown, apiUrl: string): string | null {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') {
    const hint =
      status === 404
        ? ' (DISCORD_API_URL must be the REST base up to and including /api, e.g. https://discord.com/api)'
        : '';
    return `Discord at ${apiUrl} answered ${status} when logging in${hint}`;
  }
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && NETWORK_CODES.has(code))
      return `cannot reach Discord at ${apiUrl} (${code}); check DISCORD_API_URL and the network`;
  }
  return null;
}

/** Runs the bot until SIGINT or SIGTERM, then finishes what is in flight and closes the database. */
export async function runStart(args: ParsedArgs, io: Io, until?: Promise<unknown>): Promise<number> {
  // Listening before the bot starts: a stop signal right after "bot ready" (or during the start)
  // still stops it cleanly instead of killing it.
  const stop = until ?? shutdownSignal();
  const started = await startConfiguredBot(args, io, 'start', { scheduler: true });
  if (!started) return 1;
  const { bot, log } = started;
  // A stray rejection somewhere in a library must not take every server's bot down: log it.
  const onRejection = (reason: unknown): void => log.error('unhandled rejection', { error: reason });
  process.on('unhandledRejection', onRejection);
  try {
    await stop;
  } finally {
    await bot.stop();
    process.off('unhandledRejection', onRejection);
  }
  return 0;
}

function shutdownSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}
