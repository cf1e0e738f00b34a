/**
 * Split pictures in the results thread and the result DM, through the real parts: the sandbox Eventor (complete
 * results with split times), the real discord.js client uploading multipart to the sandbox Discord,
 * real SQLite. The pictures are decoded with @napi-rs/canvas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger, type LedgerRow } from '../../src/feeds/delivery/ledger.js';
import { contentHash } from '../../src/feeds/delivery/keys.js';
import { discordTarget, newNonce, payloadToJson, Poster, type PostTarget } from '../../src/feeds/delivery/poster.js';
import { RESULTS_THREADS_FEED } from '../../src/feeds/kinds/results/threads.js';
import { type PersonalRunOptions, runPersonalNotifications } from '../../src/feeds/kinds/personal/personal.js';
import { RESULTS_FEED, type ResultsFeedOptions, runResultsFeed } from '../../src/feeds/kinds/results/results.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { Subscriptions } from '../../src/feeds/subscriptions.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import type { MessagePayload } from '../../src/render/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type FeedWorld, startFeedWorld } from '../support/feed-world.js';
import { clubFinisherId, recentClubResultsEvent } from '../support/sandbox-events.js';
import { decodePng } from '../support/png.js';
import { testNow } from '../support/clock.js';
import { canDrawGraph } from '../../src/charts/index.js';
import { analyseResultList } from '../../src/splits/result-list.js';

const MINUTE = 60_000;

describe('split graphs in the results thread (sandbox Eventor, real discord.js, sandbox Discord, real SQLite)', () => {
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
  const newClient = (): EventorClient =>
    new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
      timeoutMs: 10_000,
    });
  const options = (guildId: string, channelId: string): ResultsFeedOptions => ({
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
  });
  const setResults = (has: boolean): void => {
    event.hasResults = has;
    event.materialized = null;
  };
  const itemKey = (): string => `${RESULTS_FEED}:${event.id}`;
  /** A server of its own (ledger-wise) whose feed started before the event's results were out. */
  const freshFeed = async (name: string, canAttach = true): Promise<{ guildId: string; channelId: string }> => {
    const channelId = world.discord.createTextChannel(world.guild.id, { name }).id;
    if (!canAttach) world.discord.setBotCanAttach(channelId, false);
    const guildId = `pictures-${name}`;
    client = newClient();
    setResults(false);
    expect((await runResultsFeed(options(guildId, channelId))).seeded).toBe(true);
    setResults(true);
    tick();
    return { guildId, channelId };
  };
  const graphRows = async (guildId: string): Promise<LedgerRow[]> =>
    (await ledger.rows(guildId, RESULTS_THREADS_FEED)).filter((row) => row.itemKey.startsWith(`${itemKey()}:graph:`));
  /** Requests for the event's complete results (the club's own list is `/results/organisation`). */
  const completeResultRequests = (): number =>
    world.eventor.requests.filter((r) => r.path === '/api/results/event' && r.query['eventId'] === event.id).length;
  /**
   * The classes of the event with a club runner on a course that gets a graph by the pictures' one
   * rule (`canDrawGraph`: split times, enough runners): one graph each.
   */
  const classesWithClubSplits = (): string[] => {
    const home = world.eventor.dataset.homeClub.id;
    return analyseResultList(world.eventor.dataset.details(event).resultList!).flatMap((group) =>
      group.courses
        .filter((course) => canDrawGraph(course) && course.results.some((r) => r.organisationId === home))
        .map(() => group.class),
    );
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    client = newClient();
    ledger = new Ledger(world.bot.store);
    target = discordTarget(world.bot.client);
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 13, hide: false, graphable: true });
    // In a class that gets a graph: a correction of theirs changes a picture.
    clubRunner = clubFinisherId(world.eventor, event, { graphable: true });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('posts one graph per class with club runners after the pages, and a rerun changes nothing', async () => {
    const { guildId, channelId } = await freshFeed('bilder');
    const asked = completeResultRequests();
    const run = await runResultsFeed(options(guildId, channelId));
    const opened = run.threads?.find((o) => o.itemKey === itemKey());
    expect(opened?.kind).toBe('opened');
    const classes = classesWithClubSplits();
    expect(classes.length).toBeGreaterThan(0);
    expect(opened?.kind === 'opened' && opened.graphs).toEqual(classes.map(() => 'posted'));
    expect(completeResultRequests()).toBe(asked + 1);

    const [post] = world.discord.messages(channelId);
    const rows = await graphRows(guildId);
    expect(rows).toHaveLength(classes.length);
    const threadMessages = world.discord.messages(post!.id);
    // The graphs follow the pages.
    expect(threadMessages.slice(-rows.length).map((m) => m.id)).toEqual(rows.map((r) => r.messageId));
    for (const row of rows) {
      const message = world.discord.message(row.messageId!)!;
      const [file, ...more] = world.discord.attachments(row.messageId!);
      expect(more).toHaveLength(0);
      expect(file!.contentType).toBe('image/png');
      expect(file!.description).toMatch(/\S/);
      const picture = await decodePng(file!.bytes);
      expect(picture.width).toBeGreaterThanOrEqual(900);
      expect(picture.height).toBeGreaterThan(300);
      expect(picture.ink).toBeGreaterThan(picture.width * 10);
      // The embed shows the file, with the analysis in words under the class's title.
      const embed = message.embeds[0]!;
      expect(embed.image?.url).toBe(message.attachments[0]!.url);
      expect(classes.some((c) => embed.title?.includes(c))).toBe(true);
      expect(embed.description).toMatch(/\*\*.+\*\*: /);
    }

    tick();
    const again = await runResultsFeed(options(guildId, channelId));
    const synced = again.threads?.find((o) => o.itemKey === itemKey());
    expect(synced).toMatchObject({ kind: 'synced', graphs: [] });
    // Nothing changed: the complete results were not asked for again, nothing was sent or edited.
    expect(completeResultRequests()).toBe(asked + 1);
    expect(world.discord.messages(post!.id).map((m) => m.id)).toEqual(threadMessages.map((m) => m.id));
    expect(world.discord.messages(post!.id).every((m) => m.edits.length === 0)).toBe(true);
  });

  it('a correction edits the graph message with a new picture: same message, new bytes, the old file gone', async () => {
    const { guildId, channelId } = await freshFeed('rattelse');
    await runResultsFeed(options(guildId, channelId));
    const home = world.eventor.dataset.homeClub.id;
    const runnerClass = world.eventor.dataset
      .details(event)
      .resultList!.classes.find((c) => c.persons.some((p) => p.person?.id === clubRunner))!;
    expect(runnerClass.persons.some((p) => p.organisation?.id === home)).toBe(true);
    const rows = await graphRows(guildId);
    const row = rows.find((r) =>
      world.discord.message(r.messageId!)!.embeds[0]!.title?.includes(runnerClass.class.name),
    );
    expect(row).toBeDefined();
    const [before] = world.discord.attachments(row!.messageId!);
    const threadCount = world.discord.messages(world.discord.messages(channelId)[0]!.id).length;

    // The club runner's time corrected: a later finish changes their line in the graph.
    const time = runnerClass.persons.find((p) => p.person?.id === clubRunner)!.results[0]!.time!;
    world.eventor.dataset.correctResult(event.id, clubRunner, { time: time + 95 });
    tick();
    const run = await runResultsFeed(options(guildId, channelId));
    const synced = run.threads?.find((o) => o.itemKey === itemKey());
    expect(synced?.kind === 'synced' && synced.graphs).toContain('edited');

    const message = world.discord.message(row!.messageId!)!;
    expect(message.edits.length).toBeGreaterThanOrEqual(1);
    const after = world.discord.attachments(row!.messageId!);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before!.id);
    expect(after[0]!.bytes.equals(before!.bytes)).toBe(false);
    expect((await decodePng(after[0]!.bytes)).ink).toBeGreaterThan(0);
    expect(message.embeds[0]!.image?.url).toBe(message.attachments[0]!.url);
    // No second message anywhere.
    expect((await graphRows(guildId)).map((r) => r.messageId)).toEqual(rows.map((r) => r.messageId));
    expect(world.discord.messages(world.discord.messages(channelId)[0]!.id)).toHaveLength(threadCount);
    expect(world.discord.messages(channelId)).toHaveLength(1);

    world.eventor.dataset.correctResult(event.id, clubRunner, { time });
    tick();
    await runResultsFeed(options(guildId, channelId));
  });

  it('a post with pictures begun and not recorded is finished from the intent, with the same pictures, once', async () => {
    const channelId = world.discord.createTextChannel(world.guild.id, { name: 'avbrutet' }).id;
    const guildId = 'pictures-crash';
    const bytes = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 9)]);
    const payload: MessagePayload = {
      embeds: [{ title: 'H21', image: { url: 'attachment://splits.png' } }],
      allowedMentions: { parse: [] },
      pictures: [{ name: 'splits.png', data: new Uint8Array(bytes), description: 'Split graph of H21' }],
    };
    const item = (itemKey: string) => ({
      guildId,
      feed: 'pictures',
      itemKey,
      channelId,
      payload,
      contentHash: contentHash(payload),
    });
    await ledger.seed(guildId, 'pictures', channelId, []);

    // Killed before Discord was asked: the intent alone, with the pictures in it.
    await ledger.intend(item('never-sent'), channelId, contentHash(payload), newNonce(), payloadToJson(payload));
    // Killed after Discord made the message, before it was recorded.
    const crashing = new Poster(ledger, target, {
      afterSend: () => {
        throw new Error('process killed');
      },
    });
    await expect(crashing.publishCovering(item('made'), [])).rejects.toThrow('process killed');
    expect(world.discord.messages(channelId)).toHaveLength(1);

    const finished = await new Poster(ledger, target).finishUnfinished(guildId, 'pictures', new Set(), channelId);
    expect(finished.map((f) => `${f.itemKey}=${f.outcome.kind}`).sort()).toEqual([
      'made=recovered',
      'never-sent=posted',
    ]);
    const messages = world.discord.messages(channelId);
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      const [file, ...more] = world.discord.attachments(message.id);
      expect(more).toHaveLength(0);
      expect(file!.bytes.equals(bytes)).toBe(true);
      expect(file!.description).toBe('Split graph of H21');
      expect(message.embeds[0]!.image?.url).toBe(message.attachments[0]!.url);
    }
    expect(await ledger.unfinished(guildId, 'pictures')).toEqual([]);
    expect((await ledger.get(item('never-sent')))?.pendingPayload).toBeNull();
  });

  it('without Attach Files the thread gets the analysis as text, the feed does not pause, and the pictures come back', async () => {
    const { guildId, channelId } = await freshFeed('utan-bilder', false);
    const run = await runResultsFeed(options(guildId, channelId));
    expect(run.paused).toBeNull();
    const opened = run.threads?.find((o) => o.itemKey === itemKey());
    expect(opened).toMatchObject({ kind: 'opened', picturesRefused: true });
    const rows = await graphRows(guildId);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.state).toBe('posted');
      const message = world.discord.message(row.messageId!)!;
      expect(message.attachments).toHaveLength(0);
      expect(message.embeds[0]!.image ?? null).toBeNull();
      expect(message.embeds[0]!.description).toMatch(/\*\*.+\*\*: /);
    }

    // Granted: the next change brings the pictures.
    world.discord.setBotCanAttach(channelId, true);
    const time = world.eventor.dataset
      .details(event)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === clubRunner)!.results[0]!.time!;
    world.eventor.dataset.correctResult(event.id, clubRunner, { time: time + 60 });
    tick();
    const later = await runResultsFeed(options(guildId, channelId));
    const synced = later.threads?.find((o) => o.itemKey === itemKey());
    expect(synced?.kind).toBe('synced');
    expect(synced && 'picturesRefused' in synced).toBe(false);
    const pictured = (await graphRows(guildId)).filter((row) => world.discord.attachments(row.messageId!).length === 1);
    expect(pictured.length).toBeGreaterThan(0);
    world.eventor.dataset.correctResult(event.id, clubRunner, { time });
  });
});

