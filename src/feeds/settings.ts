/**
 * What each server wants of each kind of automatic post. The shared contract of the /feeds
 * command (which writes it), the scheduler (which decides when to run what) and the feeds (which
 * read the options). Nothing is posted for a kind until an admin turns it on.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { FeedSettingsRow, GuildSettings, StoreParts } from '../store/interfaces.js';

/** The kinds of automatic post; `admin` of /setup channel is where notices about them go. */
export const FEED_KINDS = ['results', 'reminders', 'startlists', 'events', 'activities', 'calendar', 'digest'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/**
 * Kinds that post to no channel: `calendar` makes the server's scheduled events (its Events tab),
 * so `/feeds` asks no channel for it and `/setup channel` offers none.
 */
export const CHANNEL_LESS_KINDS: readonly FeedKind[] = ['calendar'];

/** Whether a kind posts to a channel of its own (chosen in `/feeds` or `/setup channel`). */
export function kindHasChannel(kind: FeedKind): boolean {
  return !CHANNEL_LESS_KINDS.includes(kind);
}

export function isFeedKind(value: string): value is FeedKind {
  return (FEED_KINDS as readonly string[]).includes(value);
}

/** Why a feed is paused: by an admin, or by the bot when Discord or Eventor refuses. */
export type PauseReason = 'admin' | 'no-permission' | 'channel-missing' | 'invalid-key';

export const FeedOptions = z.object({
  /** Reminders: days before an entry deadline to remind (default 7 and 1). */
  leadDays: z.array(z.number().int().min(0).max(60)).max(5).default([7, 1]),
  /** Also remind of late-entry deadlines. */
  lateEntry: z.boolean().default(true),
  /** No posts between these local hours of the server's time zone (e.g. 22 to 7); null: none. */
  quietHours: z
    .object({ from: z.number().int().min(0).max(23), to: z.number().int().min(0).max(23) })
    .nullable()
    .default(null),
  /**
   * New events: which classifications (1-6) besides the club's and district's own; empty: none.
   * Calendar: which classifications besides the events the club organises or has entered.
   */
  classificationIds: z.array(z.string()).default([]),
  /** Results: open a thread per event under the post. */
  threads: z.boolean().default(false),
  /** Weekly digest: the day of the week it comes, ISO numbering (1 Monday to 7 Sunday; default Thursday). */
  digestDay: z.number().int().min(1).max(7).default(4),
  /** Weekly digest: the local time it comes on that day, `HH:MM` in the server's zone. */
  digestTime: z
    .string()
    .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/)
    .default('18:00'),
});
export type FeedOptions = z.infer<typeof FeedOptions>;

export interface FeedSettings {
  guildId: string;
  feed: FeedKind;
  enabled: boolean;
  pausedReason: PauseReason | null;
  pausedAt: string | null;
  roleId: string | null;
  /** From /setup channel (guild_channels); null when none is chosen. */
  channelId: string | null;
  options: FeedOptions;
}

/** Stored options as the feeds read them; settings written by another version that no longer validate fall back to the defaults. */
function parseOptions(stored: string): FeedOptions {
  let options: FeedOptions;
  try {
    options = FeedOptions.parse(JSON.parse(stored));
  } catch {
    options = FeedOptions.parse({});
  }
  // Shared by every server with the same options (`parsedOptions`): nobody may change them.
  Object.freeze(options.leadDays);
  Object.freeze(options.classificationIds);
  return Object.freeze(options);
}

/**
 * Stored options text to its parsed options: the scheduler reads every kind's settings of every
 * server on every tick, and most servers keep the same few options (the defaults above all).
 */
const parsedOptions = new LRUCache<string, FeedOptions>({ max: 1_000 });

/** What `update` may change of a kind's settings. */
export interface FeedSettingsChange {
  enabled?: boolean;
  pausedReason?: PauseReason | null;
  roleId?: string | null;
  options?: Partial<FeedOptions>;
}

