/**
 * What `/feeds` and `/setup channel` change about the automatic posts: a kind on or off (with its
 * channel in the same step), paused and resumed, its options, where it posts, and a test post of the
 * newest item through the exactly-once poster. The feeds themselves live in src/feeds.
 */
import { InvalidApiKey } from '../eventor/errors.js';
import { contentHash, ledgerKey } from '../feeds/delivery/keys.js';
import { Ledger } from '../feeds/delivery/ledger.js';
import { Poster, type PostOutcome, type PostTarget } from '../feeds/delivery/poster.js';
import { threadsWaiting } from '../feeds/delivery/threads.js';
import { previewCalendar } from '../feeds/kinds/calendar.js';
import { DIGEST_FEED, digestKey, latestDigestDue } from '../feeds/kinds/digest.js';
import { RESULTS_FEED } from '../feeds/kinds/results.js';
import { feedModule } from '../feeds/registry.js';
import {
  type FeedKind,
  type FeedOptions,
  type FeedSettings,
  type FeedSettingsChange,
  FeedSettingsStore,
  isFeedKind,
} from '../feeds/settings.js';
import type { Language } from '../i18n/index.js';
import type { MessagePayload } from '../render/index.js';
import type { Store } from '../store/interfaces.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { GuildEventor } from '../club/eventor-access.js';

/** The ledger feed of `/feeds test` posts: its own, so a test post never stands in for the real one. */
export const TEST_FEED = 'test';

export type FeedChange = FeedSettingsChange;

export class FeedsAdmin {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #settings: FeedSettingsStore;
  readonly #ledger: Ledger;

  constructor(deps: { store: Store; now: () => Date }) {
    this.#store = deps.store;
    this.#now = deps.now;
    this.#settings = new FeedSettingsStore(deps.store, deps.now);
    this.#ledger = new Ledger(deps.store);
  }

  get(guildId: string, kind: FeedKind): Promise<FeedSettings> {
    return this.#settings.get(guildId, kind);
  }

  all(guildId: string): Promise<FeedSettings[]> {
    return this.#settings.all(guildId);
  }

  update(guildId: string, kind: FeedKind, change: FeedChange): Promise<FeedSettings> {
    return this.#settings.update(guildId, kind, change);
  }

  /**
   * The weekly digest's day and time, from their next occurrence: when the new time of this week
   * has already passed, this week's digest counts as done (recorded, never posted), so a change
   * never posts a "late" digest at once. A digest that has not run yet seeds on its first run.
   */
  setDigestWhen(
    guildId: string,
    change: Partial<Pick<FeedOptions, 'digestDay' | 'digestTime'>>,
    timeZone: string,
  ): Promise<FeedSettings> {
    return this.#store.transaction(async (parts) => {
      const after = await new FeedSettingsStore(parts, this.#now).update(guildId, 'digest', { options: change });
      const ledger = new Ledger(parts);
      if ((await ledger.feedStartedAt(guildId, DIGEST_FEED)) !== null) {
        const { week } = latestDigestDue(this.#now(), timeZone, after.options);
        await ledger.seed(guildId, DIGEST_FEED, after.channelId ?? '', [{ itemKey: digestKey(week), contentHash: '' }]);
      }
      return after;
    });
  }

  /** Turns a kind on, in `channelId` when one is given: the channel and the switch together, or neither. */
  turnOn(guildId: string, kind: FeedKind, channelId: string | null): Promise<FeedSettings> {
    return this.#store.transaction(async (parts) => {
      const settings = new FeedSettingsStore(parts, this.#now);
      if (channelId !== null) {
        await parts.servers.setChannel(guildId, kind, channelId);
        await settings.channelChosen(guildId, kind);
      }
      return settings.update(guildId, kind, { enabled: true });
    });
  }

  /** Sets (or with null clears) where a kind of post, or the admin notices, go; a feed paused because of its old channel runs again in the new one. */
  async setChannel(guildId: string, kind: string, channelId: string | null): Promise<void> {
    if (channelId === null) {
      await this.#store.servers.setChannel(guildId, kind, null);
      return;
    }
    await this.#store.transaction(async (parts) => {
      await parts.servers.setChannel(guildId, kind, channelId);
      if (isFeedKind(kind)) await new FeedSettingsStore(parts, this.#now).channelChosen(guildId, kind);
    });
  }

  /** Quiet hours of several kinds at once, all or none. */
  async setQuietHours(
    guildId: string,
    kinds: readonly FeedKind[],
    quietHours: FeedOptions['quietHours'],
  ): Promise<void> {
    await this.#store.transaction(async (parts) => {
      const settings = new FeedSettingsStore(parts, this.#now);
      for (const kind of kinds) await settings.update(guildId, kind, { options: { quietHours } });
    });
  }

  /** Refuses unless Eventor accepts the server's key now (asked afresh): a pause for a refused key ends only then. */
  async requireKeyAccepted(eventor: () => Promise<GuildEventor>): Promise<void> {
    try {
      await (await eventor()).client.call('organisation-apikey', {}, { fresh: true });
    } catch (error) {
      if (error instanceof InvalidApiKey) throw new UserFacingError('feeds.resume.keyStillRefused');
      throw error;
    }
  }

  /** When the kind last ran for the server, or null. */
  lastRunAt(guildId: string, kind: FeedKind): Promise<string | null> {
    return this.#ledger.lastRunAt(guildId, kind);
  }

  /** Result posts whose thread is still to be opened. */
  threadsWaiting(guildId: string): Promise<number> {
    return threadsWaiting(this.#ledger, guildId, RESULTS_FEED);
  }

  /** Whether the kind has a newest item to show in a test post. */
  hasTestPost(kind: FeedKind): boolean {
    return feedModule(kind) !== null;
  }

  /**
   * For a kind without a channel (the server's Events): what its next item would look like, to show
   * in the reply; nothing is created. Null when there is nothing to show.
   */
  async preview(
    eventor: GuildEventor,
    request: { guildId: string; kind: FeedKind; language: Language; timeZone: string },
  ): Promise<MessagePayload | null> {
    if (request.kind !== 'calendar') return null;
    const { options } = await this.#settings.get(request.guildId, request.kind);
    return previewCalendar(
      {
        client: eventor.client,
        organisationId: eventor.organisationId,
        now: this.#now(),
        language: request.language,
        timeZone: request.timeZone,
      },
      options.classificationIds,
    );
  }

  /**
   * Posts the kind's newest item once, under its own ledger feed and a key of its own, through the
   * same poster the feeds use; null when there is nothing to show. `uniqueId` (the interaction's)
   * keeps two tests in one millisecond apart.
   */
  async testPost(
    eventor: GuildEventor,
    target: PostTarget,
    post: {
      guildId: string;
      kind: FeedKind;
      channelId: string;
      language: Language;
      timeZone: string;
      uniqueId: string;
    },
  ): Promise<PostOutcome | null> {
    const module = feedModule(post.kind);
    if (!module) return null;
    const now = this.#now();
    const payload = await module.latest({
      client: eventor.client,
      organisationId: eventor.organisationId,
      now,
      language: post.language,
      timeZone: post.timeZone,
    });
    if (!payload) return null;
    const poster = new Poster(this.#ledger, target);
    const item = {
      guildId: post.guildId,
      feed: TEST_FEED,
      itemKey: ledgerKey(TEST_FEED, post.kind, now.getTime(), post.uniqueId),
      channelId: post.channelId,
      payload,
      contentHash: contentHash(payload),
    };
    return poster.publish(item);
  }
}
