/**
 * The soak's bot processes: N real `eventor-bot start` processes, each running one gateway shard
 * (`SHARD_COUNT=N`, `SHARDS=i`), started again 1 s after each exit. The soak runs them itself
 * rather than through `start --processes N`: the launcher stops everything after five exits of one
 * process within a minute, which a soak of hundreds of kills is made to cause, and its restart
 * pauses of up to 8 s would leave most of the soak with a process missing (docs/decisions/soak.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';

/** What `start` sends its parent once the bot is ready (src/cli/stop-signals.ts). */
const READY_MESSAGE = 'eventor-bot:ready';
const RESTART_DELAY_MS = 1_000;
const STOP_WAIT_MS = 15_000;

interface Slot {
  shard: number;
  child: ChildProcess | null;
  ready: boolean;
  starts: number;
  kills: number;
  /** Exits the soak did not cause (a crash, or exit code 1). */
  crashes: number;
  restart: NodeJS.Timeout | null;
}

/** What a process's start-up takes before its clock starts, at most (a few hundred ms here). */
const STARTUP_ALLOWANCE_MS = 5_000;

export class Fleet {
  readonly #program: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #dir: string;
  readonly #slots: Slot[];
  readonly #clockOffsetMs: number | null;
  #stopping = false;
  /** Set when a process refused its configuration (exit 2): the soak cannot go on. */
  refused: string | null = null;

  /**
   * `clockOffsetMs`: the processes run that far ahead of the machine's clock (SANDBOX_CLOCK, set
   * anew at every start so that a process started again keeps the others' time); 0 or none: on
   * the machine's clock.
   */
  constructor(options: {
    program: string;
    env: NodeJS.ProcessEnv;
    dir: string;
    processes: number;
    clockOffsetMs?: number;
  }) {
    this.#program = options.program;
    this.#clockOffsetMs = options.clockOffsetMs ?? null;
    this.#env = options.env;
    this.#dir = options.dir;
    this.#slots = Array.from({ length: options.processes }, (_, shard) => ({
      shard,
      child: null,
      ready: false,
      starts: 0,
      kills: 0,
      crashes: 0,
      restart: null,
    }));
  }

  get size(): number {
    return this.#slots.length;
  }

  get ready(): number {
    return this.#slots.filter((slot) => slot.ready).length;
  }

  get kills(): number {
    return this.#slots.reduce((sum, slot) => sum + slot.kills, 0);
  }

  get crashes(): number {
    return this.#slots.reduce((sum, slot) => sum + slot.crashes, 0);
  }

  get starts(): number {
    return this.#slots.reduce((sum, slot) => sum + slot.starts, 0);
  }

  /** Kills per process, e.g. `[5, 7]`. */
  get killsPerProcess(): number[] {
    return this.#slots.map((slot) => slot.kills);
  }

  /** The log file of process `shard` (every start appends to it). */
  logFile(shard: number): string {
    return path.join(this.#dir, `process-${shard}.log`);
  }

  /** Starts every process, one after another, each once the one before is ready (bounded by `timeoutMs` each). */
  async startAll(timeoutMs: number): Promise<void> {
    for (const slot of this.#slots) {
      this.#start(slot);
      await this.#until(() => slot.ready || this.refused !== null, timeoutMs);
      if (this.refused !== null) throw new Error(this.refused);
      if (!slot.ready) throw new Error(`process ${slot.shard} was not ready within ${timeoutMs / 1000} s`);
    }
  }

  /** Waits (bounded) until every process is ready; false when time ran out. */
  allReady(timeoutMs: number): Promise<boolean> {
    return this.#until(() => this.ready === this.size, timeoutMs);
  }

  /** SIGKILLs a random ready process; false when none is ready. */
  killOne(random: () => number): boolean {
    const ready = this.#slots.filter((slot) => slot.ready && slot.child);
    if (ready.length === 0) return false;
    const slot = ready[Math.floor(random() * ready.length)]!;
    slot.kills += 1;
    slot.ready = false;
    slot.child!.kill('SIGKILL');
    return true;
  }

  /** SIGTERM to every process, SIGKILL to any still running after 15 s; no restarts from now on. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const slot of this.#slots) {
      if (slot.restart) clearTimeout(slot.restart);
      slot.child?.kill('SIGTERM');
    }
    const stopped = await this.#until(() => this.#slots.every((slot) => slot.child === null), STOP_WAIT_MS);
    if (!stopped) for (const slot of this.#slots) slot.child?.kill('SIGKILL');
    await this.#until(() => this.#slots.every((slot) => slot.child === null), 5_000);
  }

  #start(slot: Slot): void {
    slot.restart = null;
    if (this.#stopping) return;
    const log = openSync(this.logFile(slot.shard), 'a');
    const child = spawn(process.execPath, [this.#program, 'start'], {
      cwd: this.#dir,
      env: {
        ...this.#env,
        SHARDS: String(slot.shard),
        // A few seconds more for the process's start-up: its clock starts when it reads its
        // configuration, and one behind the soak's would see each minute's tick (node-cron, on the
        // machine's clock) still in the slot before.
        ...(this.#clockOffsetMs === null || this.#clockOffsetMs === 0
          ? {}
          : { SANDBOX_CLOCK: new Date(Date.now() + this.#clockOffsetMs + STARTUP_ALLOWANCE_MS).toISOString() }),
      },
      // The log goes straight to a file: a pipe to this busy process could hold a child up.
      stdio: ['ignore', log, log, 'ipc'],
    });
    closeSync(log);
    slot.child = child;
    slot.ready = false;
    slot.starts += 1;
    let killedBySoak = false;
    child.on('message', (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === READY_MESSAGE && slot.child === child) slot.ready = true;
    });
    child.once('error', () => undefined);
    child.once('exit', (code, signal) => {
      killedBySoak = signal === 'SIGKILL';
      if (slot.child !== child) return;
      slot.child = null;
      slot.ready = false;
      if (this.#stopping) return;
      if (code === 2) {
        this.refused = `process ${slot.shard} refused its configuration (exit 2); see ${this.logFile(slot.shard)}`;
        return;
      }
      if (!killedBySoak) slot.crashes += 1;
      slot.restart = setTimeout(() => this.#start(slot), RESTART_DELAY_MS);
    });
  }

  async #until(test: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < 100_000 && !test() && Date.now() < deadline; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return test();
  }
}
