/**
 * What `/next` and the day-before reminder cost Eventor, in the loopback world (the real bot, the
 * sandbox Eventor over HTTP, a controllable clock). Every request the sandbox receives counts.
 *
 * - `/next` of a member with one linked person, on a bot that has asked nothing yet (cold), and
 *   the same again a minute later (the client's cache answers).
 * - The reminder's extra requests on the evening before a race: the same server (every kind of
 *   automatic post on, a member with start-time and result DMs) ticked by the real scheduler every
 *   5 minutes from 12:00 the day before to midnight, with and without the member's reminder on.
 */
import { millisecondsInMinute as MINUTE } from 'date-fns/constants';
import { KIND_NAMES } from '../../src/feeds/registry.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { type LoopbackWorld, startLoopbackWorld } from '../loopback/world.js';
import { SANDBOX_TIME_ZONE, type SandboxEvent } from '../sandbox/eventor/dataset.js';
import { addDays, dayWindow, localToday } from '../../src/time/days.js';
import { localToInstant } from '../../src/time/zones.js';
import type { TargetedFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';

/** The sandbox's reference "now", as the requests section's; fixed so runs compare. */
const BASE = new Date('2026-10-01T10:00:00Z');
const WAIT = { timeoutMs: 30_000 };

/**
 * `/next` of one person asks at most this many requests cold: the club's entries, the events, the
 * person's start lists, and at most 5 events' class lists (events not drawn yet), besides what any
 * first command pays (the connection's key check, the member list kept a day).
 */
export const NEXT_COLD_TARGET = 10;
/**
 * The reminder may add at most this many requests to the evening before a race of one club: what
 * it asks is kept for the hour, so at most two an hour (an event's class list while the start list
 * is not out; the rest the club's feeds asked already) over the six hours from 18:00.
 */
export const DAY_BEFORE_EXTRA_TARGET = 12;

interface Race {
  event: SandboxEvent;
  date: string;
  personId: string;
}

/** The first single-race event a week or more after the base with a home-club entrant. */
function raceWithClubEntrant(world: LoopbackWorld): Race {
  const dataset = world.eventor.dataset;
  const home = dataset.homeClub.id;
  for (const event of dataset.events) {
    const start = event.event.start;
    if (event.syntheticRunners > 0 || event.shape !== 'single' || !start) continue;
    if (event.event.status === 'canceled' || Date.parse(start) < BASE.getTime() + 7 * 86_400_000) continue;
    const entry = dataset
      .entriesAt(event)
      .find((e) => e.competitor?.organisation?.id === home && e.competitor.personId);
    if (entry)
      return { event, date: localToday(new Date(start), SANDBOX_TIME_ZONE), personId: entry.competitor!.personId! };
  }
  throw new Error('the sandbox has no race with a club entrant');
}

/** Requests of `/next`: cold, then again a minute later. */
async function measureNext(): Promise<{ cold: number; warm: number; paths: string[] }> {
  let clock = BASE;
  const world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
  try {
    const race = raceWithClubEntrant(world);
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, race.personId, 'credentials');
    const run = () =>
      world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user: world.member,
          locale: 'en-GB',
          name: 'next',
        })
        .reply(WAIT);
    world.eventor.requests.clear();
    await run();
    const cold = world.eventor.requests.count();
    const paths = world.eventor.requests.map((r) => r.path.replace(/\d+/g, 'N'));
    clock = new Date(clock.getTime() + MINUTE);
    await run();
    return { cold, warm: world.eventor.requests.count() - cold, paths };
  } finally {
    await world.close();
  }
}

/** Requests from 12:00 the day before a race to midnight, with every kind on and a member's DMs. */
async function measureEvening(reminder: boolean): Promise<{ requests: number; date: string }> {
  let clock = BASE;
  const world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
  try {
    const race = raceWithClubEntrant(world);
    const guildId = world.guild.id;
    const settings = new KindSettings(world.bot.store, () => clock);
    await world.bot.store.servers.setChannel(
      guildId,
      'admin',
      world.discord.createTextChannel(guildId, { name: 'styrelsen' }).id,
    );
    for (const kind of KIND_NAMES) {
      await world.bot.store.servers.setChannel(
        guildId,
        kind,
        world.discord.createTextChannel(guildId, { name: kind }).id,
      );
      await settings.update(guildId, kind, { enabled: true });
    }
    await world.bot.store.links.linkPerson(guildId, world.member.id, race.personId, 'credentials');
    await world.bot.services.subscriptions.set(
      guildId,
      world.member.id,
      { starts: true, results: true, tomorrow: reminder },
      'en-GB',
    );
    const dayBefore = addDays(race.date, -1);
    const from = new Date(localToInstant(dayBefore, '12:00', SANDBOX_TIME_ZONE)!);
    const to = new Date(dayWindow(race.date, race.date, SANDBOX_TIME_ZONE).from);
    // The afternoon before counts too: the feeds start there (their first runs seed).
    world.eventor.requests.clear();
    for (clock = from; clock.getTime() < to.getTime(); clock = new Date(clock.getTime() + 5 * MINUTE)) {
      await world.bot.scheduler.tick(clock);
    }
    return { requests: world.eventor.requests.count(), date: race.date };
  } finally {
    await world.close();
  }
}

export async function nextFigures(write: (line: string) => void): Promise<TargetedFigure[]> {
  const next = await measureNext();
  write(
    `# /next of one linked person: ${next.cold} Eventor requests cold (${next.paths.join(', ')}), ${next.warm} a minute later`,
  );
  const without = await measureEvening(false);
  const withReminder = await measureEvening(true);
  const extra = withReminder.requests - without.requests;
  write(
    `# the evening before the race of ${without.date} (12:00-24:00, every kind on): ${without.requests} Eventor requests, ${withReminder.requests} with a member's day-before reminder`,
  );
  return [
    {
      name: 'eventor-requests-next-cold',
      value: next.cold,
      unit: 'req',
      op: '<=',
      target: NEXT_COLD_TARGET,
      title: 'Eventor requests of one `/next`, nothing cached',
      about:
        "Eventor requests of one `/next` for a member with one linked person on a bot that has asked nothing yet; a minute later the client's cache answers it (printed beside).",
    },
    {
      name: 'eventor-requests-next-warm',
      value: next.warm,
      unit: 'req',
      op: '<=',
      target: 0,
      title: 'Eventor requests of `/next` again a minute later',
      about: 'The same `/next` a minute after the first: every answer it needs is in the client cache.',
    },
    {
      name: 'eventor-requests-day-before-reminder-extra',
      value: extra,
      unit: 'req',
      op: '<=',
      target: DAY_BEFORE_EXTRA_TARGET,
      title: "Day-before reminder's extra Eventor requests, a club's evening",
      about:
        "Requests from 12:00 the day before a race to midnight of one server with every kind of post on and a member's start-time and result DMs, by the real scheduler every 5 minutes, with the member's day-before reminder on minus without: what the reminder adds.",
    },
  ];
}

function runNextSection({ write }: BenchContext): Promise<TargetedFigure[]> {
  return nextFigures(write);
}

export const nextSection: BenchSection = { name: 'next', run: runNextSection };
