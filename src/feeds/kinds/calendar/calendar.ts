/**
 * Races in the server's Events: for each event the club organises or has entered, and each event
 * of the levels the admins chose, one external guild scheduled event (`render/calendar.ts` makes
 * its fields), kept in step with Eventor: a change of date, name or what the description shows
 * edits it, a cancellation in Eventor cancels it. It posts to no channel.
 *
 * Exactly once, across crashes (docs/decisions/scheduled-events.md): each event is a ledger row of
 * this feed, claimed before anything is sent; the intent (`posting`) is recorded before the create,
 * the scheduled event's id (`posted`) after. Every run first lists the server's scheduled events;
 * an intent without an id is finished by finding the bot's own event whose description carries the
 * Eventor link line, and only when there is none is the event created. A recorded event missing
 * from the list was deleted by an admin (or completed): it is remembered and never made again;
 * completed and cancelled events are final and never edited. At Discord's 100 upcoming events per
 * server the nearest races are kept (a later one of the bot's is deleted to make room for a nearer
 * one) and the admins are told once that some are left out.
 */
import type { Client } from 'discord.js';
import type { EventorClient } from '../../../eventor/client.js';
import type { Event } from '../../../eventor/answers.js';
import { t } from '../../../i18n/index.js';
import type { Logger } from '../../../log/logger.js';
import {
  describesEvent,
  eventLinkLine,
  renderScheduledEvent,
  type ScheduledEventFields,
} from '../../../render/calendar.js';
import {
  escapeEventorText,
  fitPayload,
  formatClock,
  formatLocalDate,
  type MessagePayload,
  plainText,
  type RenderContext,
} from '../../../render/index.js';
import type { ClubShare } from '../../club-share.js';
import { ledgerKey, sha256 } from '../../delivery/keys.js';
import type { ItemRef, LedgerRow } from '../../delivery/ledger.js';
import { newNonce } from '../../delivery/poster.js';
import {
  discordScheduledEvents,
  type ListedScheduledEvent,
  SCHEDULED_EVENT_STATUS as STATUS,
  SCHEDULED_EVENTS_LIMIT,
  type ScheduledEventChange,
  scheduledEventRefusal,
  type ScheduledEventsTarget,
} from './scheduled-events.js';
import {
  type Feed,
  type FeedContext,
  type FeedRunResult,
  type FeedRunScope,
  type PreviewContext,
  renderContext,
  runScopeOf,
} from '../../feed.js';
import { millisecondsInDay as DAY } from 'date-fns/constants';
import { queryDay } from '../../../time/days.js';
import { clubArea } from '../../../club/area.js';
import { byStart, eventsWithClubEntries } from '../../club-lists.js';
import { REMINDERS_WINDOW_DAYS } from '../reminders/reminders.js';
import type { CalendarOptions } from './options.js';

export const CALENDAR_FEED = 'calendar' as const;
/** Events starting within this many days are put in Events: the reminders' window, whose requests it shares. */
export const CALENDAR_WINDOW_DAYS = REMINDERS_WINDOW_DAYS;
/**
 * Every six hours: dates, names and cancellations change seldom, Discord's own reminder does the
 * last hours before a race, and the bench counts what it asks Eventor (about 175 requests a week
 * for the kind alone; beside the reminders, whose requests it repeats, mostly its entry counts).
 */
export const CALENDAR_CADENCE_MS = 6 * 3_600_000;

/**
 * Ledger hashes of rows the kind never touches again (a real content hash is 64 hex digits):
 * deleted by an admin or dropped by Discord, completed, cancelled.
 */
const GONE = 'calendar:gone';
const FINISHED = 'calendar:finished';
const CANCELLED = 'calendar:cancelled';
/** The bot deleted it to make room for a nearer race: it may be made again when there is room. */
const DISPLACED = 'calendar:displaced';
/** Recorded from the server's list after a crash, what it shows unknown: the next step edits it. */
const ADOPTED = 'calendar:adopted';
const SETTLED = new Set([GONE, FINISHED, CANCELLED]);

