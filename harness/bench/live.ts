/**
 * Race day, live (docs/live-results.md#race-day-in-discord): what one live competition costs
 * LiveResultat and Discord when one server follows it, and when many servers of three clubs do.
 * The real bot's live pollers on the sandbox LiveResultat, Eventor and Discord, on a simulated
 * clock turned every 5 seconds from before the first start through the race's first hour; each
 * server has the kind on in a channel of its own and follows the competition (as `/live link`
 * sets it), for its club. One poller serves every server (docs/decisions/live-pollers.md), so the
 * requests for many servers of three clubs should be those for three servers, one of each club
 * (whose runners sit in more classes than one club's), never more than one per path per 10 seconds,
 * and each board edited at most four times a minute.
 */
import { performance } from 'node:perf_hooks';
import { millisecondsInMinute as MINUTE } from 'date-fns/constants';
import { startLoopbackWorld } from '../loopback/world.js';
import { liveRaceOf } from '../loopback/live-race.js';
import type { BenchFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';

/** The sandbox's reference "now", as in `requests.ts`: its races are placed around it. */
const BASE = new Date('2026-10-01T10:00:00Z');
const TURN_MS = 5_000;
/** Many servers may ask LiveResultat this much more than one (nothing, with one poller per competition). */
export const LIVE_SERVERS_TARGET_RATIO = 1;
/** The services' rule: no path more often than every 10 s. */
export const LIVE_PATH_INTERVAL_TARGET_S = 10;
/** Four edits a minute per board, well within Discord's limits per channel. */
export const LIVE_EDITS_TARGET_PER_MINUTE = 4;

export interface LiveRun {
  servers: number;
  clubs: number;
  minutes: number;
  requests: number;
  perHour: number;
  /** The shortest time between two requests of one path (query included), seconds. */
  minPathIntervalS: number;
  /** The share of requests answered 304 Not Modified. */
  notModified: number;
  /** The most edits one board had in one minute of the clock, over every board. */
  maxEditsPerBoardMinute: number;
  /** Edits per board per minute, on average over the boards and the minutes measured. */
  editsPerBoardMinute: number;
  /** Wall-clock ms until a member's `/live show` was acknowledged: sent while a turn edits the boards, and between turns. */
  acks: { during: number[]; idle: number[] };
}

/** The p-th percentile (0 to 100) of `values`, 0 for none. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measureLive(options: { servers: number; minutes: number }): Promise<LiveRun> {
  let clock = BASE.getTime();
  const now = () => new Date(clock);
  const world = await startLoopbackWorld({ now, live: {}, eventorFollowsClock: true });
  try {
    const { competition, clubs, firstStart } = liveRaceOf(world, BASE);
    const live = world.live!;
    const ev = world.eventor.dataset.event(competition.eventId!)!;
    const raceId = ev.event.races[competition.raceIndex]!.id;
    clock = firstStart - 10 * MINUTE;
    const boards: string[] = [];
    for (let i = 0; i < options.servers; i++) {
      const guildId = i === 0 ? world.guild.id : world.discord.createGuild({ name: `Klubb ${i}` }).id;
      const channel = world.discord.createTextChannel(guildId, { name: 'live' });
      boards.push(channel.id);
      await world.bot.store.servers.setChannel(guildId, 'live', channel.id);
      await world.bot.store.feedSettings.update(guildId, 'live', () => ({
        enabled: true,
        pausedReason: null,
        pausedAt: null,
        roleId: null,
        options: '{}',
      }));
      const record = {
        eventName: ev.name,
        raceName: null,
        raceNumber: 1,
        raceCount: 1,
        start: null,
        organisers: [],
        countryCode: null,
        clubNames: [clubs[i % clubs.length]!],
        entries: [],
      };
      await world.bot.store.live.choose(
        { guildId, eventId: ev.id, raceId, raceDay: competition.date, race: JSON.stringify(record) },
        competition.id,
      );
    }
    const before = live.requests.length;
    const startedAt = clock;
    const times = new Map<string, number[]>();
    const end = startedAt + options.minutes * MINUTE;
    const acks = { during: [] as number[], idle: [] as number[] };
    // A member's `/live show` (no Eventor): its first answer timed on the wall clock.
    const ask = async (): Promise<number> => {
      const started = performance.now();
      await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user: world.member,
          locale: 'en-GB',
          name: 'live',
          subcommand: 'show',
          options: {},
        })
        .acknowledgement({ timeoutMs: 15_000 });
      return performance.now() - started;
    };
    let turn = 0;
    while (clock < end) {
      clock += TURN_MS;
      turn++;
      const from = live.requests.length;
      // Once a clock minute while a turn edits the boards, and once between turns.
      if (turn % 12 === 0) {
        const [ms] = await Promise.all([ask(), world.bot.live!.turn(now())]);
        acks.during.push(ms);
      } else {
        await world.bot.live!.turn(now());
        if (turn % 12 === 6) acks.idle.push(await ask());
      }
      for (const request of live.requests.slice(from)) {
        const path = `${request.api} ${request.key} ${JSON.stringify(request.query)}`;
        const list = times.get(path) ?? [];
        list.push(clock);
        times.set(path, list);
      }
    }
    const requests = live.requests.slice(before);
    let minInterval = Number.POSITIVE_INFINITY;
    for (const list of times.values())
      for (let i = 1; i < list.length; i++) minInterval = Math.min(minInterval, list[i]! - list[i - 1]!);
    let maxPerMinute = 0;
    let edits = 0;
    for (const channelId of boards) {
      const message = world.discord.messages(channelId).find((m) => m.embeds.length > 0);
      if (message === undefined) continue;
      const at = message.edits.map((e) => e.at);
      edits += at.length;
      for (const t of at) maxPerMinute = Math.max(maxPerMinute, at.filter((u) => u >= t && u < t + MINUTE).length);
    }
    return {
      servers: options.servers,
      clubs: clubs.length,
      minutes: options.minutes,
      requests: requests.length,
      perHour: (requests.length * 60) / options.minutes,
      minPathIntervalS: Number.isFinite(minInterval) ? minInterval / 1000 : options.minutes * 60,
      notModified: requests.length === 0 ? 0 : requests.filter((r) => r.status === 304).length / requests.length,
      maxEditsPerBoardMinute: maxPerMinute,
      editsPerBoardMinute: edits / boards.length / options.minutes,
      acks,
    };
  } finally {
    await world.close();
  }
}

export const liveSection: BenchSection = {
  name: 'live',
  long: 'a race hour on the clock, a hundred boards edited through the sandbox Discord',
  async run({ quick, write }: BenchContext): Promise<BenchFigure[]> {
    const servers = quick ? 10 : 100;
    const minutes = quick ? 30 : 70;
    write(
      `# live: one competition, 1 server, 3 servers (one per club), then ${servers} servers of the 3 clubs, ${minutes} minutes from 10 before the first start`,
    );
    const one = await measureLive({ servers: 1, minutes });
    const three = await measureLive({ servers: 3, minutes });
    const many = await measureLive({ servers, minutes });
    for (const run of [one, three, many])
      write(
        `# live: ${run.servers} servers: /live show acknowledged in ${percentile(run.acks.idle, 95).toFixed(0)} ms (p95) between turns, ${percentile(run.acks.during, 95).toFixed(0)} ms while a turn edits the boards; ${run.requests} requests (${run.perHour.toFixed(0)} an hour), ${(run.notModified * 100).toFixed(0)} % answered 304, shortest gap per path ${run.minPathIntervalS} s, ${run.editsPerBoardMinute.toFixed(2)} edits per board per minute (most in a minute ${run.maxEditsPerBoardMinute})`,
      );
    return [
      {
        name: 'live-requests-per-race-hour',
        value: one.perHour,
        unit: 'requests',
        title: 'LiveResultat requests per race hour, one server',
        about:
          'Requests to the sandbox LiveResultat for one competition followed by one server, per hour, from 10 minutes before the first start (conditional requests; the export first on the REST API).',
      },
      {
        name: 'live-requests-servers-ratio',
        value: three.requests === 0 ? 0 : many.requests / three.requests,
        unit: 'x',
        op: '<=',
        target: LIVE_SERVERS_TARGET_RATIO,
        title: `LiveResultat requests, ${servers} servers of 3 clubs against 3 servers`,
        about:
          'The same competition followed by many servers of three clubs, each with its own board, against three servers, one of each club: one poller per competition asks for all of them, so the servers add no requests.',
      },
      {
        name: 'live-min-seconds-per-path',
        value: Math.min(one.minPathIntervalS, three.minPathIntervalS, many.minPathIntervalS),
        unit: 's',
        op: '>=',
        target: LIVE_PATH_INTERVAL_TARGET_S,
        title: 'Shortest time between two requests of one path',
        about: "LiveResultat's operators ask for no more than one request per path every 10 seconds.",
      },
      {
        name: 'live-share-304',
        value: many.notModified,
        unit: 'share',
        title: 'Share of LiveResultat requests answered 304',
        about: 'Unchanged answers cost a 304 and no body (ETag and If-None-Match on every request).',
      },
      {
        name: 'live-ack-p95-during-boards-ms',
        value: percentile(many.acks.during, 95),
        unit: 'ms',
        title: `A member's acknowledgement while ${servers} boards are edited (p95)`,
        about: `/live show from a member, sent once a clock minute while a turn of the pollers edits the ${servers} servers' boards, its first answer timed on the wall clock (compare live-ack-p95-between-turns-ms).`,
      },
      {
        name: 'live-ack-p95-between-turns-ms',
        value: percentile(many.acks.idle, 95),
        unit: 'ms',
        title: "A member's acknowledgement between the pollers' turns (p95)",
        about: 'The same command sent between two turns, nothing else running in the bot.',
      },
      {
        name: 'live-edits-per-board-minute',
        value: Math.max(one.maxEditsPerBoardMinute, three.maxEditsPerBoardMinute, many.maxEditsPerBoardMinute),
        unit: 'edits',
        op: '<=',
        target: LIVE_EDITS_TARGET_PER_MINUTE,
        title: 'Most Discord edits of one board in one minute',
        about: 'Edits are coalesced: a board changes at most once per 15 seconds, whatever the runners do.',
      },
    ];
  },
};
