import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget, type PostTarget } from '../../src/feeds/delivery/poster.js';
import {
  RESULTS_THREADS_FEED,
  THREAD_AUTO_ARCHIVE_MINUTES,
  threadName,
  threadsWaiting,
} from '../../src/feeds/kinds/results/threads.js';
import { runResultOf } from '../../src/feeds/feed.js';
import { RESULTS_FEED, type ResultsFeedOptions, runResultsFeed } from '../../src/feeds/kinds/results/results.js';
import { ResultsOptions } from '../../src/feeds/kinds/results/options.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { createLogger } from '../../src/log/logger.js';
import { type InteractionHandle, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { clubFinisherId, recentClubResultsEvent } from '../support/sandbox-events.js';
import { testNow } from '../support/clock.js';

const MINUTE = 60_000;
const WAIT = { timeoutMs: 10_000 };
const CREATE_PUBLIC_THREADS = 1n << 35n;
const SEND_MESSAGES_IN_THREADS = 1n << 38n;

describe('a thread per results post (sandbox Eventor, real discord.js, sandbox Discord, real SQLite)', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let client: EventorClient;
  let ledger: Ledger;
  let target: PostTarget;
  let event: SandboxEvent;
  let clubRunner: string;

  const tick = (ms = 2 * MINUTE): void => {
    clock = new Date(clock.getTime() + ms);
  };
  const options = (
    guildId: string,
    channelId: string,
    extra: Partial<ResultsFeedOptions> = {},
  ): ResultsFeedOptions => ({
    guildId,
    channelId,
    client,
    organisationId: world.eventor.dataset.homeClub.id,
    ledger,
    target,
    now: clock,
    language: 'en',
    timeZone: 'Europe/Stockholm',
    lookbackDays: 14,
    options: { threads: true },
    ...extra,
  });
  const setResults = (has: boolean): void => {
    event.hasResults = has;
    event.materialized = null;
  };
  const itemKey = (): string => `${RESULTS_FEED}:${event.id}`;
  /** A server of its own (ledger-wise) with its own channel, whose feed started before the event's results were out. */
  const freshFeed = async (name: string): Promise<{ guildId: string; channelId: string }> => {
    const channelId = world.discord.createTextChannel(world.guild.id, { name }).id;
    const guildId = `threads-${name}`;
    // A client of its own: another scenario's cached answers must not leak into this one's seed.
    client = newClient();
    setResults(false);
    expect((await runResultsFeed(options(guildId, channelId))).seeded).toBe(true);
    setResults(true);
    tick();
    return { guildId, channelId };
  };
  const newClient = (): EventorClient =>
    new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
      timeoutMs: 10_000,
    });
  const threadRequests = (channelId: string) =>
    world.discord
      .requests()
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.route === '/channels/:channelId/messages/:messageId/threads' &&
          r.path.startsWith(`/channels/${channelId}/`),
      );
  const threadsOf = (channelId: string) =>
    [...world.discord.world.channels.values()].filter((c) => c.parentId === channelId && c.type === 11 && !c.deleted);

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    client = newClient();
    ledger = new Ledger(world.bot.store);
    target = discordTarget(world.bot.client);
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 13, hide: false });
    clubRunner = clubFinisherId(world.eventor, event);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('names threads after the event and race, on one line, within 100 characters', () => {
    expect(threadName('Linnéstafetten', null, 'en')).toBe('Linnéstafetten');
    expect(threadName('O-Ringen\n5 dagar', 'Etapp 2', 'sv')).toBe('O-Ringen 5 dagar – Etapp 2');
    const long = threadName('x'.repeat(150), 'Sprint', 'en');
    expect(long).toHaveLength(100);
    expect(long.endsWith('…')).toBe(true);
    expect(threadName('  ', null, 'sv')).toBe('Okänd tävling');
  });

  it('opens one thread under the new post with the complete results, and a second run changes nothing', async () => {
    const { guildId, channelId } = await freshFeed('resultat');
    const run = await runResultsFeed(options(guildId, channelId));
    expect(run.paused).toBeNull();
    expect(run.outcomes.find((o) => o.itemKey === itemKey())?.outcome.kind).toBe('posted');
    const opened = run.threads?.find((o) => o.itemKey === itemKey());
    expect(opened).toMatchObject({ kind: 'opened', created: true });

    const [post] = world.discord.messages(channelId);
    expect(world.discord.messages(channelId)).toHaveLength(1);
    // A thread started from a message has the message's id.
    expect(post!.threadId).toBe(post!.id);
    const thread = world.discord.world.channel(post!.id)!;
    expect(thread).toMatchObject({
      type: 11,
      parentId: channelId,
      name: event.name.slice(0, 100),
      autoArchiveDuration: THREAD_AUTO_ARCHIVE_MINUTES,
    });
    const pages = world.discord.messages(thread.id);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    const text = pages.map((m) => renderMessageText(m)).join('\n');
    const runnerName = world.eventor.dataset
      .details(event)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === clubRunner)!.person!.name;
    expect(text).toContain(runnerName.family);
    expect(await ledger.get({ guildId, feed: RESULTS_THREADS_FEED, itemKey: `${itemKey()}:thread` })).toMatchObject({
      state: 'posted',
      messageId: thread.id,
    });
    expect(await ledger.get({ guildId, feed: RESULTS_THREADS_FEED, itemKey: `${itemKey()}:page:1` })).toMatchObject({
      state: 'posted',
      channelId: thread.id,
      messageId: pages[0]!.id,
    });

    tick();
    const again = await runResultsFeed(options(guildId, channelId));
    const synced = again.threads?.find((o) => o.itemKey === itemKey());
    // The thread's split graphs (after the pages) are only looked at when the results change.
    expect(synced).toMatchObject({ kind: 'synced', graphs: [] });
    expect(synced?.kind === 'synced' && synced.pages.every((kind) => kind === 'unchanged')).toBe(true);
    expect(threadRequests(channelId)).toHaveLength(1);
    expect(world.discord.messages(thread.id)).toHaveLength(pages.length);
    expect(world.discord.messages(thread.id).every((m) => m.edits.length === 0)).toBe(true);
    expect(threadsOf(channelId)).toHaveLength(1);
  });

  it('edits the post and the thread when a result is corrected, and opens no second thread', async () => {
    const { guildId, channelId } = await freshFeed('rattelse');
    await runResultsFeed(options(guildId, channelId));
    const [post] = world.discord.messages(channelId);
    const before = world.discord.messages(post!.id);

    world.eventor.dataset.correctResult(event.id, clubRunner, { status: 'MissingPunch' });
    tick();
    const run = await runResultsFeed(options(guildId, channelId));
    expect(run.outcomes.find((o) => o.itemKey === itemKey())?.outcome.kind).toBe('edited');
    const synced = run.threads?.find((o) => o.itemKey === itemKey());
    expect(synced?.kind).toBe('synced');
    expect(synced?.kind === 'synced' && synced.pages).toContain('edited');
    const after = world.discord.messages(post!.id);
    expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect(after.some((m) => m.edits.length === 1)).toBe(true);
    expect(after.map((m) => renderMessageText(m)).join('\n')).toMatch(/Missing punch|MP/i);
    expect(world.discord.messages(channelId)).toHaveLength(1);
    expect(threadRequests(channelId)).toHaveLength(1);

    world.eventor.dataset.correctResult(event.id, clubRunner, { status: 'OK' });
    tick();
    await runResultsFeed(options(guildId, channelId));
    expect(world.discord.messages(post!.id).map((m) => m.id)).toEqual(before.map((m) => m.id));
  });

  it('a crash after Discord opened the thread and before it was recorded does not open a second one', async () => {
    const { guildId, channelId } = await freshFeed('krasch');
    await expect(
      runResultsFeed(
        options(guildId, channelId, {
          threadHooks: {
            afterThread: () => {
              throw new Error('process killed');
            },
          },
        }),
      ),
    ).rejects.toThrow('process killed');
    const [post] = world.discord.messages(channelId);
    expect(world.discord.message(post!.id)?.threadId).toBe(post!.id);
    expect((await ledger.get({ guildId, feed: RESULTS_THREADS_FEED, itemKey: `${itemKey()}:thread` }))?.state).toBe(
      'posting',
    );
    expect(world.discord.messages(post!.id)).toHaveLength(0);

    // The restarted bot: Discord answers 160004, the thread is recognised by its id, its pages posted once.
    tick();
    const run = await runResultsFeed(options(guildId, channelId, { ledger: new Ledger(world.bot.store) }));
    expect(run.outcomes.find((o) => o.itemKey === itemKey())?.outcome.kind).toBe('unchanged');
    expect(run.threads?.find((o) => o.itemKey === itemKey())).toMatchObject({
      kind: 'opened',
      threadId: post!.id,
      created: false,
    });
    expect(threadRequests(channelId).map((r) => [r.status, r.code])).toEqual([
      [200, undefined],
      [400, 160004],
    ]);
    expect(threadsOf(channelId)).toHaveLength(1);
    const pages = world.discord.messages(post!.id);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    tick();
    await runResultsFeed(options(guildId, channelId));
    expect(world.discord.messages(post!.id)).toHaveLength(pages.length);
    expect(world.discord.messages(channelId)).toHaveLength(1);
  });

  it('a crash between the post and the thread still opens the thread on the next run', async () => {
    const { guildId, channelId } = await freshFeed('mellan');
    // The post is recorded, then the process dies before the thread step.
    const dying: PostTarget = { ...target, startThread: () => Promise.reject(new Error('process killed')) };
    const first = await runResultsFeed(options(guildId, channelId, { target: dying }));
    expect(first.threads?.find((o) => o.itemKey === itemKey())?.kind).toBe('failed');
    expect(threadsOf(channelId)).toHaveLength(0);
    tick();
    const run = await runResultsFeed(options(guildId, channelId));
    expect(run.threads?.find((o) => o.itemKey === itemKey())).toMatchObject({ kind: 'opened', created: true });
    expect(threadsOf(channelId)).toHaveLength(1);
  });

  it('without the permission to open threads the post stays, the feed is not paused, and the thread follows once allowed', async () => {
    const { guildId, channelId } = await freshFeed('utan-tradar');
    world.discord.world.setBotPermission(channelId, CREATE_PUBLIC_THREADS, false);
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    log.redact(world.config.discordToken);
    const ctx = {
      ...options(guildId, channelId, { log }),
      feed: 'results' as const,
      roleId: null,
      options: ResultsOptions.parse({ threads: true }),
    };
    const result = runResultOf(await runResultsFeed(ctx));
    expect(result.outcome).toBe('ok');
    expect(world.discord.messages(channelId)).toHaveLength(1);
    expect(threadsOf(channelId)).toHaveLength(0);
    expect(threadRequests(channelId).map((r) => r.code)).toEqual([50013]);
    expect(await threadsWaiting(ledger, guildId, RESULTS_FEED)).toBe(1);
    const line = lines.find((l) => l.includes('results thread not opened'));
    expect(JSON.parse(line!)).toMatchObject({ level: 'warn', channelId, itemKey: itemKey(), code: 50013 });
    expect(line).not.toContain(world.config.discordToken);

    // Another run while still refused: one refused request per run at most, still no pause.
    tick();
    const again = await runResultsFeed(options(guildId, channelId));
    expect(again.paused).toBeNull();
    expect(again.threads?.find((o) => o.itemKey === itemKey())).toMatchObject({
      kind: 'skipped',
      reason: 'forbidden',
      code: 50013,
    });

    // Allowed to open threads but not to post in them: the thread opens, its pages wait, still no pause.
    world.discord.world.setBotPermission(channelId, CREATE_PUBLIC_THREADS, true);
    world.discord.world.setBotPermission(channelId, SEND_MESSAGES_IN_THREADS, false);
    tick();
    const half = await runResultsFeed(options(guildId, channelId));
    expect(half.paused).toBeNull();
    expect(half.threads?.find((o) => o.itemKey === itemKey())).toMatchObject({ kind: 'skipped', reason: 'forbidden' });
    expect(threadsOf(channelId)).toHaveLength(1);
    expect(await threadsWaiting(ledger, guildId, RESULTS_FEED)).toBe(0);

    world.discord.world.setBotPermission(channelId, SEND_MESSAGES_IN_THREADS, true);
    tick();
    const allowed = await runResultsFeed(options(guildId, channelId));
    expect(allowed.threads?.find((o) => o.itemKey === itemKey())?.kind).toBe('synced');
    const [post] = world.discord.messages(channelId);
    expect(world.discord.messages(post!.id).length).toBeGreaterThanOrEqual(1);
    expect(world.discord.messages(channelId)).toHaveLength(1);
  });

  it('a deleted thread is opened again with every page; a post made anew gets its own thread', async () => {
    const { guildId, channelId } = await freshFeed('raderad');
    await runResultsFeed(options(guildId, channelId));
    const [post] = world.discord.messages(channelId);
    const pages = world.discord.messages(post!.id).length;
    world.discord.deleteChannel(post!.id);
    world.eventor.dataset.correctResult(event.id, clubRunner, { status: 'MissingPunch' });
    tick();
    const gone = await runResultsFeed(options(guildId, channelId));
    expect(gone.threads?.find((o) => o.itemKey === itemKey())?.kind).toBe('waiting');
    tick();
    const reopened = await runResultsFeed(options(guildId, channelId));
    expect(reopened.threads?.find((o) => o.itemKey === itemKey())).toMatchObject({
      kind: 'opened',
      threadId: post!.id,
    });
    expect(world.discord.messages(post!.id)).toHaveLength(pages);

    // Someone deletes the post itself: the feed posts it anew, and the new post gets a thread.
    await world.bot.client.rest.delete(`/channels/${channelId}/messages/${post!.id}`);
    world.eventor.dataset.correctResult(event.id, clubRunner, { status: 'OK' });
    tick();
    const reposted = await runResultsFeed(options(guildId, channelId));
    expect(reposted.outcomes.find((o) => o.itemKey === itemKey())?.outcome.kind).toBe('reposted');
    const [fresh] = world.discord.messages(channelId);
    expect(reposted.threads?.find((o) => o.itemKey === itemKey())).toMatchObject({
      kind: 'opened',
      threadId: fresh!.id,
    });
    expect(world.discord.messages(fresh!.id)).toHaveLength(pages);
  });

  it('threads off: posts get no thread', async () => {
    const { guildId, channelId } = await freshFeed('av');
    const run = await runResultsFeed(options(guildId, channelId, { options: { threads: false } }));
    expect(run.threads).toBeUndefined();
    expect(world.discord.messages(channelId)).toHaveLength(1);
    expect(threadsOf(channelId)).toHaveLength(0);
    expect(await ledger.rows(guildId, RESULTS_THREADS_FEED)).toHaveLength(0);
  });

  describe('/feeds threads', () => {
    const run = (options: Record<string, string>, locale = 'en-GB'): InteractionHandle =>
      world.discord.runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.admin,
        locale,
        name: 'feeds',
        subcommand: options['sub'] ?? 'threads',
        options: Object.fromEntries(Object.entries(options).filter(([k]) => k !== 'sub')),
      });
    const text = async (handle: InteractionHandle): Promise<string> => {
      const reply = await handle.reply(WAIT);
      expect(reply.ephemeral).toBe(true);
      return renderMessageText(reply);
    };
    const threadsOn = async (): Promise<boolean> =>
      (await new KindSettings(world.bot.store).get<ResultsOptions>(world.guild.id, 'results')).options.threads;

    it('is registered with on and off, and refuses members without Manage Server', async () => {
      const command = world.discord.commands({ guildId: world.guild.id }).find((c) => c.name === 'feeds');
      const sub = command?.options?.find((o) => o.name === 'threads');
      expect(sub?.name_localizations?.['sv-SE']).toBe('trådar');
      expect(sub?.options?.[0]?.choices?.map((c) => c.value)).toEqual(['on', 'off']);
      const refused = world.discord.runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'feeds',
        subcommand: 'threads',
        options: { state: 'on' },
        bypassCommandPermissions: true,
      });
      expect(await text(refused)).toContain('Only members with the Manage Server permission');
      expect(await threadsOn()).toBe(false);
    });

    it('on checks that the bot can open threads in the results channel and says what is missing', async () => {
      const channel = world.discord.createTextChannel(world.guild.id, { name: 'resultat-kommando' });
      expect(await text(run({ sub: 'on', kind: 'results', channel: channel.id }))).toContain('Results: on');
      world.discord.world.setBotPermission(channel.id, CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS, false);
      expect(await text(run({ state: 'on' }))).toContain(
        `I cannot open threads in <#${channel.id}>: I am missing the permission Create Public Threads, Send Messages in Threads there.`,
      );
      expect(await text(run({ state: 'on' }, 'sv-SE'))).toContain(
        'jag saknar behörigheten Skapa offentliga trådar, Skicka meddelanden i trådar',
      );
      expect(await threadsOn()).toBe(false);

      world.discord.world.setBotPermission(channel.id, SEND_MESSAGES_IN_THREADS, true);
      expect(await text(run({ state: 'on' }))).toContain('missing the permission Create Public Threads there');
      world.discord.world.setBotPermission(channel.id, CREATE_PUBLIC_THREADS, true);
      expect(await text(run({ state: 'on' }))).toContain(`every new results post in <#${channel.id}> gets a thread`);
      expect(await threadsOn()).toBe(true);
      expect(await text(run({ sub: 'show' }))).toContain('Threads: on');

      // Shown when the permission goes away later.
      world.discord.world.setBotPermission(channel.id, CREATE_PUBLIC_THREADS, false);
      expect(await text(run({ sub: 'show' }))).toContain(
        'Threads: on · cannot open threads: missing Create Public Threads',
      );
      expect(await text(run({ sub: 'show' }, 'sv-SE'))).toContain(
        'Trådar: på · kan inte öppna trådar: saknar Skapa offentliga trådar',
      );
      world.discord.world.setBotPermission(channel.id, CREATE_PUBLIC_THREADS, true);

      expect(await text(run({ state: 'off' }, 'sv-SE'))).toContain('Resultat: inga fler trådar.');
      expect(await threadsOn()).toBe(false);
      expect(await text(run({ sub: 'show' }))).toContain('Threads: off');
    });
  });
});