/** The row that remembers the admins were told some races are left out (`told`), or that all fit again (`clear`). */
export const CALENDAR_FULL_KEY = ledgerKey(CALENDAR_FEED, '~full');

export interface CalendarItem {
  itemKey: string;
  eventId: string;
  cancelled: boolean;
  /** Start, ms. */
  start: number;
  fields: ScheduledEventFields;
  /** The Eventor link line its description carries (how the bot finds its event after a crash). */
  linkLine: string;
  contentHash: string;
}

export interface CalendarData {
  events: Event[];
  /** How many from the club have entered each event (absent: none). */
  counts: Map<string, number>;
}

/** The scheduled events these Eventor events make, nearest first: pure (the clock is `ctx.now`). */
export function calendarItems(
  events: readonly Event[],
  counts: ReadonlyMap<string, number>,
  ctx: RenderContext,
): CalendarItem[] {
  const seen = new Set<string>();
  const items: CalendarItem[] = [];
  for (const event of [...events].sort(byStart)) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    const fields = renderScheduledEvent(event, counts.get(event.id) ?? 0, ctx);
    // Over: Discord has completed it (or never would take it).
    if (!fields || Date.parse(fields.scheduledEndTime) <= ctx.now.getTime()) continue;
    const cancelled = event.status === 'canceled';
    items.push({
      itemKey: ledgerKey(CALENDAR_FEED, event.id),
      eventId: event.id,
      cancelled,
      start: Date.parse(fields.scheduledStartTime),
      fields,
      linkLine: eventLinkLine(ctx, event.id),
      contentHash: sha256(JSON.stringify({ fields, cancelled })),
    });
  }
  return items;
}

/**
 * The events the club organises or has entries in, and those of the chosen levels, starting within
 * the window, with entry breaks and the club's entry counts. The first three requests are the
 * reminders' own, the same parameters at the same instant (`fetchReminderEvents`): beside that kind
 * the response cache answers them, and the club's entries come from the scheduler's shared window.
 */
export async function fetchCalendarEvents(
  client: EventorClient,
  organisationId: string,
  classificationIds: readonly string[],
  now: Date,
  club?: ClubShare,
): Promise<CalendarData> {
  const from = now.getTime();
  const to = from + CALENDAR_WINDOW_DAYS * DAY;
  const window = { fromDate: queryDay(from), toDate: queryDay(to), includeEntryBreaks: true };
  const home = (await clubArea(client, organisationId)).ids;
  const around = await client.events({ ...window, organisationIds: home });
  const entered = await eventsWithClubEntries(client, organisationId, from, to, club);
  const known = new Set(around.map((e) => e.id));
  const missing = [...entered].filter((id) => !known.has(id)).sort();
  const others = missing.length > 0 ? await client.events({ eventIds: missing, includeEntryBreaks: true }) : [];
  // The district's own events are not the club's races: only those it organises, or has entered.
  const events: Event[] = [
    ...around.filter((e) => entered.has(e.id) || e.organisers.some((o) => o.id === organisationId)),
    ...others,
  ];
  if (classificationIds.length > 0)
    events.push(...(await client.events({ ...window, classificationIds: [...classificationIds] })));
  const counts = new Map<string, number>();
  if (entered.size > 0) {
    const list = await client.competitorCount({ organisationIds: [organisationId], eventIds: [...entered].sort() });
    // The whole event's row, else the largest race's (as the reminders count).
    for (const c of list) {
      if (c.raceId === null) counts.set(c.eventId, c.entries);
      else if (!list.some((w) => w.eventId === c.eventId && w.raceId === null))
        counts.set(c.eventId, Math.max(counts.get(c.eventId) ?? 0, c.entries));
    }
  }
  return { events, counts };
}

