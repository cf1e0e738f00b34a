/**
 * Race day, live (docs/live-results.md#race-day-in-discord): what one live competition costs
 * LiveResultat and Discord when one server follows it, and when many servers of three clubs do.
 * The real bot's live pollers on the sandbox LiveResultat, Eventor and Discord, on a simulated
 * clock turned every 5 seconds from before the first start through the race's first hour; each
 * server has the kind on in a channel of its own and follows the competition (as `/live link`
 * sets it), for its club. One poller serves every server (docs/decisions/live-pollers.md), so the
 * requests for many servers of three clubs should be those for three servers, one of each club
 * (whose runners sit in more classes than one club's), never more than one per path per 10 seconds,
 * and each board edited at most four times a minute. The bot runs in a worker thread of its own
 * (live-bot.ts), the sandboxes on this one: a member's acknowledgement is timed as Discord would see
 * it, without the sandboxes' share of one event loop, which production never has.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { millisecondsInMinute as MINUTE } from 'date-fns/constants';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import type { LiveTurn } from '../../src/feeds/kinds/live/poller.js';
import { liveRaceOf } from '../loopback/live-race.js';
import { startSandboxDiscord } from '../sandbox/discord/index.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import { startSandboxLiveResultat } from '../sandbox/liveresultat/index.js';
import type { LiveBotData, LiveBotFollow } from './live-bot.js';
import type { BenchFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';

/** The sandbox's reference "now", as in `requests.ts`: its races are placed around it. */
const BASE = new Date('2026-10-01T10:00:00Z');
const TURN_MS = 5_000;
/** A member asks between two turns after every third turn (and with every turn). */
const IDLE_ASK_EVERY_TURNS = 3;
/** Many servers may ask LiveResultat this much more than one (nothing, with one poller per competition). */
export const LIVE_SERVERS_TARGET_RATIO = 1;
/** The services' rule: no path more often than every 10 s. */
export const LIVE_PATH_INTERVAL_TARGET_S = 10;
/**
 * A member's acknowledgement while boards are edited against one between turns, p95 of each in the
 * same run: this much worse at most, for the noise of two p95s on a shared host (the figure's `about`).
 */
export const LIVE_ACK_NOISE_RATIO = 1.25;
export const LIVE_ACK_NOISE_MS = 2;
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
  /** How many asks were sent with a turn (`acks.during` keeps those whose turn edited boards). */
  askedWithTurns: number;
}

/** The p-th percentile (0 to 100) of `values`, 0 for none. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The bot's side of a run: its own thread (live-bot.ts), asked one thing at a time. */
class LiveBot {
  readonly #worker: Worker;
  #errors: unknown[] = [];

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('error', (error) => this.#errors.push(error));
  }

  static async start(data: LiveBotData): Promise<LiveBot> {
    const bot = new LiveBot(new Worker(new URL('./live-bot.js', import.meta.url), { workerData: data }));
    await bot.#reply('ready');
    return bot;
  }

  /** The next message of the bot carrying `key`; rejects if the thread fails or ends first. */
  #reply<T>(key: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        done();
        resolve(message[key] as T);
      };
      const onEnd = (error?: unknown) => {
        done();
        reject(error instanceof Error ? error : new Error(`the bench's live bot ended before '${key}'`));
      };
      const done = () => {
        this.#worker.off('message', onMessage);
        this.#worker.off('error', onEnd);
        this.#worker.off('exit', onEnd);
      };
      this.#worker.on('message', onMessage);
      this.#worker.once('error', onEnd);
      this.#worker.once('exit', onEnd);
    });
  }

  async follow(follows: LiveBotFollow[]): Promise<void> {
    const reply = this.#reply('following');
    this.#worker.postMessage({ follow: follows });
    await reply;
  }

  /** One turn of the live pollers at the clock's time; resolves when it has ended. */
  async turn(): Promise<LiveTurn> {
    const reply = this.#reply<LiveTurn>('turned');
    this.#worker.postMessage('turn');
    return reply;
  }

  async stop(): Promise<void> {
    const reply = this.#reply('stopped').catch(() => undefined);
    this.#worker.postMessage('stop');
    await reply;
    await this.#worker.terminate();
    if (this.#errors.length > 0)
      throw this.#errors[0] instanceof Error ? this.#errors[0] : new Error(String(this.#errors[0]));
  }
}

