/**
 * What `/feeds` and `/setup channel` change about the automatic posts: a kind on or off (with its
 * channel in the same step), paused and resumed, its options, where it posts, and a test post of the
 * newest item through the exactly-once poster. It knows the kinds only through the registry's list
 * (`src/feeds/registry.ts`): what is particular to one is in its own folder (`src/feeds/kinds/`).
 */
import { ZodError } from 'zod';
import { InvalidApiKey } from '../eventor/errors.js';
import type { GuildEventor } from '../club/eventor-access.js';
import { contentHash, ledgerKey } from '../feeds/delivery/keys.js';
import { Ledger } from '../feeds/delivery/ledger.js';
import { Poster, type PostOutcome, type PostTarget } from '../feeds/delivery/poster.js';
import type { FeedSettings, QuietHours } from '../feeds/feed.js';
import type { FeedKind, KindAdminContext, KindTranslator, Permission } from '../feeds/kind.js';
import { KINDS, kindNamed } from '../feeds/registry.js';
import { type FeedSettingsChange, KindSettings } from '../feeds/settings.js';
import type { Language, PlainKey } from '../i18n/index.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { Logger } from '../log/logger.js';
import type { MessagePayload } from '../render/index.js';
import type { Store } from '../store/interfaces.js';

/** The ledger feed of `/feeds test` posts: its own, so a test post never stands in for the real one. */
export const TEST_FEED = 'test';

export type FeedChange = FeedSettingsChange;

/** What a kind's own part of `/feeds` needs of Discord, which the command supplies. */
export interface DiscordView extends KindTranslator {
  timeZone: string;
  missingIn(channelId: string, wanted: readonly Permission[]): Promise<PlainKey[] | null>;
}

export class FeedsAdmin {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #settings: KindSettings;
  readonly #ledger: Ledger;
  readonly #log: Logger;
  /** Every kind of automatic post (the registry's list, or a test's). */
  readonly kinds: readonly FeedKind[];

  constructor(deps: { store: Store; now: () => Date; log: Logger; kinds?: readonly FeedKind[] | undefined }) {
    this.#store = deps.store;
    this.#now = deps.now;
    this.#log = deps.log;
    this.kinds = deps.kinds ?? KINDS;
    this.#settings = new KindSettings(deps.store, deps.now, this.kinds);
    this.#ledger = new Ledger(deps.store);
  }

  /** The kind an admin named (a choice Discord offered): anything else is refused, not guessed. */
  kind(name: string): FeedKind {
    const kind = kindNamed(this.kinds, name);
    if (!kind) throw new UserFacingError('error.unexpected');
    return kind;
  }

  get(guildId: string, kind: string): Promise<FeedSettings> {
    return this.#settings.get(guildId, this.kind(kind).name);
  }

  all(guildId: string): Promise<FeedSettings[]> {
    return this.#settings.all(guildId);
  }

  update(guildId: string, kind: string, change: FeedChange): Promise<FeedSettings> {
    return this.#settings.update(guildId, this.kind(kind).name, change);
  }

  /**
   * Changes a kind's settings and, in the same transaction, what the kind says must follow
   * (`FeedKind.afterChange`: the digest starts from its next time). A value its options refuse
   * changes nothing.
   */
  async change(guildId: string, kind: string, change: FeedChange, timeZone: string): Promise<FeedSettings> {
    const module = this.kind(kind);
    return this.#store.transaction(async (parts) => {
      const settings = new KindSettings(parts, this.#now, this.kinds);
      const before = await settings.get(guildId, module.name);
      const after = await settings.update(guildId, module.name, change);
      await module.afterChange?.({ guildId, parts, now: this.#now(), timeZone, before, after });
      return after;
    });
  }

  /** Turns a kind on, in `channelId` when one is given: the channel and the switch together, or neither. */
  turnOn(guildId: string, kind: string, channelId: string | null, timeZone: string): Promise<FeedSettings> {
    const module = this.kind(kind);
    return this.#store.transaction(async (parts) => {
      const settings = new KindSettings(parts, this.#now, this.kinds);
      const before = await settings.get(guildId, module.name);
      if (channelId !== null) {
        await parts.servers.setChannel(guildId, module.name, channelId);
        await settings.channelChosen(guildId, module.name);
      }
      const after = await settings.update(guildId, module.name, { enabled: true });
      await module.afterChange?.({ guildId, parts, now: this.#now(), timeZone, before, after });
      return after;
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
      if (kindNamed(this.kinds, kind))
        await new KindSettings(parts, this.#now, this.kinds).channelChosen(guildId, kind);
    });
  }

  /** Quiet hours of several kinds at once, all or none. */
  async setQuietHours(guildId: string, kinds: readonly string[], quietHours: QuietHours | null): Promise<void> {
    for (const kind of kinds) this.kind(kind);
    await this.#store.transaction(async (parts) => {
      const settings = new KindSettings(parts, this.#now, this.kinds);
      for (const kind of kinds) await settings.update(guildId, kind, { quietHours });
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
  lastRunAt(guildId: string, kind: string): Promise<string | null> {
    return this.#ledger.lastRunAt(guildId, this.kind(kind).name);
  }

  /** What a kind's own part of `/feeds` works with, for one server and the admin asking. */
  adminContext<Options extends object>(guildId: string, kind: string, view: DiscordView): KindAdminContext<Options> {
    const module = this.kind(kind);
    return {
      guildId,
      timeZone: view.timeZone,
      t: view.t.bind(view) as KindTranslator['t'],
      settings: () => this.#settings.get<Options>(guildId, module.name),
      update: async (options) => {
        try {
          return (await this.change(guildId, module.name, { options }, view.timeZone)) as FeedSettings<Options>;
        } catch (error) {
          // The kind's own checks come first; its schema is the last word, and changes nothing.
          if (error instanceof ZodError) throw new UserFacingError('feeds.badValue');
          throw error;
        }
      },
      missingIn: (channelId, wanted) => view.missingIn(channelId, wanted),
      ledger: this.#ledger,
      parts: this.#store,
      now: this.#now,
    };
  }

  /**
   * What the kind would post now, its newest item (or, for a kind without a channel, what its next
   * one would look like); null when there is nothing to show or the kind has no preview.
   */
  async preview(
    eventor: GuildEventor,
    request: { guildId: string; kind: string; language: Language; timeZone: string },
  ): Promise<MessagePayload | null> {
    const module = this.kind(request.kind);
    if (!module.preview) return null;
    const { options } = await this.#settings.get(request.guildId, module.name);
    return module.preview(
      {
        client: eventor.client,
        organisationId: eventor.organisationId,
        now: this.#now(),
        language: request.language,
        timeZone: request.timeZone,
        guildId: request.guildId,
        store: this.#store,
        log: this.#log,
      },
      options,
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
      kind: string;
      channelId: string;
      language: Language;
      timeZone: string;
      uniqueId: string;
    },
  ): Promise<PostOutcome | null> {
    const payload = await this.preview(eventor, post);
    if (!payload) return null;
    const now = this.#now();
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
