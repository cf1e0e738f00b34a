/**
 * Long work spread over turns of the event loop: the work is a generator that gives way (`yield`)
 * after each small step, and `inSlices` runs steps until a slice's time is used, then lets the
 * loop poll its sockets before the next slice. Whatever arrives meanwhile (an interaction to
 * acknowledge) waits for one slice at most, never for the whole work. Used for the split analysis
 * of large result lists (docs/splits.md#how-long-it-takes). A leaf: nothing of ours above it.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long one slice runs at most before the loop gets its turn, in milliseconds (a step may overrun it). */
export const SLICE_MS = 4;

/** How long a `TimeSlices` step waits at most for work that goes first, before its next slice runs anyway. */
const MAX_WAIT_MS = 250;

/** Runs the generator's steps to its end, a slice of at most about `sliceMs` per turn of the event loop. */
export async function inSlices<T>(steps: Generator<void, T, void>, sliceMs = SLICE_MS): Promise<T> {
  for (;;) {
    const until = performance.now() + sliceMs;
    do {
      const step = steps.next();
      if (step.done) return step.value;
    } while (performance.now() < until);
    await nextTurn();
  }
}

/**
 * The same for an async loop whose awaits never reach the event loop (a synchronous store behind
 * promises settles in microtasks, so the loop's sockets wait for the whole run): `giveWay()` between
 * two steps lets the loop poll once a slice's time is used, and costs nothing before. Used by the
 * live pollers' turns, which go through every following server's board at once
 * (docs/benchmarks.md, live-ack-p95-during-boards-ms).
 */
export class TimeSlices {
  readonly #sliceMs: number;
  readonly #clock: () => number;
  readonly #yieldTo: () => Promise<void> | null;
  readonly #maxWaitMs: number;
  #until: number;
  /** Set after a wait for work that goes first: the next slice is this work's, whatever arrives meanwhile. */
  #owed = false;

  /**
   * `yieldTo`: work that goes first, asked at every step (a promise holds this work until it
   * settles; null lets it go on): the members' first answers (src/bot/first-answer.ts). One wait
   * lasts `maxWaitMs` at most and is followed by a whole slice of this work, so a steady stream of
   * such work slows this work down but never stops it.
   */
  constructor(
    sliceMs = SLICE_MS,
    clock: () => number = () => performance.now(),
    yieldTo: () => Promise<void> | null = () => null,
    maxWaitMs = MAX_WAIT_MS,
  ) {
    this.#sliceMs = sliceMs;
    this.#clock = clock;
    this.#yieldTo = yieldTo;
    this.#maxWaitMs = maxWaitMs;
    this.#until = clock() + sliceMs;
  }

  /**
   * Lets the event loop poll if this slice's time is used (a new slice starts then), or waits while
   * work that goes first runs; else nothing. `always`: lets the loop poll even if the slice is not used.
   */
  async giveWay(always = false): Promise<void> {
    const first = this.#owed ? null : this.#yieldTo();
    if (first !== null) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([first, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#maxWaitMs)))]);
      clearTimeout(timer);
      this.#owed = true;
      this.#until = this.#clock() + this.#sliceMs;
      return;
    }
    if (!always && this.#clock() < this.#until) return;
    this.#owed = false;
    await nextTurn();
    this.#until = this.#clock() + this.#sliceMs;
  }
}
