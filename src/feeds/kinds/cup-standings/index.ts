/** Cup standings: each club cup's standings (`/cup`) in one post, edited after every race that counts. */
import { defineKind } from '../../kind.js';
import { cupStandingsFeed, latestCupStandings } from './cup-standings.js';
import { CUP_STANDINGS_FEED } from './items.js';
import { CupStandingsOptions } from './options.js';

export const cupStandingsKind = defineKind<CupStandingsOptions>({
  name: CUP_STANDINGS_FEED,
  label: 'setup.kind.cupStandings',
  noticeLabel: 'scheduler.kind.cupStandings',
  audience: 'channel',
  // Its first run posts the standings there are (see cup-standings.ts), so `/feeds on` says so.
  onWords: 'feeds.on.cupStandings',
  options: CupStandingsOptions,
  feed: cupStandingsFeed,
  permissions: [],
  preview: (ctx) => latestCupStandings(ctx),
});
