/**
 * Which process runs which club's feeds when several run the bot on one database
 * (docs/decisions/feed-leases.md). Eventor is asked once per club and run (`club-share.ts`), so a
 * club's servers must run in one process: each process holds a lease `shard:<id>` for every
 * gateway shard it runs (who is alive for that shard), and a lease `club:<key>` for each club it
 * runs. A club's home shard is the shard of its lowest server id: the process running that shard
 * takes the club; when no live process holds the home shard (it died, or stopped), any process
 * that has itself run for one lease's time takes the club once its lease has expired (processes
 * started together see each other's shard leases first, instead of the first to tick taking all); a process holding a club whose home shard is alive
 * elsewhere again gives it back at once, without running it, so that no tick runs a club in two
 * processes. Posts still go through the ledger's claim: exactly once never depends on leases, only
 * the Eventor economy and the load do.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { shardOfGuild, type Sharding } from '../config/sharding.js';
import type { GuildSettings, LeaseHolder, LeaseStore } from '../store/interfaces.js';
import { ownerMayBeAlive } from './delivery/ledger.js';

/**
 * How long a lease holds without renewal: three minute ticks, so one slow tick (the next one
 * renews while it still runs) does not hand a club over, and a dead process's clubs move within
 * a few minutes.
 */
export const FEED_LEASE_TTL_MS = 3 * 60_000;

/** Unsharded: one process is shard 0 of 1 (a `tick` beside `start` defers to it). */
const UNSHARDED: Sharding = { shardCount: 1, shards: [0] };

/**
 * The club a server's feeds belong to, as the leases name it: its Eventor instance (or base URL)
 * and organisation. A server with a key whose organisation is not stored yet is a club of its own;
 * servers on the operator's default connection are one club.
 */
export function clubOf(guildId: string, guild: GuildSettings | null): string {
  if (guild?.hasApiKey) {
    if (guild.organisationId) return `${guild.eventorBaseUrl ?? guild.eventorInstance ?? ''}|${guild.organisationId}`;
    return `server|${guildId}`;
  }
  return 'default';
}

/** Compares Discord ids (snowflakes) as numbers: a shorter id is smaller. */
function lowerId(a: string, b: string): string {
  if (a.length !== b.length) return a.length < b.length ? a : b;
  return a < b ? a : b;
}

/** The shard of a server; an id that is not a snowflake (never from Discord) is on shard 0. */
function shardOf(guildId: string, shardCount: number): number {
  if (shardCount === 1 || !/^\d{1,20}$/.test(guildId)) return 0;
  return shardOfGuild(guildId, shardCount);
}

/** One tick's decisions: which clubs this process runs. */
export interface LeaseTick {
  /** Whether this process runs the club now (asked once per club per tick). */
  runs(club: string): Promise<boolean>;
}

export class FeedLeases {
  readonly #store: LeaseStore;
  readonly #sharding: Sharding;
  readonly #ttlMs: number;
  readonly owner: string;
  /** Every lease this process may hold, to give all back on stop. */
  readonly #held = new Set<string>();
  /** The time of the first tick: other shards' clubs are taken over only a lease's time after it. */
  #firstTick: number | null = null;

  constructor(options: { store: LeaseStore; sharding?: Sharding | null; ttlMs?: number; owner?: string }) {
    this.#store = options.store;
    this.#sharding = options.sharding ?? UNSHARDED;
    this.#ttlMs = options.ttlMs ?? FEED_LEASE_TTL_MS;
    this.owner = options.owner ?? `${hostname().replaceAll(':', '_')}:${process.pid}:${randomBytes(6).toString('hex')}`;
  }

  /**
   * Starts the tick at `now`: renews this process's shard leases, and groups the tick's servers by
   * club (`clubs`: server id to club) to find each club's home shard.
   */
  async begin(clubs: ReadonlyMap<string, string>, now: Date): Promise<LeaseTick> {
    this.#firstTick ??= now.getTime();
    const mayTakeOver = now.getTime() - this.#firstTick >= this.#ttlMs;
    const mine = new Set<number>();
    for (const shard of this.#sharding.shards) {
      if (await this.#acquire(`shard:${shard}`)) mine.add(shard);
    }
    const lowest = new Map<string, string>();
    for (const [guildId, club] of clubs) {
      const known = lowest.get(club);
      lowest.set(club, known === undefined ? guildId : lowerId(known, guildId));
    }
    const decided = new Map<string, Promise<boolean>>();
    const decide = async (club: string): Promise<boolean> => {
      const lowestId = lowest.get(club);
      if (lowestId === undefined) return false;
      const home = shardOf(lowestId, this.#sharding.shardCount);
      const name = `club:${club}`;
      // False while a process that took the club over still holds it: it gives it back on its next tick.
      if (mine.has(home)) return this.#acquire(name);
      const homeHolder = await this.#store.holder(`shard:${home}`);
      if (homeHolder !== null && homeHolder.owner !== this.owner && this.#alive(homeHolder)) {
        // The home shard is alive elsewhere: a club taken over while it was not is given back now,
        // unrun (its home process takes it on its next tick: at most one tick without a run, never two runs).
        if (this.#held.delete(name)) await this.#store.release(name, this.owner);
        return false;
      }
      // Nobody runs the home shard: take the club over once its lease is free or expired.
      if (!mayTakeOver) return false;
      return this.#acquire(name);
    };
    return {
      runs: (club) => {
        let decision = decided.get(club);
        if (!decision) {
          decision = decide(club);
          decided.set(club, decision);
        }
        return decision;
      },
    };
  }

  /**
   * Takes or renews the lease `name`; a lease held by a process of this host that no longer runs
   * (a SIGKILLed `tick` or `start`) is taken at once instead of after its expiry, as the ledger's
   * claims are. Clearing it names the dead owner, so it never removes a lease another has taken.
   */
  async #acquire(name: string): Promise<boolean> {
    this.#held.add(name);
    if (await this.#store.acquire(name, this.owner, this.#ttlMs)) return true;
    const holder = await this.#store.holder(name);
    if (holder === null || this.#alive(holder)) return false;
    await this.#store.release(name, holder.owner);
    return this.#store.acquire(name, this.owner, this.#ttlMs);
  }

  /** Whether a lease's holder may still run (only this host's processes can be checked). */
  #alive(holder: LeaseHolder | null): boolean {
    return holder !== null && (holder.owner === this.owner || ownerMayBeAlive(holder.owner));
  }

  /** Gives back every lease of this process (a clean stop): others take over at once. */
  async releaseAll(): Promise<void> {
    for (const name of this.#held) await this.#store.release(name, this.owner);
    this.#held.clear();
  }
}
