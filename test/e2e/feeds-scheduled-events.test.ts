import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordScheduledEvents } from '../../src/feeds/kinds/calendar/scheduled-events.js';
import {
  CALENDAR_CADENCE_MS,
  CALENDAR_FEED,
  type CalendarRun,
  type CalendarRunOptions,
  calendarItems,
  fetchCalendarEvents,
  runCalendar,
} from '../../src/feeds/kinds/calendar/calendar.js';
import { KindSettings } from '../../src/feeds/settings.js';
import type { TickSummary } from '../../src/feeds/scheduler.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import type { ScheduledEventView } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';

/**
 * The calendar kind through the real discord.js client against the sandbox Discord's scheduled
 * events, the sandbox Eventor over HTTP and a clock the test moves: created, kept in step with
 * Eventor, cancelled, an admin's deletion respected, a crash between creating and recording,
 * a refusal that pauses with one notice, and Discord's 100 upcoming events per server.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('races in the server’s Events (calendar kind, sandbox Discord and Eventor, real discord.js)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-04-01T08:00:00Z');
  let settings: KindSettings;
  let adminChannelId: string;
  let client: EventorClient;
  const guildId = (): string => world.guild.id;

  const advance = (ms: number): void => {
    clock = new Date(clock.getTime() + ms);
  };
  /** One scheduler tick a cadence later (the bot's own path: settings, Eventor access, pauses, notices). */
  const tick = (): Promise<TickSummary> => {
    advance(CALENDAR_CADENCE_MS);
    return world.bot.scheduler.tick(clock);
  };
  const mine = (): ScheduledEventView[] =>
    world.discord.scheduledEvents(guildId()).filter((e) => e.creatorId === world.bot.client.user!.id);
  const link = (eventId: string): string => `${client.instance.webUrl.replace(/\/+$/, '')}/Events/Show/${eventId}`;
  const forEvent = (eventId: string): ScheduledEventView[] =>
    mine().filter((e) => (e.description ?? '').split('\n').includes(link(eventId)));
  /** A run driven directly, as a process of its own would make it (its own ledger: its own claims). */
  const run = (extra: Partial<CalendarRunOptions> = {}): Promise<CalendarRun> =>
    runCalendar({
      guildId: guildId(),
      client,
      organisationId: world.eventor.dataset.homeClub.id,
      ledger: new Ledger(world.bot.store),
      target: { send: fail, edit: fail, history: fail },
      now: clock,
      language: 'sv',
      timeZone: 'Europe/Stockholm',
      events: discordScheduledEvents(world.bot.client),
      ...extra,
    });
  /** The items the kind makes now that would be created (not cancelled, not started), nearest first. */
  const upcomingItems = async () => {
    const data = await fetchCalendarEvents(client, world.eventor.dataset.homeClub.id, [], clock);
    const ctx = { language: 'sv' as const, timeZone: 'Europe/Stockholm', now: clock, webUrl: client.instance.webUrl };
    return calendarItems(data.events, data.counts, ctx).filter((i) => !i.cancelled && i.start > clock.getTime());
  };
  const fail = (): never => {
    throw new Error('the calendar kind posts no message');
  };
  /** The races the kind follows that start after tomorrow and are not cancelled, nearest first, as the sandbox holds them. */
  const upcomingRaces = async (): Promise<SandboxEvent[]> =>
    (await upcomingItems())
      .filter((i) => i.start > clock.getTime() + DAY)
      .map((i) => world.eventor.dataset.event(i.eventId)!);

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    settings = new KindSettings(world.bot.store, () => clock);
    adminChannelId = world.discord.createTextChannel(guildId(), { name: 'styrelsen' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'admin', adminChannelId);
    await world.bot.store.servers.updateGuildSettings(guildId(), { locale: 'sv', timeZone: 'Europe/Stockholm' });
    client = new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
      timeoutMs: 10_000,
    });
    world.discord.setBotCanCreateEvents(guildId(), true);
    world.discord.setBotCanManageEvents(guildId(), true);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('a crash between creating an event and recording it: the next run finds it and creates nothing twice', async () => {
    const crashing = run({
      hooks: {
        afterCreate: () => {
          throw new Error('process killed');
        },
      },
    });
    await expect(crashing).rejects.toThrow('process killed');
    expect(mine()).toHaveLength(1);
    const [made] = mine();
    const rows = await new Ledger(world.bot.store).rows(guildId(), CALENDAR_FEED);
    const intent = rows.find((r) => r.state === 'posting');
    expect(intent).toMatchObject({ state: 'posting', messageId: null });

    // A restarted process, past any claim's lease.
    advance(11 * MINUTE);
    const next = await run();
    expect(next.outcomes.find((o) => o.itemKey === intent!.itemKey)?.outcome).toEqual({
      kind: 'recovered',
      eventId: made!.id,
    });
    const eventId = intent!.itemKey.split(':')[1]!;
    expect(forEvent(eventId)).toHaveLength(1);
    expect(await new Ledger(world.bot.store).get(intent!)).toMatchObject({ state: 'posted', messageId: made!.id });
    // Every other race got its one event.
    const created = next.outcomes.filter((o) => o.outcome.kind === 'created').length;
    expect(created).toBeGreaterThan(0);
    expect(mine()).toHaveLength(created + 1);
  });

  it('creates one external event per race within Discord’s limits, and a later run changes nothing', async () => {
    await settings.update(guildId(), 'calendar', { enabled: true });
    const before = mine().length;
    expect(await tick()).toMatchObject({ feedsRun: 1, failed: 0, posts: 0 });
    expect(mine()).toHaveLength(before);
    for (const event of mine()) {
      expect(event.entityType).toBe(3);
      expect(event.status).toBe(1);
      expect(event.name.length).toBeLessThanOrEqual(100);
      expect(event.location!.length).toBeLessThanOrEqual(100);
      expect(event.description!.length).toBeLessThanOrEqual(1000);
      expect(event.description!.split('\n').at(-1)).toMatch(/\/Events\/Show\/\d+$/);
      expect(event.end!).toBeGreaterThan(event.start);
    }
    const own = (await upcomingRaces())[0]!;
    const [shown] = forEvent(own.id);
    expect(shown).toBeDefined();
    expect(shown!.start).toBe(Date.parse(own.event.start!));
    // The server's language: Swedish.
    expect(shown!.description).toMatch(/från klubben|Ingen från klubben/);
  });

  it('a change of date and name in Eventor edits the event', async () => {
    const own = (await upcomingRaces())[0]!;
    const [before] = forEvent(own.id);
    own.event.name = `${own.event.name} (ny dag)`;
    const moved = Date.parse(own.event.start!) + DAY;
    own.event.start = new Date(moved).toISOString();
    if (own.event.finish) own.event.finish = new Date(Date.parse(own.event.finish) + DAY).toISOString();
    for (const race of own.event.races) if (race.date) race.date = new Date(Date.parse(race.date) + DAY).toISOString();
    world.eventor.dataset.touchEvent(own.id, clock);
    const summary = await tick();
    expect(summary).toMatchObject({ failed: 0, posts: 0 });
    expect(summary.edits).toBeGreaterThanOrEqual(1);
    const after = forEvent(own.id);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(before!.id);
    expect(after[0]!.name).toBe(own.event.name);
    expect(after[0]!.start).toBe(moved);
  });

  it('a cancellation in Eventor cancels the event, which is final', async () => {
    const own = (await upcomingRaces())[1]!;
    const [before] = forEvent(own.id);
    own.event.status = 'canceled';
    own.event.statusId = '10';
    world.eventor.dataset.touchEvent(own.id, clock);
    await tick();
    expect(world.discord.scheduledEvent(guildId(), before!.id)?.status).toBe(4);
    // Renamed after the cancellation: the event is final, never edited again.
    own.event.name = `${own.event.name} – inställd`;
    world.eventor.dataset.touchEvent(own.id, clock);
    await tick();
    expect(world.discord.scheduledEvent(guildId(), before!.id)).toMatchObject({ status: 4 });
    expect(world.discord.scheduledEvent(guildId(), before!.id)?.name).not.toContain('inställd');
    expect(forEvent(own.id)).toHaveLength(1);
  });

  it('an event an admin deleted stays deleted, even when Eventor changes it', async () => {
    const own = (await upcomingRaces())[2]!;
    const [shown] = forEvent(own.id);
    world.discord.deleteScheduledEvent(guildId(), shown!.id);
    await tick();
    expect(forEvent(own.id)).toHaveLength(0);
    own.event.name = `${own.event.name} (ändrad)`;
    world.eventor.dataset.touchEvent(own.id, clock);
    await tick();
    expect(forEvent(own.id)).toHaveLength(0);
  });

  it('without the permissions the kind pauses with one notice, and resumes when they are given back', async () => {
    const noticesBefore = world.discord.messages(adminChannelId).length;
    world.discord.setBotCanCreateEvents(guildId(), false);
    world.discord.setBotCanManageEvents(guildId(), false);
    // A change in Eventor: the edit is refused.
    const own = (await upcomingRaces())[3]!;
    const [shown] = forEvent(own.id);
    own.event.name = `${own.event.name} (flyttad)`;
    world.eventor.dataset.touchEvent(own.id, clock);
    await tick();
    expect((await settings.get(guildId(), 'calendar')).pausedReason).toBe('no-permission');
    await tick();
    await tick();
    const notices = world.discord.messages(adminChannelId).slice(noticesBefore);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toContain('Skapa evenemang');
    expect(world.discord.scheduledEvent(guildId(), shown!.id)?.name).not.toContain('flyttad');

    world.discord.setBotCanCreateEvents(guildId(), true);
    world.discord.setBotCanManageEvents(guildId(), true);
    await tick();
    expect((await settings.get(guildId(), 'calendar')).pausedReason).toBeNull();
    expect(world.discord.messages(adminChannelId).slice(noticesBefore)).toHaveLength(2);
    await tick();
    expect(world.discord.scheduledEvent(guildId(), shown!.id)?.name).toBe(own.event.name);
  });

  it('a ledger that lost its rows (an old backup) takes the bot’s events back instead of making them again', async () => {
    const before = mine()
      .filter((e) => e.status === 1)
      .map((e) => e.id)
      .sort();
    expect(before.length).toBeGreaterThan(0);
    await new Ledger(world.bot.store).forgetFeeds(guildId(), CALENDAR_FEED, { exact: true });
    expect(await tick()).toMatchObject({ failed: 0 });
    // Every event still there is recorded again; no race has two.
    const recorded = (await new Ledger(world.bot.store).rows(guildId(), CALENDAR_FEED)).map((r) => r.messageId);
    for (const id of before) {
      expect(world.discord.scheduledEvent(guildId(), id)?.status).toBe(1);
      expect(recorded).toContain(id);
    }
    for (const race of await upcomingRaces()) expect(forEvent(race.id).length).toBeLessThanOrEqual(1);
  });

  it('at Discord’s 100 upcoming events the nearest races are kept, and the admins are told once', async () => {
    // Start afresh: the ledger forgets the kind and its events are gone.
    await new Ledger(world.bot.store).forgetFeeds(guildId(), CALENDAR_FEED, { exact: true });
    for (const e of mine()) world.discord.deleteScheduledEvent(guildId(), e.id);
    // Members fill the server to two below Discord's 100, far in the future.
    const open = world.discord.scheduledEvents(guildId()).filter((e) => e.status === 1 || e.status === 2).length;
    const far = clock.getTime() + 300 * DAY;
    for (let i = 0; i < 100 - 2 - open; i++)
      world.discord.createScheduledEvent(guildId(), {
        creator: world.admin,
        name: `Klubbmöte ${i}`,
        start: far + i * HOUR,
        end: far + i * HOUR + HOUR,
        location: 'Klubbstugan',
      });
    const noticesBefore = world.discord.messages(adminChannelId).length;
    const summary = await tick();
    expect(summary).toMatchObject({ failed: 0, posts: 2 });
    const upcoming = await upcomingItems();
    expect(upcoming.length).toBeGreaterThan(2);
    const kept = mine().sort((a, b) => a.start - b.start);
    expect(kept.map((e) => e.start)).toEqual(upcoming.slice(0, 2).map((i) => i.start));
    const told = world.discord.messages(adminChannelId).slice(noticesBefore);
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toContain('100');

    // A race left out moves before the nearest: the bot's farthest event makes room for it.
    const third = upcoming[2]!;
    const ev = world.eventor.dataset.event(third.eventId)!;
    const length = Date.parse(third.fields.scheduledEndTime) - third.start;
    const earlier = kept[0]!.start - HOUR;
    ev.event.start = new Date(earlier).toISOString();
    ev.event.finish = new Date(earlier + length).toISOString();
    for (const race of ev.event.races) race.date = ev.event.start;
    world.eventor.dataset.touchEvent(ev.id, clock);
    await tick();
    const now = mine().sort((a, b) => a.start - b.start);
    expect(now.map((e) => e.start)).toEqual([earlier, kept[0]!.start]);
    expect(world.discord.scheduledEvent(guildId(), kept[1]!.id)).toBeUndefined();
    // Still some left out: no second notice.
    expect(world.discord.messages(adminChannelId).slice(noticesBefore)).toHaveLength(1);
  });
});
