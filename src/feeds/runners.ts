/**
 * How the scheduler runs each kind of feed: one runner per kind (undefined until its feed lands).
 * A runner does one run for one server and says how it went; Eventor errors may be thrown (the
 * scheduler pauses on an invalid key and backs off on outages). Add one line per feed as it lands.
 */
import type { EventorClient } from '../eventor/client.js';
import type { Language } from '../i18n/index.js';
import type { Ledger } from './ledger.js';
import type { PostOutcome, PostTarget } from './poster.js';
import { runResultsFeed } from './results.js';
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

export const runResults: FeedRunner = async (ctx) => {
  const run = await runResultsFeed({
    guildId: ctx.guildId, channelId: ctx.channelId, client: ctx.client, organisationId: ctx.organisationId,
    ledger: ctx.ledger, target: ctx.target, now: ctx.now, language: ctx.language, timeZone: ctx.timeZone,
  });
  if (run.paused) return { outcome: 'paused', reason: pauseReasonOf(run.paused) };
  const failed = run.outcomes.find((o) => o.outcome.kind === 'failed');
  if (failed && failed.outcome.kind === 'failed') return { outcome: 'failed', error: failed.outcome.error };
  return { outcome: 'ok' };
};

export const FEED_RUNNERS: Record<FeedKind, FeedRunner | undefined> = {
  results: runResults,
  reminders: undefined,
  startlists: undefined,
  events: undefined,
  activities: undefined,
};
