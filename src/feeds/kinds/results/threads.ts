/**
 * A thread per results post (`/feeds threads on`): opened on the post, holding the club's complete
 * results (every page, with split times when they fit), and edited when the results change.
 *
 * Exactly once, with the ledger and poster the posts use, under a feed name of its own
 * (RESULTS_THREADS_FEED, so the results feed's seeding, summaries and unfinished-post recovery never
 * see thread rows):
 * - `<itemKey>:thread`: the thread. Its intent is recorded (state `posting`) before the results post
 *   is sent, so a crash anywhere between the post and the thread still opens the thread on a later
 *   run; once opened, the row is `posted` with the thread's id as message id.
 * - `<itemKey>:page:<n>`: the thread's messages, through `Poster` with the thread as channel.
 * - `<itemKey>:graph:<class>`: after the pages, one split graph per class with club runners
 *   (docs/admins.md#split-pictures), edited with a new picture when the results are corrected. Made
 *   only on runs whose caller passes `graphs` (the club's results changed, or the thread is new), so
 *   an unchanged event costs no request for its complete results and no drawing.
 * Opening twice is harmless: Discord answers 160004 for a message that already has a thread, and a
 * thread started from a message has the message's id, so the thread is recovered, not doubled.
 * A refusal (no Create Public Threads / Send Messages in Threads) skips the thread and never pauses
 * the results feed: the post stays, the refusal is logged, and `/feeds show` counts the threads
 * still waiting. They are opened on a later run once the permission is back.
 */
import type { EventRace, ResultList } from '../../../eventor/answers.js';
import { type Language, t } from '../../../i18n/index.js';
import { createLogger, type Logger } from '../../../log/logger.js';
import {
  type MessagePayload,
  plainText,
  type RenderContext,
  renderClubResults,
  truncate,
} from '../../../render/index.js';
import { contentHash, ledgerKey, ledgerKeyPrefix, sha256 } from '../../delivery/keys.js';
import type { ItemRef, Ledger, LedgerRow } from '../../delivery/ledger.js';
import { classifyRefusal, newNonce, Poster, type PostOutcome, type PostTarget } from '../../delivery/poster.js';

export const RESULTS_THREADS_FEED = 'results-threads';
/** Discord's limit on thread names. */
export const THREAD_NAME_MAX = 100;
/**
 * A week, Discord's longest: results are edited for RESULTS_LOOKBACK_DAYS after the event at most,
 * so a thread opened on the results never needs an edit after it archived itself.
 */
export const THREAD_AUTO_ARCHIVE_MINUTES = 10_080;
/** Messages in one thread at most; beyond, the last page says how many more. */
export const THREAD_MAX_PAGES = 10;
/** How many of the top of each class the thread shows for context besides the club's own. */
export const THREAD_TOP = 3;

export interface ThreadItem {
  /** The results item's key. */
  itemKey: string;
  name: string;
  /** Rendered only for items that have a thread. */
  pages: () => MessagePayload[];
  /**
   * The thread's split graphs, asked for only once its pages are in (null: not to be had now, the
   * graphs stay as they are). Absent: the graphs are left alone this run.
   */
  graphs?: () => Promise<ThreadGraph[] | null>;
}

/** One class's graph message: drawn only when sent (`complete`), hashed from what it is drawn from. */
export interface ThreadGraph {
  key: string;
  payload: MessagePayload;
  contentHash: string;
  complete: () => Promise<MessagePayload>;
}

export type ThreadOutcome =
  | {
      itemKey: string;
      kind: 'opened';
      threadId: string;
      created: boolean;
      pages: PostOutcome['kind'][];
      graphs: PostOutcome['kind'][];
      picturesRefused?: true;
    }
  | {
      itemKey: string;
      kind: 'synced';
      threadId: string;
      pages: PostOutcome['kind'][];
      graphs: PostOutcome['kind'][];
      picturesRefused?: true;
    }
  /** Discord refused (permissions): nothing done now, tried again on a later run. */
  | { itemKey: string; kind: 'skipped'; reason: 'forbidden' | 'unsupported'; code: number | string | null }
  /** The post is not (or no longer) there: the results feed posts it first. */
  | { itemKey: string; kind: 'waiting' }
  | { itemKey: string; kind: 'failed'; error: unknown };

export interface ThreadHooks {
  /** Called after Discord opened the thread and before the ledger records it (tests crash here). */
  afterThread?: (itemKey: string, threadId: string) => void;
}

