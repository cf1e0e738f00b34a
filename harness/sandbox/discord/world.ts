import { EventEmitter } from 'node:events';
import {
  ALL_PERMISSIONS,
  ChannelType,
  DEFAULT_BOT_PERMISSIONS,
  DEFAULT_EVERYONE_PERMISSIONS,
  GatewayIntent,
  NONCE_WINDOW_MS,
  Permission,
  ScheduledEventEntityType,
  ScheduledEventStatus,
} from './constants.js';
import { Snowflakes } from './ids.js';
import { apiChannel, apiGuild, apiMember, apiMessage, apiRole, apiScheduledEvent, apiUser } from './serialize.js';
import type {
  ApiCommand,
  MessageRevision,
  PermissionOverwrite,
  SandboxChannel,
  SandboxGuild,
  SandboxMember,
  SandboxMessage,
  SandboxRole,
  SandboxScheduledEvent,
  SandboxUser,
} from './types.js';

/** Something the gateway should send to connected bots, if their intents ask for it. */
export interface DispatchEvent {
  t: string;
  d: unknown;
  /** Intent bit(s) of which at least one must be set; 0 = always sent. */
  intents: number;
}

/** Anything a user or a test can refer to a Discord user by. */
export type UserRef = string | { id: string };

export const idOf = (ref: UserRef): string => (typeof ref === 'string' ? ref : ref.id);

export interface CreateUserOptions {
  id?: string;
  username: string;
  globalName?: string | null;
  locale?: string;
  bot?: boolean;
  dmsClosed?: boolean;
}

export interface CreateGuildOptions {
  id?: string;
  name: string;
  /** Server owner; created as a plain user named "<guild>-owner" if absent. */
  owner?: UserRef;
  preferredLocale?: string;
  /** Permissions of the bot's managed role (default: a typical invite scope, no Manage Server). */
  botPermissions?: bigint;
  everyonePermissions?: bigint;
}

export interface AddMemberOptions {
  nick?: string | null;
  roles?: string[];
  /** Give the member a role with Manage Server (what admin-only commands usually check). */
  manageGuild?: boolean;
  administrator?: boolean;
}

export interface CreateChannelOptions {
  id?: string;
  name: string;
  topic?: string | null;
  parentId?: string | null;
  type?: number;
}

/**
 * The sandbox's in-memory Discord: users, guilds, roles, members, channels, messages, commands.
 * Mutations emit `dispatch` (for the gateway) and `change` (for test waiters).
 */
export class World extends EventEmitter {
  readonly ids: Snowflakes;
  readonly users = new Map<string, SandboxUser>();
  readonly guilds = new Map<string, SandboxGuild>();
  readonly roles = new Map<string, SandboxRole>();
  readonly members = new Map<string, SandboxMember>();
  readonly channels = new Map<string, SandboxChannel>();
  readonly messagesById = new Map<string, SandboxMessage>();
  private readonly channelMessages = new Map<string, string[]>();
  private readonly dmChannelByUser = new Map<string, string>();
  private readonly heldGuildCreates = new Set<string>();
  /** `enforce_nonce`: author, channel and nonce → the message and when it was made (oldest first). */
  private readonly nonces = new Map<string, { messageId: string; at: number }>();
  /** Registered commands, keyed by guild id ('' = global), then command id. */
  readonly commands = new Map<string, Map<string, ApiCommand>>();
  /** Guild scheduled events by id (deleted ones are gone, as on Discord). */
  readonly scheduledEvents = new Map<string, SandboxScheduledEvent>();
  readonly botUser: SandboxUser;
  readonly applicationId: string;

  constructor(
    readonly now: () => number,
    bot: { username?: string } = {},
  ) {
    super();
    this.setMaxListeners(0);
    this.ids = new Snowflakes(now);
    this.applicationId = this.ids.next();
    // Like real bots created via the developer portal, the bot user shares the application id.
    this.botUser = {
      id: this.applicationId,
      username: bot.username ?? 'eventor-bot',
      globalName: null,
      locale: 'en-US',
      bot: true,
      dmsClosed: false,
    };
    this.users.set(this.botUser.id, this.botUser);
  }

