/**
 * The instant test worlds start from. It is fixed, so the sandbox data a test reads (which events
 * there are, on which weekdays, with which classes and runners) is the same whatever day the suite
 * runs. `TEST_WORLD_NOW` (an ISO instant; not named EVENTOR_…, which the bot would take for a
 * misspelt variable of its own) moves it: `npm run test:dates` runs the suite over many dates that
 * way, to show no test leans on the one it usually gets (test/README.md).
 */
export const TEST_NOW_VARIABLE = 'TEST_WORLD_NOW';

/** A Wednesday morning in Swedish autumn, well away from a daylight-saving change or a year's end. */
const DEFAULT_TEST_NOW = '2026-11-18T09:00:00Z';

function readTestNow(): number {
  const text = process.env[TEST_NOW_VARIABLE]?.trim() || DEFAULT_TEST_NOW;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new Error(`${TEST_NOW_VARIABLE} must be an ISO instant, not '${text}'`);
  // Whole seconds, as the sandbox's own instants are.
  return Math.floor(ms / 1000) * 1000;
}

const TEST_NOW_MS = readTestNow();

/** The instant this run's test worlds start from (a new Date each call). */
export function testNow(): Date {
  return new Date(TEST_NOW_MS);
}

/**
 * A clock that starts at the test instant and then runs at real speed: for worlds whose bot and
 * sandboxes must see time pass by itself (timeouts, a login link's lifetime), while what the data
 * is made around stays the test's instant. `advance(ms)` moves it on by hand.
 */
export function runningTestClock(): { now: () => Date; advance(ms: number): void } {
  const startedAt = performance.now();
  let moved = 0;
  return {
    now: () => new Date(TEST_NOW_MS + moved + Math.floor(performance.now() - startedAt)),
    advance(ms: number) {
      moved += ms;
    },
  };
}