export interface ThreadRunOptions {
  guildId: string;
  /** The results channel (the threads' parent). */
  channelId: string;
  /** The results feed's ledger name (where the posts are recorded). */
  postFeed: string;
  ledger: Ledger;
  target: PostTarget;
  language: Language;
  log?: Logger;
  hooks?: ThreadHooks;
}

let defaultLog: Logger | null = null;
function logOf(options: ThreadRunOptions): Logger {
  // Callers without a logger (tests, tools) still leave a line.
  if (options.log) return options.log;
  defaultLog ??= createLogger({ level: 'warn' });
  return defaultLog;
}

/** A thread name from the event (and race): one line, at most 100 characters. */
export function threadName(eventName: string | null, raceLabel: string | null, language: Language): string {
  // Discord shows channel names as plain text: no markdown to escape, but bidi and control characters go.
  const event = plainText(eventName ?? '') || t(language, 'render.unknownEvent');
  const race = raceLabel === null ? '' : plainText(raceLabel);
  return truncate(race === '' ? event : `${event} – ${race}`, THREAD_NAME_MAX);
}

/** The thread name of a results item. */
export function resultsThreadName(
  list: ResultList,
  race: EventRace | null,
  raceIndex: number,
  language: Language,
): string {
  const name = list.event.event?.name ?? list.event.name ?? null;
  return threadName(name, race ? (race.name ?? String(raceIndex + 1)) : null, language);
}

/**
 * The club's complete results for the thread: every club member of every class with the top of
 * each class for context, with split tables when all of it fits in THREAD_MAX_PAGES messages (a
 * member reading the thread wants the splits; a big club at a big event gets the full list
 * without them rather than a list cut short).
 */
export function threadPages(list: ResultList, ctx: RenderContext, organisationId: string): MessagePayload[] {
  const options = { organisationId, top: THREAD_TOP };
  const withSplits = renderClubResults(list, ctx, { ...options, splits: true, maxPages: THREAD_MAX_PAGES + 1 });
  const pages =
    withSplits.length <= THREAD_MAX_PAGES
      ? withSplits
      : renderClubResults(list, ctx, { ...options, splits: false, maxPages: THREAD_MAX_PAGES });
  return pages.map((page) => ({ ...page, allowedMentions: { parse: [] } }));
}

const threadKey = (itemKey: string): string => ledgerKey(itemKey, 'thread');
const starterKey = (itemKey: string): string => ledgerKey(itemKey, 'race');
const pagePrefix = (itemKey: string): string => ledgerKeyPrefix(itemKey, 'page');
const pageKey = (itemKey: string, n: number): string => ledgerKey(itemKey, 'page', n);
const graphPrefix = (itemKey: string): string => ledgerKeyPrefix(itemKey, 'graph');
const graphKey = (itemKey: string, key: string): string => ledgerKey(itemKey, 'graph', key);

/**
 * Before the results are published: records the intent to open a thread for every item whose post
 * is about to be made (new, or begun and not recorded), so the thread follows the post whatever
 * happens in between. Posts made while threads were off get none.
 */
export async function intendThreads(
  options: Pick<ThreadRunOptions, 'guildId' | 'channelId' | 'postFeed' | 'ledger'>,
  items: ReadonlyArray<Pick<ThreadItem, 'itemKey' | 'name'>>,
): Promise<void> {
  const { ledger, guildId } = options;
  for (const item of items) {
    const post = await ledger.get({ guildId, feed: options.postFeed, itemKey: item.itemKey });
    if (post !== null && post.state !== 'posting') continue;
    const ref: ItemRef = { guildId, feed: RESULTS_THREADS_FEED, itemKey: threadKey(item.itemKey) };
    if ((await ledger.get(ref)) === null) await ledger.intend(ref, options.channelId, sha256(item.name), newNonce());
  }
}

/** The placeholder a page becomes when the results shrink to fewer pages (Discord keeps the message). */
function removedPage(language: Language): MessagePayload {
  return { content: t(language, 'feedpost.thread.pageRemoved'), embeds: [], allowedMentions: { parse: [] } };
}

/** The placeholder a graph becomes when its class has no club runner with split times any more. */
function removedGraph(language: Language): MessagePayload {
  return {
    content: t(language, 'feedpost.thread.graphRemoved'),
    embeds: [],
    allowedMentions: { parse: [] },
    pictures: [],
  };
}

