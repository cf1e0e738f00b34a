/**
 * The bot's configuration, validated at start with one line per missing or invalid variable.
 * Secret values never appear in the messages.
 */
import {
  ConfigError,
  type EventorConfig,
  eventorConfigFromEnv,
  eventorUrlProblem,
  liveEndpointsFromEnv,
  responseLimitScaleFromEnv,
  timeoutMsFromEnv,
} from '../config/env.js';
import { databaseUrlFromEnv } from '../config/database.js';
import { liveUrlsSet, sandboxClockFromEnv } from '../config/sandbox-clock.js';
import { type Sharding, shardingFromEnv } from '../config/sharding.js';
import type { ConfigEnv } from '../config/variables.js';
import { INSTANCES, isInstanceName } from '../eventor/instances.js';
import { type Language, languageFor } from '../i18n/index.js';
import type { LiveEndpoints } from '../live/endpoints.js';
import { isLogLevel, type LogLevel } from '../log/logger.js';
import { isValidTimeZone } from '../time/zones.js';

export interface BotConfig {
  discordToken: string;
  /** REST base URL up to and including `/api` (Discord's, a REST proxy, or the sandbox). */
  discordApiUrl: string;
  /** The Eventor used by servers that have not run /setup; null when the operator set none. */
  defaultEventor: EventorConfig | null;
  /**
   * The servers the default Eventor serves (EVENTOR_DEFAULT_GUILDS). A bot can be added to any
   * server by anyone, so the operator's connection (the club's members, their login links) serves
   * only servers the operator names; every other server brings its own key with /setup.
   */
  defaultEventorGuilds: ReadonlySet<string>;
  /**
   * Origins besides the presets that server admins may connect to in /setup. Empty by default:
   * an admin-typed address would let anyone with Manage Server make the bot call any host.
   */
  customEventorOrigins: readonly string[];
  /**
   * Zones of the custom origins that ignore `TimeZone: UTC` (EVENTOR_CUSTOM_URLS entries written
   * `url|Zone`): their native times are read in that zone. Absent: every custom origin honours it.
   */
  customEventorTimeZones?: ReadonlyMap<string, string>;
  /** Multiplies every Eventor answer's size cap, for all servers (EVENTOR_MAX_RESPONSE_MB); absent means 1. */
  eventorResponseLimitScale?: number;
  /** How long one attempt of every server's Eventor requests may take (EVENTOR_TIMEOUT_MS); absent: the client's 30 s. */
  eventorTimeoutMs?: number;
  /** The SQLite file (DATABASE_PATH); not used when `databaseUrl` is set. */
  databasePath: string;
  /**
   * The PostgreSQL database (DATABASE_URL) the store is on instead of the file, for several
   * processes on one database (docs/operators.md#running-at-scale). It may hold a password: never shown.
   */
  databaseUrl?: string;
  /** Take an existing empty database file as a new database (DATABASE_INIT=1 or `--init-database`). */
  initialiseDatabase?: boolean;
  secretKey: string;
  defaultLanguage: Language;
  defaultTimeZone: string;
  logLevel: LogLevel;
  /**
   * The gateway shards this process runs (SHARD_COUNT, SHARDS); absent: one unsharded session that
   * sees every server (docs/operators.md#several-processes-sharding).
   */
  sharding?: Sharding;
  /** Where the bot's clock starts (SANDBOX_CLOCK, for the sandboxes only); absent: the machine's clock. */
  sandboxClock?: Date;
  /**
   * Where the live results are read (LIVERESULTAT_URL, LIVERESULTAT_LEGACY_URL; the public services
   * when unset), only ever from here (docs/live-results.md#the-two-apis). Absent or null: live
   * results are off (SANDBOX_CLOCK without loopback addresses for them, or a bot built without).
   */
  liveEndpoints?: LiveEndpoints | null;
  /** DISCORD_APPLICATION_ID, when set: `start` checks it is the token's own application. */
  applicationId?: string;
}

export const DEFAULT_DISCORD_API_URL = 'https://discord.com/api';
export const DEFAULT_DATABASE_PATH = './data/eventor-bot.sqlite';

