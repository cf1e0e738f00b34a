/**
 * Race day, live (docs/live-results.md#race-day-in-discord): the club's runners on LiveResultat, in
 * Discord while they run. The kind's scheduler run finds which live competition each of today's
 * races is (`matching.ts`); the pollers (`poller.ts`, started by the bot beside the scheduler) keep
 * one board per race (in the race's thread when the results kind keeps threads, else in the kind's
 * channel: docs/admins.md#live-results-on-race-day), the finish messages when asked for, and members' DMs.
 */
import { defineKind } from '../../kind.js';
import { describeLive, liveSubcommand } from './admin.js';
import { liveMatchFeed } from './matching.js';
import { LiveOptions } from './options.js';
import { LIVE_FEED } from './race.js';

export const liveKind = defineKind<LiveOptions>({
  name: LIVE_FEED,
  label: 'setup.kind.live',
  noticeLabel: 'scheduler.kind.live',
  audience: 'channel',
  options: LiveOptions,
  feed: liveMatchFeed,
  permissions: [],
  notices: { runs: ['scheduler.liveDown'] },
  subcommand: liveSubcommand,
  describe: describeLive,
});
