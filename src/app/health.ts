/**
 * Whether the bot is alive, from the heartbeats its processes record (docs/operators.md#monitoring):
 * what `eventor-bot health` says and the exit code it gives. Pure: the caller reads the heartbeats
 * and the clock.
 */
import type { Heartbeat } from '../store/interfaces.js';

// What the bot's recorder (src/bot/heartbeat.ts) writes, named here: the bot reaches the store only
// through the services (docs/architecture.md#the-dependency-rule).
export type { GatewayState, Heartbeat, HeartbeatStore } from '../store/interfaces.js';

/** How often a running process records its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 30_000;
/** A heartbeat older than this (three missed beats) is from a process that is gone or stuck. */
export const STALE_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;
/** The gateway may reconnect (Discord asks for it now and then) for this long before it counts. */
export const GATEWAY_GRACE_MS = 2 * 60_000;
/** The feed scheduler ticks every minute: this long without a tick ending means it is stuck. */
export const FEEDS_GRACE_MS = 10 * 60_000;
/** Discord failing every request for this long (after its last answer) counts. */
export const DISCORD_GRACE_MS = 10 * 60_000;
/** Eventor is often slow or down for a while on its own; failing every request this long counts. */
export const EVENTOR_GRACE_MS = 30 * 60_000;

/** What a process is called in the heartbeats: its shards and their count (`0-1/4`; `0/1` unsharded). */
export function processName(shards: string, shardCount: number): string {
  return `${shards}/${shardCount}`;
}

/** The shard numbers of `0-1,3` (what `formatShards` writes). */
function shardNumbers(text: string): number[] {
  const numbers: number[] = [];
  for (const part of text.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    if (from === undefined || to === undefined || !Number.isInteger(from) || !Number.isInteger(to)) continue;
    for (let n = from; n <= to && numbers.length < 1024; n++) numbers.push(n);
  }
  return numbers;
}

function running(beat: Heartbeat, now: Date): boolean {
  return beat.stoppedAt === null && now.getTime() - Date.parse(beat.beatAt) <= STALE_AFTER_MS;
}

/**
 * The heartbeats a starting process `me` replaces: those of processes no longer running (stopped,
 * or silent past `STALE_AFTER_MS`) that ran some of its shards or another shard count. They are
 * an earlier configuration's, which health would otherwise report for ever. A running process of
 * another configuration is kept: health says so until it stops.
 */
export function retiredHeartbeats(beats: readonly Heartbeat[], me: Heartbeat, now: Date): string[] {
  const mine = new Set(shardNumbers(me.shards));
  return beats
    .filter(
      (beat) =>
        beat.process !== me.process &&
        !running(beat, now) &&
        (beat.shardCount !== me.shardCount || shardNumbers(beat.shards).some((n) => mine.has(n))),
    )
    .map((beat) => beat.process);
}

