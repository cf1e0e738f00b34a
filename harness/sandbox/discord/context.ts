import type { InteractionStore } from './interaction-state.js';
import type { Sharding } from './shards.js';
import type { World } from './world.js';

/** What route handlers need from the running sandbox. */
export interface SandboxContext {
  world: World;
  interactions: InteractionStore;
  now: () => number;
  /** `http://127.0.0.1:PORT` (no `/api`). */
  baseUrl: () => string;
  /** `ws://127.0.0.1:PORT/gateway`. */
  gatewayUrl: () => string;
  /** The per-shard maximum and the session start limit (`GET /gateway/bot`). */
  sharding: Sharding;
}
