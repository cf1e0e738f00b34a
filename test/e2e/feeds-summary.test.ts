import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import {
  FREQUENT_MS,
  inQuietHours,
  localDate,
  localHour,
  RARE_MS,
  STARTLISTS_CLOSE_MS,
} from '../../src/feeds/cadence.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget, type PostTarget } from '../../src/feeds/delivery/poster.js';
import { AWAY_MS, type ContentItem, MAX_NEW_POSTS_PER_RUN, publishItems } from '../../src/feeds/delivery/publish.js';
import type { FeedRunOptions } from '../../src/feeds/feed.js';
import { KINDS, kindNamed } from '../../src/feeds/registry.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { reopenWorldStore } from '../support/world-store.js';
import { visibleText } from '../../harness/sandbox/discord/index.js';

/** How often a kind's feed runs, given what the club's calendar says about today. */
const cadenceOf = (kind: string, day: Parameters<(typeof KINDS)[number]['feed']['cadence']>[0]): number =>
  kindNamed(KINDS, kind)!.feed.cadence(day);

const HOUR = 3_600_000;

/** A synthetic item shaped like the feeds' own: an embed with a title and a link. */
function item(key: string, text = 'v1', followSeeded = false): ContentItem {
  return {
    itemKey: `events:${key}`,
    payload: {
      embeds: [{ title: `Event ${key}`, url: `https://eventor.example/Events/Show/${key}`, description: text }],
      allowedMentions: { parse: [] },
    },
    contentHash: `${key}:${text}`,
    ...(followSeeded ? { followSeeded: true } : {}),
  };
}

describe('one summary instead of a burst, and posts finished after a crash (a real database, real discord.js, sandbox Discord)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-11-20T10:00:00Z');
  let client: EventorClient;
  let target: PostTarget;

  const run = (guildId: string, channelId: string, items: ContentItem[], extra: Partial<FeedRunOptions> = {}) =>
    publishItems(
      {
        guildId,
        channelId,
        client,
        organisationId: world.eventor.dataset.homeClub.id,
        ledger: new Ledger(world.bot.store),
        target,
        now: clock,
        language: 'en',
        timeZone: 'Europe/Stockholm',
        ...extra,
      },
      { name: 'events', summaryTitle: 'scheduler.summary.events' },
      items,
    );

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    client = new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
    });
    target = discordTarget(world.bot.client);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  it(`posts up to ${MAX_NEW_POSTS_PER_RUN} new items one by one`, async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'few' }).id;
    await run('g-few', channel, []);
    const items = Array.from({ length: MAX_NEW_POSTS_PER_RUN }, (_, i) => item(`f${i}`));
    await run('g-few', channel, items);
    expect(world.discord.messages(channel)).toHaveLength(MAX_NEW_POSTS_PER_RUN);
  });

  it('more new items than that: one summary listing them, and none of them posted later', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'many' }).id;
    await run('g-many', channel, []);
    const items = Array.from({ length: 20 }, (_, i) => item(`m${i}`));
    const first = await run('g-many', channel, items);
    expect(first.paused).toBeNull();
    const messages = world.discord.messages(channel);
    expect(messages).toHaveLength(1);
    const embed = messages[0]!.embeds[0]!;
    expect(embed.title).toBe('20 new or changed events');
    expect(embed.description).toContain('[Event m0](https://eventor.example/Events/Show/m0)');
    expect(embed.description).toContain('…and 5 more');
    expect(embed.description).not.toContain('While the bot was away');

    // The next run (same items, one changed) posts nothing more: they were accounted for.
    clock = new Date(clock.getTime() + HOUR);
    await run('g-many', channel, [...items.slice(1), item('m0', 'v2')]);
    expect(world.discord.messages(channel)).toHaveLength(1);
    // A genuinely new one afterwards is posted by itself.
    await run('g-many', channel, [...items, item('m-new')]);
    expect(world.discord.messages(channel)).toHaveLength(2);
  });

  it('after downtime the summary says since when the bot was away', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'away' }).id;
    await run('g-away', channel, []);
    const since = clock;
    clock = new Date(clock.getTime() + AWAY_MS + HOUR);
    await run(
      'g-away',
      channel,
      Array.from({ length: 8 }, (_, i) => item(`a${i}`)),
    );
    const [summary] = world.discord.messages(channel);
    expect(summary!.embeds[0]!.description).toContain(
      `While the bot was away (since <t:${Math.floor(since.getTime() / 1000)}:f>)`,
    );
  });

  it('a crash between posting the summary and recording it: the restart neither repeats it nor posts the items', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'crash' }).id;
    await run('g-crash', channel, []);
    const items = Array.from({ length: 9 }, (_, i) => item(`c${i}`));
    await expect(
      run('g-crash', channel, items, {
        hooks: {
          afterSend: () => {
            throw new Error('process killed');
          },
        },
      }),
    ).rejects.toThrow('process killed');
    expect(world.discord.messages(channel)).toHaveLength(1);

    // The restarted process: a new store over the same database, the same items, plus one more.
    const reopened = await reopenWorldStore(world, () => clock);
    try {
      const again = await publishItems(
        {
          guildId: 'g-crash',
          channelId: channel,
          client,
          organisationId: world.eventor.dataset.homeClub.id,
          ledger: new Ledger(reopened),
          target,
          now: clock,
          language: 'en',
          timeZone: 'Europe/Stockholm',
        },
        { name: 'events', summaryTitle: 'scheduler.summary.events' },
        [...items, item('c-late')],
      );
      expect(again.outcomes.map((o) => o.outcome.kind)).toContain('recovered');
    } finally {
      await reopened.close();
    }
    const messages = world.discord.messages(channel);
    expect(messages).toHaveLength(2);
    expect(visibleText(messages[1]!.embeds[0]!.title!)).toBe('Event c-late');
  });

  it('a crash before Discord got the summary: the next run sends it, once, even though no run recomputes it', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'lost-summary' }).id;
    await run('g-lost', channel, []);
    const items = Array.from({ length: 7 }, (_, i) => item(`l${i}`));
    const dying: PostTarget = { ...target, send: () => Promise.reject(new Error('connection reset')) };
    const failed = await run('g-lost', channel, items, { target: dying });
    expect(failed.outcomes[0]!.outcome.kind).toBe('failed');
    expect(world.discord.messages(channel)).toHaveLength(0);
    // The items are gone from Eventor's answer by now: the summary is still finished from the ledger.
    await run('g-lost', channel, []);
    await run('g-lost', channel, []);
    const messages = world.discord.messages(channel);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]!.title).toBe('7 new or changed events');
  });

  it('an item that existed when the feed started is posted when it changes, if its feed follows such items', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'follow' }).id;
    await run('g-follow', channel, [item('s1', 'partial', true), item('s2', 'partial')]);
    expect(world.discord.messages(channel)).toHaveLength(0);
    await run('g-follow', channel, [item('s1', 'partial', true), item('s2', 'partial')]);
    expect(world.discord.messages(channel)).toHaveLength(0);
    await run('g-follow', channel, [item('s1', 'more finished', true), item('s2', 'more finished')]);
    const messages = world.discord.messages(channel);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]!.description).toContain('more finished');
    // From then on it is an ordinary post: edited, not posted again.
    await run('g-follow', channel, [item('s1', 'official', true)]);
    expect(world.discord.messages(channel)).toHaveLength(1);
    expect(world.discord.messages(channel)[0]!.edits).toHaveLength(1);
  });
});

