// The bot of the `interactions` bench section, in a process of its own (started by interactions.ts
// with an IPC channel and --expose-gc): the heap it reports is the bot's alone, not the sandboxes'
// with their record of every interaction and message. Messages: in `{ config }` (a BotConfig
// without its Set and instance), out `{ ready: true }`; in `'heap'`, out `{ heapUsed }` after a
// full collection; in `{ readLargeList: guildId }`, out `{ largeListRead: results }` once the bot's
// Eventor client has fetched and read the 20,000-runner result list (asked directly, so the bench
// picks the moment rather than a command's timing); in `{ prepareList: LargeListShape }`, out
// `{ listPrepared: runners }` once a made-up result list of that shape is built in this process; in
// `{ work: 'analyse' | 'thread', times }`, out `{ workDone: { ms, pictures } }` once the bot has
// analysed that list as /results with splits does (`clubAnalyses`), or made and drawn its results
// thread's pictures as the results feed does (`clubGraphMessagesInSlices`, then each message's
// `complete`), that many times one after another;
// in `'stop'`: stops the bot and exits.
import { getHeapSpaceStatistics } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { COMMANDS } from '../../commands/index.js';
import { startBot } from '../../src/bot/bot.js';
import type { BotConfig } from '../../src/bot/config.js';
import { clubAnalyses } from '../../src/bot/results-splits.js';
import { stopChartWorker } from '../../src/charts/draw.js';
import type { ResultList } from '../../src/eventor/answers.js';
import { customInstance } from '../../src/eventor/instances.js';
import { clubGraphMessagesInSlices } from '../../src/feeds/kinds/results/split-pictures.js';
import { createLogger } from '../../src/log/logger.js';
import { LARGE_EVENT_ID } from '../sandbox/eventor/dataset.js';
import { countResults } from './count.js';
import { type LargeListShape, largeResultList } from './large-lists.js';

export interface BenchBotConfig extends Omit<BotConfig, 'defaultEventor' | 'defaultEventorGuilds'> {
  eventorBaseUrl: string;
  eventorApiKey: string;
  defaultEventorGuilds: string[];
}

/** A full collection: twice, so that what the first one finalised is gone too. */
function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the bench bot needs --expose-gc');
  gc();
  gc();
}

const send = (message: unknown): void => void process.send?.(message);

process.once('message', (message: { config: BenchBotConfig }) => {
  const { eventorBaseUrl, eventorApiKey, defaultEventorGuilds, ...rest } = message.config;
  const config: BotConfig = {
    ...rest,
    defaultEventor: { instance: customInstance(eventorBaseUrl), apiKey: eventorApiKey, timeoutMs: 300_000 },
    // The 20,000-runner list takes the sandbox and the bot a while on a busy machine.
    eventorTimeoutMs: 300_000,
    defaultEventorGuilds: new Set(defaultEventorGuilds),
  };
  // Warnings and errors only, to standard error: a log line per interaction would be the bench's own noise.
  const log = createLogger({ level: 'warn', write: (line) => void process.stderr.write(`${line}\n`) });
  // No per-member budget: the bench is a script firing far more commands than a person (as the tests do).
  void startBot({ config, log, commands: COMMANDS, scheduler: false, cooldowns: null }).then(
    (bot) => {
      let prepared: { list: ResultList; club: string } | null = null;
      /** What the bot does with the prepared list, as the product does it: the time it took, the pictures drawn. */
      const work = async (kind: unknown, times: number): Promise<{ ms: number; pictures: number }> => {
        if (prepared === null) throw new Error('no list prepared');
        const { list, club } = prepared;
        const started = performance.now();
        let pictures = 0;
        for (let k = 0; k < times; k++) {
          if (kind === 'analyse') {
            await clubAnalyses(list, club);
            continue;
          }
          // One message after another, as the thread's poster sends them.
          const messages = await clubGraphMessagesInSlices(list, club, 'en');
          for (const message of messages) await message.complete();
          pictures += messages.length;
        }
        return { ms: performance.now() - started, pictures };
      };
      process.on('message', (request: unknown) => {
        if (typeof request === 'object' && request !== null && 'prepareList' in request) {
          const shape = request.prepareList as LargeListShape;
          prepared = { list: largeResultList(shape), club: shape.club };
          // The last list made here is garbage now: collected before the rounds, which are to meet
          // the bot's work, not the bench's own setup (a real bot gets its lists from the parse worker).
          collect();
          send({ listPrepared: shape.classes * shape.runnersPerClass });
        } else if (typeof request === 'object' && request !== null && 'work' in request) {
          const { times } = request as { times?: unknown };
          void work(request.work, typeof times === 'number' ? times : 1).then(
            (done) => send({ workDone: done }),
            (error: unknown) => send({ workFailed: String(error) }),
          );
        } else if (typeof request === 'object' && request !== null && 'readLargeList' in request) {
          void bot.services.eventor
            .forGuild(String(request.readLargeList))
            .then((eventor) => eventor.client.eventResults({ eventId: LARGE_EVENT_ID, includeSplitTimes: true }))
            .then(
              (list) => send({ largeListRead: countResults(list).results }),
              (error: unknown) => send({ largeListFailed: String(error) }),
            );
        } else if (request === 'heap') {
          collect();
          const rest = bot.client.rest as typeof bot.client.rest & { interactions?: typeof bot.client.rest };
          send({
            heapUsed: process.memoryUsage().heapUsed,
            // Compiled code is on the heap too, and grows while the JIT still optimises: said apart.
            codeSpaceUsed:
              getHeapSpaceStatistics().find((space) => space.space_name === 'code_space')?.space_used_size ?? 0,
            cpuMicros: process.cpuUsage().user + process.cpuUsage().system,
            // What could grow per interaction, to name the culprit when the heap does.
            held: {
              restHandlers: rest.handlers.size,
              interactionRestHandlers: rest.interactions?.handlers.size ?? 0,
              restHashes: rest.hashes.size + (rest.interactions?.hashes.size ?? 0),
              cachedMessages: bot.client.channels.cache.reduce(
                (n, channel) => n + ('messages' in channel ? channel.messages.cache.size : 0),
                0,
              ),
              cachedUsers: bot.client.users.cache.size,
            },
          });
        } else if (request === 'stop') {
          void Promise.all([bot.stop(), stopChartWorker()]).then(() => process.exit(0));
        }
      });
      send({ ready: true });
    },
    (error: unknown) => {
      process.stderr.write(`bench bot failed to start: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
