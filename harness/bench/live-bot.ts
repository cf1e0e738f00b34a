// The bot of the `live` bench section, in a worker thread of its own (started by live.ts): the
// sandbox Discord, Eventor and LiveResultat stay on the bench's main thread, so the bot's event
// loop carries only the bot's work, as in production where Discord and LiveResultat are remote.
// `workerData`: the bot's configuration (LiveBotData) and the sandboxes' clock, a Float64Array over
// a SharedArrayBuffer the main thread moves (epoch ms). Messages: out `{ ready: true }` once logged
// in; in `{ follow: LiveBotFollow[] }`, out `{ following: true }` once each server has the kind on
// in its channel and follows the competition (as `/live link` sets it); in `'turn'`, out
// `{ turned: LiveTurn }` after one turn of the live pollers at the clock's time; in `'stop'`, out
// `{ stopped: true }` once the bot has stopped.
import { parentPort, workerData } from 'node:worker_threads';
import { COMMANDS } from '../../commands/index.js';
import { startBot } from '../../src/bot/bot.js';
import type { BotConfig } from '../../src/bot/config.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { createLogger } from '../../src/log/logger.js';

export interface LiveBotData {
  config: Omit<BotConfig, 'defaultEventor' | 'defaultEventorGuilds'> & {
    eventorBaseUrl: string;
    eventorApiKey: string;
    defaultEventorGuilds: string[];
  };
  /** Eight bytes: the clock of the sandboxes, epoch ms, as the main thread sets it. */
  clock: SharedArrayBuffer;
}

/** One server following the competition: its live channel and the race record `/live link` would store. */
export interface LiveBotFollow {
  guildId: string;
  channelId: string;
  eventId: string;
  raceId: string;
  raceDay: string;
  race: string;
  competitionId: number;
}

const port = parentPort!;
const data = workerData as LiveBotData;
const time = new Float64Array(data.clock);
const now = (): Date => new Date(time[0]!);
const { eventorBaseUrl, eventorApiKey, defaultEventorGuilds, ...rest } = data.config;
const config: BotConfig = {
  ...rest,
  defaultEventor: { instance: customInstance(eventorBaseUrl), apiKey: eventorApiKey, timeoutMs: 10_000 },
  defaultEventorGuilds: new Set(defaultEventorGuilds),
};
// Warnings and errors only, to standard error: a line per edit would be the bench's own noise.
const log = createLogger({ level: 'warn', write: (line) => void process.stderr.write(`${line}\n`), now });
const bot = await startBot({
  config,
  log,
  commands: COMMANDS,
  now,
  scheduler: false,
  cooldowns: null,
  // As the loopback world's (`eventorFollowsClock`): the caches follow the sandboxes' clock.
  createEventorClient: (instance, apiKey, shared) =>
    new EventorClient({ instance, apiKey, shared, now: () => now().getTime(), retries: 0 }),
});

port.on('message', (message: unknown) => {
  void (async () => {
    if (message === 'turn') {
      port.postMessage({ turned: await bot.live!.turn(now()) });
    } else if (message === 'stop') {
      await bot.stop();
      port.postMessage({ stopped: true });
      port.close();
    } else if (typeof message === 'object' && message !== null && 'follow' in message) {
      for (const f of message.follow as LiveBotFollow[]) {
        await bot.store.servers.setChannel(f.guildId, 'live', f.channelId);
        await bot.store.feedSettings.update(f.guildId, 'live', () => ({
          enabled: true,
          pausedReason: null,
          pausedAt: null,
          roleId: null,
          options: '{}',
        }));
        await bot.store.live.choose(
          { guildId: f.guildId, eventId: f.eventId, raceId: f.raceId, raceDay: f.raceDay, race: f.race },
          f.competitionId,
        );
      }
      port.postMessage({ following: true });
    }
  })();
});
port.postMessage({ ready: true });
