import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KindSettings } from '../../src/feeds/settings.js';
import { serverLanguage, t } from '../../src/i18n/index.js';
import { renderMessageText, visibleText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { recentClubResultsEvent } from '../support/sandbox-events.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };

/**
 * Automatic posts speak the server's language: `/setup language` if chosen, else the
 * server's Discord language (its preferred locale) when we speak it, else the operator's default.
 */
describe('the language of automatic posts follows the server', () => {
  let world: LoopbackWorld;

  beforeAll(async () => {
    world = await startTestWorld();
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('chooses the chosen language, else a preferred locale we speak, else the default', () => {
    expect(serverLanguage(null, 'sv-SE', 'en')).toBe('sv');
    expect(serverLanguage(null, 'no', 'en')).toBe('nb');
    expect(serverLanguage(null, 'de', 'sv')).toBe('sv');
    expect(serverLanguage(null, null, 'nb')).toBe('nb');
    expect(serverLanguage('en', 'sv-SE', 'sv')).toBe('en');
  });

  it('a Swedish server gets Swedish automatic posts without /setup language; the choice wins', async () => {
    const guildId = world.guild.id;
    const admin = (subcommand: string, name: string, options: Record<string, string> = {}) =>
      world.discord
        .runCommand({
          guildId,
          channelId: world.channel.id,
          user: world.admin,
          locale: 'en-GB',
          name,
          subcommand,
          options,
        })
        .reply(WAIT)
        .then((m) => renderMessageText(m));
    // The server's Discord language is Swedish (the loopback world's guild), and the operator's default English.
    expect(await admin('show', 'setup')).toContain('Swedish (default)');

    // A post the bot makes for the server, not for the member who asked: /feeds test in the results channel.
    const channel = world.discord.createTextChannel(guildId, { name: 'resultat' });
    expect(await admin('on', 'feeds', { kind: 'results', channel: channel.id })).not.toMatch(/cannot|refused/i);
    expect(await admin('test', 'feeds', { kind: 'results' })).toContain('as a test');
    const swedishPost = renderMessageText(world.discord.messages(channel.id).at(-1)!);
    expect(swedishPost).toMatch(/Resultat/);

    expect(await admin('language', 'setup', { language: 'en' })).toContain('English');
    const shown = await admin('show', 'setup');
    expect(shown).not.toContain('Swedish (default)');
    expect(shown).toMatch(/English(?! \(default\))/);
    await admin('test', 'feeds', { kind: 'results' });
    const englishPost = renderMessageText(world.discord.messages(channel.id).at(-1)!);
    expect(englishPost).toMatch(/Results/);
  });
});

/**
 * The same rule for what the scheduler posts by itself in a tick, with no command and no member
 * around whose language could stand in: a Swedish server (Discord's preferred locale sv-SE) gets
 * Swedish results, an English one (en-US) English, without /setup language in either.
 */
describe("the scheduler posts in each server's Discord language", () => {
  const HOUR = 60 * 60_000;
  let world: LoopbackWorld;
  let clock = new Date('2026-10-24T08:00:00Z');
  let event: SandboxEvent;
  const tick = async (): Promise<void> => {
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock);
  };
  const setResults = (has: boolean): void => {
    event.hasResults = has;
    event.materialized = null;
  };

  beforeAll(async () => {
    // The operator's default is English, so only the server's own language can make a post Swedish.
    world = await startTestWorld({ now: () => clock, eventorFollowsClock: true });
    // Saturday morning: the latest race with results is last Sunday's.
    event = recentClubResultsEvent(world.eventor, clock.getTime(), { maxAgeDays: 6, hide: false });
    setResults(false);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('a tick posts Swedish results in a sv-SE server and English ones in an en-US server', async () => {
    const settings = new KindSettings(world.bot.store, () => clock);
    const english = world.discord.createGuild({ name: 'An English server of the club', preferredLocale: 'en-US' });
    world.allowDefaultEventor(english.id);
    const servers = await Promise.all(
      [
        { guildId: world.guild.id, language: 'sv' as const },
        { guildId: english.id, language: 'en' as const },
      ].map(async (server) => {
        const channelId = world.discord.createTextChannel(server.guildId, { name: 'results' }).id;
        await world.bot.store.servers.setChannel(server.guildId, 'results', channelId);
        await settings.update(server.guildId, 'results', { enabled: true });
        return { ...server, channelId };
      }),
    );
    expect(world.guild.preferredLocale).toBe('sv-SE');
    for (const { guildId } of servers)
      expect((await world.bot.store.servers.guildSettings(guildId))?.locale ?? null).toBeNull();

    await tick(); // The first run only records what exists.
    setResults(true);
    await tick();

    for (const { channelId, language } of servers) {
      const posts = world.discord.messages(channelId);
      expect(posts, language).toHaveLength(1);
      expect(visibleText(posts[0]!.embeds[0]!.title!), language).toBe(
        t(language, 'render.results.clubTitle', { event: event.name }),
      );
    }
  });
});
