/**
 * Race day, live (docs/live-results.md#race-day-in-discord), end to end: the real bot (discord.js,
 * the store, the scheduler and the live pollers) against the sandbox Discord, the sandbox Eventor
 * and the sandbox LiveResultat, all on one clock the test moves through a race of the sandbox from
 * before its first start. The admins turn the kind on in `/feeds`; the matching run finds the race's
 * competition; one board grows in the channel, edited as the club's runners start, pass the radio
 * controls and finish; each finish gets one message; a member who wants it gets one DM about their
 * own person; `/live show` answers privately with the same board; a second process and a restarted
 * one post nothing twice; and once Eventor's results are posted the board says final, links them,
 * and LiveResultat is asked no more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { renderMessageText, type SandboxChannel } from '../../harness/sandbox/discord/index.js';
import type { LiveCompetitionRecord, LiveRaceRecord } from '../../harness/sandbox/liveresultat/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { LiveReads } from '../../src/feeds/kinds/live/access.js';
import { LivePoller } from '../../src/feeds/kinds/live/poller.js';
import { createLiveSources, LiveClient } from '../../src/live/client.js';
import { createLogger } from '../../src/log/logger.js';
import { testNow } from '../support/clock.js';
import { clubRace, raceSpan } from '../support/live-world.js';

const WAIT = { timeoutMs: 15_000 };
const SECOND = 1_000;
const MINUTE = 60_000;

describe('the live board of a race (real discord.js, sandbox Discord, Eventor and LiveResultat)', () => {
  let clock = testNow().getTime();
  const now = () => new Date(clock);
  let world: LoopbackWorld;
  let board: SandboxChannel;
  let results: SandboxChannel;
  let competition: LiveCompetitionRecord;
  let race: LiveRaceRecord;
  let event: SandboxEvent;
  let span: { firstStart: number; lastFinalAt: number };
  /** The member's own linked person, a club runner of the race who finishes. */
  let personId: string;
  let personName: string;

  const command = (name: string, subcommand: string, options: Record<string, string> = {}, user = world.admin) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        locale: 'en-GB',
        name,
        subcommand,
        options,
      })
      .reply(WAIT);
  const boards = () => world.discord.messages(board.id).filter((m) => m.embeds.length > 0);
  const finishes = () => world.discord.messages(board.id).filter((m) => m.embeds.length === 0);
  const turn = () => world.bot.live!.turn(now());
  /** The board's counts, in English (a member's `/live`) or Swedish (the server's language, the channel's board). */
  const counts = (text: string) => {
    const m = /(?:Out|Ute): (\d+) · (?:Home|I mål): (\d+) · (?:To start|Kvar att starta): (\d+)/.exec(text);
    if (m === null) throw new Error(`no counts in ${text.slice(0, 300)}`);
    return { out: Number(m[1]), home: Number(m[2]), waiting: Number(m[3]) };
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now, live: {}, eventorFollowsClock: true });
    const live = world.live!;
    const dataset = world.eventor.dataset;
    ({ competition, race } = clubRace({
      dataset,
      live,
      homeClub: dataset.homeClub.organisation.shortName ?? dataset.homeClub.name,
    }));
    span = raceSpan(race);
    event = dataset.event(competition.eventId!)!;
    // Race morning: the start list is out, the results are not.
    event.hasStartList = true;
    event.hasResults = false;
    event.materialized = null;
    const home = dataset.homeClub.organisation.shortName ?? dataset.homeClub.name;
    const runner = race.classes
      .flatMap((c) => c.runners)
      .find((r) => r.club === home && !r.ghost && r.personId !== null && r.final?.status === 0 && r.start !== null)!;
    personId = runner.personId!;
    personName = runner.name;
    clock = span.firstStart - 30 * MINUTE;
    board = world.discord.createTextChannel(world.guild.id, { name: 'live' });
    results = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('is turned on in /feeds, finish messages too, and the race is matched to its competition', async () => {
    expect(renderMessageText(await command('feeds', 'on', { kind: 'live', channel: board.id }))).toContain(
      `<#${board.id}>`,
    );
    expect(renderMessageText(await command('feeds', 'live', { finishes: 'on' }))).toContain('finish messages on');
    await command('feeds', 'on', { kind: 'results', channel: results.id });
    // A member wants the DM about their own person.
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, personId, 'credentials');
    const notify = await command('notify', 'on', { what: 'live' }, world.member);
    expect(renderMessageText(notify)).toContain('Live finish on race day: on');

    await world.bot.scheduler.tick(now(), { force: true });
    const rows = await world.bot.store.live.races(world.guild.id, competition.date, competition.date);
    const row = rows.find((r) => r.eventId === event.id)!;
    expect(row).toMatchObject({ competitionId: competition.id, finalAt: null });
    expect(['search', 'link']).toContain(row.how);
    expect(renderMessageText(await command('feeds', 'show'))).toContain(`competition ${competition.id}`);
    // Nothing was offered to the admins: the match is confident.
    expect(world.discord.messages(board.id)).toHaveLength(0);
  });

  it('posts one board before the first start, and asks LiveResultat rarely until the club starts', async () => {
    const first = await turn();
    expect(first.polled).toEqual([competition.id]);
    expect(boards()).toHaveLength(1);
    const text = renderMessageText(boards()[0]!);
    expect(text).toContain(competition.name);
    expect(counts(text)).toMatchObject({ out: 0, home: 0 });
    expect(counts(text).waiting).toBeGreaterThan(3);
    // Before the first start (more than 5 minutes ahead): no second request in the next minutes.
    clock += 5 * MINUTE;
    expect((await turn()).polled).toEqual([]);
    expect(boards()[0]!.edits).toHaveLength(0);
  });

  it('grows as the race goes: edited, never posted again, no more than one request per path in 10 s', async () => {
    const live = world.live!;
    const seenOut: number[] = [];
    let step = 0;
    // Every 5 s for the first quarter of an hour of the race, then every minute: bounded by the race's end.
    const end = span.lastFinalAt + 2 * MINUTE;
    const perPath = new Map<string, number[]>();
    while (clock < end && step < 2_000) {
      step++;
      clock =
        Math.max(clock, span.firstStart - 4 * MINUTE) + (clock < span.firstStart + 15 * MINUTE ? 5 * SECOND : MINUTE);
      const before = live.requests.length;
      await turn();
      for (const request of live.requests.slice(before)) {
        const path = `${request.api} ${request.key} ${JSON.stringify(request.query)}`;
        const times = perPath.get(path) ?? [];
        times.push(clock);
        perPath.set(path, times);
      }
      const text = renderMessageText(boards()[0]!);
      seenOut.push(counts(text).out);
    }
    expect(step).toBeLessThan(2_000);
    // One board, edited as it grew; coalesced: never more than four edits a minute.
    expect(boards()).toHaveLength(1);
    const message = boards()[0]!;
    expect(message.edits.length).toBeGreaterThan(5);
    expect(Math.max(...seenOut)).toBeGreaterThan(0);
    const text = renderMessageText(message);
    expect(counts(text)).toMatchObject({ out: 0, waiting: 0 });
    expect(counts(text).home).toBeGreaterThan(3);
    // An MP or a DNF among the club's runners, as the sandbox race has one (in the server's language, Swedish).
    expect(text).toMatch(/\*\*(Felst\.|Utg\.|Disk\.)\*\*/);
    for (const [path, times] of perPath)
      for (let i = 1; i < times.length; i++)
        expect(times[i]! - times[i - 1]!, path).toBeGreaterThanOrEqual(10 * SECOND);
    // Conditional requests: most of the hot polling is answered 304.
    expect(live.requests.some((r) => r.status === 304)).toBe(true);
  });

  it('posts each finish of a club runner once, and the member one DM about their own person', async () => {
    const messages = finishes();
    expect(messages.length).toBeGreaterThan(3);
    const texts = messages.map((m) => m.content.split('\n')[0]);
    expect(new Set(texts).size).toBe(texts.length);
    const dms = world.discord.dms(world.member).filter((m) => m.content.includes('finished'));
    expect(dms).toHaveLength(1);
    expect(dms[0]!.content).toContain(competition.name.split(' ')[0]!);
    // The place the board ends with, in the DM: edited as later finishers moved it, never sent again.
    const line = renderMessageText(boards()[0]!)
      .split('\n')
      .find((l) => l.includes(personName))!;
    const place = /\*\*(\d+)\.\*\*/.exec(line)?.[1];
    expect(place, line).toBeDefined();
    expect(dms[0]!.content).toMatch(new RegExp(`: ${place}(st|nd|rd|th), `));
    // Nobody else's DMs.
    expect(world.discord.dms(world.swedishMember)).toHaveLength(0);
  });

  it('/live show answers privately with the same board', async () => {
    const reply = await command('live', 'show', {}, world.swedishMember);
    expect(reply.ephemeral).toBe(true);
    expect(reply.embeds[0]!.title).toBe(boards()[0]!.embeds[0]!.title);
    // The member's language (English), the channel's (Swedish): the same counts.
    expect(counts(renderMessageText(reply))).toEqual(counts(renderMessageText(boards()[0]!)));
  });

  it('a second process and a restarted one post nothing twice', async () => {
    const before = { messages: world.discord.messages(board.id).length, dms: world.discord.dms(world.member).length };
    const edits = boards()[0]!.edits.length;
    const process2 = otherProcess(world, now);
    const other = process2.poller;
    clock += MINUTE;
    // The bot's poller holds the competition's lease: the other asks nothing and posts nothing.
    expect((await other.turn(now())).polled).toEqual([]);
    // The bot's poller stops (its lease given back), as a process shutting down: the other takes over,
    // with nothing in memory of what was shown, and finds it all in the ledger.
    await world.bot.live!.stop();
    clock += MINUTE;
    const taken = await other.turn(now());
    expect(taken.posts).toBe(0);
    expect(taken.dms).toBe(0);
    expect(world.discord.messages(board.id)).toHaveLength(before.messages);
    expect(world.discord.dms(world.member)).toHaveLength(before.dms);
    expect(boards()[0]!.edits.length).toBeLessThanOrEqual(edits + 1);
    await process2.close();
  });

  it("turns final once Eventor's results are posted, links them, and stops asking LiveResultat", async () => {
    const live = world.live!;
    event.hasResults = true;
    event.materialized = null;
    clock += 5 * MINUTE;
    await world.bot.scheduler.tick(now(), { force: true });
    const posted = world.discord.messages(results.id);
    expect(posted.length).toBeGreaterThanOrEqual(1);
    const row = (await world.bot.store.live.races(world.guild.id, competition.date, competition.date)).find(
      (r) => r.eventId === event.id,
    )!;
    expect(row.finalAt).not.toBeNull();
    expect(row.resultsUrl).toContain(`/channels/${world.guild.id}/${results.id}/`);

    const process3 = otherProcess(world, now);
    const poller = process3.poller;
    clock += MINUTE;
    const requests = live.requests.length;
    const final = await poller.turn(now());
    expect(final.polled).toEqual([]);
    const text = renderMessageText(boards()[0]!);
    expect(text).toContain('Slutligt');
    expect(text).toContain('Officiella resultat');
    expect(boards()).toHaveLength(1);
    // Final is final: later turns change nothing and ask nothing.
    const edits = boards()[0]!.edits.length;
    for (let i = 0; i < 5; i++) {
      clock += MINUTE;
      await poller.turn(now());
    }
    expect(boards()[0]!.edits).toHaveLength(edits);
    expect(live.requests.length).toBe(requests);
    await process3.close();
  });
});

/**
 * The pollers of another process of the same bot: its own LiveResultat client on the operator's
 * addresses, the same store and Discord. `close` stops it and closes its connections.
 */
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
