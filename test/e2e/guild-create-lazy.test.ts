/**
 * A command that reaches the bot before Discord has sent its server's GUILD_CREATE. Discord lists a
 * bot's servers as unavailable in READY and sends each one's GUILD_CREATE afterwards, lazily;
 * discord.js gives up waiting after 15 seconds and starts answering, knowing the server without its
 * roles (not even @everyone). Checking the bot's permissions in a channel then failed inside
 * discord.js, so `/setup channel` answered "something went wrong". It now fetches the roles.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningBot } from '../../src/bot/bot.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 20_000 };

describe('a server whose GUILD_CREATE has not arrived yet', () => {
  let world: LoopbackWorld;
  let restarted: RunningBot | null = null;
  const lines: string[] = [];

  beforeAll(async () => {
    world = await startTestWorld();
    // The bot connects again while Discord holds this server's GUILD_CREATE back.
    await world.bot.stop();
    world.discord.holdGuildCreate(world.guild.id);
    vi.resetModules();
    const { startBot } = await import('../../src/bot/bot.js');
    const { COMMANDS } = await import('../../commands/index.js');
    const { createLogger } = await import('../../src/log/logger.js');
    restarted = await startBot({
      config: world.config,
      log: createLogger({ level: 'info', write: (line) => void lines.push(line) }),
      commands: COMMANDS,
      scheduler: false,
      cooldowns: null,
      now: () => world.eventor.now(),
    });
  }, 60_000);
  afterAll(async () => {
    await restarted?.stop();
    await world?.close();
  });

  /** An admin's `/setup channel` for `kind`, answered. */
  const setupChannel = (kind: string, channelId: string) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.admin,
        locale: 'en-GB',
        name: 'setup',
        subcommand: 'channel',
        options: { kind, channel: channelId },
      })
      .reply(WAIT);

  it('/setup channel checks the bot’s permissions there and stores the channel', async () => {
    const guild = restarted!.client.guilds.cache.get(world.guild.id);
    expect(guild?.available, 'the server is still unavailable to the bot').toBe(false);
    expect(guild?.roles.everyone, 'discord.js knows none of its roles').toBeUndefined();
    const results = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
    const reply = await setupChannel('results', results.id);
    expect(renderMessageText(reply)).toContain(`Results: posted in <#${results.id}> from now on.`);
    expect((await restarted!.store.servers.guildSettings(world.guild.id))?.channels.results).toBe(results.id);
    expect(lines.join('\n')).not.toContain('"level":"error"');
  });

  it('a channel the bot cannot post in is still refused, naming what it lacks', async () => {
    const closed = world.discord.createTextChannel(world.guild.id, { name: 'stängd' });
    world.discord.setBotCanPost(closed.id, false);
    const reply = await setupChannel('admin', closed.id);
    expect(renderMessageText(reply)).toMatch(/cannot post in <#\d+>/i);
    expect(lines.join('\n')).not.toContain('"level":"error"');
  });
});