/** What became of one item in a run. */
export type CalendarOutcome =
  | { kind: 'created'; eventId: string }
  /** An intent of an earlier run, finished from the server's list: nothing was created now. */
  | { kind: 'recovered'; eventId: string }
  | { kind: 'edited'; eventId: string }
  | { kind: 'cancelled'; eventId: string }
  | { kind: 'unchanged' }
  /** Deleted by an admin, completed or cancelled: never touched again. */
  | { kind: 'settled' }
  /** Not made: cancelled before it was, or already under way. */
  | { kind: 'skipped' }
  /** Not made: the server is at Discord's 100 and every event there is nearer. */
  | { kind: 'left-out' }
  /** Deleted by the bot to make room for a nearer race; made again when there is room. */
  | { kind: 'displaced' }
  | { kind: 'busy' }
  | { kind: 'paused' }
  | { kind: 'failed'; error: unknown };

export interface CalendarHooks {
  /** Called after Discord created the event and before the ledger records it (tests crash here). */
  afterCreate?: (itemKey: string, scheduledEventId: string) => void;
}

/** One run of the kind for one server, as tests drive it. */
export interface CalendarRunOptions extends FeedRunScope {
  events: ScheduledEventsTarget;
  /** Levels (classification ids) besides the club's own events. */
  classificationIds?: readonly string[];
  log?: Logger;
  hooks?: CalendarHooks;
}

export interface CalendarRun {
  outcomes: Array<{ itemKey: string; outcome: CalendarOutcome }>;
  /** Discord refused a scheduled event for want of permission: the run stopped. */
  paused: boolean;
  /** Tell the admins now (the first run that left races out since all last fitted). */
  notice?: 'scheduler.calendarFull';
}

const open = (e: ListedScheduledEvent | undefined): boolean =>
  e !== undefined && (e.status === STATUS.scheduled || e.status === STATUS.active);

/** One run: keeps the server's scheduled events in step with `items` (see the file's comment). */
export async function deliverCalendar(
  items: readonly CalendarItem[],
  options: CalendarRunOptions,
): Promise<CalendarRun> {
  return new CalendarSync(options).run(items);
}

class CalendarSync {
  readonly #o: CalendarRunOptions;
  #listed = new Map<string, ListedScheduledEvent>();
  #openCount = 0;
  readonly #outcomes: CalendarRun['outcomes'] = [];

  constructor(options: CalendarRunOptions) {
    this.#o = options;
  }

  #ref(itemKey: string): ItemRef {
    return { guildId: this.#o.guildId, feed: CALENDAR_FEED, itemKey };
  }

  async run(items: readonly CalendarItem[]): Promise<CalendarRun> {
    const { ledger, guildId } = this.#o;
    if ((await ledger.feedStartedAt(guildId, CALENDAR_FEED)) === null)
      await ledger.seed(guildId, CALENDAR_FEED, '', []);
    // Rows before the list: an event recorded before the list was read must be in it, unless deleted.
    const rows = await ledger.rows(guildId, CALENDAR_FEED);
    let listing: ListedScheduledEvent[];
    try {
      listing = await this.#o.events.list(guildId);
    } catch (error) {
      if (scheduledEventRefusal(error) === 'forbidden') return { outcomes: [], paused: true };
      return { outcomes: [{ itemKey: CALENDAR_FEED, outcome: { kind: 'failed', error } }], paused: false };
    }
    this.#listed = new Map(listing.map((e) => [e.id, e]));
    this.#openCount = listing.filter((e) => open(e)).length;
    for (const row of rows) await this.#followDiscord(row);
    let leftOut = 0;
    for (const item of items) {
      const outcome = await this.#claimed(item.itemKey, () => this.#sync(item));
      this.#outcomes.push({ itemKey: item.itemKey, outcome });
      if (outcome.kind === 'paused') return { outcomes: this.#outcomes, paused: true };
      if (outcome.kind === 'left-out') leftOut++;
    }
    const notice = await this.#fullNotice(leftOut);
    if (this.#outcomes.every((o) => o.outcome.kind !== 'failed'))
      await ledger.ranAt(guildId, CALENDAR_FEED, this.#o.now);
    return { outcomes: this.#outcomes, paused: false, ...(notice ? { notice } : {}) };
  }

  async #claimed(itemKey: string, work: () => Promise<CalendarOutcome>): Promise<CalendarOutcome> {
    const ref = this.#ref(itemKey);
    if (!(await this.#o.ledger.claim(ref))) return { kind: 'busy' };
    try {
      return await work();
    } finally {
      await this.#o.ledger.release(ref);
    }
  }

  /** A recorded event gone from the server's list (deleted, or completed and dropped), or final there: settled. */
  async #followDiscord(row: LedgerRow): Promise<void> {
    if (
      row.state !== 'posted' ||
      row.messageId === null ||
      SETTLED.has(row.contentHash) ||
      row.contentHash === DISPLACED
    )
      return;
    const listed = this.#listed.get(row.messageId);
    if (open(listed)) return;
    const settled = listed === undefined ? GONE : listed.status === STATUS.canceled ? CANCELLED : FINISHED;
    await this.#claimed(row.itemKey, async () => {
      const current = await this.#o.ledger.get(row);
      if (current?.state === 'posted' && current.messageId === row.messageId && !SETTLED.has(current.contentHash))
        await this.#o.ledger.updateHash(row, settled);
      return { kind: 'settled' };
    });
    if (listed === undefined)
      this.#o.log?.info('scheduled event gone from the server; not made again', {
        guildId: row.guildId,
        itemKey: row.itemKey,
      });
  }

