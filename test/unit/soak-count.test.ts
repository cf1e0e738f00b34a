import { describe, expect, it } from 'vitest';
import { hiddenMarker, markerText, newNonce } from '../../src/feeds/delivery/poster.js';
import {
  countKinds,
  countPosts,
  eventIdInText,
  type ExpectedPost,
  KIND_CADENCE_MS,
  linkedEventId,
  markerOf,
  type SeenPost,
  snowflakeTime,
  type SoakKind,
  soakLine,
} from '../../harness/soak/count.js';
import { testNow } from '../support/clock.js';

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

  describe('every kind counted on its own, late after two of its own cadences', () => {
    const MINUTE = 60_000;
    const at = 10_000_000;
    const want = (kind: SoakKind, place: string, item: string): ExpectedPost => ({
      kind,
      channelId: place,
      eventId: item,
      publishedAt: at,
    });
    const made = (kind: SoakKind, id: string, place: string, item: string | null, afterMs: number): SeenPost => ({
      ...post(id, place, item),
      kind,
      createdAt: at + afterMs,
    });

    it("each kind's cadence is its production one: 5 minutes for results, DMs and the digest, 15 for start lists", () => {
      expect(KIND_CADENCE_MS).toEqual({
        results: 5 * MINUTE,
        startlists: 15 * MINUTE,
        reminders: 60 * MINUTE,
        digest: 5 * MINUTE,
        calendar: 6 * 60 * MINUTE,
        dms: 5 * MINUTE,
      });
    });

    it('start lists: one post per published start list and server; a second is a duplicate, 31 minutes is late', () => {
      const counts = countKinds(
        ['startlists'],
        [want('startlists', 's1', '30001'), want('startlists', 's2', '30001'), want('startlists', 's1', '30002')],
        [
          made('startlists', 'm1', 's1', '30001', 14 * MINUTE),
          made('startlists', 'm2', 's1', '30001', 16 * MINUTE),
          made('startlists', 'm3', 's2', '30001', 31 * MINUTE),
        ],
        { now: at + 40 * MINUTE },
      );
      expect(counts.kinds.startlists).toMatchObject({
        expected: 3,
        present: 2,
        duplicates: 1,
        lost: 1,
        late: 2,
        longestWaitMs: 40 * MINUTE,
      });
      expect(counts.total.problems).toContain('startlists lost: no post of event 30002 in channel s1');
      expect(counts.total.problems).toContain(
        'startlists late: event 30001 in channel s2 posted 1860 s after its results',
      );
    });

    it('reminders: two hours are in time, a reminder of an event nobody expected is unexpected', () => {
      const counts = countKinds(
        ['reminders'],
        [want('reminders', 'r1', '40001')],
        [made('reminders', 'm1', 'r1', '40001', 120 * MINUTE), made('reminders', 'm2', 'r1', '40002', MINUTE)],
      );
      expect(counts.kinds.reminders).toMatchObject({ expected: 1, present: 1, late: 0, unexpected: 1 });
      expect(counts.total.unexpected).toBe(1);
    });

    it("the digest: one a week per server, its item the week; a second run's digest is a duplicate", () => {
      const counts = countKinds(
        ['digest'],
        [want('digest', 'd1', '2026-W49'), want('digest', 'd2', '2026-W49')],
        [
          made('digest', 'm1', 'd1', '2026-W49', 4 * MINUTE),
          made('digest', 'm2', 'd2', '2026-W49', 11 * MINUTE),
          made('digest', 'm3', 'd2', '2026-W49', 12 * MINUTE),
        ],
      );
      expect(counts.kinds.digest).toMatchObject({ present: 2, duplicates: 1, late: 1, longestWaitMs: 11 * MINUTE });
    });

    it('scheduled events: one per race per server, read by the race they link to', () => {
      const counts = countKinds(
        ['calendar'],
        [want('calendar', 'g1', '50001'), want('calendar', 'g1', '50002')],
        [
          made('calendar', 'e1', 'g1', '50001', 6 * 60 * MINUTE),
          made('calendar', 'e2', 'g1', '50002', 12 * 60 * MINUTE + 1),
        ],
      );
      expect(counts.kinds.calendar).toMatchObject({ present: 2, duplicates: 0, lost: 0, late: 1 });
    });

    it("members' DMs: one per member and race, in the member's DM channel", () => {
      const counts = countKinds(
        ['results', 'dms'],
        [want('results', 'c1', '30001'), want('dms', 'dm1', '30001'), want('dms', 'dm2', '30001')],
        [
          made('results', 'm1', 'c1', '30001', MINUTE),
          made('dms', 'm2', 'dm1', '30001', 5 * MINUTE),
          made('dms', 'm3', 'dm1', '30001', 6 * MINUTE),
        ],
        { now: at + 8 * MINUTE },
      );
      expect(counts.kinds.dms).toMatchObject({ expected: 2, present: 1, duplicates: 1, lost: 1, late: 1 });
      expect(counts.kinds.results).toMatchObject({ expected: 1, present: 1, duplicates: 0, lost: 0 });
      expect(counts.total).toMatchObject({
        expected: 3,
        present: 2,
        duplicates: 1,
        lost: 1,
        longestWaitMs: 8 * MINUTE,
      });
      expect(soakLine(2, 10, counts)).toBe(
        'SOAK processes=2 kills=10 expected=3 present=2 duplicates=1 lost=1 longest_wait_s=480 late=1 ' +
          'results=1/1/0/0/60 dms=2/1/1/1/480',
      );
    });

    it('a message of a kind the soak did not turn on is unexpected', () => {
      const counts = countKinds(['results'], [], [made('startlists', 'm1', 's1', '30001', MINUTE)]);
      expect(counts.total.unexpected).toBe(1);
      expect(counts.total.problems).toEqual(['unexpected: startlists message m1, a kind the soak did not turn on']);
    });

    it('a race the calendar may make or not: absent is not lost, present is not unexpected, twice is a duplicate', () => {
      const maybe = (place: string, item: string): ExpectedPost => ({
        kind: 'calendar',
        channelId: place,
        eventId: item,
        optional: true,
      });
      const absent = countKinds(
        ['calendar'],
        [want('calendar', 'g1', '30001'), maybe('g1', '30002')],
        [made('calendar', 'e1', 'g1', '30001', MINUTE)],
      );
      expect(absent.kinds.calendar).toMatchObject({ expected: 1, present: 1, lost: 0, unexpected: 0, duplicates: 0 });
      const twice = countKinds(
        ['calendar'],
        [want('calendar', 'g1', '30001'), maybe('g1', '30002')],
        [
          made('calendar', 'e1', 'g1', '30001', MINUTE),
          made('calendar', 'e2', 'g1', '30002', MINUTE),
          made('calendar', 'e3', 'g1', '30002', 2 * MINUTE),
        ],
      );
      expect(twice.kinds.calendar).toMatchObject({ expected: 1, present: 1, lost: 0, unexpected: 0, duplicates: 1 });
      // Its wait is not measured: it was never due.
      expect(twice.kinds.calendar!.longestWaitMs).toBe(MINUTE);
    });

    it("a scheduled event's race is the Eventor link in its description; its time is its snowflake's", () => {
      expect(eventIdInText('Entries: 3\n[Eventor](https://eventor.orientering.se/Events/Show/30017)')).toBe('30017');
      expect(eventIdInText('https://eventor.example/Events/Show/123 and /Events/Show/456')).toBe('123');
      expect(eventIdInText('no link here')).toBeNull();
      expect(eventIdInText(null)).toBeNull();
      // A snowflake made at the test's instant decodes to it (Discord's epoch, 2015).
      const now = testNow().getTime();
      const id = String((BigInt(now - 1_420_070_400_000) << 22n) | (1n << 17n) | 5n);
      expect(snowflakeTime(id)).toBe(now);
      expect(snowflakeTime('not-an-id')).toBeNull();
    });

    it('kinds are not mixed in one count', () => {
      expect(() => countPosts([want('dms', 'dm1', '1')], [made('results', 'm1', 'c1', '1', 0)])).toThrow(/one kind/);
    });
  });
});