describe('split pictures in the "your result is in" DM (sandbox Eventor, real discord.js, sandbox Discord DMs, real SQLite)', () => {
  let feed: FeedWorld;
  let clock = testNow();
  let event: SandboxEvent;
  let finisher: string;

  const tick = (ms = 6 * MINUTE): void => {
    clock = new Date(clock.getTime() + ms);
  };
  const options = (): PersonalRunOptions => ({
    guildId: feed.world.guild.id,
    client: feed.client,
    organisationId: feed.home,
    ledger: feed.ledger,
    target: feed.target,
    now: clock,
    language: 'en',
    timeZone: 'Europe/Stockholm',
    store: feed.world.bot.store,
    discord: feed.world.bot.client,
  });
  const completeResultRequests = (): number =>
    feed.world.eventor.requests.filter((r) => r.path === '/api/results/event' && r.query['eventId'] === event.id)
      .length;
  const resultOf = () =>
    feed.world.eventor.dataset
      .details(event)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === finisher)!.results[0]!;

  beforeAll(async () => {
    feed = await startFeedWorld(() => clock);
    // A runner in a class large enough for a graph: alone in her class, she would be her own
    // reference, drawn as a flat line at 0:00 that no correction of her time can change.
    event = recentClubResultsEvent(feed.world.eventor, clock.getTime(), {
      maxAgeDays: 6,
      hide: false,
      graphable: true,
    });
    finisher = clubFinisherId(feed.world.eventor, event, { graphable: true });
    event.hasResults = false;
    event.materialized = null;
    await feed.world.bot.store.links.linkPerson(feed.world.guild.id, feed.world.member.id, finisher, 'credentials');
    await new Subscriptions(feed.world.bot.store).set(
      feed.world.guild.id,
      feed.world.member.id,
      { results: true },
      'en-GB',
    );
  }, 60_000);
  afterAll(async () => {
    await feed?.world.close();
  });

  it('carries the runner graph and lost-time bars with the analysis in words, replaced on a correction', async () => {
    const member = feed.world.member;
    expect((await runPersonalNotifications(options())).seeded).toHaveLength(1);
    event.hasResults = true;
    event.materialized = null;
    tick();
    const asked = completeResultRequests();
    const run = await runPersonalNotifications(options());
    expect(run.outcomes.map((o) => o.outcome.kind)).toEqual(['posted']);
    expect(completeResultRequests()).toBe(asked + 1);

    const dm = feed.world.discord.dms(member).at(-1)!;
    const files = feed.world.discord.attachments(dm.id);
    expect(files.map((f) => f.name)).toEqual(['splits.png', 'lost.png']);
    for (const file of files) {
      expect(file.description).toMatch(/\S/);
      const picture = await decodePng(file.bytes);
      expect(picture.width).toBeGreaterThanOrEqual(900);
      expect(picture.ink).toBeGreaterThan(picture.width * 10);
    }
    // The result embed shows the graph; a second one the bars, with the analysis in words.
    expect(dm.embeds[0]!.image?.url).toBe(dm.attachments[0]!.url);
    expect(dm.embeds[0]!.fields?.some((f) => f.name === 'Time')).toBe(true);
    expect(dm.embeds[1]!.image?.url).toBe(dm.attachments[1]!.url);
    expect(dm.embeds[1]!.description).toMatch(/mistakes|too few runners/);

    tick();
    const again = await runPersonalNotifications(options());
    expect(again.outcomes.map((o) => o.outcome.kind)).toEqual(['unchanged']);
    expect(completeResultRequests()).toBe(asked + 1);

    // The graph shows her time behind the class's best at each control: 95 seconds more on the
    // last leg moves her line's end, so the picture must be drawn again.
    const time = resultOf().time!;
    feed.world.eventor.dataset.correctResult(event.id, finisher, { time: time + 95 });
    tick();
    const corrected = await runPersonalNotifications(options());
    expect(corrected.outcomes.map((o) => o.outcome.kind)).toEqual(['edited']);
    const edited = feed.world.discord.dms(member).at(-1)!;
    expect(edited.id).toBe(dm.id);
    const after = feed.world.discord.attachments(dm.id);
    expect(after.map((f) => f.name)).toEqual(['splits.png', 'lost.png']);
    expect(after.map((f) => f.id)).not.toContain(files[0]!.id);
    expect(after[0]!.bytes.equals(files[0]!.bytes)).toBe(false);
    expect(feed.world.discord.dms(member).filter((m) => m.attachments.length > 0)).toHaveLength(1);
  });
});

