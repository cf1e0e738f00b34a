/**
 * The cup standings post (docs/admins.md#cups): one message per cup, posted once its first race
 * counts and then edited in place as races are counted and corrected, exactly once through the
 * ledger like every post (docs/decisions/exactly-once-ledger.md). These are the kind's pure parts,
 * shaped as `Feed.items` takes them (src/feeds/feed.ts): the standings in (from the season
 * service's `cupStandings`, src/club/season.ts), keyed, rendered and hashed posts out. The kind is
 * not registered yet: its fetch, cadence, delivery and `/feeds` part are wired with the feeds'
 * rooms.
 */
import type { CupResult } from '../../../season/cup.js';
import { type CupView, type MessagePayload, type RenderContext, renderCupStandings } from '../../../render/index.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import type { ContentItem } from '../../feed.js';

/** The feed's name in the ledger (and its `/feeds` kind once registered). */
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
 * message (keys are stored: this spelling stays, docs/decisions/exactly-once-ledger.md).
 */
export function cupStandingsKey(cupId: number): string {
  return ledgerKey(CUP_STANDINGS_FEED, cupId);
}

/** The post of one cup: its standings as `/season cup` shows them. */
export function cupStandingsPayload(data: CupStandingsData, ctx: RenderContext): MessagePayload {
  return renderCupStandings(data.cup, data.result, ctx);
}

/**
 * One item per cup with at least one race counted (a cup with none has nothing to post yet), in the
 * cups' order. Pure: the same standings always give the same keys, payloads and hashes, so a run
 * that finds nothing new edits nothing.
 */
export function cupStandingsItems(cups: readonly CupStandingsData[], ctx: RenderContext): CupStandingsItem[] {
  return cups
    .filter((data) => data.result.races.length > 0)
    .map((data) => {
      const payload = cupStandingsPayload(data, ctx);
      return {
        itemKey: cupStandingsKey(data.cup.id),
        cupId: data.cup.id,
        races: data.result.races.length,
        payload,
        contentHash: contentHash(payload),
      };
    });
}
