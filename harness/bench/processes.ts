/**
 * Eventor requests per hour when the bot runs as several processes on one database: many servers
 * of the sandbox's clubs (each its own key, as `/setup eventor` stores it), every feed kind on,
 * followed through the busiest hours of a race day on a simulated clock, once by one scheduler and
 * once by three, each with its own store connection and Eventor access and the shards split as
 * `start --processes 3` splits them. The feed leases (src/feeds/leases.ts) keep each club in one
 * process, so three processes should ask about what one does: a club's answers are not shared
 * across processes, and a club asked for by two would be asked twice.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  millisecondsInDay as DAY,
  millisecondsInHour as HOUR,
  millisecondsInMinute as MINUTE,
} from 'date-fns/constants';
import { EventorAccess } from '../../src/club/eventor-access.js';
import { splitShards } from '../../src/config/sharding.js';
import { EventorClient } from '../../src/eventor/client.js';
import { FeedScheduler } from '../../src/feeds/scheduler.js';
import { KIND_NAMES } from '../../src/feeds/registry.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { createLogger } from '../../src/log/logger.js';
import { startLoopbackWorld } from '../loopback/world.js';
import { SANDBOX_TIME_ZONE } from '../sandbox/eventor/dataset.js';
import type { Store } from '../../src/store/interfaces.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { dayWindow, localToday } from '../../src/time/days.js';
import type { BenchFigure, TargetedFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';

const execFileAsync = promisify(execFile);
/** One process's tick over every server, built beside this file. */
const childScript = fileURLToPath(new URL('./scheduler-child.js', import.meta.url));

/** The sandbox's reference "now" (its events are placed around it), as in `requests.ts`. */
const BASE = new Date('2026-10-01T10:00:00Z');
/** Discord's epoch: server ids are made from consecutive times, so they spread over the shards. */
const DISCORD_EPOCH = 1_420_070_400_000n;
/** Three processes may ask this much more than one (the leases' hand-overs, per-process hourly caches). */
export const PROCESSES_TARGET_RATIO = 1.2;
/** One process's memory for its servers' feeds: well within a small machine's share. */
export const RSS_TARGET_MB = 512;

export interface ProcessesRun {
  servers: number;
  clubs: number;
  processes: number;
  requests: number;
  hours: number;
  perHour: number;
  /** With `rss`: the resident memory of one process running a tick over every server (`scheduler-child.ts`). */
  rssBytes: number | null;
  /** And the servers that tick ran. */
  rssServers: number | null;
}

export interface ProcessesOptions {
  servers: number;
  /** The sandbox's 13 named clubs, and numbered ones beyond. */
  clubs: number;
  processes: number;
  /** Local hour of the race day the simulation starts at, and how many hours it runs. */
  fromHour: number;
  hours: number;
  stepMs?: number;
  /** Afterwards, measure one process's memory over all the servers in a child process. */
  rss?: boolean;
}

