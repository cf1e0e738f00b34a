/**
 * Whether the bot can post in a channel: what /setup channel and /feeds check before they store
 * a channel, and what they show next to each stored one. Posts are embeds, so the bot needs View,
 * Send and Embed Links.
 */
import { ChannelType, PermissionFlagsBits, type Guild } from 'discord.js';
import type { MessageKey } from '../src/i18n/index.js';

const POST_PERMISSIONS: ReadonlyArray<[bigint, MessageKey]> = [
  [PermissionFlagsBits.ViewChannel, 'setup.perm.view'],
  [PermissionFlagsBits.SendMessages, 'setup.perm.send'],
  [PermissionFlagsBits.EmbedLinks, 'setup.perm.embed'],
];

/** The channel types automatic posts can go to. */
export const POSTABLE_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

/** The permissions the bot lacks to post in a channel (empty: it can post), or null if the channel is gone. */
export async function missingPostPermissions(guild: Guild | null, channelId: string): Promise<MessageKey[] | null> {
  if (!guild) return null;
  const channel = guild.channels.cache.get(channelId) ?? (await guild.channels.fetch(channelId).catch(() => null));
  if (!channel) return null;
  const me = guild.members.me ?? (await guild.members.fetchMe());
  const granted = channel.permissionsFor(me);
  return POST_PERMISSIONS.filter(([bit]) => !granted.has(bit)).map(([, key]) => key);
}
