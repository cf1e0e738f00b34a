/**
 * New events: events of the club, its district or the chosen classifications that are new, changed
 * or cancelled in Eventor, found incrementally with `fromModifyDate`. One item per event (its card);
 * a later change edits the post, a cancellation edits it to say so.
 *
 * The cursor (the latest modify date seen) is kept per server in the ledger as the row
 * `events:~cursor` of this feed (state `seeded`, its "hash" the ISO instant): it is written with the
 * seed on the first run and moved after every run whose posts all went through. Each query overlaps
 * the cursor by an hour, so changes Eventor stamps a little late are not missed; the content hashes
 * keep the overlap from posting anything twice.
 */

import { clubArea } from '../../../club/area.js';
import type { EventorClient } from '../../../eventor/client.js';
import type { Event } from '../../../eventor/answers.js';
import { t } from '../../../i18n/index.js';
import { escapeName, type MessagePayload, type RenderContext, renderEventCard } from '../../../render/index.js';
import { hourly } from '../../cadence.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import type { ItemRef } from '../../delivery/ledger.js';
import { type ContentItem, publishItems, withRoleMention } from '../../delivery/publish.js';
import { channelFeed, type FeedRun, type FeedRunOptions, type PreviewContext, renderContext } from '../../feed.js';
import { millisecondsInDay as DAY } from 'date-fns/constants';
import { queryDay } from '../../../time/days.js';
import { EventsOptions } from './options.js';
import { byStart } from '../../club-lists.js';

export const EVENTS_FEED = 'events' as const;
const EVENTS = { name: EVENTS_FEED, summaryTitle: 'scheduler.summary.events' } as const;
export const EVENTS_CURSOR_KEY = ledgerKey(EVENTS_FEED, '~cursor');
/** How far back each query reaches before the cursor. */
export const EVENTS_OVERLAP_MS = 3_600_000;
/** Events ending before yesterday or starting more than this many days ahead are not posted. */
export const EVENTS_HORIZON_DAYS = 400;

export interface EventItem extends ContentItem {
  eventId: string;
  cancelled: boolean;
}

/** Eventor query time `yyyy-mm-dd hh:mm:ss` (UTC). */
function queryTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The feed's items for these (changed) events, by date: pure. */
export function eventItems(events: readonly Event[], ctx: RenderContext, roleId: string | null = null): EventItem[] {
  const seen = new Set<string>();
  const items: EventItem[] = [];
  for (const event of [...events].sort(byStart)) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    const cancelled = event.status === 'canceled';
    const name = escapeName(event.name);
    const card = renderEventCard(event, {}, ctx);
    const content = cancelled
      ? `❌ ${t(ctx.language, 'feedpost.events.cancelled', { event: name })}`
      : t(ctx.language, 'feedpost.events.content', { event: name });
    const payload = withRoleMention({ ...card, content }, roleId);
    items.push({
      itemKey: ledgerKey(EVENTS_FEED, event.id),
      eventId: event.id,
      cancelled,
      payload,
      contentHash: contentHash(payload),
    });
  }
  return items;
}

/**
 * The events of interest modified in [fromMs, toMs]: the club's and its district's, and those of the
 * chosen classifications; only those not yet over and within the horizon.
 */
export async function fetchChangedEvents(
  client: EventorClient,
  organisationId: string,
  classificationIds: readonly string[],
  fromMs: number,
  now: Date,
): Promise<Event[]> {
  const t0 = now.getTime();
  const window = {
    fromDate: queryDay(t0 - DAY),
    toDate: queryDay(t0 + EVENTS_HORIZON_DAYS * DAY),
    fromModifyDate: queryTime(fromMs),
    toModifyDate: queryTime(t0),
    includeEntryBreaks: true,
  };
  const home = (await clubArea(client, organisationId)).ids;
  // A copy: the client's answers are frozen and shared with every other caller.
  const found = [...(await client.events({ ...window, organisationIds: home }))];
  if (classificationIds.length > 0)
    found.push(...(await client.events({ ...window, classificationIds: [...classificationIds] })));
  return found;
}

/** The latest modify date among the events, or null. */
function latestModified(events: readonly Event[]): number | null {
  let latest: number | null = null;
  for (const e of events) {
    const m = e.modifiedAt ? Date.parse(e.modifiedAt) : NaN;
    if (!Number.isNaN(m) && (latest === null || m > latest)) latest = m;
  }
  return latest;
}

