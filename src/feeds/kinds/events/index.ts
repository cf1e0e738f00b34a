/** New events: events around the club (and the levels of `/feeds filter`) as Eventor publishes or changes them. */
import { defineKind } from '../../kind.js';
import { EVENTS_FEED, eventsFeed, latestEvent } from './events.js';
import { EventsOptions } from './options.js';

export const eventsKind = defineKind<EventsOptions>({
  name: EVENTS_FEED,
  label: 'setup.kind.events',
  noticeLabel: 'scheduler.kind.events',
  audience: 'channel',
  options: EventsOptions,
  feed: eventsFeed,
  permissions: [],
  preview: (ctx) => latestEvent(ctx),
  levels: { done: 'feeds.filter.done', cleared: 'feeds.filter.cleared' },
});
