/**
 * Configuration from the environment and an optional `.env` file. Each problem is reported as
 * its own line naming the variable, and values of secret variables never appear in messages.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { customInstance, INSTANCES, isInstanceName, type EventorInstance } from '../eventor/instances.js';

/** Loads `.env` from `dir` into `process.env` without overriding variables already set. */
export function loadDotEnv(dir = process.cwd()): string | null {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface EventorConfig {
  instance: EventorInstance;
  apiKey: string;
  timeoutMs: number;
}

const positiveInt = z.coerce.number().int().positive();

/** The Eventor part of the configuration: which instance, which key, how patient. */
export function eventorConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EventorConfig {
  const problems: string[] = [];
  let instance: EventorInstance | null = null;
  const baseUrl = env.EVENTOR_BASE_URL?.trim();
  const instanceName = env.EVENTOR_INSTANCE?.trim().toLowerCase();
  if (baseUrl) {
    try {
      const url = new URL(baseUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
      instance = customInstance(baseUrl, env.EVENTOR_TIME_ZONE ? { nativeTimeZone: env.EVENTOR_TIME_ZONE } : {});
    } catch {
      problems.push('EVENTOR_BASE_URL is not an http(s) URL (expected e.g. https://eventor.orientering.se/api)');
    }
  } else if (instanceName) {
    if (isInstanceName(instanceName)) instance = INSTANCES[instanceName];
    else problems.push(`EVENTOR_INSTANCE must be one of ${Object.keys(INSTANCES).join(', ')} (got '${instanceName}')`);
  } else {
    problems.push('EVENTOR_INSTANCE (se, no, au, iof) or EVENTOR_BASE_URL must be set');
  }
  const apiKey = env.EVENTOR_API_KEY?.trim() ?? '';
  if (apiKey === '') problems.push('EVENTOR_API_KEY must be set (your club\'s Eventor API key)');
  else if (!/^[\x21-\x7e]+$/.test(apiKey)) problems.push('EVENTOR_API_KEY contains spaces or characters an HTTP header cannot carry');
  let timeoutMs = 30_000;
  if (env.EVENTOR_TIMEOUT_MS !== undefined && env.EVENTOR_TIMEOUT_MS !== '') {
    const parsed = positiveInt.safeParse(env.EVENTOR_TIMEOUT_MS);
    if (parsed.success) timeoutMs = parsed.data;
    else problems.push('EVENTOR_TIMEOUT_MS must be a positive whole number of milliseconds');
  }
  if (problems.length > 0 || instance === null) throw new ConfigError(problems);
  return { instance, apiKey, timeoutMs };
}
