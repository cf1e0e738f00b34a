import { type LoopbackWorld, type LoopbackWorldOptions, startLoopbackWorld } from '../../harness/loopback/world.js';
import { runningTestClock } from './clock.js';

/**
 * A loopback world on the test clock (support/clock.ts): from the test instant at real speed,
 * unless the test brings a clock of its own. What the test relates to the sandbox's data it reads
 * off that clock (`world.eventor.now()`), never off the machine's.
 */
export function startTestWorld(options: Partial<LoopbackWorldOptions> = {}): Promise<LoopbackWorld> {
  return startLoopbackWorld({ ...options, now: options.now ?? runningTestClock().now });
}
