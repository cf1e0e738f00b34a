/**
 * How fast members get their answers: rounds of 100 concurrent `/events` from 100 members of the
 * club's server, sent by the sandbox Discord to the real bot, timed from the moment the sandbox
 * sends INTERACTION_CREATE to (a) the acknowledgement (the first callback) and (b) the answer with
 * content (a type-4 callback, or the first edit of @original after a deferral), on the monotonic
 * clock the sandbox records them with (`elapsedMs`). Cold rounds are each the first of a freshly
 * started bot (empty caches: it asks Eventor after acknowledging; its code not yet optimised), the
 * later rounds of the last one warm. Then the bot's heap growth over many
 * interactions, and the acknowledgements of a round fired while the bot reads the 20,000-runner
 * result list.
 *
 * The bot runs in a process of its own (interactions-bot.ts), the sandboxes in this one: the
 * sandbox Discord keeps every interaction and message it saw (tests read them), so only a separate
 * process gives the bot's heap alone. It also makes the bot's socket traffic real, as in production.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import {
  CallbackType,
  type InteractionHandle,
  type SandboxDiscord,
  type SandboxUser,
  startSandboxDiscord,
} from '../sandbox/discord/index.js';
import { LARGE_EVENT_ID } from '../sandbox/eventor/dataset.js';
import { type SandboxEventor, startSandboxEventor } from '../sandbox/eventor/server.js';
import { startPostgres } from '../loopback/postgres.js';
import type { BenchFigure } from './figure.js';
import type { BenchBotConfig } from './interactions-bot.js';
import type { LargeListShape } from './large-lists.js';
import type { BenchContext, BenchSection } from './section.js';
import { median, percentile } from './stats.js';

/** Commands fired at once in a round. */
const CONCURRENT = 100;
const MIB = 1024 * 1024;
/** How long a whole round may take before the bench gives up on it (a bot that stopped answering). */
const ROUND_TIMEOUT_MS = 120_000;
/**
 * Fresh bots whose one round each is not measured, before the cold rounds. A fresh bot opens a
 * connection for each deferral of its burst (99 in a round of 100), and the sandbox Discord that
 * accepts them runs in this process: until it has taken a few such bursts, its own code for them
 * is not yet compiled, and the cold figure measured the sandbox warming up as much as the bot.
 */
const SANDBOX_WARM_UP_BOTS = 5;
/**
 * A cold round starts this long after its bot said "bot ready": the start-up's tail (the
 * compiler's and the collector's threads, 30 to 70 ms of CPU in the first second on an idle main
 * thread) is not part of answering; the bot's caches are still empty and its code not optimised.
 */
const AFTER_READY_MS = 1_000;

export interface AnswerTimes {
  /** Dispatch to the first callback, ms. */
  ackMs: number;
  /** Dispatch to the answer with content, ms. */
  answerMs: number;
  /** Whether the answer came as the first callback itself (one request instead of a deferral and an edit). */
  direct: boolean;
  /**
   * The first callback came after Discord's 3 s and was refused (10062 Unknown interaction): the
   * member got nothing. Its times are those of that late attempt.
   */
  late: boolean;
}

/** Discord's "Unknown interaction", its answer to a first response after 3 s. */
const UNKNOWN_INTERACTION = 10062;

/** The times of an interaction answered with content, or null while it is not. */
export function answerTimes(handle: InteractionHandle): AnswerTimes | null {
  const history = handle.record.history;
  const first = history.find(
    (e) =>
      e.kind === 'callback' || (e.kind === 'rejected' && e.code === UNKNOWN_INTERACTION && /\/callback$/.test(e.route)),
  );
  if (first?.kind === 'rejected')
    return { ackMs: first.elapsedMs, answerMs: first.elapsedMs, direct: false, late: true };
  if (!first || first.kind !== 'callback') return null;
  const direct = first.type === CallbackType.ChannelMessageWithSource || first.type === CallbackType.UpdateMessage;
  const answer = direct
    ? first
    : history.find((e) => e.kind === 'editOriginal' || (e.kind === 'followUp' && e.filledDeferral));
  if (!answer) return null;
  return { ackMs: first.elapsedMs, answerMs: answer.elapsedMs, direct, late: false };
}