  /** Tell waiters something changed (they re-check their predicates). */
  changed(kind: string): void {
    this.emit('change', kind);
  }

  private dispatch(t: string, d: unknown, intents: number): void {
    this.emit('dispatch', { t, d, intents } satisfies DispatchEvent);
  }

  // ------------------------------------------------------------------------------------------
  // Users and guilds

  createUser(options: CreateUserOptions): SandboxUser {
    const user: SandboxUser = {
      id: options.id ?? this.ids.next(),
      username: options.username,
      globalName: options.globalName ?? null,
      locale: options.locale ?? 'en-US',
      bot: options.bot ?? false,
      dmsClosed: options.dmsClosed ?? false,
    };
    if (this.users.has(user.id)) throw new Error(`sandbox: user ${user.id} already exists`);
    this.users.set(user.id, user);
    this.changed('user');
    return user;
  }

  user(ref: UserRef): SandboxUser {
    const user = this.users.get(idOf(ref));
    if (!user) throw new Error(`sandbox: unknown user ${idOf(ref)}`);
    return user;
  }

  setDmsClosed(ref: UserRef, closed = true): void {
    this.user(ref).dmsClosed = closed;
  }

  createGuild(options: CreateGuildOptions): SandboxGuild {
    const id = options.id ?? this.ids.next();
    if (this.guilds.has(id)) throw new Error(`sandbox: guild ${id} already exists`);
    const owner = options.owner
      ? this.user(options.owner)
      : this.createUser({ username: `${options.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-owner` });
    const now = this.now();
    // The @everyone role's id is the guild id (Discord convention discord.js relies on).
    this.roles.set(id, {
      id,
      guildId: id,
      name: '@everyone',
      permissions: options.everyonePermissions ?? DEFAULT_EVERYONE_PERMISSIONS,
      position: 0,
      color: 0,
      managed: false,
    });
    const botRole: SandboxRole = {
      id: this.ids.next(),
      guildId: id,
      name: this.botUser.username,
      permissions: options.botPermissions ?? DEFAULT_BOT_PERMISSIONS,
      position: 1,
      color: 0,
      managed: true,
    };
    this.roles.set(botRole.id, botRole);
    const guild: SandboxGuild = {
      id,
      name: options.name,
      ownerId: owner.id,
      preferredLocale: options.preferredLocale ?? 'en-US',
      botRoleId: botRole.id,
      createdAt: now,
      unavailable: false,
    };
    this.guilds.set(id, guild);
    this.members.set(`${id}:${owner.id}`, { guildId: id, userId: owner.id, nick: null, roleIds: [], joinedAt: now });
    this.members.set(`${id}:${this.botUser.id}`, {
      guildId: id,
      userId: this.botUser.id,
      nick: null,
      roleIds: [botRole.id],
      joinedAt: now,
    });
    this.dispatch('GUILD_CREATE', this.apiGuildCreate(id), GatewayIntent.Guilds);
    this.changed('guild');
    return guild;
  }

  guild(id: string): SandboxGuild {
    const guild = this.guilds.get(id);
    if (!guild) throw new Error(`sandbox: unknown guild ${id}`);
    return guild;
  }

  createRole(guildId: string, options: { name: string; permissions?: bigint; color?: number }): SandboxRole {
    this.guild(guildId);
    const position = [...this.roles.values()].filter((role) => role.guildId === guildId).length;
    const role: SandboxRole = {
      id: this.ids.next(),
      guildId,
      name: options.name,
      permissions: options.permissions ?? 0n,
      position,
      color: options.color ?? 0,
      managed: false,
    };
    this.roles.set(role.id, role);
    this.dispatch('GUILD_ROLE_CREATE', { guild_id: guildId, role: apiRole(role) }, GatewayIntent.Guilds);
    this.changed('role');
    return role;
  }

