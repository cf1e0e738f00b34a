import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverLanguage } from '../src/i18n/index.js';
import { renderMessageText } from '../src/sandbox/discord/index.js';
import { startLoopbackWorld, type LoopbackWorld } from '../src/sandbox/world.js';

const WAIT = { timeoutMs: 10_000 };

/**
 * Automatic posts speak the server's language (issue 10 §4): `/setup language` if chosen, else the
 * server's Discord language (its preferred locale) when we speak it, else the operator's default.
 */
describe('the language of automatic posts follows the server', () => {
  let world: LoopbackWorld;

  beforeAll(async () => {
    world = await startLoopbackWorld();
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
      world.discord.runCommand({ guildId, channelId: world.channel.id, user: world.admin, locale: 'en-GB', name, subcommand, options }).reply(WAIT).then((m) => renderMessageText(m));
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