export interface Stage {
  eventor: SandboxEventor;
  discord: SandboxDiscord;
  guildId: string;
  channelId: string;
  members: SandboxUser[];
  /** The bot process; `restartBot` replaces it with a fresh one (empty caches, the same database). */
  bot: BenchBot;
  restartBot(): Promise<void>;
}

interface BotState {
  heapUsed: number;
  codeSpaceUsed: number;
  cpuMicros: number;
  held: Record<string, number>;
}

/** The bot process: asks and answers over IPC. */
export class BenchBot {
  /** The bot's warnings and errors (JSON lines): counted by message, not printed amid the figures. */
  readonly logged = new Map<string, number>();

  constructor(readonly child: ChildProcess) {
    let pending = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.trim() !== '')) {
        let message = line;
        try {
          message = String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
        } catch {
          // Not a log line (a crash's stack): kept as it is.
        }
        this.logged.set(message, (this.logged.get(message) ?? 0) + 1);
      }
    });
  }

  static async start(config: BenchBotConfig): Promise<BenchBot> {
    const file = fileURLToPath(new URL('./interactions-bot.js', import.meta.url));
    const child = fork(file, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const bot = new BenchBot(child);
    child.send({ config });
    await bot.#next((m) => (m as { ready?: boolean }).ready === true);
    return bot;
  }

  #next(accept: (message: unknown) => boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown): void => {
        if (!accept(message)) return;
        this.child.off('exit', onExit);
        this.child.off('message', onMessage);
        resolve(message);
      };
      const onExit = (code: number | null): void => {
        this.child.off('message', onMessage);
        reject(new Error(`the bench bot exited (${code}): ${[...this.logged.keys()].join('; ')}`));
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }

  /** The bot's heap after a full collection, its CPU time so far, and the sizes of what could grow per interaction. */
  async state(): Promise<BotState> {
    const reply = this.#next((m) => typeof (m as { heapUsed?: unknown }).heapUsed === 'number');
    this.child.send('heap');
    return (await reply) as BotState;
  }

  /** Resolves with the number of race results once the bot has fetched and read the large list. */
  async readLargeList(guildId: string): Promise<number> {
    const reply = this.#next((m) => 'largeListRead' in (m as object) || 'largeListFailed' in (m as object));
    this.child.send({ readLargeList: guildId });
    const answer = (await reply) as { largeListRead?: number; largeListFailed?: string };
    if (answer.largeListRead === undefined)
      throw new Error(`the bot could not read the large list: ${answer.largeListFailed}`);
    return answer.largeListRead;
  }

  /** Resolves once the bot has built a made-up result list of that shape (large-lists.ts), with its runners. */
  async prepareList(shape: LargeListShape): Promise<number> {
    const reply = this.#next((m) => 'listPrepared' in (m as object));
    this.child.send({ prepareList: shape });
    return ((await reply) as { listPrepared: number }).listPrepared;
  }

  /**
   * Resolves once the bot has done `kind` with the prepared list `times` times in a row: `analyse`
   * as /results with splits analyses it, `thread` as the results feed makes and draws its thread's
   * pictures.
   */
  async work(kind: 'analyse' | 'thread', times = 1): Promise<{ ms: number; pictures: number }> {
    const reply = this.#next((m) => 'workDone' in (m as object) || 'workFailed' in (m as object));
    this.child.send({ work: kind, times });
    const answer = (await reply) as { workDone?: { ms: number; pictures: number }; workFailed?: string };
    if (answer.workDone === undefined) throw new Error(`the bot could not do its work: ${answer.workFailed}`);
    return answer.workDone;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.send('stop');
    const timer = setTimeout(() => this.child.kill(), 30_000);
    await exited;
    clearTimeout(timer);
  }
}

