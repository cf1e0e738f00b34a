/**
 * Whether the bot can post in a channel: what /setup channel and /feeds check before they store
 * a channel, what they show next to each stored one, and what the scheduler checks before it resumes
 * a paused feed. The one list of the permissions a post needs: posts are embeds, so the bot needs
 * View, Send and Embed Links, and Read Message History to find its own posts after a crash. Pictures
 * need Attach Files; without it they go out as text, so it is shown next to a channel, never
 * required. What a kind needs besides is the kind's (`FeedKind.permissions`).
 */
import { ChannelType, type Guild, type GuildMember, PermissionFlagsBits } from 'discord.js';
import { UserFacingError } from '../../i18n/user-facing-error.js';
import type { KeyWithVariables, MessageKey, PlainKey, VarsArgument } from '../../i18n/index.js';

/** A Discord permission, by its bit and the catalogue's name for it (what admins read when it is missing). */
export type Permission = readonly [bit: bigint, name: PlainKey];

/** What these helpers need of a command's context: its translator. */
type Translator = { t<K extends MessageKey>(key: K, ...vars: VarsArgument<K>): string };

export const POST_PERMISSIONS: readonly Permission[] = [
  [PermissionFlagsBits.ViewChannel, 'setup.perm.view'],
  [PermissionFlagsBits.SendMessages, 'setup.perm.send'],
  [PermissionFlagsBits.EmbedLinks, 'setup.perm.embed'],
  // After a crash the bot looks for its own last posts before posting again (feeds/poster.ts).
  [PermissionFlagsBits.ReadMessageHistory, 'setup.perm.history'],
];

/** The channel types automatic posts can go to. */
export const POSTABLE_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

/** What pictures need besides posting: without it the analysis goes out as text (docs/admins.md#split-pictures). */
export const PICTURE_PERMISSIONS: readonly Permission[] = [[PermissionFlagsBits.AttachFiles, 'setup.perm.attach']];

/**
 * The bot's member in a server, with the server's roles at hand to work out its permissions. Right
 * after connecting, Discord lists a server as unavailable until its GUILD_CREATE arrives, and a
 * command can come first: discord.js then knows the server without its roles (not even @everyone),
 * so they are fetched once instead of failing inside discord.js.
 */
async function botMember(guild: Guild): Promise<GuildMember> {
  if (guild.roles.everyone === undefined) await guild.roles.fetch();
  if (guild.roles.everyone === undefined) throw new UserFacingError('error.discordUnavailable');
  return guild.members.me ?? (await guild.members.fetchMe());
}

/** The server-wide permissions of `wanted` the bot lacks (empty: none), or null without the server. */
export async function missingServerPermissions(
  guild: Guild | null,
  wanted: readonly Permission[],
): Promise<PlainKey[] | null> {
  if (!guild) return null;
  const me = await botMember(guild);
  return wanted.filter(([bit]) => !me.permissions.has(bit)).map(([, key]) => key);
}

async function missing(
  guild: Guild | null,
  channelId: string,
  wanted: readonly Permission[],
): Promise<PlainKey[] | null> {
  if (!guild) return null;
  const channel = guild.channels.cache.get(channelId) ?? (await guild.channels.fetch(channelId).catch(() => null));
  if (!channel) return null;
  const granted = channel.permissionsFor(await botMember(guild));
  return wanted.filter(([bit]) => !granted.has(bit)).map(([, key]) => key);
}

/** Every permission a post needs, for a check that has the bot's permissions at hand. */
export const POST_PERMISSION_BITS: readonly bigint[] = POST_PERMISSIONS.map(([bit]) => bit);

/** The permissions the bot lacks to post in a channel (empty: it can post), or null if the channel is gone. */
export function missingPostPermissions(guild: Guild | null, channelId: string): Promise<PlainKey[] | null> {
  return missing(guild, channelId, POST_PERMISSIONS);
}

/** The permissions of `wanted` the bot lacks in a channel (empty: none), or null if the channel is gone. */
export function missingChannelPermissions(
  guild: Guild | null,
  channelId: string,
  wanted: readonly Permission[],
): Promise<PlainKey[] | null> {
  return missing(guild, channelId, wanted);
}

/** The permissions the bot lacks to attach pictures in a channel (and its threads), or null if the channel is gone. */
export function missingPicturePermissions(guild: Guild | null, channelId: string): Promise<PlainKey[] | null> {
  return missing(guild, channelId, PICTURE_PERMISSIONS);
}

/** Refuses (nothing changed) unless the bot can post in the channel, naming what it lacks. */
export async function requireCanPost(ctx: Translator, guild: Guild | null, channelId: string): Promise<void> {
  const missing = await missingPostPermissions(guild, channelId);
  if (missing === null) throw new UserFacingError('setup.channel.notFound');
  if (missing.length > 0) {
    throw new UserFacingError('setup.channel.missing', {
      channel: `<#${channelId}>`,
      permissions: missing.map((key) => ctx.t(key)).join(', '),
    });
  }
}

/** A stored channel as /setup show and /feeds show list it: the channel and whether the bot can post there. */
export async function channelState(
  ctx: Translator,
  guild: Guild | null,
  channelId: string | null | undefined,
): Promise<string> {
  if (!channelId) return ctx.t('setup.show.notSet');
  const missing = await missingPostPermissions(guild, channelId);
  const pictures = missing?.length === 0 ? await missingPicturePermissions(guild, channelId) : [];
  const health =
    missing === null
      ? ctx.t('setup.show.channelGone')
      : missing.length > 0
        ? ctx.t('setup.show.cannotPost', { permissions: missing.map((key) => ctx.t(key)).join(', ') })
        : pictures && pictures.length > 0
          ? ctx.t('setup.show.noPictures', { permissions: pictures.map((key) => ctx.t(key)).join(', ') })
          : ctx.t('setup.show.canPost');
  return `<#${channelId}> (${health})`;
}

/** A server kind's server-wide permissions, as /feeds show and /setup show list them. */
export async function serverPermissionState(
  ctx: Translator,
  guild: Guild | null,
  wanted: readonly Permission[],
  words: { missing: KeyWithVariables<'permissions'>; ok: PlainKey },
): Promise<string> {
  const missing = await missingServerPermissions(guild, wanted);
  if (missing === null || missing.length === 0) return ctx.t(words.ok);
  return ctx.t(words.missing, { permissions: missing.map((key) => ctx.t(key)).join(', ') });
}