  guildRoles(guildId: string): SandboxRole[] {
    return [...this.roles.values()].filter((role) => role.guildId === guildId).sort((a, b) => a.position - b.position);
  }

  /** The role named `name` in the guild, created with `permissions` on first use. */
  private namedRole(guildId: string, name: string, permissions: bigint): SandboxRole {
    const existing = this.guildRoles(guildId).find((role) => role.name === name);
    return existing ?? this.createRole(guildId, { name, permissions });
  }

  addMember(guildId: string, ref: UserRef, options: AddMemberOptions = {}): SandboxMember {
    this.guild(guildId);
    const user = this.user(ref);
    const roleIds = [...(options.roles ?? [])];
    if (options.manageGuild) roleIds.push(this.namedRole(guildId, 'Manage Server', Permission.ManageGuild).id);
    if (options.administrator) roleIds.push(this.namedRole(guildId, 'Administrator', Permission.Administrator).id);
    for (const roleId of roleIds) {
      if (this.roles.get(roleId)?.guildId !== guildId)
        throw new Error(`sandbox: role ${roleId} is not in guild ${guildId}`);
    }
    const key = `${guildId}:${user.id}`;
    const existing = this.members.get(key);
    const member: SandboxMember = {
      guildId,
      userId: user.id,
      nick: options.nick ?? existing?.nick ?? null,
      roleIds: [...new Set([...(existing?.roleIds ?? []), ...roleIds])],
      joinedAt: existing?.joinedAt ?? this.now(),
    };
    this.members.set(key, member);
    this.dispatch(
      existing ? 'GUILD_MEMBER_UPDATE' : 'GUILD_MEMBER_ADD',
      { ...apiMember(member, user), guild_id: guildId },
      GatewayIntent.GuildMembers,
    );
    this.changed('member');
    return member;
  }

  /** The user leaves (or is kicked from) the guild. */
  removeMember(guildId: string, ref: UserRef): void {
    const user = this.user(ref);
    if (user.id === this.botUser.id) throw new Error('sandbox: the bot cannot leave a guild here');
    if (!this.members.delete(`${guildId}:${user.id}`))
      throw new Error(`sandbox: ${user.username} is not a member of ${guildId}`);
    this.dispatch('GUILD_MEMBER_REMOVE', { guild_id: guildId, user: apiUser(user) }, GatewayIntent.GuildMembers);
    this.changed('member');
  }

  /**
   * The bot is removed from the guild (kicked, or the server deleted): GUILD_DELETE without
   * `unavailable` ("the user was removed from the guild", events/gateway-events.mdx "Guild Delete").
   * The guild stays in the world, so a test can invite the bot back with `addBot`.
   */
  removeBot(guildId: string): void {
    this.guild(guildId);
    if (!this.members.delete(`${guildId}:${this.botUser.id}`))
      throw new Error(`sandbox: the bot is not in guild ${guildId}`);
    this.dispatch('GUILD_DELETE', { id: guildId }, GatewayIntent.Guilds);
    this.changed('guild');
  }

  /** The bot is invited back (with its managed role): a full GUILD_CREATE, as for a new guild. */
  addBot(guildId: string): void {
    const guild = this.guild(guildId);
    const key = `${guildId}:${this.botUser.id}`;
    if (this.members.has(key)) throw new Error(`sandbox: the bot is already in guild ${guildId}`);
    this.members.set(key, {
      guildId,
      userId: this.botUser.id,
      nick: null,
      roleIds: [guild.botRoleId],
      joinedAt: this.now(),
    });
    if (!guild.unavailable) this.dispatch('GUILD_CREATE', this.apiGuildCreate(guildId), GatewayIntent.Guilds);
    this.changed('guild');
  }

