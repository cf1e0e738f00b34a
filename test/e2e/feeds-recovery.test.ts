import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget, type FeedItem, Poster } from '../../src/feeds/delivery/poster.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { testNow } from '../support/clock.js';

const MINUTE = 60_000;
const OTHER_BOT_MESSAGES = 120;

describe('recovery after a crash between Discord creating a post and the ledger recording it', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let ledger: Ledger;
  let channelId: string;

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    ledger = new Ledger(world.bot.store);
    channelId = world.discord.createTextChannel(world.guild.id, { name: 'busy-channel' }).id;
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it(`finds its marked post behind ${OTHER_BOT_MESSAGES} later bot messages, past Discord's nonce window, and posts nothing new`, async () => {
    const target = discordTarget(world.bot.client);
    const item: FeedItem = {
      guildId: world.guild.id,
      feed: 'recovery-test',
      itemKey: 'result',
      channelId,
      payload: { embeds: [{ title: 'Results: Night cup' }], allowedMentions: { parse: [] } },
      contentHash: 'v1',
    };
    const crashing = new Poster(ledger, target, {
      afterSend: () => {
        throw new Error('process killed');
      },
    });
    await expect(crashing.publish(item)).rejects.toThrow('process killed');
    const marked = world.discord.messages(channelId);
    expect(marked).toHaveLength(1);
    expect(await ledger.get(item)).toMatchObject({ state: 'posting', messageId: null });

    // The bot goes on posting in the channel (other feeds, answers): the marked post scrolls far back.
    const botId = world.bot.client.user!.id;
    for (let i = 0; i < OTHER_BOT_MESSAGES; i++) {
      clock = new Date(clock.getTime() + 1000);
      world.discord.say({ channelId, user: botId, content: `Another post ${i}` });
    }
    // Past Discord's nonce window: a resend would not be dropped as a duplicate.
    clock = new Date(clock.getTime() + 30 * MINUTE);

    const outcome = await new Poster(ledger, target).publish(item);
    expect(outcome).toEqual({ kind: 'recovered', messageId: marked[0]!.id });
    expect(world.discord.messages(channelId)).toHaveLength(OTHER_BOT_MESSAGES + 1);
    expect(await ledger.get(item)).toMatchObject({ state: 'posted', messageId: marked[0]!.id });
  });
});