export async function measureLive(options: { servers: number; minutes: number }): Promise<LiveRun> {
  // The sandboxes' clock, which the bot's thread reads too.
  const clock = new Float64Array(new SharedArrayBuffer(8));
  clock[0] = BASE.getTime();
  const now = () => new Date(clock[0]!);
  const eventor = await startSandboxEventor({ port: 0, seed: 1, now });
  const discord = await startSandboxDiscord({ port: 0, now: () => clock[0]! });
  const live = await startSandboxLiveResultat({ dataset: eventor.dataset, now, options: {} });
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-bench-live-'));
  let bot: LiveBot | null = null;
  try {
    const guild = discord.createGuild({ name: eventor.dataset.homeClub.name, preferredLocale: 'sv-SE' });
    const lobby = discord.createTextChannel(guild.id, { name: 'allmänt' });
    const member = discord.createMember(guild.id, { username: 'astrid', globalName: 'Astrid', locale: 'en-GB' });
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS, guildId: guild.id });
    bot = await LiveBot.start({
      config: {
        discordToken: discord.token,
        discordApiUrl: discord.restUrl,
        eventorBaseUrl: eventor.baseUrl,
        eventorApiKey: eventor.apiKey,
        defaultEventorGuilds: [guild.id],
        customEventorOrigins: [new URL(eventor.baseUrl).origin],
        databasePath: path.join(dir, 'eventor-bot.sqlite'),
        secretKey: 'bench-live-secret-key-0123456789abcdef',
        defaultLanguage: 'en',
        defaultTimeZone: 'Europe/Stockholm',
        logLevel: 'warn',
        liveEndpoints: { restUrl: live.restUrl, legacyUrl: live.legacyUrl },
      },
      clock: clock.buffer as SharedArrayBuffer,
    });
    const { competition, clubs, firstStart } = liveRaceOf({ live, eventor }, BASE);
    const ev = eventor.dataset.event(competition.eventId!)!;
    const raceId = ev.event.races[competition.raceIndex]!.id;
    clock[0] = firstStart - 10 * MINUTE;
    const boards: string[] = [];
    const follows: LiveBotFollow[] = [];
    for (let i = 0; i < options.servers; i++) {
      const guildId = i === 0 ? guild.id : discord.createGuild({ name: `Klubb ${i}` }).id;
      const channel = discord.createTextChannel(guildId, { name: 'live' });
      boards.push(channel.id);
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
      follows.push({
        guildId,
        channelId: channel.id,
        eventId: ev.id,
        raceId,
        raceDay: competition.date,
        race: JSON.stringify(record),
        competitionId: competition.id,
      });
    }
    await bot.follow(follows);
    const before = live.requests.length;
    const startedAt = clock[0]!;
    const times = new Map<string, number[]>();
    const end = startedAt + options.minutes * MINUTE;
    const acks = { during: [] as number[], idle: [] as number[] };
    // A member's `/live show` (no Eventor): from the sandbox Discord sending it to its first answer
    // arriving there, on the wall clock, as Discord would see it.
    const ask = async (): Promise<number> => {
      const started = performance.now();
      await discord
        .runCommand({
          guildId: guild.id,
          channelId: lobby.id,
          user: member,
          locale: 'en-GB',
          name: 'live',
          subcommand: 'show',
          options: {},
        })
        .acknowledgement({ timeoutMs: 15_000 });
      return performance.now() - started;
    };
    let turn = 0;
    let asked = 0;
    while (clock[0]! < end) {
      clock[0] = clock[0]! + TURN_MS;
      turn++;
      const from = live.requests.length;
      // Sent with every turn, kept when the turn edited boards (a poll that found changes); and
      // every third turn, once more after it, between two turns.
      const [ms, done] = await Promise.all([ask(), bot.turn()]);
      asked++;
      if (done.edits > 0) acks.during.push(ms);
      if (turn % IDLE_ASK_EVERY_TURNS === 0) acks.idle.push(await ask());
      for (const request of live.requests.slice(from)) {
        const key = `${request.api} ${request.key} ${JSON.stringify(request.query)}`;
        const list = times.get(key) ?? [];
        list.push(clock[0]!);
        times.set(key, list);
      }
    }
    const requests = live.requests.slice(before);
    let minInterval = Number.POSITIVE_INFINITY;
    for (const list of times.values())
      for (let i = 1; i < list.length; i++) minInterval = Math.min(minInterval, list[i]! - list[i - 1]!);
    let maxPerMinute = 0;
    let edits = 0;
    for (const channelId of boards) {
      const message = discord.messages(channelId).find((m) => m.embeds.length > 0);
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
      askedWithTurns: asked,
    };
  } finally {
    await bot?.stop();
    await live.close();
    await discord.close();
    await eventor.close();
    await rm(dir, { recursive: true, force: true });
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
        `# live: ${run.servers} servers: /live show acknowledged in ${percentile(run.acks.idle, 95).toFixed(1)} ms (p95 of ${run.acks.idle.length}) between turns, ${percentile(run.acks.during, 95).toFixed(1)} ms (p95 of the ${run.acks.during.length} of ${run.askedWithTurns} sent with a turn that edited boards) while a turn edits them; ${run.requests} requests (${run.perHour.toFixed(0)} an hour), ${(run.notModified * 100).toFixed(0)} % answered 304, shortest gap per path ${run.minPathIntervalS} s, ${run.editsPerBoardMinute.toFixed(2)} edits per board per minute (most in a minute ${run.maxEditsPerBoardMinute})`,
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
        op: '<=',
        target: percentile(many.acks.idle, 95) * LIVE_ACK_NOISE_RATIO + LIVE_ACK_NOISE_MS,
        title: `A member's acknowledgement while ${servers} boards are edited (p95)`,
        about: `/live show from a member, sent at the same moment as each turn of the pollers and kept when that turn edited boards of the ${servers} servers, timed on the wall clock from the sandbox Discord sending it to its first answer arriving there, as Discord would see it. The bot runs in a worker thread of its own (harness/bench/live-bot.ts) and the sandbox Discord, Eventor and LiveResultat on the bench's main thread: in production they are remote and their work (serving a hundred edits, the gateway's frames) never shares the bot's event loop. Target: no worse than between turns (live-ack-p95-between-turns-ms of the same run), with ${LIVE_ACK_NOISE_RATIO}x + ${LIVE_ACK_NOISE_MS} ms for noise: two p95s of a few dozen to a few hundred samples differ by about a fifth from run to run on a shared two-core host with nothing else in the bot, and a sample's worst moment is one preemption of the host, a few ms.`,
      },
      {
        name: 'live-ack-p95-between-turns-ms',
        value: percentile(many.acks.idle, 95),
        unit: 'ms',
        title: "A member's acknowledgement between the pollers' turns (p95)",
        about:
          'The same command sent after every third turn, between two turns, nothing else running in the bot; timed the same way.',
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
