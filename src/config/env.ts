/**
 * Configuration from the environment and an optional `.env` file. Each problem is reported as
 * its own line naming the variable, and values of secret variables never appear in messages.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { MAX_RESPONSE_BYTES_CEILING } from '../eventor/http.js';
import { customInstance, type EventorInstance, INSTANCES, isInstanceName } from '../eventor/instances.js';
import { DEFAULT_LARGEST_RESPONSE_MIB } from '../eventor/operations.js';
import { type LiveEndpoints, PUBLIC_LIVE_ENDPOINTS } from '../live/endpoints.js';
import { isValidTimeZone } from '../time/zones.js';
import { ConfigError } from './errors.js';
import type { ConfigEnv } from './variables.js';

export { ConfigError } from './errors.js';

/** Loads `.env` from `dir` into `process.env` without overriding variables already set. */
export function loadDotEnv(dir = process.cwd()): string | null {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return null;
  try {
    // Node's own error for a folder names no cause ("should be a valid string").
    if (statSync(file).isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
    // Read here first: Node's loader says ENOENT for a file it may not read, which sends the
    // operator looking for a file that is there.
    readFileSync(file);
    process.loadEnvFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR'
        ? 'it is a folder, not a file'
        : code === 'EACCES' || code === 'EPERM'
          ? noPermission(file)
          : (error as Error).message;
    throw new ConfigError([`cannot read ${file}: ${why} (see .env.example)`]);
  }
  return file;
}

/**
 * Why a file this process may not read is so, as the operator fixes it: whose it is, its mode, and
 * who this process runs as (a `.env` made by root and read by a service's own user, typically).
 */
function noPermission(file: string): string {
  let owner = '';
  try {
    const stat = statSync(file);
    owner = ` it belongs to ${stat.uid === 0 ? 'root' : `uid ${stat.uid}`} with mode 0${(stat.mode & 0o777).toString(8)},`;
  } catch {
    // A folder above it that may not be searched: the words below still hold.
  }
  let me = `uid ${process.getuid?.() ?? '?'}`;
  try {
    const user = userInfo();
    me = `${user.username} (uid ${user.uid})`;
  } catch {
    // A user without a name (a container's numeric --user): the uid says it.
  }
  return `no permission to read it:${owner} and this process runs as ${me}; make it readable by that user (chown), or run the bot as its owner`;
}

export interface EventorConfig {
  instance: EventorInstance;
  apiKey: string;
  timeoutMs: number;
  /** Multiplies every operation's response cap (EVENTOR_MAX_RESPONSE_MB over its default); absent means 1. */
  responseLimitScale?: number;
}

const positiveInt = z.coerce.number().int().positive();

const NOT_HTTP = 'is not an http(s) URL';

/**
 * What is wrong with an Eventor address from the configuration, or null. The words never quote
 * the address: a user name and password in it (`https://user:password@host/api`) are secrets.
 * Those are refused, not dropped: Eventor takes its key in a header, so credentials in the address
 * would go nowhere useful, and the bot shows the address in logs and in links it posts.
 */
export function eventorUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // `user:password@host` without a scheme lands here too: still not quoted.
    return NOT_HTTP;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return NOT_HTTP;
  if (url.username !== '' || url.password !== '')
    return 'must not contain a user name or password (user:password@); the key goes in EVENTOR_API_KEY';
  return null;
}

