/**
 * What `/splits` shows (docs/members.md#splits-where-you-lost-time): one course of an event's
 * complete result list with split times, analysed (docs/splits.md), with the member asked about
 * and the club's runners picked out. Data only: the command draws the pictures and the renderer
 * words the answer.
 */
import type { ResultList } from '../eventor/answers.js';
import { inSlices } from '../loop/slices.js';
import { escapeName, TOO_LARGE_LIMITS } from '../render/index.js';
import { completed } from '../splits/analysis.js';
import {
  analyseGroupSteps,
  type ClassAnalysis,
  groupResultListSteps,
  type NamedCourseAnalysis,
  type RunnerGroup,
} from '../splits/result-list.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import { canDrawGraph, noGraph } from '../charts/request.js';
import type { GuildEventor } from '../club/eventor-access.js';
import { fold } from '../text/fold.js';

/** Runners drawn strong in the graph at most (the picture's own limit, src/charts/draw.ts). */
export const MAX_HIGHLIGHT = 12;

export interface SplitsRequest {
  eventId: string;
  /** The class the member named (its name, as autocomplete offers it); null: the member's, else the club's first. */
  className: string | null;
  /**
   * Whose result to show: the club member named (their Eventor person), or the caller's own linked
   * persons (a member may have linked several; their default first), or empty for the club's runners.
   */
  personIds: readonly string[];
  /**
   * Whether the member was named on purpose: then not finding them is an error. The caller's own
   * persons (the default) are not: without a result of theirs the club's runners are shown.
   */
  named: boolean;
}

export interface SplitsView {
  event: ResultList['event'];
  /** The class, with the race of a multi-race event and the leg of a relay. */
  group: Pick<ClassAnalysis, 'class' | 'race' | 'leg'>;
  course: NamedCourseAnalysis;
  /** Indices into `course.results` drawn strong: the member first, then the club's runners in result order. */
  highlight: number[];
  /** Index into `course.results` of the member asked about; null when showing the club's runners. */
  focus: number | null;
  /** True when the caller's own persons have no result here, so the club's runners are shown instead. */
  ownNotFound: boolean;
  /** The other classes with club runners, for a line saying which to ask for. */
  otherClasses: string[];
}

const sameClass = (a: string, b: string): boolean => fold(a.trim()) === fold(b.trim());

/**
 * Latest race first, then the legs in order: a member of a multi-race event most likely asks about
 * the last race. A race is named by its number (IOF lists) or its Eventor id (native lists), whose
 * place among the event's races gives the order.
 */
function groupOrder(event: ResultList['event']): (a: RunnerGroup, b: RunnerGroup) => number {
  const races = event.event?.races ?? [];
  const race = (g: RunnerGroup): number => {
    if (g.race === null) return 0;
    const index = races.findIndex((r) => r.id === g.race);
    return index >= 0 ? index + 1 : Number(g.race) || 0;
  };
  return (a, b) => race(b) - race(a) || (a.leg ?? 0) - (b.leg ?? 0);
}

interface Found {
  group: ClassAnalysis;
  course: NamedCourseAnalysis;
  index: number;
}

type AnalysedRunner = NamedCourseAnalysis['results'][number];

/** The runners of an analysed group who match, in course and result order. */
function findRunners(group: ClassAnalysis, matches: (r: AnalysedRunner) => boolean): Found[] {
  const found: Found[] = [];
  for (const course of group.courses)
    course.results.forEach((r, index) => matches(r) && found.push({ group, course, index }));
  return found;
}

const hasSplits = (course: { controls: readonly string[] }): boolean => course.controls.length > 0;

/** The event's complete result list with split times from Eventor, and what of it to show (`splitsView`). */
export async function eventSplits(eventor: GuildEventor, request: SplitsRequest): Promise<SplitsView> {
  const list = await eventor.client.eventResults({ eventId: request.eventId, includeSplitTimes: true });
  // In slices: a large list's analysis must not hold other members' answers (docs/splits.md#how-long-it-takes).
  return inSlices(splitsViewSteps(list, eventor.organisationId, request));
}

/**
 * A complete result list analysed, and the course to show: the member's (their race, their leg),
 * else the club's first class with runners. Every input that leaves nothing to show is a
 * UserFacingError saying which (docs/members.md#splits-where-you-lost-time).
 */
export function splitsView(
  list: ResultList,
  club: string,
  request: Pick<SplitsRequest, 'className' | 'personIds' | 'named'>,
): SplitsView {
  return completed(splitsViewSteps(list, club, request));
}

/**
 * {@link splitsView} in steps. The list is read once into its groups (classes, races, relay legs),
 * and only the groups that can be shown are analysed: the member's, else the club's in order until
 * one can be compared, else the class named.
 */
