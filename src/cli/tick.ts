import type { ParsedArgs } from './args.js';
import type { Io } from './main.js';
import { startConfiguredBot } from './start.js';

/**
 * Runs every turned-on automatic post once, now, and exits: to check a new setup without waiting
 * for the schedule, or to drive the posts from the system's cron instead of the built-in one. The
 * ledger makes it safe next to (or instead of) a running bot: nothing is posted twice.
 */
export async function runTick(args: ParsedArgs, io: Io): Promise<number> {
  const started = await startConfiguredBot(args, io, 'tick', { scheduler: false });
  if (!started) return 1;
  try {
    await started.bot.scheduler.tick(new Date(), { force: true });
  } finally {
    await started.bot.stop();
  }
  return 0;
}
