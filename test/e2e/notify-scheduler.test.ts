import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import {
  clubFinisherId,
  recentClubResultsEvent,
  upcomingClubEventWithoutStartList,
} from '../support/sandbox-events.js';

const HOUR = 3_600_000;
const WAIT = { timeoutMs: 10_000 };

describe('the scheduler sends /notify DMs by itself (sandbox Eventor, real discord.js, sandbox Discord DMs, controllable clock)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-20T08:00:00Z');
  let event: SandboxEvent;

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    event = recentClubResultsEvent(world.eventor, clock.getTime());
    const home = world.eventor.dataset.homeClub.id;
    event.hasResults = true;
    event.materialized = null;
    const runner = world.eventor.dataset
      .details(event)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.organisation?.id === home && p.results[0]?.status === 'OK')!;
    event.hasResults = false;
    event.materialized = null;
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, runner.person!.id!, 'credentials');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it("a server with no club feeds on but a subscribed member: the result DM comes once, on the scheduler's own tick", async () => {
    const reply = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'notify',
        subcommand: 'on',
      })
      .reply(WAIT);
    expect(renderMessageText(reply)).toMatch(/on/i);
    const confirmations = world.discord.dms(world.member).length;

    await world.bot.scheduler.tick(clock);
    expect(world.discord.dms(world.member)).toHaveLength(confirmations);

    event.hasResults = true;
    event.materialized = null;
    clock = new Date(clock.getTime() + HOUR);
    // The DM counts among the tick's posts (what `eventor-bot tick` logs).
    expect(await world.bot.scheduler.tick(clock)).toMatchObject({ servers: 1, posts: 1, edits: 0, failed: 0 });
    const dms = world.discord.dms(world.member);
    expect(dms).toHaveLength(confirmations + 1);
    expect(renderMessageText(dms.at(-1)!)).toContain(event.name);

    clock = new Date(clock.getTime() + 60_000);
    await world.bot.scheduler.tick(clock);
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock);
    expect(world.discord.dms(world.member)).toHaveLength(confirmations + 1);
  });
});

describe('a member of two servers of the club, with /notify on in both', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-20T08:00:00Z');

  afterAll(async () => {
    await world?.close();
  });

  it('gets each DM once, not once per server', async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    const event = recentClubResultsEvent(world.eventor, clock.getTime(), { hide: false });
    const personId = clubFinisherId(world.eventor, event);
    event.hasResults = false;
    event.materialized = null;
    const { guild: second, lobby } = await world.addServer('Same club, second server', { defaultEventor: true });
    world.discord.addMember(second.id, world.member);
    for (const [guildId, channelId] of [
      [world.guild.id, world.channel.id],
      [second.id, lobby.id],
    ] as const) {
      await world.bot.store.links.linkPerson(guildId, world.member.id, personId, 'credentials');
      await world.discord
        .runCommand({ guildId, channelId, user: world.member, locale: 'en-GB', name: 'notify', subcommand: 'on' })
        .reply(WAIT);
    }
    const confirmations = world.discord.dms(world.member).length;
    expect(confirmations).toBe(2);
    await world.bot.scheduler.tick(clock);

    event.hasResults = true;
    event.materialized = null;
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock);
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock);
    const results = world.discord.dms(world.member).slice(confirmations);
    expect(results).toHaveLength(1);
    expect(renderMessageText(results[0]!)).toContain(event.name);
  });

  it('a start time that moves edits the one DM, and the other server sends no second one', async () => {
    const dataset = world.eventor.dataset;
    const home = dataset.homeClub.id;
    const upcoming = upcomingClubEventWithoutStartList(world.eventor, clock.getTime());
    upcoming.hasStartList = true;
    upcoming.materialized = null;
    const runner = dataset
      .details(upcoming)
      .startList!.classes.flatMap((c) => c.persons)
      .find((p) => p.organisation?.id === home && p.starts[0]?.startTime)!;
    upcoming.hasStartList = false;
    upcoming.materialized = null;
    const member = world.swedishMember;
    const { guild: second, lobby } = await world.addServer('Same club, third server', { defaultEventor: true });
    world.discord.addMember(second.id, member);
    for (const [guildId, channelId] of [
      [world.guild.id, world.channel.id],
      [second.id, lobby.id],
    ] as const) {
      await world.bot.store.links.linkPerson(guildId, member.id, runner.person!.id!, 'credentials');
      await world.discord
        .runCommand({
          guildId,
          channelId,
          user: member,
          locale: 'en-GB',
          name: 'notify',
          subcommand: 'on',
          options: { what: 'starts' },
        })
        .reply(WAIT);
    }
    const before = world.discord.dms(member).length;
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock);

    upcoming.hasStartList = true;
    upcoming.materialized = null;
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock);
    expect(world.discord.dms(member).slice(before)).toHaveLength(1);

    const start = dataset
      .details(upcoming)
      .startList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === runner.person!.id)!.starts[0]!;
    start.startTime = new Date(Date.parse(start.startTime!) + 6 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock);
    const dms = world.discord.dms(member).slice(before);
    expect(dms).toHaveLength(1);
    expect(dms[0]!.edits).toHaveLength(1);
  });
});
