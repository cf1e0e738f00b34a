/**
 * Notices to a server's admins about its feeds (paused, resumed, pictures refused): to the `admin`
 * channel of `/setup channel`, else to the server owner by DM. Failures are logged, never thrown: a
 * notice that cannot be delivered must not hold up the feeds.
 */
import { type Client, Routes } from 'discord.js';
import { type Language, t } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import { ledgerKey } from './delivery/keys.js';
import type { Ledger } from './delivery/ledger.js';
import type { Store } from '../store/interfaces.js';
import type { FeedNotice } from './feed.js';
import type { PlainKey } from '../i18n/index.js';

export type { FeedNotice };

/** The ledger feed that remembers notices already given about a state that lasts (not a pause). */
const NOTICES_FEED = 'notices';

/**
 * Whether to tell the admins now that pictures in `channelId` were refused: true the first time,
 * then false until `picturesBack` (so one notice, not one a run). Recorded before it is told.
 */
export async function firstPicturesRefused(ledger: Ledger, guildId: string, channelId: string): Promise<boolean> {
  const ref = { guildId, feed: NOTICES_FEED, itemKey: ledgerKey('no-pictures', channelId) };
  if ((await ledger.get(ref)) !== null) return false;
  await ledger.seed(guildId, NOTICES_FEED, channelId, [{ itemKey: ref.itemKey, contentHash: 'told' }]);
  return true;
}

/** Pictures went out in `channelId` again: a later refusal is told again. */
export async function picturesBack(ledger: Ledger, guildId: string, channelId: string): Promise<void> {
  const ref = { guildId, feed: NOTICES_FEED, itemKey: ledgerKey('no-pictures', channelId) };
  if ((await ledger.get(ref)) !== null) await ledger.forgetFeeds(guildId, NOTICES_FEED, { exact: true });
}

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
    feed: { noticeLabel: PlainKey; channelId: string | null },
  ): Promise<void> {
    const content = t(language, notice, { kind: t(language, feed.noticeLabel), channel: feed.channelId ?? '' });
    const adminChannel = (await this.store.servers.guildSettings(guildId))?.channels.admin ?? null;
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
