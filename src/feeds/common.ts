/**
 * What the reminders, start-lists, new-events and activities feeds share: the options of one run,
 * the role mention, the club's home organisations, and the run itself (seed on the first run,
 * then publish every item through the exactly-once `Poster`), shaped like `runResultsFeed`.
 */
import type { EventorClient } from '../eventor/client.js';
import type { Event } from '../eventor/model.js';
import type { Language } from '../i18n/index.js';
import type { MessagePayload, RenderContext } from '../render/index.js';
import type { Ledger } from './ledger.js';
import { Poster, type PosterHooks, type PostTarget } from './poster.js';
import type { ResultsFeedRun } from './results.js';
import { FeedOptions } from './settings.js';

export const DAY = 86_400_000;

/** One item of a feed: a stable key, the payload and the hash of what it shows. */
export interface ContentItem {
  itemKey: string;
  payload: MessagePayload;
  contentHash: string;
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
  /** For tests: see `PosterHooks`. */
  hooks?: PosterHooks;
}

export type FeedRun = ResultsFeedRun;

/** What `/feeds test` gives a feed to preview its newest item (the registry's `FeedPreviewContext`). */
export interface PreviewContext {
  client: EventorClient;
  organisationId: string;
  now: Date;
  language: Language;
  timeZone: string;
}

export function previewRenderContext(ctx: PreviewContext): RenderContext {
  return { language: ctx.language, timeZone: ctx.timeZone, now: ctx.now, webUrl: ctx.client.instance.webUrl };
}

export function feedOptions(options: FeedRunOptions): FeedOptions {
  return FeedOptions.parse(options.options ?? {});
}

export function renderContext(options: FeedRunOptions): RenderContext {
  return { language: options.language, timeZone: options.timeZone, now: options.now, webUrl: options.client.instance.webUrl };
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

export function byStart(a: Event, b: Event): number {
  return (a.start ?? '').localeCompare(b.start ?? '') || a.id.localeCompare(b.id);
}

/**
 * Seeds on the feed's first run for the server (the current items are recorded, nothing is posted);
 * later runs publish every item (new ones posted, changed ones edited), stopping at the first refusal.
 * `extraSeed` goes into the seed too (e.g. a cursor row).
 */
export async function publishItems(options: FeedRunOptions, feed: string, items: readonly ContentItem[], extraSeed: ReadonlyArray<{ itemKey: string; contentHash: string }> = []): Promise<FeedRun> {
  const { ledger, guildId, channelId } = options;
  if (ledger.feedStartedAt(guildId, feed) === null) {
    ledger.seed(guildId, feed, channelId, [...items, ...extraSeed]);
    return { seeded: true, outcomes: [], paused: null };
  }
  const poster = new Poster(ledger, options.target, options.hooks);
  const outcomes: FeedRun['outcomes'] = [];
  for (const item of items) {
    const outcome = await poster.publish({ guildId, feed, itemKey: item.itemKey, channelId, payload: item.payload, contentHash: item.contentHash });
    outcomes.push({ itemKey: item.itemKey, outcome });
    if (outcome.kind === 'paused') return { seeded: false, outcomes, paused: outcome };
  }
  return { seeded: false, outcomes, paused: null };
}