  /** Under the item's claim: the row read afresh, then create, finish an intent, edit, or nothing. */
  async #sync(item: CalendarItem): Promise<CalendarOutcome> {
    const ref = this.#ref(item.itemKey);
    const row = await this.#o.ledger.get(ref);
    if (row && SETTLED.has(row.contentHash) && row.state === 'posted') return { kind: 'settled' };
    if (row?.state === 'posted' && row.messageId !== null && row.contentHash !== DISPLACED) {
      if (row.contentHash === item.contentHash) return { kind: 'unchanged' };
      return this.#edit(item, row.messageId);
    }
    // No event recorded: one made before a crash is found by its link line before anything is made.
    const bot = this.#o.events.botUserId();
    const made = [...this.#listed.values()].find(
      (e) => open(e) && bot !== null && e.creatorId === bot && describesEvent(e.description, item.linkLine),
    );
    if (made) {
      const after = row?.state === 'posting' ? row.contentHash : ADOPTED;
      // Without a row (the ledger lost it) one is made first: `posted` only updates a row.
      if (row === null) await this.#o.ledger.intend(ref, '', ADOPTED, newNonce());
      await this.#o.ledger.posted(ref, made.id, after);
      if (after === item.contentHash) return { kind: 'recovered', eventId: made.id };
      const edited = await this.#edit(item, made.id);
      return edited.kind === 'edited' ? { kind: 'recovered', eventId: made.id } : edited;
    }
    if (item.cancelled || item.start <= this.#o.now.getTime()) return { kind: 'skipped' };
    if (this.#openCount >= SCHEDULED_EVENTS_LIMIT && !(await this.#makeRoomBefore(item))) return { kind: 'left-out' };
    return this.#create(item);
  }

  async #create(item: CalendarItem): Promise<CalendarOutcome> {
    const ref = this.#ref(item.itemKey);
    await this.#o.ledger.intend(ref, '', item.contentHash, newNonce(), JSON.stringify(item.fields));
    let id: string;
    try {
      id = await this.#o.events.create(this.#o.guildId, item.fields, reason(item));
    } catch (error) {
      // The intent stays: the next run looks for the event in the list before creating it.
      const refusal = scheduledEventRefusal(error);
      if (refusal === 'forbidden') return { kind: 'paused' };
      if (refusal === 'full') {
        this.#openCount = SCHEDULED_EVENTS_LIMIT;
        return { kind: 'left-out' };
      }
      return { kind: 'failed', error };
    }
    this.#o.hooks?.afterCreate?.(item.itemKey, id);
    await this.#o.ledger.posted(ref, id, item.contentHash);
    this.#openCount++;
    this.#listed.set(id, {
      id,
      creatorId: this.#o.events.botUserId(),
      status: STATUS.scheduled,
      description: item.fields.description,
      scheduledStartTime: item.fields.scheduledStartTime,
    });
    return { kind: 'created', eventId: id };
  }

  async #edit(item: CalendarItem, eventId: string): Promise<CalendarOutcome> {
    const ref = this.#ref(item.itemKey);
    const listed = this.#listed.get(eventId);
    const active = listed?.status === STATUS.active;
    // Cancelling is allowed only before the start; an event under way shows the cancellation in its description.
    const cancel = item.cancelled && !active;
    let change: ScheduledEventChange;
    if (cancel) change = { status: STATUS.canceled };
    else if (active || item.start <= this.#o.now.getTime()) {
      // Under way, or moved in Eventor to a start already past: Discord refuses to move it, so it keeps its own.
      const { scheduledStartTime: _start, ...rest } = item.fields;
      change = rest;
    } else change = { ...item.fields };
    try {
      await this.#o.events.edit(this.#o.guildId, eventId, change, reason(item));
    } catch (error) {
      const refusal = scheduledEventRefusal(error);
      if (refusal === 'forbidden') return { kind: 'paused' };
      if (refusal === 'unknown') {
        await this.#o.ledger.updateHash(ref, GONE);
        return { kind: 'settled' };
      }
      // Completed or cancelled in the meantime: final, quietly.
      if (refusal === 'finished') {
        await this.#o.ledger.updateHash(ref, FINISHED);
        return { kind: 'settled' };
      }
      return { kind: 'failed', error };
    }
    if (cancel) {
      await this.#o.ledger.updateHash(ref, CANCELLED);
      return { kind: 'cancelled', eventId };
    }
    await this.#o.ledger.posted(ref, eventId, item.contentHash);
    return { kind: 'edited', eventId };
  }

  /**
   * At the server's 100: deletes the bot's latest upcoming event that starts after `item` to make
   * room for it (nearest races first); false when every open event is nearer (or not the bot's).
   */
  async #makeRoomBefore(item: CalendarItem): Promise<boolean> {
    const { ledger, guildId } = this.#o;
    const bot = this.#o.events.botUserId();
    const rows = await ledger.rows(guildId, CALENDAR_FEED);
    const candidates = rows
      .filter(
        (r) =>
          r.state === 'posted' && r.messageId !== null && !SETTLED.has(r.contentHash) && r.contentHash !== DISPLACED,
      )
      .map((r) => ({ row: r, listed: this.#listed.get(r.messageId!) }))
      .filter(
        (c) =>
          c.listed?.status === STATUS.scheduled &&
          c.listed.creatorId === bot &&
          Date.parse(c.listed.scheduledStartTime) > item.start,
      )
      .sort((a, b) => Date.parse(b.listed!.scheduledStartTime) - Date.parse(a.listed!.scheduledStartTime));
    for (const { row, listed } of candidates) {
      const done = await this.#claimed(row.itemKey, async () => {
        const current = await ledger.get(row);
        if (current?.state !== 'posted' || current.messageId !== listed!.id) return { kind: 'busy' };
        try {
          await this.#o.events.remove(guildId, listed!.id);
        } catch (error) {
          const refusal = scheduledEventRefusal(error);
          if (refusal === 'forbidden') return { kind: 'paused' };
          if (refusal !== 'unknown') return { kind: 'failed', error };
        }
        // Deleted first, recorded after: a crash in between reads as an admin's deletion (never doubled).
        await ledger.updateHash(row, DISPLACED);
        return { kind: 'settled' };
      });
      if (done.kind === 'settled') {
        this.#listed.delete(listed!.id);
        this.#openCount--;
        this.#outcomes.push({ itemKey: row.itemKey, outcome: { kind: 'displaced' } });
        return true;
      }
    }
    return false;
  }

  /** The notice when races are left out, once until all fit again. */
  async #fullNotice(leftOut: number): Promise<'scheduler.calendarFull' | null> {
    const { ledger, guildId } = this.#o;
    const ref = this.#ref(CALENDAR_FULL_KEY);
    const row = await ledger.get(ref);
    if (leftOut === 0) {
      if (row?.contentHash === 'told') await ledger.updateHash(ref, 'clear');
      return null;
    }
    if (row?.contentHash === 'told') return null;
    if (row === null)
      await ledger.seed(guildId, CALENDAR_FEED, '', [{ itemKey: CALENDAR_FULL_KEY, contentHash: 'told' }]);
    else await ledger.updateHash(ref, 'told');
    return 'scheduler.calendarFull';
  }
}

