/**
 * Which Eventor each server talks to, and one shared EventorClient per (base URL, key), so that
 * servers of the same club share its concurrency limit. All clients of one base URL share one
 * response cache: public answers (the events list, an event, full start and result lists…) are
 * fetched once for every club, and each key's own answers stay with that key.
 */
import { createHash } from 'node:crypto';
import type { EventorConfig } from '../config/env.js';
import { EventorClient } from '../eventor/client.js';
import { SharedResponseCache } from '../eventor/http.js';
import { customInstance, type EventorInstance, INSTANCES, isInstanceName } from '../eventor/instances.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/interfaces.js';
import { UserFacingError } from '../i18n/user-facing-error.js';

/** The Eventor a server uses: its own from /setup, else the operator's default. */
export interface GuildEventor {
  client: EventorClient;
  instance: EventorInstance;
  organisationId: string;
  organisationName: string;
  /** When Eventor last answered this connection (not its cache) since the bot started. */
  lastAnswer(): Date | null;
}

const KEY_CHECK_TTL_MS = 5 * 60_000;
/**
 * Bounds of an instance's shared cache. It holds every club's own answers as well as the public
 * ones (a club needs some tens of entries): twice what one club had alone before, for all of them.
 */
const SHARED_CACHE = { maxEntries: 5_000, maxBytes: 128 * 1024 * 1024 };

export interface EventorAccessOptions {
  store: Store;
  defaultEventor: EventorConfig | null;
  /** The only servers the default Eventor serves (the operator's EVENTOR_DEFAULT_GUILDS). */
  defaultGuilds: ReadonlySet<string>;
  /** Zones of custom origins that ignore `TimeZone: UTC` (BotConfig.customEventorTimeZones). */
  customTimeZones?: ReadonlyMap<string, string>;
  /**
   * The bot's clock, for when a connection last answered, which /status shows members beside
   * Discord's own clock (a sandbox clock too, SANDBOX_CLOCK); default the wall clock. The
   * heartbeat keeps the wall clock.
   */
  now?: () => Date;
  /** Multiplies every answer's size cap (EVENTOR_MAX_RESPONSE_MB); default 1. */
  responseLimitScale?: number;
  /** Per-attempt timeout of every server's client (EVENTOR_TIMEOUT_MS); default the client's 30 s. */
  timeoutMs?: number;
  log: Logger;
  /** For tests: how clients are made (pass `shared` on as the client's `shared` option to share the cache). */
  createClient?: (instance: EventorInstance, apiKey: string, shared: SharedResponseCache) => EventorClient;
}

export class EventorAccess {
  readonly #clients = new Map<string, EventorClient>();
  /** One per base URL: ids are per instance, so answers from two instances never mix. */
  readonly #shared = new Map<string, SharedResponseCache>();
  readonly #lastAnswer = new Map<EventorClient, Date>();
  /** The organisation each key belongs to: it never changes, and a revoked key fails every other call anyway. */
  readonly #organisations = new Map<EventorClient, { id: string; name: string }>();
  readonly #options: EventorAccessOptions;
  #answeredAt: Date | null = null;
  #failedAt: Date | null = null;

  constructor(options: EventorAccessOptions) {
    this.#options = options;
    if (options.defaultEventor) options.log.redact(options.defaultEventor.apiKey);
  }

  /** The client for an instance and key, made once. */
  clientFor(instance: EventorInstance, apiKey: string): EventorClient {
    const id = `${instance.baseUrl}|${createHash('sha256').update(apiKey).digest('hex')}`;
    let client = this.#clients.get(id);
    if (!client) {
      this.#options.log.redact(apiKey);
      let shared = this.#shared.get(instance.baseUrl);
      if (!shared) {
        shared = new SharedResponseCache(SHARED_CACHE);
        this.#shared.set(instance.baseUrl, shared);
      }
      const made: EventorClient =
        this.#options.createClient?.(instance, apiKey, shared) ??
        new EventorClient({
          instance,
          apiKey,
          shared,
          responseLimitScale: this.#options.responseLimitScale,
          timeoutMs: this.#options.timeoutMs,
          // /status reports whether the key still works: a revoked key must show within minutes, not a day.
          cache: { ttlMs: { 'organisation-apikey': KEY_CHECK_TTL_MS } },
          onRequest: (event) => {
            if (event.status !== null && event.status < 400)
              this.#lastAnswer.set(made, this.#options.now?.() ?? new Date());
            // For the heartbeat (docs/operators.md#monitoring): Eventor answering at all (a refused
            // key included), or failing (no answer, or a server error); cache hits say neither.
            if (event.status !== null && event.status < 500) this.#answeredAt = new Date();
            else if (event.status !== null || (event.error !== null && event.attempt > 0)) this.#failedAt = new Date();
          },
        });
      client = made;
      this.#clients.set(id, client);
    }
    return client;
  }

