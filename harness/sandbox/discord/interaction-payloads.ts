import { ALL_PERMISSIONS, ChannelType, LOCALES, OptionType, Permission } from './constants.js';
import type { ApiCommand, ApiCommandOption, ApiComponent, SandboxChannel, SandboxMessage } from './types.js';
import { idOf, type UserRef, type World } from './world.js';

/**
 * Fabricating INTERACTION_CREATE payloads the way Discord would send them. Mistakes here are
 * test-author errors (unknown command, wrong option), so they throw plain Errors with a hint
 * instead of producing a payload Discord could never send.
 */

export type OptionValue = string | number | boolean;

export interface InteractionContext {
  /** Omit for a DM with the bot (context BOT_DM). */
  guildId?: string;
  /** Defaults to the user's DM channel when there is no guild. */
  channelId?: string;
  user: UserRef;
  /** Client language (`interaction.locale`); defaults to the user's locale. */
  locale?: string;
  /** Override the member's computed channel permissions (bitfield). */
  memberPermissions?: bigint | string;
}

export interface CommandInvocation extends InteractionContext {
  name: string;
  subcommand?: string;
  subcommandGroup?: string;
  options?: Record<string, OptionValue>;
  /** Dispatch even if the bot never registered the command (options typed from JS values). */
  allowUnregistered?: boolean;
  /**
   * Dispatch even if the user lacks the command's `default_member_permissions` (Discord hides such
   * commands unless a server admin overrode it in Integrations settings, which this simulates).
   */
  bypassCommandPermissions?: boolean;
}

export interface AutocompleteInvocation extends CommandInvocation {
  /** Name of the option the user is typing in. */
  focused: string;
  /** What the user typed so far. */
  value: string;
}

interface Resolved {
  users?: Record<string, unknown>;
  members?: Record<string, unknown>;
  channels?: Record<string, unknown>;
  roles?: Record<string, unknown>;
}

const APP_PERMISSIONS_IN_DM =
  Permission.ViewChannel |
  Permission.SendMessages |
  Permission.EmbedLinks |
  Permission.AttachFiles |
  Permission.ReadMessageHistory;

/**
 * The fields every interaction has; entitlements and authorizing_integration_owners are mandatory
 * (docs/discord.md#interaction-payloads).
 */
export function basePayload(
  world: World,
  ctx: InteractionContext,
  ids: { id: string; token: string; type: number },
): { payload: Record<string, unknown>; channel: SandboxChannel; userId: string; locale: string } {
  const user = world.user(ctx.user);
  const locale = ctx.locale ?? user.locale;
  if (!LOCALES.includes(locale)) {
    throw new Error(`sandbox: "${locale}" is not a Discord locale (Swedish is sv-SE, Norwegian is no); see LOCALES`);
  }
  const payload: Record<string, unknown> = {
    id: ids.id,
    application_id: world.applicationId,
    type: ids.type,
    token: ids.token,
    version: 1,
    locale,
    entitlements: [],
    attachment_size_limit: 10 * 1024 * 1024,
  };
  let channel: SandboxChannel;
  if (ctx.guildId) {
    const guild = world.guild(ctx.guildId);
    if (!ctx.channelId) throw new Error('sandbox: channelId is required for a guild interaction');
    channel = world.requireChannel(ctx.channelId);
    if (channel.guildId !== guild.id) throw new Error(`sandbox: channel ${channel.id} is not in guild ${guild.id}`);
    if (!world.member(guild.id, user.id)) {
      throw new Error(`sandbox: user ${user.username} is not a member of ${guild.name}; call sandbox.addMember first`);
    }
    const permissions =
      ctx.memberPermissions === undefined
        ? world.channelPermissions(channel.id, user.id)
        : BigInt(ctx.memberPermissions);
    Object.assign(payload, {
      guild_id: guild.id,
      guild: { id: guild.id, locale: guild.preferredLocale, features: [] },
      guild_locale: guild.preferredLocale,
      member: world.apiMember(guild.id, user.id, { permissions }),
      app_permissions: world.channelPermissions(channel.id, world.botUser.id).toString(),
      authorizing_integration_owners: { '0': guild.id },
      context: 0,
    });
  } else {
    channel = ctx.channelId ? world.requireChannel(ctx.channelId) : world.dmChannel(user.id);
    if (channel.type !== ChannelType.DM) throw new Error('sandbox: a guild channel needs guildId');
    Object.assign(payload, {
      user: world.apiUser(user.id),
      app_permissions: APP_PERMISSIONS_IN_DM.toString(),
      authorizing_integration_owners: { '0': '0' },
      context: 1,
    });
  }
  payload['channel_id'] = channel.id;
  payload['channel'] = world.apiChannel(channel);
  return { payload, channel, userId: user.id, locale };
}

/** Guild commands shadow global ones of the same name (as in Discord's command picker). */
export function findCommand(world: World, guildId: string | undefined, name: string): ApiCommand | undefined {
  const inGuild = guildId ? [...(world.commands.get(guildId)?.values() ?? [])] : [];
  const global = [...(world.commands.get('')?.values() ?? [])];
  return [...inGuild, ...global].find((c) => c.name === name && c.type === 1);
}

