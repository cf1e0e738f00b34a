/**
 * The one list of the kinds of automatic post, in the order the scheduler runs them for one server,
 * and of the feeds that are no kind of their own (members' DMs, which run last: they read the start
 * and result lists the kinds before them just put in the shared Eventor client's cache). `/feeds`,
 * `/setup channel`, the admin service, the settings and the scheduler are built from it; a new kind
 * is a folder in `kinds/` and a line here (docs/architecture.md#adding-a-feed-kind).
 */
import type { Permission } from './delivery/post-channels.js';
import { POST_PERMISSIONS } from './delivery/post-channels.js';
import type { Feed } from './feed.js';
import type { FeedKind } from './kind.js';
import { activitiesKind } from './kinds/activities/index.js';
import { calendarKind } from './kinds/calendar/index.js';
import { cupStandingsKind } from './kinds/cup-standings/index.js';
import { digestKind } from './kinds/digest/index.js';
import { eventsKind } from './kinds/events/index.js';
import { liveKind } from './kinds/live/index.js';
import { personalDmsFeed } from './kinds/personal/personal.js';
import { remindersKind } from './kinds/reminders/index.js';
import { resultsKind } from './kinds/results/index.js';
import { startListsKind } from './kinds/startlists/index.js';

export const KINDS: readonly FeedKind[] = [
  resultsKind,
  // After the results: a results post out in this tick ends the race's board in the same tick.
  liveKind,
  remindersKind,
  startListsKind,
  eventsKind,
  activitiesKind,
  calendarKind,
  // After the kinds whose answers it reads from the shared client's cache.
  digestKind,
  // Last: it asks Eventor only for the season's races, nothing the others share.
  cupStandingsKind,
] as readonly FeedKind[];

/** The kinds' names, in the registry's order. */
export const KIND_NAMES: readonly string[] = KINDS.map((kind) => kind.name);

/** Feeds that follow a kind's settings but are no kind of their own: members' DMs of `/notify`. */
export const MEMBER_FEEDS: readonly Feed[] = [personalDmsFeed];

/** Every feed the scheduler runs, in order: each kind's, then the members'. */
export function feedsOf(kinds: readonly FeedKind[]): readonly Feed[] {
  return [...kinds.map((kind) => kind.feed), ...MEMBER_FEEDS];
}

/** The kind of this name in the list, or null. */
export function kindNamed(kinds: readonly FeedKind[], name: string): FeedKind | null {
  return kinds.find((kind) => kind.name === name) ?? null;
}

/**
 * Every permission the bot's features need: what the invite URL asks for (`eventor-bot invite`),
 * the posts' own and each kind's, so that the URL and the checks cannot drift apart. Commands need
 * none: Discord lets an application answer its own interactions in any channel.
 */
export function botPermissions(kinds: readonly FeedKind[] = KINDS): readonly Permission[] {
  const all = new Map<bigint, Permission>();
  for (const permission of [...POST_PERMISSIONS, ...kinds.flatMap((kind) => kind.permissions)])
    all.set(permission[0], permission);
  return [...all.values()];
}
