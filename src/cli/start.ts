import type { RunningBot } from '../bot/bot.js';
import { type BotConfig, botConfigFromEnv } from '../bot/config.js';
import { clockFrom } from '../config/sandbox-clock.js';
import { formatShards } from '../config/sharding.js';
import { createLogger, type Logger } from '../log/logger.js';
import { StoreError } from '../store/sqlite/database.js';
import { SecretBox } from '../store/secrets.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, takeString, UsageError } from './args.js';
import { commandEnvironment } from './environment.js';
import type { Io } from './io.js';
import { StopSignals } from './stop-signals.js';

export { STOP_DEADLINE_MS } from './stop-signals.js';

/**
 * The bot as `start` and `tick` run it: configured from the environment (or `.env`), logging to
 * stderr. Null (after saying why) when the database or Discord's login refuses.
 */
export async function startConfiguredBot(
  args: ParsedArgs,
  io: Io,
  command: string,
  options: { scheduler: boolean; checkDefaultEventor?: boolean },
): Promise<{ bot: RunningBot; log: Logger; now: () => Date } | null> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const initialiseDatabase = takeBoolean(args.flags, 'init-database');
  rejectLeftovers(args.flags);
  // Read before the configuration is checked: a misspelt variable is often why a required one is missing.
  const { env, warnings } = commandEnvironment(io);
  let configured: BotConfig;
  try {
    configured = botConfigFromEnv(env);
  } catch (error) {
    for (const warning of warnings) io.err(`eventor-bot ${command}: warning: ${warning}\n`);
    throw error;
  }
  const config = initialiseDatabase ? { ...configured, initialiseDatabase } : configured;
  const written = createLogger({ level: config.logLevel, write: (line) => io.err(line) });
  // Several processes write to one log: each line says which shards it comes from.
  const log = config.sharding ? written.child({ shards: formatShards(config.sharding.shards) }) : written;
  for (const warning of warnings) log.warn(warning);
  const now = config.sandboxClock === undefined ? () => new Date() : clockFrom(config.sandboxClock);
  // Allowed only against loopback Eventors (src/config/sandbox-clock.ts): worth a debug line, not a warning.
  if (config.sandboxClock !== undefined)
    log.debug('SANDBOX_CLOCK: the bot reads the sandbox Eventor on a clock of its own', {
      startsAt: config.sandboxClock.toISOString(),
    });
  // The key derivation (scrypt, slow on purpose) runs in the thread pool while this thread loads
  // the bot, discord.js and the commands: the two biggest parts of the way to "bot ready".
  const secretBox = SecretBox.derive(config.secretKey);
  const [{ startBot }, { COMMANDS }] = await Promise.all([import('../bot/bot.js'), import('../../commands/index.js')]);
  try {
    return {
      bot: await startBot({
        config,
        log,
        commands: COMMANDS,
        scheduler: options.scheduler,
        checkDefaultEventor: options.checkDefaultEventor === true,
        secretBox,
        ...(config.sandboxClock === undefined ? {} : { now }),
      }),
      log,
      now,
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

/**
 * Runs the bot until SIGINT or SIGTERM (or, under npm, until the npm process that started it is
 * gone), then finishes what is in flight and closes the database. `until` replaces all that (tests).
 */
export async function runStart(args: ParsedArgs, io: Io, until?: Promise<unknown>): Promise<number> {
  const processes = takeString(args.flags, 'processes');
  if (processes !== undefined) {
    const { processCount, runLauncher } = await import('./launcher.js');
    return runLauncher(args, io, processCount(processes));
  }
  // Listening before the bot starts: a stop signal right after "bot ready" (or during the start)
  // still stops it cleanly instead of killing it.
  const signals = until === undefined ? new StopSignals(io) : null;
  try {
    const stop = until ?? signals!.stop;
    const started = await startConfiguredBot(args, io, 'start', { scheduler: true, checkDefaultEventor: true });
    if (!started) return 1;
    const { bot, log } = started;
    if (signals) {
      signals.logTo(log);
      StopSignals.ready();
    }
    // A stray rejection somewhere in a library must not take every server's bot down: log it.
    const onRejection = (reason: unknown): void => log.error('unhandled rejection', { error: reason });
    process.on('unhandledRejection', onRejection);
    try {
      const why = await stop;
      if (typeof why === 'string')
        log.info(`${why}: stopping (a second signal exits without waiting)`, { pid: process.pid });
    } finally {
      await bot.stop();
      process.off('unhandledRejection', onRejection);
    }
    return 0;
  } finally {
    signals?.dispose();
  }
}
