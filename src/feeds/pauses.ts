/**
 * Pauses the bot sets and lifts: lost permission, a deleted channel or a refused key pause that
 * kind for the server and tell the admins once; an hourly re-check resumes it, with one more
 * notice, when the cause is gone. A pause an admin set (`/feeds pause`) is theirs to lift.
 */
import { ChannelType, type Client } from 'discord.js';
import type { EventorClient } from '../eventor/client.js';
import type { Language } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import { POST_PERMISSION_BITS } from './delivery/post-channels.js';
import type { FeedKind } from './kind.js';
import type { AdminNotices } from './notices.js';
import type { FeedSettings, KindSettings, PauseReason } from './settings.js';

/** How often a bot-set pause is re-checked. */
export const RECHECK_MS = 60 * 60_000;

export class Pauses {
  /** When each (server, kind) was last paused or re-checked, by the scheduler's key for it. */
  readonly #lastCheck = new Map<string, number>();

  constructor(
    private readonly settings: KindSettings,
    private readonly notices: AdminNotices,
    private readonly discord: Client,
    private readonly log: Logger,
  ) {}

  /** Whether a paused kind is due for a re-check (never for an admin's pause). */
  recheckDue(key: string, settings: FeedSettings, now: Date): boolean {
    return (
      settings.pausedReason !== null &&
      settings.pausedReason !== 'admin' &&
      now.getTime() - (this.#lastCheck.get(key) ?? 0) >= RECHECK_MS
    );
  }

  /** Pauses the kind (unless something paused it already) and tells the admins, once. */
  async pause(
    key: string,
    settings: FeedSettings,
    reason: Exclude<PauseReason, 'admin'>,
    now: Date,
    language: Language,
  ): Promise<void> {
    const current = await this.settings.get(settings.guildId, settings.feed);
    if (current.pausedReason !== null) return;
    await this.settings.update(settings.guildId, settings.feed, { pausedReason: reason });
    this.#lastCheck.set(key, now.getTime());
    this.log.warn('feed paused', { guildId: settings.guildId, feed: settings.feed, reason });
    const kind = this.settings.kind(settings.feed);
    // A kind without a channel (the server's scheduled events) is refused permissions of the server, not of a channel.
    const notice =
      reason === 'no-permission' && kind.notices?.pausedNoPermission
        ? kind.notices.pausedNoPermission
        : (`scheduler.paused.${reason}` as const);
    await this.notices.tell(settings.guildId, language, notice, { noticeLabel: kind.noticeLabel, ...settings });
  }

  /** A bot-set pause: is the cause gone? Then resume and say so, once. */
  async recheck(
    key: string,
    settings: FeedSettings,
    client: EventorClient | null,
    now: Date,
    language: Language,
  ): Promise<void> {
    this.#lastCheck.set(key, now.getTime());
    let fixed: boolean;
    if (settings.pausedReason === 'invalid-key') {
      if (!client) return;
      try {
        await client.call('organisation-apikey', {}, { fresh: true });
        fixed = true;
      } catch {
        fixed = false;
      }
    } else if (this.settings.kind(settings.feed).audience === 'server') {
      fixed = await this.#grantedServerWide(settings.guildId, this.settings.kind(settings.feed));
    } else {
      fixed = await this.#canPost(settings.channelId!);
    }
    if (!fixed) return;
    const current = await this.settings.get(settings.guildId, settings.feed);
    if (current.pausedReason !== settings.pausedReason) return;
    await this.settings.update(settings.guildId, settings.feed, { pausedReason: null });
    this.log.info('feed resumed', { guildId: settings.guildId, feed: settings.feed });
    const { noticeLabel } = this.settings.kind(settings.feed);
    await this.notices.tell(settings.guildId, language, 'scheduler.resumed', { noticeLabel, ...settings });
  }

  /** Whether the bot's roles grant, server-wide, what a server kind needs (asked afresh). */
  async #grantedServerWide(guildId: string, kind: FeedKind): Promise<boolean> {
    try {
      const guild = await this.discord.guilds.fetch({ guild: guildId, force: true });
      const me = await guild.members.fetchMe({ force: true });
      return me.permissions.has(kind.permissions.map(([bit]) => bit));
    } catch {
      return false;
    }
  }

  async #canPost(channelId: string): Promise<boolean> {
    const client = this.discord;
    try {
      const channel = await client.channels.fetch(channelId, { force: true });
      if (!channel || channel.type === ChannelType.DM || !('permissionsFor' in channel) || !client.user) return false;
      const permissions = channel.permissionsFor(client.user);
      return permissions?.has([...POST_PERMISSION_BITS]) ?? false;
    } catch {
      return false;
    }
  }
}