  /** When any Eventor last answered, and last failed to, by the wall clock; null before the first. */
  get health(): { okAt: Date | null; failedAt: Date | null } {
    return { okAt: this.#answeredAt, failedAt: this.#failedAt };
  }

  /** Whether a server without a /setup connection is served by the operator's default one. */
  async usesDefault(guildId: string): Promise<boolean> {
    return (
      this.#options.defaultEventor !== null &&
      this.#options.defaultGuilds.has(guildId) &&
      !(await this.#options.store.servers.guildSettings(guildId))?.hasApiKey
    );
  }

  async forGuild(guildId: string | null): Promise<GuildEventor> {
    const settings = guildId ? await this.#options.store.servers.guildSettings(guildId) : null;
    if (guildId && settings?.hasApiKey) {
      const apiKey = await this.#options.store.servers.apiKey(guildId);
      const instance = instanceOf(settings.eventorInstance, settings.eventorBaseUrl, this.#options.customTimeZones);
      if (apiKey && instance) {
        const client = this.clientFor(instance, apiKey);
        if (settings.organisationId && settings.organisationName) {
          return {
            client,
            instance,
            organisationId: settings.organisationId,
            organisationName: settings.organisationName,
            lastAnswer: () => this.lastAnswer(client),
          };
        }
        const organisation = await this.#organisationOf(client);
        return {
          client,
          instance,
          organisationId: organisation.id,
          organisationName: organisation.name,
          lastAnswer: () => this.lastAnswer(client),
        };
      }
    }
    const fallback = this.#options.defaultEventor;
    // Anyone can add the bot to a server of their own: the operator's connection (the club's
    // member list, its members' login links) serves only the servers the operator named.
    if (!fallback || guildId === null || !this.#options.defaultGuilds.has(guildId))
      throw new UserFacingError('error.notConfigured');
    const client = this.clientFor(fallback.instance, fallback.apiKey);
    const organisation = await this.#organisationOf(client);
    return {
      client,
      instance: fallback.instance,
      organisationId: organisation.id,
      organisationName: organisation.name,
      lastAnswer: () => this.lastAnswer(client),
    };
  }

  /**
   * The organisation of the operator's default key, asked of Eventor (and kept for the servers it
   * serves); null without a default connection. Rejects with the client's error (e.g. InvalidApiKey).
   */
  async defaultOrganisation(): Promise<{ id: string; name: string } | null> {
    const fallback = this.#options.defaultEventor;
    if (!fallback) return null;
    return this.#organisationOf(this.clientFor(fallback.instance, fallback.apiKey));
  }

  async #organisationOf(client: EventorClient): Promise<{ id: string; name: string }> {
    const known = this.#organisations.get(client);
    if (known) return known;
    const organisation = await client.organisationForApiKey();
    const found = { id: organisation.id, name: organisation.name };
    this.#organisations.set(client, found);
    return found;
  }

  /** When this client last got an answer from Eventor (not from its cache), if it has. */
  lastAnswer(client: EventorClient): Date | null {
    return this.#lastAnswer.get(client) ?? null;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((c) => c.close()));
    this.#clients.clear();
    this.#organisations.clear();
    for (const shared of this.#shared.values()) shared.clear();
    this.#shared.clear();
  }
}

/**
 * The instance of a server's stored connection. A custom address gets the zone the operator gave
 * its origin (EVENTOR_CUSTOM_URLS `url|Zone`), so a change there applies to servers already set up.
 */
export function instanceOf(
  name: string | null,
  baseUrl: string | null,
  customTimeZones?: ReadonlyMap<string, string>,
): EventorInstance | null {
  if (baseUrl) {
    const timeZone = customTimeZones?.get(new URL(baseUrl).origin);
    return customInstance(baseUrl, timeZone === undefined ? {} : { nativeTimeZone: timeZone });
  }
  if (name && isInstanceName(name)) return INSTANCES[name];
  return null;
}
