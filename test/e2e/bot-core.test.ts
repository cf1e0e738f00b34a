import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botConfigFromEnv } from '../../src/bot/config.js';
import { ConfigError } from '../../src/config/env.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

describe('bot core end to end (real discord.js client, sandbox Discord, sandbox Eventor)', () => {
  let world: LoopbackWorld;
  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('registers every command with localised names', () => {
    const commands = world.discord.commands({ guildId: world.guild.id });
    const help = commands.find((c) => c.name === 'help');
    expect(help?.name_localizations?.['sv-SE']).toBe('hjälp');
    expect(help?.name_localizations?.no).toBe('hjelp');
  });

  it("answers /help privately, in the member's language", async () => {
    const english = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'help',
      })
      .reply({ timeoutMs: 5000 });
    expect(english.ephemeral).toBe(true);
    expect(renderMessageText(english)).toContain('Commands answer from Eventor');
    const swedish = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.swedishMember,
        locale: 'sv-SE',
        name: 'help',
      })
      .reply({ timeoutMs: 5000 });
    expect(renderMessageText(swedish)).toContain('Kommandona hämtar svar från Eventor');
  });

  it('/status names the club of the key and when Eventor last answered', async () => {
    const reply = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-US',
        name: 'status',
      })
      .reply({ timeoutMs: 5000 });
    const text = renderMessageText(reply);
    expect(text).toContain(`The API key works for ${world.eventor.dataset.homeClub.name}`);
    expect(text).toMatch(/Eventor last answered/);
    expect(text).toContain('<t:');
    // By the bot's clock, as Discord shows it to the member: moments ago, never in the future
    // (the test world's clock is the test instant, not today).
    const stamp = Number(/<t:(\d+):R>/.exec(text)?.[1]);
    const now = world.eventor.now().getTime();
    expect(stamp * 1000).toBeLessThanOrEqual(now);
    expect(now - stamp * 1000).toBeLessThan(60_000);
  });

  it('logs one line per interaction with a correlation id, and no secret', async () => {
    const lines = world.logLines.map((l) => JSON.parse(l) as { msg: string; interaction?: string });
    const commands = lines.filter((l) => l.msg === 'command');
    expect(commands.length).toBeGreaterThanOrEqual(3);
    expect(commands.every((l) => typeof l.interaction === 'string' && l.interaction.length > 0)).toBe(true);
    const all = world.logLines.join('\n');
    expect(all).not.toContain(world.config.discordToken);
    expect(all).not.toContain(world.eventor.apiKey);
    const db = await readFile(world.databasePath).catch(() => Buffer.alloc(0));
    expect(db.includes(Buffer.from(world.eventor.apiKey))).toBe(false);
  });
});

describe('bot core when Eventor fails', () => {
  let world: LoopbackWorld;
  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('tells the member, in Swedish, that Eventor is not answering: no crash, no English', async () => {
    world.eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'status', status: 503, times: 50 });
    const reply = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.swedishMember,
        locale: 'sv-SE',
        name: 'status',
      })
      .reply({ timeoutMs: 20_000 });
    expect(renderMessageText(reply)).toContain('Eventor svarar inte just nu.');
    world.eventor.faults.clear();
  });

  it('tells an admin to run /setup when Eventor refuses the key', async () => {
    world.eventor.faults.clear();
    const bad = await startTestWorld({ seed: 2 });
    try {
      bad.eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'status', status: 403, times: 5 });
      const reply = await bad.discord
        .runCommand({
          guildId: bad.guild.id,
          channelId: bad.channel.id,
          user: bad.member,
          locale: 'en-US',
          name: 'status',
        })
        .reply({ timeoutMs: 10_000 });
      expect(renderMessageText(reply)).toContain('Eventor refuses the API key');
    } finally {
      await bad.close();
    }
  });
});

describe('bot configuration', () => {
  it('names every missing or invalid variable, without echoing secrets', () => {
    let error: unknown;
    try {
      botConfigFromEnv({
        DISCORD_API_URL: 'ftp://x',
        EVENTOR_API_KEY: 'k'.repeat(32),
        SECRET_KEY: 'short',
        DEFAULT_TIME_ZONE: 'Mars/Base',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of [
      'DISCORD_TOKEN',
      'DISCORD_API_URL',
      'EVENTOR_INSTANCE',
      'SECRET_KEY',
      'DEFAULT_TIME_ZONE',
      'LOG_LEVEL',
    ])
      expect(message).toContain(name);
    expect(message).not.toContain('k'.repeat(32));
  });

  it('accepts a minimal configuration with defaults', () => {
    const config = botConfigFromEnv({ DISCORD_TOKEN: 'token', SECRET_KEY: 'x'.repeat(32) });
    expect(config).toMatchObject({
      discordApiUrl: 'https://discord.com/api',
      databasePath: './data/eventor-bot.sqlite',
      defaultEventor: null,
      defaultLanguage: 'en',
      defaultTimeZone: 'Europe/Stockholm',
      logLevel: 'info',
    });
  });
});