/** Whether a thread's graphs should be made this run: a graph begun and not recorded must be finished. */
export async function graphsUnfinished(ledger: Ledger, guildId: string, itemKey: string): Promise<boolean> {
  return (await ledger.rows(guildId, RESULTS_THREADS_FEED)).some(
    (row) => row.itemKey.startsWith(graphPrefix(itemKey)) && row.state === 'posting',
  );
}

/**
 * After the results are published: opens the threads intended and keeps every open thread's pages
 * up to date. Never throws for Discord's refusals; the outcomes say what happened per item.
 */
export async function syncThreads(options: ThreadRunOptions, items: readonly ThreadItem[]): Promise<ThreadOutcome[]> {
  const run = new ThreadSync(options);
  const outcomes: ThreadOutcome[] = [];
  for (const item of items) {
    const outcome = await run.sync(item);
    if (outcome !== null) outcomes.push(outcome);
  }
  return outcomes;
}

type Refused = { code: number | string | null };
/** A graph to send: the class's picture, or the placeholder of a class that has none any more. */
type GraphWork = Omit<ThreadGraph, 'key' | 'complete'> & { itemKey: string; complete?: ThreadGraph['complete'] };
/** What the messages of a thread came to: every outcome, or where they stopped. */
interface MessagesSent {
  outcomes: PostOutcome['kind'][];
  stopped: ThreadOutcome | null;
  picturesRefused: boolean;
}

/** One run over a server's threads: what a refusal or the ledger's rows mean for the threads after. */
class ThreadSync {
  private readonly log: Logger;
  private readonly poster: Poster;
  // One refusal is enough per run: the permission is the channel's, the other threads would get the same.
  private cannotOpen: Refused | null = null;
  private cannotPost: Refused | null = null;
  /** The server's page and graph rows, read once until something changes them. */
  private messageRows: LedgerRow[] | null = null;

  constructor(private readonly options: ThreadRunOptions) {
    this.log = logOf(options);
    this.poster = new Poster(options.ledger, options.target);
  }

  /** Opens or updates one item's thread under its claim; null for an item that has no thread. */
  async sync(item: ThreadItem): Promise<ThreadOutcome | null> {
    const { ledger, guildId } = this.options;
    const threadRef: ItemRef = { guildId, feed: RESULTS_THREADS_FEED, itemKey: threadKey(item.itemKey) };
    if ((await ledger.get(threadRef)) === null) return null;
    // Opening the thread and re-intending its pages under a claim: a second process opening it
    // too (Discord answers 160004) would otherwise reset pages the first one already posted.
    if (!(await ledger.claim(threadRef))) return { itemKey: item.itemKey, kind: 'waiting' };
    try {
      return await this.syncClaimed(item, threadRef);
    } finally {
      await ledger.release(threadRef);
    }
  }

  private async syncClaimed(item: ThreadItem, threadRef: ItemRef): Promise<ThreadOutcome> {
    const { ledger, guildId, postFeed, channelId } = this.options;
    let thread = (await ledger.get(threadRef))!;
    const post = await ledger.get({ guildId, feed: postFeed, itemKey: item.itemKey });
    if (post?.state !== 'posted' || post.messageId === null) return { itemKey: item.itemKey, kind: 'waiting' };
    if (
      thread.state === 'posted' &&
      thread.messageId !== post.messageId &&
      thread.messageId !== (await raceThreadStarter(ledger, guildId, item.itemKey))
    ) {
      // The post was made anew (someone deleted it): the thread starts over on the new post.
      await ledger.intend(threadRef, channelId, sha256(item.name), newNonce());
      thread = (await ledger.get(threadRef))!;
    }
    let opened: { threadId: string; created: boolean } | null = null;
    if (thread.state !== 'posted') {
      const opening = await this.open(item, threadRef, post.messageId);
      if ('kind' in opening) return opening;
      opened = opening;
      thread = (await ledger.get(threadRef))!;
    }
    const threadId = thread.messageId!;
    if (this.cannotPost) {
      return { itemKey: item.itemKey, kind: 'skipped', reason: 'forbidden', code: this.cannotPost.code };
    }
    const pages = await this.sendPages(item, threadRef, threadId);
    const graphs =
      pages.stopped === null && item.graphs
        ? await this.sendGraphs(item, threadRef, threadId, await item.graphs())
        : { outcomes: [], stopped: null, picturesRefused: false };
    const stopped = pages.stopped ?? graphs.stopped;
    if (stopped) return stopped;
    const refused = graphs.picturesRefused ? { picturesRefused: true as const } : {};
    const sent = { threadId, pages: pages.outcomes, graphs: graphs.outcomes, ...refused };
    return opened
      ? { itemKey: item.itemKey, kind: 'opened', created: opened.created, ...sent }
      : { itemKey: item.itemKey, kind: 'synced', ...sent };
  }

