/**
 * Entry-deadline reminders: for the events around the club (its district and itself) and the
 * events the club has entries in, a post some days before the ordinary entry deadline (the lead
 * times of the server, default 7 and 1 days) and, when wanted, before each late-entry deadline.
 * Each says how many from the club have entered so far and carries the "Log in to Eventor" button.
 *
 * An item is due from `deadline - lead` until the next shorter lead (the last until the deadline):
 * at any moment one reminder per deadline is due, so a bot that was away posts the most urgent one
 * instead of every reminder it missed.
 */
import { ButtonStyle, ComponentType } from 'discord.js';
import { clubArea } from '../../../club/area.js';
import type { EventorClient } from '../../../eventor/client.js';
import type { Event } from '../../../eventor/answers.js';
import { t } from '../../../i18n/index.js';
import {
  discordTimestamp,
  escapeName,
  eventUrl,
  fitPayload,
  type MessagePayload,
  type RenderContext,
  truncate,
} from '../../../render/index.js';
import { loginButton } from '../../../render/login-button.js';
import { hourly } from '../../cadence.js';
import type { ClubShare } from '../../club-share.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import { type ContentItem, publishTo, withRoleMention } from '../../delivery/publish.js';
import { channelFeed, type FeedRunOptions, type PreviewContext, renderContext } from '../../feed.js';
import { RemindersOptions } from './options.js';
import { millisecondsInDay as DAY } from 'date-fns/constants';
import { queryDay } from '../../../time/days.js';
import { byStart, eventsWithClubEntries } from '../../club-lists.js';

export const REMINDERS_FEED = 'reminders' as const;
/** How far ahead the feed looks for events (their deadlines come before them). */
export const REMINDERS_WINDOW_DAYS = 60;

export interface ReminderItem extends ContentItem {
  eventId: string;
  deadline: string;
  leadDays: number;
  late: boolean;
}

/** A reminder's deadline and lead times: the ordinary deadline with every lead, late ones with the shortest. */
function schedule(
  event: Event,
  options: Pick<RemindersOptions, 'leadDays' | 'lateEntry'>,
): Array<{ deadline: string; late: boolean; leads: number[] }> {
  const leads = [...new Set(options.leadDays)].filter((d) => d > 0).sort((a, b) => b - a);
  if (leads.length === 0) return [];
  const [ordinary, ...late] = event.entryDeadlines;
  const out: Array<{ deadline: string; late: boolean; leads: number[] }> = [];
  if (ordinary) out.push({ deadline: ordinary, late: false, leads });
  if (options.lateEntry) for (const deadline of late) out.push({ deadline, late: true, leads: [leads.at(-1)!] });
  return out;
}

/**
 * The reminders due now for these events: pure (the clock is `ctx.now`). `counts` holds how many
 * from the club have entered each event (absent: none).
 */
export function reminderItems(
  events: readonly Event[],
  counts: ReadonlyMap<string, number>,
  ctx: RenderContext,
  options: Pick<RemindersOptions, 'leadDays' | 'lateEntry'>,
  roleId: string | null = null,
): ReminderItem[] {
  const now = ctx.now.getTime();
  const items: ReminderItem[] = [];
  for (const event of [...events].sort(byStart)) {
    if (event.status === 'canceled') continue;
    for (const { deadline, late, leads } of schedule(event, options)) {
      const at = Date.parse(deadline);
      if (!(now < at)) continue;
      const index = leads.findIndex(
        (lead, i) => now >= at - lead * DAY && (i + 1 >= leads.length || now < at - leads[i + 1]! * DAY),
      );
      if (index < 0) continue;
      const leadDays = leads[index]!;
      const payload = withRoleMention(reminderPayload(event, deadline, late, counts.get(event.id) ?? 0, ctx), roleId);
      items.push({
        itemKey: ledgerKey(REMINDERS_FEED, event.id, deadline, leadDays),
        eventId: event.id,
        deadline,
        leadDays,
        late,
        payload,
        contentHash: contentHash(payload),
      });
    }
  }
  return items;
}

function countText(count: number, ctx: RenderContext): string {
  if (count === 0) return t(ctx.language, 'feedpost.reminder.countNone');
  return t(ctx.language, 'feedpost.reminder.count', { count });
}

