/** src/loop/one-per-turn.ts: items handled in order, one per turn of the event loop. */
import { describe, expect, it } from 'vitest';
import { OnePerTurn } from '../../src/loop/one-per-turn.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('one item per turn of the event loop', () => {
  it('handles the items in the order they came, one a turn, and goes on with items queued while it works', async () => {
    const handled: string[] = [];
    const queue = new OnePerTurn<string>((item) => {
      handled.push(item);
      if (item === 'b') queue.push('d');
    });
    queue.push('a', 'b');
    queue.push('c');
    expect(handled).toEqual([]);
    const perTurn: number[] = [];
    for (let turn = 0; turn < 10 && handled.length < 4; turn++) {
      const before = handled.length;
      await nextTurn();
      perTurn.push(handled.length - before);
    }
    expect(handled).toEqual(['a', 'b', 'c', 'd']);
    expect(Math.max(...perTurn)).toBe(1);
  });

  it('starts again when items come after it ran empty', async () => {
    const handled: number[] = [];
    const queue = new OnePerTurn<number>((item) => handled.push(item));
    queue.push(1);
    await nextTurn();
    await nextTurn();
    queue.push(2);
    await nextTurn();
    await nextTurn();
    expect(handled).toEqual([1, 2]);
  });

  it('waits while the hold says so, and holds an item once at most', async () => {
    const handled: string[] = [];
    let release!: () => void;
    let holding: Promise<void> | null = new Promise<void>((resolve) => (release = resolve));
    const queue = new OnePerTurn<string>((item) => handled.push(item), { hold: () => holding });
    queue.push('a', 'b');
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    expect(handled).toEqual([]);
    release();
    // A hold that is over at once, every time: each item still goes, one a turn or two.
    holding = Promise.resolve();
    for (let turn = 0; turn < 10 && handled.length < 2; turn++) await nextTurn();
    expect(handled).toEqual(['a', 'b']);
  });

  it('lets lanes take turns, each in its own order, so a long lane does not hold back a short one', async () => {
    const handled: string[] = [];
    const queue = new OnePerTurn<string>((item) => handled.push(item), { laneOf: (item) => item[0]! });
    queue.push('a1', 'a2', 'a3', 'a4');
    queue.push('b1');
    queue.push('c1', 'c2');
    for (let turn = 0; turn < 20 && handled.length < 7; turn++) await nextTurn();
    expect(handled).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3', 'a4']);
  });
});
