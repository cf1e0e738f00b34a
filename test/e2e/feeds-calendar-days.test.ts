import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KindSettings } from '../../src/feeds/settings.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';

const ENTRIES_PATH = '/api/entries';

/**
 * The scheduler learns the club's race days (entries yesterday and today, or in the next two days)
 * by asking Eventor about whole local days. On the 25-hour day when Stockholm's clocks go back
 * (2026-10-25), "tomorrow" 24 hours after 00:30 is still the same date: the days must be counted
 * on the calendar, not in hours.
 */
describe('feed scheduler: the race-day calendar counts calendar days', () => {
  let world: LoopbackWorld;
  // 00:30 CEST on Sunday 2026-10-25 in Stockholm, the day that lasts 25 hours.
  const clock = new Date('2026-10-24T22:30:00Z');

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    await world.bot.store.servers.setChannel(
      world.guild.id,
      'results',
      world.discord.createTextChannel(world.guild.id, { name: 'resultat' }).id,
    );
    await world.bot.store.servers.updateGuildSettings(world.guild.id, { locale: 'sv', timeZone: 'Europe/Stockholm' });
    await new KindSettings(world.bot.store, () => clock).update(world.guild.id, 'results', { enabled: true });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it("asks about yesterday to today and the next two dates in the server's zone", async () => {
    world.eventor.requests.clear();
    await world.bot.scheduler.tick(clock);
    const windows = world.eventor.requests
      .filter((request) => request.path.toLowerCase() === ENTRIES_PATH && request.query['fromEventDate'] !== undefined)
      .map((request) => [request.query['fromEventDate']!.slice(0, 10), request.query['toEventDate']!.slice(0, 10)]);
    expect(windows).toContainEqual(['2026-10-24', '2026-10-25']);
    expect(windows).toContainEqual(['2026-10-26', '2026-10-27']);
  });
});
