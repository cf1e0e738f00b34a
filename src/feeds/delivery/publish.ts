/**
 * Publishing a channel kind's items: seeding on the feed's first run, then every item through the
 * exactly-once `Poster`, with one summary post instead of a burst; and the role mention new posts
 * carry.
 */
import { type KeyWithVariables, t } from '../../i18n/index.js';
import { discordTimestamp, fitPayload, type MessagePayload, type RenderContext, truncate } from '../../render/index.js';
import { type ContentItem, type FeedRun, type FeedRunOptions, renderContext } from '../feed.js';
import { contentHash, ledgerKey, sha256 } from './keys.js';
import { Poster } from './poster.js';

export type { ContentItem } from '../feed.js';

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

/** More new items than this in one run are announced by one summary post instead of a burst. */
export const MAX_NEW_POSTS_PER_RUN = 5;
/** A feed whose last run ended longer ago than this was away: its summary says since when. */
export const AWAY_MS = 3 * 3_600_000;
/** Lines a summary lists before "and N more". */
const SUMMARY_LINES = 15;

function itemTitle(payload: MessagePayload): { title: string; url: string | null } {
  const embed = payload.embeds?.[0];
  const fromContent = (payload.content ?? '')
    .replace(/<@&\d+>\s*/g, '')
    .split('\n')[0]!
    .trim();
  return { title: embed?.title ?? (fromContent || '…'), url: embed?.url ?? null };
}

/**
 * One post standing in for `items` (pure): their titles with links, "and N more", and since when
 * the bot was away when it was. Its key comes from the items' keys, so a run repeated after a
 * crash makes the same summary.
 */
function summaryItem(
  feed: PublishedFeed & { summaryTitle: KeyWithVariables<'count'> },
  items: readonly ContentItem[],
  ctx: RenderContext,
  awaySince: Date | null,
  roleId: string | null,
): ContentItem {
  const { language } = ctx;
  const keys = items.map((i) => i.itemKey).sort();
  const titleKey = feed.summaryTitle;
  const lines = items.slice(0, SUMMARY_LINES).map((item) => {
    const { title, url } = itemTitle(item.payload);
    const name = truncate(title, 150);
    return url ? `• [${name}](${url})` : `• ${name}`;
  });
  if (items.length > SUMMARY_LINES)
    lines.push(t(language, 'scheduler.summary.more', { count: items.length - SUMMARY_LINES }));
  const intro = awaySince
    ? `${t(language, 'scheduler.summary.away', { since: discordTimestamp(awaySince.toISOString(), 'f') })}\n\n`
    : '';
  const payload = withRoleMention(
    fitPayload({
      embeds: [
        {
          title: truncate(t(language, titleKey, { count: items.length }), 256),
          description: intro + lines.join('\n'),
          footer: { text: t(language, 'scheduler.summary.footer', { count: items.length }) },
        },
      ],
    }),
    roleId,
  );
  const itemKey = ledgerKey(feed.name, 'summary', sha256(keys.join('\n')).slice(0, 16));
  return { itemKey, payload, contentHash: contentHash(payload) };
}

/**
 * Seeds on the feed's first run for the server (the current items are recorded, nothing is posted);
 * later runs first finish posts an earlier run began and did not record, then publish every item
 * (new ones posted, changed ones edited), stopping at the first refusal. More than
 * MAX_NEW_POSTS_PER_RUN new items (after downtime, or a district publishing a season at once) are
 * announced by one summary post instead, and count as posted (unless the feed has no summary). `extraSeed` goes into the seed too
 * (e.g. a cursor row).
 */
export async function publishItems(
  options: FeedRunOptions,
  published: PublishedFeed,
  items: readonly ContentItem[],
  extraSeed: ReadonlyArray<{ itemKey: string; contentHash: string }> = [],
): Promise<FeedRun> {
  const { ledger, guildId, channelId } = options;
  const feed = published.name;
  if ((await ledger.feedStartedAt(guildId, feed)) === null) {
    await ledger.seed(guildId, feed, channelId, [...items, ...extraSeed]);
    await ledger.ranAt(guildId, feed, options.now);
    return { seeded: true, outcomes: [], paused: null };
  }
  const poster = new Poster(ledger, options.target, options.hooks);
  const outcomes: FeedRun['outcomes'] = [];
  const publishing = new Set(items.map((i) => i.itemKey));
  for (const finished of await poster.finishUnfinished(guildId, feed, publishing, channelId)) {
    outcomes.push(finished);
    if (finished.outcome.kind === 'paused') return { seeded: false, outcomes, paused: finished.outcome };
  }
  const fresh: ContentItem[] = [];
  for (const item of items) if ((await ledger.get({ guildId, feed, itemKey: item.itemKey })) === null) fresh.push(item);
  let rest = items;
  const { summaryTitle } = published;
  if (summaryTitle !== undefined && fresh.length > MAX_NEW_POSTS_PER_RUN) {
    const lastRun = await ledger.lastRunAt(guildId, feed);
    const away = lastRun !== null && options.now.getTime() - Date.parse(lastRun) > AWAY_MS ? new Date(lastRun) : null;
    const summary = summaryItem(
      { ...published, summaryTitle },
      fresh,
      renderContext(options),
      away,
      options.roleId ?? null,
    );
    const outcome = await poster.publishCovering({ guildId, feed, channelId, ...summary }, fresh);
    outcomes.push({ itemKey: summary.itemKey, outcome });
    if (outcome.kind === 'paused') return { seeded: false, outcomes, paused: outcome };
    if (outcome.kind === 'failed') return { seeded: false, outcomes, paused: null };
    const covered = new Set(fresh.map((i) => i.itemKey));
    rest = items.filter((item) => !covered.has(item.itemKey));
  }
  for (const item of rest) {
    const outcome = await poster.publish({
      guildId,
      feed,
      itemKey: item.itemKey,
      channelId,
      payload: item.payload,
      contentHash: item.contentHash,
      ...(item.followSeeded ? { followSeeded: true } : {}),
    });
    outcomes.push({ itemKey: item.itemKey, outcome });
    if (outcome.kind === 'paused') return { seeded: false, outcomes, paused: outcome };
  }
  if (outcomes.every((o) => o.outcome.kind !== 'failed')) await ledger.ranAt(guildId, feed, options.now);
  return { seeded: false, outcomes, paused: null };
}

/** The delivery of a kind whose items all go to its channel as they are. */
export function publishTo(
  feed: PublishedFeed,
): (items: readonly ContentItem[], data: unknown, options: FeedRunOptions) => Promise<FeedRun> {
  return (items, _data, options) => publishItems(options, feed, items);
}

/**
 * A feed as its posts are published: its ledger name, and the title of a summary of `{count}` of its
 * items; without one, every item is its own post however many come at once (a kind whose few posts
 * are each kept up to date, like a cup's standings, and which a summary would leave unposted).
 */
export interface PublishedFeed {
  name: string;
  summaryTitle?: KeyWithVariables<'count'>;
}
