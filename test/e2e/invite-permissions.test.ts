import { PermissionFlagsBits } from 'discord.js';
import { type MessageKey, t } from '../../src/i18n/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_PERMISSIONS } from '../../src/bot/invite.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import {
  channelState,
  missingChannelPermissions,
  missingPicturePermissions,
  missingPostPermissions,
  missingServerPermissions,
} from '../../src/feeds/delivery/post-channels.js';
import { SCHEDULED_EVENT_PERMISSIONS } from '../../src/feeds/kinds/calendar/permissions.js';
import { THREAD_PERMISSIONS } from '../../src/feeds/kinds/results/permissions.js';
import { discordTarget } from '../../src/feeds/delivery/poster.js';
import { runCalendar } from '../../src/feeds/kinds/calendar/calendar.js';
import { RESULTS_FEED, runResultsFeed } from '../../src/feeds/kinds/results/results.js';
import { discordScheduledEvents } from '../../src/feeds/kinds/calendar/scheduled-events.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { recentClubResultsEvent } from '../support/sandbox-events.js';
import { testNow } from '../support/clock.js';

type Translator = Parameters<typeof channelState>[0];

/**
 * The invite's permissions are enough: a server where the bot has exactly them (nothing from
 * @everyone) gets the most demanding automatic post, a results post with its thread, and the
 * channel checks find nothing missing. Without one of them, the check names it.
 */
describe('a server that added the bot with the invite URL (sandbox Eventor and Discord, real discord.js)', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let event: SandboxEvent;

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 13, hide: false });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  /** A new server where the bot's role has `permissions` and @everyone nothing; its channel for results. */
  async function serverWith(name: string, permissions: bigint) {
    const guild = world.discord.createGuild({ name, botPermissions: permissions, everyonePermissions: 0n });
    const channelId = world.discord.createTextChannel(guild.id, { name: 'resultat' }).id;
    let known = world.bot.client.guilds.cache.get(guild.id) ?? null;
    for (let i = 0; i < 200 && known === null; i++) {
      await new Promise((r) => setTimeout(r, 25));
      known = world.bot.client.guilds.cache.get(guild.id) ?? null;
    }
    expect(known).not.toBeNull();
    return { guildId: guild.id, channelId, guild: known };
  }

  function resultsRun(guildId: string, channelId: string) {
    const client = new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
      timeoutMs: 10_000,
    });
    return (hasResults: boolean) => {
      event.hasResults = hasResults;
      event.materialized = null;
      return runResultsFeed({
        guildId,
        channelId,
        client,
        organisationId: world.eventor.dataset.homeClub.id,
        ledger: new Ledger(world.bot.store),
        target: discordTarget(world.bot.client),
        now: clock,
        language: 'en',
        timeZone: 'Europe/Stockholm',
        lookbackDays: 14,
        options: { threads: true },
      });
    };
  }

  it('with exactly the invite permissions: the checks pass, the results post and its thread go out', async () => {
    const { guildId, channelId, guild } = await serverWith('Invited', BOT_PERMISSIONS);
    expect(await missingPostPermissions(guild, channelId)).toEqual([]);
    expect(await missingChannelPermissions(guild, channelId, THREAD_PERMISSIONS)).toEqual([]);
    expect(await missingPicturePermissions(guild, channelId)).toEqual([]);

    const run = resultsRun(guildId, channelId);
    expect((await run(false)).seeded).toBe(true);
    clock = new Date(clock.getTime() + 2 * 60_000);
    const posted = await run(true);
    expect(posted.paused).toBeNull();
    const itemKey = `${RESULTS_FEED}:${event.id}`;
    expect(posted.outcomes.find((o) => o.itemKey === itemKey)?.outcome.kind).toBe('posted');
    expect(posted.threads?.find((o) => o.itemKey === itemKey)).toMatchObject({ kind: 'opened', created: true });
    const [post] = world.discord.messages(channelId);
    expect(world.discord.messages(post!.id).length).toBeGreaterThanOrEqual(1);
  });

  it('without one of them, the channel checks name what is missing', async () => {
    const { channelId: noThreads, guild: first } = await serverWith(
      'No threads',
      BOT_PERMISSIONS & ~PermissionFlagsBits.CreatePublicThreads,
    );
    expect(await missingPostPermissions(first, noThreads)).toEqual([]);
    expect(await missingChannelPermissions(first, noThreads, THREAD_PERMISSIONS)).toEqual(['feeds.perm.createThreads']);
    const { channelId: noHistory, guild: second } = await serverWith(
      'No history',
      BOT_PERMISSIONS & ~PermissionFlagsBits.ReadMessageHistory,
    );
    expect(await missingPostPermissions(second, noHistory)).toEqual(['setup.perm.history']);
    // Pictures are asked for, never required: a channel without Attach Files still takes posts.
    const { channelId: noFiles, guild: third } = await serverWith(
      'No files',
      BOT_PERMISSIONS & ~PermissionFlagsBits.AttachFiles,
    );
    expect(await missingPostPermissions(third, noFiles)).toEqual([]);
    expect(await missingPicturePermissions(third, noFiles)).toEqual(['setup.perm.attach']);
    // What /setup show and /feeds show say next to such a channel.
    const english = t as unknown as (language: 'en', key: MessageKey, vars?: unknown) => string;
    const translator = { t: (key: MessageKey, vars?: unknown) => english('en', key, vars) } as unknown as Translator;
    expect(await channelState(translator, third, noFiles)).toBe(
      `<#${noFiles}> (can post; split pictures go out as text: missing Attach Files)`,
    );
  });

  it('with exactly the invite permissions the races appear in Events; without Create Events the kind pauses', async () => {
    const run = (guildId: string) =>
      runCalendar({
        guildId,
        client: new EventorClient({
          instance: customInstance(world.eventor.baseUrl),
          apiKey: world.eventor.apiKey,
          now: () => clock.getTime(),
          timeoutMs: 10_000,
        }),
        organisationId: world.eventor.dataset.homeClub.id,
        ledger: new Ledger(world.bot.store),
        target: discordTarget(world.bot.client),
        now: clock,
        language: 'en',
        timeZone: 'Europe/Stockholm',
        events: discordScheduledEvents(world.bot.client),
      });
    const { guildId, guild } = await serverWith('Invited calendar', BOT_PERMISSIONS);
    expect(await missingServerPermissions(guild, SCHEDULED_EVENT_PERMISSIONS)).toEqual([]);
    const made = await run(guildId);
    expect(made.paused).toBe(false);
    expect(made.outcomes.some((o) => o.outcome.kind === 'created')).toBe(true);
    expect(world.discord.scheduledEvents(guildId).length).toBeGreaterThan(0);

    const { guildId: other, guild: refused } = await serverWith(
      'No events',
      BOT_PERMISSIONS & ~PermissionFlagsBits.CreateEvents & ~PermissionFlagsBits.ManageEvents,
    );
    expect(await missingServerPermissions(refused, SCHEDULED_EVENT_PERMISSIONS)).toEqual([
      'feeds.perm.createEvents',
      'feeds.perm.manageEvents',
    ]);
    expect((await run(other)).paused).toBe(true);
    expect(world.discord.scheduledEvents(other)).toHaveLength(0);
  });
});
