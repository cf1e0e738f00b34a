/**
 * The running bot's heartbeat (docs/operators.md#monitoring): every half minute this process
 * records in the store how its gateway is, when its automatic posts last ran and when Discord and
 * Eventor last answered or failed; `eventor-bot health` judges it from another process. Times are
 * the wall clock's, whatever clock the bot runs its feeds on: liveness is about real time.
 */
import { hostname } from 'node:os';
import { type Client, RESTEvents, Status } from 'discord.js';
import {
  type GatewayState,
  HEARTBEAT_INTERVAL_MS,
  type Heartbeat,
  type HeartbeatStore,
  processName,
  retiredHeartbeats,
} from '../app/health.js';
import { formatShards, type Sharding } from '../config/sharding.js';
import type { Logger } from '../log/logger.js';
import type { BotRest } from './interaction-rest.js';

/** Where the recorder reads what it records. */
export interface HeartbeatSources {
  /** When the feed scheduler's last tick ended (wall clock), or null. */
  feedsRanAt(): Date | null;
  /** When Eventor last answered and last failed (wall clock), or null. */
  eventor(): { okAt: Date | null; failedAt: Date | null };
}

function gatewayOf(client: Client): GatewayState {
  const shards = [...client.ws.shards.values()];
  if (shards.length > 0 && shards.every((shard) => shard.status === Status.Ready)) return 'ready';
  return shards.some((shard) => shard.status === Status.Disconnected || shard.status === Status.Idle)
    ? 'disconnected'
    : 'connecting';
}

const iso = (at: Date | null): string | null => (at === null ? null : at.toISOString());

export class HeartbeatRecorder {
  readonly #store: HeartbeatStore;
  readonly #client: Client;
  readonly #sources: HeartbeatSources;
  readonly #log: Logger;
  readonly #shards: string;
  readonly #shardCount: number;
  readonly #startedAt = new Date();
  #gateway: GatewayState = 'connecting';
  #gatewaySince = new Date();
  #discordOkAt: Date | null = null;
  #discordFailedAt: Date | null = null;
  #timer: NodeJS.Timeout | null = null;
  #beating: Promise<void> = Promise.resolve();
  readonly #onResponse = (_request: unknown, response: { status: number }): void => {
    // Any answer below 500 is Discord answering (a refusal included); 5xx is Discord failing.
    if (response.status < 500) this.#discordOkAt = new Date();
    else this.#discordFailedAt = new Date();
  };

  constructor(options: {
    store: HeartbeatStore;
    client: Client;
    sources: HeartbeatSources;
    log: Logger;
    sharding: Sharding | undefined;
  }) {
    this.#store = options.store;
    this.#client = options.client;
    this.#sources = options.sources;
    this.#log = options.log;
    this.#shards = options.sharding ? formatShards(options.sharding.shards) : '0';
    this.#shardCount = options.sharding?.shardCount ?? 1;
    const rest = this.#client.rest as BotRest;
    rest.on(RESTEvents.Response, this.#onResponse);
    rest.interactions?.on(RESTEvents.Response, this.#onResponse);
  }

  get process(): string {
    return processName(this.#shards, this.#shardCount);
  }

  /** Records the first heartbeat (replacing an earlier configuration's), then one every half minute. */
  async start(): Promise<void> {
    const first = this.#heartbeat(null);
    try {
      for (const retired of retiredHeartbeats(await this.#store.heartbeats(), first, new Date()))
        await this.#store.forget(retired);
      await this.#store.beat(first);
    } catch (error) {
      this.#log.warn('recording the heartbeat failed', { error });
    }
    this.#timer = setInterval(() => {
      this.#beating = this.#store.beat(this.#heartbeat(null)).catch((error: unknown) => {
        // The next beat tries again; health reports the silence if it lasts.
        this.#log.warn('recording the heartbeat failed', { error });
      });
    }, HEARTBEAT_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Stops beating and records the clean stop, so that health says "stopped", not "gone". */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const rest = this.#client.rest as BotRest;
    rest.off(RESTEvents.Response, this.#onResponse);
    rest.interactions?.off(RESTEvents.Response, this.#onResponse);
    await this.#beating;
    await this.#store.beat(this.#heartbeat(new Date())).catch((error: unknown) => {
      this.#log.warn('recording the stop in the heartbeat failed', { error });
    });
  }

  #heartbeat(stoppedAt: Date | null): Heartbeat {
    const now = new Date();
    const gateway = gatewayOf(this.#client);
    if (gateway !== this.#gateway) {
      this.#gateway = gateway;
      this.#gatewaySince = now;
    }
    const eventor = this.#sources.eventor();
    return {
      process: this.process,
      shardCount: this.#shardCount,
      shards: this.#shards,
      pid: process.pid,
      host: hostname(),
      startedAt: this.#startedAt.toISOString(),
      beatAt: now.toISOString(),
      stoppedAt: iso(stoppedAt),
      gateway,
      gatewaySince: this.#gatewaySince.toISOString(),
      feedsRanAt: iso(this.#sources.feedsRanAt()),
      eventorOkAt: iso(eventor.okAt),
      eventorFailedAt: iso(eventor.failedAt),
      discordOkAt: iso(this.#discordOkAt),
      discordFailedAt: iso(this.#discordFailedAt),
    };
  }
}
