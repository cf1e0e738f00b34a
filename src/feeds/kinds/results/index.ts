/**
 * Results: the club's results of races just run, one post per event, edited when the organiser
 * corrects them, with a thread of complete results and split graphs when `/feeds threads` is on.
 */
import { PICTURE_PERMISSIONS } from '../../delivery/post-channels.js';
import { THREAD_PERMISSIONS } from './permissions.js';
import { defineKind } from '../../kind.js';
import { describeThreads, threadsSubcommand } from './admin.js';
import { ResultsOptions } from './options.js';
import { latestResults, RESULTS_FEED, resultsFeed } from './results.js';

export const resultsKind = defineKind<ResultsOptions>({
  name: RESULTS_FEED,
  label: 'setup.kind.results',
  noticeLabel: 'scheduler.kind.results',
  audience: 'channel',
  options: ResultsOptions,
  feed: resultsFeed,
  // Threads need theirs only when on (`/feeds threads` checks); pictures go out as text without
  // Attach Files. Both are asked for in the invite, neither is required to post.
  permissions: [...THREAD_PERMISSIONS, ...PICTURE_PERMISSIONS],
  notices: { runs: ['scheduler.noPictures'] },
  preview: (ctx) => latestResults(ctx),
  subcommand: threadsSubcommand,
  describe: describeThreads,
});
