import { Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inQuietHours } from '../../src/feeds/cadence.js';
import type { TickSummary } from '../../src/feeds/scheduler.js';
import { KindSettings } from '../../src/feeds/settings.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { clubFinisherId, recentClubResultsEvent } from '../support/sandbox-events.js';
import { worldSql } from '../support/world-store.js';
import { restartedScheduler as restartedOn } from '../support/feed-world.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RESULTS_PATH = '/api/results/organisation';

describe('feed scheduler (sandbox Eventor, real discord.js, sandbox Discord, controllable clock)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-24T08:00:00Z');
  let settings: KindSettings;
  let channelId: string;
  let adminChannelId: string;
  let event: SandboxEvent;
  let runnerId: string;
  let other: { id: string; ownerId: string };
  const guildId = (): string => world.guild.id;

  /** A second scheduler on the world's store with an Eventor access of its own: the bot's after a restart. */
  const restartedScheduler = () => restartedOn(world, () => clock);

  const advance = (ms: number): void => {
    clock = new Date(clock.getTime() + ms);
  };
  const tick = async (ms = HOUR): Promise<TickSummary> => {
    advance(ms);
    return world.bot.scheduler.tick(clock);
  };
  const setResults = (ev: SandboxEvent, has: boolean): void => {
    ev.hasResults = has;
    ev.materialized = null;
  };
  let flip = false;
  /** A correction of a club runner's result: the results post changes. */
  const correct = (): void => {
    flip = !flip;
    world.eventor.dataset.correctResult(event.id, runnerId, { status: flip ? 'MissingPunch' : 'OK' });
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    settings = new KindSettings(world.bot.store, () => clock);
    channelId = world.discord.createTextChannel(guildId(), { name: 'resultat' }).id;
    adminChannelId = world.discord.createTextChannel(guildId(), { name: 'styrelsen' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'results', channelId);
    await world.bot.store.servers.setChannel(guildId(), 'admin', adminChannelId);
    await world.bot.store.servers.updateGuildSettings(guildId(), { locale: 'sv', timeZone: 'Europe/Stockholm' });
    // Saturday morning: the latest race with results is last Sunday's.
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 6, hide: false });
    runnerId = clubFinisherId(world.eventor, event);
    setResults(event, false);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('does nothing while the feed is off', async () => {
    const before = world.eventor.requests.count();
    await tick();
    expect(world.eventor.requests.count()).toBe(before);
    expect(world.discord.messages(channelId)).toHaveLength(0);
  });

  it('a turned-on results feed seeds on its first tick and posts a new result on a later one', async () => {
    await settings.update(guildId(), 'results', { enabled: true });
    await tick();
    expect(world.discord.messages(channelId)).toHaveLength(0);
    setResults(event, true);
    // What the tick ran, as `eventor-bot tick` logs it.
    expect(await tick()).toEqual({ feedsRun: 1, servers: 1, posts: 1, edits: 0, failed: 0 });
    const messages = world.discord.messages(channelId);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]!.title).toContain(event.name);
  });

  it('cadence: not due, no Eventor requests', async () => {
    const before = world.eventor.requests.count();
    await tick(MINUTE);
    expect(world.eventor.requests.count()).toBe(before);
  });

  it('a kind paused by an admin does nothing', async () => {
    await settings.update(guildId(), 'results', { pausedReason: 'admin' });
    correct();
    const before = world.eventor.requests.count(RESULTS_PATH);
    await tick();
    await tick();
    expect(world.eventor.requests.count(RESULTS_PATH)).toBe(before);
    expect(world.discord.messages(channelId)[0]!.edits).toHaveLength(0);
    await settings.update(guildId(), 'results', { pausedReason: null });
    expect(await tick()).toMatchObject({ feedsRun: 1, posts: 0, edits: 1, failed: 0 });
    expect(world.discord.messages(channelId)[0]!.edits).toHaveLength(1);
  });

  it('lost permission pauses the kind and tells the admin channel once; fixing it resumes with one notice', async () => {
    // Someone deletes the post and the bot's Send Messages: the corrected result cannot be posted anew.
    await world.bot.client.rest.delete(Routes.channelMessage(channelId, world.discord.messages(channelId)[0]!.id));
    world.discord.setBotCanPost(channelId, false);
    correct();
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBe('no-permission');
    await tick();
    await tick();
    const notices = world.discord.messages(adminChannelId);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toContain('klubbresultat');

    expect(world.discord.messages(channelId)).toHaveLength(0);

    world.discord.setBotCanPost(channelId, true);
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    await tick();
    expect(world.discord.messages(adminChannelId)).toHaveLength(2);
    expect(world.discord.messages(channelId)).toHaveLength(1);
  });

  it('an invalid key pauses with a notice, and resumes when Eventor takes the key again', async () => {
    const fault = world.eventor.faults.add({ kind: 'status', status: 403 });
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBe('invalid-key');
    await tick();
    expect(world.discord.messages(adminChannelId)).toHaveLength(3);
    world.eventor.faults.remove(fault);
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    expect(world.discord.messages(adminChannelId)).toHaveLength(4);
    expect(world.discord.messages(channelId)).toHaveLength(1);
  });

  it('an Eventor outage backs off without any message in club channels', async () => {
    const fault = world.eventor.faults.add({ kind: 'status', status: 503 });
    await tick();
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    expect(world.discord.messages(adminChannelId)).toHaveLength(4);
    expect(world.discord.messages(channelId)).toHaveLength(1);
    world.eventor.faults.remove(fault);
    correct();
    const edits = world.discord.messages(channelId)[0]!.edits.length;
    for (let i = 0; i < 6 && world.discord.messages(channelId)[0]!.edits.length === edits; i++) await tick();
    expect(world.discord.messages(channelId)[0]!.edits.length).toBe(edits + 1);
  });

  it('two servers of the same club make no more results requests than one', async () => {
    await tick();
    const before = world.eventor.requests.count(RESULTS_PATH);
    await tick();
    const one = world.eventor.requests.count(RESULTS_PATH) - before;
    expect(one).toBeGreaterThan(0);

    other = world.discord.createGuild({ name: 'Same club, second server' });
    world.allowDefaultEventor(other.id);
    const otherChannel = world.discord.createTextChannel(other.id, { name: 'results' }).id;
    await world.bot.store.servers.setChannel(other.id, 'results', otherChannel);
    await settings.update(other.id, 'results', { enabled: true });
    const before2 = world.eventor.requests.count(RESULTS_PATH);
    await tick();
    expect(world.eventor.requests.count(RESULTS_PATH) - before2).toBe(one);
    expect(world.discord.messages(otherChannel)).toHaveLength(0);
    await settings.update(other.id, 'results', { enabled: false });
  });

  it('quiet hours hold posts until they end, in local time across the October DST change', async () => {
    expect(inQuietHours(new Date('2026-10-25T05:30:00Z'), 'Europe/Stockholm', { from: 22, to: 7 })).toBe(true);
    expect(inQuietHours(new Date('2026-10-25T06:00:00Z'), 'Europe/Stockholm', { from: 22, to: 7 })).toBe(false);
    await settings.update(guildId(), 'results', { quietHours: { from: 22, to: 7 } });
    // 06:30 local (CET, UTC+1 since 03:00 CEST this morning): still quiet.
    clock = new Date('2026-10-25T05:30:00Z');
    correct();
    const edits = world.discord.messages(channelId)[0]!.edits.length;
    const before = world.eventor.requests.count(RESULTS_PATH);
    await world.bot.scheduler.tick(clock);
    expect(world.eventor.requests.count(RESULTS_PATH)).toBe(before);
    expect(world.discord.messages(channelId)[0]!.edits).toHaveLength(edits);
    // 07:00 local: the held change is posted.
    clock = new Date('2026-10-25T06:00:00Z');
    await world.bot.scheduler.tick(clock);
    expect(world.discord.messages(channelId)[0]!.edits).toHaveLength(edits + 1);
  });

  it('without an admin channel the notice goes to the server owner by DM, once', async () => {
    await settings.update(other.id, 'results', { enabled: true });
    const notices = world.discord.messages(adminChannelId).length;
    const fault = world.eventor.faults.add({ kind: 'status', status: 403 });
    await tick();
    await tick();
    world.eventor.faults.remove(fault);
    expect((await settings.get(other.id, 'results')).pausedReason).toBe('invalid-key');
    expect(world.discord.messages(adminChannelId)).toHaveLength(notices + 1);
    const dms = world.discord.dms(other.ownerId);
    expect(dms).toHaveLength(1);
    expect(dms[0]!.content).toContain('API');
  });

  it('a deleted channel pauses its feed at once with one notice; choosing a new channel resumes it', async () => {
    // The key works again since the last test: the hourly re-check resumes the feed first.
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    const notices = world.discord.messages(adminChannelId).length;
    world.discord.deleteChannel(channelId);
    // The gateway's CHANNEL_DELETE reaches the bot asynchronously: wait for it, boundedly.
    for (let i = 0; i < 100 && world.discord.messages(adminChannelId).length === notices; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await settings.get(guildId(), 'results')).pausedReason).toBe('channel-missing');
    expect(world.discord.messages(adminChannelId)).toHaveLength(notices + 1);
    expect(world.discord.messages(adminChannelId).at(-1)!.content).toContain('/inställningar kanal');
    await tick();
    expect(world.discord.messages(adminChannelId)).toHaveLength(notices + 1);

    channelId = world.discord.createTextChannel(guildId(), { name: 'resultat-2' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'results', channelId);
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    expect(world.discord.messages(adminChannelId)).toHaveLength(notices + 2);
  });

  it('a restarted scheduler keeps the cadence: a kind that ran in this slot does not run again at once', async () => {
    await tick();
    expect(
      await worldSql(world, 'SELECT last_run_at FROM feed_state WHERE guild_id = ? AND feed = ?', [
        guildId(),
        'results',
      ]),
    ).toEqual([{ last_run_at: clock.toISOString() }]);
    const { restarted, access } = restartedScheduler();
    try {
      advance(MINUTE);
      const before = world.eventor.requests.count(RESULTS_PATH);
      await restarted.tick(clock);
      expect(world.eventor.requests.count(RESULTS_PATH)).toBe(before);
      advance(HOUR);
      await restarted.tick(clock);
      expect(world.eventor.requests.count(RESULTS_PATH)).toBeGreaterThan(before);
    } finally {
      await restarted.stop();
      await access.close();
    }
  });

  it('a scheduler started again on a race day runs results at the next 5-minute slot, not the next hour', async () => {
    // The followed race is today's: it started half an hour ago (the club's calendar says race day).
    advance(HOUR - (clock.getTime() % HOUR) + 10 * MINUTE);
    event.event.start = new Date(clock.getTime() - 30 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');
    setResults(event, true);
    await world.bot.scheduler.tick(clock);
    const { restarted, access } = restartedScheduler();
    try {
      advance(MINUTE);
      const before = world.eventor.requests.count(RESULTS_PATH);
      await restarted.tick(clock);
      expect(world.eventor.requests.count(RESULTS_PATH)).toBe(before);
      // The next 5-minute slot of the same hour: due on a race day.
      advance(5 * MINUTE);
      await restarted.tick(clock);
      expect(world.eventor.requests.count(RESULTS_PATH)).toBeGreaterThan(before);
    } finally {
      await restarted.stop();
      await access.close();
    }
  });
});