describe('cadence by kind and calendar', () => {
  it('results every 5 minutes only around race days, start lists every 15 minutes around them, the rest hourly', () => {
    const raceDay = { raceDay: true, raceSoon: false };
    const before = { raceDay: false, raceSoon: true };
    const quiet = { raceDay: false, raceSoon: false };
    expect(cadenceOf('results', raceDay)).toBe(FREQUENT_MS);
    expect(cadenceOf('results', before)).toBe(RARE_MS);
    expect(cadenceOf('results', quiet)).toBe(RARE_MS);
    expect(cadenceOf('results', null)).toBe(RARE_MS);
    expect(cadenceOf('startlists', before)).toBe(STARTLISTS_CLOSE_MS);
    expect(cadenceOf('startlists', raceDay)).toBe(STARTLISTS_CLOSE_MS);
    expect(cadenceOf('startlists', quiet)).toBe(RARE_MS);
    for (const kind of ['reminders', 'events', 'activities'] as const) expect(cadenceOf(kind, raceDay)).toBe(RARE_MS);
  });

  it('local hours and days across the spring daylight-saving change (2026-03-29, 02:00 CET becomes 03:00 CEST)', () => {
    const zone = 'Europe/Stockholm';
    expect(localHour(new Date('2026-03-29T00:30:00Z'), zone)).toBe(1);
    expect(localHour(new Date('2026-03-29T01:00:00Z'), zone)).toBe(3);
    const quiet = { from: 22, to: 7 };
    // 06:30 CEST is still quiet; 07:00 CEST (05:00 UTC, an hour earlier in UTC than the day before) is not.
    expect(inQuietHours(new Date('2026-03-29T04:30:00Z'), zone, quiet)).toBe(true);
    expect(inQuietHours(new Date('2026-03-29T05:00:00Z'), zone, quiet)).toBe(false);
    expect(inQuietHours(new Date('2026-03-28T05:00:00Z'), zone, quiet)).toBe(true);
    // The local day (which decides race-day cadence) turns at local midnight: 22:00 UTC after the change.
    expect(localDate(new Date('2026-03-29T21:59:00Z'), zone)).toBe('2026-03-29');
    expect(localDate(new Date('2026-03-29T22:00:00Z'), zone)).toBe('2026-03-30');
    expect(localDate(new Date('2026-03-28T22:59:00Z'), zone)).toBe('2026-03-28');
    expect(localDate(new Date('2026-03-28T23:00:00Z'), zone)).toBe('2026-03-29');
    // A zone the runtime does not know counts as UTC rather than failing the run.
    expect(localHour(new Date('2026-03-29T01:00:00Z'), 'Nowhere/Atlantis')).toBe(1);
  });
});
