/**
 * The weekly digest's own part of `/feeds`: `/feeds digest day: time:`, its line in `/feeds show`,
 * and what a change of it means for the ledger (it starts from its next time).
 */
import { UserFacingError } from '../../../i18n/user-facing-error.js';
import { Ledger } from '../../delivery/ledger.js';
import type { FeedSettings } from '../../feed.js';
import type { KindAdminContext, KindChangeContext, KindSubcommand, KindTranslator } from '../../kind.js';
import { DIGEST_FEED, digestKey, latestDigestDue } from './digest.js';
import { DIGEST_DAYS, type DigestOptions } from './options.js';

/** `18:00`, `18.00`, `1800`, `8:30` or `18` → `HH:MM`; null when it is not a time of day. */
export function parseDigestTime(input: string): string | null {
  const match = /^(\d{1,2})(?:[:.h]?(\d{2}))?$/.exec(input.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

function digestWhen(ctx: KindTranslator, options: DigestOptions): { day: string; time: string } {
  return {
    day: ctx.t(`feeds.day.${options.digestDay as (typeof DIGEST_DAYS)[number]}`),
    time: options.digestTime,
  };
}

export const digestSubcommand: KindSubcommand<DigestOptions> = {
  name: 'feeds.digest.name',
  description: 'feeds.digest.description',
  options: [
    {
      type: 'string',
      name: 'feeds.opt.day.name',
      description: 'feeds.opt.day.description',
      choices: DIGEST_DAYS.map((day) => ({ label: `feeds.day.${day}` as const, value: String(day) })),
    },
    { type: 'string', name: 'feeds.opt.time.name', description: 'feeds.opt.time.description', maxLength: 10 },
  ],
  async run(input, ctx) {
    const dayInput = input['day'];
    const timeInput = input['time'];
    const change: { digestDay?: number; digestTime?: string } = {};
    if (typeof dayInput === 'string') {
      const day = Number(dayInput);
      if (!(DIGEST_DAYS as readonly number[]).includes(day)) throw new UserFacingError('error.unexpected');
      change.digestDay = day;
    }
    if (typeof timeInput === 'string') {
      const time = parseDigestTime(timeInput);
      if (time === null)
        throw new UserFacingError('feeds.digest.badTime', { input: timeInput.slice(0, 10).replace(/`/g, "'") });
      change.digestTime = time;
    }
    const after = Object.keys(change).length > 0 ? await ctx.update(change) : await ctx.settings();
    return ctx.t('feeds.digest.done', { ...digestWhen(ctx, after.options), zone: ctx.timeZone });
  },
};

export async function describeDigest(
  settings: FeedSettings<DigestOptions>,
  ctx: KindAdminContext<DigestOptions>,
): Promise<string[]> {
  return [ctx.t('feeds.show.digest', digestWhen(ctx, settings.options))];
}

/**
 * The digest's day and time count from their next occurrence: when a new time of this week has
 * already passed, or the digest comes back on after a time off, this week's digest counts as done
 * (recorded, never posted), so a change never posts a "late" digest at once. A digest that has not
 * run yet seeds on its first run.
 */
export async function digestChanged(ctx: KindChangeContext<DigestOptions>): Promise<void> {
  const { before, after } = ctx;
  const turnedOn = after.enabled && !before.enabled;
  const moved =
    before.options.digestDay !== after.options.digestDay || before.options.digestTime !== after.options.digestTime;
  if (!turnedOn && !moved) return;
  const ledger = new Ledger(ctx.parts);
  if ((await ledger.feedStartedAt(ctx.guildId, DIGEST_FEED)) === null) return;
  const { week } = latestDigestDue(ctx.now, ctx.timeZone, after.options);
  await ledger.seed(ctx.guildId, DIGEST_FEED, after.channelId ?? '', [{ itemKey: digestKey(week), contentHash: '' }]);
}
