import { ChannelType } from './constants.js';
import type {
  PermissionOverwrite,
  SandboxChannel,
  SandboxGuild,
  SandboxMember,
  SandboxMessage,
  SandboxRole,
  SandboxScheduledEvent,
  SandboxUser,
} from './types.js';

/**
 * World records → Discord wire JSON. Field sets follow what discord.js reads
 * (docs/discord.md#ready-and-guild_create, docs/discord.md#interaction-payloads): missing fields
 * there either crash the client or silently leave its caches empty.
 */

const iso = (ms: number): string => new Date(ms).toISOString();

export function apiUser(user: SandboxUser): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    global_name: user.globalName,
    discriminator: '0',
    avatar: null,
    bot: user.bot,
    system: false,
    public_flags: 0,
    flags: 0,
    ...(user.bot ? {} : { locale: user.locale }),
  };
}

export function apiRole(role: SandboxRole): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    color: role.color,
    colors: { primary_color: role.color, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.managed,
    mentionable: false,
    flags: 0,
  };
}

export function apiMember(
  member: SandboxMember,
  user: SandboxUser | undefined,
  extra: { permissions?: bigint } = {},
): Record<string, unknown> {
  return {
    ...(user ? { user: apiUser(user) } : {}),
    nick: member.nick,
    avatar: null,
    banner: null,
    roles: member.roleIds,
    joined_at: iso(member.joinedAt),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    ...(extra.permissions !== undefined ? { permissions: extra.permissions.toString() } : {}),
  };
}

function apiOverwrite(overwrite: PermissionOverwrite): Record<string, unknown> {
  return {
    id: overwrite.id,
    type: overwrite.type,
    allow: overwrite.allow.toString(),
    deny: overwrite.deny.toString(),
  };
}

export function apiChannel(
  channel: SandboxChannel,
  recipient?: SandboxUser,
  options: { inGuildCreate?: boolean } = {},
): Record<string, unknown> {
  if (channel.type === ChannelType.DM) {
    return {
      id: channel.id,
      type: channel.type,
      last_message_id: channel.lastMessageId,
      flags: 0,
      recipients: recipient ? [apiUser(recipient)] : [],
    };
  }
  const base: Record<string, unknown> = {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    flags: 0,
    last_message_id: channel.lastMessageId,
    rate_limit_per_user: 0,
    nsfw: false,
    parent_id: channel.parentId,
  };
  // GUILD_CREATE omits guild_id on its channels; discord.js fills it in.
  if (!options.inGuildCreate) base['guild_id'] = channel.guildId;
  const isThread =
    channel.type === ChannelType.PublicThread ||
    channel.type === ChannelType.PrivateThread ||
    channel.type === ChannelType.AnnouncementThread;
  if (isThread) {
    return {
      ...base,
      owner_id: channel.ownerId,
      message_count: 0,
      member_count: 1,
      total_message_sent: 0,
      thread_metadata: {
        archived: channel.archived,
        auto_archive_duration: channel.autoArchiveDuration,
        archive_timestamp: iso(channel.createdAt),
        locked: false,
        create_timestamp: iso(channel.createdAt),
        ...(channel.type === ChannelType.PrivateThread ? { invitable: true } : {}),
      },
    };
  }
  return {
    ...base,
    position: channel.position,
    topic: channel.topic,
    permission_overwrites: channel.overwrites.map(apiOverwrite),
    default_auto_archive_duration: 1440,
  };
}

export function apiGuild(
  guild: SandboxGuild,
  parts: {
    roles: SandboxRole[];
    channels?: SandboxChannel[];
    threads?: SandboxChannel[];
    members?: Record<string, unknown>[];
    scheduledEvents?: Record<string, unknown>[];
    memberCount: number;
  },
): Record<string, unknown> {
  const full = parts.channels !== undefined;
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 1,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    vanity_url_code: null,
    preferred_locale: guild.preferredLocale,
    features: [],
    roles: parts.roles.map(apiRole),
    emojis: [],
    stickers: [],
    application_id: null,
    max_members: 500000,
    approximate_member_count: parts.memberCount,
    ...(full
      ? {
          joined_at: iso(guild.createdAt),
          large: false,
          unavailable: false,
          member_count: parts.memberCount,
          voice_states: [],
          members: parts.members ?? [],
          channels: (parts.channels ?? []).map((channel) => apiChannel(channel, undefined, { inGuildCreate: true })),
          threads: (parts.threads ?? []).map((thread) => apiChannel(thread)),
          presences: [],
          stage_instances: [],
          guild_scheduled_events: parts.scheduledEvents ?? [],
          soundboard_sounds: [],
        }
      : {}),
  };
}

export function apiMessage(
  message: SandboxMessage,
  author: SandboxUser,
  applicationId: string,
): Record<string, unknown> {
  return {
    id: message.id,
    type: message.type,
    channel_id: message.channelId,
    ...(message.guildId ? { guild_id: message.guildId } : {}),
    author: apiUser(author),
    content: message.content,
    timestamp: iso(message.createdAt),
    edited_timestamp: message.editedAt === null ? null : iso(message.editedAt),
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: message.attachments.map(({ data: _data, ...attachment }) => attachment),
    embeds: message.embeds.map((embed) => ({ type: 'rich', ...embed })),
    components: message.components,
    reactions: message.reactions.map((emoji) => {
      const [name, id] = emoji.split(':');
      return {
        count: 1,
        me: true,
        me_burst: false,
        burst_colors: [],
        count_details: { burst: 0, normal: 1 },
        emoji: { name, id: id ?? null },
      };
    }),
    pinned: false,
    flags: message.flags,
    ...(message.webhookId ? { webhook_id: message.webhookId, application_id: applicationId } : {}),
    ...(message.messageReference ? { message_reference: { type: 0, ...message.messageReference } } : {}),
    ...(message.nonce !== undefined ? { nonce: message.nonce } : {}),
  };
}

/** A scheduled event as the REST routes and the gateway send it; `user_count` only when asked for. */
export function apiScheduledEvent(
  event: SandboxScheduledEvent,
  creator: SandboxUser | undefined,
  extra: { userCount?: number } = {},
): Record<string, unknown> {
  return {
    id: event.id,
    guild_id: event.guildId,
    channel_id: event.channelId,
    creator_id: event.creatorId,
    name: event.name,
    description: event.description,
    scheduled_start_time: iso(event.startAt),
    scheduled_end_time: event.endAt === null ? null : iso(event.endAt),
    privacy_level: event.privacyLevel,
    status: event.status,
    entity_type: event.entityType,
    entity_id: null,
    entity_metadata: event.location === null ? null : { location: event.location },
    ...(creator ? { creator: apiUser(creator) } : {}),
    image: null,
    recurrence_rule: null,
    ...(extra.userCount !== undefined ? { user_count: extra.userCount } : {}),
  };
}
