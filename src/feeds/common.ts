/**
 * What the feeds share: the options of one run, the render context, content hashes, the role
 * mention, the club's home organisations and entries, one list per event, and the run itself
 * (`publishItems`: seed on the first run, then publish every item through the exactly-once
 * `Poster`, with one summary instead of a burst).
 */
import { createHash } from 'node:crypto';
import type { EventorClient } from '../eventor/client.js';
import type { Event } from '../eventor/model.js';
import { t, type Language } from '../i18n/index.js';
import { discordTimestamp, fitPayload, truncate, type MessagePayload, type RenderContext } from '../render/index.js';
import { InvalidResponse, NotFound } from '../eventor/errors.js';
import type { Logger } from '../log/logger.js';
import type { Ledger } from './ledger.js';
import { Poster, type PosterHooks, type PostTarget } from './poster.js';
import type { ResultsFeedRun } from './results.js';
import { FeedOptions, isFeedKind } from './settings.js';

export const DAY = 86_400_000;

/** One item of a feed: a stable key, the payload and the hash of what it shows. */
export interface ContentItem {
  itemKey: string;
  payload: MessagePayload;
  contentHash: string;
  /** See `FeedItem.followSeeded`. */
  followSeeded?: boolean;
}

/** One run of one feed for one server (the fields of the scheduler's run context, plus hooks). */
export interface FeedRunOptions {
  guildId: string;
  channelId: string;
  /** A role to mention in new posts; null: none. */
  roleId?: string | null;
  /** The server's options of this feed (defaults when absent). */
  options?: Partial<FeedOptions>;
  /** The server's Eventor client (shared between servers of the same key). */
  client: EventorClient;
  organisationId: string;
  ledger: Ledger;
  target: PostTarget;
  now: Date;
  language: Language;
  timeZone: string;
  /**
   * Ask Eventor about everything in the feed's window (default). False on the scheduler's
   * in-between runs: only what changes by the minute (results of races just run, start lists of
   * races close at hand), so race days are not spent asking about the rest.
   */
  full?: boolean;
  /** Where a skipped item is told (an event whose list Eventor cannot give); default: nowhere. */
  log?: Logger;
  /** For tests: see `PosterHooks`. */
  hooks?: PosterHooks;
}

export type FeedRun = ResultsFeedRun;

/** What a feed renders with: `/feeds test` gives a feed this to preview its newest item; a run's options have it too. */
export interface PreviewContext {
  client: EventorClient;
  organisationId: string;
  now: Date;
  language: Language;
  timeZone: string;
}

export function feedOptions(options: FeedRunOptions): FeedOptions {
  return FeedOptions.parse(options.options ?? {});
}

export function renderContext(ctx: PreviewContext): RenderContext {
  return { language: ctx.language, timeZone: ctx.timeZone, now: ctx.now, webUrl: ctx.client.instance.webUrl };
}