  /**
   * A Discord outage for one guild: GUILD_DELETE with `unavailable: true`; the bot is still in it.
   * When it ends, GUILD_CREATE brings the guild back ("When a Guild becomes available again").
   */
  setGuildUnavailable(guildId: string, unavailable: boolean): void {
    const guild = this.guild(guildId);
    if (guild.unavailable === unavailable) return;
    guild.unavailable = unavailable;
    if (this.botInGuild(guildId)) {
      this.dispatch(
        unavailable ? 'GUILD_DELETE' : 'GUILD_CREATE',
        unavailable ? { id: guildId, unavailable: true } : this.apiGuildCreate(guildId),
        GatewayIntent.Guilds,
      );
    }
    this.changed('guild');
  }

  /**
   * Discord sends each guild's GUILD_CREATE after READY, lazily: a session's guilds arrive over
   * seconds (events/gateway-events.mdx "Guild Create": sent "to lazily load and backfill information
   * for all unavailable guilds sent in the Ready event"). A held guild
   * is listed unavailable in READY and its GUILD_CREATE waits until it is released; REST answers
   * for it as usual meanwhile.
   */
  holdGuildCreate(guildId: string, held: boolean): void {
    this.guild(guildId);
    if (held) {
      this.heldGuildCreates.add(guildId);
      return;
    }
    if (!this.heldGuildCreates.delete(guildId)) return;
    if (this.botInGuild(guildId) && !this.guild(guildId).unavailable)
      this.dispatch('GUILD_CREATE', this.apiGuildCreate(guildId), GatewayIntent.Guilds);
  }

  guildCreateHeld(guildId: string): boolean {
    return this.heldGuildCreates.has(guildId);
  }

  botInGuild(guildId: string): boolean {
    return this.members.has(`${guildId}:${this.botUser.id}`);
  }

  /** The guilds the bot is in (what READY lists), outages included. */
  botGuildIds(): string[] {
    return [...this.guilds.keys()].filter((guildId) => this.botInGuild(guildId));
  }

  /** Discord only delivers a bot's DM if the user shares a server with it. */
  sharesGuildWithBot(userId: string): boolean {
    return this.botGuildIds().some((guildId) => this.members.has(`${guildId}:${userId}`));
  }

  member(guildId: string, userId: string): SandboxMember | undefined {
    return this.members.get(`${guildId}:${userId}`);
  }

  guildMembers(guildId: string): SandboxMember[] {
    return [...this.members.values()].filter((member) => member.guildId === guildId);
  }

  // ------------------------------------------------------------------------------------------
  // Channels

  createChannel(guildId: string, options: CreateChannelOptions): SandboxChannel {
    this.guild(guildId);
    const channel: SandboxChannel = {
      id: options.id ?? this.ids.next(),
      type: options.type ?? ChannelType.GuildText,
      guildId,
      name: options.name,
      topic: options.topic ?? null,
      parentId: options.parentId ?? null,
      position: [...this.channels.values()].filter((c) => c.guildId === guildId).length,
      overwrites: [],
      recipientId: null,
      ownerId: null,
      archived: false,
      autoArchiveDuration: 1440,
      createdAt: this.now(),
      lastMessageId: null,
      deleted: false,
    };
    if (this.channels.has(channel.id)) throw new Error(`sandbox: channel ${channel.id} already exists`);
    this.channels.set(channel.id, channel);
    this.dispatch('CHANNEL_CREATE', apiChannel(channel), GatewayIntent.Guilds);
    this.changed('channel');
    return channel;
  }

