/**
 * The cup standings post's pure parts (src/feeds/kinds/cup-standings/items.ts): one item per cup
 * with a race counted, one stable ledger key per cup so that every change edits the same message,
 * and a content hash that changes exactly when what the post shows changes.
 */
import { describe, expect, it } from 'vitest';
import {
  CUP_STANDINGS_FEED,
  cupOfKey,
  cupStandingsItems,
  cupStandingsKey,
} from '../../src/feeds/kinds/cup-standings/items.js';
import { cupStandings } from '../../src/season/cup.js';
import { seasonRaces } from '../../src/season/races.js';
import { CLUB, cupRules, renderContext, workedExample } from '../support/season-lists.js';

const ctx = renderContext('sv');
const rules = cupRules({ scoring: 'winner-ratio', best: 1 });
const races = (count: number) =>
  workedExample()
    .slice(0, count)
    .flatMap((l) => seasonRaces(l, { keep: (p) => p.organisation?.id === CLUB.id, complete: true }))
    .map((race) => ({ race, day: race.date!.slice(0, 10) }));
const data = (id: number, count: number) => ({
  cup: { id, name: `Cup ${id}`, rules },
  result: cupStandings(rules, races(count), () => true),
});

describe('the cup standings post', () => {
  it('one item per cup with a race counted, keyed by the cup for its whole life', () => {
    const items = cupStandingsItems([data(7, 1), data(8, 0)], ctx);
    expect(items.map((i) => [i.itemKey, i.cupId, i.races])).toEqual([['cup-standings:7', 7, 1]]);
    expect(cupStandingsKey(7)).toBe(`${CUP_STANDINGS_FEED}:7`);
    expect(items[0]!.payload.embeds![0]!.title).toBe('Cup 7 · ställning');
    expect(items[0]!.payload.allowedMentions).toEqual({ parse: [] });
  });

  it('the same standings give the same hash at any time; a counted race changes it, the key stays', () => {
    const [first] = cupStandingsItems([data(7, 1)], ctx);
    const [again] = cupStandingsItems([data(7, 1)], { ...ctx, now: new Date('2026-12-01T10:00:00Z') });
    expect(again!.contentHash).toBe(first!.contentHash);
    const [later] = cupStandingsItems([data(7, 2)], ctx);
    expect(later!.itemKey).toBe(first!.itemKey);
    expect(later!.contentHash).not.toBe(first!.contentHash);
    expect(later!.races).toBe(2);
  });

  it('a cup whose post is out keeps its item when no race counts any more; a role is mentioned, no one else', () => {
    expect(cupStandingsItems([data(8, 0)], ctx, { posted: new Set([8]) }).map((i) => i.itemKey)).toEqual([
      'cup-standings:8',
    ]);
    const [item] = cupStandingsItems([data(7, 1)], ctx, { roleId: '123456789012345678' });
    expect(item!.payload.content).toBe('<@&123456789012345678>');
    expect(item!.payload.allowedMentions).toEqual({ parse: [], roles: ['123456789012345678'] });
    expect(item!.contentHash).not.toBe(cupStandingsItems([data(7, 1)], ctx)[0]!.contentHash);
  });

  it('reads back the cup of its own keys only', () => {
    expect(cupOfKey(cupStandingsKey(42))).toBe(42);
    expect(cupOfKey('cup-standings:summary:abc')).toBeNull();
    expect(cupOfKey('results:42')).toBeNull();
  });
});
