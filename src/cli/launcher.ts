/**
 * `eventor-bot start --processes N` (docs/operators.md#several-processes-sharding): N processes of
 * `start`, each running its share of the bot's gateway shards. This process only supervises: it
 * checks the configuration once, starts the children one after another (Discord lets a bot
 * IDENTIFY once per 5 seconds), starts again a child that dies, with a growing pause, gives up when
 * one keeps dying, and passes a stop signal on to every child.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { botConfigFromEnv } from '../bot/config.js';
import { databaseUrlSecrets } from '../config/database.js';
import { ConfigError } from '../config/errors.js';
import { formatShards, splitShards } from '../config/sharding.js';
import { createLogger, type Logger } from '../log/logger.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, UsageError } from './args.js';
import { commandEnvironment } from './environment.js';
import { EXIT_LASTING } from './exit-codes.js';
import type { Io } from './io.js';
import { READY_MESSAGE, STOP_DEADLINE_MS, StopSignals } from './stop-signals.js';

/** More processes than this on one machine buy nothing: each holds a whole bot's memory. */
export const MAX_PROCESSES = 32;
/** Discord's IDENTIFY window: with `max_concurrency` 1, one session may start per 5 seconds. */
export const IDENTIFY_SPACING_MS = 5_500;
/** A child that is not ready after this long does not hold the next one's start up any longer. */
export const READY_WAIT_MS = 120_000;
/** The pause before the first restart of a child; it doubles with each exit within a minute. */
export const FIRST_RESTART_DELAY_MS = 1_000;
/** A child that exits this often within a minute keeps failing: the launcher stops everything. */
export const MAX_EXITS_PER_MINUTE = 5;
const MINUTE_MS = 60_000;
/** The children have `STOP_DEADLINE_MS` to stop; a little more, then the rest are killed. */
const LAUNCHER_STOP_DEADLINE_MS = STOP_DEADLINE_MS + 1_500;

/** `--processes`: a whole number from 1 to `MAX_PROCESSES`. */
export function processCount(raw: string): number {
  if (!/^\d{1,3}$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > MAX_PROCESSES)
    throw new UsageError(`--processes must be a whole number from 1 to ${MAX_PROCESSES}`);
  return Number(raw);
}

interface Slot {
  /** 1-based, as the log shows it. */
  number: number;
  shards: number[];
  child: ChildProcess | null;
  /** Whether the running child said it is ready. */
  ready: boolean;
  /** When the child's exits happened, for the restart rule (the last minute's only). */
  exits: number[];
  restartTimer: NodeJS.Timeout | null;
}

/**
 * Runs `start --processes N`: resolves with the exit code once every child has exited (0 after a
 * stop signal, 1 when a child kept failing, 2 when one met a mistake a restart cannot fix).
 */
export async function runLauncher(args: ParsedArgs, io: Io, processes: number): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const initialiseDatabase = takeBoolean(args.flags, 'init-database');
  rejectLeftovers(args.flags);
  const { env, warnings } = commandEnvironment(io);
  for (const warning of warnings) io.err(`eventor-bot start: warning: ${warning}\n`);
  if (env.SHARDS?.trim())
    throw new ConfigError([
      'SHARDS cannot be set with --processes: the launcher gives each process its shards (SHARD_COUNT may be set)',
    ]);
  // Checked here once: a mistake is one message now, not N children failing one after another.
  const config = botConfigFromEnv(env);
  const shardCount = config.sharding?.shardCount ?? processes;
  if (shardCount < processes)
    throw new ConfigError([
      `SHARD_COUNT=${shardCount} is fewer than --processes ${processes}: every process needs at least one shard`,
    ]);
  const log = createLogger({ level: config.logLevel, write: (line) => io.err(line) }).child({ launcher: process.pid });
  // Its lines name no secret, but an error from the system could quote the children's environment.
  log.redact(config.discordToken);
  log.redact(config.secretKey);
  if (config.databaseUrl !== undefined) for (const secret of databaseUrlSecrets(config.databaseUrl)) log.redact(secret);
  const launcher = new Launcher({
    log,
    program: programPath(),
    args: initialiseDatabase ? ['start', '--init-database'] : ['start'],
    env: { ...(io.env ?? process.env), SHARD_COUNT: String(shardCount) },
    split: splitShards(shardCount, processes),
    shardCount,
    io,
  });
  return launcher.run();
}

