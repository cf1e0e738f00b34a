/** A live runner of the model (src/live/model.ts) for the tests of what reads, matches and renders them. */
import type { LiveRunner } from '../../src/live/model.js';

export function liveRunner(over: Partial<LiveRunner> = {}): LiveRunner {
  return {
    name: 'Astrid Lövgren',
    club: 'Granskogens OK',
    className: 'D10',
    status: 'not-started',
    start: 36_120,
    time: null,
    place: null,
    behind: null,
    radios: [],
    changedAt: null,
    ...over,
  };
}
