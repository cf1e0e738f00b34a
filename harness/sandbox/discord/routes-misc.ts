import type { SandboxContext } from './context.js';
import { apiErrors } from './errors.js';
import { ok, type Route, type RouteContext } from './http.js';
import { isThreadType } from './world.js';

/** Gateway discovery, users, guilds, members, roles and the application: the lookups discord.js makes. */
export function miscRoutes(ctx: SandboxContext): Route[] {
  const { world } = ctx;

  /**
   * A guild the bot is not in (any more) is none of its business: Discord answers the guild itself
   * with 10004 Unknown Guild (the same as for a guild that does not exist, since January 2023,
   * discord-api-docs#5840) and what is inside it with 403 50001 Missing Access.
   */
  const guildOr404 = (r: RouteContext): string => {
    const id = r.params['guildId'] ?? '';
    if (!world.guilds.has(id)) throw apiErrors.unknownGuild();
    if (!world.botInGuild(id)) throw r.path === `/guilds/${id}` ? apiErrors.unknownGuild() : apiErrors.missingAccess();
    return id;
  };

  const application = () => ({
    id: world.applicationId,
    name: world.botUser.username,
    icon: null,
    description: 'Sandbox application',
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    team: null,
    owner: null,
    bot: { id: world.botUser.id, username: world.botUser.username, discriminator: '0', avatar: null, bot: true },
    approximate_guild_count: world.botGuildIds().length,
    integration_types_config: { '0': {} },
  });

  return [
    {
      method: 'GET',
      template: '/gateway/bot',
      auth: true,
      // login() rejects without session_start_limit or with fewer starts remaining than it has shards
      // (docs/discord.md#pointing-discordjs-at-the-sandbox, docs/discord.md#sharding).
      handle: () =>
        ok({
          url: ctx.gatewayUrl(),
          shards: ctx.sharding.recommendedShards(world.botGuildIds().length),
          session_start_limit: ctx.sharding.sessionStartLimit(),
        }),
    },
    { method: 'GET', template: '/gateway', auth: false, handle: () => ok({ url: ctx.gatewayUrl() }) },
    { method: 'GET', template: '/users/@me', auth: true, handle: () => ok(world.apiUser(world.botUser.id)) },
    {
      method: 'GET',
      template: '/users/:userId',
      auth: true,
      handle: (r) => {
        if (!world.users.has(r.params['userId'] ?? '')) throw apiErrors.unknownUser();
        return ok(world.apiUser(r.params['userId']!));
      },
    },
    {
      method: 'GET',
      template: '/users/@me/guilds',
      auth: true,
      handle: () =>
        ok(
          world
            .botGuildIds()
            .map((id) => world.guild(id))
            .map((g) => ({ id: g.id, name: g.name, icon: null, owner: false, permissions: '0', features: [] })),
        ),
    },
    { method: 'GET', template: '/applications/@me', auth: true, handle: () => ok(application()) },
    { method: 'GET', template: '/oauth2/applications/@me', auth: true, handle: () => ok(application()) },
    { method: 'GET', template: '/guilds/:guildId', auth: true, handle: (r) => ok(world.apiGuild(guildOr404(r))) },
    {
      method: 'GET',
      template: '/guilds/:guildId/channels',
      auth: true,
      handle: (r) => {
        const id = guildOr404(r);
        const channels = [...world.channels.values()].filter(
          (c) => c.guildId === id && !c.deleted && !isThreadType(c.type),
        );
        return ok(channels.map((c) => world.apiChannel(c)));
      },
    },
    {
      method: 'GET',
      template: '/guilds/:guildId/roles',
      auth: true,
      handle: (r) => ok(world.guildRoles(guildOr404(r)).map((role) => world.apiRole(role.id))),
    },
    {
      method: 'GET',
      template: '/guilds/:guildId/roles/:roleId',
      auth: true,
      handle: (r) => {
        const id = guildOr404(r);
        const role = world.roles.get(r.params['roleId'] ?? '');
        if (!role || role.guildId !== id) throw apiErrors.unknownRole();
        return ok(world.apiRole(role.id));
      },
    },
    {
      method: 'GET',
      template: '/guilds/:guildId/members',
      auth: true,
      handle: (r) => {
        const id = guildOr404(r);
        const limit = Math.min(Math.max(Number(r.query.get('limit') ?? 1) || 1, 1), 1000);
        const after = r.query.get('after') ?? '0';
        const members = world
          .guildMembers(id)
          .filter((m) => BigInt(m.userId) > BigInt(after))
          .sort((a, b) => (BigInt(a.userId) < BigInt(b.userId) ? -1 : 1))
          .slice(0, limit);
        return ok(members.map((m) => world.apiMember(id, m.userId)));
      },
    },
    {
      method: 'GET',
      template: '/guilds/:guildId/members/:userId',
      auth: true,
      handle: (r) => {
        const id = guildOr404(r);
        if (!world.member(id, r.params['userId'] ?? '')) throw apiErrors.unknownMember();
        return ok(world.apiMember(id, r.params['userId']!));
      },
    },
  ];
}
