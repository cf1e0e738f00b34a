/**
 * How the scheduler runs each kind of feed: one runner per kind (undefined until its feed lands).
 * A runner does one run for one server and says how it went; Eventor errors may be thrown (the
 * scheduler pauses on an invalid key and backs off on outages). Add one line per feed as it lands.
 */
import type { EventorClient } from '../eventor/client.js';
import type { Language } from '../i18n/index.js';
import type { Ledger } from './ledger.js';
import type { PostOutcome, PostTarget } from './poster.js';
import { runActivitiesFeed } from './activities.js';
import { runEventsFeed } from './events.js';
import { runRemindersFeed } from './reminders.js';
import { runResultsFeed, type ResultsFeedRun } from './results.js';
import { runStartListsFeed } from './startlists.js';
import type { FeedKind, FeedOptions, PauseReason } from './settings.js';

export interface FeedRunContext {
  guildId: string;
  feed: FeedKind;
  channelId: string;
  roleId: string | null;
  options: FeedOptions;
  /** The server's Eventor client, shared by every server of the same (base URL, key). */
  client: EventorClient;
  organisationId: string;
  ledger: Ledger;
  target: PostTarget;
  now: Date;
  language: Language;
  timeZone: string;
}

export interface FeedRunResult {
  outcome: 'ok' | 'paused' | 'failed';
  /** With `paused`: why the bot pauses the feed. */
  reason?: Exclude<PauseReason, 'admin'>;
  error?: unknown;
}

export type FeedRunner = (ctx: FeedRunContext) => Promise<FeedRunResult>;

/** A poster's `paused` outcome as the pause reason the settings store keeps. */
export function pauseReasonOf(outcome: Extract<PostOutcome, { kind: 'paused' }>): Exclude<PauseReason, 'admin'> {
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

export const FEED_RUNNERS: Record<FeedKind, FeedRunner | undefined> = {
  results: runnerOf(runResultsFeed),
  reminders: runnerOf(runRemindersFeed),
  startlists: runnerOf(runStartListsFeed),
  events: runnerOf(runEventsFeed),
  activities: runnerOf(runActivitiesFeed),
};
