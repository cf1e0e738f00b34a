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
import { EXIT_FAILURE, EXIT_LASTING, EXIT_OK } from './exit-codes.js';
import { exitSoon, StopSignals } from './stop-signals.js';

export { STOP_DEADLINE_MS } from './stop-signals.js';

/**
 * The bot as `start` and `tick` run it: configured from the environment (or `.env`), logging to
 * stderr. When it does not start, the exit code (docs/operators.md#exit-codes), after one line
 * saying why: the database or Discord's login refused (`EXIT_LASTING` when a restart cannot help),
 * or `signal` stopped the start (`EXIT_OK`).
 */
export async function startConfiguredBot(
  args: ParsedArgs,
  io: Io,
  command: string,
  options: { scheduler: boolean; checkDefaultEventor?: boolean; signal?: AbortSignal },
): Promise<{ bot: RunningBot; log: Logger; now: () => Date } | { exitCode: number }> {
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
  const [{ startBot, StartAborted }, { COMMANDS }] = await Promise.all([
    import('../bot/bot.js'),
    import('../../commands/index.js'),
  ]);
  try {
    return {
      bot: await startBot({
        config,
        log,
        commands: COMMANDS,
        scheduler: options.scheduler,
        // The running bot's (start), not a one-off tick's beside it.
        heartbeat: options.scheduler,
        checkDefaultEventor: options.checkDefaultEventor === true,
        secretBox,
        // The machine's clock unless SANDBOX_CLOCK moved it (the bot's own default is the same).
        now,
        signal: options.signal,
      }),
      log,
      now,
    };
  } catch (error) {
    if (error instanceof StartAborted) {
      log.info('stopped while starting: nothing was left half-done', { pid: process.pid });
      secretBox.catch(() => undefined);
      return { exitCode: EXIT_OK };
    }
    if (error instanceof StoreError) {
      io.err(`eventor-bot ${command}: ${error.message}\n`);
      return { exitCode: error.lasting ? EXIT_LASTING : EXIT_FAILURE };
    }
    const code = (error as { code?: string }).code;
    if (code === 'TokenInvalid' || code === 'DisallowedIntents') {
      io.err(
        `eventor-bot ${command}: Discord refused to log in (${code}); check DISCORD_TOKEN and the bot's intents\n`,
      );
      // A restart would be refused the same way, every few seconds for ever.
      return { exitCode: EXIT_LASTING };
    }
    const discordProblem = discordLoginProblem(error, config.discordApiUrl);
    if (discordProblem) {
      io.err(`eventor-bot ${command}: ${discordProblem.line}\n`);
      if (config.logLevel === 'debug' && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
      return { exitCode: discordProblem.lasting ? EXIT_LASTING : EXIT_FAILURE };
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

/**
 * Discord could not be reached, or what answered is not Discord's REST API: said with the address,
 * in one line; `lasting` when the address itself is wrong (a 404), not a network or Discord's outage.
 */
function discordLoginProblem(error: unknown, apiUrl: string): { line: string; lasting: boolean } | null {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') {
    const hint =
      status === 404
        ? ' (DISCORD_API_URL must be the REST base up to and including /api, e.g. https://discord.com/api)'
        : '';
    return { line: `Discord at ${apiUrl} answered ${status} when logging in${hint}`, lasting: status === 404 };
  }
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && NETWORK_CODES.has(code))
      return {
        line: `cannot reach Discord at ${apiUrl} (${code}); check DISCORD_API_URL and the network`,
        lasting: false,
      };
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
    // A stop during the start (the database, Discord's login) ends it there instead of after it.
    const starting = new AbortController();
    void signals?.stop.then(() => starting.abort());
    const started = await startConfiguredBot(args, io, 'start', {
      scheduler: true,
      checkDefaultEventor: true,
      signal: starting.signal,
    });
    if ('exitCode' in started) {
      // A request to the database or Discord still on its way holds the exit up no longer.
      if (starting.signal.aborted) exitSoon(started.exitCode);
      return started.exitCode;
    }
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
