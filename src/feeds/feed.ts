/**
 * The one contract every kind of automatic post implements, members' personal DMs included: what
 * it asks Eventor (`fetch`), the posts that makes, each keyed and rendered (`items`, pure), where
 * each goes, exactly once through the poster (`deliver`: the kind's channel, the thread under a
 * results post, a member's DM), how often it runs given the club's calendar (`cadence`) and, for
 * `/feeds test`, its newest post (`latest`). The
 * scheduler knows nothing else about a kind: it asks the registry (`registry.ts`) for every feed and
 * dispatches the ones due.
 */
import type { Client } from 'discord.js';
import type { EventorClient } from '../eventor/client.js';
import type { Language, MessageKey, VariableName } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { MessagePayload, RenderContext } from '../render/index.js';
import type { Store } from '../store/interfaces.js';
import type { RaceOutlook } from './cadence.js';
import type { ClubShare } from './club-share.js';
import type { Ledger } from './delivery/ledger.js';
import type { PosterHooks, PostOutcome, PostTarget } from './delivery/poster.js';
import type { LiveAccess } from './kinds/live/access.js';

/** A feed's name: a kind's (`kinds/<name>/`, turned on in `/feeds`), or members' DMs of `/notify`. */
export type FeedName = string;

/** Why a feed is paused: by an admin, or by the bot when Discord or Eventor refuses. */
export type PauseReason = 'admin' | 'no-permission' | 'channel-missing' | 'invalid-key';

/** No posts between these local hours of the server's time zone (e.g. 22 to 7). */
export interface QuietHours {
  from: number;
  to: number;
}

/**
 * What a server wants of one kind of automatic post (`/feeds`, and its channel from `/setup
 * channel`): the settings every kind has, and `options`, the kind's own (its `options` schema's,
 * defaults filled in). Nothing is posted for a kind until an admin turns it on.
 */
export interface FeedSettings<Options extends object = Readonly<Record<string, unknown>>> {
  guildId: string;
  /** The kind's name. */
  feed: string;
  enabled: boolean;
  pausedReason: PauseReason | null;
  pausedAt: string | null;
  roleId: string | null;
  /** From /setup channel (guild_channels); null when none is chosen. */
  channelId: string | null;
  quietHours: QuietHours | null;
  options: Options;
}

/** What the scheduler hands a feed for one run for one server. */
export interface FeedContext extends FeedRunScope {
  /**
   * The server's `/feeds` settings this feed follows (`Feed.settingsOf`): for a kind of its own, its
   * channel, role and options; for members' DMs, those of the results feed (its quiet hours).
   */
  settings: FeedSettings;
  /** See `FeedRunOptions.full`. */
  full: boolean;
  log: Logger;
  store: Store;
  /** Opens members' DM channels and names the server in them. */
  discord: Client;
  /** Looks members up in their server before their personal DMs (see `MembershipCheck`). */
  membership?: MembershipCheck;
  /** LiveResultat, on the operator's addresses (the live kind's matching); absent when live results are off. */
  live?: LiveAccess;
}

/** How a run ended, for the scheduler: went through, Discord refused the channel (pause), or failed (back off). */
export interface FeedRunResult {
  outcome: 'ok' | 'paused' | 'failed';
  /** With `paused`: why the bot pauses the feed. */
  reason?: Exclude<PauseReason, 'admin'>;
  error?: unknown;
  /** New messages it sent (channel posts or members' DMs), for the tick's summary. */
  posts?: number;
  /** Messages it edited because what they show changed. */
  edits?: number;
  /** Something the admins should be told once, the run going on regardless (see `FeedRun.notice`). */
  notice?: FeedNotice;
}

/** One post of a feed: a stable ledger key (`ledgerKey`), the rendered payload and the hash of what it shows. */
export interface ContentItem {
  itemKey: string;
  payload: MessagePayload;
  contentHash: string;
  /** See `FeedItem.followSeeded`. */
  followSeeded?: boolean;
}