/** `/events` from each of `count` members at once; resolves with every answer's times once all are answered. */
export async function round(stage: Stage, count: number): Promise<AnswerTimes[]> {
  const handles = Array.from({ length: count }, (_, i) =>
    stage.discord.runCommand({
      guildId: stage.guildId,
      channelId: stage.channelId,
      user: stage.members[i % stage.members.length]!,
      locale: 'en-GB',
      name: 'events',
      options: {},
    }),
  );
  // The sandbox re-checks this on every change it records (several per interaction), in the same
  // process that answers the bot: checking every handle each time would be the bench's own load on
  // the figures. So it walks past the answered ones once, and reads all the times at the end.
  let answered = 0;
  const times = await stage.discord.waitFor(
    () => {
      while (answered < handles.length && answerTimes(handles[answered]!) !== null) answered++;
      return answered === handles.length ? handles.map((h) => answerTimes(h)!) : undefined;
    },
    { timeoutMs: ROUND_TIMEOUT_MS, description: `answers to ${count} /events` },
  );
  // An error message is an answer too, but not the one measured: every reply must be the event list.
  // (Those refused as late got no answer at all; they are counted, with the time of their attempt.)
  const failed = handles.filter((h, i) => {
    if (times[i]!.late) return false;
    const reply = h.original();
    return !reply || reply.deleted || reply.embeds.length === 0;
  });
  if (failed.length > 0) throw new Error(`${failed.length} of ${count} /events were not answered with the list`);
  return times;
}

