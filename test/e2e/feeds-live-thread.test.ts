/**
 * Where a race's live board goes (docs/admins.md#live-results-on-race-day), end to end: the real
 * bot against the sandbox Discord, Eventor and LiveResultat on one clock. With the results kind
 * keeping threads, the board goes into the race's thread, opened once in the results channel even
 * when two processes turn at once, and the results posted later go into the same thread; a thread
 * deleted mid-race sends the board to the live channel, once, and the admins are told once. (With
 * threads off the board is in the live channel: test/e2e/feeds-live.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { renderMessageText, type SandboxChannel } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget, type PostTarget } from '../../src/feeds/delivery/poster.js';
import { LiveReads } from '../../src/feeds/kinds/live/access.js';
import { LivePoller } from '../../src/feeds/kinds/live/poller.js';
import { openRaceThread, raceThreadId } from '../../src/feeds/kinds/results/threads.js';
import { createLiveSources, LiveClient } from '../../src/live/client.js';
import { createLogger } from '../../src/log/logger.js';
import { testNow } from '../support/clock.js';
import { clubRace, raceSpan } from '../support/live-world.js';

const WAIT = { timeoutMs: 15_000 };
const MINUTE = 60_000;

interface Setup {
  world: LoopbackWorld;
  live: SandboxChannel;
  results: SandboxChannel;
  admin: SandboxChannel;
  event: SandboxEvent;
  competitionId: number;
  span: { firstStart: number; lastFinalAt: number };
}

describe("the live board in the race's thread (real discord.js, sandbox Discord, Eventor and LiveResultat)", () => {
  let clock = testNow().getTime();
  const now = () => new Date(clock);
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  /** A world on race morning: the live kind in its channel, the results kind with threads, the race matched. */
  async function setUp(): Promise<Setup> {
    clock = testNow().getTime();
    const world = await startLoopbackWorld({ now, live: {}, eventorFollowsClock: true });
    closing.push(() => world.close());
    const dataset = world.eventor.dataset;
    const { competition, race } = clubRace({
      dataset,
      live: world.live!,
      homeClub: dataset.homeClub.organisation.shortName ?? dataset.homeClub.name,
    });
    const span = raceSpan(race);
    const event = dataset.event(competition.eventId!)!;
    event.hasStartList = true;
    event.hasResults = false;
    event.materialized = null;
    clock = span.firstStart - 30 * MINUTE;
    const live = world.discord.createTextChannel(world.guild.id, { name: 'live' });
    const results = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
    const admin = world.discord.createTextChannel(world.guild.id, { name: 'styrelsen' });
    await world.bot.store.servers.setChannel(world.guild.id, 'admin', admin.id);
    const command = (subcommand: string, options: Record<string, string>) =>
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
        .reply(WAIT);
    await command('on', { kind: 'live', channel: live.id });
    await command('on', { kind: 'results', channel: results.id });
    expect(renderMessageText(await command('threads', { state: 'on' }))).toContain('thread');
    await world.bot.scheduler.tick(now(), { force: true });
    return { world, live, results, admin, event, competitionId: competition.id, span };
  }

  const boardsIn = (s: Setup, channelId: string) =>
    s.world.discord
      .messages(channelId)
      .filter((m) => m.embeds.length > 0 && /Live|Slutligt/.test(m.embeds[0]!.title ?? ''));
  /** The results channel's messages that have a thread, and the threads' ids. */
  const threadsOf = (s: Setup) => s.world.discord.messages(s.results.id).flatMap((m) => m.threadId ?? []);
  /** The bot's live turns a clock minute apart until `minutes` after the first start (at most `steps` turns). */
  const turnUntil = async (s: Setup, minutes: number, steps: number) => {
    for (let step = 0; step < steps && clock < s.span.firstStart + minutes * MINUTE; step++) {
      clock += MINUTE;
      await s.world.bot.live!.turn(now());
    }
  };

  it('opens the race thread once, even with two processes turning at once, and the results follow into it', async () => {
    const s = await setUp();
    const other = otherProcess(s.world, now);
    closing.push(() => other.close());
    // Both processes turn at the same moment: one holds the competition, the thread is opened once.
    clock += 5_000;
    await Promise.all([s.world.bot.live!.turn(now()), other.poller.turn(now())]);
    clock += 5_000;
    await Promise.all([other.poller.turn(now()), s.world.bot.live!.turn(now())]);
    const threads = threadsOf(s);
    expect(threads).toHaveLength(1);
    const threadId = threads[0]!;
    // The starter names the race, and the board is in the thread, not in the live channel.
    expect(s.world.discord.messages(s.results.id)).toHaveLength(1);
    expect(s.world.discord.messages(s.results.id)[0]!.content).toContain(s.event.name.slice(0, 10));
    expect(boardsIn(s, threadId)).toHaveLength(1);
    expect(boardsIn(s, s.live.id)).toHaveLength(0);

    // The race goes on: the board is edited in the thread, never posted again.
    await turnUntil(s, 30, 40);
    expect(boardsIn(s, threadId)).toHaveLength(1);
    expect(boardsIn(s, threadId)[0]!.edits.length).toBeGreaterThan(0);
    expect(boardsIn(s, s.live.id)).toHaveLength(0);

    // Eventor's results: the results post, and its thread is the race's (no second thread).
    s.event.hasResults = true;
    s.event.materialized = null;
    clock = s.span.lastFinalAt + 5 * MINUTE;
    await s.world.bot.scheduler.tick(now(), { force: true });
    await s.world.bot.scheduler.tick(now(), { force: true });
    expect(threadsOf(s)).toEqual([threadId]);
    const inThread = s.world.discord.messages(threadId);
    expect(inThread.length).toBeGreaterThan(1);
    expect(inThread.filter((m) => m.embeds.length > 0 && m !== boardsIn(s, threadId)[0]).length).toBeGreaterThan(0);
    expect(boardsIn(s, threadId)).toHaveLength(1);
    // Nothing was told to the admins: nothing went wrong.
    expect(s.world.discord.messages(s.admin.id)).toHaveLength(0);
  }, 120_000);

  it('a crash after Discord opened the thread and before it was recorded opens no second thread', async () => {
    const s = await setUp();
    const ledger = new Ledger(s.world.bot.store);
    const real = discordTarget(s.world.bot.client);
    // The process dies right after Discord opened the thread on the starter.
    const crashing: PostTarget = {
      ...real,
      async startThread(channelId, messageId, options) {
        await real.startThread!(channelId, messageId, options);
        throw new Error('crash');
      },
    };
    const itemKey = `results:${s.event.id}`;
    // Nothing recorded, as a crash would leave it.
    expect(
      await openRaceThread({
        guildId: s.world.guild.id,
        channelId: s.results.id,
        ledger,
        target: crashing,
        itemKey,
        name: 'Race',
        starter: { content: 'Live', allowedMentions: { parse: [] } },
      }),
    ).toEqual({ kind: 'waiting' });
    expect(await raceThreadId(ledger, s.world.guild.id, itemKey)).toBeNull();
    const [threadId] = threadsOf(s);
    // The next turn finds the starter posted and the thread made (Discord's 160004): recorded, not doubled.
    clock += 5_000;
    await s.world.bot.live!.turn(now());
    expect(threadsOf(s)).toEqual([threadId]);
    expect(s.world.discord.messages(s.results.id)).toHaveLength(1);
    expect(await raceThreadId(ledger, s.world.guild.id, itemKey)).toBe(threadId);
    expect(boardsIn(s, threadId!)).toHaveLength(1);
    expect(boardsIn(s, s.live.id)).toHaveLength(0);
  }, 120_000);

  it('a thread deleted mid-race: the board goes on in the live channel, once, and the admins are told once', async () => {
    const s = await setUp();
    await turnUntil(s, 10, 20);
    const [threadId] = threadsOf(s);
    expect(boardsIn(s, threadId!)).toHaveLength(1);
    s.world.discord.deleteChannel(threadId!);
    await turnUntil(s, 40, 20);
    const boards = boardsIn(s, s.live.id);
    expect(boards).toHaveLength(1);
    expect(boards[0]!.edits.length).toBeGreaterThan(0);
    const told = s.world.discord.messages(s.admin.id);
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toContain(`<#${s.live.id}>`);
    // The kind is not paused: its own channel is fine.
    expect(renderMessageText(told[0]!)).not.toMatch(/paus/i);
  }, 120_000);

  it('a thread archived mid-race: the board goes on in the live channel, once', async () => {
    const s = await setUp();
    await turnUntil(s, 10, 20);
    const [threadId] = threadsOf(s);
    const edits = boardsIn(s, threadId!)[0]!.edits.length;
    s.world.discord.archiveThread(threadId!);
    await turnUntil(s, 40, 20);
    // The board in the thread stays as it was; the one in the channel goes on.
    expect(boardsIn(s, threadId!)[0]!.edits).toHaveLength(edits);
    const boards = boardsIn(s, s.live.id);
    expect(boards).toHaveLength(1);
    expect(boards[0]!.edits.length).toBeGreaterThan(0);
    expect(s.world.discord.messages(s.admin.id)).toHaveLength(1);
  }, 120_000);
});

/** The pollers of another process of the same bot (as in test/e2e/feeds-live.test.ts). */
function otherProcess(world: LoopbackWorld, now: () => Date): { poller: LivePoller; close(): Promise<void> } {
  const endpoints = world.config.liveEndpoints!;
  const sources = createLiveSources(endpoints, { userAgent: 'eventor-bot-test' });
  const access = new LiveReads(new LiveClient({ ...sources, now: () => now().getTime() }), endpoints, () =>
    now().getTime(),
  );
  const poller = new LivePoller({
    store: world.bot.store,
    live: access,
    client: world.bot.client,
    log: createLogger({ level: 'error', write: () => undefined, now }),
    now,
    defaultLanguage: 'en',
    defaultTimeZone: 'Europe/Stockholm',
  });
  return {
    poller,
    async close() {
      await poller.stop();
      await sources.rest.close();
      await sources.legacy.close();
    },
  };
}
