/**
 * What each server wants of each kind of automatic post. The shared contract of the /feeds
 * command (which writes it), the scheduler (which decides when to run what) and the feeds (which
 * read the options). Nothing is posted for a kind until an admin turns it on.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { GuildSettings, Store } from '../store/store.js';
import { prepared } from '../store/sqlite/statements.js';

/** The kinds of automatic post; `admin` of /setup channel is where notices about them go. */
export const FEED_KINDS = ['results', 'reminders', 'startlists', 'events', 'activities'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

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
  /** New events: which classifications (1-6) besides the club's and district's own; empty: none. */
  classificationIds: z.array(z.string()).default([]),
  /** Results: open a thread per event under the post. */
  threads: z.boolean().default(false),
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

interface Row {
  enabled: number;
  paused_reason: string | null;
  paused_at: string | null;
  role_id: string | null;
  options: string;
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

/** The feed settings of a server, with defaults for kinds never configured (off). */
export class FeedSettingsStore {
  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get(guildId: string, feed: FeedKind): FeedSettings {
    const row = prepared(
      this.store.db,
      'SELECT enabled, paused_reason, paused_at, role_id, options FROM feed_settings WHERE guild_id = ? AND feed = ?',
    ).get(guildId, feed) as Row | undefined;
    return this.#settingsOf(guildId, feed, row, this.store.guildSettings(guildId)?.channels[feed] ?? null);
  }

  /**
   * Every kind's settings of a server, with two reads (the scheduler asks this every minute); one
   * when the caller has just read the server's settings (`guild`, null: the server has none).
   */
  all(guildId: string, guild?: GuildSettings | null): FeedSettings[] {
    const rows = prepared(
      this.store.db,
      'SELECT feed, enabled, paused_reason, paused_at, role_id, options FROM feed_settings WHERE guild_id = ?',
    ).all(guildId) as Array<Row & { feed: string }>;
    const channels = (guild === undefined ? this.store.guildSettings(guildId) : guild)?.channels ?? {};
    return FEED_KINDS.map((feed) =>
      this.#settingsOf(
        guildId,
        feed,
        rows.find((r) => r.feed === feed),
        channels[feed] ?? null,
      ),
    );
  }

  #settingsOf(guildId: string, feed: FeedKind, row: Row | undefined, channelId: string | null): FeedSettings {
    const stored = row?.options ?? '{}';
    let options = parsedOptions.get(stored);
    if (options === undefined) {
      options = parseOptions(stored);
      parsedOptions.set(stored, options);
    }
    return {
      guildId,
      feed,
      enabled: row?.enabled === 1,
      pausedReason: (row?.paused_reason ?? null) as PauseReason | null,
      pausedAt: row?.paused_at ?? null,
      roleId: row?.role_id ?? null,
      channelId,
      options,
    };
  }

  /** Servers with at least one feed turned on (what the scheduler serves). */
  guildsWithFeeds(): string[] {
    return (
      prepared(
        this.store.db,
        'SELECT DISTINCT guild_id FROM feed_settings WHERE enabled = 1 ORDER BY guild_id',
      ).all() as Array<{ guild_id: string }>
    ).map((r) => r.guild_id);
  }

  /**
   * An admin chose a channel for the kind (and the bot checked it can post there): a pause the bot
   * set because of the old channel (deleted, or refusing the bot) is over, so the admins' notice
   * ("choose a new channel; posts resume by themselves") and the command's answer agree. Whether
   * a pause was lifted.
   */
  channelChosen(guildId: string, feed: FeedKind): boolean {
    const current = this.get(guildId, feed);
    if (current.pausedReason !== 'channel-missing' && current.pausedReason !== 'no-permission') return false;
    this.update(guildId, feed, { pausedReason: null });
    return true;
  }

  update(
    guildId: string,
    feed: FeedKind,
    change: {
      enabled?: boolean;
      pausedReason?: PauseReason | null;
      roleId?: string | null;
      options?: Partial<FeedOptions>;
    },
  ): FeedSettings {
    const current = this.get(guildId, feed);
    const options = FeedOptions.parse({ ...current.options, ...change.options });
    const pausedReason = change.pausedReason === undefined ? current.pausedReason : change.pausedReason;
    const pausedAt =
      change.pausedReason === undefined
        ? current.pausedAt
        : change.pausedReason === null
          ? null
          : this.now().toISOString();
    prepared(
      this.store.db,
      `INSERT INTO feed_settings (guild_id, feed, enabled, paused_reason, paused_at, role_id, options, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (guild_id, feed) DO UPDATE SET enabled = excluded.enabled, paused_reason = excluded.paused_reason, paused_at = excluded.paused_at,
           role_id = excluded.role_id, options = excluded.options, updated_at = excluded.updated_at`,
    ).run(
      guildId,
      feed,
      (change.enabled ?? current.enabled) ? 1 : 0,
      pausedReason,
      pausedAt,
      change.roleId === undefined ? current.roleId : change.roleId,
      JSON.stringify(options),
      this.now().toISOString(),
    );
    return this.get(guildId, feed);
  }
}
