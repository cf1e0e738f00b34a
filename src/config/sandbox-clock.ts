/**
 * SANDBOX_CLOCK: the bot's clock starts at this instant and runs at real speed from there. It is for
 * the sandboxes (the tests, the demo, the soak): the sandbox Eventor's data is made around an instant
 * of its own, and a bot on the machine's clock would read it as weeks or months away. Refused unless
 * every Eventor the bot may reach is on loopback, since a real Eventor read on a shifted clock would
 * post the wrong week's news (docs/operators.md#the-sandbox-only). The same holds for the live
 * results: a LiveResultat address the operator set must be on loopback too, and one left unset
 * (the public services) turns the live results off under the sandbox clock rather than read a real
 * race day as if it were another.
 */
import type { ConfigEnv } from './variables.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** Whether an address is on this machine's loopback (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(raw: string): boolean {
  try {
    const host = new URL(raw).hostname;
    return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}

/**
 * The instant SANDBOX_CLOCK names, or undefined when it is unset. `eventorUrls`: the Eventor
 * addresses the operator configured (the default one and EVENTOR_CUSTOM_URLS); none means the bot
 * reads only the real Eventors. Problems are added to `problems`.
 */
export function sandboxClockFromEnv(
  env: ConfigEnv,
  eventorUrls: readonly string[],
  problems: string[],
  liveUrls: readonly string[] = [],
): Date | undefined {
  const text = env.SANDBOX_CLOCK?.trim() ?? '';
  if (text === '') return undefined;
  // An instant with its zone: a bare date or local time would be read in the machine's zone.
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) {
    problems.push('SANDBOX_CLOCK must be an instant with its zone, e.g. 2026-11-18T09:00:00Z');
    return undefined;
  }
  if (eventorUrls.length === 0 || !eventorUrls.every(isLoopbackUrl)) {
    problems.push(
      'SANDBOX_CLOCK is for the sandbox Eventor only: it needs EVENTOR_BASE_URL (and every EVENTOR_CUSTOM_URLS entry) on loopback',
    );
    return undefined;
  }
  if (!liveUrls.every(isLoopbackUrl)) {
    problems.push(
      'SANDBOX_CLOCK is for the sandbox LiveResultat only: once LIVERESULTAT_URL or LIVERESULTAT_LEGACY_URL is set, both must be on loopback',
    );
    return undefined;
  }
  return new Date(ms);
}

/** The live-results addresses the operator set (LIVERESULTAT_URL, LIVERESULTAT_LEGACY_URL), blank ones left out. */
export function liveUrlsSet(env: ConfigEnv): string[] {
  return [env.LIVERESULTAT_URL, env.LIVERESULTAT_LEGACY_URL]
    .map((value) => value?.trim() ?? '')
    .filter((value) => value !== '');
}

/** A clock that reads `start` now and runs at real speed from there. */
export function clockFrom(start: Date): () => Date {
  const startedAt = performance.now();
  return () => new Date(start.getTime() + Math.floor(performance.now() - startedAt));
}
