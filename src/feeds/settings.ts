/**
 * What each server wants of each kind of automatic post: the shared contract of `/feeds` (which
 * writes it), the scheduler (which decides when to run what) and the feeds (which read the options).
 * Every kind has the same settings (on, paused, its channel and role, quiet hours); its options are
 * its own (`FeedKind.options`). They are kept as one JSON text per (server, kind) with the quiet hours
 * beside the kind's options, so a row written when every kind's options were stored in it reads the
 * same: fields a kind does not know are left out, and go at its next change. Nothing is posted for
 * a kind until an admin turns it on.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { FeedSettingsRow, GuildSettings, StoreParts } from '../store/interfaces.js';
import type { FeedSettings, PauseReason, QuietHours } from './feed.js';
import type { FeedKind } from './kind.js';
import { KINDS, kindNamed } from './registry.js';

export type { FeedSettings, PauseReason, QuietHours };

/** The settings' JSON every kind has, beside its own options. */
const Common = z.object({
  /** No posts between these local hours of the server's time zone (e.g. 22 to 7); null: none. */
  quietHours: z
    .object({ from: z.number().int().min(0).max(23), to: z.number().int().min(0).max(23) })
    .nullable()
    .default(null),
});

/** What `update` may change of a kind's settings. */
export interface FeedSettingsChange<Options extends object = Readonly<Record<string, unknown>>> {
  enabled?: boolean;
  pausedReason?: PauseReason | null;
  roleId?: string | null;
  quietHours?: QuietHours | null;
  options?: Partial<Options>;
}

interface Parsed {
  quietHours: QuietHours | null;
  options: Readonly<Record<string, unknown>>;
}

/**
 * The stored text, read with the kind's schema; a text written by another version that no longer
 * validates falls back to the defaults. Frozen: one parse is shared by every server with the same text.
 */
function parse(kind: FeedKind, stored: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    json = {};
  }
  const common = Common.safeParse(json);
  const own = kind.options.safeParse(json);
  const options = (own.success ? own.data : kind.options.parse({})) as Record<string, unknown>;
  for (const value of Object.values(options)) if (typeof value === 'object' && value !== null) Object.freeze(value);
  return Object.freeze({
    quietHours: common.success ? common.data.quietHours : null,
    options: Object.freeze(options),
  });
}

/**
 * Stored texts to their parsed settings, per kind: the scheduler reads every kind's settings of every
 * server on every tick, and most servers keep the same few options (the defaults above all).
 */
const parsedTexts = new LRUCache<string, Parsed>({ max: 1_000 });

function parsedOf(kind: FeedKind, stored: string): Parsed {
  const key = `${kind.name}\n${stored}`;
  let parsed = parsedTexts.get(key);
  if (parsed === undefined) {
    parsed = parse(kind, stored);
    parsedTexts.set(key, parsed);
  }
  return parsed;
}

/**
 * The settings of every kind of automatic post of a server, each read with its kind's own schema,
 * with defaults for kinds never configured (off). The store keeps the rows (`FeedSettingsStore`).
 */
export class KindSettings {
  constructor(
    private readonly store: StoreParts,
    private readonly now: () => Date = () => new Date(),
    /** The kinds there are (the registry's, or a test's). */
    private readonly kinds: readonly FeedKind[] = KINDS,
  ) {}

  /** The kind of a name, or an error: a name no kind has is a bug of the caller, never a server's input. */
  kind(name: string): FeedKind {
    const kind = kindNamed(this.kinds, name);
    if (!kind) throw new Error(`no feed kind named ${name}`);
    return kind;
  }

  async get<Options extends object = Readonly<Record<string, unknown>>>(
    guildId: string,
    name: string,
  ): Promise<FeedSettings<Options>> {
    const kind = this.kind(name);
    const row = await this.store.feedSettings.get(guildId, kind.name);
    const channelId = (await this.store.servers.guildSettings(guildId))?.channels[kind.name] ?? null;
    return this.#settingsOf(guildId, kind, row, channelId) as FeedSettings<Options>;
  }

  /**
   * Every kind's settings of a server, with two reads (the scheduler asks this every minute); one
   * when the caller has just read the server's settings (`guild`, null: the server has none).
   */
  async all(guildId: string, guild?: GuildSettings | null): Promise<FeedSettings[]> {
    const rows = await this.store.feedSettings.all(guildId);
    const channels = (guild === undefined ? await this.store.servers.guildSettings(guildId) : guild)?.channels ?? {};
    return this.kinds.map((kind) =>
      this.#settingsOf(guildId, kind, rows.find((r) => r.feed === kind.name) ?? null, channels[kind.name] ?? null),
    );
  }

  #settingsOf(guildId: string, kind: FeedKind, row: FeedSettingsRow | null, channelId: string | null): FeedSettings {
    const { quietHours, options } = parsedOf(kind, row?.options ?? '{}');
    return {
      guildId,
      feed: kind.name,
      enabled: row?.enabled === true,
      pausedReason: (row?.pausedReason ?? null) as PauseReason | null,
      pausedAt: row?.pausedAt ?? null,
      roleId: row?.roleId ?? null,
      channelId,
      quietHours,
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
  async channelChosen(guildId: string, name: string): Promise<boolean> {
    const kind = this.kind(name);
    const channelPause = (reason: string | null | undefined) =>
      reason === 'channel-missing' || reason === 'no-permission';
    // Read first, so a kind never configured gets no row; the lift itself checks again in its one step.
    if (!channelPause((await this.store.feedSettings.get(guildId, kind.name))?.pausedReason)) return false;
    let lifted = false;
    await this.store.feedSettings.update(guildId, kind.name, (current) => {
      lifted = channelPause(current?.pausedReason);
      return this.#changed(kind, current, lifted ? { pausedReason: null } : {});
    });
    return lifted;
  }

  /**
   * Changes a kind's settings in one read-modify-write step of the store: a concurrent change is
   * never lost. A value the kind's schema refuses throws, and nothing changes.
   */
  async update<Options extends object = Readonly<Record<string, unknown>>>(
    guildId: string,
    name: string,
    change: FeedSettingsChange<Options>,
  ): Promise<FeedSettings<Options>> {
    const kind = this.kind(name);
    const row = await this.store.feedSettings.update(guildId, kind.name, (current) =>
      this.#changed(kind, current, change),
    );
    const channelId = (await this.store.servers.guildSettings(guildId))?.channels[kind.name] ?? null;
    return this.#settingsOf(guildId, kind, row, channelId) as FeedSettings<Options>;
  }

  /** Today's merge of a change into the stored row (pure: the store may run it inside its transaction). */
  #changed(kind: FeedKind, current: FeedSettingsRow | null, change: FeedSettingsChange): FeedSettingsRow {
    const before = parsedOf(kind, current?.options ?? '{}');
    const options = kind.options.parse({ ...before.options, ...change.options }) as Record<string, unknown>;
    const quietHours = change.quietHours === undefined ? before.quietHours : change.quietHours;
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
      // Quiet hours first, then the kind's own: what every kind's JSON has, as before.
      options: JSON.stringify({ quietHours: Common.parse({ quietHours }).quietHours, ...options }),
    };
  }
}
