import { StoreError, writeProblem } from '../store/sqlite/database.js';
import type { ParsedArgs } from './args.js';
import { type Io, oneLine } from './io.js';
import { startConfiguredBot } from './start.js';

/**
 * Runs every turned-on automatic post once, now, and exits: to check a new setup without waiting
 * for the schedule, or to drive the posts from the system's cron instead of the built-in one. The
 * ledger makes it safe next to (or instead of) a running bot: nothing is posted twice.
 */
export async function runTick(args: ParsedArgs, io: Io): Promise<number> {
  const started = await startConfiguredBot(args, io, 'tick', { scheduler: false });
  if ('exitCode' in started) return started.exitCode;
  const { bot, log, now } = started;
  // Exit 1 when anything failed, so that cron (or whatever drives `tick`) sees it; the log says what.
  let failure: string | null = null;
  try {
    const summary = await bot.scheduler.tick(now(), { force: true });
    // What it ran, in one line: an operator checking a new setup sees whether anything happened at all.
    log.info('tick done', { ...summary });
    const failed = bot.scheduler.failedRuns;
    if (failed > 0)
      failure = `${failed} run${failed === 1 ? '' : 's'} failed (see the log above); they are tried again on the next tick`;
  } catch (error) {
    log.debug('tick failed', { error });
    const problem = writeProblem(error, bot.store.description);
    failure = problem instanceof StoreError ? problem.message : oneLine(error);
  } finally {
    await bot.stop();
  }
  if (failure !== null) {
    io.err(`eventor-bot tick: ${failure}\n`);
    return 1;
  }
  return 0;
}
