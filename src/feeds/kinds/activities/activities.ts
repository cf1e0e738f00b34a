/**
 * Club activities: a post for each new activity of the club (once it is visible and until it has
 * started) with its start, registrations and registration deadline (`renderActivity`); a changed
 * activity (more registrations, a new deadline) edits the post. On the last day before its
 * registration closes, one reminder more.
 */
import type { EventorClient } from '../../../eventor/client.js';
import type { Activity } from '../../../eventor/answers.js';
import { t } from '../../../i18n/index.js';
import {
  discordTimestamp,
  escapeName,
  type MessagePayload,
  type RenderContext,
  renderActivity,
} from '../../../render/index.js';
import { hourly } from '../../cadence.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import { type ContentItem, publishTo, withRoleMention } from '../../delivery/publish.js';
import { channelFeed, type FeedRunOptions, type PreviewContext, renderContext } from '../../feed.js';
import { millisecondsInDay as DAY } from 'date-fns/constants';
import { queryDay } from '../../../time/days.js';

export const ACTIVITIES_FEED = 'activities' as const;
/** Activities starting within this many days are posted. */
export const ACTIVITIES_WINDOW_DAYS = 120;

/** How long before an activity's registration closes the feed reminds of it. */
export const ACTIVITY_DEADLINE_LEAD_MS = DAY;

export interface ActivityItem extends ContentItem {
  activityId: string;
}

/** The feed's items: the activities visible now that have not started, by start time: pure. */
export function activityItems(
  activities: readonly Activity[],
  ctx: RenderContext,
  roleId: string | null = null,
): ActivityItem[] {
  const now = ctx.now.getTime();
  const shown = activities
    .filter((a) => a.startTime !== null && Date.parse(a.startTime) > now)
    .filter(
      (a) =>
        (a.visibleFrom === null || Date.parse(a.visibleFrom) <= now) &&
        (a.visibleTo === null || Date.parse(a.visibleTo) > now),
    )
    .sort((a, b) => a.startTime!.localeCompare(b.startTime!) || a.id.localeCompare(b.id));
  return shown.flatMap((activity) => {
    const card = renderActivity(activity, ctx);
    const name = escapeName(activity.name);
    const lines = [t(ctx.language, 'feedpost.activity.content', { name })];
    const deadline = activity.registrationDeadline ? Date.parse(activity.registrationDeadline) : null;
    if (deadline !== null && deadline > now) {
      lines.push(
        t(ctx.language, 'feedpost.activity.deadline', {
          when: `${discordTimestamp(activity.registrationDeadline!, 'f')} (${discordTimestamp(activity.registrationDeadline!, 'R')})`,
        }),
      );
    }
    const payload = withRoleMention({ ...card, content: lines.join('\n') }, roleId);
    const items: ActivityItem[] = [
      {
        itemKey: ledgerKey(ACTIVITIES_FEED, activity.id),
        activityId: activity.id,
        payload,
        contentHash: contentHash(payload),
      },
    ];
    // The last day before registration closes: one reminder (edited as registrations come in).
    if (deadline !== null && now < deadline && now >= deadline - ACTIVITY_DEADLINE_LEAD_MS) {
      const last = [
        t(ctx.language, 'feedpost.activity.lastDay', {
          name,
          when: discordTimestamp(activity.registrationDeadline!, 'R'),
        }),
      ];
      if (activity.registrationCount !== null)
        last.push(t(ctx.language, 'feedpost.activity.registered', { count: activity.registrationCount }));
      const reminder = withRoleMention({ ...card, content: last.join('\n') }, roleId);
      items.push({
        itemKey: ledgerKey(ACTIVITIES_FEED, activity.id, 'deadline'),
        activityId: activity.id,
        payload: reminder,
        contentHash: contentHash(reminder),
      });
    }
    return items;
  });
}

/** The club's activities starting from now to the window's end, with their registration counts. */
export function fetchClubActivities(
  client: EventorClient,
  organisationId: string,
  now: Date,
  windowDays = ACTIVITIES_WINDOW_DAYS,
): Promise<readonly Activity[]> {
  return client.activities({
    organisationId,
    from: queryDay(now.getTime()),
    to: queryDay(now.getTime() + windowDays * DAY),
  });
}

function fetchForRun(options: FeedRunOptions): Promise<readonly Activity[]> {
  return fetchClubActivities(options.client, options.organisationId, options.now);
}

function itemsForRun(activities: readonly Activity[], options: FeedRunOptions): ActivityItem[] {
  return activityItems(activities, renderContext(options), options.roleId ?? null);
}

/** The club's activities go to the channel (seeded on the feed's first run). */
const deliver = publishTo({ name: ACTIVITIES_FEED, summaryTitle: 'scheduler.summary.activities' });

/** For `/feeds test`: the club's next activity. */
export async function latestActivity(ctx: PreviewContext): Promise<MessagePayload | null> {
  const activities = await fetchClubActivities(ctx.client, ctx.organisationId, ctx.now);
  return activityItems(activities, renderContext(ctx))[0]?.payload ?? null;
}

/** Club activities: hourly. */
export const activitiesFeed = channelFeed({
  name: ACTIVITIES_FEED,
  cadence: hourly,
  fetch: fetchForRun,
  items: itemsForRun,
  deliver,
  latest: latestActivity,
});

/** One run of the feed for one server. */
export const runActivitiesFeed = activitiesFeed.run;