/** The feed settings of a server, with defaults for kinds never configured (off). */
export class FeedSettingsStore {
  constructor(
    private readonly store: StoreParts,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(guildId: string, feed: FeedKind): Promise<FeedSettings> {
    const row = await this.store.feedSettings.get(guildId, feed);
    return this.#settingsOf(
      guildId,
      feed,
      row,
      (await this.store.servers.guildSettings(guildId))?.channels[feed] ?? null,
    );
  }

  /**
   * Every kind's settings of a server, with two reads (the scheduler asks this every minute); one
   * when the caller has just read the server's settings (`guild`, null: the server has none).
   */
  async all(guildId: string, guild?: GuildSettings | null): Promise<FeedSettings[]> {
    const rows = await this.store.feedSettings.all(guildId);
    const channels = (guild === undefined ? await this.store.servers.guildSettings(guildId) : guild)?.channels ?? {};
    return FEED_KINDS.map((feed) =>
      this.#settingsOf(guildId, feed, rows.find((r) => r.feed === feed) ?? null, channels[feed] ?? null),
    );
  }

  #settingsOf(guildId: string, feed: FeedKind, row: FeedSettingsRow | null, channelId: string | null): FeedSettings {
    const stored = row?.options ?? '{}';
    let options = parsedOptions.get(stored);
    if (options === undefined) {
      options = parseOptions(stored);
      parsedOptions.set(stored, options);
    }
    return {
      guildId,
      feed,
      enabled: row?.enabled === true,
      pausedReason: (row?.pausedReason ?? null) as PauseReason | null,
      pausedAt: row?.pausedAt ?? null,
      roleId: row?.roleId ?? null,
      channelId,
      options,
    };
  }

  /** Servers with at least one feed turned on (what the scheduler serves). */
  guildsWithFeeds(): Promise<string[]> {
    return this.store.feedSettings.guildsWithFeeds();
  }

  /**
   * An admin chose a channel for the kind (and the bot checked it can post there): a pause the bot
   * set because of the old channel (deleted, or refusing the bot) is over, so the admins' notice
   * ("choose a new channel; posts resume by themselves") and the command's answer agree. Whether
   * a pause was lifted.
   */
  async channelChosen(guildId: string, feed: FeedKind): Promise<boolean> {
    const channelPause = (reason: string | null | undefined) =>
      reason === 'channel-missing' || reason === 'no-permission';
    // Read first, so a kind never configured gets no row; the lift itself checks again in its one step.
    if (!channelPause((await this.store.feedSettings.get(guildId, feed))?.pausedReason)) return false;
    let lifted = false;
    await this.store.feedSettings.update(guildId, feed, (current) => {
      lifted = channelPause(current?.pausedReason);
      return this.#changed(current, lifted ? { pausedReason: null } : {});
    });
    return lifted;
  }

  /** Changes a kind's settings in one read-modify-write step of the store: a concurrent change is never lost. */
  async update(guildId: string, feed: FeedKind, change: FeedSettingsChange): Promise<FeedSettings> {
    const row = await this.store.feedSettings.update(guildId, feed, (current) => this.#changed(current, change));
    return this.#settingsOf(
      guildId,
      feed,
      row,
      (await this.store.servers.guildSettings(guildId))?.channels[feed] ?? null,
    );
  }

  /** Today's merge of a change into the stored row (pure: the store may run it inside its transaction). */
  #changed(current: FeedSettingsRow | null, change: FeedSettingsChange): FeedSettingsRow {
    const stored = current?.options ?? '{}';
    const options = FeedOptions.parse({ ...(parsedOptions.get(stored) ?? parseOptions(stored)), ...change.options });
    const currentReason = current?.pausedReason ?? null;
    const pausedReason = change.pausedReason === undefined ? currentReason : change.pausedReason;
    const pausedAt =
      change.pausedReason === undefined
        ? (current?.pausedAt ?? null)
        : change.pausedReason === null
          ? null
          : this.now().toISOString();
    return {
      enabled: change.enabled ?? current?.enabled ?? false,
      pausedReason,
      pausedAt,
      roleId: change.roleId === undefined ? (current?.roleId ?? null) : change.roleId,
      options: JSON.stringify(options),
    };
  }
}
