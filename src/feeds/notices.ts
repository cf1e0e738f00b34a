/**
 * Notices to a server's admins about its feeds (paused, resumed): to the `admin` channel of
 * `/setup channel`, else to the server owner by DM. Failures are logged, never thrown: a notice
 * that cannot be delivered must not hold up the feeds.
 */
import { type Client, Routes } from 'discord.js';
import { type Language, t } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import type { FeedKind, PauseReason } from './settings.js';

export type FeedNotice = `scheduler.paused.${Exclude<PauseReason, 'admin'>}` | 'scheduler.resumed';

export class AdminNotices {
  constructor(
    private readonly client: Client,
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  async tell(
    guildId: string,
    language: Language,
    notice: FeedNotice,
    feed: { feed: FeedKind; channelId: string | null },
  ): Promise<void> {
    const content = t(language, notice, {
      kind: t(language, `scheduler.kind.${feed.feed}`),
      channel: feed.channelId ?? '',
    });
    const adminChannel = this.store.guildSettings(guildId)?.channels.admin ?? null;
    if (adminChannel) {
      try {
        await this.client.rest.post(Routes.channelMessages(adminChannel), {
          body: { content, allowed_mentions: { parse: [] } },
        });
        return;
      } catch (error) {
        this.log.warn('admin channel refused a feed notice; trying the owner', { guildId, error });
      }
    }
    try {
      const guild = await this.client.guilds.fetch(guildId);
      const owner = await guild.fetchOwner();
      await owner.send({ content, allowedMentions: { parse: [] } });
    } catch (error) {
      this.log.warn('could not tell the admins about a feed', { guildId, error });
    }
  }
}
