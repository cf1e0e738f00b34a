/** Entry-deadline reminders: for the events around the club and those it has entered, some days before each deadline. */
import { defineKind } from '../../kind.js';
import { describeReminders, remindersSubcommand } from './admin.js';
import { RemindersOptions } from './options.js';
import { latestReminder, REMINDERS_FEED, remindersFeed } from './reminders.js';

export const remindersKind = defineKind<RemindersOptions>({
  name: REMINDERS_FEED,
  label: 'setup.kind.reminders',
  noticeLabel: 'scheduler.kind.reminders',
  audience: 'channel',
  options: RemindersOptions,
  feed: remindersFeed,
  permissions: [],
  preview: (ctx) => latestReminder(ctx),
  subcommand: remindersSubcommand,
  describe: describeReminders,
});
