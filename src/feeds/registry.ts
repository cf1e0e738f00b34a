/**
 * Every feed the scheduler runs, in the order it runs them for one server: the kinds admins turn on
 * in `/feeds`, then members' DMs (which read the start and result lists the kinds before them just
 * put in the shared Eventor client's cache). A new kind of automatic post is a file in `kinds/`
 * implementing `Feed` (`feed.ts`), listed here (and its name in `FEED_KINDS` of `settings.ts`
 * when admins turn it on in `/feeds`).
 */
import type { MessagePayload } from '../render/index.js';
import type { RaceOutlook } from './cadence.js';
import type { Feed, FeedName, PreviewContext } from './feed.js';
import { activitiesFeed } from './kinds/activities.js';
import { calendarFeed } from './kinds/calendar.js';
import { digestFeed } from './kinds/digest.js';
import { eventsFeed } from './kinds/events.js';
import { personalDmsFeed } from './kinds/personal.js';
import { remindersFeed } from './kinds/reminders.js';
import { resultsFeed } from './kinds/results.js';
import { startListsFeed } from './kinds/startlists.js';
import type { FeedKind } from './settings.js';

export const FEEDS: ReadonlyArray<Feed> = [
  resultsFeed,
  remindersFeed,
  startListsFeed,
  eventsFeed,
  activitiesFeed,
  calendarFeed,
  // After the kinds whose answers it reads from the shared client's cache.
  digestFeed,
  personalDmsFeed,
];

function feedNamed(name: FeedName): Feed {
  const feed = FEEDS.find((f) => f.name === name);
  if (!feed) throw new Error(`no feed named ${name}`);
  return feed;
}

/** How often a feed runs, given what the club's calendar says about today (null: unknown). */
export function intervalFor(name: FeedName, day: RaceOutlook | null): number {
  return feedNamed(name).cadence(day);
}

export interface FeedPreview {
  /** The newest item the feed would post now, or null when there is none. */
  latest(ctx: PreviewContext): Promise<MessagePayload | null>;
}

/** What `/feeds test <kind>` shows: the kind's newest post. */
export function feedModule(kind: FeedKind): FeedPreview | null {
  const latest = FEEDS.find((f) => f.name === kind)?.latest;
  return latest ? { latest } : null;
}
