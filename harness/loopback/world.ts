/**
 * A whole loopback world: the sandbox Eventor, the sandbox Discord with a club's server in it,
 * and the real bot process logic connected to both. The demo, the bench and the end-to-end tests
 * start one of these; nothing in it reaches beyond 127.0.0.1. It lives beside the sandboxes rather
 * than among them, since it imports the product and they import nothing of it (`npm run deps`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMMANDS, commandsFor } from '../../commands/index.js';
import { type RunningBot, startBot } from '../../src/bot/bot.js';
import type { BotCommand } from '../../src/bot/command.js';
import type { BotConfig } from '../../src/bot/config.js';
import { deployCommands } from '../../src/bot/deploy.js';
import type { MemberCooldowns } from '../../src/bot/router.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import type { FeedKind } from '../../src/feeds/kind.js';
import { createLogger } from '../../src/log/logger.js';
import { type SandboxDiscord, startSandboxDiscord } from '../sandbox/discord/index.js';
import type { SandboxChannel, SandboxGuild, SandboxUser } from '../sandbox/discord/types.js';
import { type SandboxEventor, startSandboxEventor } from '../sandbox/eventor/server.js';
import {
  type LiveOptions as SandboxLiveOptions,
  type SandboxLiveResultat,
  startSandboxLiveResultat,
} from '../sandbox/liveresultat/index.js';

export interface LoopbackWorld {
  eventor: SandboxEventor;
  discord: SandboxDiscord;
  /** The sandbox LiveResultat over the sandbox Eventor's races, when the world was given `live`. */
  live: SandboxLiveResultat | null;
  guild: SandboxGuild;
  channel: SandboxChannel;
  /** A club member with an English Discord client, one with a Swedish one, and an admin. */
  member: SandboxUser;
  swedishMember: SandboxUser;
  admin: SandboxUser;
  bot: RunningBot;
  config: BotConfig;
  /** Every log line the bot wrote. */
  logLines: string[];
  /** The SQLite file of the store (it stays unused when the world's store is on PostgreSQL: `databaseUrl`). */
  databasePath: string;
  /** The PostgreSQL database the store is on, when the world was given one. */
  databaseUrl?: string;
  /** Lets the operator's default Eventor serve one more server (as naming it in EVENTOR_DEFAULT_GUILDS would). */
  allowDefaultEventor(guildId: string): void;
  /**
   * One more server with the bot in it: a text channel `#lobby` and the commands deployed there.
   * `defaultEventor`: the operator's default Eventor serves it too (another server of the same
   * club); without it, it is a stranger's server, not connected to Eventor.
   */
  addServer(
    name: string,
    options?: { defaultEventor?: boolean },
  ): Promise<{ guild: SandboxGuild; lobby: SandboxChannel }>;
  close(): Promise<void>;
}

export interface LoopbackWorldOptions {
  seed?: number;
  /**
   * The clock of both sandboxes and the bot. Required: the sandbox's data is made around it, so a
   * world on the machine's clock would read other races each day (tests start from a fixed instant).
   */
  now: () => Date;
  commands?: readonly BotCommand[];
  /**
   * The kinds of automatic post (default: the registry's): the bot runs them, and `/feeds` and
   * `/setup` are built for them unless `commands` is given.
   */
  kinds?: readonly FeedKind[];
  /** When false, servers have no default Eventor and must run /setup. Default true. */
  defaultEventor?: boolean;
  secretKey?: string;
  /** Start the feed scheduler's cron (default false: tests drive `bot.scheduler.tick`). */
  scheduler?: boolean;
  /** The bot's Eventor clients' caches follow `now` (for tests that move the clock by hours), without retries (the scheduler backs off). Default false. */
  eventorFollowsClock?: boolean;
  /**
   * The bot's per-member budgets of commands that call Eventor. Default off: the suites are
   * scripts firing commands far faster than a person; `start` (and so the demo's bot) keeps the
   * real ones, and tests of the budgets pass the router's `MEMBER_COOLDOWNS`.
   */
  memberCooldowns?: MemberCooldowns;
  /**
   * Make the sandbox Eventor ignore `TimeZone: UTC` (local times always, as some custom addresses
   * do) and configure the bot with this zone for it: EVENTOR_TIME_ZONE for the default connection,
   * `url|zone` in EVENTOR_CUSTOM_URLS for /setup. Default: the header is honoured, no zone given.
   */
  eventorTimeZone?: string;
  /**
   * The store's database: a `postgres://` URL of an empty (or eventor-bot's) PostgreSQL database,
   * as DATABASE_URL gives it to `start`. Default: a new SQLite file in the world's folder.
   */
  databaseUrl?: string;
  /** How many clubs the sandbox Eventor has (default its 13 named ones). */
  eventorClubs?: number;
  /** How many members the sandbox's home club has (default 40). */
  eventorHomeClubMembers?: number;
  /**
   * A sandbox LiveResultat over the sandbox Eventor's races on the same clock, with these options,
   * configured as the bot's LIVERESULTAT_URL and LIVERESULTAT_LEGACY_URL. Default: none (live off).
   */
  live?: Partial<SandboxLiveOptions>;
}

