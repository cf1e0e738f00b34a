/**
 * The operator's default Eventor connection (EVENTOR_API_KEY) serves only the servers
 * named in EVENTOR_DEFAULT_GUILDS. A stranger who adds the bot to a server of their own, and is
 * Manage Server there, gets "not connected" and no club data: no member names in autocomplete, no
 * link to a member, no login link, and Eventor is asked nothing on their behalf (SECURITY.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botConfigFromEnv } from '../../src/bot/config.js';
import type { ConfigError } from '../../src/config/env.js';
import {
  renderMessageText,
  type SandboxChannel,
  type SandboxGuild,
  type SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };
const NOT_CONNECTED = 'This server is not connected to Eventor yet';

describe('the default Eventor connection serves only the servers the operator names', () => {
  let world: LoopbackWorld;
  let strangers: SandboxGuild;
  let lobby: SandboxChannel;
  let stranger: SandboxUser;

  beforeAll(async () => {
    world = await startTestWorld();
    ({ guild: strangers, lobby } = await world.addServer('A stranger’s server'));
    stranger = world.discord.createMember(strangers.id, {
      username: 'stranger',
      globalName: 'Stranger',
      locale: 'en-GB',
      manageGuild: true,
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  const run = (name: string, subcommand?: string, options: Record<string, string | boolean> = {}) =>
    world.discord.runCommand({
      guildId: strangers.id,
      channelId: lobby.id,
      user: stranger,
      locale: 'en-GB',
      name,
      ...(subcommand ? { subcommand } : {}),
      options,
    });

  it('answers "not connected" in a server nobody named, for every command that reads club data', async () => {
    const before = world.eventor.requests.count();
    const personId = world.eventor.dataset.homeClub.members[0]!.person.id!;
    for (const [name, subcommand, options] of [
      ['events', undefined, {}],
      ['entries', undefined, {}],
      ['activities', undefined, {}],
      ['results', undefined, { member: personId }],
      ['starts', undefined, { member: personId }],
    ] as const) {
      const reply = await run(name, subcommand, options).reply(WAIT);
      expect(renderMessageText(reply), name).toContain(NOT_CONNECTED);
    }
    expect(renderMessageText(await run('status').reply(WAIT))).toContain('Not connected to Eventor yet');
    // Nothing was asked of Eventor with the operator's key on the stranger's behalf.
    expect(world.eventor.requests.count()).toBe(before);
  });

  it('shows no member names in autocomplete', async () => {
    const choices = await world.discord.autocomplete({
      guildId: strangers.id,
      channelId: lobby.id,
      user: stranger,
      name: 'results',
      focused: 'member',
      value: '',
      ...WAIT,
    });
    expect(choices).toEqual([]);
    const admin = await world.discord.autocomplete({
      guildId: strangers.id,
      channelId: lobby.id,
      user: stranger,
      name: 'admin',
      subcommand: 'link',
      focused: 'person',
      value: '',
      ...WAIT,
    });
    expect(admin).toEqual([]);
  });

  it('refuses a Manage Server stranger who links themself to a club member and asks for the login link', async () => {
    const victim = world.eventor.dataset.homeClub.members[0]!.person;
    const linked = await run('admin', 'link', { member: stranger.id, person: victim.id! }).reply(WAIT);
    expect(renderMessageText(linked)).toContain(NOT_CONNECTED);
    expect(await world.bot.store.links.linkedPersons(strangers.id, stranger.id)).toEqual([]);
    const loginsBefore = world.eventor.requests.count('/api/externalLoginUrl');
    const login = await run('login').reply(WAIT);
    expect(renderMessageText(login)).not.toContain('http');
    expect(world.discord.dms(stranger)).toEqual([]);
    expect(world.eventor.requests.count('/api/externalLoginUrl')).toBe(loginsBefore);
  });

  it('keeps serving the named server', async () => {
    const reply = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'status',
      })
      .reply(WAIT);
    expect(renderMessageText(reply)).toContain(world.eventor.dataset.homeClub.name);
  });

  it('reads EVENTOR_DEFAULT_GUILDS, refusing what is not a server id and a list without a default key', () => {
    const base = {
      DISCORD_TOKEN: 't',
      SECRET_KEY: 'a-secret-key-of-sixteen+',
      EVENTOR_BASE_URL: world.eventor.baseUrl,
      EVENTOR_API_KEY: world.eventor.apiKey,
    };
    expect([...botConfigFromEnv(base).defaultEventorGuilds]).toEqual([]);
    expect([
      ...botConfigFromEnv({ ...base, EVENTOR_DEFAULT_GUILDS: ` ${world.guild.id} , 123456789012345678 ` })
        .defaultEventorGuilds,
    ]).toEqual([world.guild.id, '123456789012345678']);
    const problems = (env: NodeJS.ProcessEnv): string[] => {
      try {
        botConfigFromEnv(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ ...base, EVENTOR_DEFAULT_GUILDS: 'my-club' })).toEqual([
      expect.stringContaining('EVENTOR_DEFAULT_GUILDS'),
    ]);
    expect(
      problems({ DISCORD_TOKEN: 't', SECRET_KEY: base.SECRET_KEY, EVENTOR_DEFAULT_GUILDS: '123456789012345678' }),
    ).toEqual([expect.stringContaining('no default Eventor')]);
  });

  it('in a burst from three servers at once, each is answered with its own connection, or none', async () => {
    // Reads of one server's settings and key are shared while on their way on PostgreSQL
    // (docs/decisions/store-dialects.md#shared-reads): never across servers. The club's server (the
    // default connection), a server connected to another club with its own key, and the
    // stranger's, each firing /status ten times in the same moment.
    const other = world.eventor.dataset.clubs[1]!;
    const { guild: otherGuild, lobby: otherLobby } = await world.addServer('Another club’s server');
    await world.bot.store.servers.connectEventor(otherGuild.id, {
      instance: 'custom',
      baseUrl: world.eventor.baseUrl,
      apiKey: other.apiKey,
      organisation: { id: other.id, name: other.name },
    });
    const otherAdmin = world.discord.createMember(otherGuild.id, { username: 'otheradmin', manageGuild: true });
    const servers = [
      {
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.admin,
        expected: world.eventor.dataset.homeClub.name,
      },
      { guildId: otherGuild.id, channelId: otherLobby.id, user: otherAdmin, expected: other.name },
      { guildId: strangers.id, channelId: lobby.id, user: stranger, expected: 'Not connected to Eventor yet' },
    ];
    const handles = Array.from({ length: 10 }, () =>
      servers.map((server) => ({
        server,
        handle: world.discord.runCommand({ ...server, locale: 'en-GB', name: 'status', options: {} }),
      })),
    ).flat();
    for (const { server, handle } of handles) {
      const text = renderMessageText(await handle.reply(WAIT));
      expect(text, server.guildId).toContain(server.expected);
      for (const wrong of servers.filter((s) => s !== server))
        expect(text, server.guildId).not.toContain(wrong.expected);
    }
  });
});