/** What one run found: nothing on the feed's first run (it only sets the cursor), else the changed events since the cursor. */
export type EventsFetch = { firstRun: true } | { firstRun: false; events: Event[]; cursor: number };

export async function fetchEventsForRun(options: FeedRunOptions<EventsOptions>): Promise<EventsFetch> {
  const { ledger, guildId } = options;
  const started = await ledger.feedStartedAt(guildId, EVENTS_FEED);
  if (started === null) return { firstRun: true };
  const nowMs = options.now.getTime();
  const stored = (await ledger.get({ guildId, feed: EVENTS_FEED, itemKey: EVENTS_CURSOR_KEY }))?.contentHash;
  const cursor = stored && !Number.isNaN(Date.parse(stored)) ? Date.parse(stored) : nowMs;
  const fetched = await fetchChangedEvents(
    options.client,
    options.organisationId,
    EventsOptions.parse(options.options ?? {}).classificationIds,
    Math.min(cursor, nowMs) - EVENTS_OVERLAP_MS,
    options.now,
  );
  // The overlap reaches back before the feed started: what changed then is history, not news.
  const startedAt = Date.parse(started);
  const events: Event[] = [];
  for (const e of fetched)
    if (
      e.modifiedAt === null ||
      Date.parse(e.modifiedAt) > startedAt ||
      (await ledger.get({ guildId, feed: EVENTS_FEED, itemKey: ledgerKey(EVENTS_FEED, e.id) })) !== null
    )
      events.push(e);
  return { firstRun: false, events, cursor };
}

function itemsForRun(found: EventsFetch, options: FeedRunOptions<EventsOptions>): EventItem[] {
  return found.firstRun ? [] : eventItems(found.events, renderContext(options), options.roleId ?? null);
}

/** The changed events go to the channel, then the cursor moves past them (the first run only sets the cursor to now). */
export async function deliverEvents(
  items: readonly EventItem[],
  found: EventsFetch,
  options: FeedRunOptions<EventsOptions>,
): Promise<FeedRun> {
  const { ledger, guildId } = options;
  if (found.firstRun) {
    return publishItems(options, EVENTS, [], [{ itemKey: EVENTS_CURSOR_KEY, contentHash: options.now.toISOString() }]);
  }
  const { events, cursor } = found;
  const cursorRef: ItemRef = { guildId, feed: EVENTS_FEED, itemKey: EVENTS_CURSOR_KEY };
  const run = await publishItems(options, EVENTS, items);
  // Move the cursor only when every item went through, so a failed post is retried next run.
  const done = run.paused === null && run.outcomes.every((o) => o.outcome.kind !== 'failed');
  const seen = latestModified(events);
  const latest = seen === null ? null : Math.min(seen, options.now.getTime());
  if (done && latest !== null && latest > cursor) {
    if ((await ledger.get(cursorRef)) === null)
      await ledger.seed(guildId, EVENTS_FEED, options.channelId, [
        { itemKey: EVENTS_CURSOR_KEY, contentHash: new Date(latest).toISOString() },
      ]);
    else await ledger.updateHash(cursorRef, new Date(latest).toISOString());
  }
  return run;
}

/** How far back `/feeds test events` looks for the most recently changed event. */
export const EVENTS_TEST_LOOKBACK_DAYS = 30;

/** For `/feeds test`: the most recently changed upcoming event of the club or its district. */
export async function latestEvent(ctx: PreviewContext): Promise<MessagePayload | null> {
  const events = await fetchChangedEvents(
    ctx.client,
    ctx.organisationId,
    [],
    ctx.now.getTime() - EVENTS_TEST_LOOKBACK_DAYS * DAY,
    ctx.now,
  );
  const newest = [...events].sort((a, b) => (b.modifiedAt ?? '').localeCompare(a.modifiedAt ?? ''))[0];
  return newest ? (eventItems([newest], renderContext(ctx))[0]?.payload ?? null) : null;
}

/** New events: hourly. */
export const eventsFeed = channelFeed({
  name: EVENTS_FEED,
  cadence: hourly,
  fetch: fetchEventsForRun,
  items: itemsForRun,
  deliver: deliverEvents,
  latest: latestEvent,
});

/** One run of the feed for one server. */
export const runEventsFeed = eventsFeed.run;
