/**
 * The reminders kind's own part of `/feeds`: `/feeds reminders lead_days: late_entry:` and its line
 * in `/feeds show`.
 */
import { UserFacingError } from '../../../i18n/user-facing-error.js';
import type { FeedSettings } from '../../feed.js';
import type { KindAdminContext, KindSubcommand, KindTranslator } from '../../kind.js';
import { LEAD_DAY_MAX, MAX_LEAD_DAYS, type RemindersOptions } from './options.js';

/**
 * The count that picks the plural form of "{days} days before": "1 day" only for the single lead
 * time 1; a list ("7, 1 days") or none ("– days") takes the plural.
 */
export function leadDaysCount(days: readonly number[]): number {
  return days.length === 1 ? days[0]! : Math.max(days.length, 2);
}

/** `7,1` → [7, 1] (unique, largest first); null when not up to 5 whole numbers 0-60. */
export function parseLeadDays(input: string): number[] | null {
  const parts = input.split(/[,;\s]+/).filter((p) => p !== '');
  if (parts.length === 0 || parts.length > MAX_LEAD_DAYS) return null;
  const days: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,2}$/.test(part)) return null;
    const n = Number(part);
    if (n > LEAD_DAY_MAX) return null;
    if (!days.includes(n)) days.push(n);
  }
  return days.sort((a, b) => b - a);
}

/** The lead times and late entries, as the answer and `/feeds show` word them. */
function leadVars(ctx: KindTranslator, options: RemindersOptions): { days: string; count: number; late: string } {
  return {
    days: options.leadDays.join(', ') || '–',
    count: leadDaysCount(options.leadDays),
    late: ctx.t(options.lateEntry ? 'feeds.yes' : 'feeds.no'),
  };
}

export const remindersSubcommand: KindSubcommand<RemindersOptions> = {
  name: 'feeds.reminders.name',
  description: 'feeds.reminders.description',
  options: [
    { type: 'string', name: 'feeds.opt.leadDays.name', description: 'feeds.opt.leadDays.description', maxLength: 40 },
    { type: 'boolean', name: 'feeds.opt.lateEntry.name', description: 'feeds.opt.lateEntry.description' },
  ],
  async run(input, ctx) {
    const leadInput = input['lead_days'];
    const lateEntry = input['late_entry'];
    const change: { leadDays?: number[]; lateEntry?: boolean } = {};
    if (typeof leadInput === 'string') {
      const days = parseLeadDays(leadInput);
      if (!days)
        throw new UserFacingError('feeds.reminders.badLeadDays', { input: leadInput.slice(0, 40).replace(/`/g, "'") });
      change.leadDays = days;
    }
    if (typeof lateEntry === 'boolean') change.lateEntry = lateEntry;
    const after = Object.keys(change).length > 0 ? await ctx.update(change) : await ctx.settings();
    return ctx.t('feeds.reminders.done', leadVars(ctx, after.options));
  },
};

export async function describeReminders(
  settings: FeedSettings<RemindersOptions>,
  ctx: KindAdminContext<RemindersOptions>,
): Promise<string[]> {
  return [ctx.t('feeds.show.leadDays', leadVars(ctx, settings.options))];
}
