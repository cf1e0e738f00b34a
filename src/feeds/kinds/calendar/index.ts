/**
 * The club's races as the server's scheduled events (its Events tab): no channel, server-wide
 * permissions, kept in step through the ledger (docs/decisions/scheduled-events.md).
 */
import { SCHEDULED_EVENT_PERMISSIONS } from './permissions.js';
import { defineKind } from '../../kind.js';
import { CALENDAR_FEED, calendarFeed, previewCalendar } from './calendar.js';
import { CalendarOptions } from './options.js';

export const calendarKind = defineKind<CalendarOptions>({
  name: CALENDAR_FEED,
  label: 'setup.kind.calendar',
  noticeLabel: 'scheduler.kind.calendar',
  audience: 'server',
  serverWords: {
    on: 'feeds.calendar.on',
    missing: 'feeds.calendar.missing',
    preview: 'feeds.calendar.preview',
    noRole: 'feeds.calendar.noRole',
    noChannel: 'feeds.calendar.noChannel',
    permissions: 'feeds.calendar.permissions',
    permissionsOk: 'feeds.calendar.permissionsOk',
    setupHint: 'setup.calendar.hint',
  },
  options: CalendarOptions,
  feed: calendarFeed,
  // Create Events to create the races' scheduled events, Manage Events to edit or delete ones others made.
  permissions: SCHEDULED_EVENT_PERMISSIONS,
  notices: { runs: ['scheduler.calendarFull'], pausedNoPermission: 'scheduler.paused.calendar' },
  preview: (ctx, options) => previewCalendar(ctx, options.classificationIds),
  levels: { done: 'feeds.filter.calendarDone', cleared: 'feeds.filter.calendarCleared' },
});