export async function measureProcesses(options: ProcessesOptions): Promise<ProcessesRun> {
  const stepMs = options.stepMs ?? 5 * MINUTE;
  let clock = BASE;
  const now = () => clock;
  const world = await startLoopbackWorld({ now, eventorFollowsClock: true, eventorClubs: options.clubs });
  const stores: Store[] = [];
  const schedulers: FeedScheduler[] = [];
  try {
    const dataset = world.eventor.dataset;
    if (options.clubs > dataset.clubs.length) throw new Error(`clubs must be at most ${dataset.clubs.length}`);
    // The first weekend race a week or more after the base (as `requests.ts` picks it).
    const race = dataset.events
      .filter(
        (ev) => ev.syntheticRunners === 0 && ev.event.start && Date.parse(ev.event.start) > BASE.getTime() + 7 * DAY,
      )
      .map((ev) => localToday(new Date(ev.event.start!), SANDBOX_TIME_ZONE))
      .sort()[0];
    if (!race) throw new Error('the sandbox has no race to simulate');
    const from = new Date(new Date(dayWindow(race, race, SANDBOX_TIME_ZONE).from).getTime() + options.fromHour * HOUR);
    const to = new Date(from.getTime() + options.hours * HOUR);

    const store = world.bot.store;
    const settings = new KindSettings(store, now);
    const firstId = (BigInt(BASE.getTime()) - DISCORD_EPOCH) << 22n;
    for (let i = 0; i < options.servers; i++) {
      const club = dataset.clubs[i % options.clubs]!;
      const guildId = world.discord.createGuild({
        id: String(firstId + (BigInt(i) << 22n)),
        name: `${club.name} ${i}`,
      }).id;
      await store.servers.connectEventor(guildId, {
        instance: 'custom',
        baseUrl: world.eventor.baseUrl,
        apiKey: club.apiKey,
        organisation: { id: club.id, name: club.name },
      });
      // The races in the server's Events need these, as the invite asks for them.
      world.discord.setBotCanCreateEvents(guildId, true);
      world.discord.setBotCanManageEvents(guildId, true);
      for (const kind of KIND_NAMES) {
        await store.servers.setChannel(guildId, kind, world.discord.createTextChannel(guildId, { name: kind }).id);
        await settings.update(guildId, kind, { enabled: true });
      }
    }

    const log = createLogger({ level: 'error', write: () => undefined, now });
    const split = splitShards(options.processes, options.processes);
    for (const shards of split) {
      const own = await openSqliteStore(world.databasePath, world.config.secretKey, now);
      stores.push(own);
      const eventor = new EventorAccess({
        store: own,
        defaultEventor: null,
        defaultGuilds: new Set(),
        log,
        createClient: (instance, apiKey, shared) =>
          new EventorClient({ instance, apiKey, shared, now: () => clock.getTime(), retries: 0 }),
      });
      schedulers.push(
        new FeedScheduler({
          client: world.bot.client,
          store: own,
          eventor,
          log,
          defaultLanguage: 'sv',
          defaultTimeZone: SANDBOX_TIME_ZONE,
          now,
          sharding: options.processes === 1 ? null : { shardCount: options.processes, shards },
        }),
      );
    }
    // Processes started together: they tick for a lease's time before the measured window, as a
    // running bot has, so the window sees the steady state (each club with its home process).
    clock = new Date(from.getTime() - 10 * MINUTE);
    for (; clock < from; clock = new Date(clock.getTime() + MINUTE))
      await Promise.all(schedulers.map((s) => s.tick(clock)));
    world.eventor.requests.clear();
    for (clock = from; clock < to; clock = new Date(clock.getTime() + stepMs))
      await Promise.all(schedulers.map((s) => s.tick(clock)));
    const requests = world.eventor.requests.count();
    let child: { rssBytes: number; servers: number } | null = null;
    if (options.rss) {
      // The schedulers give their leases back on stop, so the child (unsharded) runs every club.
      for (const s of schedulers.splice(0)) await s.stop();
      const { stdout } = await execFileAsync(
        process.execPath,
        [childScript, world.databasePath, world.config.secretKey, clock.toISOString()],
        { maxBuffer: 1 << 20, timeout: 300_000 },
      );
      child = JSON.parse(stdout) as { rssBytes: number; servers: number };
    }
    return {
      rssBytes: child?.rssBytes ?? null,
      rssServers: child?.servers ?? null,
      servers: options.servers,
      clubs: options.clubs,
      processes: options.processes,
      requests,
      hours: options.hours,
      perHour: requests / options.hours,
    };
  } finally {
    for (const s of schedulers) await s.stop();
    for (const s of stores) await s.close();
    await world.close();
  }
}

/** The `processes` section: 1000 servers of 100 clubs (`--quick`: 60 of 20) on 1 and on 3 processes. */
async function runProcessesSection({ quick, write }: BenchContext): Promise<BenchFigure[]> {
  const scale = quick
    ? { servers: 60, clubs: 20, fromHour: 10, hours: 1 }
    : { servers: 1000, clubs: 100, fromHour: 9, hours: 3 };
  const one = await measureProcesses({ ...scale, processes: 1, rss: true });
  const three = await measureProcesses({ ...scale, processes: 3 });
  const what = `${scale.servers} servers of ${scale.clubs} clubs (each its own key), race day ${scale.fromHour}:00 to ${scale.fromHour + scale.hours}:00`;
  write(`# ${what}: 1 process ${one.requests} Eventor requests, 3 processes ${three.requests}`);
  const figures: TargetedFigure[] = [
    {
      name: `eventor-requests-per-hour-${scale.servers}-servers-3-processes`,
      value: three.perHour,
      unit: 'req/h',
      op: '<=',
      target: PROCESSES_TARGET_RATIO * one.perHour,
      title: `${scale.servers} servers on 3 processes, held to 1.2x one process`,
      about: `Eventor requests an hour of ${what}, run by three feed schedulers on one database (the shards split as start --processes 3 splits them), held to 1.2 times one scheduler over the same hours.`,
    },
  ];
  if (one.rssBytes !== null)
    write(
      `# one process's tick over ${one.rssServers} of the ${scale.servers} servers: RSS ${(one.rssBytes / 2 ** 20).toFixed(0)} MB`,
    );
  if (one.rssBytes !== null)
    figures.push({
      name: `rss-per-process-${scale.servers}-servers`,
      value: one.rssBytes / 2 ** 20,
      unit: 'MB',
      op: '<=',
      target: RSS_TARGET_MB,
      title: `Resident memory of one process running ${scale.servers} servers' feeds`,
      about: `The resident memory of a process (scheduler-child.ts) that opens the database of ${what} and runs one scheduler tick over every server against the sandbox Eventor, its Discord client not logged in.`,
    });
  return [
    {
      name: `eventor-requests-per-hour-${scale.servers}-servers-1-process`,
      value: one.perHour,
      unit: 'req/h',
      title: `${scale.servers} servers on 1 process`,
      about: `Eventor requests an hour of ${what}, run by one feed scheduler: what the 3-process figure is held to.`,
    },
    ...figures,
  ];
}

export const processesSection: BenchSection = {
  name: 'processes',
  long: 'three scheduler processes over a race day of 1000 servers, each process started anew',
  run: runProcessesSection,
};