/** The audit log's reason: which Eventor event (no secret, nothing from members). */
function reason(item: CalendarItem): string {
  return `Eventor event ${plainText(item.eventId, 40)}`;
}

/** What a run did, as the scheduler reads it. */
export function calendarResult(run: CalendarRun): FeedRunResult {
  let posts = 0;
  let edits = 0;
  for (const { outcome } of run.outcomes) {
    if (outcome.kind === 'created') posts++;
    else if (outcome.kind === 'edited' || outcome.kind === 'cancelled') edits++;
  }
  const counts = { posts, edits, ...(run.notice ? { notice: run.notice } : {}) };
  if (run.paused) return { outcome: 'paused', reason: 'no-permission', ...counts };
  const failed = run.outcomes.find((o) => o.outcome.kind === 'failed')?.outcome;
  if (failed?.kind === 'failed') return { outcome: 'failed', error: failed.error, ...counts };
  return { outcome: 'ok', ...counts };
}

/** For `/feeds test calendar`: the next race as its scheduled event would show, in the server's language, for a reply (nothing is created). */
export async function previewCalendar(
  ctx: PreviewContext,
  classificationIds: readonly string[] = [],
): Promise<MessagePayload | null> {
  const data = await fetchCalendarEvents(ctx.client, ctx.organisationId, classificationIds, ctx.now);
  const rctx = renderContext(ctx);
  const next = calendarItems(data.events, data.counts, rctx).find((i) => !i.cancelled && i.start > ctx.now.getTime());
  if (!next) return null;
  const { fields } = next;
  const when = (instant: string) => `${formatLocalDate(instant, rctx)} ${formatClock(instant, rctx)}`;
  return fitPayload({
    embeds: [
      {
        // An embed shows markdown where the scheduled event's name shows none.
        title: escapeEventorText(fields.name),
        description: [
          t(ctx.language, 'feeds.calendar.when', {
            start: when(fields.scheduledStartTime),
            end: when(fields.scheduledEndTime),
          }),
          t(ctx.language, 'feeds.calendar.where', { location: fields.location }),
          '',
          fields.description,
        ].join('\n'),
      },
    ],
    allowedMentions: { parse: [] },
  });
}