/** `use` with a stage whose bot keeps its store in a new SQLite file, or in the PostgreSQL database `databaseUrl` names. */
export async function withStage<T>(
  use: (stage: Stage) => Promise<T>,
  options: { databaseUrl?: string } = {},
): Promise<T> {
  // The large dataset: its 20,000-runner event is what the bot reads during the last measure.
  const eventor = await startSandboxEventor({ port: 0, size: 'large' });
  const discord = await startSandboxDiscord({ port: 0, requestLogLimit: 1_000 });
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-bench-interactions-'));
  let bot: BenchBot | undefined;
  try {
    const guild = discord.createGuild({ name: eventor.dataset.homeClub.name, preferredLocale: 'sv-SE' });
    const channel = discord.createTextChannel(guild.id, { name: 'allmänt' });
    const members = Array.from({ length: CONCURRENT }, (_, i) =>
      discord.createMember(guild.id, { username: `member${i}`, locale: 'en-GB' }),
    );
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS, guildId: guild.id });
    const config: BenchBotConfig = {
      discordToken: discord.token,
      discordApiUrl: discord.restUrl,
      eventorBaseUrl: eventor.baseUrl,
      eventorApiKey: eventor.apiKey,
      defaultEventorGuilds: [guild.id],
      customEventorOrigins: [],
      databasePath: path.join(dir, 'eventor-bot.sqlite'),
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
      secretKey: 'bench-interactions-secret-key-0123456789',
      defaultLanguage: 'en',
      defaultTimeZone: 'Europe/Stockholm',
      logLevel: 'warn',
    };
    bot = await BenchBot.start(config);
    const stage: Stage = {
      eventor,
      discord,
      guildId: guild.id,
      channelId: channel.id,
      members,
      bot,
      restartBot: async () => {
        await stage.bot.stop();
        bot = undefined;
        bot = await BenchBot.start(config);
        stage.bot = bot;
      },
    };
    return await use(stage);
  } finally {
    await bot?.stop();
    await discord.close();
    await eventor.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;

/** A round's percentiles in one line. */
export function summary(times: readonly AnswerTimes[]): string {
  const acks = times.map((t) => t.ackMs);
  const answers = times.map((t) => t.answerMs);
  const direct = times.filter((t) => t.direct).length;
  const late = times.filter((t) => t.late).length;
  return `${late > 0 ? `${late} of ${times.length} refused for coming after Discord's 3 s; ` : ''}ack p50 ${ms(percentile(acks, 50))} p99 ${ms(percentile(acks, 99))}; answer p50 ${ms(percentile(answers, 50))} p95 ${ms(percentile(answers, 95))}; ${direct} of ${times.length} answered in the first callback`;
}

async function runInteractions({ quick, write }: BenchContext): Promise<BenchFigure[]> {
  const coldRounds = quick ? 1 : 3;
  const warmRounds = quick ? 1 : 3;
  const heapInteractions = quick ? 2_000 : 10_000;
  const heapWarmUp = quick ? 1_000 : 2_000;
  write(
    `# ${CONCURRENT} concurrent /events per round: ${coldRounds} cold (the first round of a fresh bot; the figure is the median of their p99s), ${warmRounds} warm; heap over ${heapInteractions} interactions after ${heapWarmUp} more` +
      (quick
        ? ' (quick: 1 cold and 1 warm round instead of 3 each, 2,000 interactions after 1,000 instead of 10,000 after 2,000)'
        : ''),
  );
  const figures = await withStage(async (stage) => {
    const figures: BenchFigure[] = [];
    // The sandbox's side of fresh bots' bursts compiled first (SANDBOX_WARM_UP_BOTS).
    const warmUp: number[] = [];
    for (let i = 0; i < SANDBOX_WARM_UP_BOTS; i++) {
      await stage.restartBot();
      warmUp.push(
        percentile(
          (await round(stage, CONCURRENT)).map((t) => t.ackMs),
          99,
        ),
      );
    }
    write(
      `# ${SANDBOX_WARM_UP_BOTS} fresh bots first, to warm the sandbox, not measured: ack p99 ${warmUp.map(ms).join(', ')}`,
    );
    // Cold rounds, each the first of a freshly started bot: one round's p99 is its worst
    // acknowledgement but one, so a single round is at the mercy of one busy moment of the machine.
    const coldP99s: number[] = [];
    for (let i = 0; i < coldRounds; i++) {
      await stage.restartBot();
      await new Promise((resolve) => setTimeout(resolve, AFTER_READY_MS));
      const cold = await round(stage, CONCURRENT);
      coldP99s.push(
        percentile(
          cold.map((t) => t.ackMs),
          99,
        ),
      );
      write(`# cold, bot ${i + 1} of ${coldRounds}: ${summary(cold)}`);
    }
    const warm: AnswerTimes[] = [];
    const botBefore = await stage.bot.state();
    const sandboxBefore = process.cpuUsage();
    const warmP99s: number[] = [];
    for (let i = 0; i < warmRounds; i++) {
      const times = await round(stage, CONCURRENT);
      warm.push(...times);
      warmP99s.push(
        percentile(
          times.map((t) => t.ackMs),
          99,
        ),
      );
    }
    const sandboxCpu = process.cpuUsage(sandboxBefore);
    const botAfter = await stage.bot.state();
    write(`# warm (${warm.length}): ${summary(warm)}; each round's ack p99 ${warmP99s.map(ms).join(', ')}`);
    // CPU time, unlike wall time, does not depend on what else the machine runs.
    write(
      `# CPU per warm interaction: the bot ${((botAfter.cpuMicros - botBefore.cpuMicros) / 1000 / warm.length).toFixed(2)} ms, the sandboxes ${((sandboxCpu.user + sandboxCpu.system) / 1000 / warm.length).toFixed(2)} ms (with the waits' bookkeeping)`,
    );
    const coldAck = median(coldP99s);
    const warmAcks = warm.map((t) => t.ackMs);
    const warmAnswers = warm.map((t) => t.answerMs);
    figures.push({
      name: 'ack-cold-p99',
      value: coldAck,
      unit: 'ms',
      op: '<=',
      target: 100,
      title: 'First callback to 100 concurrent `/events`, a fresh bot, p99',
      about:
        "100 concurrent `/events` sent by the sandbox Discord to the real bot (its own process): the first callback, from INTERACTION_CREATE on the monotonic clock, in the first round of a freshly started bot (caches empty, code not yet optimised), a second after its \"bot ready\"; the median p99 of three such bots, after five fresh bots' rounds (not measured) have warmed the sandbox's side of a fresh bot's new connections.",
    });
    figures.push({
      name: 'ack-warm-p99',
      value: percentile(warmAcks, 99),
      unit: 'ms',
      op: '<=',
      target: 60,
      title: 'The same in later rounds, everything cached, p99',
      about: 'The same as `ack-cold-p99`, in three later rounds of the last bot, everything cached.',
    });
    figures.push({
      name: 'answer-warm-p95',
      value: percentile(warmAnswers, 95),
      unit: 'ms',
      op: '<=',
      target: 250,
      title: 'The callback or edit carrying the answer, those rounds, p95',
      about: 'The callback or edit carrying the answer, in the warm rounds of `ack-warm-p99`.',
    });

    // Past the first rounds the JIT still compiles and optimises (compiled code is on the heap):
    // more rounds first, so that what grows from here grows per interaction.
    for (let done = 0; done < heapWarmUp; done += CONCURRENT) await round(stage, CONCURRENT);
    const before = await stage.bot.state();
    for (let done = 0; done < heapInteractions; done += CONCURRENT) await round(stage, CONCURRENT);
    const after = await stage.bot.state();
    write(
      `# bot heap after a full collection: ${(before.heapUsed / MIB).toFixed(1)} MiB before, ${(after.heapUsed / MIB).toFixed(1)} MiB after ${heapInteractions} interactions (code space ${((after.codeSpaceUsed - before.codeSpaceUsed) / MIB).toFixed(2)} MiB of the growth); held before ${JSON.stringify(before.held)}, after ${JSON.stringify(after.held)}`,
    );
    figures.push({
      name: 'heap-growth-per-1000-interactions',
      value: (after.heapUsed - before.heapUsed) / MIB / (heapInteractions / 1000),
      unit: 'MiB',
      op: '<=',
      target: 0.2,
      title: "The bot's heap growth per 1,000 interactions",
      about:
        "The bot's heap after a full collection, after 10,000 more interactions (`--quick` 2,000) against before, per 1,000.",
    });

    try {
      figures.push(await duringLargeParse(stage, write));
    } finally {
      const logged = [...stage.bot.logged].map(([message, count]) => `${count}× ${message}`);
      write(`# the bot logged ${logged.length === 0 ? 'no warning or error' : logged.join('; ')}`);
    }
    return figures;
  });
  const onPostgres = await warmOnPostgres(warmRounds, write);
  return onPostgres === null ? figures : [...figures, onPostgres];
}

/**
 * `ack-warm-p99` with the bot's store on a throwaway PostgreSQL on loopback (as DATABASE_URL gives
 * it), side by side with a bot on SQLite: two fresh bots, each with its own sandboxes, one round
 * each to fill their caches, then their warm rounds taking turns, so that both meet the same
 * moments of a shared machine (measured one after the other, one busy moment decided the ratio).
 * Its target is 1.2 times the SQLite bot's p99 of these rounds. Null (after saying why) where
 * PostgreSQL cannot be started.
 */
async function warmOnPostgres(rounds: number, write: (line: string) => void): Promise<BenchFigure | null> {
  let server;
  try {
    server = await startPostgres();
  } catch (error) {
    write(`# ack-warm-p99-postgres not measured: PostgreSQL could not be started (${(error as Error).message})`);
    return null;
  }
  try {
    const { onSqlite, onPostgres } = await withStage((sqlite) =>
      withStage(
        async (postgres) => {
          await round(sqlite, CONCURRENT);
          const cold = await round(postgres, CONCURRENT);
          write(`# on PostgreSQL, cold: ${summary(cold)}`);
          const onSqlite: AnswerTimes[] = [];
          const onPostgres: AnswerTimes[] = [];
          for (let i = 0; i < rounds; i++) {
            onSqlite.push(...(await round(sqlite, CONCURRENT)));
            onPostgres.push(...(await round(postgres, CONCURRENT)));
          }
          write(`# taking turns, on SQLite, warm (${onSqlite.length}): ${summary(onSqlite)}`);
          write(`# taking turns, on PostgreSQL, warm (${onPostgres.length}): ${summary(onPostgres)}`);
          return { onSqlite, onPostgres };
        },
        { databaseUrl: server.url },
      ),
    );
    const p99 = (times: AnswerTimes[]) =>
      percentile(
        times.map((t) => t.ackMs),
        99,
      );
    const value = p99(onPostgres);
    const reference = p99(onSqlite);
    write(`# warm ack p99 on PostgreSQL / on SQLite, taking turns: ${(value / reference).toFixed(2)} (target <= 1.2)`);
    return {
      name: 'ack-warm-p99-postgres',
      value,
      unit: 'ms',
      op: '<=',
      target: 1.2 * reference,
      title: 'The same on PostgreSQL, taking turns with SQLite, p99',
      about:
        "The same as `ack-warm-p99` with the bot's store on a PostgreSQL on loopback (DATABASE_URL), beside a bot on SQLite: two fresh bots, one round each to fill their caches, then their warm rounds taking turns; the target is 1.2 times the SQLite bot's p99 of those rounds.",
    };
  } finally {
    await server.stop();
  }
}

/** Rounds fired while the bot reads the large list, at most (a bound, should the list never come). */
const MAX_ROUNDS_DURING_PARSE = 100;

/**
 * The bot's Eventor client fetches and reads the 20,000-runner result list (asked over IPC, so
 * the bench picks the moment). From the moment the sandbox Eventor starts sending it until
 * the bot has read it, rounds of `/events` are fired back to back, so that one of them meets the
 * parse whenever it happens; the figure is the worst round's p99 acknowledgement.
 */
async function duringLargeParse(stage: Stage, write: (line: string) => void): Promise<BenchFigure> {
  const { discord, eventor } = stage;
  const started = performance.now();
  let results: number | null = null;
  const read = stage.bot.readLargeList(stage.guildId).then((n) => {
    results = n;
  });
  const isLargeList = (r: { path: string; query: Record<string, string>; status: number | null }): boolean =>
    /\/results\/event$/i.test(r.path) && Object.values(r.query).includes(LARGE_EVENT_ID) && r.status !== null;
  await discord.waitFor(() => eventor.requests.some(isLargeList), {
    timeoutMs: ROUND_TIMEOUT_MS,
    description: 'the bot to ask for the large result list',
  });
  const sending = performance.now();
  const rounds: AnswerTimes[][] = [];
  while (results === null && rounds.length < MAX_ROUNDS_DURING_PARSE) rounds.push(await round(stage, CONCURRENT));
  await read;
  const readMs = performance.now() - started;
  const p99s = rounds.map((r) =>
    percentile(
      r.map((t) => t.ackMs),
      99,
    ),
  );
  const worst = rounds[p99s.indexOf(Math.max(...p99s))]!;
  write(
    `# while the bot read the large list (${results} race results, ${ms(readMs)} after asking, sent from ${ms(sending - started)}): ${rounds.length} rounds, their ack p99s ${p99s.map(ms).join(', ')}; the worst: ${summary(worst)}`,
  );
  return {
    name: 'ack-p99-during-large-parse',
    value: Math.max(...p99s),
    unit: 'ms',
    op: '<=',
    target: 150,
    title: "The worst round's ack p99 while the bot reads a 141 MB list",
    about:
      "Rounds of 100 fired back to back while the bot fetches and reads the 20,000-runner list (141 MB): the worst round's p99 acknowledgement.",
  };
}

export const interactionsSection: BenchSection = { name: 'interactions', run: runInteractions };