/** The hash of what a payload shows: a changed hash means the post is edited. */
export function contentHash(payload: MessagePayload): string {
  return sha256(JSON.stringify(payload));
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Discord snowflakes only: anything else is never put in a mention. */
const SNOWFLAKE = /^\d{5,25}$/;

/**
 * The payload with `<@&role>` before its content and mentions allowed for exactly that role.
 * Without a role (or with a malformed id) mentions stay off.
 */
export function withRoleMention(payload: MessagePayload, roleId: string | null | undefined): MessagePayload {
  const none = { parse: [] as [] };
  if (!roleId || !SNOWFLAKE.test(roleId)) {
    return { ...payload, allowedMentions: none };
  }
  const mention = `<@&${roleId}>`;
  const content = payload.content ? `${mention} ${payload.content}` : mention;
  const allowed = { parse: [] as [], roles: [roleId] };
  return { ...payload, content: content.slice(0, 2000), allowedMentions: allowed };
}

/** The ids whose events are "around the club": its district (when its parent is one) and itself. */
export async function homeOrganisationIds(client: EventorClient, organisationId: string): Promise<string[]> {
  const club = await client.organisation({ id: organisationId });
  const parentId = club.parentId ?? null;
  if (parentId === null) return [organisationId];
  const parent = await client.organisation({ id: parentId });
  return parent.kind === 'district' ? [parent.id, organisationId] : [organisationId];
}

/** Eventor query day `yyyy-mm-dd` (UTC). */
export function queryDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Event ids with at least one entry from the club among events starting in [from, to]. */
export async function eventsWithClubEntries(client: EventorClient, organisationId: string, fromMs: number, toMs: number): Promise<Set<string>> {
  const entries = await client.entries({ organisationIds: [organisationId], fromEventDate: queryDay(fromMs), toEventDate: queryDay(toMs) });
  const ids = new Set<string>();
  for (const entry of entries) {
    const id = entry.event.id ?? entry.event.event?.id ?? null;
    if (id !== null) ids.add(id);
  }
  return ids;
}

/**
 * One list per event, in order. An event whose list Eventor answers with something unreadable, or
 * no longer has, is left out (and logged) so it does not hold back every other event's post;
 * anything else (an outage, a refused key) fails the run for the scheduler to handle.
 */
export async function listsPerEvent<T>(events: readonly Event[], fetch: (event: Event) => Promise<T | null>, log: Logger | undefined, what: string): Promise<T[]> {
  const lists: T[] = [];
  for (const event of events) {
    let list: T | null;
    try {
      list = await fetch(event);
    } catch (error) {
      if (!(error instanceof InvalidResponse || error instanceof NotFound)) throw error;
      log?.warn(`skipping an event whose ${what} Eventor cannot give`, { eventId: event.id, error });
      continue;
    }
    if (list !== null) lists.push(list);
  }
  return lists;
}

export function byStart(a: Event, b: Event): number {
  return (a.start ?? '').localeCompare(b.start ?? '') || a.id.localeCompare(b.id);
}

/** More new items than this in one run are announced by one summary post instead of a burst. */
export const MAX_NEW_POSTS_PER_RUN = 5;
/** A feed whose last run ended longer ago than this was away: its summary says since when. */
export const AWAY_MS = 3 * 3_600_000;
/** Lines a summary lists before "and N more". */
const SUMMARY_LINES = 15;

function itemTitle(payload: MessagePayload): { title: string; url: string | null } {
  const embed = payload.embeds?.[0];
  const fromContent = (payload.content ?? '').replace(/<@&\d+>\s*/g, '').split('\n')[0]!.trim();
  return { title: embed?.title ?? (fromContent || '…'), url: embed?.url ?? null };
}

/**
 * One post standing in for `items` (pure): their titles with links, "and N more", and since when
 * the bot was away when it was. Its key comes from the items' keys, so a run repeated after a
 * crash makes the same summary.
 */
function summaryItem(feed: string, items: readonly ContentItem[], ctx: RenderContext, awaySince: Date | null, roleId: string | null): ContentItem {
  const { language } = ctx;
  const keys = items.map((i) => i.itemKey).sort();
  const titleKey = isFeedKind(feed) ? (`scheduler.summary.${feed}` as const) : 'scheduler.summary.generic';
  const lines = items.slice(0, SUMMARY_LINES).map((item) => {
    const { title, url } = itemTitle(item.payload);
    const name = truncate(title, 150);
    return url ? `• [${name}](${url})` : `• ${name}`;
  });
  if (items.length > SUMMARY_LINES) lines.push(t(language, 'scheduler.summary.more', { count: items.length - SUMMARY_LINES }));
  const intro = awaySince ? `${t(language, 'scheduler.summary.away', { since: discordTimestamp(awaySince.toISOString(), 'f') })}\n\n` : '';
  const payload = withRoleMention(fitPayload({
    embeds: [{
      title: truncate(t(language, titleKey, { count: items.length }), 256),
      description: intro + lines.join('\n'),
      footer: { text: t(language, 'scheduler.summary.footer', { count: items.length }) },
    }],
  }), roleId);
  const itemKey = `${feed}:summary:${sha256(keys.join('\n')).slice(0, 16)}`;
  return { itemKey, payload, contentHash: contentHash(payload) };
}

/**
 * Seeds on the feed's first run for the server (the current items are recorded, nothing is posted);
 * later runs first finish posts an earlier run began and did not record, then publish every item
 * (new ones posted, changed ones edited), stopping at the first refusal. More than
 * MAX_NEW_POSTS_PER_RUN new items (after downtime, or a district publishing a season at once) are
 * announced by one summary post instead, and count as posted. `extraSeed` goes into the seed too
 * (e.g. a cursor row).
 */
export async function publishItems(options: FeedRunOptions, feed: string, items: readonly ContentItem[], extraSeed: ReadonlyArray<{ itemKey: string; contentHash: string }> = []): Promise<FeedRun> {
  const { ledger, guildId, channelId } = options;
  if (ledger.feedStartedAt(guildId, feed) === null) {
    ledger.seed(guildId, feed, channelId, [...items, ...extraSeed]);
    ledger.ranAt(guildId, feed, options.now);
    return { seeded: true, outcomes: [], paused: null };
  }
  const poster = new Poster(ledger, options.target, options.hooks);
  const outcomes: FeedRun['outcomes'] = [];
  const publishing = new Set(items.map((i) => i.itemKey));
  for (const finished of await poster.finishUnfinished(guildId, feed, publishing, channelId)) {
    outcomes.push(finished);
    if (finished.outcome.kind === 'paused') return { seeded: false, outcomes, paused: finished.outcome };
  }
  const fresh = items.filter((item) => ledger.get({ guildId, feed, itemKey: item.itemKey }) === null);
  let rest = items;
  if (fresh.length > MAX_NEW_POSTS_PER_RUN) {
    const lastRun = ledger.lastRunAt(guildId, feed);
    const away = lastRun !== null && options.now.getTime() - Date.parse(lastRun) > AWAY_MS ? new Date(lastRun) : null;
    const summary = summaryItem(feed, fresh, renderContext(options), away, options.roleId ?? null);
    const outcome = await poster.publishCovering({ guildId, feed, channelId, ...summary }, fresh);
    outcomes.push({ itemKey: summary.itemKey, outcome });
    if (outcome.kind === 'paused') return { seeded: false, outcomes, paused: outcome };
    if (outcome.kind === 'failed') return { seeded: false, outcomes, paused: null };
    const covered = new Set(fresh.map((i) => i.itemKey));
    rest = items.filter((item) => !covered.has(item.itemKey));
  }
  for (const item of rest) {
    const outcome = await poster.publish({ guildId, feed, itemKey: item.itemKey, channelId, payload: item.payload, contentHash: item.contentHash, ...(item.followSeeded ? { followSeeded: true } : {}) });
    outcomes.push({ itemKey: item.itemKey, outcome });
    if (outcome.kind === 'paused') return { seeded: false, outcomes, paused: outcome };
  }
  if (outcomes.every((o) => o.outcome.kind !== 'failed')) ledger.ranAt(guildId, feed, options.now);
  return { seeded: false, outcomes, paused: null };
}