export async function startLoopbackWorld(options: LoopbackWorldOptions): Promise<LoopbackWorld> {
  const now = options.now;
  const eventor = await startSandboxEventor({
    port: 0,
    seed: options.seed ?? 1,
    now,
    ignoresTimeZoneHeader: options.eventorTimeZone !== undefined,
    ...(options.eventorClubs === undefined ? {} : { clubs: options.eventorClubs }),
    ...(options.eventorHomeClubMembers === undefined ? {} : { homeClubMembers: options.eventorHomeClubMembers }),
  });
  const zone = options.eventorTimeZone === undefined ? {} : { nativeTimeZone: options.eventorTimeZone };
  const discord = await startSandboxDiscord({ port: 0, now: () => now().getTime() });
  const live =
    options.live === undefined
      ? null
      : await startSandboxLiveResultat({ dataset: eventor.dataset, now, options: options.live });
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-world-'));
  const cleanup = async (): Promise<void> => {
    await live?.close();
    await discord.close();
    await eventor.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const guild = discord.createGuild({ name: eventor.dataset.homeClub.name, preferredLocale: 'sv-SE' });
    const channel = discord.createTextChannel(guild.id, { name: 'allmänt' });
    const member = discord.createMember(guild.id, { username: 'astrid', globalName: 'Astrid', locale: 'en-GB' });
    const swedishMember = discord.createMember(guild.id, { username: 'sven', globalName: 'Sven', locale: 'sv-SE' });
    const admin = discord.createMember(guild.id, {
      username: 'kassoren',
      globalName: 'Kassören',
      locale: 'sv-SE',
      manageGuild: true,
    });
    const databasePath = path.join(dir, 'eventor-bot.sqlite');
    const defaultGuilds = new Set<string>(options.defaultEventor === false ? [] : [guild.id]);
    const config: BotConfig = {
      discordToken: discord.token,
      discordApiUrl: discord.restUrl,
      defaultEventor:
        options.defaultEventor === false
          ? null
          : { instance: customInstance(eventor.baseUrl, zone), apiKey: eventor.apiKey, timeoutMs: 10_000 },
      defaultEventorGuilds: defaultGuilds,
      customEventorOrigins: [new URL(eventor.baseUrl).origin],
      ...(options.eventorTimeZone === undefined
        ? {}
        : { customEventorTimeZones: new Map([[new URL(eventor.baseUrl).origin, options.eventorTimeZone]]) }),
      databasePath,
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
      secretKey: options.secretKey ?? 'loopback-world-secret-key-0123456789',
      defaultLanguage: 'en',
      defaultTimeZone: 'Europe/Stockholm',
      logLevel: 'debug',
      ...(live === null ? {} : { liveEndpoints: { restUrl: live.restUrl, legacyUrl: live.legacyUrl } }),
    };
    const commands = options.commands ?? (options.kinds ? commandsFor(options.kinds) : COMMANDS);
    await deployCommands({ token: config.discordToken, apiUrl: config.discordApiUrl, commands, guildId: guild.id });
    const logLines: string[] = [];
    const log = createLogger({ level: 'debug', write: (line) => void logLines.push(line), now });
    const bot = await startBot({
      config,
      log,
      commands,
      kinds: options.kinds,
      now,
      scheduler: options.scheduler ?? false,
      cooldowns: options.memberCooldowns ?? null,
      ...(options.eventorFollowsClock
        ? {
            createEventorClient: (instance, apiKey, shared) =>
              new EventorClient({
                instance,
                apiKey,
                shared,
                now: () => now().getTime(),
                retries: 0,
                cache: { ttlMs: { 'organisation-apikey': 5 * 60_000 } },
              }),
          }
        : {}),
    });
    return {
      eventor,
      discord,
      live,
      guild,
      channel,
      member,
      swedishMember,
      admin,
      bot,
      config,
      logLines,
      databasePath,
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
      allowDefaultEventor: (guildId) => void defaultGuilds.add(guildId),
      addServer: async (name, serverOptions = {}) => {
        const added = discord.createGuild({ name });
        if (serverOptions.defaultEventor) defaultGuilds.add(added.id);
        const lobby = discord.createTextChannel(added.id, { name: 'lobby' });
        await deployCommands({ token: config.discordToken, apiUrl: config.discordApiUrl, commands, guildId: added.id });
        return { guild: added, lobby };
      },
      close: async () => {
        await bot.stop();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
