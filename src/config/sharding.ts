/**
 * Gateway sharding of the bot's own processes (docs/operators.md#several-processes-sharding):
 * SHARD_COUNT and SHARDS, checked, and which shard a server's events travel on.
 */
import type { ConfigEnv } from './variables.js';

/** The shards one process runs, of how many the bot has in all. */
export interface Sharding {
  /** SHARD_COUNT: how many shards all processes of the bot run together. */
  shardCount: number;
  /** SHARDS: the shard ids this process runs, ascending, each below `shardCount`. */
  shards: readonly number[];
}

/**
 * Far above what any bot needs (Discord wants one shard per 2,500 servers) and low enough that a
 * typo (an id pasted into SHARD_COUNT) is caught instead of making discord.js open that many sockets.
 */
export const MAX_SHARD_COUNT = 1024;

/**
 * SHARD_COUNT and SHARDS, checked; null when SHARD_COUNT is unset (one unsharded session, as
 * before). SHARDS is `all` (the default) or shard ids separated by commas. Problems are added.
 */
export function shardingFromEnv(env: ConfigEnv, problems: string[]): Sharding | null {
  const rawCount = env.SHARD_COUNT?.trim() ?? '';
  const rawShards = env.SHARDS?.trim() ?? '';
  if (rawCount === '') {
    if (rawShards !== '')
      problems.push('SHARDS is set but SHARD_COUNT is not: set SHARD_COUNT to how many shards all processes run');
    return null;
  }
  if (!/^\d{1,5}$/.test(rawCount) || Number(rawCount) < 1 || Number(rawCount) > MAX_SHARD_COUNT) {
    problems.push(`SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got '${shown(rawCount)}')`);
    return null;
  }
  const shardCount = Number(rawCount);
  if (rawShards === '' || rawShards.toLowerCase() === 'all')
    return { shardCount, shards: Array.from({ length: shardCount }, (_, i) => i) };
  const shards = new Set<number>();
  for (const item of rawShards.split(',').map((x) => x.trim())) {
    if (!/^\d{1,5}$/.test(item)) {
      problems.push(`SHARDS must be 'all' or shard ids separated by commas, e.g. 0,1 (got '${shown(rawShards)}')`);
      return null;
    }
    const id = Number(item);
    if (id >= shardCount) {
      problems.push(
        `SHARDS: shard ${id} does not exist with SHARD_COUNT=${shardCount} (shard ids are 0 to ${shardCount - 1})`,
      );
      return null;
    }
    if (shards.has(id)) {
      problems.push(`SHARDS names shard ${id} twice`);
      return null;
    }
    shards.add(id);
  }
  return { shardCount, shards: [...shards].sort((a, b) => a - b) };
}

/** A value quoted in a message: printable and short (it is not secret, but may be anything). */
function shown(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
}

/** The shard a server's events travel on: `(guild_id >> 22) % shard_count` (docs/discord.md#sharding). */
export function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/**
 * Whether this process serves a server: it runs the server's shard (always, unsharded). Discord
 * sends a server's events and interactions only to its shard, so only that process sees the server
 * at all (its departure, its member sweep). Automatic posts are shared by club instead
 * (src/feeds/leases.ts).
 */
export function servesGuild(sharding: Sharding | null | undefined, guildId: string): boolean {
  if (!sharding) return true;
  return sharding.shards.includes(shardOfGuild(guildId, sharding.shardCount));
}

/** Shard ids as SHARDS spells them: `0,1`. */
export function formatShards(shards: readonly number[]): string {
  return shards.join(',');
}

/**
 * Shards 0 … `shardCount - 1` split into `processes` runs of consecutive ids, as evenly as they go
 * (the later processes get one more when they do not divide evenly). `processes` <= `shardCount`.
 */
export function splitShards(shardCount: number, processes: number): number[][] {
  const split: number[][] = [];
  for (let i = 0; i < processes; i++) {
    const from = Math.floor((i * shardCount) / processes);
    const to = Math.floor(((i + 1) * shardCount) / processes);
    split.push(Array.from({ length: to - from }, (_, k) => from + k));
  }
  return split;
}
