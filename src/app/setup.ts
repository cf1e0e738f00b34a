/**
 * Connecting a server to Eventor: custom addresses waiting between the slash command and the key
 * form, the key check with Eventor, and storing the connection (forgetting members' links when the
 * server moves to another Eventor or club). Asking for the key and telling members is the bot's.
 */
import { randomBytes } from 'node:crypto';
import { EventorClient } from '../eventor/client.js';
import { EventorError } from '../eventor/errors.js';
import { customInstance, type EventorInstance, INSTANCES, isInstanceName } from '../eventor/instances.js';
import type { Language, PlainKey } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { GuildSettings, Store } from '../store/interfaces.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { GuildEventor } from '../club/eventor-access.js';
import { connectEventor, type MembersForgotten } from './privacy.js';

export const KEY_MIN = 16;
export const KEY_MAX = 128;
/** ASCII without spaces, quotes or backslashes: it travels in an HTTP header, and the log masks it verbatim (JSON would escape `"` and `\`). */
const KEY_SHAPE = new RegExp(`^[\\x21\\x23-\\x5b\\x5d-\\x7e]{${KEY_MIN},${KEY_MAX}}$`);
const PENDING_TTL_MS = 15 * 60_000;
const PENDING_MAX = 1_000;
/** The key check answers an admin who is waiting: fewer retries and a shorter timeout than normal calls. */
const CHECK_RETRIES = 1;
const CHECK_TIMEOUT_MS = 15_000;

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A base URL an admin typed, as an instance; a preset's own address becomes the preset. Any other
 * address must be on the operator's list, or any admin could point the bot at any host.
 */
export function parseBaseUrl(raw: string, allowedOrigins: readonly string[]): EventorInstance | { reason: PlainKey } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { reason: 'setup.url.notUrl' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { reason: 'setup.url.notUrl' };
  // The key goes in a header of every request: plain http only where it never leaves the machine.
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) return { reason: 'setup.url.notHttps' };
  if (url.username || url.password) return { reason: 'setup.url.credentials' };
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) return { reason: 'setup.url.query' };
  if (url.pathname === '/') url.pathname = '/api';
  const instance = customInstance(url.href);
  const preset = Object.values(INSTANCES).find((p) => p.baseUrl === instance.baseUrl);
  if (preset) return preset;
  if (!allowedOrigins.includes(url.origin)) return { reason: 'setup.url.notAllowed' };
  return instance;
}

interface PendingCustom {
  guildId: string;
  userId: string;
  baseUrl: string;
  expiresAt: number;
}

export interface SetupDeps {
  store: Store;
  log: Logger;
  now: () => Date;
  /** How the key check's client is made (default: a real one without cache). */
  createCheckClient?: (instance: EventorInstance, apiKey: string) => EventorClient;
}

export class Setup {
  /**
   * Custom base URLs between the slash command and the modal submit, kept here rather than in the
   * custom id (which is capped at 100 characters and comes back from the client unverified). One
   * map per running bot, owned by the composition root.
   */
  readonly #pending = new Map<string, PendingCustom>();
  readonly #deps: SetupDeps;

  constructor(deps: SetupDeps) {
    this.#deps = deps;
  }

  /** Refuses a key that cannot be one before Eventor is asked (what the form let through). */
  requireKeyShape(apiKey: string): void {
    if (!KEY_SHAPE.test(apiKey)) throw new UserFacingError('setup.key.badShape');
  }

  /** Notes a custom address an admin is about to give a key for; the reference goes in the form's custom id. */
  rememberCustom(guildId: string, userId: string, baseUrl: string): string {
    const now = this.#deps.now().getTime();
    this.#prune(now);
    const ref = randomBytes(12).toString('base64url');
    this.#pending.set(ref, { guildId, userId, baseUrl, expiresAt: now + PENDING_TTL_MS });
    return ref;
  }

  /** The instance a submitted form is for: a preset by name, or a custom address noted for this admin in this server. */
  instanceFor(
    form: { instance: string; ref?: string | undefined },
    guildId: string,
    userId: string,
  ): { instance: EventorInstance; ref: string | null } {
    const { instance: name, ref } = form;
    if (isInstanceName(name)) return { instance: INSTANCES[name], ref: null };
    const entry = name === 'custom' && ref !== undefined ? this.#pending.get(ref) : undefined;
    if (
      !entry ||
      entry.expiresAt <= this.#deps.now().getTime() ||
      entry.guildId !== guildId ||
      entry.userId !== userId
    ) {
      throw new UserFacingError('setup.key.expired');
    }
    return { instance: customInstance(entry.baseUrl), ref: ref ?? null };
  }