  createThread(
    parent: SandboxChannel,
    options: { id?: string; name: string; type: number; autoArchiveDuration?: number },
  ): SandboxChannel {
    const thread: SandboxChannel = {
      id: options.id ?? this.ids.next(),
      type: options.type,
      guildId: parent.guildId,
      name: options.name,
      topic: null,
      parentId: parent.id,
      position: 0,
      overwrites: [],
      recipientId: null,
      ownerId: this.botUser.id,
      archived: false,
      autoArchiveDuration: options.autoArchiveDuration ?? 1440,
      createdAt: this.now(),
      lastMessageId: null,
      deleted: false,
    };
    this.channels.set(thread.id, thread);
    this.dispatch('THREAD_CREATE', { ...apiChannel(thread), newly_created: true }, GatewayIntent.Guilds);
    this.changed('thread');
    return thread;
  }

  /** A live (not deleted) channel, or undefined. */
  channel(id: string): SandboxChannel | undefined {
    const channel = this.channels.get(id);
    return channel && !channel.deleted ? channel : undefined;
  }

  requireChannel(id: string): SandboxChannel {
    const channel = this.channel(id);
    if (!channel) throw new Error(`sandbox: unknown channel ${id}`);
    return channel;
  }

  deleteChannel(id: string): void {
    const channel = this.requireChannel(id);
    channel.deleted = true;
    // Its messages go with it (Discord sends no MESSAGE_DELETE for them).
    for (const messageId of this.channelMessages.get(channel.id) ?? []) {
      const message = this.messagesById.get(messageId);
      if (message) message.deleted = true;
    }
    // A deleted thread frees its starter message: a new thread can be started from it.
    if (isThreadType(channel.type)) {
      const starter = this.messagesById.get(channel.id);
      if (starter?.threadId === channel.id) starter.threadId = null;
    }
    this.dispatch('CHANNEL_DELETE', apiChannel(channel), GatewayIntent.Guilds);
    this.changed('channel');
  }

  /** Archives a thread (as a moderator would): its messages can no longer be edited until it is unarchived. */
  archiveThread(id: string): void {
    const thread = this.requireChannel(id);
    if (!isThreadType(thread.type)) throw new Error(`sandbox: channel ${id} is not a thread`);
    thread.archived = true;
    this.dispatch('THREAD_UPDATE', apiChannel(thread), GatewayIntent.Guilds);
    this.changed('thread');
  }

  /** Replace (or remove, when allow and deny are both 0) one permission overwrite. */
  setOverwrite(channelId: string, overwrite: PermissionOverwrite): void {
    const channel = this.requireChannel(channelId);
    channel.overwrites = channel.overwrites.filter((o) => o.id !== overwrite.id);
    if (overwrite.allow !== 0n || overwrite.deny !== 0n) channel.overwrites.push(overwrite);
    this.dispatch('CHANNEL_UPDATE', apiChannel(channel), GatewayIntent.Guilds);
    this.changed('channel');
  }

  /** Adjust the bot's own member overwrite on a channel (deny or clear the given bits). */
  setBotPermission(channelId: string, bits: bigint, allowed: boolean): void {
    const channel = this.requireChannel(channelId);
    const current = channel.overwrites.find((o) => o.type === 1 && o.id === this.botUser.id) ?? {
      id: this.botUser.id,
      type: 1 as const,
      allow: 0n,
      deny: 0n,
    };
    const deny = allowed ? current.deny & ~bits : current.deny | bits;
    this.setOverwrite(channelId, { ...current, deny });
  }

  /** The DM channel between the bot and a user, created on first use (POST /users/@me/channels). */
  dmChannel(ref: UserRef): SandboxChannel {
    const user = this.user(ref);
    const existing = this.dmChannelByUser.get(user.id);
    if (existing) return this.channels.get(existing)!;
    const channel: SandboxChannel = {
      id: this.ids.next(),
      type: ChannelType.DM,
      guildId: null,
      name: null,
      topic: null,
      parentId: null,
      position: 0,
      overwrites: [],
      recipientId: user.id,
      ownerId: null,
      archived: false,
      autoArchiveDuration: 0,
      createdAt: this.now(),
      lastMessageId: null,
      deleted: false,
    };
    this.channels.set(channel.id, channel);
    this.dmChannelByUser.set(user.id, channel.id);
    return channel;
  }

