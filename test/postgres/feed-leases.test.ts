/**
 * Two bot processes share the automatic posts by club (src/feeds/leases.ts,
 * docs/decisions/feed-leases.md): two real feed schedulers, each with its own store connection and
 * its own Eventor access, on one database (SQLite file or PostgreSQL), serving four servers of two
 * clubs of the sandbox Eventor, posting through the real discord.js client to the sandbox Discord.
 * Each club's Eventor requests come from one process per tick (counted per process and at the
 * sandbox), every post is made once, a process that is gone loses its clubs once their leases
 * expire, and gets them back when it returns.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventorAccess } from '../../src/club/eventor-access.js';
import { EventorClient } from '../../src/eventor/client.js';
import { RESULTS_LOOKBACK_DAYS } from '../../src/feeds/kinds/results/results.js';
import { FEED_LEASE_TTL_MS } from '../../src/feeds/leases.js';
import { FeedScheduler, type TickSummary } from '../../src/feeds/scheduler.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { createLogger } from '../../src/log/logger.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import type { SandboxClub, SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import type { Store } from '../../src/store/interfaces.js';
import { describeEachDialect } from '../support/stores.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Milliseconds since Discord's epoch, rounded: `(id >> 22) % 2` is then the offset added. */
const BASE = ((BigInt(Date.parse('2026-10-01T00:00:00Z')) - 1_420_070_400_000n) / 1000n) * 1000n;
/** The k-th server id on `shard` of two: ids grow with 2k + shard. */
const guildOn = (shard: number, k: number): string => String(((BASE + BigInt(2 * k + shard)) << 22n) | (1n << 17n));

interface Process {
  scheduler: FeedScheduler;
  store: Store;
  /** Eventor HTTP requests this process made, by the club whose key asked. */
  requests: Map<string, number>;
}

