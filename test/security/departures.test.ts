/**
 * Members who leave a server, and servers that remove the bot. Everything end to
 * end: the real bot (discord.js over a real WebSocket) against the sandbox Discord, the real Eventor
 * client against the sandbox Eventor, the real SQLite file, a controllable clock.
 */

import { existsSync, readFileSync } from 'node:fs';
import { type Client, DiscordAPIError, Events, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { GUILD_DATA_GRACE_MS } from '../../src/app/departures.js';
import { type RunningBot, startBot } from '../../src/bot/bot.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { Subscriptions } from '../../src/feeds/subscriptions.js';
import { createLogger } from '../../src/log/logger.js';
import {
  loginSandboxClient,
  type SandboxDiscord,
  type SandboxGuild,
  type SandboxUser,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { clubFinisherId, recentClubResultsEvent } from '../support/sandbox-events.js';
import { eventually } from '../support/eventually.js';
import { guildRows, worldSql } from '../support/world-store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WAIT = { timeoutMs: 10_000 };
const MEMBER_ROUTE = '/guilds/:guildId/members/:userId';

async function apiError(promise: Promise<unknown>): Promise<DiscordAPIError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DiscordAPIError)) throw new Error(`expected a DiscordAPIError, got ${String(error)}`);
  return error;
}

function showResults(event: SandboxEvent, shown: boolean): void {
  event.hasResults = shown;
  event.materialized = null;
}

describe('the sandbox Discord removes the bot, has outages and loses members as Discord does', () => {
  let sandbox: SandboxDiscord;
  let client: Client | null = null;
  afterAll(async () => {
    await client?.destroy();
    await sandbox?.close();
  });

  it('GUILD_DELETE without unavailable on removal (then 10004 / 50001), with unavailable: true in an outage, 10007 for a member who left', async () => {
    sandbox = await startSandboxDiscord();
    const guild = sandbox.createGuild({ name: 'Club' });
    const channel = sandbox.createTextChannel(guild.id, { name: 'general' });
    const alice = sandbox.createMember(guild.id, { username: 'alice' });
    client = await loginSandboxClient(sandbox);
    const seen: string[] = [];
    client.on(Events.GuildDelete, (g) => void seen.push(`delete ${g.id}`));
    client.on(Events.GuildUnavailable, (g) => void seen.push(`unavailable ${g.id}`));
    client.on(Events.GuildAvailable, (g) => void seen.push(`available ${g.id}`));
    client.on(Events.GuildCreate, (g) => void seen.push(`create ${g.id}`));

    await client.rest.get(Routes.guildMember(guild.id, alice.id));
    sandbox.removeMember(guild.id, alice);
    expect(await apiError(client.rest.get(Routes.guildMember(guild.id, alice.id)))).toMatchObject({
      status: 404,
      code: 10007,
    });

    sandbox.setGuildUnavailable(guild.id);
    await sandbox.waitFor(() => seen.includes(`unavailable ${guild.id}`), { timeoutMs: 5_000 });
    expect(client.guilds.cache.get(guild.id)?.available).toBe(false);
    sandbox.setGuildUnavailable(guild.id, false);
    await sandbox.waitFor(() => seen.includes(`available ${guild.id}`), { timeoutMs: 5_000 });

    sandbox.removeBot(guild.id);
    await sandbox.waitFor(() => seen.includes(`delete ${guild.id}`), { timeoutMs: 5_000 });
    expect(client.guilds.cache.has(guild.id)).toBe(false);
    expect(await apiError(client.rest.get(Routes.guild(guild.id)))).toMatchObject({ status: 404, code: 10004 });
    expect(await apiError(client.rest.get(Routes.guildChannels(guild.id)))).toMatchObject({ status: 403, code: 50001 });
    expect(
      await apiError(client.rest.post(Routes.channelMessages(channel.id), { body: { content: 'hello?' } })),
    ).toMatchObject({ status: 403, code: 50001 });
    expect(sandbox.messages(channel.id)).toEqual([]);

    sandbox.addBot(guild.id);
    await sandbox.waitFor(() => seen.includes(`create ${guild.id}`), { timeoutMs: 5_000 });
    await client.rest.post(Routes.channelMessages(channel.id), { body: { content: 'back' } });
    expect(sandbox.messages(channel.id).map((m) => m.content)).toEqual(['back']);
    expect(seen).toEqual([
      `unavailable ${guild.id}`,
      `available ${guild.id}`,
      `delete ${guild.id}`,
      `create ${guild.id}`,
    ]);
  });
});

