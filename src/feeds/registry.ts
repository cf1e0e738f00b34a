/**
 * The feeds that exist, by kind: what `/feeds test` asks for the newest item of a kind. A kind
 * missing here has no feed module yet (`/feeds test` says "not available yet"); add one line per
 * feed as it lands.
 */
import type { EventorClient } from '../eventor/client.js';
import type { Language } from '../i18n/index.js';
import type { MessagePayload } from '../render/index.js';
import { latestActivity } from './activities.js';
import { latestEvent } from './events.js';
import { latestReminder } from './reminders.js';
import { fetchClubResults, resultsItems, RESULTS_LOOKBACK_DAYS } from './results.js';
import { latestStartList } from './startlists.js';
import type { FeedKind } from './settings.js';

export interface FeedPreviewContext {
  client: EventorClient;
  organisationId: string;
  now: Date;
  language: Language;
  timeZone: string;
}

export interface FeedModule {
  /** The newest item the feed would post now, or null when there is none. */
  latest(ctx: FeedPreviewContext): Promise<MessagePayload | null>;
}

/** How far back `/feeds test results` looks for the newest results (twice the feed's own window). */
const RESULTS_TEST_LOOKBACK_DAYS = RESULTS_LOOKBACK_DAYS * 2;

export const FEED_MODULES: Partial<Record<FeedKind, FeedModule>> = {
  results: {
    async latest(ctx) {
      const lists = await fetchClubResults(ctx.client, ctx.organisationId, ctx.now, RESULTS_TEST_LOOKBACK_DAYS);
      const items = resultsItems(lists, { language: ctx.language, timeZone: ctx.timeZone, now: ctx.now, webUrl: ctx.client.instance.webUrl }, ctx.organisationId);
      // Lists come in event order, oldest first: the newest item is the last.
      return items.at(-1)?.payload ?? null;
    },
  },
  reminders: { latest: latestReminder },
  startlists: { latest: latestStartList },
  events: { latest: latestEvent },
  activities: { latest: latestActivity },
};

export function feedModule(kind: FeedKind): FeedModule | null {
  return FEED_MODULES[kind] ?? null;
}
