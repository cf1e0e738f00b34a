/**
 * The soak's verdict (docs/decisions/soak.md): the posts the race weekend should have made, worked
 * out from the sandbox's data, against the messages the sandbox Discord holds. Pure, so that a
 * crafted duplicate and a crafted loss can be counted in a unit test.
 */
import { FREQUENT_MS, RARE_MS, STARTLISTS_CLOSE_MS } from '../../src/feeds/cadence.js';
import { markerIn } from '../../src/feeds/delivery/poster.js';
import { CALENDAR_CADENCE_MS } from '../../src/feeds/kinds/calendar/calendar.js';

/**
 * What the soak can count: the results posts, the start lists, the entry-deadline reminders, the
 * weekly digest, the races as scheduled events (`calendar`) and members' DMs (`dms`).
 */
export const SOAK_KINDS = ['results', 'startlists', 'reminders', 'digest', 'calendar', 'dms'] as const;
export type SoakKind = (typeof SOAK_KINDS)[number];

/**
 * Each kind's production cadence on a race day (src/feeds/cadence.ts and the kinds' feeds): a post
 * later than two of these after its news came out is late.
 */
export const KIND_CADENCE_MS: Readonly<Record<SoakKind, number>> = {
  results: FREQUENT_MS,
  startlists: STARTLISTS_CLOSE_MS,
  reminders: RARE_MS,
  digest: FREQUENT_MS,
  calendar: CALENDAR_CADENCE_MS,
  dms: FREQUENT_MS,
};

/**
 * One post the soak expects: in this place (a channel, a member's DM channel, or the server for a
 * scheduled event), of this item (an event id; for the digest, the week).
 */
export interface ExpectedPost {
  /** Results when not given. */
  kind?: SoakKind;
  channelId: string;
  eventId: string;
  /** When its results came out in the sandbox Eventor (ms), for the wait to its post. */
  publishedAt?: number;
  /**
   * Neither expected nor unexpected: an item the bot may rightly make or not (a race at the edge of
   * the calendar's window). Not counted as expected, present or lost; a second message is still a
   * duplicate.
   */
  optional?: boolean;
}

/** A message (or scheduled event) the bot made, as the soak reads it back. */
export interface SeenPost {
  /** Results when not given. */
  kind?: SoakKind;
  id: string;
  channelId: string;
  /** The item: the event its first embed links to (`…/Events/Show/<id>`), or null when it links to none. */
  eventId: string | null;
  /** The item marker in its footer or content (docs/decisions/exactly-once-ledger.md), or null. */
  marker: string | null;
  /** How many times it was edited. */
  edits: number;
  /** When Discord made it (ms). */
  createdAt?: number;
}

export interface SoakCount {
  expected: number;
  /** Expected posts with at least one message. */
  present: number;
  /** Messages beyond the first for one (channel, event), expected or not. */
  duplicates: number;
  /** Expected posts with no message. */
  lost: number;
  /** Messages for a (channel, event) the soak did not expect (a summary, another event). */
  unexpected: number;
  edits: number;
  /** The longest wait from an expected post's publication to its first message (ms; 0 when none is timed). */
  longestWaitMs: number;
  /** Expected posts whose first message came later than `waitLimitMs` after publication, or never. */
  late: number;
  /** Up to 10 lines naming what went wrong, for the report. */
  problems: string[];
}

const MAX_PROBLEMS = 10;

