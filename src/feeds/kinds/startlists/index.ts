/** Start lists: the club's start times of each race, once the organiser publishes them. */
import { defineKind } from '../../kind.js';
import { StartListsOptions } from './options.js';
import { latestStartList, STARTLISTS_FEED, startListsFeed } from './startlists.js';

export const startListsKind = defineKind<StartListsOptions>({
  name: STARTLISTS_FEED,
  label: 'setup.kind.startlists',
  noticeLabel: 'scheduler.kind.startlists',
  audience: 'channel',
  options: StartListsOptions,
  feed: startListsFeed,
  permissions: [],
  preview: (ctx) => latestStartList(ctx),
});