  #prune(now: number): void {
    for (const [id, entry] of this.#pending) if (entry.expiresAt <= now) this.#pending.delete(id);
    // Oldest first (insertion order): a flood of unused forms cannot grow the map without bound.
    while (this.#pending.size >= PENDING_MAX) this.#pending.delete(this.#pending.keys().next().value!);
  }

  /**
   * Eventor's verdict on this key now: its organisation, or the refusal the admin reads (`label`
   * names the instance in their language).
   */
  async checkKey(
    instance: EventorInstance,
    apiKey: string,
    label: string,
    log: Logger = this.#deps.log,
  ): Promise<{ id: string; name: string }> {
    // A client of its own, without cache: the answer must be Eventor's verdict on this key now.
    const client =
      this.#deps.createCheckClient?.(instance, apiKey) ??
      new EventorClient({ instance, apiKey, retries: CHECK_RETRIES, timeoutMs: CHECK_TIMEOUT_MS, cache: false });
    try {
      return await client.organisationForApiKey();
    } catch (error) {
      if (!(error instanceof EventorError)) throw error;
      log.warn('eventor key check failed', { instance: instance.baseUrl, error });
      if (error.code === 'InvalidApiKey') throw new UserFacingError('setup.key.refused', { instance: label });
      const custom = !isInstanceName(instance.name);
      if (custom && (error.code === 'NotFound' || error.code === 'InvalidResponse'))
        throw new UserFacingError('setup.key.notEventor', { url: instance.baseUrl });
      throw new UserFacingError('setup.key.unavailable', { instance: label });
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /**
   * Stores a checked connection. Person ids are per instance, and a club's key reaches only its own
   * members: links made under another Eventor or club name someone else, or someone this key must
   * not log in as, so a move forgets them (what was forgotten, and whom to tell, is returned).
   */
  async connect(
    current: () => Promise<GuildEventor>,
    who: { guildId: string; actorId: string },
    instance: EventorInstance,
    apiKey: string,
    organisation: { id: string; name: string },
    ref: string | null,
    log: Logger = this.#deps.log,
  ): Promise<{ moved: boolean; forgotten: MembersForgotten | null }> {
    const before = await this.#currentConnection(current, log);
    const moved = before === null || before.baseUrl !== instance.baseUrl || before.organisationId !== organisation.id;
    const { forgotten } = await connectEventor(
      this.#deps.store,
      who.guildId,
      {
        instance: instance.name,
        baseUrl: isInstanceName(instance.name) ? null : instance.baseUrl,
        apiKey,
        organisation: { id: organisation.id, name: organisation.name },
      },
      { forgetMembers: moved, actorId: who.actorId },
    );
    if (ref) this.#pending.delete(ref);
    log.info('server connected to eventor', {
      instance: instance.baseUrl,
      organisation: organisation.id,
      moved,
      forgotten: forgotten ? forgotten.links + forgotten.requests + forgotten.subscriptions : 0,
    });
    return { moved, forgotten };
  }

  /**
   * The Eventor and club the server uses now, or null when it has none or it cannot be told (a
   * default connection that is not answering): then the new one counts as a move, because links
   * nobody can show to be of the same club are not kept.
   */
  async #currentConnection(
    current: () => Promise<GuildEventor>,
    log: Logger,
  ): Promise<{ baseUrl: string; organisationId: string } | null> {
    try {
      const eventor = await current();
      return { baseUrl: eventor.instance.baseUrl, organisationId: eventor.organisationId };
    } catch (error) {
      // A server's first connection has no previous one: nothing to tell.
      if (error instanceof UserFacingError && error.key === 'error.notConfigured') return null;
      log.info('the previous eventor connection could not be told; treating the new one as a move', { error });
      return null;
    }
  }

  /** The server's settings from /setup, or null when it has none. */
  settings(guildId: string): Promise<GuildSettings | null> {
    return this.#deps.store.servers.guildSettings(guildId);
  }

  /** The language of the server's automatic posts and server-wide texts (`/setup language`). */
  async setLanguage(guildId: string, language: Language): Promise<void> {
    await this.#deps.store.servers.updateGuildSettings(guildId, { locale: language });
  }

  /** The server's time zone (`/setup timezone`): a canonical IANA name, checked by the caller. */
  async setTimeZone(guildId: string, zone: string): Promise<void> {
    await this.#deps.store.servers.updateGuildSettings(guildId, { timeZone: zone });
  }

  /** Which ways of linking members the server allows (`/setup linking`); unset ones stay as they are. */
  async setLinkingMethods(
    guildId: string,
    change: { credentials?: boolean; approval?: boolean },
  ): Promise<{ methods: { credentials: boolean; approval: boolean }; needsAdminChannel: boolean }> {
    const methods = await this.#deps.store.links.setLinkingMethods(guildId, change);
    return {
      methods,
      needsAdminChannel: methods.approval && !(await this.#deps.store.servers.guildSettings(guildId))?.channels.admin,
    };
  }
}
