/**
 * Every kind of automatic post, in one place: how the scheduler runs it for one server (`run`)
 * and what `/feeds test` shows as its newest item (`latest`). A new kind is one entry here.
 */
import type { MessagePayload } from '../render/index.js';
import type { FeedRunOptions, PreviewContext } from './common.js';
import type { PostOutcome } from './poster.js';
import { latestActivity, runActivitiesFeed } from './activities.js';
import { latestEvent, runEventsFeed } from './events.js';
import { latestReminder, runRemindersFeed } from './reminders.js';
import { latestResults, runResultsFeed, type ResultsFeedRun } from './results.js';
import { latestStartList, runStartListsFeed } from './startlists.js';
import type { FeedKind, FeedOptions, PauseReason } from './settings.js';

/** What the scheduler hands a feed for one run: the feeds' own run options, all filled in. */
export interface FeedRunContext extends Omit<FeedRunOptions, 'roleId' | 'options' | 'hooks'> {
  feed: FeedKind;
  roleId: string | null;
  options: FeedOptions;
}

interface FeedRunResult {
  outcome: 'ok' | 'paused' | 'failed';
  /** With `paused`: why the bot pauses the feed. */
  reason?: Exclude<PauseReason, 'admin'>;
  error?: unknown;
}

export type FeedRunner = (ctx: FeedRunContext) => Promise<FeedRunResult>;

/** A poster's `paused` outcome as the pause reason the settings store keeps. */
function pauseReasonOf(outcome: Extract<PostOutcome, { kind: 'paused' }>): Exclude<PauseReason, 'admin'> {
  return outcome.reason === 'channel-gone' ? 'channel-missing' : 'no-permission';
}

/** A feed's own run function (the results feed's shape) as a runner. */
export function runnerOf(run: (ctx: FeedRunContext) => Promise<ResultsFeedRun>): FeedRunner {
  return async (ctx) => {
    const result = await run(ctx);
    if (result.paused) return { outcome: 'paused', reason: pauseReasonOf(result.paused) };
    const failed = result.outcomes.find((o) => o.outcome.kind === 'failed');
    if (failed && failed.outcome.kind === 'failed') return { outcome: 'failed', error: failed.outcome.error };
    return { outcome: 'ok' };
  };
}

export interface FeedModule {
  /** The newest item the feed would post now, or null when there is none. */
  latest(ctx: PreviewContext): Promise<MessagePayload | null>;
}

export interface Feed extends FeedModule {
  run: FeedRunner;
}

export const FEEDS: Record<FeedKind, Feed> = {
  results: { run: runnerOf(runResultsFeed), latest: latestResults },
  reminders: { run: runnerOf(runRemindersFeed), latest: latestReminder },
  startlists: { run: runnerOf(runStartListsFeed), latest: latestStartList },
  events: { run: runnerOf(runEventsFeed), latest: latestEvent },
  activities: { run: runnerOf(runActivitiesFeed), latest: latestActivity },
};

export function feedModule(kind: FeedKind): FeedModule | null {
  return FEEDS[kind] ?? null;
}