export interface Feed<Data = unknown, Item = unknown> {
  readonly name: FeedName;
  /** The `/feeds` kind whose settings hold this feed (turned on, quiet hours): its own, or the results' for members' DMs. */
  readonly settingsOf: string;
  /**
   * Where its posts go: `channel` (the channel chosen for the kind: it runs only when the kind is on,
   * and a refusal pauses the kind) or `members` (each subscribed member's DMs: it runs for servers
   * with subscribers, and a refusal pauses only that member), or `server` (the server itself, e.g.
   * its scheduled events: it runs when the kind is on, needs no channel, and a refusal pauses the kind).
   */
  readonly audience: 'channel' | 'members' | 'server';
  /** With `members`: the servers it runs in (those with a member who wants DMs). */
  servers?(store: Store): Promise<readonly string[]>;
  /** How often it runs (ms, aligned to wall-clock slots), given what the club's calendar says about today (null: unknown). */
  cadence(day: RaceOutlook | null): number;
  /** What it asks Eventor for this run. Throws on Eventor trouble (the scheduler backs off or pauses). */
  fetch(ctx: FeedContext): Promise<Data>;
  /** Pure: the posts the fetched data makes, each with its ledger key, rendered (`src/render/`) and hashed. */
  items(data: Data, ctx: FeedContext): Item[];
  /** Puts each item in its place, exactly once through the poster (the kind's channel and the threads under its posts, or members' DMs). */
  deliver(items: readonly Item[], data: Data, ctx: FeedContext): Promise<FeedRunResult>;
  /** For `/feeds test`: the newest post it would make now (null: none); only kinds with a channel of their own. */
  latest?(ctx: PreviewContext): Promise<MessagePayload | null>;
}

/** Whether a user is in a server: `left` (Discord said Unknown Member), or `unknown` (Discord could not say). */
export type MemberStatus = 'present' | 'left' | 'unknown';

export interface MembershipCheck {
  /** `left` means the member has already been forgotten in that server; `unknown` changes nothing. */
  verify(guildId: string, userId: string): Promise<MemberStatus>;
}

