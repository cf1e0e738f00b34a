/**
 * Whether the bot can post in a channel: what /setup channel and /feeds check before they store
 * a channel, what they show next to each stored one, and what the scheduler checks before it resumes
 * a paused feed. The one list of the permissions a post needs. Posts are embeds, so the bot needs View,
 * Send and Embed Links, and Read Message History to find its own posts after a crash; threads under results posts also need Create Public Threads and Send
 * Messages in Threads. Split pictures (results threads) need Attach Files; without it they go out as
 * text, so it is asked for in the invite and shown next to a channel, never required.
 */
import { ChannelType, type Guild, PermissionFlagsBits } from 'discord.js';
import { UserFacingError } from '../../i18n/user-facing-error.js';
import type { MessageKey, PlainKey, VarsArgument } from '../../i18n/index.js';

/** What these helpers need of a command's context: its translator. */
type Translator = { t<K extends MessageKey>(key: K, ...vars: VarsArgument<K>): string };

const POST_PERMISSIONS: ReadonlyArray<[bigint, PlainKey]> = [
  [PermissionFlagsBits.ViewChannel, 'setup.perm.view'],
  [PermissionFlagsBits.SendMessages, 'setup.perm.send'],
  [PermissionFlagsBits.EmbedLinks, 'setup.perm.embed'],
  // After a crash the bot looks for its own last posts before posting again (feeds/poster.ts).
  [PermissionFlagsBits.ReadMessageHistory, 'setup.perm.history'],
];

/** The channel types automatic posts can go to. */
export const POSTABLE_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

/** What pictures need besides posting: without it the analysis goes out as text (docs/admins.md#split-pictures). */
const PICTURE_PERMISSIONS: ReadonlyArray<[bigint, PlainKey]> = [[PermissionFlagsBits.AttachFiles, 'setup.perm.attach']];

/** What a thread under a results post needs besides posting in the channel itself. */
const THREAD_PERMISSIONS: ReadonlyArray<[bigint, PlainKey]> = [
  [PermissionFlagsBits.CreatePublicThreads, 'feeds.perm.createThreads'],
  [PermissionFlagsBits.SendMessagesInThreads, 'feeds.perm.sendInThreads'],
];

/**
 * What the `calendar` kind needs, server-wide: Create Events to create the races' scheduled events,
 * Manage Events to edit or delete ones others made (docs/discord.md#scheduled-events).
 */
const SCHEDULED_EVENT_PERMISSIONS: ReadonlyArray<[bigint, PlainKey]> = [
  [PermissionFlagsBits.CreateEvents, 'feeds.perm.createEvents'],
  [PermissionFlagsBits.ManageEvents, 'feeds.perm.manageEvents'],
];

/** What the `calendar` kind needs, for a check that has the bot's permissions at hand (the pause's re-check). */
export const SCHEDULED_EVENT_PERMISSION_BITS: readonly bigint[] = SCHEDULED_EVENT_PERMISSIONS.map(([bit]) => bit);

/** The server-wide permissions the bot lacks for the races in the server's Events (empty: none), or null without the server. */
export async function missingEventPermissions(guild: Guild | null): Promise<PlainKey[] | null> {
  if (!guild) return null;
  const me = guild.members.me ?? (await guild.members.fetchMe());
  return SCHEDULED_EVENT_PERMISSIONS.filter(([bit]) => !me.permissions.has(bit)).map(([, key]) => key);
}

async function missing(
  guild: Guild | null,
  channelId: string,
  wanted: ReadonlyArray<[bigint, PlainKey]>,
): Promise<PlainKey[] | null> {
  if (!guild) return null;
  const channel = guild.channels.cache.get(channelId) ?? (await guild.channels.fetch(channelId).catch(() => null));
  if (!channel) return null;
  const me = guild.members.me ?? (await guild.members.fetchMe());
  const granted = channel.permissionsFor(me);
  return wanted.filter(([bit]) => !granted.has(bit)).map(([, key]) => key);
}

/** Every permission a post needs, for a check that has the bot's permissions at hand. */
export const POST_PERMISSION_BITS: readonly bigint[] = POST_PERMISSIONS.map(([bit]) => bit);

/**
 * Every permission the bot's features need: what the invite URL asks for (`eventor-bot invite`),
 * so that the URL and the checks above cannot drift apart. Commands need none: Discord lets an
 * application answer its own interactions in any channel.
 */
export const BOT_PERMISSION_BITS: readonly bigint[] = [
  ...POST_PERMISSIONS,
  ...THREAD_PERMISSIONS,
  ...PICTURE_PERMISSIONS,
  ...SCHEDULED_EVENT_PERMISSIONS,
].map(([bit]) => bit);

/** The permissions the bot lacks to post in a channel (empty: it can post), or null if the channel is gone. */
export function missingPostPermissions(guild: Guild | null, channelId: string): Promise<PlainKey[] | null> {
  return missing(guild, channelId, POST_PERMISSIONS);
}

/** The permissions the bot lacks to open threads on its posts in a channel and post in them, or null if the channel is gone. */
export function missingThreadPermissions(guild: Guild | null, channelId: string): Promise<PlainKey[] | null> {
  return missing(guild, channelId, THREAD_PERMISSIONS);
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

/** The server-wide permissions of the races in the server's Events, as /feeds show and /setup show list them. */
export async function eventPermissionState(ctx: Translator, guild: Guild | null): Promise<string> {
  const missing = await missingEventPermissions(guild);
  if (missing === null || missing.length === 0) return ctx.t('feeds.calendar.permissionsOk');
  return ctx.t('feeds.calendar.missing', { permissions: missing.map((key) => ctx.t(key)).join(', ') });
}
