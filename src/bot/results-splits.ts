/**
 * What /results's split tables need beyond the club's own lists: leg ranks and time lost compare a
 * runner with the whole class (docs/splits.md), while the club's lists hold the club's runners and
 * the top few only. So the event's complete result list with splits is asked for (shared between
 * clubs by the response cache, docs/decisions/response-cache.md) and analysed.
 */
import type { GuildEventor } from '../club/eventor-access.js';
import type { ResultList } from '../eventor/answers.js';
import type { Logger } from '../log/logger.js';
import { inSlices } from '../loop/slices.js';
import type { EventAnalyses } from '../render/results.js';
import type { KeepRunner } from '../splits/analysis.js';
import { analyseResultListSteps, type ClassAnalysis, type ClassResultLike } from '../splits/result-list.js';

/**
 * The classes of `list` that `include` names, analysed in slices of the event loop, with the legs
 * of the runners `keep` names kept: the tables show some runners of a few classes, and a whole
 * large list must neither be analysed for them, nor held, nor hold other members' answers while it
 * is (docs/splits.md#how-long-it-takes).
 */
function analysed(
  list: ResultList,
  include: (cls: ClassResultLike) => boolean,
  keep: KeepRunner,
): Promise<ClassAnalysis[]> {
  return inSlices(analyseResultListSteps(list, { include, keep }));
}

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
  return { list, analyses: new Map([[eventId, await clubAnalyses(list, eventor.organisationId)]]) };
}

/** The classes of an event's complete list with the club's runners, analysed: what the club's tables show. */
export function clubAnalyses(list: ResultList, club: string): Promise<ClassAnalysis[]> {
  return analysed(
    list,
    (cls) =>
      cls.persons.some((p) => p.organisation?.id === club) ||
      cls.teams.some(
        (team) =>
          team.organisations?.some((o) => o.id === club) === true ||
          team.members.some((m) => m.organisation?.id === club),
      ),
    (runner) => runner.organisationId === club,
  );
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
  // Per event, the classes the member ran there and who is in their lists (the member, a relay
  // team's members): only those are shown.
  const classes = new Map<string, Set<string>>();
  const persons = new Set<string>();
  for (const list of lists.filter(hasSplits)) {
    const id = list.event.event?.id ?? list.event.id;
    if (id === null) continue;
    const names = classes.get(id) ?? new Set<string>();
    for (const cls of list.classes) {
      names.add(cls.class.name);
      for (const p of cls.persons) if (p.person?.id) persons.add(p.person.id);
      for (const team of cls.teams) for (const m of team.members) if (m.person?.id) persons.add(m.person.id);
    }
    classes.set(id, names);
  }
  const ids = [...classes.keys()].slice(0, MAX_ANALYSED_EVENTS);
  const done = await Promise.all(
    ids.map(async (eventId) => {
      try {
        const list = await eventor.client.eventResults({ eventId, includeSplitTimes: true });
        const ran = classes.get(eventId)!;
        // A list naming nobody by id (never from Eventor's own lists) keeps everyone, as before.
        const shown: KeepRunner = (runner) =>
          persons.size === 0 || (runner.personId !== undefined && persons.has(runner.personId));
        return [eventId, await analysed(list, (cls) => ran.has(cls.class.name), shown)] as const;
      } catch (error) {
        log.warn('results: split analysis left out, the complete result list could not be had', { eventId, error });
        return null;
      }
    }),
  );
  return new Map(done.filter((entry) => entry !== null));
}
