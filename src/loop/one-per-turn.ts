/**
 * Work handed out one item per turn of the event loop, in the order it came. Between two items the
 * loop polls its sockets, so whatever else arrives meanwhile (an interaction to acknowledge) waits
 * for one item at most, never for the whole queue. Used where a burst of work would otherwise run
 * in one go: a burst of members' answers (src/bot/first-answer.ts), the pieces of a large parsed
 * document (src/eventor/parse-worker.ts). A leaf: nothing of ours above it.
 */
export class OnePerTurn<T> {
  readonly #items: T[] = [];
  #scheduled = false;
  /** The item at the head has been held once already. */
  #released = false;
  readonly #handle: (item: T) => void;
  readonly #hold: (() => Promise<void> | null) | undefined;

  /**
   * `hold`, asked before each item: a promise holds the queue until it settles (work that must go
   * first is still under way), null lets the item go.
   */
  constructor(handle: (item: T) => void, hold?: () => Promise<void> | null) {
    this.#handle = handle;
    this.#hold = hold;
  }

  /** Queues the items; the first is handled in the loop's next check phase at the earliest. */
  push(...items: T[]): void {
    this.#items.push(...items);
    if (!this.#scheduled && this.#items.length > 0) {
      this.#scheduled = true;
      setImmediate(this.#next);
    }
  }

  readonly #next = (): void => {
    // Held at most once an item: a hold that settles lets the item go, whatever the next one says.
    const held = this.#items.length > 0 && !this.#released ? (this.#hold?.() ?? null) : null;
    if (held !== null) {
      const release = (): void => {
        this.#released = true;
        setImmediate(this.#next);
      };
      void held.then(release, release);
      return;
    }
    this.#released = false;
    const item = this.#items.shift();
    if (item === undefined) {
      this.#scheduled = false;
      return;
    }
    // The next turn is booked first, so that the queue goes on whatever this item does.
    setImmediate(this.#next);
    this.#handle(item);
  };
}
