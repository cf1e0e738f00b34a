/**
 * Server settings and keys read once for everyone asking at the same moment. On PostgreSQL a read
 * is a round trip, and every interaction reads its server's settings before its first answer: a
 * burst of members asking at once (the case `docs/decisions/first-answer.md` is built for) would
 * queue that many queries on the pool, and each interaction would begin its first answer in a turn
 * of its own, one round trip after the other. Here the callers who ask while a read of the same
 * server is on its way share it, so they all begin together, as on SQLite.
 *
 * Nothing is kept once a read has come back: this is not a cache. A write through this process
 * (this part, forgetting a server, or any transaction) drops the reads on their way, so whoever
 * asks after it reads afresh and sees it (docs/decisions/store-dialects.md#shared-reads).
 */
import type { EventorConnectionRecord, GuildSettings, GuildSettingsUpdate, ServerStore } from '../interfaces.js';

export class SharedServerReads implements ServerStore {
  readonly #inner: ServerStore;
  readonly #settings = new Map<string, Promise<GuildSettings | null>>();
  readonly #keys = new Map<string, Promise<string | null>>();

  constructor(inner: ServerStore) {
    this.#inner = inner;
  }

  async guildSettings(guildId: string): Promise<GuildSettings | null> {
    const settings = await shared(this.#settings, guildId, () => this.#inner.guildSettings(guildId));
    // Each caller gets its own copy: one of them changing it must not change the others'.
    return settings && { ...settings, channels: { ...settings.channels } };
  }

  apiKey(guildId: string): Promise<string | null> {
    return shared(this.#keys, guildId, () => this.#inner.apiKey(guildId));
  }

  /** Drops the reads on their way: whatever was written before this call is read afresh. */
  written(): void {
    this.#settings.clear();
    this.#keys.clear();
  }

  updateGuildSettings(guildId: string, update: GuildSettingsUpdate): Promise<GuildSettings> {
    return this.#writing(() => this.#inner.updateGuildSettings(guildId, update));
  }

  setApiKey(guildId: string, apiKey: string, organisation: { id: string; name: string }): Promise<void> {
    return this.#writing(() => this.#inner.setApiKey(guildId, apiKey, organisation));
  }

  connectEventor(guildId: string, connection: EventorConnectionRecord): Promise<GuildSettings> {
    return this.#writing(() => this.#inner.connectEventor(guildId, connection));
  }

  setChannel(guildId: string, kind: string, channelId: string | null): Promise<void> {
    return this.#writing(() => this.#inner.setChannel(guildId, kind, channelId));
  }

  async #writing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.written();
    }
  }
}

/** The read of `key` on its way, or a new one, forgotten when it comes back. */
function shared<T>(reads: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  const onItsWay = reads.get(key);
  if (onItsWay) return onItsWay;
  const reading = read().finally(() => {
    if (reads.get(key) === reading) reads.delete(key);
  });
  reads.set(key, reading);
  return reading;
}
