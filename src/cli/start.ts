import { rejectLeftovers, UsageError, type ParsedArgs } from './args.js';
import type { Io } from './main.js';
import { loadDotEnv } from '../config/env.js';
import { botConfigFromEnv } from '../bot/config.js';
import { startBot } from '../bot/bot.js';
import { createLogger } from '../log/logger.js';
import { StoreError } from '../store/database.js';
import { COMMANDS } from '../../commands/index.js';

/** Runs the bot until SIGINT or SIGTERM, then finishes what is in flight and closes the database. */
export async function runStart(args: ParsedArgs, io: Io, until?: Promise<unknown>): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  rejectLeftovers(args.flags);
  let env = io.env;
  if (env === undefined) {
    loadDotEnv();
    env = process.env;
  }
  const config = botConfigFromEnv(env);
  const log = createLogger({ level: config.logLevel, write: (line) => io.err(line) });
  let bot;
  try {
    bot = await startBot({ config, log, commands: COMMANDS });
  } catch (error) {
    if (error instanceof StoreError) {
      io.err(`eventor-bot start: ${error.message}\n`);
      return 1;
    }
    const code = (error as { code?: string }).code;
    if (code === 'TokenInvalid' || code === 'DisallowedIntents') {
      io.err(`eventor-bot start: Discord refused to log in (${code}); check DISCORD_TOKEN and the bot's intents\n`);
      return 1;
    }
    throw error;
  }
  // A stray rejection somewhere in a library must not take every server's bot down: log it.
  const onRejection = (reason: unknown): void => log.error('unhandled rejection', { error: reason });
  process.on('unhandledRejection', onRejection);
  try {
    await (until ?? shutdownSignal());
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