describe('no Attach Files in the results channel, through the scheduler (one admin notice, the feed runs on)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-24T08:00:00Z');
  let settings: KindSettings;
  let channelId: string;
  let adminChannelId: string;
  let event: SandboxEvent;
  let runnerId: string;
  const guildId = (): string => world.guild.id;
  const tick = async (): Promise<void> => {
    clock = new Date(clock.getTime() + 60 * MINUTE);
    await world.bot.scheduler.tick(clock);
  };
  /** A correction of the club runner's time: the results post, its thread and its graph change. */
  const correct = (): void => {
    const result = world.eventor.dataset
      .details(event)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === runnerId)!.results[0]!;
    world.eventor.dataset.correctResult(event.id, runnerId, { time: result.time! + 30 });
  };
  const graphMessages = () => {
    const [post] = world.discord.messages(channelId);
    return world.discord.messages(post!.id).filter((m) => m.embeds[0]?.title?.startsWith('Sträcktider'));
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    settings = new KindSettings(world.bot.store, () => clock);
    channelId = world.discord.createTextChannel(guildId(), { name: 'resultat' }).id;
    adminChannelId = world.discord.createTextChannel(guildId(), { name: 'styrelsen' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'results', channelId);
    await world.bot.store.servers.setChannel(guildId(), 'admin', adminChannelId);
    await world.bot.store.servers.updateGuildSettings(guildId(), { locale: 'sv', timeZone: 'Europe/Stockholm' });
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 6, hide: false, graphable: true });
    runnerId = clubFinisherId(world.eventor, event, { graphable: true });
    event.hasResults = false;
    event.materialized = null;
    world.discord.setBotCanAttach(channelId, false);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('posts the analysis as text, tells the admins once, and the pictures come back once granted', async () => {
    await settings.update(guildId(), 'results', { enabled: true, options: { threads: true } });
    await tick();
    event.hasResults = true;
    event.materialized = null;
    await tick();
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();
    expect(world.discord.messages(channelId)).toHaveLength(1);
    const graphs = graphMessages();
    expect(graphs.length).toBeGreaterThan(0);
    expect(graphs.every((m) => m.attachments.length === 0 && m.embeds[0]!.description)).toBe(true);
    const notices = world.discord.messages(adminChannelId);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toContain('Bifoga filer');
    expect(notices[0]!.content).toContain(`<#${channelId}>`);

    // Corrected twice while still refused: the text is edited, no second notice.
    correct();
    await tick();
    correct();
    await tick();
    expect(graphMessages().some((m) => m.edits.length > 0)).toBe(true);
    expect(world.discord.messages(adminChannelId)).toHaveLength(1);
    expect((await settings.get(guildId(), 'results')).pausedReason).toBeNull();

    // Granted: the next correction brings the pictures back, without a notice.
    world.discord.setBotCanAttach(channelId, true);
    correct();
    await tick();
    expect(graphMessages().some((m) => m.attachments.length === 1)).toBe(true);
    expect(world.discord.messages(adminChannelId)).toHaveLength(1);

    // Taken away again later: that is news again, told once more.
    world.discord.setBotCanAttach(channelId, false);
    correct();
    await tick();
    expect(world.discord.messages(adminChannelId)).toHaveLength(2);
  });
});