  dmChannelIdOf(userId: string): string | undefined {
    return this.dmChannelByUser.get(userId);
  }

  // ------------------------------------------------------------------------------------------
  // Permissions (developers/topics/permissions.mdx "Permission Overwrites" algorithm)

  basePermissions(guildId: string, userId: string): bigint {
    const guild = this.guild(guildId);
    if (guild.ownerId === userId) return ALL_PERMISSIONS;
    const member = this.member(guildId, userId);
    let permissions = this.roles.get(guildId)?.permissions ?? 0n;
    for (const roleId of member?.roleIds ?? []) permissions |= this.roles.get(roleId)?.permissions ?? 0n;
    return (permissions & Permission.Administrator) !== 0n ? ALL_PERMISSIONS : permissions;
  }

  channelPermissions(channelId: string, userId: string): bigint {
    const channel = this.requireChannel(channelId);
    if (!channel.guildId) return ALL_PERMISSIONS;
    const base = this.basePermissions(channel.guildId, userId);
    if (base === ALL_PERMISSIONS) return base;
    // Threads inherit their parent's overwrites.
    const source =
      channel.parentId && this.channels.get(channel.parentId) && isThreadType(channel.type)
        ? this.channels.get(channel.parentId)!
        : channel;
    let permissions = base;
    const everyone = source.overwrites.find((o) => o.type === 0 && o.id === channel.guildId);
    if (everyone) permissions = (permissions & ~everyone.deny) | everyone.allow;
    const member = this.member(channel.guildId, userId);
    let allow = 0n;
    let deny = 0n;
    for (const o of source.overwrites) {
      if (o.type === 0 && member?.roleIds.includes(o.id)) {
        allow |= o.allow;
        deny |= o.deny;
      }
    }
    permissions = (permissions & ~deny) | allow;
    const own = source.overwrites.find((o) => o.type === 1 && o.id === userId);
    if (own) permissions = (permissions & ~own.deny) | own.allow;
    return permissions;
  }

  // ------------------------------------------------------------------------------------------
  // Messages

  addMessage(message: SandboxMessage): SandboxMessage {
    this.messagesById.set(message.id, message);
    const list = this.channelMessages.get(message.channelId) ?? [];
    list.push(message.id);
    this.channelMessages.set(message.channelId, list);
    const channel = this.channels.get(message.channelId);
    if (channel && !message.ephemeral) channel.lastMessageId = message.id;
    if (!message.ephemeral) {
      this.dispatch('MESSAGE_CREATE', this.apiMessage(message), messageIntent(message));
    }
    this.changed('message');
    return message;
  }

  /** Apply a partial update, keeping the previous state in `edits`. */
  editMessage(
    message: SandboxMessage,
    patch: Partial<Pick<SandboxMessage, 'content' | 'embeds' | 'components' | 'flags' | 'attachments'>>,
  ): SandboxMessage {
    const revision: MessageRevision = {
      at: message.editedAt ?? message.createdAt,
      content: message.content,
      embeds: message.embeds,
      components: message.components,
      flags: message.flags,
    };
    message.edits.push(revision);
    Object.assign(message, patch);
    message.editedAt = this.now();
    message.loading = false;
    if (!message.ephemeral) {
      this.dispatch('MESSAGE_UPDATE', this.apiMessage(message), messageIntent(message));
    }
    this.changed('message');
    return message;
  }

  deleteMessage(message: SandboxMessage): void {
    message.deleted = true;
    if (!message.ephemeral) {
      this.dispatch(
        'MESSAGE_DELETE',
        { id: message.id, channel_id: message.channelId, ...(message.guildId ? { guild_id: message.guildId } : {}) },
        messageIntent(message),
      );
    }
    this.changed('message');
  }

