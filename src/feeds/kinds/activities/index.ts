/** Club activities: the club's own activities from Eventor, with their sign-up deadlines. */
import { defineKind } from '../../kind.js';
import { ACTIVITIES_FEED, activitiesFeed, latestActivity } from './activities.js';
import { ActivitiesOptions } from './options.js';

export const activitiesKind = defineKind<ActivitiesOptions>({
  name: ACTIVITIES_FEED,
  label: 'setup.kind.activities',
  noticeLabel: 'scheduler.kind.activities',
  audience: 'channel',
  options: ActivitiesOptions,
  feed: activitiesFeed,
  permissions: [],
  preview: (ctx) => latestActivity(ctx),
});
