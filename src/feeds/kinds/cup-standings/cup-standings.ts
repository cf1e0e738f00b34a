/**
 * The cups' standings posts (docs/admins.md#cup-standings-posts): one message per cup in the kind's
 * channel, edited in place after each race that counts for the cup, exactly once through the ledger
 * and the poster like every post (docs/decisions/exactly-once-ledger.md).
 *
 * - What it shows comes from the club's season (src/club/season.ts): the races' results asked once
 *   and kept, again only in the days after a race when corrections are likely. A run asks Eventor
 *   only for those.
 * - The first post does not wait: unlike news, the standings are the cup's state, and waiting for
 *   the next race that counts (a seed, then `followSeeded`) would leave the channel empty for weeks.
 *   So the first run posts each cup with a race counted, and a cup created later is posted the same
 *   way. A cup's posts are never summed up in one summary: each is kept up to date on its own.
 * - Only the cups admins chose (`/cup create|edit … post: True`). A cup no longer posted, or
 *   deleted, keeps its post as it last was, never edited again: it still shows the standings it
 *   had (members may want them), and `/cup delete` tells the admin where it is. Posted again, it
 *   edits the same message (the ledger key is the cup's).
 * - A server without cups to post asks Eventor nothing.
 * - Hourly: a race's results are in Eventor hours after it, and the season asks them again at most
 *   hourly anyway (`RESULTS_REFRESH_MS`).
 */
import { hourly } from '../../cadence.js';
import { type ContentItem, publishItems } from '../../delivery/publish.js';
import {
  channelRunOptions,
  type Feed,
  type FeedContext,
  type FeedRun,
  type FeedRunOptions,
  renderContext,
  runResultOf,
} from '../../feed.js';
import type { KindPreviewContext } from '../../kind.js';
import { type Cup, SeasonService, serverCups } from '../../../club/season.js';
import type { EventorClient } from '../../../eventor/client.js';
import { createLogger, type Logger } from '../../../log/logger.js';
import type { MessagePayload } from '../../../render/index.js';
import type { Store } from '../../../store/interfaces.js';
import {
  CUP_STANDINGS_FEED,
  cupOfKey,
  cupStandingsItems,
  cupStandingsPayload,
  type CupStandingsData,
  type CupStandingsItem,
} from './items.js';
import type { CupStandingsOptions } from './options.js';

/** No summary title: a cup's post is never folded into a summary (see above). */
const PUBLISHED = { name: CUP_STANDINGS_FEED } as const;

/** One run for one server: a channel kind's run options, and the store the cups and the season are kept in. */
export interface CupStandingsRunOptions extends FeedRunOptions<CupStandingsOptions> {
  store: Store;
}

/** What a run found: each cup with its standings now, and the cups whose post is out already. */
export interface CupStandingsRun {
  cups: CupStandingsData[];
  posted: ReadonlySet<number>;
}

let defaultLog: Logger | undefined;

/** Each cup's standings over the club's kept races, on the run's clock (Eventor asked only for races due). */
async function standingsOf(
  cups: readonly Cup[],
  scope: {
    client: EventorClient;
    organisationId: string;
    guildId: string;
    timeZone: string;
    now: Date;
    store: Store;
    log?: Logger | undefined;
  },
): Promise<CupStandingsData[]> {
  const log = scope.log ?? (defaultLog ??= createLogger({ level: 'warn' }));
  const season = new SeasonService({ store: scope.store, now: () => scope.now, log });
  const eventor = { client: scope.client, instance: scope.client.instance, organisationId: scope.organisationId };
  const guild = { id: scope.guildId, timeZone: scope.timeZone };
  const out: CupStandingsData[] = [];
  // One after another: the first asks what is due, the others find it kept.
  for (const cup of cups) out.push({ cup, result: await season.cupStandings(eventor, guild, cup.rules, log) });
  return out;
}

/** What a run fetches: the standings of the cups whose admins chose to have them posted (`/cup … post`). */
export async function fetchCupStandings(options: CupStandingsRunOptions): Promise<CupStandingsRun> {
  const cups = (await serverCups(options.store, options.guildId)).filter((cup) => cup.postStandings);
  const posted = new Set<number>();
  if (cups.length === 0) return { cups: [], posted };
  for (const row of await options.ledger.rows(options.guildId, CUP_STANDINGS_FEED)) {
    const id = cupOfKey(row.itemKey);
    if (id !== null && row.state !== 'seeded') posted.add(id);
  }
  return { cups: await standingsOf(cups, options), posted };
}

function itemsForRun(run: CupStandingsRun, options: CupStandingsRunOptions): CupStandingsItem[] {
  return cupStandingsItems(run.cups, renderContext(options), { roleId: options.roleId ?? null, posted: run.posted });
}

/** Every cup's post, new or changed; the feed's start is recorded without a seed, so the first run posts. */
export async function deliverCupStandings(
  items: readonly ContentItem[],
  _run: CupStandingsRun,
  options: CupStandingsRunOptions,
): Promise<FeedRun> {
  const { ledger, guildId, channelId } = options;
  if ((await ledger.feedStartedAt(guildId, CUP_STANDINGS_FEED)) === null)
    await ledger.seed(guildId, CUP_STANDINGS_FEED, channelId, []);
  return publishItems(options, PUBLISHED, items);
}

/** One whole run for one server (fetch, items, deliver), as tests drive it. */
export async function runCupStandingsFeed(options: CupStandingsRunOptions): Promise<FeedRun> {
  const run = await fetchCupStandings(options);
  return deliverCupStandings(itemsForRun(run, options), run, options);
}

/** A scheduler run's options: the channel kind's, and the store of its context. */
function runOptions(ctx: FeedContext): CupStandingsRunOptions {
  return { ...channelRunOptions<CupStandingsOptions>(ctx), store: ctx.store };
}

/**
 * For `/feeds test`: the post of the cup whose latest race that counts is the newest, among the
 * cups that are posted (among all, when none is yet: what a post would look like); null when no
 * race counts yet.
 */
export async function latestCupStandings(ctx: KindPreviewContext): Promise<MessagePayload | null> {
  const all = await serverCups(ctx.store, ctx.guildId);
  const posted = all.filter((cup) => cup.postStandings);
  const cups = posted.length > 0 ? posted : all;
  const counted = (await standingsOf(cups, ctx)).filter((data) => data.result.races.length > 0);
  const day = (data: CupStandingsData): string => data.result.races.at(-1)?.date ?? '';
  const newest = counted.sort((a, b) => day(b).localeCompare(day(a)))[0];
  return newest ? cupStandingsPayload(newest, renderContext(ctx)) : null;
}

/** The cups' standings posts: hourly. */
export const cupStandingsFeed: Feed<CupStandingsRun, CupStandingsItem> = {
  name: CUP_STANDINGS_FEED,
  settingsOf: CUP_STANDINGS_FEED,
  audience: 'channel',
  cadence: hourly,
  fetch: (ctx) => fetchCupStandings(runOptions(ctx)),
  items: (run, ctx) => itemsForRun(run, runOptions(ctx)),
  deliver: async (items, run, ctx) => runResultOf(await deliverCupStandings(items, run, runOptions(ctx))),
};