  /**
   * The message this author made with this nonce in this channel within NONCE_WINDOW_MS (deleted
   * ones included: Discord answers Unknown Message then rather than making the message again), or
   * undefined. Discord's docs name only "the same author"; the sandbox also keys on the channel,
   * as the nonce is a property of one channel's message list.
   */
  nonceMessage(authorId: string, channelId: string, nonce: string | number): SandboxMessage | undefined {
    this.forgetOldNonces();
    const seen = this.nonces.get(`${authorId}|${channelId}|${nonce}`);
    return seen ? this.messagesById.get(seen.messageId) : undefined;
  }

  rememberNonce(message: SandboxMessage, nonce: string | number): void {
    this.forgetOldNonces();
    this.nonces.set(`${message.authorId}|${message.channelId}|${nonce}`, { messageId: message.id, at: this.now() });
  }

  private forgetOldNonces(): void {
    const oldest = this.now() - NONCE_WINDOW_MS;
    for (const [key, seen] of this.nonces) {
      if (seen.at >= oldest) break;
      this.nonces.delete(key);
    }
  }

  message(id: string): SandboxMessage | undefined {
    const message = this.messagesById.get(id);
    return message && !message.deleted ? message : undefined;
  }

  channelMessageList(
    channelId: string,
    options: { includeEphemeral?: boolean; includeDeleted?: boolean } = {},
  ): SandboxMessage[] {
    return (this.channelMessages.get(channelId) ?? [])
      .map((id) => this.messagesById.get(id)!)
      .filter((m) => (options.includeDeleted || !m.deleted) && (options.includeEphemeral || !m.ephemeral));
  }

  // ------------------------------------------------------------------------------------------
  // Guild scheduled events (docs/discord.md#scheduled-events)

  /** Set or clear permission bits on the bot's managed role in a guild (GUILD_ROLE_UPDATE). */
  setBotRolePermission(guildId: string, bits: bigint, allowed: boolean): void {
    const role = this.roles.get(this.guild(guildId).botRoleId)!;
    role.permissions = allowed ? role.permissions | bits : role.permissions & ~bits;
    this.dispatch('GUILD_ROLE_UPDATE', { guild_id: guildId, role: apiRole(role) }, GatewayIntent.Guilds);
    this.changed('role');
  }

  /**
   * A guild's scheduled events, oldest first, after the automatic transitions the clock has made
   * due: an EXTERNAL event turns ACTIVE at its start and COMPLETED at its end. The sandbox applies
   * them when the events are read or changed and after every REST request, each with the
   * GUILD_SCHEDULED_EVENT_UPDATE Discord sends.
   */
  guildScheduledEvents(guildId: string): SandboxScheduledEvent[] {
    const events = [...this.scheduledEvents.values()].filter((event) => event.guildId === guildId);
    for (const event of events) this.settleScheduledEvent(event);
    return events;
  }

  /** Applies the transitions the clock has made due in every guild (with their UPDATE dispatches). */
  settleScheduledEvents(): void {
    for (const event of this.scheduledEvents.values()) this.settleScheduledEvent(event);
  }

  scheduledEvent(guildId: string, id: string): SandboxScheduledEvent | undefined {
    const event = this.scheduledEvents.get(id);
    if (!event || event.guildId !== guildId) return undefined;
    this.settleScheduledEvent(event);
    return event;
  }

  private settleScheduledEvent(event: SandboxScheduledEvent): void {
    if (event.entityType !== ScheduledEventEntityType.External) return;
    const now = this.now();
    if (event.status === ScheduledEventStatus.Scheduled && now >= event.startAt) {
      event.status = ScheduledEventStatus.Active;
      this.dispatchScheduledEvent('UPDATE', event);
    }
    if (event.status === ScheduledEventStatus.Active && event.endAt !== null && now >= event.endAt) {
      event.status = ScheduledEventStatus.Completed;
      this.dispatchScheduledEvent('UPDATE', event);
    }
  }

