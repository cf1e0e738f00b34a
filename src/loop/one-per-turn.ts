/**
 * Work handed out one item per turn of the event loop. Between two items the loop polls its
 * sockets, so whatever else arrives meanwhile (an interaction to acknowledge) waits for one item
 * at most, never for the whole queue. Used where a burst of work would otherwise run in one go: a
 * burst of members' answers (src/bot/first-answer.ts), the pieces of a large parsed document
 * (src/eventor/parse-worker.ts). A leaf: nothing of ours above it.
 *
 * Items may come in lanes (a Discord server's answers, say): each lane keeps its order, and the
 * lanes take turns, so a lane with many items waiting does not hold back one with few.
 */
export interface OnePerTurnOptions<T> {
  /**
   * Asked before each item: a promise holds the queue until it settles (work that must go first is
   * still under way), null lets the item go. An item is held once at most.
   */
  hold?: () => Promise<void> | null;
  /** The lane of an item; without it, one lane in the order the items came. */
  laneOf?: (item: T) => string;
}

export class OnePerTurn<T> {
  /** Lanes with items waiting, in the order they take their turns (a Map keeps insertion order). */
  readonly #lanes = new Map<string, T[]>();
  #scheduled = false;
  /** The item due next has been held once already. */
  #released = false;
  readonly #handle: (item: T) => void;
  readonly #options: OnePerTurnOptions<T>;

  constructor(handle: (item: T) => void, options: OnePerTurnOptions<T> = {}) {
    this.#handle = handle;
    this.#options = options;
  }

  /** Queues the items; the first is handled in the loop's next check phase at the earliest. */
  push(...items: T[]): void {
    for (const item of items) {
      const lane = this.#options.laneOf?.(item) ?? '';
      const waiting = this.#lanes.get(lane);
      if (waiting) waiting.push(item);
      else this.#lanes.set(lane, [item]);
    }
    if (!this.#scheduled && this.#lanes.size > 0) {
      this.#scheduled = true;
      setImmediate(this.#next);
    }
  }

  /** The next item: the first of the lane whose turn it is, that lane then going to the back. */
  #take(): T | undefined {
    const first = this.#lanes.entries().next();
    if (first.done) return undefined;
    const [lane, waiting] = first.value;
    const item = waiting.shift();
    this.#lanes.delete(lane);
    if (waiting.length > 0) this.#lanes.set(lane, waiting);
    return item;
  }

  readonly #next = (): void => {
    const held = this.#lanes.size > 0 && !this.#released ? (this.#options.hold?.() ?? null) : null;
    if (held !== null) {
      const release = (): void => {
        this.#released = true;
        setImmediate(this.#next);
      };
      void held.then(release, release);
      return;
    }
    this.#released = false;
    const item = this.#take();
    if (item === undefined) {
      this.#scheduled = false;
      return;
    }
    // The next turn is booked first, so that the queue goes on whatever this item does.
    setImmediate(this.#next);
    this.#handle(item);
  };
}
