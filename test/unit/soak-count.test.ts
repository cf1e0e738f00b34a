import { describe, expect, it } from 'vitest';
import { hiddenMarker, markerText, newNonce } from '../../src/feeds/delivery/poster.js';
import { countPosts, linkedEventId, markerOf, type SeenPost, soakLine } from '../../harness/soak/count.js';

/**
 * The soak's verdict (docs/decisions/soak.md): expected posts from the sandbox's data against the
 * messages read back. A crafted duplicate and a crafted loss must each be counted, or the soak's
 * 0/0 would prove nothing.
 */
const post = (id: string, channelId: string, eventId: string | null, marker: string | null = null): SeenPost => ({
  id,
  channelId,
  eventId,
  marker,
  edits: 0,
});

describe("the soak's count", () => {
  const expected = [
    { channelId: 'c1', eventId: '30001' },
    { channelId: 'c1', eventId: '30002' },
    { channelId: 'c2', eventId: '30001' },
  ];

  it('all present once: nothing duplicated or lost', () => {
    const count = countPosts(expected, [
      post('m1', 'c1', '30001'),
      post('m2', 'c1', '30002'),
      post('m3', 'c2', '30001'),
    ]);
    expect(count).toMatchObject({ expected: 3, present: 3, duplicates: 0, lost: 0, unexpected: 0 });
    expect(count.problems).toEqual([]);
    expect(soakLine(2, 10, count)).toBe(
      'SOAK processes=2 kills=10 expected=3 present=3 duplicates=0 lost=0 longest_wait_s=0 late=0',
    );
  });

  it('a post twice (with its own marker each) is a duplicate; a missing one is lost', () => {
    const count = countPosts(expected, [
      post('m1', 'c1', '30001', 'ebAAAAAAAA'),
      post('m4', 'c1', '30001', 'ebBBBBBBBB'),
      post('m2', 'c1', '30002'),
    ]);
    expect(count).toMatchObject({ expected: 3, present: 2, duplicates: 1, lost: 1, unexpected: 0 });
    expect(count.problems).toEqual([
      'lost: no post of event 30001 in channel c2',
      'duplicate: 2 messages (m1, m4) of event 30001 in channel c1, 2 markers',
    ]);
    expect(soakLine(3, 300, count)).toBe(
      'SOAK processes=3 kills=300 expected=3 present=2 duplicates=1 lost=1 longest_wait_s=0 late=0',
    );
  });

  it('the same event in another channel is no duplicate, but a post nobody expected is counted', () => {
    const count = countPosts(expected, [
      post('m1', 'c1', '30001'),
      post('m2', 'c1', '30002'),
      post('m3', 'c2', '30001'),
      post('m5', 'c2', '30002'),
      post('m6', 'c2', null),
    ]);
    expect(count).toMatchObject({ present: 3, duplicates: 0, lost: 0, unexpected: 2 });
  });

  it("reads the event from the post's link and the marker the poster writes", () => {
    expect(linkedEventId('https://eventor.orientering.se/Events/Show/30001')).toBe('30001');
    expect(linkedEventId('http://127.0.0.1:4000/Events/Show/30001?x=1')).toBe('30001');
    expect(linkedEventId('https://example.org/other/30001')).toBeNull();
    expect(linkedEventId(undefined)).toBeNull();
    const nonce = newNonce();
    // The marker as the poster writes it now, in characters members do not see, and as earlier versions did.
    expect(markerOf(`Resultat${hiddenMarker(nonce)}`, '')).toBe(markerText(nonce));
    expect(markerOf(null, 'Results: Höstsprinten', `Hej${hiddenMarker(nonce)}`)).toBe(markerText(nonce));
    expect(markerOf(`Resultat · ${markerText(nonce)}`, '')).toBe(markerText(nonce));
    expect(markerOf(null, `Hej\n-# ${markerText(nonce)}`)).toBe(markerText(nonce));
    expect(markerOf('Resultat', 'Hej')).toBeNull();
  });

  it('the longest wait from results to post, and each post later than the limit or still missing', () => {
    const out = [
      { channelId: 'c1', eventId: '30001', publishedAt: 1_000_000 },
      { channelId: 'c1', eventId: '30002', publishedAt: 1_000_000 },
      { channelId: 'c2', eventId: '30001', publishedAt: 1_000_000 },
    ];
    const at = (p: SeenPost, createdAt: number): SeenPost => ({ ...p, createdAt });
    const limit = { waitLimitMs: 600_000, now: 1_000_000 + 900_000 };
    const inTime = countPosts(
      out,
      [at(post('m1', 'c1', '30001'), 1_300_000), at(post('m2', 'c1', '30002'), 1_000_000 + 600_000)],
      limit,
    );
    // c2's post is still missing after 15 minutes: late, and the longest wait so far.
    expect(inTime).toMatchObject({ longestWaitMs: 900_000, late: 1, lost: 1 });
    const late = countPosts(
      out,
      [
        at(post('m1', 'c1', '30001'), 1_300_000),
        at(post('m2', 'c1', '30002'), 1_000_000 + 600_001),
        at(post('m3', 'c2', '30001'), 1_100_000),
        // A second message of one post does not shorten or lengthen its wait: the first counts.
        at(post('m4', 'c2', '30001'), 1_000_000 + 700_000),
      ],
      limit,
    );
    expect(late).toMatchObject({ longestWaitMs: 600_001, late: 1, duplicates: 1 });
    expect(late.problems).toContain('late: event 30002 in channel c1 posted 600 s after its results');
  });
});
