/**
 * The bot run as two processes, one per gateway shard of one bot user (docs/operators.md#several-processes-sharding):
 * two real bots (discord.js over a real WebSocket) on shards 0 and 1 of the sandbox Discord, one
 * database file. Each answers exactly its own servers' interactions, shard 0 the DMs; neither takes
 * the other's servers for ones it was removed from; a club's automatic posts run in one of them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { type RunningBot, startBot } from '../../src/bot/bot.js';
import type { BotConfig } from '../../src/bot/config.js';
import { deployCommands } from '../../src/bot/deploy.js';
import { customInstance } from '../../src/eventor/instances.js';
import { createLogger } from '../../src/log/logger.js';
import {
  renderMessageText,
  type SandboxDiscord,
  type SandboxUser,
  shardOf,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { runningTestClock, testNow } from '../support/clock.js';

const WAIT = { timeoutMs: 20_000 };
const clock = runningTestClock();
/** Milliseconds since Discord's epoch, a multiple of 2: `(id >> 22) % 2` is then the offset added. */
const BASE = ((BigInt(testNow().getTime()) - 1_420_070_400_000n) / 1000n) * 1000n;
/** The k-th guild id on `shard` of two. */
const guildOn = (shard: number, k: number): string => String(((BASE + BigInt(2 * k + shard)) << 22n) | (1n << 17n));

interface Instance {
  bot: RunningBot;
  lines: string[];
  /** The guild (or 'dm') of every interaction its discord.js client received. */
  seen: string[];
}

