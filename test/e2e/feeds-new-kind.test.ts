/**
 * Adding a kind of automatic post is a module and a line in the registry's list
 * (docs/architecture.md#adding-a-feed-kind): a small kind made here, given to the real bot beside
 * the registry's kinds and to nothing else, shows up in `/feeds` (a choice, `on`, its own
 * subcommand, `show`), posts through `/feeds test`, and runs on the scheduler exactly once per item,
 * through the real discord.js client, the sandbox Discord and the real store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contentHash, ledgerKey } from '../../src/feeds/delivery/keys.js';
import { type ContentItem, publishTo } from '../../src/feeds/delivery/publish.js';
import { channelFeed, type FeedRunOptions } from '../../src/feeds/feed.js';
import { defineKind, type FeedKind } from '../../src/feeds/kind.js';
import { KINDS } from '../../src/feeds/registry.js';
import { fitPayload } from '../../src/render/index.js';
import { renderMessageText, type SandboxChannel, visibleText } from '../../harness/sandbox/discord/index.js';
import type { LoopbackWorld } from '../../harness/loopback/world.js';
import { runningTestClock } from '../support/clock.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 15_000 };
const DAY = 86_400_000;

/** Its one option, with its default: the word each post starts with. */
const ProbeOptions = z.object({ word: z.string().max(20).default('Hello') });
type ProbeOptions = z.infer<typeof ProbeOptions>;

/** One post a day: "<word>, <date>", keyed by the day. */
function probeItem(now: Date, word: string): ContentItem {
  const day = now.toISOString().slice(0, 10);
  const payload = fitPayload({ content: `${word}, ${day}`, allowedMentions: { parse: [] } });
  return { itemKey: ledgerKey('probe', day), payload, contentHash: contentHash(payload) };
}

const probeFeed = channelFeed<null, ContentItem, ProbeOptions>({
  name: 'probe',
  cadence: () => 60 * 60_000,
  fetch: async () => null,
  items: (_data, options: FeedRunOptions<ProbeOptions>) => [
    probeItem(options.now, ProbeOptions.parse(options.options ?? {}).word),
  ],
  deliver: publishTo({ name: 'probe', summaryTitle: 'scheduler.summary.generic' }),
  latest: async (ctx) => probeItem(ctx.now, 'Test').payload,
});

const probeKind: FeedKind<ProbeOptions> = defineKind<ProbeOptions>({
  name: 'probe',
  // A label the catalogue has: a kind's own words live in the catalogues, which a test cannot add to.
  label: 'feeds.show.title',
  noticeLabel: 'feeds.show.title',
  audience: 'channel',
  options: ProbeOptions,
  feed: probeFeed,
  permissions: [],
  preview: (ctx, options) => Promise.resolve(probeItem(ctx.now, options.word).payload),
  subcommand: {
    // Names the catalogue has (`status`, `time`), for the same reason as the label.
    name: 'status.name',
    description: 'status.description',
    options: [{ type: 'string', name: 'feeds.opt.time.name', description: 'feeds.opt.time.description' }],
    async run(input, ctx) {
      const word = typeof input['time'] === 'string' ? input['time'] : 'Hello';
      const after = await ctx.update({ word });
      return `word: ${after.options.word}`;
    },
  },
  describe: async (settings) => [`word: ${settings.options.word}`],
});

describe('a kind added through the registry alone (real discord.js, sandbox Discord, real store)', () => {
  const clock = runningTestClock();
  let world: LoopbackWorld;
  let posts: SandboxChannel;

  const feeds = (subcommand: string, options: Record<string, string> = {}) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.admin,
        locale: 'en-GB',
        name: 'feeds',
        subcommand,
        options,
      })
      .reply(WAIT)
      .then((reply) => renderMessageText(reply));

  beforeAll(async () => {
    // The same list as the registry's, and one more: nothing else is told of the new kind.
    world = await startTestWorld({ now: clock.now, kinds: [...KINDS, probeKind] as readonly FeedKind[] });
    posts = world.discord.createTextChannel(world.guild.id, { name: 'probe' });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('is a choice of /feeds, and /feeds on turns it on in its channel', async () => {
    const command = world.discord.commands({ guildId: world.guild.id }).find((c) => c.name === 'feeds')!;
    const on = command.options!.find((o) => o.name === 'on')!;
    const kind = (on as { options: Array<{ name: string; choices?: Array<{ value: string }> }> }).options.find(
      (o) => o.name === 'kind',
    )!;
    expect(kind.choices!.map((c) => c.value)).toEqual([...KINDS.map((k) => k.name), 'probe']);
    expect(await feeds('on', { kind: 'probe', channel: posts.id })).toContain(`<#${posts.id}>`);
    expect((await world.bot.services.feedsAdmin.get(world.guild.id, 'probe')).enabled).toBe(true);
  });

  it('has its own subcommand and its own line in /feeds show', async () => {
    expect(await feeds('show')).toContain('word: Hello');
    expect(await feeds('status', { time: 'Hej' })).toContain('word: Hej');
    expect(await feeds('show')).toContain('word: Hej');
    // A value its schema refuses changes nothing.
    expect(await feeds('status', { time: 'x'.repeat(30) })).toContain(
      'That value is not one this kind of post takes: nothing was changed.',
    );
    expect((await world.bot.services.feedsAdmin.get(world.guild.id, 'probe')).options).toEqual({ word: 'Hej' });
  });

  it('posts its newest item as a test post, under the test ledger feed, never as its own', async () => {
    const before = world.discord.messages(posts.id).length;
    expect(await feeds('test', { kind: 'probe' })).toContain(`<#${posts.id}>`);
    const messages = world.discord.messages(posts.id);
    expect(messages).toHaveLength(before + 1);
    // Its text, as members read it: the marker every automatic post carries is not seen
    // (docs/decisions/exactly-once-ledger.md#the-marker).
    expect(visibleText(messages.at(-1)!.content)).toBe(`Hej, ${clock.now().toISOString().slice(0, 10)}`);
  });

  it('runs on the scheduler: seeds, then posts each new day once', async () => {
    const start = world.discord.messages(posts.id).length;
    await world.bot.scheduler.tick(clock.now(), { force: true });
    // The first run records what is there, and posts nothing.
    expect(world.discord.messages(posts.id)).toHaveLength(start);
    clock.advance(DAY);
    await world.bot.scheduler.tick(clock.now(), { force: true });
    await world.bot.scheduler.tick(clock.now(), { force: true });
    const messages = world.discord.messages(posts.id);
    expect(messages).toHaveLength(start + 1);
    // Its text, as members read it: the marker every automatic post carries is not seen
    // (docs/decisions/exactly-once-ledger.md#the-marker).
    expect(visibleText(messages.at(-1)!.content)).toBe(`Hej, ${clock.now().toISOString().slice(0, 10)}`);
  });
});