  addScheduledEvent(event: SandboxScheduledEvent): SandboxScheduledEvent {
    this.scheduledEvents.set(event.id, event);
    this.dispatchScheduledEvent('CREATE', event);
    return event;
  }

  updateScheduledEvent(event: SandboxScheduledEvent, patch: Partial<SandboxScheduledEvent>): SandboxScheduledEvent {
    Object.assign(event, patch);
    this.dispatchScheduledEvent('UPDATE', event);
    // A change of dates can make a transition due at once.
    this.settleScheduledEvent(event);
    return event;
  }

  deleteScheduledEvent(event: SandboxScheduledEvent): void {
    this.scheduledEvents.delete(event.id);
    this.dispatchScheduledEvent('DELETE', event);
  }

  apiScheduledEvent(event: SandboxScheduledEvent, extra: { userCount?: number } = {}): Record<string, unknown> {
    return apiScheduledEvent(event, this.users.get(event.creatorId), extra);
  }

  private dispatchScheduledEvent(what: 'CREATE' | 'UPDATE' | 'DELETE', event: SandboxScheduledEvent): void {
    this.dispatch(`GUILD_SCHEDULED_EVENT_${what}`, this.apiScheduledEvent(event), GatewayIntent.GuildScheduledEvents);
    this.changed('scheduled-event');
  }

  // ------------------------------------------------------------------------------------------
  // Wire views

  apiUser(id: string): Record<string, unknown> {
    return apiUser(this.user(id));
  }

  apiRole(id: string): Record<string, unknown> {
    const role = this.roles.get(id);
    if (!role) throw new Error(`sandbox: unknown role ${id}`);
    return apiRole(role);
  }

  apiMessage(message: SandboxMessage): Record<string, unknown> {
    const author = this.users.get(message.authorId) ?? this.botUser;
    return apiMessage(message, author, this.applicationId);
  }

  apiChannel(channel: SandboxChannel): Record<string, unknown> {
    return apiChannel(channel, channel.recipientId ? this.users.get(channel.recipientId) : undefined);
  }

  apiMember(
    guildId: string,
    userId: string,
    options: { permissions?: bigint; withUser?: boolean } = {},
  ): Record<string, unknown> {
    const member = this.member(guildId, userId);
    if (!member) throw new Error(`sandbox: ${userId} is not a member of ${guildId}`);
    const extra = options.permissions === undefined ? {} : { permissions: options.permissions };
    return apiMember(member, options.withUser === false ? undefined : this.users.get(userId), extra);
  }

  /** Guild object as GET /guilds/{id} returns it (no channels or members). */
  apiGuild(guildId: string): Record<string, unknown> {
    return apiGuild(this.guild(guildId), {
      roles: this.guildRoles(guildId),
      memberCount: this.guildMembers(guildId).length,
    });
  }

  /** Full GUILD_CREATE payload: roles, channels, active threads, and the members the bot may see. */
  apiGuildCreate(guildId: string): Record<string, unknown> {
    const all = [...this.channels.values()].filter((c) => c.guildId === guildId && !c.deleted);
    return apiGuild(this.guild(guildId), {
      roles: this.guildRoles(guildId),
      channels: all.filter((c) => !isThreadType(c.type)),
      threads: all.filter((c) => isThreadType(c.type) && !c.archived),
      // Like Discord without the privileged presence intent: only the bot's own member.
      members: [this.apiMember(guildId, this.botUser.id)],
      scheduledEvents: this.guildScheduledEvents(guildId).map((event) => this.apiScheduledEvent(event)),
      memberCount: this.guildMembers(guildId).length,
    });
  }
}

export function isThreadType(type: number): boolean {
  return (
    type === ChannelType.PublicThread || type === ChannelType.PrivateThread || type === ChannelType.AnnouncementThread
  );
}

function messageIntent(message: SandboxMessage): number {
  return message.guildId ? GatewayIntent.GuildMessages : GatewayIntent.DirectMessages;
}