describe('two bot processes on shards 0 and 1 of one bot', () => {
  let discord: SandboxDiscord;
  let eventor: SandboxEventor;
  let dir: string;
  let config: BotConfig;
  let admin: SandboxUser;
  /** Guilds on shard 0, 1, 0, 1 and their channels. */
  const guilds: string[] = [guildOn(0, 0), guildOn(1, 0), guildOn(0, 1), guildOn(1, 1)];
  const channels: string[] = [];
  const running: RunningBot[] = [];

  const start = async (shard: number): Promise<Instance> => {
    const lines: string[] = [];
    const bot = await startBot({
      config: { ...config, sharding: { shardCount: 2, shards: [shard] } },
      log: createLogger({ level: 'debug', write: (line) => void lines.push(line) }),
      commands: COMMANDS,
      scheduler: false,
      cooldowns: null,
      now: clock.now,
    });
    running.push(bot);
    const seen: string[] = [];
    bot.client.on('interactionCreate', (interaction) => seen.push(interaction.guildId ?? 'dm'));
    return { bot, lines, seen };
  };
  const stop = async (instance: Instance): Promise<void> => {
    await instance.bot.stop();
    running.splice(running.indexOf(instance.bot), 1);
  };
  const command = (guild: number, name: string, subcommand?: string, options: Record<string, string> = {}) =>
    discord
      .runCommand({
        guildId: guilds[guild]!,
        channelId: channels[guild]!,
        user: admin,
        locale: 'en-GB',
        name,
        ...(subcommand ? { subcommand } : {}),
        options,
      })
      .reply(WAIT)
      .then((reply) => renderMessageText(reply));
  /** The servers whose removal a bot's log reports. */
  const removals = (instance: Instance): string[] =>
    instance.lines
      .map((line) => JSON.parse(line) as { msg: string; guildId?: string })
      .filter((line) => line.msg.startsWith('removed from a server'))
      .map((line) => line.guildId!);

  beforeAll(async () => {
    discord = await startSandboxDiscord({ port: 0, now: () => clock.now().getTime() });
    eventor = await startSandboxEventor({ port: 0, seed: 3, now: clock.now });
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-shards-'));
    admin = discord.createUser({ username: 'kassoren', locale: 'en-GB' });
    for (const [i, id] of guilds.entries()) {
      discord.createGuild({ id, name: `Club ${i}`, owner: admin });
      channels.push(discord.createTextChannel(id, { name: 'general' }).id);
    }
    config = {
      discordToken: discord.token,
      discordApiUrl: discord.restUrl,
      defaultEventor: { instance: customInstance(eventor.baseUrl), apiKey: eventor.apiKey, timeoutMs: 10_000 },
      defaultEventorGuilds: new Set(guilds),
      customEventorOrigins: [],
      databasePath: path.join(dir, 'eventor-bot.sqlite'),
      secretKey: 'shards-test-secret-key-0123456789',
      defaultLanguage: 'en',
      defaultTimeZone: 'Europe/Stockholm',
      logLevel: 'debug',
    };
    // Global commands: /help is offered in DMs too.
    await deployCommands({ token: config.discordToken, apiUrl: config.discordApiUrl, commands: COMMANDS });
  });
  afterAll(async () => {
    for (const bot of [...running]) await bot.stop();
    await discord?.close();
    await eventor?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('each answers exactly its own servers, shard 0 the DMs', async () => {
    expect(guilds.map((id) => shardOf(id, 2))).toEqual([0, 1, 0, 1]);
    const zero = await start(0);
    const one = await start(1);
    expect([...zero.bot.client.guilds.cache.keys()].sort()).toEqual([guilds[0], guilds[2]].sort());
    expect([...one.bot.client.guilds.cache.keys()].sort()).toEqual([guilds[1], guilds[3]].sort());
    const identifies = discord.gatewayFrames().filter((f) => f.op === 2);
    expect(identifies.map((f) => (f.d as { shard: unknown }).shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);

    for (let i = 0; i < guilds.length; i++) expect(await command(i, 'help')).toContain('/help');
    const dm = await discord.runCommand({ user: admin, locale: 'en-GB', name: 'help' }).reply(WAIT);
    expect(renderMessageText(dm)).toContain('/help');
    expect(zero.seen).toEqual([guilds[0], guilds[2], 'dm']);
    expect(one.seen).toEqual([guilds[1], guilds[3]]);
    await stop(zero);
    await stop(one);
  });

  it("a server of the other process's shard is not one the bot was removed from", async () => {
    const zero = await start(0);
    let one = await start(1);
    // Every server has data in the shared database, each written by its own process.
    for (let i = 0; i < guilds.length; i++)
      expect(await command(i, 'setup', 'language', { language: 'sv' })).toMatch(/Swedish|svenska/i);
    expect(zero.seen).toEqual([guilds[0], guilds[2]]);
    expect(one.seen).toEqual([guilds[1], guilds[3]]);

    // Shard 1's process restarts and finds, at READY, what the database knows: shard 0's servers
    // are not in its list, and are not departures.
    await stop(one);
    one = await start(1);
    expect(removals(one)).toEqual([]);

    // A server of its own shard removed while it was offline still is one.
    await stop(one);
    discord.removeBot(guilds[3]!);
    one = await start(1);
    expect(removals(one)).toEqual([guilds[3]]);
    expect(removals(zero)).toEqual([]);
    await stop(zero);
    await stop(one);
    discord.addBot(guilds[3]!);
  });

  it("one club's automatic posts run in one process: the one of its lowest server's shard", async () => {
    const zero = await start(0);
    const one = await start(1);
    for (let i = 0; i < guilds.length; i++) {
      const posts = discord.createTextChannel(guilds[i]!, { name: 'results' });
      expect(await command(i, 'feeds', 'on', { kind: 'events', channel: posts.id })).not.toMatch(/cannot|refused/i);
    }
    const ran: Record<string, unknown> = {};
    for (const [name, instance] of Object.entries({ zero, one })) {
      const summary = await instance.bot.scheduler.tick(clock.now(), { force: true });
      ran[name] = { servers: summary.servers, failed: summary.failed };
    }
    // All four servers are one club (the default connection): its home is shard 0, the shard of
    // its lowest server id, and shard 1's process leaves the club to it (src/feeds/leases.ts).
    expect(ran).toEqual({ zero: { servers: 4, failed: 0 }, one: { servers: 0, failed: 0 } });
    await stop(zero);
    await stop(one);
  });
});
