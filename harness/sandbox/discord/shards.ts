/**
 * Gateway sharding as Discord documents it (docs/discord.md#sharding): which shard a guild's events
 * travel on, what `GET /gateway/bot` recommends, and the session start limit every IDENTIFY draws on.
 */

/** Discord's most guilds on one session; a bot in more must shard (close 4011 otherwise). */
export const DISCORD_GUILDS_PER_SHARD = 2500;
/** Discord's IDENTIFYs per window, across all shards of a bot. */
export const DISCORD_SESSION_START_TOTAL = 1000;
/** The window the session start limit counts over: a day. */
export const SESSION_START_WINDOW_MS = 24 * 60 * 60 * 1000;
/** `max_concurrency` counts IDENTIFYs per this many milliseconds, per rate limit key. */
export const IDENTIFY_BUCKET_MS = 5000;

export interface ShardingOptions {
  /** Most guilds one session may hold (default Discord's 2,500). */
  guildsPerShard?: number;
  /** `session_start_limit.total`: IDENTIFYs allowed per day (default Discord's 1,000). */
  sessionStartTotal?: number;
  /** `session_start_limit.max_concurrency` (default 1, what bots in fewer than 150,000 guilds get). */
  maxConcurrency?: number;
  /**
   * Answer an IDENTIFY with op 9 (Invalid Session) when another one with the same rate limit key
   * (`shard_id % max_concurrency`) came less than 5 seconds before, as Discord does. Off by default:
   * every fresh discord.js client identifies at once, so tests that restart a bot would wait.
   */
  enforceMaxConcurrency?: boolean;
}

/** `[shard_id, num_shards]`, as IDENTIFY and READY carry it. */
export type ShardSpec = readonly [number, number];

export interface SessionStartLimit {
  total: number;
  remaining: number;
  reset_after: number;
  max_concurrency: number;
}

/** The shard a guild's events go to: `(guild_id >> 22) % num_shards`. */
export function shardOf(guildId: string, numShards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(numShards));
}

/** Whether a session on `shard` receives an event of this guild; events of no guild (DMs) go to shard 0. */
export function onShard(shard: ShardSpec, guildId: string | null): boolean {
  return guildId === null ? shard[0] === 0 : shardOf(guildId, shard[1]) === shard[0];
}

/**
 * IDENTIFY's `shard` field: absent means one session for everything (`[0, 1]`); anything but two
 * integers with 0 <= shard_id < num_shards is invalid (null), which Discord closes with 4010.
 */
export function parseShard(value: unknown): ShardSpec | null {
  if (value === undefined || value === null) return [0, 1];
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [id, count] = value as unknown[];
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(count)) return null;
  if ((count as number) < 1 || (id as number) < 0 || (id as number) >= (count as number)) return null;
  return [id as number, count as number];
}

/** The guild a dispatch belongs to: `guild_id`, or `id` for the guild's own events; null for DMs. */
export function dispatchGuildId(t: string, d: unknown): string | null {
  if (!d || typeof d !== 'object') return null;
  const record = d as Record<string, unknown>;
  if (typeof record['guild_id'] === 'string') return record['guild_id'];
  if (/^GUILD_(CREATE|UPDATE|DELETE)$/.test(t) && typeof record['id'] === 'string') return record['id'];
  return null;
}

/** The per-shard maximum and the session start limit of one bot. */
export class Sharding {
  readonly guildsPerShard: number;
  readonly sessionStartTotal: number;
  readonly maxConcurrency: number;
  readonly enforceMaxConcurrency: boolean;
  private used = 0;
  /** Monotonic time of the last IDENTIFY admitted per rate limit key. */
  private readonly lastIdentify = new Map<number, number>();
  /** When the current window of starts began (its first IDENTIFY), or null before any. */
  private windowStart: number | null = null;

  constructor(
    private readonly now: () => number,
    options: ShardingOptions = {},
  ) {
    this.guildsPerShard = positive(options.guildsPerShard ?? DISCORD_GUILDS_PER_SHARD, 'guildsPerShard');
    this.sessionStartTotal = positive(options.sessionStartTotal ?? DISCORD_SESSION_START_TOTAL, 'sessionStartTotal');
    // discord.js keys its identify throttle on shard_id % max_concurrency: 0 would break it.
    this.maxConcurrency = positive(options.maxConcurrency ?? 1, 'maxConcurrency');
    this.enforceMaxConcurrency = options.enforceMaxConcurrency ?? false;
  }

  /**
   * Whether an IDENTIFY for `shardId` may start now (`monotonicMs`: real elapsed time, which is what
   * clients throttle on, not the sandbox's possibly frozen clock). Records it when admitted.
   */
  admitIdentify(shardId: number, monotonicMs: number): boolean {
    if (!this.enforceMaxConcurrency) return true;
    const key = shardId % this.maxConcurrency;
    const last = this.lastIdentify.get(key);
    if (last !== undefined && monotonicMs - last < IDENTIFY_BUCKET_MS) return false;
    this.lastIdentify.set(key, monotonicMs);
    return true;
  }

  /** `GET /gateway/bot`'s `shards`: enough that no shard holds more than the per-shard maximum. */
  recommendedShards(guildCount: number): number {
    return Math.max(1, Math.ceil(guildCount / this.guildsPerShard));
  }

  sessionStartLimit(): SessionStartLimit {
    this.roll();
    return {
      total: this.sessionStartTotal,
      remaining: this.sessionStartTotal - this.used,
      reset_after:
        this.windowStart === null ? SESSION_START_WINDOW_MS : this.windowStart + SESSION_START_WINDOW_MS - this.now(),
      max_concurrency: this.maxConcurrency,
    };
  }

  /** Use one session start for an IDENTIFY; false when none remain (Discord then resets the token). */
  takeStart(): boolean {
    this.roll();
    if (this.used >= this.sessionStartTotal) return false;
    this.windowStart ??= this.now();
    this.used += 1;
    return true;
  }

  /** Start over with every start available (a new day). */
  resetStarts(): void {
    this.used = 0;
    this.windowStart = null;
  }

  private roll(): void {
    if (this.windowStart !== null && this.now() >= this.windowStart + SESSION_START_WINDOW_MS) this.resetStarts();
  }
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`sandbox: ${name} must be a positive integer`);
  return value;
}