/** The Eventor part of the configuration: which instance, which key, how patient. */
export function eventorConfigFromEnv(env: ConfigEnv = process.env): EventorConfig {
  const problems: string[] = [];
  let instance: EventorInstance | null = null;
  const baseUrl = env.EVENTOR_BASE_URL?.trim();
  const instanceName = env.EVENTOR_INSTANCE?.trim().toLowerCase();
  if (baseUrl) {
    const problem = eventorUrlProblem(baseUrl);
    const timeZone = env.EVENTOR_TIME_ZONE?.trim();
    if (timeZone && !isValidTimeZone(timeZone))
      problems.push(`EVENTOR_TIME_ZONE '${timeZone.slice(0, 60)}' is not an IANA time zone (e.g. Europe/Stockholm)`);
    else if (problem === null) instance = customInstance(baseUrl, timeZone ? { nativeTimeZone: timeZone } : {});
    if (problem !== null)
      problems.push(
        `EVENTOR_BASE_URL ${problem}${problem === NOT_HTTP ? ' (expected e.g. https://eventor.orientering.se/api)' : ''}`,
      );
  } else if (instanceName) {
    if (isInstanceName(instanceName)) instance = INSTANCES[instanceName];
    else problems.push(`EVENTOR_INSTANCE must be one of ${Object.keys(INSTANCES).join(', ')} (got '${instanceName}')`);
  } else {
    problems.push(`EVENTOR_INSTANCE (${Object.keys(INSTANCES).join(', ')}) or EVENTOR_BASE_URL must be set`);
  }
  const apiKey = env.EVENTOR_API_KEY?.trim() ?? '';
  if (apiKey === '') problems.push("EVENTOR_API_KEY must be set (your club's Eventor API key)");
  else if (!/^[\x21-\x7e]+$/.test(apiKey))
    problems.push('EVENTOR_API_KEY contains spaces or characters an HTTP header cannot carry');
  const timeoutMs = timeoutMsFromEnv(env, problems) ?? DEFAULT_TIMEOUT_MS;
  const responseLimitScale = responseLimitScaleFromEnv(env, problems);
  if (problems.length > 0 || instance === null) throw new ConfigError(problems);
  return { instance, apiKey, timeoutMs, responseLimitScale };
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * EVENTOR_TIMEOUT_MS: how long one attempt of an Eventor request may take, for the `query` client and
 * every server's client alike. Absent: undefined (the client's default, 30 s); problems are added.
 */
export function timeoutMsFromEnv(env: ConfigEnv, problems: string[]): number | undefined {
  const raw = env.EVENTOR_TIMEOUT_MS?.trim();
  if (raw === undefined || raw === '') return undefined;
  const parsed = positiveInt.safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push('EVENTOR_TIMEOUT_MS must be a positive whole number of milliseconds');
  return undefined;
}

const MAX_RESPONSE_MB_CEILING = Math.floor(MAX_RESPONSE_BYTES_CEILING / (1024 * 1024));

/**
 * EVENTOR_MAX_RESPONSE_MB: the cap of the largest Eventor answers (an event's full start and
 * result lists), default 256; every other operation's cap keeps its proportion to it
 * (operations.ts, RESPONSE CAPS). Returned as the scale the client applies; problems are added.
 */
export function responseLimitScaleFromEnv(env: ConfigEnv, problems: string[]): number {
  const raw = env.EVENTOR_MAX_RESPONSE_MB?.trim();
  if (raw === undefined || raw === '') return 1;
  const parsed = z.coerce.number().positive().max(MAX_RESPONSE_MB_CEILING).safeParse(raw);
  if (!parsed.success) {
    problems.push(
      `EVENTOR_MAX_RESPONSE_MB must be a number of MiB above 0 and at most ${MAX_RESPONSE_MB_CEILING} (the largest answers' cap; default ${DEFAULT_LARGEST_RESPONSE_MIB})`,
    );
    return 1;
  }
  return parsed.data / DEFAULT_LARGEST_RESPONSE_MIB;
}

/**
 * Where the live results are read (docs/live-results.md): LIVERESULTAT_URL, the REST API, and
 * LIVERESULTAT_LEGACY_URL, the older `api.php` it falls back to; the public services when unset.
 * Only the operator sets these: nothing an admin types ever becomes an address the bot asks. Like
 * the Eventor addresses, no user name or password in them (they are shown in logs).
 */
export function liveEndpointsFromEnv(env: ConfigEnv = process.env): LiveEndpoints {
  const problems: string[] = [];
  const read = (name: 'LIVERESULTAT_URL' | 'LIVERESULTAT_LEGACY_URL', fallback: string): string => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const problem = liveUrlProblem(raw);
    if (problem !== null) problems.push(`${name} ${problem}`);
    return raw;
  };
  const endpoints = {
    restUrl: read('LIVERESULTAT_URL', PUBLIC_LIVE_ENDPOINTS.restUrl),
    legacyUrl: read('LIVERESULTAT_LEGACY_URL', PUBLIC_LIVE_ENDPOINTS.legacyUrl),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return endpoints;
}

/** What is wrong with a live-results address, or null; never quoting it (it may hold a password). */
export function liveUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${NOT_HTTP} (expected e.g. ${PUBLIC_LIVE_ENDPOINTS.restUrl})`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return NOT_HTTP;
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password (user:password@)';
  return null;
}
