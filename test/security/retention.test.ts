/**
 * The throttle counts (keyed hashes with times) are kept no longer than the
 * longest limit needs: the scheduler's housekeeping drops them once past 15 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { worldSql } from '../support/world-store.js';

describe('throttle counts are pruned once past the longest window', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-11-23T10:00:00Z');

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
  });
  afterAll(async () => {
    await world?.close();
  });

  const rows = async (): Promise<number> => {
    const [row] = (await worldSql(world, 'SELECT COUNT(*) AS n FROM throttle_events')) as Array<{ n: number | string }>;
    // PostgreSQL's count is a bigint, which its driver gives as a string.
    return Number(row!.n);
  };

  it('keeps a count within its window and drops it after 15 minutes', async () => {
    const store = world.bot.store;
    expect((await store.throttles.takeThrottle('login-link', world.member.id, 3, 10 * 60_000)).allowed).toBe(true);
    expect((await store.throttles.takeThrottle('link-failure-username', 'astrid', 5, 15 * 60_000)).allowed).toBe(true);
    clock = new Date(clock.getTime() + 14 * 60_000);
    await world.bot.scheduler.tick(clock);
    expect(await rows()).toBe(2);
    clock = new Date(clock.getTime() + 2 * 60_000);
    await world.bot.scheduler.tick(clock);
    expect(await rows()).toBe(0);
  });
});
