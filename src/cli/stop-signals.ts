/**
 * How `start` (and its launcher, `start --processes`) learns it should stop: signals, the end of the
 * npm process or of the launcher that started it, and the deadline past which it exits anyway.
 */
import { readFileSync } from 'node:fs';
import type { Logger } from '../log/logger.js';
import type { Io } from './io.js';

/** What a child of the launcher sends it once its bot is ready (src/cli/launcher.ts). */
export const READY_MESSAGE = 'eventor-bot:ready';

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
 * shell), or of the launcher. A second signal, or a stop past the deadline (`STOP_DEADLINE_MS`
 * unless told), exits at once, saying so, after `beforeExit`.
 */
export class StopSignals {
  readonly stop: Promise<string>;
  readonly #io: Io;
  readonly #deadlineMs: number;
  readonly #beforeExit: () => void;
  #log: Logger | null = null;
  #resolve!: (why: string) => void;
  #firstAt: number | null = null;
  #deadline: NodeJS.Timeout | null = null;
  #parentWatch: NodeJS.Timeout | null = null;
  readonly #onSignal = (signal: NodeJS.Signals): void => this.#signal(signal);
  readonly #onDisconnect = (): void => this.#begin('the launcher that started this process ended');

  constructor(io: Io, options: { deadlineMs?: number; beforeExit?: () => void } = {}) {
    this.#io = io;
    this.#deadlineMs = options.deadlineMs ?? STOP_DEADLINE_MS;
    this.#beforeExit = options.beforeExit ?? (() => {});
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
    // Started by the launcher (an IPC channel): when it is gone, so is whoever would restart or
    // stop this process, which then stops on its own instead of running on unsupervised. (Node
    // keeps the channel open only while this listener is there: `dispose` lets the process end.)
    if (process.send !== undefined) process.once('disconnect', this.#onDisconnect);
  }

  /** Tells the launcher, if any, that the bot is ready (its next child may start). */
  static ready(): void {
    if (process.send !== undefined && process.connected) process.send({ type: READY_MESSAGE });
  }

  /** Where the forced exit is told once the bot has a logger (before, a plain line). */
  logTo(log: Logger): void {
    this.#log = log;
  }

  dispose(): void {
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
    // Ctrl-C under npm: the copy npm forwards may arrive after a quick stop finished. Without a
    // listener Node would end the process by that signal, and npm would report the clean stop as one.
    if (this.#firstAt !== null) {
      const late = Math.max(0, this.#firstAt + SAME_SIGNAL_MS - Date.now());
      const ignore = (): void => {};
      process.on('SIGINT', ignore);
      process.on('SIGTERM', ignore);
      setTimeout(() => {
        process.off('SIGINT', ignore);
        process.off('SIGTERM', ignore);
      }, late).unref();
    }
    process.off('disconnect', this.#onDisconnect);
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
        this.#exitNow(`the stop took longer than ${this.#deadlineMs / 1000} s: exiting without waiting for the rest`),
      this.#deadlineMs,
    );
    this.#deadline.unref();
  }

  /** The database is not closed: SQLite's journal brings it back as after a power cut. */
  #exitNow(why: string): void {
    if (this.#log) this.#log.warn(why);
    else this.#io.err(`eventor-bot start: ${why}\n`);
    this.#beforeExit();
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

/** How long a stop during the start waits for what was being opened before the process exits. */
export const ABORTED_START_GRACE_MS = 1_000;

/**
 * After a stop during the start: the process exits with `code` as soon as nothing holds it, and
 * after `ABORTED_START_GRACE_MS` at the latest (a request to the database or to Discord on its
 * way, which nothing can take back, would otherwise keep it for its whole timeout).
 */
export function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), ABORTED_START_GRACE_MS).unref();
}
