/**
 * The cup standings post's pure parts (docs/admins.md#cup-standings-posts): one message per cup,
 * kept up to date by editing it as races are counted and corrected, exactly once through the
 * ledger like every post (docs/decisions/exactly-once-ledger.md). The standings in (the season's
 * `cupStandings`, src/club/season.ts), keyed, rendered and hashed posts out, as `Feed.items` takes
 * them (src/feeds/feed.ts).
 */
import type { CupResult } from '../../../season/cup.js';
import { type CupView, type MessagePayload, type RenderContext, renderCupStandings } from '../../../render/index.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import { withRoleMention } from '../../delivery/publish.js';
import type { ContentItem } from '../../feed.js';

/** The kind's name in `/feeds`, the store and the ledger. */
export const CUP_STANDINGS_FEED = 'cup-standings' as const;

/** A cup with its standings now, as the run fetched them. */
export interface CupStandingsData {
  cup: CupView & { id: number };
  result: CupResult;
}

export interface CupStandingsItem extends ContentItem {
  cupId: number;
  /** How many races counted when it was rendered: a new one is what the post's edit tells. */
  races: number;
}

/**
 * The ledger key of a cup's post: one per cup for its whole life, so every change edits the same
 * message (keys are stored: this spelling stays, docs/decisions/exactly-once-ledger.md). Cup ids are
 * never reused (both databases count them up), so a new cup never takes over a deleted one's post.
 */
export function cupStandingsKey(cupId: number): string {
  return ledgerKey(CUP_STANDINGS_FEED, cupId);
}

/** The cup of a key of this kind, or null (a key of another shape). */
export function cupOfKey(itemKey: string): number | null {
  const match = /^cup-standings:(\d{1,15})$/.exec(itemKey);
  return match ? Number(match[1]) : null;
}

/** The post of one cup: its standings as `/season cup` shows them, mentioning the kind's role if it has one. */
export function cupStandingsPayload(
  data: CupStandingsData,
  ctx: RenderContext,
  roleId: string | null = null,
): MessagePayload {
  return withRoleMention(renderCupStandings(data.cup, data.result, ctx), roleId);
}

/**
 * One item per cup with at least one race counted (a cup with none has nothing to post yet), or
 * whose post is out already (`posted`: a cup changed so that no race counts any more says so in its
 * post, rather than leaving standings up that no longer hold), in the cups' order. Pure: the same
 * standings always give the same keys, payloads and hashes, so a run that finds nothing new edits
 * nothing.
 */
export function cupStandingsItems(
  cups: readonly CupStandingsData[],
  ctx: RenderContext,
  options: { roleId?: string | null; posted?: ReadonlySet<number> } = {},
): CupStandingsItem[] {
  return cups
    .filter((data) => data.result.races.length > 0 || (options.posted?.has(data.cup.id) ?? false))
    .map((data) => {
      const payload = cupStandingsPayload(data, ctx, options.roleId ?? null);
      return {
        itemKey: cupStandingsKey(data.cup.id),
        cupId: data.cup.id,
        races: data.result.races.length,
        payload,
        contentHash: contentHash(payload),
      };
    });
}
