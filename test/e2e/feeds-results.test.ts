import { Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import {
  discordTarget,
  type FeedItem,
  markerIn,
  markerText,
  Poster,
  type PostTarget,
} from '../../src/feeds/delivery/poster.js';
import {
  RESULTS_FEED,
  type ResultsFeedOptions,
  resultsItems,
  runResultsFeed,
} from '../../src/feeds/kinds/results/results.js';
import type { MessageView } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { recentClubResultsEvent } from '../support/sandbox-events.js';
import { testNow } from '../support/clock.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const HOUR = 3_600_000;

function carries(message: MessageView, nonce: string): boolean {
  const marker = markerText(nonce);
  return [message.content, ...message.embeds.flatMap((e) => [e.footer?.text, e.title])].some(
    (text) => text !== undefined && markerIn(text) === marker,
  );
}

describe('club results feed and exactly-once poster (sandbox Eventor, real discord.js, sandbox Discord)', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let client: EventorClient;
  let ledger: Ledger;
  let target: PostTarget;
  let channelId: string;
  let event: SandboxEvent;
  const guildId = (): string => world.guild.id;

  const tick = (ms = 2 * MINUTE): void => {
    clock = new Date(clock.getTime() + ms);
  };
  const options = (extra: Partial<ResultsFeedOptions> = {}): ResultsFeedOptions => ({
    guildId: guildId(),
    channelId,
    client,
    organisationId: world.eventor.dataset.homeClub.id,
    ledger,
    target,
    now: clock,
    language: 'en',
    timeZone: 'Europe/Stockholm',
    lookbackDays: 14,
    ...extra,
  });
  const setResults = (ev: SandboxEvent, has: boolean): void => {
    ev.hasResults = has;
    ev.materialized = null;
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    client = new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
      timeoutMs: 10_000,
    });
    ledger = new Ledger(world.bot.store);
    target = discordTarget(world.bot.client);
    channelId = world.discord.createTextChannel(world.guild.id, { name: 'resultat' }).id;
    // A recent single-race event with club runners: its results "appear" after the feed started.
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 13, hide: false });
    setResults(event, false);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('seeds on the first run and posts nothing', async () => {
    const run = await runResultsFeed(options());
    expect(run.seeded).toBe(true);
    expect(world.discord.messages(channelId)).toHaveLength(0);
    expect(await ledger.feedStartedAt(guildId(), RESULTS_FEED)).not.toBeNull();
    expect((await ledger.rows(guildId(), RESULTS_FEED)).every((r) => r.state === 'seeded')).toBe(true);
    expect(await ledger.get({ guildId: guildId(), feed: RESULTS_FEED, itemKey: `results:${event.id}` })).toBeNull();
  });

  it('posts a new result exactly once; a second run posts nothing', async () => {
    setResults(event, true);
    tick();
    const run = await runResultsFeed(options());
    const posted = run.outcomes.filter((o) => o.outcome.kind === 'posted');
    expect(posted.map((o) => o.itemKey)).toEqual([`results:${event.id}`]);
    expect(run.outcomes.every((o) => o.outcome.kind === 'posted' || o.outcome.kind === 'seeded')).toBe(true);
    const messages = world.discord.messages(channelId);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]!.title).toContain(event.name);

    tick();
    const again = await runResultsFeed(options());
    expect(again.outcomes.find((o) => o.itemKey === `results:${event.id}`)?.outcome.kind).toBe('unchanged');
    expect(again.outcomes.every((o) => o.outcome.kind === 'unchanged' || o.outcome.kind === 'seeded')).toBe(true);
    expect(world.discord.messages(channelId)).toHaveLength(1);
    expect(world.discord.messages(channelId)[0]!.edits).toHaveLength(0);
  });

  it('edits the earlier post when a result is corrected', async () => {
    const home = world.eventor.dataset.homeClub.id;
    const list = world.eventor.dataset.details(event).resultList!;
    const runner = list.classes
      .flatMap((c) => c.persons)
      .find((p) => p.organisation?.id === home && p.results[0]?.status === 'OK')!;
    world.eventor.dataset.correctResult(event.id, runner.person!.id!, { status: 'MissingPunch' });
    tick();
    const run = await runResultsFeed(options());
    expect(run.outcomes.find((o) => o.itemKey === `results:${event.id}`)?.outcome.kind).toBe('edited');
    const messages = world.discord.messages(channelId);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.edits).toHaveLength(1);
    const row = (await ledger.get({ guildId: guildId(), feed: RESULTS_FEED, itemKey: `results:${event.id}` }))!;
    expect(row).toMatchObject({ state: 'posted', messageId: messages[0]!.id });
  });

  it('posts a deleted message anew, once', async () => {
    const before = world.discord.messages(channelId);
    expect(before).toHaveLength(1);
    await world.bot.client.rest.delete(Routes.channelMessage(channelId, before[0]!.id));
    expect(world.discord.messages(channelId)).toHaveLength(0);
    const runner = world.eventor.dataset
      .details(event)
      .resultList!.classes.flatMap((c) => c.persons)
      .find(
        (p) => p.organisation?.id === world.eventor.dataset.homeClub.id && p.results[0]?.status === 'MissingPunch',
      )!;
    world.eventor.dataset.correctResult(event.id, runner.person!.id!, { status: 'OK' });
    tick();
    const run = await runResultsFeed(options());
    expect(run.outcomes.find((o) => o.itemKey === `results:${event.id}`)?.outcome.kind).toBe('reposted');
    tick();
    const again = await runResultsFeed(options());
    expect(again.outcomes.find((o) => o.itemKey === `results:${event.id}`)?.outcome.kind).toBe('unchanged');
    const messages = world.discord.messages(channelId);
    expect(messages).toHaveLength(1);
    expect(
      (await ledger.get({ guildId: guildId(), feed: RESULTS_FEED, itemKey: `results:${event.id}` }))?.messageId,
    ).toBe(messages[0]!.id);
  });

  it('makes one item per race of a multi-race event, with stable keys and hashes', async () => {
    const home = world.eventor.dataset.homeClub.id;
    const multi = world.eventor.dataset.events.find(
      (ev) =>
        ev.shape === 'multi' &&
        ev.hasResults &&
        ev.syntheticRunners === 0 &&
        (world.eventor.dataset
          .details(ev)
          .resultList?.classes.some((c) => c.persons.some((p) => p.organisation?.id === home)) ??
          false),
    );
    if (!multi) throw new Error('the sandbox has no multi-race event with club results');
    const [info] = await client.events({ eventIds: [multi.id] });
    const list = await client.organisationResults({ organisationIds: [home], eventId: multi.id, top: 3 });
    const withEvent = { ...list, event: { ...list.event, event: info! } };
    const ctx = { language: 'en' as const, timeZone: 'Europe/Stockholm', now: clock, webUrl: client.instance.webUrl };
    const items = resultsItems([withEvent], ctx, home);
    expect(items.length).toBeGreaterThan(1);
    expect(items.map((i) => i.itemKey)).toEqual(
      info!.races.filter((r) => items.some((i) => i.raceId === r.id)).map((r) => `results:${multi.id}:${r.id}`),
    );
    const later = resultsItems([withEvent], { ...ctx, now: new Date(clock.getTime() + DAY) }, home);
    expect(later.map((i) => i.contentHash)).toEqual(items.map((i) => i.contentHash));
  });

  const item = (itemKey: string, channel: string, text: string): FeedItem => ({
    guildId: guildId(),
    feed: 'test',
    itemKey,
    channelId: channel,
    payload: { embeds: [{ title: itemKey, description: text }], allowedMentions: { parse: [] } },
    contentHash: text,
  });

  it('a crash between posting and recording neither loses nor doubles the post', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'crash-after-send' }).id;
    const crashing = new Poster(ledger, target, {
      afterSend: () => {
        throw new Error('process killed');
      },
    });
    await expect(crashing.publish(item('a', channel, 'first'))).rejects.toThrow('process killed');
    const row = (await ledger.get({ guildId: guildId(), feed: 'test', itemKey: 'a' }))!;
    expect(row.state).toBe('posting');
    expect(world.discord.messages(channel)).toHaveLength(1);

    // A restarted process: a fresh poster finds the message by its marker instead of posting again.
    const outcome = await new Poster(new Ledger(world.bot.store), target).publish(item('a', channel, 'first'));
    expect(outcome.kind).toBe('recovered');
    const messages = world.discord.messages(channel);
    expect(messages).toHaveLength(1);
    expect(carries(messages[0]!, row.nonce!)).toBe(true);
    expect(await ledger.get({ guildId: guildId(), feed: 'test', itemKey: 'a' })).toMatchObject({
      state: 'posted',
      messageId: messages[0]!.id,
    });
    expect((await new Poster(ledger, target).publish(item('a', channel, 'first'))).kind).toBe('unchanged');
    expect(world.discord.messages(channel)).toHaveLength(1);
  });

  it('a crash after recording the intent but before Discord got the message posts it on the next run, once', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'crash-before-send' }).id;
    const dying: PostTarget = { ...target, send: () => Promise.reject(new Error('process killed')) };
    const first = await new Poster(ledger, dying).publish(item('b', channel, 'x'));
    expect(first.kind).toBe('failed');
    expect((await ledger.get({ guildId: guildId(), feed: 'test', itemKey: 'b' }))?.state).toBe('posting');
    expect(world.discord.messages(channel)).toHaveLength(0);
    const outcome = await new Poster(ledger, target).publish(item('b', channel, 'x'));
    expect(outcome.kind).toBe('posted');
    expect((await new Poster(ledger, target).publish(item('b', channel, 'x'))).kind).toBe('unchanged');
    expect(world.discord.messages(channel)).toHaveLength(1);
  });

  it('a 403 from Discord pauses without crashing and records nothing as posted', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'no-permission' }).id;
    world.discord.setBotCanPost(channel, false);
    const outcome = await new Poster(ledger, target).publish(item('c', channel, 'y'));
    expect(outcome).toMatchObject({ kind: 'paused', reason: 'forbidden' });
    expect((await ledger.get({ guildId: guildId(), feed: 'test', itemKey: 'c' }))?.state).not.toBe('posted');
    expect(world.discord.messages(channel)).toHaveLength(0);

    // Through the feed too: the run stops with `paused` for the scheduler.
    const guild = 'feed-403';
    const feedOptions = options({ guildId: guild, channelId: channel });
    await ledger.seed(guild, RESULTS_FEED, channel, []);
    const run = await runResultsFeed(feedOptions);
    expect(run.paused).toMatchObject({ kind: 'paused', reason: 'forbidden' });
    expect((await ledger.rows(guild, RESULTS_FEED)).some((r) => r.state === 'posted')).toBe(false);

    // Permission back: the item is posted, once.
    world.discord.setBotCanPost(channel, true);
    expect((await new Poster(ledger, target).publish(item('c', channel, 'y'))).kind).toBe('posted');
    expect((await new Poster(ledger, target).publish(item('c', channel, 'y'))).kind).toBe('unchanged');
    expect(
      world.discord
        .messages(channel)
        .filter((m) => /^c(?:\u200b|\u200c|\u200d|\u2060)*$/.test(m.embeds[0]?.title ?? '')),
    ).toHaveLength(1);
  });

  it('results of a race under way when the feed was turned on are posted once they change; older ones stay history', async () => {
    const home = world.eventor.dataset.homeClub.id;
    const runner = world.eventor.dataset
      .details(event)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.organisation?.id === home && p.results[0]?.status === 'OK')!;
    const started = Date.parse(event.event.start!);
    const during = world.discord.createTextChannel(world.guild.id, { name: 'turned-on-during-race' }).id;
    const later = world.discord.createTextChannel(world.guild.id, { name: 'turned-on-days-later' }).id;
    const duringRun = (at: number) =>
      runResultsFeed(options({ guildId: 'follow-during', channelId: during, now: new Date(at) }));
    const laterRun = (at: number) =>
      runResultsFeed(options({ guildId: 'follow-later', channelId: later, now: new Date(at) }));
    expect((await duringRun(started + 2 * HOUR)).seeded).toBe(true);
    expect((await laterRun(started + 3 * DAY)).seeded).toBe(true);

    world.eventor.dataset.correctResult(event.id, runner.person!.id!, { status: 'DidNotFinish' });
    tick(6 * MINUTE);
    const key = `results:${event.id}`;
    expect((await duringRun(started + 3 * HOUR)).outcomes.find((o) => o.itemKey === key)?.outcome.kind).toBe('posted');
    expect((await laterRun(started + 3 * DAY + HOUR)).outcomes.find((o) => o.itemKey === key)?.outcome.kind).toBe(
      'seeded',
    );
    expect(world.discord.messages(during)).toHaveLength(1);
    expect(world.discord.messages(later)).toHaveLength(0);

    world.eventor.dataset.correctResult(event.id, runner.person!.id!, { status: 'OK' });
    tick(6 * MINUTE);
    expect((await duringRun(started + 4 * HOUR)).outcomes.find((o) => o.itemKey === key)?.outcome.kind).toBe('edited');
    expect(world.discord.messages(during)).toHaveLength(1);
  });
});