describeEachDialect('two processes share the feeds by club, with leases', (stores) => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-24T08:00:00Z');
  const now = () => clock;
  /** Club 0's servers on shards 0 and 1 (its lowest on 0); club 1's on shards 1 and 0 (its lowest on 1). */
  const servers = [
    { id: guildOn(0, 0), club: 0 },
    { id: guildOn(1, 1), club: 0 },
    { id: guildOn(1, 2), club: 1 },
    { id: guildOn(0, 3), club: 1 },
  ];
  const channels = new Map<string, string>();
  const events: SandboxEvent[] = [];
  /** The two clubs: the first of the sandbox's with results of a recent race. */
  const clubs: SandboxClub[] = [];

  beforeAll(async () => {
    world = await startLoopbackWorld({ now, eventorFollowsClock: true });
    const dataset = world.eventor.dataset;
    // A finished race with results of each club, hidden until the test shows them.
    const finished = (club: string) => (ev: SandboxEvent) =>
      dataset
        .details(ev)
        .resultList?.classes.some((c) =>
          c.persons.some((p) => p.organisation?.id === club && p.results[0]?.status === 'OK'),
        ) ?? false;
    for (const club of dataset.clubs) {
      const found = dataset.events.find((ev) => {
        if (ev.shape !== 'single' || !ev.hasResults || ev.syntheticRunners > 0 || !ev.event.start) return false;
        const age = clock.getTime() - Date.parse(ev.event.start);
        return age > 0 && age < RESULTS_LOOKBACK_DAYS * DAY && finished(club.id)(ev);
      });
      if (!found) continue;
      clubs.push(club);
      if (!events.includes(found)) events.push(found);
      if (clubs.length === 2) break;
    }
    if (clubs.length < 2) throw new Error('the sandbox has no two clubs with results of a recent race');
    for (const ev of events) {
      ev.hasResults = false;
      ev.materialized = null;
    }
    for (const server of servers) {
      world.discord.createGuild({ id: server.id, name: `Club ${server.club} ${server.id}` });
      channels.set(server.id, world.discord.createTextChannel(server.id, { name: 'resultat' }).id);
    }
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('one process per club and tick, posts once, a dead process’s clubs taken over after the lease, given back on return', async () => {
    const factory = stores();
    const first = await factory.fresh({ now });
    const clubOfKey = new Map(clubs.map((c, i) => [c.apiKey, `club ${i}`]));
    const settings = new KindSettings(first, now);
    for (const server of servers) {
      const club = clubs[server.club]!;
      await first.servers.connectEventor(server.id, {
        instance: 'custom',
        baseUrl: world.eventor.baseUrl,
        apiKey: club.apiKey,
        organisation: { id: club.id, name: club.name },
      });
      await first.servers.setChannel(server.id, 'results', channels.get(server.id)!);
      await settings.update(server.id, 'results', { enabled: true });
    }

    const processes: Process[] = [];
    for (const shard of [0, 1]) {
      const store = shard === 0 ? first : await factory.again(first, { now });
      const log = createLogger({ level: 'warn', write: () => undefined, now });
      const requests = new Map<string, number>();
      const eventor = new EventorAccess({
        store,
        defaultEventor: null,
        defaultGuilds: new Set(),
        log,
        createClient: (instance, apiKey, shared) =>
          new EventorClient({
            instance,
            apiKey,
            shared,
            now: () => clock.getTime(),
            retries: 0,
            onRequest: (request) => {
              // Real HTTP attempts only (not answers from the cache).
              if (request.attempt < 1) return;
              const club = clubOfKey.get(apiKey) ?? 'other';
              requests.set(club, (requests.get(club) ?? 0) + 1);
            },
          }),
      });
      const scheduler = new FeedScheduler({
        client: world.bot.client,
        store,
        eventor,
        log,
        defaultLanguage: 'sv',
        defaultTimeZone: 'Europe/Stockholm',
        now,
        sharding: { shardCount: 2, shards: [shard] },
      });
      processes.push({ scheduler, store, requests });
    }
    const [a, b] = processes as [Process, Process];

    /** One tick (forced: every feed runs) of the processes given, a minute on: who ran how many servers, and whose Eventor requests. */
    const round = async (who: Process[], advanceMs = MINUTE, force = true) => {
      clock = new Date(clock.getTime() + advanceMs);
      for (const p of processes) p.requests.clear();
      const sandboxBefore = world.eventor.requests.count();
      const ran: number[] = [];
      for (const p of who) ran.push(((await p.scheduler.tick(clock, { force })) as TickSummary).servers);
      const byProcess = processes.map((p) => Object.fromEntries([...p.requests].sort()));
      // Every request the processes counted reached the sandbox Eventor, and nothing else did.
      const counted = processes.reduce((sum, p) => sum + [...p.requests.values()].reduce((s, n) => s + n, 0), 0);
      expect(world.eventor.requests.count() - sandboxBefore).toBe(counted);
      return { ran, byProcess };
    };
    /** The clubs process `i` asked Eventor about in a round besides its home club (`club i`). */
    const foreign = (tick: { byProcess: Array<Record<string, number>> }, i: number) =>
      Object.keys(tick.byProcess[i]!).filter((club) => club !== `club ${i}`);
    const postsIn = (server: { id: string }) => world.discord.messages(channels.get(server.id)!).length;
    const titles = (server: { id: string }) =>
      world.discord.messages(channels.get(server.id)!).map((m) => m.embeds[0]?.title ?? m.content);

    try {
      // Both alive: each club in the process of its lowest server's shard, its requests from there only.
      let tick = await round([a, b]);
      expect(tick.ran).toEqual([2, 2]);
      expect(Object.keys(tick.byProcess[0]!)).toEqual(['club 0']);
      expect(Object.keys(tick.byProcess[1]!)).toEqual(['club 1']);

      // The results appear: one post in each server's channel.
      for (const ev of events) {
        ev.hasResults = true;
        ev.materialized = null;
      }
      // An hour of ticks as the clock brings them (every 2 minutes here, within the leases' time):
      // no tick asks Eventor for one club from both processes, and on the hour the runs look at
      // the whole window again (races of past days are asked once an hour) and post.
      for (let i = 0; i < 30; i++) {
        tick = await round([a, b], 2 * MINUTE, false);
        expect(foreign(tick, 0)).toEqual([]);
        expect(foreign(tick, 1)).toEqual([]);
      }
      const posted = servers.map(postsIn);
      expect(posted.every((n) => n > 0)).toBe(true);
      expect(servers.map(titles)).toEqual(servers.map((s) => [...new Set(titles(s))]));

      // Process b is gone (killed: its leases stay until they expire). Until then club 1 waits.
      tick = await round([a]);
      expect(tick.ran).toEqual([2]);
      expect(foreign(tick, 0)).toEqual([]);
      // Once b's leases have expired, a takes club 1 over and asks Eventor for it itself.
      tick = await round([a], FEED_LEASE_TTL_MS);
      expect(tick.ran).toEqual([4]);
      expect(Object.keys(tick.byProcess[0]!)).toContain('club 1');
      expect(servers.map(postsIn)).toEqual(posted);

      // b returns: a gives club 1 back (unrun), b takes it on its next tick; never both in one tick.
      tick = await round([b, a]);
      expect(tick.ran).toEqual([0, 2]);
      expect(tick.byProcess[1]).toEqual({});
      expect(foreign(tick, 0)).toEqual([]);
      tick = await round([b, a]);
      expect(tick.ran).toEqual([2, 2]);
      expect(foreign(tick, 0)).toEqual([]);
      expect(foreign(tick, 1)).toEqual([]);

      // A clean stop gives every lease back: b takes club 0 at once, without waiting for the expiry.
      await a.scheduler.stop();
      tick = await round([b]);
      expect(tick.ran).toEqual([4]);
      expect(Object.keys(tick.byProcess[1]!)).toContain('club 0');
      expect(servers.map(postsIn)).toEqual(posted);
    } finally {
      for (const p of processes) await p.scheduler.stop();
    }
  });
});