/** One run of one channel kind for one server, as its run functions take it (tests call them directly). */
export interface FeedRunOptions<Options extends object = object> extends FeedRunScope {
  channelId: string;
  /** A role to mention in new posts; null: none. */
  roleId?: string | null;
  /** The server's options of this kind (defaults for what is absent). */
  options?: Partial<Options>;
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

/** What one run of a channel kind did. */
export interface FeedRun {
  /** The feed's first run for the server: the current items were recorded, nothing was posted. */
  seeded: boolean;
  outcomes: Array<{ itemKey: string; outcome: PostOutcome }>;
  /** Discord refused the channel: the run stopped; the scheduler should pause the feed and tell the admins. */
  paused: Extract<PostOutcome, { kind: 'paused' }> | null;
  /** The admins are told this now (once: the run decided it is news), e.g. pictures refused for want of Attach Files. */
  notice?: FeedNotice;
}

/** What a feed renders with: `/feeds test` gives a feed this to preview its newest item; a run's options have it too. */
export interface PreviewContext {
  /** The server's Eventor client (shared between servers of the same key). */
  client: EventorClient;
  organisationId: string;
  now: Date;
  language: Language;
  timeZone: string;
}

/**
 * What every run of a feed for one server works with, whichever shape its options take (the
 * scheduler's `FeedContext`, a channel kind's `FeedRunOptions`, members' `PersonalRunOptions`).
 */
export interface FeedRunScope extends PreviewContext {
  guildId: string;
  ledger: Ledger;
  target: PostTarget;
  /**
   * What the runs of the server's club share (`club-share.ts`): one entries request per run, the
   * events of the day kept for the hour. The scheduler gives it; without it a run asks for itself.
   */
  club?: ClubShare;
}

/** Only the run scope of a wider context, for building one kind of run options from another. */
export function runScopeOf(ctx: FeedRunScope): FeedRunScope {
  return {
    guildId: ctx.guildId,
    client: ctx.client,
    organisationId: ctx.organisationId,
    ledger: ctx.ledger,
    target: ctx.target,
    now: ctx.now,
    language: ctx.language,
    timeZone: ctx.timeZone,
    club: ctx.club,
  };
}

/**
 * What a run of a kind may tell its server's admins once (the run going on regardless): a catalogue
 * line with the kind's name (`{kind}`) and its channel (`{channel}`), which the kind declares
 * (`FeedKind.notices`).
 */
export type FeedNotice = {
  [K in MessageKey]: K extends `scheduler.${string}`
    ? [VariableName<K>] extends ['kind' | 'channel' | never]
      ? K
      : never
    : never;
}[MessageKey];

export function renderContext(ctx: PreviewContext): RenderContext {
  return { language: ctx.language, timeZone: ctx.timeZone, now: ctx.now, webUrl: ctx.client.instance.webUrl };
}

/** Each context's run options, made once for the run's three steps (fetch, items, deliver). */
const runOptionsOf = new WeakMap<FeedContext, FeedRunOptions<object>>();

/** A channel kind's run options from the scheduler's context (its settings' options are the kind's own). */
export function channelRunOptions<Options extends object = object>(ctx: FeedContext): FeedRunOptions<Options> {
  let options = runOptionsOf.get(ctx);
  if (!options) {
    options = makeChannelRunOptions(ctx);
    runOptionsOf.set(ctx, options);
  }
  return options as FeedRunOptions<Options>;
}

function makeChannelRunOptions(ctx: FeedContext): FeedRunOptions<object> {
  const { settings } = ctx;
  return {
    ...runScopeOf(ctx),
    channelId: settings.channelId ?? '',
    roleId: settings.roleId,
    options: settings.options,
    full: ctx.full,
    log: ctx.log,
  };
}

/** A poster's `paused` outcome as the pause reason the settings store keeps. */
function pauseReasonOf(outcome: Extract<PostOutcome, { kind: 'paused' }>): Exclude<PauseReason, 'admin'> {
  return outcome.reason === 'channel-gone' ? 'channel-missing' : 'no-permission';
}

/** What a channel kind's run did, as the scheduler reads it. */
export function runResultOf(run: FeedRun): FeedRunResult {
  const counts = { ...postCounts(run.outcomes), ...(run.notice ? { notice: run.notice } : {}) };
  if (run.paused) return { outcome: 'paused', reason: pauseReasonOf(run.paused), ...counts };
  const failed = run.outcomes.find((o) => o.outcome.kind === 'failed');
  if (failed && failed.outcome.kind === 'failed') return { outcome: 'failed', error: failed.outcome.error, ...counts };
  return { outcome: 'ok', ...counts };
}

/** How many of a run's outcomes sent a new message (a repost of a deleted one too), and how many edited one. */
export function postCounts(outcomes: ReadonlyArray<{ outcome: PostOutcome }>): { posts: number; edits: number } {
  let posts = 0;
  let edits = 0;
  for (const { outcome } of outcomes) {
    if (outcome.kind === 'posted' || outcome.kind === 'reposted') posts++;
    else if (outcome.kind === 'edited') edits++;
  }
  return { posts, edits };
}

/**
 * A kind with a channel of its own, from its steps in the shape of its run functions
 * (`FeedRunOptions` in, `FeedRun` out).
 */
export function channelFeed<Data, Item extends ContentItem, Options extends object = object>(spec: {
  name: string;
  cadence(day: RaceOutlook | null): number;
  fetch(options: FeedRunOptions<Options>): Promise<Data>;
  items(data: Data, options: FeedRunOptions<Options>): Item[];
  deliver(items: readonly Item[], data: Data, options: FeedRunOptions<Options>): Promise<FeedRun>;
  latest(ctx: PreviewContext): Promise<MessagePayload | null>;
}): ChannelFeed<Data, Item, Options> {
  return {
    name: spec.name,
    settingsOf: spec.name,
    audience: 'channel',
    cadence: spec.cadence,
    fetch: (ctx) => spec.fetch(channelRunOptions<Options>(ctx)),
    items: (data, ctx) => spec.items(data, channelRunOptions<Options>(ctx)),
    deliver: async (items, data, ctx) => runResultOf(await spec.deliver(items, data, channelRunOptions<Options>(ctx))),
    latest: spec.latest,
    run: async (options) => {
      const data = await spec.fetch(options);
      return spec.deliver(spec.items(data, options), data, options);
    },
  };
}

/** A channel feed, and one whole run of it for one server (fetch, items, deliver), as tests and `tick` drive it. */
export interface ChannelFeed<Data, Item, Options extends object = object> extends Feed<Data, Item> {
  run(options: FeedRunOptions<Options>): Promise<FeedRun>;
}
