import { ChannelType, Permission } from './constants.js';
import type { SandboxContext } from './context.js';
import { apiErrors, invalidFormBody } from './errors.js';
import { noContent, ok, type Route, type RouteContext } from './http.js';
import { checkAutoArchive, checkNonce, checkThreadName } from './limits.js';
import { createMessage, editMessage } from './messages.js';
import type { SandboxChannel, SandboxMessage } from './types.js';
import { isThreadType } from './world.js';

/** Channel, message, thread and DM routes (bot-token authenticated). */
export function channelRoutes(ctx: SandboxContext): Route[] {
  const { world } = ctx;
  const bot = world.botUser.id;

  const channelOr404 = (id: string | undefined): SandboxChannel => {
    const channel = world.channel(id ?? '');
    if (!channel) throw apiErrors.unknownChannel();
    // The channels of a guild the bot was removed from still exist, but not for the bot.
    if (channel.guildId && !world.botInGuild(channel.guildId)) throw apiErrors.missingAccess();
    return channel;
  };

  /** Discord answers 50001 when the bot cannot see the channel, 50013 when it sees but lacks the bit. */
  const requirePermission = (channel: SandboxChannel, bit: bigint): void => {
    if (!channel.guildId) return;
    const permissions = world.channelPermissions(channel.id, bot);
    if ((permissions & Permission.ViewChannel) === 0n) throw apiErrors.missingAccess();
    if ((permissions & bit) === 0n) throw apiErrors.missingPermissions();
  };

  /** Any request about a guild channel's messages needs View Channel (else 50001), even on the bot's own. */
  const requireView = (channel: SandboxChannel): void => {
    if (!channel.guildId) return;
    if ((world.channelPermissions(channel.id, bot) & Permission.ViewChannel) === 0n) throw apiErrors.missingAccess();
  };

  const requireCanPost = (channel: SandboxChannel): void => {
    if (channel.type === ChannelType.DM) {
      const recipient = channel.recipientId ? world.users.get(channel.recipientId) : undefined;
      // 50007 covers all three: DMs switched off, no shared server any more, or another bot.
      if (!recipient || recipient.dmsClosed || recipient.bot || !world.sharesGuildWithBot(recipient.id)) {
        throw apiErrors.dmsClosed();
      }
      return;
    }
    requirePermission(channel, isThreadType(channel.type) ? Permission.SendMessagesInThreads : Permission.SendMessages);
  };

  /** Uploading files in a server channel (or its threads) needs Attach Files: 50013 without it (DMs need none). */
  const requireCanAttach = (channel: SandboxChannel, files: readonly unknown[]): void => {
    if (files.length > 0) requirePermission(channel, Permission.AttachFiles);
  };

  const messageOr404 = (channel: SandboxChannel, id: string | undefined): SandboxMessage => {
    const message = world.message(id ?? '');
    if (!message || message.channelId !== channel.id || message.ephemeral) throw apiErrors.unknownMessage();
    return message;
  };

  const startThread = (parent: SandboxChannel, r: RouteContext, fromMessage: SandboxMessage | null): SandboxChannel => {
    if (parent.type !== ChannelType.GuildText && parent.type !== ChannelType.GuildAnnouncement) {
      throw apiErrors.badRequest('Cannot execute action on this channel type');
    }
    const body = (r.body ?? {}) as { name?: unknown; type?: number; auto_archive_duration?: number };
    const errors = [...checkThreadName(body.name), ...checkAutoArchive(body.auto_archive_duration)];
    if (errors.length > 0) throw invalidFormBody(errors);
    // resources/channel.mdx "Start Thread without Message": type defaults to PRIVATE_THREAD.
    const type = fromMessage
      ? parent.type === ChannelType.GuildAnnouncement
        ? ChannelType.AnnouncementThread
        : ChannelType.PublicThread
      : (body.type ?? ChannelType.PrivateThread);
    requirePermission(
      parent,
      type === ChannelType.PrivateThread ? Permission.CreatePrivateThreads : Permission.CreatePublicThreads,
    );
    if (fromMessage?.threadId && world.channel(fromMessage.threadId)) throw apiErrors.threadAlreadyCreated();
    const thread = world.createThread(parent, {
      // A thread started from a message shares the message's id (Discord convention).
      ...(fromMessage ? { id: fromMessage.id } : {}),
      name: String(body.name),
      type,
      ...(body.auto_archive_duration ? { autoArchiveDuration: body.auto_archive_duration } : {}),
    });
    if (fromMessage) fromMessage.threadId = thread.id;
    return thread;
  };

  return [
    {
      method: 'GET',
      template: '/channels/:channelId',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        if (channel.guildId && (world.channelPermissions(channel.id, bot) & Permission.ViewChannel) === 0n) {
          throw apiErrors.missingAccess();
        }
        return ok(world.apiChannel(channel));
      },
    },
    {
      method: 'DELETE',
      template: '/channels/:channelId',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        requirePermission(channel, isThreadType(channel.type) ? Permission.ManageThreads : Permission.ManageChannels);
        world.deleteChannel(channel.id);
        return ok(world.apiChannel(channel));
      },
    },
    {
      method: 'GET',
      template: '/channels/:channelId/messages',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        requirePermission(channel, Permission.ReadMessageHistory);
        const limit = Math.min(Math.max(Number(r.query.get('limit') ?? 50) || 50, 1), 100);
        const before = r.query.get('before');
        const after = r.query.get('after');
        let list = world.channelMessageList(channel.id);
        if (before) list = list.filter((m) => BigInt(m.id) < BigInt(before));
        if (after) list = list.filter((m) => BigInt(m.id) > BigInt(after));
        // Newest first, like Discord (except `after`, which pages forward from the oldest).
        const page = after ? list.slice(0, limit) : list.slice(-limit);
        return ok(page.reverse().map((m) => world.apiMessage(m)));
      },
    },
    {
      method: 'POST',
      template: '/channels/:channelId/messages',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        requireCanPost(channel);
        requireCanAttach(channel, r.files);
        // A message sent into an archived (unlocked) thread unarchives it.
        if (channel.archived) channel.archived = false;
        const { nonce, enforce_nonce: enforce } = (r.body ?? {}) as { nonce?: unknown; enforce_nonce?: unknown };
        const nonceErrors = checkNonce(nonce);
        if (nonceErrors.length > 0) throw invalidFormBody(nonceErrors);
        const enforced = enforce === true && (typeof nonce === 'string' || typeof nonce === 'number') ? nonce : null;
        if (enforced !== null) {
          // A safe retry: the message already made answers again, nothing new is created (and
          // one deleted since is Unknown Message, not made anew: Discord staff, api-docs PR #6647).
          const earlier = world.nonceMessage(bot, channel.id, enforced);
          if (earlier) {
            if (earlier.deleted) throw apiErrors.unknownMessage();
            return ok(world.apiMessage(earlier));
          }
        }
        const message = createMessage(world, {
          channel,
          authorId: bot,
          body: r.body,
          files: r.files,
          baseUrl: ctx.baseUrl(),
        });
        if (enforced !== null) world.rememberNonce(message, enforced);
        return ok(world.apiMessage(message));
      },
    },
    {
      method: 'GET',
      template: '/channels/:channelId/messages/:messageId',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        requirePermission(channel, Permission.ReadMessageHistory);
        return ok(world.apiMessage(messageOr404(channel, r.params['messageId'])));
      },
    },
    {
      method: 'PATCH',
      template: '/channels/:channelId/messages/:messageId',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        requireView(channel);
        const message = messageOr404(channel, r.params['messageId']);
        if (message.authorId !== bot || message.webhookId) throw apiErrors.cannotEditOthers();
        // resources/channel.mdx: an archived thread's messages cannot be edited (50083).
        if (channel.archived) throw apiErrors.threadArchived();
        requireCanAttach(channel, r.files);
        return ok(world.apiMessage(editMessage(world, message, r.body, r.files, ctx.baseUrl())));
      },
    },
    {
      method: 'DELETE',
      template: '/channels/:channelId/messages/:messageId',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        requireView(channel);
        const message = messageOr404(channel, r.params['messageId']);
        if (message.authorId !== bot) requirePermission(channel, Permission.ManageMessages);
        world.deleteMessage(message);
        return noContent();
      },
    },
    {
      method: 'POST',
      template: '/channels/:channelId/typing',
      auth: true,
      handle: (r) => {
        requireCanPost(channelOr404(r.params['channelId']));
        return noContent();
      },
    },
    {
      // The bot's own reactions; stored so tests can see them (`MessageView.reactions`).
      method: 'PUT',
      template: '/channels/:channelId/messages/:messageId/reactions/:emoji/@me',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        const message = messageOr404(channel, r.params['messageId']);
        requirePermission(channel, Permission.AddReactions | Permission.ReadMessageHistory);
        const emoji = r.params['emoji']!;
        if (!message.reactions.includes(emoji)) {
          message.reactions.push(emoji);
          world.changed('reaction');
        }
        return noContent();
      },
    },
    {
      method: 'DELETE',
      template: '/channels/:channelId/messages/:messageId/reactions/:emoji/@me',
      auth: true,
      handle: (r) => {
        const message = messageOr404(channelOr404(r.params['channelId']), r.params['messageId']);
        message.reactions = message.reactions.filter((e) => e !== r.params['emoji']);
        world.changed('reaction');
        return noContent();
      },
    },
    {
      method: 'POST',
      template: '/channels/:channelId/threads',
      auth: true,
      handle: (r) => ok(world.apiChannel(startThread(channelOr404(r.params['channelId']), r, null))),
    },
    {
      method: 'POST',
      template: '/channels/:channelId/messages/:messageId/threads',
      auth: true,
      handle: (r) => {
        const channel = channelOr404(r.params['channelId']);
        return ok(world.apiChannel(startThread(channel, r, messageOr404(channel, r.params['messageId']))));
      },
    },
    {
      method: 'POST',
      template: '/users/@me/channels',
      auth: true,
      handle: (r) => {
        const recipient = String((r.body as { recipient_id?: unknown } | undefined)?.recipient_id ?? '');
        if (!world.users.has(recipient)) throw apiErrors.unknownUser();
        return ok(world.apiChannel(world.dmChannel(recipient)));
      },
    },
  ];
}