describe('members who leave a server (sandbox Discord member lookups, real SQLite)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-20T08:00:00Z');
  let event: SandboxEvent;
  let personId: string;
  let other: SandboxGuild;
  let otherChannel: string;
  /** Linked, with /notify on, a link request waiting; also in `other`, linked there. Leaves the home server. */
  let leaver: SandboxUser;
  const tick = async (ms: number): Promise<void> => {
    clock = new Date(clock.getTime() + ms);
    await world.bot.scheduler.tick(clock);
  };
  const store = () => world.bot.store;
  const subscriptions = () => new Subscriptions(world.bot.store);
  const memberLookups = (guildId: string, userId: string) =>
    world.discord
      .requests()
      .filter(
        (r) => r.method === 'GET' && r.route === MEMBER_ROUTE && r.path === `/guilds/${guildId}/members/${userId}`,
      );

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 3, hide: false });
    personId = clubFinisherId(world.eventor, event);
    showResults(event, false);
    const added = await world.addServer('Same club, second server', { defaultEventor: true });
    other = added.guild;
    otherChannel = added.lobby.id;
    leaver = world.discord.createMember(world.guild.id, {
      username: 'flyttar',
      globalName: 'Flyttar',
      locale: 'en-GB',
    });
    world.discord.addMember(other.id, leaver);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('a member with /notify on who left gets no DM on the next personal run, and is forgotten in that server only', async () => {
    for (const user of [world.member, leaver]) {
      await store().links.linkPerson(world.guild.id, user.id, personId, 'credentials');
      const reply = await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user,
          locale: 'en-GB',
          name: 'notify',
          subcommand: 'on',
        })
        .reply(WAIT);
      expect(reply.ephemeral).toBe(true);
    }
    await store().links.createLinkRequest({
      guildId: world.guild.id,
      userId: leaver.id,
      personId: 'p-child',
      locale: 'en-GB',
    });
    await store().links.linkPerson(other.id, leaver.id, personId, 'credentials');
    await store().links.createLinkRequest({
      guildId: other.id,
      userId: leaver.id,
      personId: 'p-other',
      locale: 'en-GB',
    });
    await world.discord
      .runCommand({
        guildId: other.id,
        channelId: otherChannel,
        user: leaver,
        locale: 'en-GB',
        name: 'notify',
        subcommand: 'on',
      })
      .reply(WAIT);
    const stayerDms = world.discord.dms(world.member).length;
    const leaverDms = world.discord.dms(leaver).length;

    // The first run seeds each member's DMs (nothing to send yet); the daily sweep finds everyone in.
    await tick(MINUTE);
    expect(await store().links.linkedPersons(world.guild.id, leaver.id)).toHaveLength(1);

    // The member leaves the home server (still in `other`, so Discord would deliver a DM).
    world.discord.removeMember(world.guild.id, leaver);
    showResults(event, true);
    // Past the hour a "still a member" answer is believed: the personal run asks Discord again.
    // The daily sweep is not due for another day, so only the personal run can notice.
    const lookupsBefore = memberLookups(world.guild.id, leaver.id).length;
    await tick(2 * HOUR);

    // The run did send: the member who stayed got their result.
    expect(world.discord.dms(world.member).length).toBe(stayerDms + 1);
    // The one who left got nothing from the home server.
    const fromHome = world.discord
      .dms(leaver)
      .slice(leaverDms)
      .filter((dm) => !dm.embeds.some((e) => e.footer?.text?.includes('second server')));
    expect(fromHome).toEqual([]);
    const lookups = memberLookups(world.guild.id, leaver.id).slice(lookupsBefore);
    expect(lookups.map((r) => [r.status, r.code])).toEqual([[404, 10007]]);
    expect(
      world.logLines.some((line) => line.includes('a member left the server') && line.includes('"via":"personal"')),
    ).toBe(true);

    // Forgotten in the home server: links, requests, subscription and its DM ledger.
    expect(await store().links.linkedPersons(world.guild.id, leaver.id)).toEqual([]);
    expect(await store().links.pendingLinkRequests(world.guild.id, leaver.id)).toEqual([]);
    expect(await subscriptions().get(world.guild.id, leaver.id)).toBeNull();
    expect(await subscriptions().personalFeeds(world.guild.id, leaver.id)).toEqual([]);
    expect(
      await worldSql(world, 'SELECT guild_id FROM posted_items WHERE guild_id = ? AND feed LIKE ?', [
        world.guild.id,
        `personal:${leaver.id}:%`,
      ]),
    ).toEqual([]);
    // Kept in the other server, and the member who stayed is untouched.
    expect(await store().links.linkedPersons(other.id, leaver.id)).toHaveLength(1);
    expect(await store().links.pendingLinkRequests(other.id, leaver.id)).toHaveLength(1);
    expect(await subscriptions().get(other.id, leaver.id)).not.toBeNull();
    expect(await store().links.linkedPersons(world.guild.id, world.member.id)).toHaveLength(1);
    expect(await subscriptions().get(world.guild.id, world.member.id)).not.toBeNull();
  });

  it('a linked member without /notify who left is forgotten by the daily sweep; members still there are not', async () => {
    const quietLeaver = world.discord.createMember(world.guild.id, {
      username: 'tyst',
      globalName: 'Tyst',
      locale: 'sv-SE',
    });
    const stillHere = world.discord.createMember(world.guild.id, {
      username: 'kvar',
      globalName: 'Kvar',
      locale: 'sv-SE',
    });
    await store().links.linkPerson(world.guild.id, quietLeaver.id, personId, 'approval');
    await store().links.createLinkRequest({
      guildId: world.guild.id,
      userId: quietLeaver.id,
      personId: 'p-second',
      locale: 'sv-SE',
    });
    await store().links.linkPerson(world.guild.id, stillHere.id, personId, 'approval');
    world.discord.removeMember(world.guild.id, quietLeaver);

    // Not yet a day since the last sweep: nobody is asked about.
    await tick(HOUR);
    expect(memberLookups(world.guild.id, quietLeaver.id)).toEqual([]);
    expect(await store().links.linkedPersons(world.guild.id, quietLeaver.id)).toHaveLength(1);

    await tick(DAY);
    expect(memberLookups(world.guild.id, quietLeaver.id).map((r) => r.code)).toEqual([10007]);
    expect(await store().links.linkedPersons(world.guild.id, quietLeaver.id)).toEqual([]);
    expect(await store().links.pendingLinkRequests(world.guild.id, quietLeaver.id)).toEqual([]);
    expect(
      world.logLines.some(
        (line) =>
          line.includes('a member left the server') && line.includes('"via":"sweep"') && line.includes(quietLeaver.id),
      ),
    ).toBe(true);
    // Asked about, and kept.
    expect(memberLookups(world.guild.id, stillHere.id).map((r) => r.status)).toEqual([200]);
    expect(await store().links.linkedPersons(world.guild.id, stillHere.id)).toHaveLength(1);
    expect(await store().links.linkedPersons(world.guild.id, world.member.id)).toHaveLength(1);
  });

  it('Discord failing (5xx) on the member lookup proves nothing: nobody is forgotten, by the sweep or before a DM', async () => {
    const flaky = world.discord.createMember(world.guild.id, {
      username: 'ostadig',
      globalName: 'Ostadig',
      locale: 'en-GB',
    });
    await store().links.linkPerson(world.guild.id, flaky.id, personId, 'approval');
    const before = await guildRows(world, world.guild.id);
    const dmsBefore = world.discord.dms(world.member);
    const resultDm = dmsBefore.at(-1)!;
    const edits = resultDm.edits.length;
    // A correction gives the subscribed member something to be sent; Discord fails every member lookup.
    world.eventor.dataset.correctResult(event.id, personId, { status: 'MissingPunch' });
    world.discord.faults.serverError({ route: `GET ${MEMBER_ROUTE}`, times: 1_000, status: 503 });
    try {
      await tick(DAY + HOUR);
      const failed = world.discord.requests().filter((r) => r.route === MEMBER_ROUTE && r.status === 503);
      expect(failed.some((r) => r.path.endsWith(`/${flaky.id}`))).toBe(true);
      expect(failed.some((r) => r.path.endsWith(`/${world.member.id}`))).toBe(true);
    } finally {
      world.discord.faults.clear();
    }
    expect((await guildRows(world, world.guild.id)).member_links).toBe(before.member_links);
    expect(await store().links.linkedPersons(world.guild.id, flaky.id)).toHaveLength(1);
    expect(await subscriptions().get(world.guild.id, world.member.id)).not.toBeNull();
    // Not confirmed, so not sent yet (no new DM, no edit)...
    expect(world.discord.dms(world.member)).toHaveLength(dmsBefore.length);
    expect(world.discord.message(resultDm.id)!.edits).toHaveLength(edits);
    // ...and once Discord answers, the next run edits the member's result DM.
    await tick(HOUR);
    expect(world.discord.message(resultDm.id)!.edits).toHaveLength(edits + 1);
    expect(await store().links.linkedPersons(world.guild.id, flaky.id)).toHaveLength(1);
  });
});