/** The event id a results post links to. */
export function linkedEventId(url: string | undefined | null): string | null {
  const match = /\/Events\/Show\/(\d+)(?:[/?#]|$)/.exec(url ?? '');
  return match ? match[1]! : null;
}

/** The event id of the first Eventor link in a text (a scheduled event's description ends with one). */
export function eventIdInText(text: string | undefined | null): string | null {
  const match = /\/Events\/Show\/(\d+)(?![\d])/.exec(text ?? '');
  return match ? match[1]! : null;
}

/** When Discord made something, from its snowflake id (ms); null for an id that is not one. */
export function snowflakeTime(id: string): number | null {
  if (!/^\d{1,20}$/.test(id)) return null;
  return Number(BigInt(id) >> 22n) + 1_420_070_400_000;
}

/** The item marker (`eb` and 8 more characters) one of a message's texts carries, hidden or visible; null if none. */
export function markerOf(...texts: ReadonlyArray<string | undefined | null>): string | null {
  for (const text of texts) {
    const marker = text ? markerIn(text) : null;
    if (marker) return marker;
  }
  return null;
}

/**
 * The expected posts against the messages read back. `waitLimitMs`: the longest a post may take
 * after its results came out (two of the results feed's race-day cadences in the soak).
 */
export function countPosts(
  expected: readonly ExpectedPost[],
  seen: readonly SeenPost[],
  options: { waitLimitMs?: number; now?: number } = {},
): SoakCount {
  const kindOf = (post: { kind?: SoakKind }): SoakKind => post.kind ?? 'results';
  const kinds = new Set([...expected.map(kindOf), ...seen.map(kindOf)]);
  if (kinds.size > 1)
    throw new Error(`countPosts counts one kind at a time, not ${[...kinds].join(' and ')}: use countKinds`);
  const key = (channelId: string, eventId: string | null): string => `${channelId} ${eventId ?? '-'}`;
  const wanted = new Set(expected.filter((post) => !post.optional).map((post) => key(post.channelId, post.eventId)));
  const allowed = new Set(expected.filter((post) => post.optional).map((post) => key(post.channelId, post.eventId)));
  const publishedAt = new Map(
    expected.filter((post) => !post.optional).map((post) => [key(post.channelId, post.eventId), post.publishedAt]),
  );
  const byItem = new Map<string, SeenPost[]>();
  for (const post of seen) {
    const k = key(post.channelId, post.eventId);
    byItem.set(k, [...(byItem.get(k) ?? []), post]);
  }
  const problems: string[] = [];
  const note = (line: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(line);
  };
  let present = 0;
  let duplicates = 0;
  let unexpected = 0;
  let longestWaitMs = 0;
  let late = 0;
  for (const k of wanted) {
    if (byItem.has(k)) present++;
    else note(`lost: no post of event ${k.split(' ')[1]} in channel ${k.split(' ')[0]}`);
    const out = publishedAt.get(k);
    if (out === undefined) continue;
    const first = Math.min(...(byItem.get(k) ?? []).map((post) => post.createdAt ?? Infinity));
    // A post still missing has waited until now.
    const wait = (Number.isFinite(first) ? first : (options.now ?? out)) - out;
    longestWaitMs = Math.max(longestWaitMs, wait);
    if (options.waitLimitMs !== undefined && (wait > options.waitLimitMs || !Number.isFinite(first))) {
      late += 1;
      if (Number.isFinite(first))
        note(
          `late: event ${k.split(' ')[1]} in channel ${k.split(' ')[0]} posted ${Math.round(wait / 1000)} s after its results`,
        );
    }
  }
  for (const [k, posts] of byItem) {
    if (!wanted.has(k) && !allowed.has(k)) {
      unexpected += 1;
      note(`unexpected: message ${posts[0]!.id} (channel ${k.split(' ')[0]}, event ${k.split(' ')[1]})`);
    }
    if (posts.length > 1) {
      duplicates += posts.length - 1;
      const markers = new Set(posts.map((post) => post.marker));
      note(
        `duplicate: ${posts.length} messages (${posts.map((post) => post.id).join(', ')}) of event ${k.split(' ')[1]} ` +
          `in channel ${k.split(' ')[0]}, ${markers.size === 1 ? 'one marker' : `${markers.size} markers`}`,
      );
    }
  }
  return {
    expected: wanted.size,
    present,
    duplicates,
    lost: wanted.size - present,
    unexpected,
    edits: seen.reduce((sum, post) => sum + post.edits, 0),
    longestWaitMs,
    late,
    problems,
  };
}

/** The count of each kind the soak turned on, and all of them together. */
export interface SoakCounts {
  kinds: Partial<Record<SoakKind, SoakCount>>;
  total: SoakCount;
}

/**
 * Each of `kinds` counted on its own, late meaning more than two of that kind's production
 * cadences (`KIND_CADENCE_MS`) after its news came out; a message of a kind not in `kinds` is
 * unexpected. The problems of a kind other than results name it.
 */
export function countKinds(
  kinds: readonly SoakKind[],
  expected: readonly ExpectedPost[],
  seen: readonly SeenPost[],
  options: { now?: number } = {},
): SoakCounts {
  const counts: Partial<Record<SoakKind, SoakCount>> = {};
  const total: SoakCount = {
    expected: 0,
    present: 0,
    duplicates: 0,
    lost: 0,
    unexpected: 0,
    edits: 0,
    longestWaitMs: 0,
    late: 0,
    problems: [],
  };
  const counted = new Set(kinds);
  const stray = seen.filter((post) => !counted.has(post.kind ?? 'results'));
  for (const kind of kinds) {
    const count = countPosts(
      expected.filter((post) => (post.kind ?? 'results') === kind),
      seen.filter((post) => (post.kind ?? 'results') === kind),
      { waitLimitMs: 2 * KIND_CADENCE_MS[kind], ...(options.now !== undefined ? { now: options.now } : {}) },
    );
    counts[kind] = count;
    for (const field of ['expected', 'present', 'duplicates', 'lost', 'unexpected', 'edits', 'late'] as const)
      total[field] += count[field];
    total.longestWaitMs = Math.max(total.longestWaitMs, count.longestWaitMs);
    for (const problem of count.problems)
      if (total.problems.length < MAX_PROBLEMS)
        total.problems.push(kind === 'results' ? problem : `${kind} ${problem}`);
  }
  for (const post of stray) {
    total.unexpected += 1;
    if (total.problems.length < MAX_PROBLEMS)
      total.problems.push(`unexpected: ${post.kind ?? 'results'} message ${post.id}, a kind the soak did not turn on`);
  }
  return { kinds: counts, total };
}

/**
 * The soak's last line, the one a script reads: the totals, then per kind
 * `<kind>=expected/present/duplicates/lost/longest_wait_s`.
 */
export function soakLine(processes: number, kills: number, count: SoakCount | SoakCounts): string {
  const total = 'total' in count ? count.total : count;
  const perKind =
    'total' in count
      ? SOAK_KINDS.flatMap((kind) => {
          const k = count.kinds[kind];
          return k
            ? [` ${kind}=${k.expected}/${k.present}/${k.duplicates}/${k.lost}/${Math.round(k.longestWaitMs / 1000)}`]
            : [];
        }).join('')
      : '';
  return (
    `SOAK processes=${processes} kills=${kills} expected=${total.expected} present=${total.present} ` +
    `duplicates=${total.duplicates} lost=${total.lost} longest_wait_s=${Math.round(total.longestWaitMs / 1000)} ` +
    `late=${total.late}${perKind}`
  );
}
