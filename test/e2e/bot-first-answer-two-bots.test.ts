/**
 * Two bots in one process (as in the tests and the bench) share nothing of how their first answers
 * use the event loop (src/bot/first-answer.ts): each owns its turns, its lanes and its hold on a
 * burst's answers. A burst on one bot does not make the other's lone interaction part of it: that
 * one is still answered in its first response. Two loopback worlds: each its own sandbox Discord,
 * sandbox Eventor and real bot, all in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackType, type InteractionHandle } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 20_000 };
const BURST = 30;
const ROUNDS = 3;

describe('two bots in one process', () => {
  let busy: LoopbackWorld;
  let quiet: LoopbackWorld;

  beforeAll(async () => {
    busy = await startTestWorld({ seed: 1 });
    quiet = await startTestWorld({ seed: 2 });
  });
  afterAll(async () => {
    await busy?.close();
    await quiet?.close();
  });

  const events = (world: LoopbackWorld) =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      locale: 'en-GB',
      name: 'events',
      options: { days: 30 },
    });
  const kinds = (handle: InteractionHandle) =>
    handle.history().map((e) => (e.kind === 'callback' ? `callback ${e.type}` : e.kind));

  it("answer a lone interaction in its first response while the other bot's burst is deferred", async () => {
    // Both lists cached: every answer below waits for nothing but its turn.
    await events(busy).reply(WAIT);
    await events(quiet).reply(WAIT);
    // A few rounds, each fired in one go: the lone one arrives beside the burst, in its turn or the next.
    for (let round = 0; round < ROUNDS; round++) {
      const burst = Array.from({ length: BURST }, () => events(busy));
      const lone = events(quiet);
      const [loneReply] = await Promise.all([lone.reply(WAIT), ...burst.map((handle) => handle.reply(WAIT))]);
      // The burst was one: its members were acknowledged first and answered by edits.
      expect(burst.filter((handle) => handle.deferred).length).toBeGreaterThan(0);
      // The other bot's member was answered in one callback, publicly as /events declares.
      expect(kinds(lone)).toEqual([`callback ${CallbackType.ChannelMessageWithSource}`]);
      expect(lone.deferred).toBe(false);
      expect(loneReply.ephemeral).toBe(false);
    }
  });
});
