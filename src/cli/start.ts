import { readFileSync } from 'node:fs';
import type { RunningBot } from '../bot/bot.js';
import { type BotConfig, botConfigFromEnv } from '../bot/config.js';
import { createLogger, type Logger } from '../log/logger.js';
import { StoreError } from '../store/sqlite/database.js';
import { SecretBox } from '../store/secrets.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, UsageError } from './args.js';
import { commandEnvironment } from './environment.js';
import type { Io } from './io.js';

/**
 * The bot as `start` and `tick` run it: configured from the environment (or `.env`), logging to
 * stderr. Null (after saying why) when the database or Discord's login refuses.
 */
export async function startConfiguredBot(
  args: ParsedArgs,
  io: Io,
  command: string,
  options: { scheduler: boolean; checkDefaultEventor?: boolean },
): Promise<{ bot: RunningBot; log: Logger } | null> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const initialiseDatabase = takeBoolean(args.flags, 'init-database');
  rejectLeftovers(args.flags);
  // Read before the configuration is checked: a misspelt variable is often why a required one is missing.
  const { env, unknown } = commandEnvironment(io);
  let configured: BotConfig;
  try {
    configured = botConfigFromEnv(env);
  } catch (error) {
    if (unknown !== null) io.err(`eventor-bot ${command}: warning: ${unknown}\n`);
    throw error;
  }
  const config = initialiseDatabase ? { ...configured, initialiseDatabase } : configured;
  const log = createLogger({ level: config.logLevel, write: (line) => io.err(line) });
  if (unknown !== null) log.warn(unknown);
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
      }),
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

/**
 * Runs the bot until SIGINT or SIGTERM (or, under npm, until the npm process that started it is
 * gone), then finishes what is in flight and closes the database. `until` replaces all that (tests).
 */
export async function runStart(args: ParsedArgs, io: Io, until?: Promise<unknown>): Promise<number> {
  // Listening before the bot starts: a stop signal right after "bot ready" (or during the start)
  // still stops it cleanly instead of killing it.
  const signals = until === undefined ? new StopSignals(io) : null;
  try {
    const stop = until ?? signals!.stop;
    const started = await startConfiguredBot(args, io, 'start', { scheduler: true, checkDefaultEventor: true });
    if (!started) return 1;
    const { bot, log } = started;
    signals?.logTo(log);
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

/** The whole stop may take this long; past it the process exits (Docker's grace period is 10 s). */
export const STOP_DEADLINE_MS = 8_000;
/**
 * Ctrl-C under `npm start` reaches the bot twice at once, from the terminal and forwarded by npm:
 * a signal this soon after the first is the same request, not a second one.
 */
const SAME_SIGNAL_MS = 1_000;
const PARENT_POLL_MS = 500;

/**
 * The stop request: the first SIGINT or SIGTERM, or the end of the npm process that started the
 * bot (`npx eventor-bot start` runs it under `sh -c`, and a signal npm forwards ends only the
 * shell). A second signal, or a stop past `STOP_DEADLINE_MS`, exits at once, saying so.
 */
class StopSignals {
  readonly stop: Promise<string>;
  readonly #io: Io;
  #log: Logger | null = null;
  #resolve!: (why: string) => void;
  #firstAt: number | null = null;
  #deadline: NodeJS.Timeout | null = null;
  #parentWatch: NodeJS.Timeout | null = null;
  readonly #onSignal = (signal: NodeJS.Signals): void => this.#signal(signal);

  constructor(io: Io) {
    this.#io = io;
    this.stop = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    process.on('SIGINT', this.#onSignal);
    process.on('SIGTERM', this.#onSignal);
    // Only under npm: a bot started from a shell with `&` outlives that shell on purpose.
    if (process.env.npm_lifecycle_event !== undefined) {
      const parent = process.ppid;
      this.#parentWatch = setInterval(() => {
        if (parentAlive(parent)) return;
        clearInterval(this.#parentWatch!);
        this.#parentWatch = null;
        this.#begin(`the process that ran the bot under npm (pid ${parent}) ended`);
      }, PARENT_POLL_MS);
      this.#parentWatch.unref();
    }
  }

  /** Where the forced exit is told once the bot has a logger (before, a plain line). */
  logTo(log: Logger): void {
    this.#log = log;
  }

  dispose(): void {
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
    if (this.#deadline) clearTimeout(this.#deadline);
    if (this.#parentWatch) clearInterval(this.#parentWatch);
  }

  #signal(signal: NodeJS.Signals): void {
    if (this.#firstAt === null) {
      this.#begin(signal);
      return;
    }
    if (Date.now() - this.#firstAt < SAME_SIGNAL_MS) return;
    this.#exitNow(`second stop signal (${signal}): exiting without waiting for the stop to finish`);
  }

  #begin(why: string): void {
    if (this.#firstAt !== null) return;
    this.#firstAt = Date.now();
    this.#resolve(why);
    this.#deadline = setTimeout(
      () =>
        this.#exitNow(`the stop took longer than ${STOP_DEADLINE_MS / 1000} s: exiting without waiting for the rest`),
      STOP_DEADLINE_MS,
    );
    this.#deadline.unref();
  }

  /** The database is not closed: SQLite's journal brings it back as after a power cut. */
  #exitNow(why: string): void {
    if (this.#log) this.#log.warn(why);
    else this.#io.err(`eventor-bot start: ${why}\n`);
    process.exit(1);
  }
}

/** Whether the process `pid`, this one's parent at the start, is still its parent. */
function parentAlive(pid: number): boolean {
  try {
    // Linux: the parent now, exact even if the old pid is reused; the field after the name in parentheses.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'ESRCH';
    }
  }
}
