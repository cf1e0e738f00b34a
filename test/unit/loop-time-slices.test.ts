/** src/loop/slices.ts `TimeSlices`: an async loop gives the event loop its turn once a slice's time is used. */
import { describe, expect, it } from 'vitest';
import { TimeSlices } from '../../src/loop/slices.js';

describe('time slices for an async loop', () => {
  it('gives way only once the slice is used, then starts a new slice', async () => {
    let now = 0;
    const slices = new TimeSlices(4, () => now);
    const order: string[] = [];
    // Within the slice: no turn of the event loop (an immediate queued before stays queued).
    setImmediate(() => order.push('loop'));
    await slices.giveWay();
    order.push('step 1');
    now = 3;
    await slices.giveWay();
    order.push('step 2');
    expect(order).toEqual(['step 1', 'step 2']);
    // The slice is used: the loop's turn comes first.
    now = 4;
    await slices.giveWay();
    order.push('step 3');
    expect(order).toEqual(['step 1', 'step 2', 'loop', 'step 3']);
    // A new slice from then on.
    setImmediate(() => order.push('loop 2'));
    now = 7;
    await slices.giveWay();
    order.push('step 4');
    expect(order).not.toContain('loop 2');
    now = 8;
    await slices.giveWay();
    expect(order).toContain('loop 2');
  });
});

describe('time slices that give way to work that goes first', () => {
  it('waits at any step while that work runs, and lets the loop poll at the start when asked', async () => {
    const now = 0;
    let first: Promise<void> | null = null;
    const slices = new TimeSlices(
      4,
      () => now,
      () => first,
    );
    const order: string[] = [];
    // `always`: the loop's turn comes first even though the slice is not used.
    setImmediate(() => order.push('loop'));
    await slices.giveWay(true);
    order.push('step 1');
    expect(order).toEqual(['loop', 'step 1']);
    // Work that goes first: the step waits for it, slice used or not.
    let done!: () => void;
    first = new Promise<void>((resolve) => (done = resolve)).then(() => void order.push('first done'));
    const step = slices.giveWay().then(() => void order.push('step 2'));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual(['loop', 'step 1']);
    first = null;
    done();
    await step;
    expect(order).toEqual(['loop', 'step 1', 'first done', 'step 2']);
  });

  it('a stream of work that goes first slows the work down but cannot hold it for ever', async () => {
    let now = 0;
    let asked = 0;
    // Work that never settles: each wait ends after maxWaitMs (20 here), then the work gets a slice.
    const never = new Promise<void>(() => undefined);
    const slices = new TimeSlices(
      4,
      () => now,
      () => {
        asked++;
        return never;
      },
      20,
    );
    await slices.giveWay();
    expect(asked).toBe(1);
    // The slice that follows a wait is the work's: nothing is asked within it.
    now += 1;
    await slices.giveWay();
    now += 4;
    await slices.giveWay();
    expect(asked).toBe(1);
    // A new slice: the work that goes first is asked again (and waited for, at most 20 ms).
    await slices.giveWay();
    expect(asked).toBe(2);
  });
});
