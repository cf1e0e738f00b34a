import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget, type FeedItem, Poster } from '../../src/feeds/delivery/poster.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import type { Store } from '../../src/store/interfaces.js';
import { reopenWorldStore, worldSql } from '../support/world-store.js';
import { testNow } from '../support/clock.js';
import { visibleText } from '../../harness/sandbox/discord/index.js';

const MINUTE = 60_000;

/** The pid of a process that ran on this host and has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('claims: two ledgers on one database never both post one item', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let second: Store;
  let ledgerA: Ledger;
  let ledgerB: Ledger;
  let channelId: string;

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    // A second connection to the same file, as a second process (a cron `tick` beside `start`) has.
    second = await reopenWorldStore(world, () => clock);
    ledgerA = new Ledger(world.bot.store);
    ledgerB = new Ledger(second);
    channelId = world.discord.createTextChannel(world.guild.id, { name: 'claims' }).id;
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await world?.close();
  });

  it('a live claim is respected by the other ledger, released ones and expired ones are taken', async () => {
    const ref = { guildId: world.guild.id, feed: 'claims-test', itemKey: 'one' };
    expect(await ledgerA.claim(ref)).toBe(true);
    expect(await ledgerB.claim(ref)).toBe(false);
    // Claiming again is the owner's own business.
    expect(await ledgerA.claim(ref)).toBe(true);
    await ledgerA.release(ref);
    expect(await ledgerB.claim(ref)).toBe(true);
    expect(await ledgerA.claim(ref)).toBe(false);
    // B's owner runs, but its lease ran out (a hung process): A takes over.
    // The store's clock times the lease: a connection whose clock is past it.
    const laterStore = await reopenWorldStore(world, () => new Date(clock.getTime() + 11 * MINUTE));
    const later = new Ledger(laterStore);
    expect(await later.claim(ref)).toBe(true);
    expect(await ledgerB.claim(ref)).toBe(false);
    await later.release(ref);
    await laterStore.close();
    // B releasing does not free what another holds.
    expect(await ledgerA.claim(ref)).toBe(true);
    await ledgerB.release(ref);
    expect(await ledgerB.claim(ref)).toBe(false);
    await ledgerA.release(ref);
  });

  it('a claim of a process on this host that has ended is taken over at once (a SIGKILLed tick)', async () => {
    const ref = { guildId: world.guild.id, feed: 'claims-test', itemKey: 'killed' };
    const pid = await deadPid();
    await worldSql(
      world,
      'INSERT INTO post_claims (guild_id, feed, item_key, owner, expires_at) VALUES (?, ?, ?, ?, ?)',
      [
        ref.guildId,
        ref.feed,
        ref.itemKey,
        `${hostname()}:${pid}:0`,
        new Date(clock.getTime() + 10 * MINUTE).toISOString(),
      ],
    );
    expect(await ledgerB.claim(ref)).toBe(true);
    await ledgerB.release(ref);
    // One on another host cannot be checked: its lease is waited out.
    await worldSql(
      world,
      'INSERT INTO post_claims (guild_id, feed, item_key, owner, expires_at) VALUES (?, ?, ?, ?, ?)',
      [
        ref.guildId,
        ref.feed,
        ref.itemKey,
        `elsewhere.example:${pid}:0`,
        new Date(clock.getTime() + 10 * MINUTE).toISOString(),
      ],
    );
    expect(await ledgerB.claim(ref)).toBe(false);
    const laterStore = await reopenWorldStore(world, () => new Date(clock.getTime() + 11 * MINUTE));
    expect(await new Ledger(laterStore).claim(ref)).toBe(true);
    await laterStore.close();
  });

  it('two posters on two connections, interleaved over a deleted post whose item changed: one repost, the other stands back', async () => {
    const target = discordTarget(world.bot.client);
    const posterA = new Poster(ledgerA, target);
    const posterB = new Poster(ledgerB, target);
    const item = (title: string): FeedItem => ({
      guildId: world.guild.id,
      feed: 'claims-test',
      itemKey: 'deleted',
      channelId,
      payload: { embeds: [{ title }], allowedMentions: { parse: [] } },
      contentHash: title,
    });
    const first = await posterA.publish(item('Results v1'));
    expect(first.kind).toBe('posted');
    expect(world.discord.messages(channelId)).toHaveLength(1);
    await world.bot.client.rest.delete(Routes.channelMessage(channelId, world.discord.messages(channelId)[0]!.id));
    clock = new Date(clock.getTime() + 2 * MINUTE);

    // Both runs start together: each would find the post gone (10008) and post it anew.
    const [a, b] = await Promise.all([posterA.publish(item('Results v2')), posterB.publish(item('Results v2'))]);
    expect([a.kind, b.kind].sort()).toEqual(['busy', 'reposted']);
    const live = world.discord.messages(channelId);
    expect(live).toHaveLength(1);
    expect(visibleText(live[0]!.embeds[0]!.title!)).toBe('Results v2');
    expect(await ledgerA.get(item('x'))).toMatchObject({
      state: 'posted',
      messageId: live[0]!.id,
      contentHash: 'Results v2',
    });

    // The one that stood back finds it done on its next run.
    expect((await posterB.publish(item('Results v2'))).kind).toBe('unchanged');
    expect(world.discord.messages(channelId)).toHaveLength(1);
  });
});
