/**
 * What /results's split tables need beyond the club's own lists: leg ranks and time lost compare a
 * runner with the whole class (docs/splits.md), while the club's lists hold the club's runners and
 * the top few only. So the event's complete result list with splits is asked for (shared between
 * clubs by the response cache, docs/decisions/response-cache.md) and analysed.
 */
import type { GuildEventor } from '../club/eventor-access.js';
import type { ResultList } from '../eventor/answers.js';
import type { Logger } from '../log/logger.js';
import type { EventAnalyses } from '../render/results.js';
import { analyseResultList } from '../splits/result-list.js';

/** A member's recent results analysed for at most this many events (the most recent): each is a whole list. */
export const MAX_ANALYSED_EVENTS = 5;

/**
 * The club's results at an event for split tables: the event's complete list with splits, from
 * which the renderer picks the club's runners and the top of each class as it would from the
 * club's list, and its analysis. One request where the club's list and the complete one were two.
 */
export async function clubResultsWithAnalysis(
  eventor: GuildEventor,
  eventId: string,
): Promise<{ list: ResultList; analyses: EventAnalyses }> {
  const list = await eventor.client.eventResults({ eventId, includeSplitTimes: true });
  return { list, analyses: new Map([[eventId, analyseResultList(list)]]) };
}

/** Whether a member's list has any split times to show (else its event's list is not worth asking for). */
function hasSplits(list: ResultList): boolean {
  return list.classes.some(
    (cls) =>
      cls.persons.some((p) => p.results.some((r) => r.splits.length > 0)) ||
      cls.teams.some((team) => team.members.some((m) => m.result.splits.length > 0)),
  );
}

/**
 * The analysis of the events of a member's lists (most recent first, as shown) that have split
 * times, at most {@link MAX_ANALYSED_EVENTS}. An event whose complete list cannot be had is left
 * out: its tables show the times without ranks and losses, and the rest of the answer stands.
 */
export async function memberResultsAnalyses(
  eventor: GuildEventor,
  lists: readonly ResultList[],
  log: Logger,
): Promise<EventAnalyses> {
  const ids = [
    ...new Set(
      lists
        .filter(hasSplits)
        .map((list) => list.event.event?.id ?? list.event.id)
        .filter((id): id is string => id !== null),
    ),
  ].slice(0, MAX_ANALYSED_EVENTS);
  const analysed = await Promise.all(
    ids.map(async (eventId) => {
      try {
        const list = await eventor.client.eventResults({ eventId, includeSplitTimes: true });
        return [eventId, analyseResultList(list)] as const;
      } catch (error) {
        log.warn('results: split analysis left out, the complete result list could not be had', { eventId, error });
        return null;
      }
    }),
  );
  return new Map(analysed.filter((entry) => entry !== null));
}
