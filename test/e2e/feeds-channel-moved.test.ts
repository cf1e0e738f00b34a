import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { RESULTS_FEED } from '../../src/feeds/kinds/results/results.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { clubFinisherId, recentClubResultsEvent } from '../support/sandbox-events.js';
import { eventually } from '../support/eventually.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WAIT = { timeoutMs: 10_000 };

describe('a feed channel deleted and replaced: corrections go to the new channel, once, without a pause loop', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-24T08:00:00Z');
  let settings: KindSettings;
  let adminChannelId: string;
  let event: SandboxEvent;
  let runnerId: string;
  const guildId = (): string => world.guild.id;
  const tick = async (ms = HOUR): Promise<void> => {
    clock = new Date(clock.getTime() + ms);
    await world.bot.scheduler.tick(clock);
  };
  let flip = false;
  /** A correction of a club runner's result: the results post changes. */
  const correct = (): void => {
    flip = !flip;
    world.eventor.dataset.correctResult(event.id, runnerId, { status: flip ? 'MissingPunch' : 'OK' });
  };
  const setResults = (has: boolean): void => {
    event.hasResults = has;
    event.materialized = null;
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    settings = new KindSettings(world.bot.store, () => clock);
    adminChannelId = world.discord.createTextChannel(guildId(), { name: 'styrelsen' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'admin', adminChannelId);
    // The world's server is Swedish in Discord, and posts follow it unless /setup chose: these checks read English.
    await world.bot.store.servers.updateGuildSettings(guildId(), { locale: 'en' });
    // Saturday morning: the latest race with results is last Sunday's.
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 6, hide: false });
    runnerId = clubFinisherId(world.eventor, event);
    setResults(false);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it.each([
    ['/feeds on results <channel>', 'feeds', 'on'],
    ['/setup channel results <channel>', 'setup', 'channel'],
  ] as const)('picked with %s', async (_label, name, subcommand) => {
    const oldChannel = world.discord.createTextChannel(guildId(), { name: `resultat-${subcommand}` }).id;
    await world.bot.store.servers.setChannel(guildId(), 'results', oldChannel);
    await settings.update(guildId(), 'results', { enabled: true, pausedReason: null });
    await new Ledger(world.bot.store).forgetFeeds(guildId(), RESULTS_FEED, { exact: true });
    setResults(false);
    await tick();
    setResults(true);
    await tick();
    expect(world.discord.messages(oldChannel)).toHaveLength(1);
    const noticesBefore = world.discord.messages(adminChannelId).length;

    // The channel is deleted: the bot hears it from the gateway, pauses and tells the admins once.
    world.discord.deleteChannel(oldChannel);
    await eventually(
      async () => (await settings.get(guildId(), 'results')).pausedReason === 'channel-missing' || undefined,
      { ...WAIT, description: 'the pause' },
    );
    await world.discord.waitForMessage(adminChannelId, (m) => m.content.includes('no longer exists'), WAIT);

    // An admin picks a new channel; the answer does not ask for /feeds resume, the pause is over.
    const newChannel = world.discord.createTextChannel(guildId(), { name: `resultat-ny-${subcommand}` }).id;
    const reply = await world.discord
      .runCommand({
        guildId: guildId(),
        channelId: world.channel.id,
        user: world.admin,
        locale: 'en-GB',
        name,
        subcommand,
        options: { kind: 'results', channel: newChannel },
      })
      .reply(WAIT);
    expect(renderMessageText(reply)).not.toContain('resume');
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();

    // A result is corrected in Eventor; hours pass.
    correct();
    for (let hour = 0; hour < 5; hour++) await tick();

    const posts = world.discord.messages(newChannel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.embeds[0]!.title).toContain(event.name);
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    // The deletion's notice, and nothing more.
    expect(world.discord.messages(adminChannelId).length - noticesBefore).toBe(1);
    expect(
      await new Ledger(world.bot.store).get({
        guildId: guildId(),
        feed: RESULTS_FEED,
        itemKey: `${RESULTS_FEED}:${event.id}`,
      }),
    ).toMatchObject({ state: 'posted', channelId: newChannel, messageId: posts[0]!.id });

    // And later corrections edit that post.
    correct();
    await tick();
    expect(world.discord.messages(newChannel)).toHaveLength(1);
    expect(world.discord.messages(newChannel)[0]!.edits.length).toBeGreaterThanOrEqual(1);
  });

  it('an old channel closed to the bot (403) while the feed posts elsewhere now: the correction moves to the new channel, the feed is not paused', async () => {
    const oldChannel = world.discord.createTextChannel(guildId(), { name: 'resultat-gammal' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'results', oldChannel);
    await settings.update(guildId(), 'results', { enabled: true, pausedReason: null });
    await new Ledger(world.bot.store).forgetFeeds(guildId(), RESULTS_FEED, { exact: true });
    setResults(false);
    await tick();
    setResults(true);
    await tick();
    expect(world.discord.messages(oldChannel)).toHaveLength(1);
    const noticesBefore = world.discord.messages(adminChannelId).length;

    const newChannel = world.discord.createTextChannel(guildId(), { name: 'resultat-nyare' }).id;
    await world.discord
      .runCommand({
        guildId: guildId(),
        channelId: world.channel.id,
        user: world.admin,
        locale: 'en-GB',
        name: 'feeds',
        subcommand: 'on',
        options: { kind: 'results', channel: newChannel },
      })
      .reply(WAIT);
    world.discord.setBotCanView(oldChannel, false);
    correct();
    for (let hour = 0; hour < 4; hour++) await tick();

    expect(world.discord.messages(newChannel)).toHaveLength(1);
    expect(world.discord.messages(oldChannel)).toHaveLength(1);
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    expect(world.discord.messages(adminChannelId)).toHaveLength(noticesBefore);
  });
});
