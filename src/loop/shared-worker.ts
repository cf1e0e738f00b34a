/**
 * One worker thread shared by the whole process, for work that must not run on the event loop:
 * drawing pictures (src/charts/draw.ts) and parsing large documents (src/eventor/parse-worker.ts).
 * The thread starts on the first job (start-up pays nothing for it), is kept for the next ones,
 * and holds the process open only while it has work. If it dies, every call it held is rejected
 * with the error its owner chooses, and the next job starts a new thread.
 *
 * A module that uses it is both sides: imported, it holds the pool; started as the worker
 * ({@link isWorkerFor} with its role), it serves the jobs. A leaf: nothing of ours above it.
 */
import { isMainThread, parentPort, type MessagePort, Worker, workerData } from 'node:worker_threads';

/** A job waiting for its answer; owners add what they collect along the way. */
export interface WorkerCall {
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

export interface SharedWorkerOptions<C extends WorkerCall, M> {
  /** Told to the thread in `workerData`, so the module knows it runs as the worker. */
  role: string;
  /** The module's own URL (`import.meta.url`), and the URL of its compiled build (for the tests). */
  moduleUrl: string;
  builtUrl: URL;
  /** Every message from the thread, in the order it came. */
  onMessage: (message: M) => void;
  /** The error a held call is rejected with when the thread fails or stops, `reason` in words. */
  failure: (call: C, reason: string) => unknown;
  /** The thread in words, for those reasons: "the drawing thread". */
  name: string;
}

/**
 * The port to serve jobs on when this thread was started as `role`'s worker; null on the main
 * thread or in a worker of another role.
 */
export function isWorkerFor(role: string): MessagePort | null {
  if (isMainThread || parentPort === null) return null;
  return (workerData as { role?: unknown } | null)?.role === role ? parentPort : null;
}

/** `C` is what a call holds while it waits, `M` what the thread sends back. */
export class SharedWorker<C extends WorkerCall, M> {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, C>();
  private nextId = 1;
  /** Threads started so far (the first job starts one, and each job after a death). */
  workersStarted = 0;

  constructor(private readonly options: SharedWorkerOptions<C, M>) {}

  /** Calls sent and not yet finished. */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Sends one job: `call` is held under a new id until {@link finish}; `post` hands the job to the
   * thread. If posting throws (a job that is not plain data), nothing is held and the error is thrown.
   */
  send(call: C, post: (thread: Worker, id: number) => void): number {
    const thread = (this.worker ??= this.start());
    const id = this.nextId++;
    this.pending.set(id, call);
    // Held open while it has work: a command-line query waiting for its answer must not exit under it.
    thread.ref();
    try {
      post(thread, id);
    } catch (error) {
      this.finish(id);
      throw error;
    }
    return id;
  }

  /** The call still waiting under `id`, if any (an answer of a call that failed meanwhile has none). */
  call(id: number): C | undefined {
    return this.pending.get(id);
  }

  /** Forgets the call under `id` and gives it back to be settled; an idle thread no longer holds the process. */
  finish(id: number): C | undefined {
    const call = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    return call;
  }

  /** Stops the thread; the calls it held fail as they would if it had died. The next job starts a new one. */
  async stop(): Promise<void> {
    const current = this.worker;
    if (current === null) return;
    this.failAll(current, `${this.options.name} was stopped`);
    await current.terminate();
  }

  /**
   * The thread's script. Under the test runner the module is TypeScript source, which a worker
   * thread cannot run; the tests' global setup compiles the program first (test/support/build.ts),
   * so the thread runs that build of the same module.
   */
  private script(): URL {
    const { moduleUrl, builtUrl } = this.options;
    return moduleUrl.endsWith('.ts') ? builtUrl : new URL(moduleUrl);
  }

  private start(): Worker {
    const { role, name, onMessage } = this.options;
    const started = new Worker(this.script(), { workerData: { role } });
    this.workersStarted++;
    started.on('message', (message: M) => onMessage(message));
    started.on('error', (error) => this.failAll(started, `${name} failed (${error.message.slice(0, 200)})`));
    started.on('exit', (code) => this.failAll(started, `${name} stopped (exit code ${code})`));
    return started;
  }

  /** Rejects every call the thread held and forgets the thread: the next job starts a new one. */
  private failAll(dead: Worker, reason: string): void {
    if (this.worker !== dead) return;
    this.worker = null;
    for (const [id, call] of this.pending) {
      this.pending.delete(id);
      call.reject(this.options.failure(call, reason));
    }
  }
}