class Launcher {
  readonly #log: Logger;
  readonly #program: string;
  readonly #args: readonly string[];
  readonly #env: NodeJS.ProcessEnv;
  readonly #io: Io;
  readonly #shardCount: number;
  readonly #slots: Slot[];
  /** Children waiting for their turn to start, oldest first. */
  readonly #queue: Slot[] = [];
  #starting = false;
  /** No child starts before this (monotonic ms): the previous one's IDENTIFY must be 5 s past. */
  #nextStartAt = 0;
  #stopping = false;
  #exitCode = 0;
  #wake: (() => void) | null = null;
  #allExited: (() => void) | null = null;

  constructor(options: {
    log: Logger;
    program: string;
    args: readonly string[];
    env: NodeJS.ProcessEnv;
    split: number[][];
    shardCount: number;
    io: Io;
  }) {
    this.#log = options.log;
    this.#program = options.program;
    this.#args = options.args;
    this.#env = options.env;
    this.#io = options.io;
    this.#shardCount = options.shardCount;
    this.#slots = options.split.map((shards, i) => ({
      number: i + 1,
      shards,
      child: null,
      ready: false,
      exits: [],
      restartTimer: null,
    }));
  }

  async run(): Promise<number> {
    const signals = new StopSignals(this.#io, {
      deadlineMs: LAUNCHER_STOP_DEADLINE_MS,
      // Exiting without waiting: the children go too (SQLite's journal brings the database back).
      beforeExit: () => this.#killAll(),
    });
    signals.logTo(this.#log);
    const ended = new Promise<void>((resolve) => (this.#allExited = resolve));
    this.#log.info('starting the bot as several processes', {
      processes: this.#slots.length,
      shardCount: this.#shardCount,
      shards: this.#slots.map((slot) => formatShards(slot.shards)),
    });
    void signals.stop.then((why) => this.#stop(`${why}: stopping every process`, 0));
    for (const slot of this.#slots) this.#queue.push(slot);
    void this.#startQueued();
    try {
      await ended;
    } finally {
      signals.dispose();
    }
    this.#log.info('every process stopped', { exitCode: this.#exitCode });
    return this.#exitCode;
  }

  #name(slot: Slot): string {
    return `process ${slot.number} of ${this.#slots.length} (shards ${formatShards(slot.shards)})`;
  }

  /** Starts the queued children one at a time, each once the previous is ready and 5 s have passed. */
  async #startQueued(): Promise<void> {
    if (this.#starting) return;
    this.#starting = true;
    try {
      while (!this.#stopping && this.#queue.length > 0) {
        await this.#sleep(this.#nextStartAt - performance.now());
        if (this.#stopping) break;
        const slot = this.#queue.shift()!;
        const ready = this.#spawn(slot);
        await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, READY_WAIT_MS).unref())]);
        this.#nextStartAt = performance.now() + IDENTIFY_SPACING_MS;
      }
    } finally {
      this.#starting = false;
    }
  }

  /** Resolves when the child is ready or has exited. */
  #spawn(slot: Slot): Promise<void> {
    const child = spawn(process.execPath, [this.#program, ...this.#args], {
      env: { ...this.#env, SHARDS: formatShards(slot.shards) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    slot.child = child;
    slot.ready = false;
    forwardLines(child.stdout!, this.#io.out);
    forwardLines(child.stderr!, this.#io.err);
    this.#log.info(`${this.#name(slot)} started`, { pid: child.pid });
    return new Promise((resolve) => {
      child.on('message', (message: unknown) => {
        if ((message as { type?: unknown } | null)?.type !== READY_MESSAGE) return;
        slot.ready = true;
        resolve();
      });
      child.once('error', (error) => {
        this.#log.error(`${this.#name(slot)} could not be started`, { error });
        // No process came of it, so no 'exit' will follow.
        if (child.pid === undefined) {
          resolve();
          this.#exited(slot, 1, null);
        }
      });
      child.once('exit', (code, signal) => {
        resolve();
        this.#exited(slot, code, signal);
      });
    });
  }

  #exited(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    slot.child = null;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (this.#stopping) {
      if (code !== 0) this.#log.warn(`${this.#name(slot)} ended with ${how} while stopping`);
      if (this.#exitCode === 0 && code !== 0 && !signal) this.#exitCode = 1;
      this.#checkAllExited();
      return;
    }
    if (code === EXIT_LASTING) {
      this.#stop(
        `${this.#name(slot)} exited with ${EXIT_LASTING}: a mistake a restart cannot fix (its log says which): stopping`,
        EXIT_LASTING,
      );
      return;
    }
    const now = performance.now();
    slot.exits = [...slot.exits.filter((at) => now - at < MINUTE_MS), now];
    if (slot.exits.length >= MAX_EXITS_PER_MINUTE) {
      this.#stop(
        `${this.#name(slot)} keeps failing (${slot.exits.length} exits within a minute, the last with ${how}): stopping every process`,
        1,
      );
      return;
    }
    // The pause doubles with each exit; no start comes sooner than the IDENTIFY spacing allows
    // (a child that ended before it was ready may have identified just before).
    const spacing = slot.ready ? this.#nextStartAt - now : IDENTIFY_SPACING_MS;
    const delay = Math.max(FIRST_RESTART_DELAY_MS * 2 ** (slot.exits.length - 1), spacing);
    this.#log.warn(`${this.#name(slot)} exited with ${how}; starting it again in ${Math.ceil(delay / 100) / 10} s`, {
      exitsInLastMinute: slot.exits.length,
    });
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = null;
      if (this.#stopping) return;
      this.#queue.push(slot);
      void this.#startQueued();
    }, delay);
  }

  #stop(why: string, exitCode: number): void {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#exitCode = exitCode;
    this.#log[exitCode === 0 ? 'info' : 'error'](why);
    this.#queue.length = 0;
    this.#wake?.();
    for (const slot of this.#slots) {
      if (slot.restartTimer) clearTimeout(slot.restartTimer);
      slot.restartTimer = null;
      // Each child finishes what is in flight and closes the database on its own (src/cli/start.ts).
      slot.child?.kill('SIGTERM');
    }
    this.#checkAllExited();
  }

  #killAll(): void {
    for (const slot of this.#slots) slot.child?.kill('SIGKILL');
  }

  #checkAllExited(): void {
    if (this.#stopping && this.#slots.every((slot) => slot.child === null)) this.#allExited?.();
  }

  /** Waits `ms` (nothing when not positive); a stop cuts it short. */
  async #sleep(ms: number): Promise<void> {
    if (ms <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#wake = null;
  }
}

/** Copies a child's output to `write` a whole line at a time, so lines of different children never mix. */
function forwardLines(stream: NodeJS.ReadableStream, write: (text: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const end = pending.lastIndexOf('\n');
    if (end < 0) return;
    write(pending.slice(0, end + 1));
    pending = pending.slice(end + 1);
  });
  stream.on('end', () => {
    if (pending !== '') write(`${pending}\n`);
    pending = '';
  });
}

/** The program the children run: this installation's own `bin/eventor-bot.js`, found from here in src/ or dist/. */
function programPath(): string {
  for (let dir = new URL('.', import.meta.url), depth = 0; depth < 5; dir = new URL('..', dir), depth++) {
    const pkg = new URL('package.json', dir);
    if (!existsSync(pkg)) continue;
    if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name !== 'eventor-bot') continue;
    return fileURLToPath(new URL('bin/eventor-bot.js', dir));
  }
  throw new Error('cannot find bin/eventor-bot.js of this installation');
}
