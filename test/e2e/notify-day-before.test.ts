/**
 * The day-before reminder of `/notify` end to end: the bot's own scheduler ticking on a
 * controllable clock, real discord.js, the sandbox Discord's DMs and the sandbox Eventor over HTTP.
 * Sent once, from 18:00 the day before (server time), edited when the start time comes out, not
 * again after a restart, and not when turned off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KindSettings } from '../../src/feeds/settings.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { renderMessageText, type SandboxUser } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { addDays } from '../../src/time/days.js';
import { instantToLocal, localToInstant } from '../../src/time/zones.js';
import { upcomingClubEventWithoutStartList } from '../support/sandbox-events.js';
import { restartedScheduler } from '../support/feed-world.js';

const WAIT = { timeoutMs: 10_000 };
const ZONE = 'Europe/Stockholm';

describe('the day-before reminder (/notify, the scheduler, controllable clock)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-20T08:00:00Z');
  let upcoming: SandboxEvent;
  let dayBefore: string;
  /** The member's person and the one the Swedish member links, both entered in the upcoming event. */
  let runner: string;
  let other: string;

  const at = (day: string, time: string): Date => new Date(localToInstant(day, time, ZONE)!);
  const tickAt = async (day: string, time: string): Promise<void> => {
    clock = at(day, time);
    await world.bot.scheduler.tick(clock);
  };
  const notify = async (user: SandboxUser, subcommand: 'on' | 'off', what: string): Promise<string> => {
    const reply = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        locale: user === world.member ? 'en-GB' : 'sv-SE',
        name: 'notify',
        subcommand,
        options: { what },
      })
      .reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return renderMessageText(reply);
  };
  const dms = (user: SandboxUser) => world.discord.dms(user);
  /** The reminders among a member's DMs (with start times and results on, they get those DMs too). */
  const reminders = (user: SandboxUser) => dms(user).filter((dm) => /^(Tomorrow|I morgon)/.test(dm.content));

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    const home = world.eventor.dataset.homeClub.id;
    upcoming = upcomingClubEventWithoutStartList(world.eventor, clock.getTime());
    const entrants = world.eventor.dataset
      .entriesAt(upcoming)
      .filter((e) => e.competitor?.organisation?.id === home && e.competitor.personId !== null)
      .map((e) => e.competitor!.personId!);
    expect(entrants.length).toBeGreaterThanOrEqual(2);
    [runner, other] = [entrants[0]!, entrants[1]!];
    dayBefore = addDays(instantToLocal(upcoming.event.start!, ZONE).date, -1);
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, runner, 'credentials');
    await world.bot.store.links.linkPerson(world.guild.id, world.swedishMember.id, other, 'credentials');
    clock = at(dayBefore, '12:00');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('is opt-in: /notify on alone does not turn it on, /notify on what: tomorrow does', async () => {
    expect(await notify(world.member, 'on', 'all')).toContain('Day before a race: off');
    const text = await notify(world.member, 'on', 'tomorrow');
    expect(text).toContain('Turned on: day-before reminders.');
    expect(text).toContain('Day before a race: on');
    expect(await notify(world.swedishMember, 'on', 'tomorrow')).toContain('Dagen före ett lopp: på');
  });

  it('is not sent before 18:00 the day before, nor to a member who turned it off again', async () => {
    const before = dms(world.member).length;
    await tickAt(dayBefore, '12:05');
    await tickAt(dayBefore, '17:10');
    expect(dms(world.member)).toHaveLength(before);
    expect(await notify(world.swedishMember, 'off', 'tomorrow')).toContain('Avstängda: påminnelser dagen före.');
  });

  it('comes once from 18:00 the day before, after quiet hours: "Tomorrow: class, event", no start time yet', async () => {
    const before = dms(world.member).length;
    const swedish = dms(world.swedishMember).length;
    // The DMs keep the results' quiet hours: none from 18:00 to 19:00.
    const settings = new KindSettings(world.bot.store, () => clock);
    await settings.update(world.guild.id, 'results', { quietHours: { from: 18, to: 19 } });
    await tickAt(dayBefore, '18:05');
    expect(dms(world.member)).toHaveLength(before);
    await settings.update(world.guild.id, 'results', { quietHours: null });
    await tickAt(dayBefore, '18:10');
    expect(dms(world.member)).toHaveLength(before + 1);
    const reminder = dms(world.member).at(-1)!;
    expect(reminder.content).toMatch(/^Tomorrow: \*\*[^*]+\*\*, \*\*/);
    expect(reminder.content).toContain(upcoming.event.name.trim());
    expect(reminder.content).toContain('start time not out yet');
    await tickAt(dayBefore, '19:10');
    expect(dms(world.member)).toHaveLength(before + 1);
    // Turned off before 18:00: nothing.
    expect(dms(world.swedishMember)).toHaveLength(swedish);
  });

  it("turned on that same evening, still comes for tomorrow (nothing is seeded), in the member's language", async () => {
    clock = at(dayBefore, '19:30');
    expect(await notify(world.swedishMember, 'on', 'tomorrow')).toContain('Påslagna: påminnelser dagen före.');
    // The DMs' next run: hourly, the day before a race.
    await tickAt(dayBefore, '20:05');
    const got = reminders(world.swedishMember);
    expect(got).toHaveLength(1);
    expect(got[0]!.content).toMatch(/^I morgon: \*\*[^*]+\*\*, \*\*/);
    expect(got[0]!.content).toContain('starttiden är inte ute än');
  });

  it('is not sent again by a restarted bot; the start time, once out, edits the same DM', async () => {
    const { restarted, stop } = restartedScheduler(world, () => clock, 'en');
    upcoming.hasStartList = true;
    upcoming.materialized = null;
    const start = world.eventor.dataset
      .details(upcoming)
      .startList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === runner)?.starts[0]?.startTime;
    expect(start).toBeTruthy();
    clock = at(dayBefore, '20:15');
    try {
      await restarted.tick(clock);
    } finally {
      await stop();
    }
    expect(reminders(world.member)).toHaveLength(1);
    const clockText = instantToLocal(start!, ZONE).clock.slice(0, 5);
    const edited = reminders(world.member)[0]!;
    expect(edited.content).toMatch(new RegExp(`^Tomorrow ${clockText}, \\*\\*`));
    expect(edited.content).not.toContain('start time not out yet');
  });

  it('is not sent on the race day itself', async () => {
    await tickAt(addDays(dayBefore, 1), '08:00');
    await tickAt(addDays(dayBefore, 1), '19:00');
    expect(reminders(world.member)).toHaveLength(1);
  });
});