  /**
   * Opens the item's thread on its post and records it; the outcome instead when Discord refused or
   * the post is gone. A thread opened now holds none of the pages recorded before (in a thread since
   * deleted, or under a post since made anew): they are posted afresh, each still exactly once.
   */
  private async open(
    item: ThreadItem,
    threadRef: ItemRef,
    postId: string,
  ): Promise<{ threadId: string; created: boolean } | ThreadOutcome> {
    const { ledger, guildId, target, channelId } = this.options;
    if (this.cannotOpen) {
      return { itemKey: item.itemKey, kind: 'skipped', reason: 'forbidden', code: this.cannotOpen.code };
    }
    if (!target.startThread) return { itemKey: item.itemKey, kind: 'skipped', reason: 'unsupported', code: null };
    let opened: { threadId: string; created: boolean };
    try {
      opened = await target.startThread(channelId, postId, {
        name: item.name,
        autoArchiveMinutes: THREAD_AUTO_ARCHIVE_MINUTES,
      });
    } catch (error) {
      const refusal = classifyRefusal(error);
      if (refusal?.kind === 'paused' && refusal.reason === 'forbidden') {
        const { code } = refusal;
        this.cannotOpen = { code };
        this.log.warn('results thread not opened: Discord refused (the post stays; retried on a later run)', {
          guildId,
          channelId,
          itemKey: item.itemKey,
          code,
        });
        return { itemKey: item.itemKey, kind: 'skipped', reason: 'forbidden', code };
      }
      // The post or its channel is gone: the results feed posts it anew first.
      if (refusal !== null) return { itemKey: item.itemKey, kind: 'waiting' };
      this.log.warn('results thread not opened', { guildId, channelId, itemKey: item.itemKey, error });
      return { itemKey: item.itemKey, kind: 'failed', error };
    }
    this.options.hooks?.afterThread?.(item.itemKey, opened.threadId);
    await ledger.posted(threadRef, opened.threadId, sha256(item.name));
    const recorded = [
      ...(await this.rowsUnder(pagePrefix(item.itemKey))),
      ...(await this.rowsUnder(graphPrefix(item.itemKey))),
    ];
    for (const row of recorded) {
      await ledger.intend(
        { guildId, feed: RESULTS_THREADS_FEED, itemKey: row.itemKey },
        opened.threadId,
        row.contentHash,
        newNonce(),
      );
    }
    this.messageRows = null;
    return opened;
  }

  /** The thread's pages in order, a placeholder for each page the results no longer fill. */
  private async sendPages(item: ThreadItem, threadRef: ItemRef, threadId: string): Promise<MessagesSent> {
    const pages = item.pages();
    const count = Math.max(pages.length, (await this.rowsUnder(pagePrefix(item.itemKey))).length);
    const sent: MessagesSent = { outcomes: [], stopped: null, picturesRefused: false };
    for (let n = 1; n <= count; n += 1) {
      const payload = pages[n - 1] ?? removedPage(this.options.language);
      const work = { itemKey: pageKey(item.itemKey, n), payload, contentHash: contentHash(payload) };
      // Pages stay in order: after a failure the rest waits for the next run.
      if (!(await this.send(item, threadRef, threadId, work, sent, { page: n }))) break;
    }
    this.messageRows = null;
    return sent;
  }

