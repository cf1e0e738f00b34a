/**
 * The results kind's own part of `/feeds`: `/feeds threads on|off` (a thread per event under the
 * post, with the club's complete results and split graphs), and its line in `/feeds show`.
 */
import { UserFacingError } from '../../../i18n/user-facing-error.js';
import { THREAD_PERMISSIONS } from './permissions.js';
import type { FeedSettings } from '../../feed.js';
import type { KindAdminContext, KindSubcommand } from '../../kind.js';
import type { ResultsOptions } from './options.js';
import { RESULTS_FEED } from './results.js';
import { threadsWaiting } from './threads.js';

export const threadsSubcommand: KindSubcommand<ResultsOptions> = {
  name: 'feeds.threads.name',
  description: 'feeds.threads.description',
  options: [
    {
      type: 'string',
      name: 'feeds.opt.state.name',
      description: 'feeds.opt.state.description',
      required: true,
      choices: [
        { label: 'feeds.show.on', value: 'on' },
        { label: 'feeds.show.off', value: 'off' },
      ],
    },
  ],
  async run(input, ctx) {
    const state = input['state'];
    if (state !== 'on' && state !== 'off') throw new UserFacingError('error.unexpected');
    if (state === 'off') {
      await ctx.update({ threads: false });
      return ctx.t('feeds.threads.off');
    }
    const { channelId } = await ctx.settings();
    if (channelId !== null) {
      // Refused now rather than skipped on every post later: nothing is stored until it can work.
      const missing = await ctx.missingIn(channelId, THREAD_PERMISSIONS);
      if (missing === null) throw new UserFacingError('setup.channel.notFound');
      if (missing.length > 0) {
        throw new UserFacingError('feeds.threads.missing', {
          channel: `<#${channelId}>`,
          permissions: missing.map((key) => ctx.t(key)).join(', '),
        });
      }
    }
    await ctx.update({ threads: true });
    return channelId === null
      ? ctx.t('feeds.threads.onNoChannel')
      : ctx.t('feeds.threads.on', { channel: `<#${channelId}>` });
  },
};

/** Threads on or off, and when on whether the bot can open them and how many are still to open. */
export async function describeThreads(
  settings: FeedSettings<ResultsOptions>,
  ctx: KindAdminContext<ResultsOptions>,
): Promise<string[]> {
  if (!settings.options.threads) return [ctx.t('feeds.show.threads', { value: ctx.t('feeds.show.off') })];
  const parts = [ctx.t('feeds.show.on')];
  const missing = settings.channelId === null ? [] : await ctx.missingIn(settings.channelId, THREAD_PERMISSIONS);
  if (missing && missing.length > 0)
    parts.push(ctx.t('feeds.show.threadsCannot', { permissions: missing.map((key) => ctx.t(key)).join(', ') }));
  const waiting = await threadsWaiting(ctx.ledger, settings.guildId, RESULTS_FEED);
  if (waiting > 0) parts.push(ctx.t('feeds.show.threadsWaiting', { count: waiting }));
  return [ctx.t('feeds.show.threads', { value: parts.join(' · ') })];
}
