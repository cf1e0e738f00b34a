/** The weekly digest: the club's week in one post, at the admins' day and time. */
import { defineKind } from '../../kind.js';
import { describeDigest, digestChanged, digestSubcommand } from './admin.js';
import { DIGEST_FEED, digestFeed, latestDigest } from './digest.js';
import { DigestOptions } from './options.js';

export const digestKind = defineKind<DigestOptions>({
  name: DIGEST_FEED,
  label: 'setup.kind.digest',
  noticeLabel: 'scheduler.kind.digest',
  audience: 'channel',
  options: DigestOptions,
  feed: digestFeed,
  permissions: [],
  preview: (ctx) => latestDigest(ctx),
  subcommand: digestSubcommand,
  describe: describeDigest,
  afterChange: digestChanged,
});