  /**
   * The thread's graphs (null: not to be had now, left as they are), and a placeholder for each
   * class that had one and has none any more.
   */
  private async sendGraphs(
    item: ThreadItem,
    threadRef: ItemRef,
    threadId: string,
    graphs: ThreadGraph[] | null,
  ): Promise<MessagesSent> {
    const sent: MessagesSent = { outcomes: [], stopped: null, picturesRefused: false };
    if (graphs === null) return sent;
    const current = new Set(graphs.map((g) => graphKey(item.itemKey, g.key)));
    const gone = (await this.rowsUnder(graphPrefix(item.itemKey))).filter(
      (row) => !current.has(row.itemKey) && row.state !== 'seeded',
    );
    const removed = removedGraph(this.options.language);
    const work: GraphWork[] = [
      ...graphs.map((g) => ({ ...g, itemKey: graphKey(item.itemKey, g.key) })),
      ...gone.map((row) => ({ itemKey: row.itemKey, payload: removed, contentHash: contentHash(removed) })),
    ];
    for (const graph of work) if (!(await this.send(item, threadRef, threadId, graph, sent, {}))) break;
    this.messageRows = null;
    return sent;
  }

  /** Sends one page or graph exactly once; false when the thread's other messages must wait. */
  private async send(
    item: ThreadItem,
    threadRef: ItemRef,
    threadId: string,
    work: GraphWork,
    sent: MessagesSent,
    detail: { page?: number },
  ): Promise<boolean> {
    const outcome = await this.poster.publish({
      guildId: this.options.guildId,
      feed: RESULTS_THREADS_FEED,
      itemKey: work.itemKey,
      channelId: threadId,
      payload: work.payload,
      contentHash: work.contentHash,
      ...(work.complete ? { complete: work.complete } : {}),
    });
    sent.outcomes.push(outcome.kind);
    if ('picturesRefused' in outcome && outcome.picturesRefused) sent.picturesRefused = true;
    sent.stopped = await this.stopFor(item, threadRef, threadId, outcome, detail);
    if (sent.stopped?.kind === 'skipped') this.cannotPost = { code: sent.stopped.code };
    return sent.stopped === null;
  }

  /**
   * What a page's or graph's outcome means for the rest of the thread (null: go on): a deleted
   * thread is opened again on the next run, with every message; a refusal (`skipped`) skips the
   * server's other threads this run (the post stays); another process posting it, or a failure,
   * leaves the rest, in order, to a later run.
   */
  private async stopFor(
    item: ThreadItem,
    threadRef: ItemRef,
    threadId: string,
    outcome: PostOutcome,
    detail: { page?: number },
  ): Promise<ThreadOutcome | null> {
    const { guildId } = this.options;
    const what = detail.page === undefined ? 'graph' : 'page';
    if (outcome.kind === 'paused' && outcome.reason === 'channel-gone') {
      await this.options.ledger.intend(threadRef, this.options.channelId, sha256(item.name), newNonce());
      return { itemKey: item.itemKey, kind: 'waiting' };
    }
    if (outcome.kind === 'paused') {
      this.log.warn(`results thread ${what} not posted: Discord refused (the post stays; retried on a later run)`, {
        guildId,
        threadId,
        itemKey: item.itemKey,
        code: outcome.code,
      });
      return { itemKey: item.itemKey, kind: 'skipped', reason: 'forbidden', code: outcome.code };
    }
    if (outcome.kind === 'busy') return { itemKey: item.itemKey, kind: 'waiting' };
    if (outcome.kind === 'failed') {
      this.log.warn(`results thread ${what} not posted`, {
        guildId,
        threadId,
        itemKey: item.itemKey,
        ...detail,
        error: outcome.error,
      });
      return { itemKey: item.itemKey, kind: 'failed', error: outcome.error };
    }
    return null;
  }

  /** The server's thread messages whose keys start with `prefix`, the rows read once per change. */
  private async rowsUnder(prefix: string): Promise<LedgerRow[]> {
    this.messageRows ??= (await this.options.ledger.rows(this.options.guildId, RESULTS_THREADS_FEED)).filter(
      (row) => row.itemKey.includes(':page:') || row.itemKey.includes(':graph:'),
    );
    return this.messageRows.filter((row) => row.itemKey.startsWith(prefix));
  }
}

/**
 * Threads intended for posts that exist but not opened yet (Discord refused, or a run was cut
 * short): what `/feeds show` counts.
 */
export async function threadsWaiting(ledger: Ledger, guildId: string, postFeed: string): Promise<number> {
  let waiting = 0;
  for (const row of await ledger.rows(guildId, RESULTS_THREADS_FEED)) {
    if (row.state !== 'posting' || !row.itemKey.endsWith(':thread')) continue;
    const post = await ledger.get({ guildId, feed: postFeed, itemKey: row.itemKey.slice(0, -':thread'.length) });
    if (post?.state === 'posted') waiting += 1;
  }
  return waiting;
}