function inferType(value: OptionValue): number {
  if (typeof value === 'boolean') return OptionType.Boolean;
  if (typeof value === 'number') return Number.isInteger(value) ? OptionType.Integer : OptionType.Number;
  return OptionType.String;
}

function coerce(def: ApiCommandOption, value: OptionValue, where: string): OptionValue {
  switch (def.type) {
    case OptionType.Integer: {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(n)) throw new Error(`sandbox: ${where} must be an integer, got ${JSON.stringify(value)}`);
      return n;
    }
    case OptionType.Number: {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) throw new Error(`sandbox: ${where} must be a number, got ${JSON.stringify(value)}`);
      return n;
    }
    case OptionType.Boolean:
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new Error(`sandbox: ${where} must be a boolean, got ${JSON.stringify(value)}`);
    default:
      return String(value);
  }
}

function checkConstraints(def: ApiCommandOption, value: OptionValue, where: string): void {
  if (def.choices?.length && !def.choices.some((c) => c.value === value)) {
    const allowed = def.choices.map((c) => JSON.stringify(c.value)).join(', ');
    throw new Error(
      `sandbox: ${where} must be one of the registered choices (${allowed}), got ${JSON.stringify(value)}`,
    );
  }
  if (typeof value === 'number') {
    if (def.min_value !== undefined && value < def.min_value)
      throw new Error(`sandbox: ${where} is below min_value ${def.min_value}`);
    if (def.max_value !== undefined && value > def.max_value)
      throw new Error(`sandbox: ${where} is above max_value ${def.max_value}`);
  }
  if (typeof value === 'string' && def.type === OptionType.String) {
    if (def.min_length !== undefined && value.length < def.min_length)
      throw new Error(`sandbox: ${where} is shorter than min_length ${def.min_length}`);
    if (def.max_length !== undefined && value.length > def.max_length)
      throw new Error(`sandbox: ${where} is longer than max_length ${def.max_length}`);
  }
}

function resolveEntity(
  world: World,
  guildId: string | undefined,
  def: ApiCommandOption,
  id: string,
  resolved: Resolved,
  where: string,
): void {
  const addUser = (): boolean => {
    if (!world.users.has(id)) return false;
    resolved.users ??= {};
    resolved.users[id] = world.apiUser(id);
    if (guildId && world.member(guildId, id)) {
      const member = world.apiMember(guildId, id, { withUser: false, permissions: world.basePermissions(guildId, id) });
      resolved.members ??= {};
      resolved.members[id] = member;
    }
    return true;
  };
  const addRole = (): boolean => {
    const role = world.roles.get(id);
    if (!role || role.guildId !== guildId) return false;
    resolved.roles ??= {};
    resolved.roles[id] = world.apiRole(id);
    return true;
  };
  if (def.type === OptionType.User && !addUser()) throw new Error(`sandbox: ${where}: unknown user ${id}`);
  if (def.type === OptionType.Role && !addRole())
    throw new Error(`sandbox: ${where}: unknown role ${id} in this guild`);
  if (def.type === OptionType.Mentionable && !addUser() && !addRole())
    throw new Error(`sandbox: ${where}: ${id} is neither user nor role`);
  if (def.type === OptionType.Channel) {
    const channel = world.channel(id);
    if (!channel || channel.guildId !== (guildId ?? null)) throw new Error(`sandbox: ${where}: unknown channel ${id}`);
    if (def.channel_types?.length && !def.channel_types.includes(channel.type)) {
      throw new Error(`sandbox: ${where}: channel type ${channel.type} not allowed (${def.channel_types.join(', ')})`);
    }
    const api = world.apiChannel(channel);
    resolved.channels ??= {};
    resolved.channels[id] = {
      id,
      name: api['name'],
      type: channel.type,
      permissions: world.channelPermissions(channel.id, world.botUser.id).toString(),
      ...(channel.parentId ? { parent_id: channel.parentId } : {}),
      ...(api['thread_metadata'] ? { thread_metadata: api['thread_metadata'] } : {}),
    };
  }
  if (def.type === OptionType.Attachment) throw new Error(`sandbox: ${where}: attachment options are not supported`);
}

