/**
 * The bot's one way to LiveResultat (docs/live-results.md#race-day-in-discord): one `LiveClient` per
 * process on the operator's addresses (never on anything an admin typed), shared by the matching
 * runs, the pollers and `/live`, and the day's competition list kept ten minutes, so that a hundred
 * servers matching their races ask for it once.
 */
import type { LiveClient } from '../../../live/client.js';
import type { LiveEndpoints } from '../../../live/endpoints.js';
import type { LiveCompetition } from '../../../live/model.js';

/** How long a day's competition list is kept: new competitions appear on race morning, rarely within minutes. */
export const COMPETITION_LIST_MS = 10 * 60_000;

export interface LiveAccess {
  readonly client: LiveClient;
  /** The competitions held on `date` (YYYY-MM-DD), asked at most once per COMPETITION_LIST_MS; a failure is not kept. */
  competitionsOn(date: string): Promise<LiveCompetition[]>;
  /** LiveResultat's own page of a competition, on the operator's address; null when it cannot be told. */
  pageOf(competitionId: number): string | null;
}

export class LiveReads implements LiveAccess {
  readonly client: LiveClient;
  readonly #endpoints: LiveEndpoints;
  readonly #now: () => number;
  readonly #lists = new Map<string, { at: number; list: Promise<LiveCompetition[]> }>();

  constructor(client: LiveClient, endpoints: LiveEndpoints, now: () => number = Date.now) {
    this.client = client;
    this.#endpoints = endpoints;
    this.#now = now;
  }

  competitionsOn(date: string): Promise<LiveCompetition[]> {
    const now = this.#now();
    const kept = this.#lists.get(date);
    if (kept && now - kept.at < COMPETITION_LIST_MS) return kept.list;
    const list = this.client.competitionsOn(date);
    this.#lists.set(date, { at: now, list });
    list.catch(() => {
      if (this.#lists.get(date)?.list === list) this.#lists.delete(date);
    });
    // Days go by: only the recent ones are kept.
    for (const [day, entry] of this.#lists) if (now - entry.at >= COMPETITION_LIST_MS) this.#lists.delete(day);
    return list;
  }

  pageOf(competitionId: number): string | null {
    // The viewer lives beside api.php on LiveResultat (docs/live-results.md#the-two-apis).
    try {
      const url = new URL(this.#endpoints.legacyUrl);
      if (!url.pathname.endsWith('/api.php')) return null;
      url.pathname = url.pathname.replace(/api\.php$/, 'followfull.php');
      url.search = `comp=${competitionId}`;
      return url.toString();
    } catch {
      return null;
    }
  }
}
