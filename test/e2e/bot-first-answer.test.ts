/**
 * An answer ready without waiting (everything cached) is the interaction's first response itself:
 * one callback instead of a deferral and an edit. One that waits on Eventor is deferred first
 * (src/bot/first-answer.ts). Real bot, sandbox Discord over a real WebSocket, sandbox Eventor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackType, renderMessageText } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 15_000 };

describe('the first answer', () => {
  let world: LoopbackWorld;
  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  const events = (options: Record<string, string | number>) =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      locale: 'en-GB',
      name: 'events',
      options,
    });
  const kinds = (handle: ReturnType<typeof events>) =>
    handle.history().map((e) => (e.kind === 'callback' ? `callback ${e.type}` : e.kind));

  it('is deferred while Eventor is asked, and is the reply itself once the answer is cached', async () => {
    const asked = world.eventor.requests.count();
    const cold = events({ days: 30 });
    const coldReply = await cold.reply(WAIT);
    expect(world.eventor.requests.count()).toBeGreaterThan(asked);
    expect(kinds(cold)).toEqual([`callback ${CallbackType.DeferredChannelMessageWithSource}`, 'editOriginal']);

    const before = world.eventor.requests.count();
    const warm = events({ days: 30 });
    const warmReply = await warm.reply(WAIT);
    expect(world.eventor.requests.count()).toBe(before);
    expect(kinds(warm)).toEqual([`callback ${CallbackType.ChannelMessageWithSource}`]);
    // The same answer, as public as before.
    expect(warmReply.ephemeral).toBe(false);
    expect(warmReply.embeds).toEqual(coldReply.embeds);
    expect(warmReply.components).toEqual(coldReply.components);
    expect(renderMessageText(warmReply)).toContain('Upcoming events');
  });

  it('turns a cached page of a shared list with one update', async () => {
    const list = await events({ days: 365, level: 'all' }).reply(WAIT);
    const next = list.components
      .flatMap((row) => (row.components ?? []) as Array<{ type: number; custom_id?: string; label?: string }>)
      .find((c) => c.type === 2 && c.label === 'Next');
    expect(next?.custom_id).toBeDefined();
    // The first click reads the list from the cache /events filled.
    const before = world.eventor.requests.count();
    const click = world.discord.clickButton({ message: list.id, customId: next!.custom_id!, user: world.member });
    const turned = await click.reply(WAIT);
    expect(world.eventor.requests.count()).toBe(before);
    expect(kinds(click)).toEqual([`callback ${CallbackType.UpdateMessage}`]);
    expect(turned.id).toBe(list.id);
    expect(renderMessageText(turned)).toMatch(/Page 2 of/);
  });

  it('in a burst, acknowledges every member at once and answers by edit, instead of rendering each before the next is acknowledged', async () => {
    await events({ days: 30 }).reply(WAIT);
    const before = world.eventor.requests.count();
    // Twenty members at the same moment: dispatched together, they reach the bot in one turn of its event loop.
    const burst = Array.from({ length: 20 }, () => events({ days: 30 }));
    const replies = await Promise.all(burst.map((handle) => handle.reply(WAIT)));
    expect(world.eventor.requests.count()).toBe(before);
    const deferred = burst.filter((handle) => handle.deferred);
    // Without the burst rule every one of them is answered in its first callback (all is cached).
    expect(deferred.length).toBeGreaterThan(0);
    for (const handle of deferred)
      expect(kinds(handle)).toEqual([`callback ${CallbackType.DeferredChannelMessageWithSource}`, 'editOriginal']);
    // Same answers whichever way they went.
    for (const reply of replies) expect(reply.embeds).toEqual(replies[0]!.embeds);
  });
});