/** `data` of a chat-input (or autocomplete) interaction, typed from the registered definition. */
export function commandData(
  world: World,
  inv: CommandInvocation,
  focused?: { name: string; value: string },
): Record<string, unknown> {
  const command = findCommand(world, inv.guildId, inv.name);
  if (!command && !inv.allowUnregistered) {
    const known = [...world.commands.values()].flatMap((m) => [...m.values()].map((c) => c.name));
    throw new Error(
      `sandbox: /${inv.name} is not registered (registered: ${known.join(', ') || 'none'}); pass allowUnregistered to skip`,
    );
  }
  const label = `/${[inv.name, inv.subcommandGroup, inv.subcommand].filter(Boolean).join(' ')}`;
  if (command) checkCommandAvailable(world, command, inv, label);
  // Walk down to the option list that holds the leaf options.
  let defs: ApiCommandOption[] | undefined = command?.options;
  const path: { name: string; type: number }[] = [];
  for (const [name, type] of [
    [inv.subcommandGroup, OptionType.SubcommandGroup],
    [inv.subcommand, OptionType.Subcommand],
  ] as const) {
    if (!name) continue;
    if (command) {
      const def = defs?.find((o) => o.name === name && o.type === type);
      if (!def)
        throw new Error(
          `sandbox: ${label}: ${name} is not a registered ${type === 1 ? 'subcommand' : 'subcommand group'}`,
        );
      defs = def.options;
    }
    path.push({ name, type });
  }
  if (command && defs?.some((o) => o.type === OptionType.Subcommand || o.type === OptionType.SubcommandGroup)) {
    throw new Error(`sandbox: ${label} needs a ${inv.subcommandGroup ? 'subcommand' : 'subcommand or group'}`);
  }
  const resolved: Resolved = {};
  const given = { ...(inv.options ?? {}) };
  if (focused) given[focused.name] = focused.value;
  const leaf: Record<string, unknown>[] = [];
  for (const [name, raw] of Object.entries(given)) {
    const where = `${label} option "${name}"`;
    const def = command ? defs?.find((o) => o.name === name) : undefined;
    if (command && !def) throw new Error(`sandbox: ${where} is not registered`);
    if (focused?.name === name) {
      if (def && !def.autocomplete) throw new Error(`sandbox: ${where} does not have autocomplete enabled`);
      // The focused value is whatever was typed, always a string.
      leaf.push({ name, type: def?.type ?? OptionType.String, value: String(raw), focused: true });
      continue;
    }
    const type = def?.type ?? inferType(raw);
    const value = def ? coerce(def, raw, where) : raw;
    if (def) {
      checkConstraints(def, value, where);
      resolveEntity(world, inv.guildId, def, String(value), resolved, where);
    }
    leaf.push({ name, type, value });
  }
  if (!focused) {
    for (const def of defs ?? []) {
      if (def.required && !(def.name in given))
        throw new Error(`sandbox: ${label} is missing required option "${def.name}"`);
    }
  }
  let options: Record<string, unknown>[] = leaf;
  for (const level of [...path].reverse()) options = [{ name: level.name, type: level.type, options }];
  return {
    id: command?.id ?? world.ids.next(),
    name: inv.name,
    type: 1,
    ...(command?.guild_id ? { guild_id: command.guild_id } : {}),
    options,
    ...(Object.keys(resolved).length > 0 ? { resolved } : {}),
  };
}

/** Discord only lets a user run a command they can see: right context, enough permissions. */
function checkCommandAvailable(world: World, command: ApiCommand, inv: CommandInvocation, label: string): void {
  if (!inv.guildId) {
    const dmAllowed = command.contexts
      ? command.contexts.includes(1)
      : command.dm_permission !== false && !command.guild_id;
    if (!dmAllowed) throw new Error(`sandbox: ${label} is not available in DMs (contexts/dm_permission)`);
    return;
  }
  if (command.default_member_permissions === null || inv.bypassCommandPermissions) return;
  const required = BigInt(command.default_member_permissions);
  const userId = idOf(inv.user);
  const has =
    inv.memberPermissions !== undefined
      ? BigInt(inv.memberPermissions)
      : inv.channelId && world.channel(inv.channelId)
        ? world.channelPermissions(inv.channelId, userId)
        : world.basePermissions(inv.guildId, userId);
  if ((has & required) !== required && has !== ALL_PERMISSIONS) {
    throw new Error(
      `sandbox: ${label} requires permissions ${required} (default_member_permissions) which the user lacks, ` +
        'so Discord would not offer it; pass bypassCommandPermissions to simulate an admin override',
    );
  }
}

/** Depth-first list of components (rows, sections, containers, labels included). */
export function flattenComponents(components: ApiComponent[]): ApiComponent[] {
  const out: ApiComponent[] = [];
  const walk = (list: ApiComponent[]): void => {
    for (const c of list) {
      out.push(c);
      if (c.components) walk(c.components);
      if (c.component) walk([c.component]);
      if (c.accessory) walk([c.accessory]);
    }
  };
  walk(components);
  return out;
}

export function findComponent(message: SandboxMessage, customId: string): ApiComponent {
  const component = flattenComponents(message.components).find((c) => c.custom_id === customId);
  if (!component) {
    const ids = flattenComponents(message.components)
      .map((c) => c.custom_id)
      .filter(Boolean);
    throw new Error(`sandbox: message ${message.id} has no component "${customId}" (has: ${ids.join(', ') || 'none'})`);
  }
  if (component.disabled)
    throw new Error(`sandbox: component "${customId}" is disabled; Discord would not let a user click it`);
  return component;
}
