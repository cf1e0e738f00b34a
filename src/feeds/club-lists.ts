/**
 * What the kinds ask Eventor in common: the events the club has entries in, one list per event
 * (skipping an event Eventor cannot give), and events in start order.
 */
import type { EventorClient } from '../eventor/client.js';
import { InvalidResponse, NotFound } from '../eventor/errors.js';
import type { Event } from '../eventor/answers.js';
import type { Logger } from '../log/logger.js';
import { askEnteredEvents, type ClubShare } from './club-share.js';

/**
 * Event ids with at least one entry from the club among events starting in [from, to]: from the
 * run's shared entries window when the scheduler gave the run its club's share, else asked.
 */
export function eventsWithClubEntries(
  client: EventorClient,
  organisationId: string,
  fromMs: number,
  toMs: number,
  club?: ClubShare,
): Promise<Set<string>> {
  return club ? club.enteredEvents(fromMs, toMs) : askEnteredEvents(client, organisationId, fromMs, toMs);
}

/**
 * One list per event, in order. An event whose list Eventor answers with something unreadable, or
 * no longer has, is left out (and logged) so it does not hold back every other event's post;
 * anything else (an outage, a refused key) fails the run for the scheduler to handle.
 */
export async function listsPerEvent<T>(
  events: readonly Event[],
  fetch: (event: Event) => Promise<T | null>,
  log: Logger | undefined,
  what: string,
): Promise<T[]> {
  const lists: T[] = [];
  for (const event of events) {
    let list: T | null;
    try {
      list = await fetch(event);
    } catch (error) {
      if (!(error instanceof InvalidResponse || error instanceof NotFound)) throw error;
      log?.warn(`skipping an event whose ${what} Eventor cannot give`, { eventId: event.id, error });
      continue;
    }
    if (list !== null) lists.push(list);
  }
  return lists;
}

export function byStart(a: Event, b: Event): number {
  return (a.start ?? '').localeCompare(b.start ?? '') || a.id.localeCompare(b.id);
}