/** DISCORD_TOKEN and DISCORD_API_URL, checked (what `start`, `tick` and `deploy-commands` need); problems are added to `problems`. */
export function discordConfigFromEnv(
  env: ConfigEnv,
  problems: string[],
): { discordToken: string; discordApiUrl: string } {
  const discordToken = env.DISCORD_TOKEN?.trim() ?? '';
  if (discordToken === '') problems.push('DISCORD_TOKEN must be set (the bot token from the Discord developer portal)');
  let discordApiUrl = env.DISCORD_API_URL?.trim() || DEFAULT_DISCORD_API_URL;
  try {
    const url = new URL(discordApiUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    discordApiUrl = url.href.replace(/\/+$/, '');
  } catch {
    problems.push('DISCORD_API_URL is not an http(s) URL (expected e.g. https://discord.com/api)');
  }
  return { discordToken, discordApiUrl };
}

/** Where an operator finds the application id, for the messages that ask for it. */
export const APPLICATION_ID_WHERE =
  'Discord Developer Portal > your application > General Information > Application ID';

/**
 * DISCORD_APPLICATION_ID, checked: only `invite` needs it (the token tells `deploy-commands` and
 * `start` the id), so it is optional. Undefined when unset; problems are added to `problems`.
 */
export function applicationIdFromEnv(env: ConfigEnv, problems: string[]): string | undefined {
  const id = env.DISCORD_APPLICATION_ID?.trim() ?? '';
  if (id === '') return undefined;
  if (/^\d{17,20}$/.test(id)) return id;
  problems.push(`DISCORD_APPLICATION_ID is not an application id: 17 to 20 digits (${APPLICATION_ID_WHERE})`);
  return undefined;
}

export function botConfigFromEnv(env: ConfigEnv = process.env): BotConfig {
  const problems: string[] = [];
  const { discordToken, discordApiUrl } = discordConfigFromEnv(env, problems);
  // Not used by the bot itself, but a wrong one is better said at start than at the next `invite`.
  const applicationId = applicationIdFromEnv(env, problems);
  const sharding = shardingFromEnv(env, problems);
  const databaseUrl = databaseUrlFromEnv(env, problems);

  let defaultEventor: EventorConfig | null = null;
  // A key (or an address of its own) asks for a default connection; an instance alone does not,
  // so that the template (EVENTOR_INSTANCE=se, the key left empty) starts as written, with every
  // server bringing its own key. `query` still demands the key.
  const wantsEventor = Boolean(env.EVENTOR_API_KEY?.trim() || env.EVENTOR_BASE_URL?.trim());
  const instanceName = env.EVENTOR_INSTANCE?.trim().toLowerCase();
  if (!wantsEventor && instanceName && !isInstanceName(instanceName)) {
    problems.push(
      `EVENTOR_INSTANCE must be one of ${Object.keys(INSTANCES).join(', ')} (got '${instanceName.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)}')`,
    );
  }
  if (wantsEventor) {
    try {
      defaultEventor = eventorConfigFromEnv(env);
    } catch (error) {
      if (error instanceof ConfigError) problems.push(...error.problems);
      else throw error;
    }
  }

  const defaultEventorGuilds = new Set<string>();
  for (const item of (env.EVENTOR_DEFAULT_GUILDS ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (/^\d{17,20}$/.test(item)) defaultEventorGuilds.add(item);
    else
      problems.push(
        `EVENTOR_DEFAULT_GUILDS: '${item.replace(/[^\x20-\x7e]/g, '?').slice(0, 40)}' is not a Discord server id (17 to 20 digits)`,
      );
  }
  if (defaultEventorGuilds.size > 0 && !wantsEventor)
    problems.push('EVENTOR_DEFAULT_GUILDS names servers, but no default Eventor is configured (EVENTOR_API_KEY)');

  const customEventorOrigins: string[] = [];
  const customEventorTimeZones = new Map<string, string>();
  const customUrls = (env.EVENTOR_CUSTOM_URLS ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const [index, entry] of customUrls.entries()) {
    // `https://proxy.example.org/api|Europe/Oslo`: an address that ignores `TimeZone: UTC`, with its zone.
    const bar = entry.lastIndexOf('|');
    const item = (bar < 0 ? entry : entry.slice(0, bar)).trim();
    const timeZone = bar < 0 ? null : entry.slice(bar + 1).trim();
    const problem = eventorUrlProblem(item);
    // Named by position, never quoted: an entry may hold a user name and password.
    const where = `EVENTOR_CUSTOM_URLS: entry ${index + 1} of ${customUrls.length}`;
    if (problem !== null) problems.push(`${where} ${problem}`);
    else if (timeZone !== null && !isValidTimeZone(timeZone))
      problems.push(
        `${where} has a time zone after '|' that is not an IANA time zone (e.g. https://proxy.example.org/api|Europe/Oslo)`,
      );
    else {
      const origin = new URL(item).origin;
      customEventorOrigins.push(origin);
      if (timeZone !== null) customEventorTimeZones.set(origin, timeZone);
    }
  }

  // For every server's Eventor, the default one and those set up with /setup alike.
  const eventorResponseLimitScale = responseLimitScaleFromEnv(env, problems);
  const eventorTimeoutMs = timeoutMsFromEnv(env, problems);

  const secretKey = env.SECRET_KEY ?? '';
  if (secretKey.length < 16)
    problems.push(
      'SECRET_KEY must be set to at least 16 characters (it encrypts the API keys stored by /setup; e.g. `openssl rand -hex 32`)',
    );

  const locale = env.DEFAULT_LOCALE?.trim() || 'en';
  if (!/^(en|en-US|en-GB|sv|sv-SE|no|nb|nb-NO)$/i.test(locale))
    problems.push(`DEFAULT_LOCALE must be en, sv or no (got '${locale}')`);
  const defaultTimeZone = env.DEFAULT_TIME_ZONE?.trim() || 'Europe/Stockholm';
  if (!isValidTimeZone(defaultTimeZone))
    problems.push(`DEFAULT_TIME_ZONE '${defaultTimeZone}' is not an IANA time zone (e.g. Europe/Stockholm)`);
  const logLevel = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!isLogLevel(logLevel)) problems.push(`LOG_LEVEL must be debug, info, warn or error (got '${logLevel}')`);

  const databaseInit = env.DATABASE_INIT?.trim().toLowerCase() ?? '';
  if (!['', '0', '1', 'true', 'false'].includes(databaseInit))
    problems.push('DATABASE_INIT must be 1 (take an empty database file as a new database) or 0');

  let liveEndpoints: LiveEndpoints | null = null;
  try {
    liveEndpoints = liveEndpointsFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) problems.push(...error.problems);
    else throw error;
  }
  const liveSet = liveUrlsSet(env);
  const sandboxClock = sandboxClockFromEnv(
    env,
    [...(defaultEventor === null ? [] : [defaultEventor.instance.baseUrl]), ...customEventorOrigins],
    problems,
    // Both, once either is set: the one left unset would be the public service.
    liveSet.length === 0 || liveEndpoints === null ? [] : [liveEndpoints.restUrl, liveEndpoints.legacyUrl],
  );
  // On the sandbox clock the public services are never read (docs/operators.md#the-sandbox-only).
  if (sandboxClock !== undefined && liveSet.length === 0) liveEndpoints = null;

  // EVENTOR_MAX_RESPONSE_MB is read for the default Eventor and for the others: one line is enough.
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return {
    discordToken,
    discordApiUrl,
    defaultEventor,
    defaultEventorGuilds,
    customEventorOrigins,
    customEventorTimeZones,
    eventorResponseLimitScale,
    eventorTimeoutMs,
    databasePath: env.DATABASE_PATH?.trim() || DEFAULT_DATABASE_PATH,
    databaseUrl: databaseUrl ?? undefined,
    initialiseDatabase: databaseInit === '1' || databaseInit === 'true',
    secretKey,
    defaultLanguage: languageFor(locale),
    defaultTimeZone,
    logLevel: logLevel as LogLevel,
    sharding: sharding ?? undefined,
    sandboxClock,
    liveEndpoints,
    applicationId,
  };
}