export function* splitsViewSteps(
  list: ResultList,
  club: string,
  request: Pick<SplitsRequest, 'className' | 'personIds' | 'named'>,
): Generator<void, SplitsView, void> {
  const groups = (yield* groupResultListSteps(list)).sort(groupOrder(list.event));
  const runnersOf = (g: RunnerGroup) => g.courses.flatMap((c) => c.runners.map((runner) => ({ runner, course: c })));
  if (!groups.some((g) => g.runners > 0)) throw new UserFacingError('splits.error.noResults');
  if (!groups.some((g) => g.courses.some(hasSplits))) throw new UserFacingError('splits.error.noSplits');

  let candidates = groups;
  if (request.className !== null) {
    const wanted = request.className;
    candidates = groups.filter((g) => sameClass(g.class, wanted));
    if (candidates.length === 0) {
      throw new UserFacingError('splits.error.unknownClass', {
        name: escapeName(wanted, { max: 60 }),
        classes: classNames(groups)
          .slice(0, 30)
          .map((name) => escapeName(name, { max: 30 }))
          .join(', '),
      });
    }
  }

  const analysed = new Map<RunnerGroup, ClassAnalysis>();
  function* analysis(g: RunnerGroup): Generator<void, ClassAnalysis, void> {
    let done = analysed.get(g);
    if (done === undefined) analysed.set(g, (done = yield* analyseGroupSteps(g)));
    return done;
  }

  const isClub = (r: { organisationId?: string }): boolean => r.organisationId === club;
  let found: Found | null = null;
  let ownNotFound = false;
  if (request.personIds.length > 0) {
    // The persons in the member's order (their default first): a parent who linked their children
    // sees their own run when they ran, else the first child's. A result with splits is better
    // shown than one without (a non-starter's row).
    for (const personId of request.personIds) {
      const own = candidates.flatMap((g) =>
        runnersOf(g)
          .filter(({ runner }) => runner.personId === personId)
          .map(({ course }) => ({ g, course })),
      );
      const first = own.find((o) => hasSplits(o.course)) ?? own[0];
      if (first === undefined) continue;
      const group = yield* analysis(first.g);
      const runs = findRunners(group, (r) => r.personId === personId);
      found = runs.find((f) => hasSplits(f.course)) ?? runs[0] ?? null;
      if (found) break;
    }
    if (found === null) {
      if (request.named) throw new UserFacingError('splits.error.notInResults');
      ownNotFound = true;
    }
  }
  if (found === null) {
    // The first class whose course gets a graph: a class of two runners has nothing to show
    // when another class of the club's has. Groups are analysed in order until one can.
    let withSplits: Found | null = null;
    let any: Found | null = null;
    for (const g of candidates) {
      if (!runnersOf(g).some(({ runner }) => isClub(runner))) continue;
      const clubRunners = findRunners(yield* analysis(g), isClub);
      any ??= clubRunners[0] ?? null;
      withSplits ??= clubRunners.find((f) => hasSplits(f.course)) ?? null;
      found = clubRunners.find((f) => canDrawGraph(f.course)) ?? null;
      if (found) break;
    }
    found ??= withSplits ?? any;
    if (found) found = { ...found, index: -1 };
    else if (request.className !== null) {
      const group = yield* analysis(candidates[0]!);
      found = { group, course: group.courses.find(hasSplits) ?? group.courses[0]!, index: -1 };
    } else throw new UserFacingError('splits.error.noClubRunners');
  }

  const { group, course } = found;
  if (!course || course.results.length === 0) throw new UserFacingError('splits.error.noResults');
  if (!hasSplits(course)) throw new UserFacingError('splits.error.noSplits');
  if (course.tooLarge) throw new UserFacingError('render.analysis.tooLarge', TOO_LARGE_LIMITS);
  // The pictures' own rule (src/charts/request.ts): a course too small for a graph is refused here.
  if (noGraph(course) === 'tooFew') throw new UserFacingError('splits.error.tooFew');

  const focus = found.index >= 0 ? found.index : null;
  const highlight = focus === null ? [] : [focus];
  course.results.forEach((r, i) => {
    if (i !== focus && isClub(r) && highlight.length < MAX_HIGHLIGHT) highlight.push(i);
  });
  const otherClasses = classNames(
    groups.filter((g) => g.class !== group.class && runnersOf(g).some(({ runner }) => isClub(runner))),
  );
  return {
    event: list.event,
    group: { class: group.class, race: group.race, leg: group.leg },
    course,
    highlight,
    focus,
    ownNotFound,
    otherClasses,
  };
}

function classNames(groups: readonly RunnerGroup[]): string[] {
  return [...new Set(groups.map((g) => g.class))];
}