/** The id of the results item's thread when it is open (by the results, or for the race's live board). */
export async function raceThreadId(ledger: Ledger, guildId: string, itemKey: string): Promise<string | null> {
  const thread = await ledger.get({ guildId, feed: RESULTS_THREADS_FEED, itemKey: threadKey(itemKey) });
  return thread?.state === 'posted' ? thread.messageId : null;
}

/**
 * The message a race's thread was opened on before its results were out (`openRaceThread`), if
 * any: the results' thread stays there rather than starting over on the results post.
 */
async function raceThreadStarter(ledger: Ledger, guildId: string, itemKey: string): Promise<string | null> {
  const starter = await ledger.get({ guildId, feed: RESULTS_THREADS_FEED, itemKey: starterKey(itemKey) });
  return starter?.state === 'posted' ? starter.messageId : null;
}

export interface RaceThreadOptions extends Pick<ThreadRunOptions, 'guildId' | 'channelId' | 'ledger' | 'target'> {
  /** The results item the race's results will be (`results:<eventId>` or `results:<eventId>:<raceId>`). */
  itemKey: string;
  /** The thread's name, as the results would name it (`threadName`). */
  name: string;
  /** The short message the thread is opened on, in the results channel. */
  starter: MessagePayload;
}

export type RaceThread =
  | { kind: 'open'; threadId: string }
  /** Another process is opening it, or Discord failed: asked again on a later turn. */
  | { kind: 'waiting' }
  /** Discord refused (no Create Public Threads, Send Messages, or the channel is gone). */
  | { kind: 'refused'; code: number | string | null };

/**
 * The race's thread in the results channel, opened before its results are out (the live board,
 * docs/admins.md#live-results-on-race-day): the one the results kind keeps for the race when it is
 * open already; else opened now on a short starter message, and recorded as the results' thread,
 * so the results posted later go into the same thread (`syncClaimed` keeps it). Exactly once, as
 * the results' threads: under the thread's claim, the starter through the poster, and a thread
 * already made for the starter (a crash before it was recorded) recovered by Discord's 160004.
 */
export async function openRaceThread(options: RaceThreadOptions): Promise<RaceThread> {
  const { ledger, guildId, channelId, target } = options;
  const threadRef: ItemRef = { guildId, feed: RESULTS_THREADS_FEED, itemKey: threadKey(options.itemKey) };
  const known = await ledger.get(threadRef);
  if (known?.state === 'posted' && known.messageId !== null) return { kind: 'open', threadId: known.messageId };
  if (!target.startThread) return { kind: 'refused', code: null };
  if (!(await ledger.claim(threadRef))) return { kind: 'waiting' };
  try {
    const thread = await ledger.get(threadRef);
    if (thread?.state === 'posted' && thread.messageId !== null) return { kind: 'open', threadId: thread.messageId };
    const starterRef: ItemRef = { guildId, feed: RESULTS_THREADS_FEED, itemKey: starterKey(options.itemKey) };
    const outcome = await new Poster(ledger, target).publish({
      ...starterRef,
      channelId,
      payload: { ...options.starter, allowedMentions: { parse: [] } },
      contentHash: sha256(options.name),
    });
    if (outcome.kind === 'paused') return { kind: 'refused', code: outcome.code };
    const starter = await ledger.get(starterRef);
    if (starter?.state !== 'posted' || starter.messageId === null) return { kind: 'waiting' };
    let opened: { threadId: string; created: boolean };
    try {
      opened = await target.startThread(starter.channelId, starter.messageId, {
        name: options.name,
        autoArchiveMinutes: THREAD_AUTO_ARCHIVE_MINUTES,
      });
    } catch (error) {
      const refusal = classifyRefusal(error);
      if (refusal?.kind === 'paused') return { kind: 'refused', code: refusal.code };
      // The starter was deleted: it is posted anew on a later turn.
      if (refusal?.kind === 'unknown-message')
        await ledger.intend(starterRef, channelId, sha256(options.name), newNonce());
      return { kind: 'waiting' };
    }
    if (thread === null) await ledger.intend(threadRef, channelId, sha256(options.name), newNonce());
    await ledger.posted(threadRef, opened.threadId, sha256(options.name));
    return { kind: 'open', threadId: opened.threadId };
  } finally {
    await ledger.release(threadRef);
  }
}
