/**
 * The soak's verdict (docs/decisions/soak.md): the posts the race weekend should have made, worked
 * out from the sandbox's data, against the messages the sandbox Discord holds. Pure, so that a
 * crafted duplicate and a crafted loss can be counted in a unit test.
 */
import { markerIn } from '../../src/feeds/delivery/poster.js';

/** One results post the soak expects: in this channel, of this event. */
export interface ExpectedPost {
  channelId: string;
  eventId: string;
  /** When its results came out in the sandbox Eventor (ms), for the wait to its post. */
  publishedAt?: number;
}

/** A message the bot wrote in a results channel, as the soak reads it back. */
export interface SeenPost {
  id: string;
  channelId: string;
  /** The event its first embed links to (`…/Events/Show/<id>`), or null when it links to none. */
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
  const key = (channelId: string, eventId: string | null): string => `${channelId} ${eventId ?? '-'}`;
  const wanted = new Set(expected.map((post) => key(post.channelId, post.eventId)));
  const publishedAt = new Map(expected.map((post) => [key(post.channelId, post.eventId), post.publishedAt]));
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
    if (!wanted.has(k)) {
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

/** The soak's last line, the one a script reads. */
export function soakLine(processes: number, kills: number, count: SoakCount): string {
  return (
    `SOAK processes=${processes} kills=${kills} expected=${count.expected} present=${count.present} ` +
    `duplicates=${count.duplicates} lost=${count.lost} longest_wait_s=${Math.round(count.longestWaitMs / 1000)} ` +
    `late=${count.late}`
  );
}