/** One whole run for one server (fetch, items, deliver), as tests drive it. */
export async function runCalendar(options: CalendarRunOptions): Promise<CalendarRun> {
  const data = await fetchCalendarEvents(
    options.client,
    options.organisationId,
    options.classificationIds ?? [],
    options.now,
    options.club,
  );
  return deliverCalendar(calendarItems(data.events, data.counts, renderContext(options)), options);
}

function runOptions(ctx: FeedContext, discord: Client): CalendarRunOptions {
  return { ...runScopeOf(ctx), events: discordScheduledEvents(discord), log: ctx.log };
}

/** Races in the server's Events: every six hours; no channel (`audience: 'server'`). */
export const calendarFeed: Feed<CalendarData, CalendarItem> = {
  name: CALENDAR_FEED,
  settingsOf: CALENDAR_FEED,
  audience: 'server',
  cadence: () => CALENDAR_CADENCE_MS,
  fetch: (ctx) =>
    fetchCalendarEvents(
      ctx.client,
      ctx.organisationId,
      // The store read them with the kind's own schema (kinds/calendar/index.ts).
      (ctx.settings.options as CalendarOptions).classificationIds,
      ctx.now,
      ctx.club,
    ),
  items: (data, ctx) => calendarItems(data.events, data.counts, renderContext(ctx)),
  deliver: async (items, _data, ctx) => calendarResult(await deliverCalendar(items, runOptions(ctx, ctx.discord))),
};