/** `95 s`, `4 min`, `3 h`, `2 days`: how long ago, as an operator reads it. */
export function ago(fromMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

export interface HealthVerdict {
  healthy: boolean;
  /** One line saying why. */
  line: string;
}

/** A failing streak: failed since the last success (or since the start), for longer than `graceMs`. */
function failingFor(okAt: string | null, failedAt: string | null, since: string, now: number): number | null {
  if (failedAt === null) return null;
  if (okAt !== null && Date.parse(okAt) >= Date.parse(failedAt)) return null;
  return now - Date.parse(okAt ?? since);
}

/** What is wrong with one process's heartbeat, or null. */
function problemOf(beat: Heartbeat, nowMs: number): string | null {
  if (beat.stoppedAt !== null) return `stopped ${ago(Date.parse(beat.stoppedAt), nowMs)} ago`;
  const silent = nowMs - Date.parse(beat.beatAt);
  if (silent > STALE_AFTER_MS)
    return `no heartbeat for ${ago(Date.parse(beat.beatAt), nowMs)}: the process is gone or stuck`;
  if (beat.gateway !== 'ready' && nowMs - Date.parse(beat.gatewaySince) > GATEWAY_GRACE_MS)
    return `the Discord gateway has been ${beat.gateway} for ${ago(Date.parse(beat.gatewaySince), nowMs)}`;
  const feedsSince = beat.feedsRanAt ?? beat.startedAt;
  if (nowMs - Date.parse(feedsSince) > FEEDS_GRACE_MS)
    return beat.feedsRanAt === null
      ? `the automatic posts have not run since the start ${ago(Date.parse(beat.startedAt), nowMs)} ago`
      : `the automatic posts last ran ${ago(Date.parse(beat.feedsRanAt), nowMs)} ago`;
  const discord = failingFor(beat.discordOkAt, beat.discordFailedAt, beat.startedAt, nowMs);
  if (discord !== null && discord > DISCORD_GRACE_MS)
    return `Discord has failed every request for ${ago(nowMs - discord, nowMs)}`;
  const eventor = failingFor(beat.eventorOkAt, beat.eventorFailedAt, beat.startedAt, nowMs);
  if (eventor !== null && eventor > EVENTOR_GRACE_MS)
    return `Eventor has failed every request for ${ago(nowMs - eventor, nowMs)}`;
  return null;
}

/** `process shards 1 of 3 (pid 42 on host-a)`; unsharded, `the bot (pid 42 on host-a)`. */
function describeProcess(beat: Heartbeat): string {
  const which = beat.shardCount === 1 ? 'the bot' : `process shards ${beat.shards} of ${beat.shardCount}`;
  return `${which} (pid ${beat.pid} on ${beat.host})`;
}

/**
 * The verdict on `beats` at `now`. `own`: the one process to judge (a process checking itself,
 * as in a container with SHARDS set); otherwise every process, and every shard of their count
 * must be run by one of them.
 */
export function judgeHealth(beats: readonly Heartbeat[], now: Date, own?: string): HealthVerdict {
  const nowMs = now.getTime();
  const judged = own === undefined ? beats : beats.filter((beat) => beat.process === own);
  if (judged.length === 0)
    return {
      healthy: false,
      line:
        own === undefined
          ? 'no bot process has recorded a heartbeat: the bot is not running, or has not finished starting'
          : `process ${own.replace('/', ' of ')} has recorded no heartbeat: it is not running, or has not finished starting`,
    };
  const problems: string[] = [];
  for (const beat of judged) {
    const problem = problemOf(beat, nowMs);
    if (problem !== null) problems.push(`${describeProcess(beat)}: ${problem}`);
  }
  if (own === undefined) {
    // Each shard count seen: its shards all run by a process that is running.
    for (const count of new Set(judged.map((beat) => beat.shardCount))) {
      const covered = new Set(
        judged
          .filter((beat) => beat.shardCount === count && running(beat, now))
          .flatMap((beat) => shardNumbers(beat.shards)),
      );
      const missing = Array.from({ length: count }, (_, n) => n).filter((n) => !covered.has(n));
      const reported = judged.some((beat) => beat.shardCount === count && !running(beat, now));
      if (missing.length > 0 && !reported)
        problems.push(`no process runs shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count}`);
    }
  }
  if (problems.length > 0) return { healthy: false, line: `unhealthy: ${problems.join('; ')}` };
  return { healthy: true, line: `healthy: ${summary(judged, nowMs)}` };
}

/** The healthy line: how many processes, and the latest of each thing watched. */
function summary(beats: readonly Heartbeat[], nowMs: number): string {
  const latest = (pick: (beat: Heartbeat) => string | null): number | null => {
    const times = beats.map(pick).filter((t): t is string => t !== null);
    return times.length === 0 ? null : Math.max(...times.map((t) => Date.parse(t)));
  };
  const oldestBeat = Math.min(...beats.map((beat) => Date.parse(beat.beatAt)));
  const parts = [
    beats.length === 1
      ? `${beats[0]!.shardCount === 1 ? 'the bot' : `process shards ${beats[0]!.shards} of ${beats[0]!.shardCount}`}`
      : `${beats.length} processes`,
    `heartbeat ${ago(oldestBeat, nowMs)} ago`,
    beats.every((beat) => beat.gateway === 'ready') ? 'gateway ready' : 'gateway reconnecting',
  ];
  const feeds = latest((beat) => beat.feedsRanAt);
  parts.push(feeds === null ? 'automatic posts not run yet' : `automatic posts ran ${ago(feeds, nowMs)} ago`);
  const discord = latest((beat) => beat.discordOkAt);
  if (discord !== null) parts.push(`Discord answered ${ago(discord, nowMs)} ago`);
  const eventor = latest((beat) => beat.eventorOkAt);
  parts.push(eventor === null ? 'no Eventor request yet' : `Eventor answered ${ago(eventor, nowMs)} ago`);
  return parts.join(', ');
}
