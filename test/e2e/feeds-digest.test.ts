import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget } from '../../src/feeds/delivery/poster.js';
import { runDigestFeed } from '../../src/feeds/kinds/digest/digest.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { FeedScheduler } from '../../src/feeds/scheduler.js';
import { restartedScheduler } from '../support/feed-world.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WAIT = { timeoutMs: 10_000 };

/**
 * The weekly digest through the real scheduler, the real discord.js client against the sandbox
 * Discord and the sandbox Eventor, on a clock the test moves. The server is in Stockholm and
 * keeps the default time: Thursday 18:00 local, 17:00 UTC in winter.
 */
describe('weekly digest (real scheduler, real discord.js, sandboxes, controllable clock)', () => {
  let world: LoopbackWorld;
  // Wednesday 2026-11-25, 13:00 in Stockholm.
  let clock = new Date('2026-11-25T12:00:00Z');
  let settings: KindSettings;
  let channelId: string;
  const guildId = (): string => world.guild.id;
  const posts = () => world.discord.messages(channelId);

  /** Ticks the bot's scheduler every 5 minutes (its finest slot) from `from` up to `to`, both included. */
  async function tickEvery5Minutes(from: Date, to: Date, scheduler: FeedScheduler = world.bot.scheduler) {
    const steps = Math.floor((to.getTime() - from.getTime()) / (5 * MINUTE));
    expect(steps).toBeLessThanOrEqual(400);
    for (let i = 0; i <= steps; i++) {
      clock = new Date(from.getTime() + i * 5 * MINUTE);
      await scheduler.tick(clock);
    }
  }

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    settings = new KindSettings(world.bot.store, () => clock);
    channelId = world.discord.createTextChannel(guildId(), { name: 'veckan' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'digest', channelId);
    await world.bot.store.servers.updateGuildSettings(guildId(), { locale: 'en', timeZone: 'Europe/Stockholm' });
    await settings.update(guildId(), 'digest', { enabled: true });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('the first run records last week as done and posts nothing', async () => {
    await world.bot.scheduler.tick(clock);
    expect(posts()).toHaveLength(0);
    const rows = await new Ledger(world.bot.store).rows(guildId(), 'digest');
    expect(rows.map((r) => [r.itemKey, r.state])).toEqual([['digest:2026-W47', 'seeded']]);
  });

  it('is posted once, at the chosen time, with what the club has on', async () => {
    // Thursday 17:00 to 17:55 local: not yet.
    await tickEvery5Minutes(new Date('2026-11-26T16:00:00Z'), new Date('2026-11-26T16:55:00Z'));
    expect(posts()).toHaveLength(0);
    // 18:00 local.
    await tickEvery5Minutes(new Date('2026-11-26T17:00:00Z'), new Date('2026-11-26T17:00:00Z'));
    expect(posts()).toHaveLength(1);
    const text = renderMessageText(posts()[0]!);
    expect(text).toContain("The club's week** (week 48)");
    expect(text).not.toContain('comes late');
    // The parts the sandbox club has this week, each with its title; everything from Eventor escaped.
    const titles = posts()[0]!.embeds.map((e) => e.title);
    expect(titles.length).toBeGreaterThan(0);
    // The sandbox club's week: a race on Saturday with its start list out, last Sunday's results.
    expect(titles).toContain('Starts in the coming days');
    expect(titles).toContain("Last week's results");
    expect(text).toMatch(/• \d\d:\d\d \S/);
    expect(text).toMatch(/\d+ from the club ran\./);
    for (const title of titles)
      expect([
        'Starts in the coming days',
        'Entry deadlines in the next 10 days',
        "Last week's results",
        "The club's activities this week",
        'A quiet week',
      ]).toContain(title);
    expect(posts()[0]!.embeds.at(-1)!.footer?.text).toMatch(/^Weekly digest from Eventor/);
  });

  it('is not posted again by the later runs, which ask Eventor nothing', async () => {
    const before = world.eventor.requests.count();
    // The rest of Thursday evening, every 5 minutes.
    await tickEvery5Minutes(new Date('2026-11-26T17:05:00Z'), new Date('2026-11-26T22:00:00Z'));
    expect(posts()).toHaveLength(1);
    expect(world.eventor.requests.count()).toBe(before);
  });

  it('is not posted again after a restart', async () => {
    const { restarted, stop } = restartedScheduler(world, () => clock, 'en');
    try {
      await tickEvery5Minutes(new Date('2026-11-27T07:00:00Z'), new Date('2026-11-27T08:00:00Z'), restarted);
    } finally {
      await stop();
    }
    expect(posts()).toHaveLength(1);
  });

  it('after two weeks away, only the latest missed week is posted, once, saying it comes late', async () => {
    // The bot was down from Friday 27 November to Friday 11 December: Thursdays 3 and 10 December passed.
    await tickEvery5Minutes(new Date('2026-12-11T09:00:00Z'), new Date('2026-12-11T10:00:00Z'));
    expect(posts()).toHaveLength(2);
    const late = renderMessageText(posts()[1]!);
    expect(late).toContain('(week 50)');
    // Due Thursday 10 December 18:00 local, 17:00 UTC.
    expect(late).toContain(`This digest comes late: it was due <t:${Date.parse('2026-12-10T17:00:00Z') / 1000}:f>.`);
    await tickEvery5Minutes(new Date('2026-12-11T10:05:00Z'), new Date('2026-12-11T11:00:00Z'));
    expect(posts()).toHaveLength(2);
    const keys = (await new Ledger(world.bot.store).rows(guildId(), 'digest')).map((r) => r.itemKey).sort();
    expect(keys).toEqual(['digest:2026-W47', 'digest:2026-W48', 'digest:2026-W50']);
  });

  it('waits for quiet hours to end, then comes once', async () => {
    await settings.update(guildId(), 'digest', { quietHours: { from: 17, to: 19 } });
    // Thursday 17 December, 17:00 to 18:55 local: quiet.
    await tickEvery5Minutes(new Date('2026-12-17T16:00:00Z'), new Date('2026-12-17T17:55:00Z'));
    expect(posts()).toHaveLength(2);
    // 19:00 local, an hour after its time: it comes now, and within the hour it is not late.
    await tickEvery5Minutes(new Date('2026-12-17T18:00:00Z'), new Date('2026-12-17T18:30:00Z'));
    expect(posts()).toHaveLength(3);
    const text = renderMessageText(posts()[2]!);
    expect(text).toContain('(week 51)');
    expect(text).not.toContain('comes late');
    await settings.update(guildId(), 'digest', { quietHours: null });
  });

  it('follows the day and time chosen with /feeds digest, from their next occurrence', async () => {
    const digest = async (options: Record<string, string>): Promise<string> =>
      renderMessageText(
        await world.discord
          .runCommand({
            guildId: guildId(),
            channelId: world.channel.id,
            user: world.admin,
            locale: 'en-GB',
            name: 'feeds',
            subcommand: 'digest',
            options,
          })
          .reply(WAIT),
      );
    // Monday 21 December, 07:00 local: week 52's digest has not come (it would on Thursday).
    clock = new Date('2026-12-21T06:00:00Z');
    expect(await digest({ day: '1', time: '6.30' })).toContain(
      'Weekly digest: every Monday at 06:30 (Europe/Stockholm).',
    );
    // Its new time this week has passed: the week counts as done, no "late" digest at once.
    await tickEvery5Minutes(new Date('2026-12-21T06:00:00Z'), new Date('2026-12-21T07:00:00Z'));
    expect(posts()).toHaveLength(3);
    const ledger = new Ledger(world.bot.store);
    expect(await ledger.get({ guildId: guildId(), feed: 'digest', itemKey: 'digest:2026-W52' })).toMatchObject({
      state: 'seeded',
    });
    expect(await digest({ time: '25:00' })).toContain('`25:00` is not a time');
    expect(await digest({ time: '7.30' })).toContain('every Monday at 07:30');
    expect((await settings.get(guildId(), 'digest')).options).toMatchObject({ digestDay: 1, digestTime: '07:30' });
    // Monday 28 December: 07:25 local nothing, 07:30 local the week-53 digest.
    await tickEvery5Minutes(new Date('2026-12-28T06:00:00Z'), new Date('2026-12-28T06:25:00Z'));
    expect(posts()).toHaveLength(3);
    await tickEvery5Minutes(new Date('2026-12-28T06:30:00Z'), new Date('2026-12-28T06:30:00Z'));
    expect(posts()).toHaveLength(4);
    expect(renderMessageText(posts()[3]!)).toContain('(week 53)');
  });

  it('/feeds test digest previews it in the channel, outside the real ledger', async () => {
    clock = new Date(clock.getTime() + DAY);
    const before = (await new Ledger(world.bot.store).rows(guildId(), 'digest')).length;
    const answer = await world.discord
      .runCommand({
        guildId: guildId(),
        channelId: world.channel.id,
        user: world.admin,
        locale: 'en-GB',
        name: 'feeds',
        subcommand: 'test',
        options: { kind: 'digest' },
      })
      .reply(WAIT);
    expect(renderMessageText(answer)).toContain(
      `Weekly digest: the newest item is posted in <#${channelId}> as a test.`,
    );
    expect(posts()).toHaveLength(5);
    expect(renderMessageText(posts()[4]!)).toContain("The club's week** (week 53)");
    expect(await new Ledger(world.bot.store).rows(guildId(), 'digest')).toHaveLength(before);
  });

  it('a crash between Discord making the post and the ledger recording it posts nothing twice', async () => {
    // Monday 4 January 2027, 07:30 local: the digest of week 1 is due.
    clock = new Date('2027-01-04T06:30:00Z');
    const ledger = new Ledger(world.bot.store);
    const client = new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
      timeoutMs: 10_000,
    });
    const count = posts().length;
    try {
      const crashing = runDigestFeed({
        guildId: guildId(),
        channelId,
        client,
        organisationId: world.eventor.dataset.homeClub.id,
        ledger,
        target: discordTarget(world.bot.client),
        now: clock,
        language: 'en',
        timeZone: 'Europe/Stockholm',
        options: (await settings.get(guildId(), 'digest')).options,
        hooks: {
          afterSend: () => {
            throw new Error('process killed');
          },
        },
      });
      await expect(crashing).rejects.toThrow('process killed');
    } finally {
      await client.close();
    }
    expect(posts()).toHaveLength(count + 1);
    const ref = { guildId: guildId(), feed: 'digest', itemKey: 'digest:2027-W01' };
    expect(await ledger.get(ref)).toMatchObject({ state: 'posting', messageId: null });
    // The bot again: its scheduler finds the post from the ledger's intent and records it, posting nothing new.
    await tickEvery5Minutes(new Date('2027-01-04T06:35:00Z'), new Date('2027-01-04T07:30:00Z'));
    expect(posts()).toHaveLength(count + 1);
    expect(await ledger.get(ref)).toMatchObject({ state: 'posted', messageId: posts().at(-1)!.id });
  });

  it('turned off and back on in the middle of a week, it starts from its next time', async () => {
    const feeds = async (subcommand: string): Promise<string> =>
      renderMessageText(
        await world.discord
          .runCommand({
            guildId: guildId(),
            channelId: world.channel.id,
            user: world.admin,
            locale: 'en-GB',
            name: 'feeds',
            subcommand,
            options: { kind: 'digest' },
          })
          .reply(WAIT),
      );
    clock = new Date('2027-01-05T12:00:00Z');
    expect(await feeds('off')).toContain('Weekly digest');
    // Back on Tuesday 12 January: Monday's digest (week 2) was missed while off, and is not posted late.
    clock = new Date('2027-01-12T12:00:00Z');
    expect(await feeds('on')).toContain('Weekly digest');
    const count = posts().length;
    await tickEvery5Minutes(new Date('2027-01-12T12:00:00Z'), new Date('2027-01-12T13:00:00Z'));
    expect(posts()).toHaveLength(count);
    // Monday 18 January, 07:30 local: week 3's.
    await tickEvery5Minutes(new Date('2027-01-18T06:25:00Z'), new Date('2027-01-18T06:30:00Z'));
    expect(posts()).toHaveLength(count + 1);
    expect(renderMessageText(posts().at(-1)!)).toContain('(week 3)');
  });
});