describe('servers that remove the bot (gateway GUILD_DELETE, grace period, real SQLite file)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-20T08:00:00Z');
  let event: SandboxEvent;
  let personId: string;
  const restarted: RunningBot[] = [];
  const channels = new Map<string, string>();
  const store = () => world.bot.store;
  const tick = async (ms: number): Promise<void> => {
    clock = new Date(clock.getTime() + ms);
    await world.bot.scheduler.tick(clock);
  };
  const departure = async (guildId: string) =>
    (await store().departures.guildDepartures()).find((d) => d.guildId === guildId) ?? null;

  /** A server of the club with data in every table: its own sealed key, channels, a results feed, links, requests, audit, /notify. */
  const clubServer = async (name: string): Promise<SandboxGuild> => {
    const guild = world.discord.createGuild({ name });
    const channel = world.discord.createTextChannel(guild.id, { name: 'resultat' }).id;
    channels.set(guild.id, channel);
    world.discord.addMember(guild.id, world.member);
    const home = world.eventor.dataset.homeClub;
    await store().servers.connectEventor(guild.id, {
      instance: 'custom',
      baseUrl: world.eventor.baseUrl,
      apiKey: world.eventor.apiKey,
      organisation: { id: home.id, name: home.name },
    });
    await store().servers.updateGuildSettings(guild.id, { locale: 'sv', timeZone: 'Europe/Stockholm' });
    await store().servers.setChannel(guild.id, 'results', channel);
    await new KindSettings(store(), () => clock).update(guild.id, 'results', { enabled: true });
    await store().links.linkPerson(guild.id, world.member.id, personId, 'credentials');
    await store().links.createLinkRequest({
      guildId: guild.id,
      userId: world.member.id,
      personId: 'p-child',
      locale: 'sv-SE',
    });
    await store().links.setLinkingMethods(guild.id, { credentials: false });
    await store().audit.audit({ guildId: guild.id, actorId: world.member.id, personId, action: 'link' });
    await new Subscriptions(store()).set(guild.id, world.member.id, { results: true }, 'sv-SE');
    // A post the bot made there before: the sandbox's data around the clock need not hold older club
    // results for the first run to seed, and every table must hold a row of the server.
    await new Ledger(store()).seed(guild.id, 'results-before', channel, [
      { itemKey: 'an older result', contentHash: 'seen' },
    ]);
    // The club's season as /season keeps it (its events and how far it looked), and a cup.
    await store().season.recordScan(guild.id, home.id, 2026, '2026-06-30', [
      { eventId: '30001', firstDay: '2026-05-09', event: '{}' },
    ]);
    await store().cups.create(guild.id, { name: 'Klubbcupen', nameKey: 'klubbcupen', rules: '{}' }, 10);
    return guild;
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 3, hide: false });
    personId = clubFinisherId(world.eventor, event);
    showResults(event, false);
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'resultat' }).id;
    channels.set(world.guild.id, channel);
    await store().servers.setChannel(world.guild.id, 'results', channel);
    await new KindSettings(store(), () => clock).update(world.guild.id, 'results', { enabled: true });
    await store().links.linkPerson(world.guild.id, world.member.id, personId, 'credentials');
  }, 60_000);
  afterAll(async () => {
    for (const bot of restarted) await bot.stop();
    await world?.close();
  });

  it('removed: the departure is recorded, its feeds stop, and 7 days later every row of it is gone while another server keeps its data', async () => {
    const removed = await clubServer('Removed club server');
    // An admin there chose the live competition of a race (/live link): the server's live row.
    await store().live.choose(
      { guildId: removed.id, eventId: '30001', raceId: '30001', raceDay: '2026-11-18', race: '{}' },
      50001,
    );
    // The first tick seeds both servers' results feeds (posted_items, feed_state).
    await tick(MINUTE);
    const rows = await guildRows(world, removed.id);
    // post_claims holds a row only while a post is in flight (released when recorded), member_sweeps
    // only once the daily sweep has started there: maybe empty here; their deletion is still checked below.
    const sometimes = ['guild_departures', 'post_claims', 'member_sweeps'];
    for (const [table, count] of Object.entries(rows))
      if (!sometimes.includes(table)) expect(count, table).toBeGreaterThan(0);
    const [{ api_key_sealed: sealed }] = (await worldSql(
      world,
      'SELECT api_key_sealed FROM guild_settings WHERE guild_id = ?',
      [removed.id],
    )) as [{ api_key_sealed: string }];

    world.discord.removeBot(removed.id);
    const recorded = await eventually(() => departure(removed.id), {
      ...WAIT,
      description: 'the departure to be recorded',
    });
    expect(recorded.leftAt).toBe(clock.toISOString());
    // Discord now refuses the bot that server (as it does: 10004 for the guild, 50001 inside it).
    await expect(world.bot.client.rest.get(`/guilds/${removed.id}/members/${world.member.id}`)).rejects.toMatchObject({
      status: 403,
      code: 50001,
    });

    // New results: the home server gets its post; the removed one is not even tried.
    const requestsBefore = world.discord.requests().length;
    showResults(event, true);
    await tick(HOUR);
    const homePosts = await world.discord.waitForMessage(
      channels.get(world.guild.id)!,
      (m) => m.embeds.length > 0,
      WAIT,
    );
    expect(homePosts).toBeDefined();
    const afterRemoval = world.discord.requests().slice(requestsBefore);
    expect(
      afterRemoval.filter(
        (r) => r.path.includes(channels.get(removed.id)!) || r.path.includes(`/guilds/${removed.id}`),
      ),
    ).toEqual([]);
    expect(world.discord.messages(channels.get(removed.id)!)).toEqual([]);

    // Within the grace period nothing is deleted.
    clock = new Date(Date.parse(recorded.leftAt) + GUILD_DATA_GRACE_MS - HOUR);
    await tick(0);
    expect((await guildRows(world, removed.id)).member_links).toBeGreaterThan(0);

    // Past it, the daily housekeeping deletes every row of that server, in every table.
    const homeBefore = await guildRows(world, world.guild.id);
    await tick(DAY);
    const gone = await guildRows(world, removed.id);
    expect(
      Object.values(gone).every((n) => n === 0),
      JSON.stringify(gone),
    ).toBe(true);
    expect(await departure(removed.id)).toBeNull();
    // SQLite only: overwritten, not just unlinked, the sealed key is in neither the file nor its WAL
    // (secure_delete). PostgreSQL keeps old row versions until vacuum (docs/operators.md#running-at-scale).
    if (world.databaseUrl === undefined)
      for (const file of [world.databasePath, `${world.databasePath}-wal`]) {
        if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(sealed)), file).toBe(false);
      }
    // The other server keeps all it had.
    const home = await guildRows(world, world.guild.id);
    for (const table of ['member_links', 'feed_settings', 'guild_channels', 'posted_items', 'feed_state']) {
      expect(home[table], table).toBeGreaterThan(0);
      expect(home[table], table).toBeGreaterThanOrEqual(homeBefore[table]!);
    }
  });

  it('removed and invited back within 7 days: the departure is cancelled and nothing is deleted', async () => {
    const returning = await clubServer('Returning club server');
    await tick(MINUTE);
    const before = await guildRows(world, returning.id);
    world.discord.removeBot(returning.id);
    const recorded = await eventually(() => departure(returning.id), {
      ...WAIT,
      description: 'the departure to be recorded',
    });

    clock = new Date(Date.parse(recorded.leftAt) + 3 * DAY);
    world.discord.addBot(returning.id);
    await eventually(async () => (await departure(returning.id)) === null, {
      ...WAIT,
      description: 'the departure to be cancelled',
    });

    clock = new Date(Date.parse(recorded.leftAt) + GUILD_DATA_GRACE_MS + DAY);
    await tick(0);
    await tick(DAY);
    const after = await guildRows(world, returning.id);
    for (const table of [
      'guild_settings',
      'guild_channels',
      'member_links',
      'link_requests',
      'link_settings',
      'audit_log',
      'feed_settings',
      'notify_subscriptions',
    ]) {
      expect(after[table], table).toBe(before[table]);
    }
    expect(await store().servers.apiKey(returning.id)).toBe(world.eventor.apiKey);
  });

  it('an outage (GUILD_DELETE with unavailable: true) records nothing and deletes nothing', async () => {
    const before = await guildRows(world, world.guild.id);
    world.discord.setGuildUnavailable(world.guild.id, true);
    await world.discord.waitFor(() => world.bot.client.guilds.cache.get(world.guild.id)?.available === false, {
      ...WAIT,
      description: 'the guild to be unavailable',
    });
    expect(await departure(world.guild.id)).toBeNull();

    await tick(GUILD_DATA_GRACE_MS + DAY);
    await tick(DAY);
    expect(await departure(world.guild.id)).toBeNull();
    const during = await guildRows(world, world.guild.id);
    expect(during.member_links).toBe(before.member_links);
    expect(during.feed_settings).toBe(before.feed_settings);
    expect(during.guild_channels).toBe(before.guild_channels);

    world.discord.setGuildUnavailable(world.guild.id, false);
    await world.discord.waitFor(() => world.bot.client.guilds.cache.get(world.guild.id)?.available === true, {
      ...WAIT,
      description: 'the guild to be back',
    });
    expect(await departure(world.guild.id)).toBeNull();
  });

  it('removed while the bot was offline: found at READY, but only once Discord lists every server as available', async () => {
    const leftWhileOffline = await clubServer('Left while offline');
    const rejoined = await clubServer('Left and rejoined while offline');
    await world.bot.stop();
    // While the bot is away: one server removes it; another removed it before (recorded) and invites it back.
    world.discord.removeBot(leftWhileOffline.id);
    await worldSql(world, 'INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?)', [
      rejoined.id,
      clock.toISOString(),
    ]);
    // And the home server is in an outage when the bot comes back.
    world.discord.setGuildUnavailable(world.guild.id, true);

    const logLines: string[] = [];
    const bot = await startBot({
      config: world.config,
      log: createLogger({ level: 'debug', write: (line) => void logLines.push(line), now: () => clock }),
      commands: COMMANDS,
      now: () => clock,
      scheduler: false,
    });
    restarted.push(bot);
    const departures = async () => (await bot.store.departures.guildDepartures()).map((d) => d.guildId);
    // A server Discord listed is back: its old departure is cancelled at once.
    expect(await departures()).not.toContain(rejoined.id);
    // Incomplete READY (the home server unavailable): nothing is concluded about the others.
    expect(bot.client.guilds.cache.get(world.guild.id)?.available).toBe(false);
    expect(await departures()).not.toContain(leftWhileOffline.id);
    expect(await departures()).not.toContain(world.guild.id);

    // The outage ends: now the list is complete, and the server that removed the bot is recorded.
    world.discord.setGuildUnavailable(world.guild.id, false);
    await eventually(async () => (await departures()).includes(leftWhileOffline.id), {
      ...WAIT,
      description: 'the offline removal to be recorded',
    });
    expect(await departures()).not.toContain(world.guild.id);
    expect(await departures()).not.toContain(rejoined.id);
  });
});