export function reminderPayload(
  event: Event,
  deadline: string,
  late: boolean,
  count: number,
  ctx: RenderContext,
): MessagePayload {
  const { language } = ctx;
  const name = escapeName(event.name);
  const when = discordTimestamp(deadline, 'R');
  const url = eventUrl(ctx, event.id);
  const payload = fitPayload({
    content: t(language, late ? 'feedpost.reminder.contentLate' : 'feedpost.reminder.content', { event: name, when }),
    embeds: [
      {
        title: truncate(
          t(language, late ? 'feedpost.reminder.titleLate' : 'feedpost.reminder.title', { event: name }),
          256,
        ),
        url,
        color: 0xe67e22,
        description: [
          t(language, 'feedpost.reminder.deadline', { when, date: discordTimestamp(deadline, 'f') }),
          countText(count, ctx),
          t(language, 'feedpost.reminder.hint'),
        ].join('\n'),
        ...(event.start ? { timestamp: event.start } : {}),
      },
    ],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          loginButton(language),
          { type: ComponentType.Button, style: ButtonStyle.Link, label: 'Eventor', url },
        ],
      },
    ],
  });
  return payload;
}

/** The events around the club and those it has entries in, starting within the window, with entry breaks. */
export async function fetchReminderEvents(
  client: EventorClient,
  organisationId: string,
  now: Date,
  windowDays = REMINDERS_WINDOW_DAYS,
  club?: ClubShare,
): Promise<{ events: Event[]; counts: Map<string, number> }> {
  const from = now.getTime();
  const to = from + windowDays * DAY;
  const home = (await clubArea(client, organisationId)).ids;
  const around = await client.events({
    fromDate: queryDay(from),
    toDate: queryDay(to),
    organisationIds: home,
    includeEntryBreaks: true,
  });
  const entered = await eventsWithClubEntries(client, organisationId, from, to, club);
  const known = new Set(around.map((e) => e.id));
  const missing = [...entered].filter((id) => !known.has(id)).sort();
  const others = missing.length > 0 ? await client.events({ eventIds: missing, includeEntryBreaks: true }) : [];
  const events = [...around, ...others].filter((e) => e.entryDeadlines.some((d) => Date.parse(d) > from));
  const counts = new Map<string, number>();
  if (events.length > 0) {
    const list = await client.competitorCount({ organisationIds: [organisationId], eventIds: events.map((e) => e.id) });
    // The count of the queried club: the whole event's row, else the largest race's.
    for (const c of list) {
      if (c.raceId === null) counts.set(c.eventId, c.entries);
      else if (!list.some((w) => w.eventId === c.eventId && w.raceId === null))
        counts.set(c.eventId, Math.max(counts.get(c.eventId) ?? 0, c.entries));
    }
  }
  return { events, counts };
}

type ReminderEvents = Awaited<ReturnType<typeof fetchReminderEvents>>;

function fetchForRun(options: FeedRunOptions<RemindersOptions>): Promise<ReminderEvents> {
  return fetchReminderEvents(options.client, options.organisationId, options.now, REMINDERS_WINDOW_DAYS, options.club);
}

function itemsForRun({ events, counts }: ReminderEvents, options: FeedRunOptions<RemindersOptions>): ReminderItem[] {
  const { leadDays, lateEntry } = RemindersOptions.parse(options.options ?? {});
  return reminderItems(events, counts, renderContext(options), { leadDays, lateEntry }, options.roleId ?? null);
}

/** The reminders due now go to the channel (seeded on the feed's first run, like every kind). */
const deliver = publishTo({ name: REMINDERS_FEED, summaryTitle: 'scheduler.summary.reminders' });

/** For `/feeds test`: the reminder of the nearest deadline ahead, as if it were due now. */
export async function latestReminder(ctx: PreviewContext): Promise<MessagePayload | null> {
  const { events, counts } = await fetchReminderEvents(ctx.client, ctx.organisationId, ctx.now);
  const now = ctx.now.getTime();
  let best: { event: Event; deadline: string; late: boolean } | null = null;
  for (const event of events) {
    if (event.status === 'canceled') continue;
    for (const [index, deadline] of event.entryDeadlines.entries()) {
      if (Date.parse(deadline) > now && (best === null || Date.parse(deadline) < Date.parse(best.deadline)))
        best = { event, deadline, late: index > 0 };
    }
  }
  if (best === null) return null;
  const { event, deadline, late } = best;
  return reminderPayload(event, deadline, late, counts.get(event.id) ?? 0, renderContext(ctx));
}

/** Entry-deadline reminders: hourly. */
export const remindersFeed = channelFeed({
  name: REMINDERS_FEED,
  cadence: hourly,
  fetch: fetchForRun,
  items: itemsForRun,
  deliver,
  latest: latestReminder,
});

/** One run of the feed for one server. */
export const runRemindersFeed = remindersFeed.run;
