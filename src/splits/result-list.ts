/**
 * From a result list to analysed courses (docs/splits.md#who-is-compared): per class, per race of a
 * multi-race event and per relay leg, runners grouped by the exact sequence of control codes they ran.
 */
import type { PersonName, ResultStatus, SplitTime } from '../eventor/model.js';
import {
  analyseCourseSteps,
  completed,
  type CourseAnalysis,
  type KeepRunner,
  type RunnerInput,
  STEP_WORK,
  unanalysedCourse,
} from './analysis.js';
import { MAX_CLASS_RUNNERS, MAX_COURSE_CONTROLS } from './limits.js';

/** What the analysis reads of a race result; the model's RaceResult (readonly or not) fits. */
interface RaceResultLike {
  readonly raceNumber: number | null;
  readonly raceId: string | null;
  readonly status: ResultStatus;
  readonly time: number | null;
  readonly splits: readonly Readonly<SplitTime>[];
  readonly course?: { readonly name: string | null } | null;
}

interface NamedLike {
  readonly person: { readonly id?: string | null; readonly name: Readonly<PersonName> } | null;
  readonly organisation?: { readonly id: string | null } | null;
}

/** What the analysis reads of a class of a result list; the model's ClassResult fits. */
export interface ClassResultLike {
  readonly class: { readonly name: string };
  readonly persons: readonly (NamedLike & { readonly results: readonly RaceResultLike[] })[];
  readonly teams: readonly {
    readonly name: string;
    readonly organisations?: readonly { readonly id: string | null }[];
    readonly members: readonly (NamedLike & { readonly leg: number | null; readonly result: RaceResultLike })[];
  }[];
}

/** What the analysis reads of a result list; the model's ResultList fits. */
export interface ResultListLike {
  readonly classes: readonly ClassResultLike[];
}

export interface AnalyseOptions {
  /**
   * The classes to analyse (default: all). A caller that shows one member's or the club's runners
   * analyses only their classes: the others would cost time and memory for nothing.
   */
  include?: (cls: ClassResultLike) => boolean;
  /**
   * The runners whose analysis is kept (default: all); the courses' figures (best legs, ranks,
   * places) are still those of every runner. A caller that shows a few runners of large classes
   * holds their legs only, not every runner's, while it answers.
   */
  keep?: KeepRunner;
}

export interface ClassAnalysis {
  class: string;
  /** The race of a multi-race event (its number or id); null when the class has results of one race. */
  race: string | null;
  /** The relay leg; null for individual results. */
  leg: number | null;
  courses: NamedCourseAnalysis[];
}

/** A course of a class: its name when the producer gives one per result (else null), and the analysis. */
export type NamedCourseAnalysis = { course: string | null } & CourseAnalysis;

/** The name a runner has in the analysis: `Given Family`, else the fallback (a relay member: the team's name). */
export const personName = (entry: NamedLike, fallback: string): string => {
  const name = entry.person?.name;
  const full = name ? `${name.given} ${name.family}`.trim() : '';
  return full === '' ? fallback : full;
};

const raceKey = (result: RaceResultLike): string => String(result.raceNumber ?? result.raceId ?? '');

/** A runner, with the course the producer names for them (if any). */
type Runner = RunnerInput & { course: string | null };

const runnerOf = (
  name: string,
  result: RaceResultLike,
  who: { personId?: string | null | undefined; organisationId?: string | null | undefined } = {},
): Runner => ({
  name,
  ...(who.personId ? { personId: who.personId } : {}),
  ...(who.organisationId ? { organisationId: who.organisationId } : {}),
  status: result.status,
  time: result.time,
  splits: result.splits,
  course: result.course?.name ?? null,
});

const codesOf = (splits: readonly Readonly<SplitTime>[]): string[] =>
  splits.filter((s) => s.status !== 'Additional').map((s) => s.controlCode);

/**
 * Places among the OK runners with a time, over every course of the group (competition ranking):
 * one sort, then the place of each time is that of the first of its equals (n log n). Exported for
 * its test (test/unit/analysis-growth.test.ts).
 */
export function placeOkRunners(courses: readonly Pick<CourseAnalysis, 'results'>[]): void {
  const ok = courses.flatMap((c) => c.results).filter((r) => r.status === 'OK' && r.time !== null);
  const times = ok.map((r) => Math.round(r.time! * 10)).sort((a, b) => a - b);
  const placeOf = new Map<number, number>();
  times.forEach((time, k) => placeOf.has(time) || placeOf.set(time, k + 1));
  for (const r of ok) r.place = placeOf.get(Math.round(r.time! * 10))!;
}

/** The runners of a course of a group, before analysis. */
export interface CourseRunners {
  /** The producer's name of the course, when it gives one per result. */
  course: string | null;
  controls: string[];
  runners: RunnerInput[];
}

/**
 * One group of runners (a class, or one race or one relay leg of it) split into courses, not yet
 * analysed: who is compared with whom (docs/splits.md#who-is-compared), found in one pass. The
 * courses come largest first, as the analysis gives them.
 */
export interface RunnerGroup extends Pick<ClassAnalysis, 'class' | 'race' | 'leg'> {
  courses: CourseRunners[];
  /** The group's runners in all: what the class limit counts (docs/splits.md#limits). */
  runners: number;
}

/**
 * The courses of one group. Runners with no split times at all in a group where others have some,
 * and runners with neither splits nor a time (most often non-starters), are left out: there is
 * nothing of theirs to compare.
 */
function* coursesOf(runners: Runner[]): Generator<void, { courses: CourseRunners[]; kept: number }, void> {
  const anySplits = runners.some((r) => r.splits.length > 0);
  const byCourse = new Map<string, CourseRunners>();
  let kept = 0;
  let work = 0;
  for (const runner of runners) {
    if ((anySplits || runner.time === null) && runner.splits.length === 0) continue;
    kept++;
    work += runner.splits.length + 1;
    if (work >= STEP_WORK) {
      work = 0;
      yield;
    }
    const controls = codesOf(runner.splits);
    // The producer's course name too: lists with only radio controls give two courses the same codes.
    // A code cannot contain a newline, so the joined codes are unambiguous.
    const key = `${runner.course ?? ''}\n${controls.join('\n')}`;
    const course = byCourse.get(key) ?? { course: runner.course, controls, runners: [] };
    course.runners.push(runner);
    byCourse.set(key, course);
  }
  return { courses: [...byCourse.values()].sort((a, b) => b.runners.length - a.runners.length), kept };
}

/**
 * One group analysed, course by course, with places over all its courses. A group or a course over
 * the limits (docs/splits.md#limits) is not analysed: its courses say `tooLarge`, and a group over
 * them gets no places either.
 */
export function* analyseGroupSteps(group: RunnerGroup, keep?: KeepRunner): Generator<void, ClassAnalysis, void> {
  const tooMany = group.runners > MAX_CLASS_RUNNERS;
  const courses: NamedCourseAnalysis[] = [];
  for (const c of group.courses) {
    const analysis =
      tooMany || c.controls.length > MAX_COURSE_CONTROLS
        ? unanalysedCourse(c.controls, c.runners)
        : yield* analyseCourseSteps(c.controls, c.runners, keep);
    courses.push({ course: c.course, ...analysis });
    yield;
  }
  const analysed = { class: group.class, race: group.race, leg: group.leg, courses };
  if (tooMany) return analysed;
  placeOkRunners(courses);
  for (const course of courses)
    course.results.sort(
      (a, b) => (a.place ?? Infinity) - (b.place ?? Infinity) || (a.time ?? Infinity) - (b.time ?? Infinity),
    );
  return analysed;
}

/** Every class of the list analysed (those `include` names, when given): see {@link analyseResultListSteps}. */
export function analyseResultList(list: ResultListLike, options: AnalyseOptions = {}): ClassAnalysis[] {
  return completed(analyseResultListSteps(list, options));
}

/**
 * {@link analyseResultList} in steps: the generator gives way after about `STEP_WORK` leg times
 * handled, so the bot spreads a large list over turns of its event loop (src/loop/slices.ts,
 * docs/splits.md#how-long-it-takes).
 */
export function* analyseResultListSteps(
  list: ResultListLike,
  options: AnalyseOptions = {},
): Generator<void, ClassAnalysis[], void> {
  const analyses: ClassAnalysis[] = [];
  const { keep } = options;
  for (const group of yield* groupResultListSteps(list, options)) {
    const analysis = yield* analyseGroupSteps(group, keep);
    // Places counted, the runners not kept go: only the kept ones' analysis is held.
    if (keep) for (const course of analysis.courses) course.results = course.results.filter(keep);
    analyses.push(analysis);
  }
  return analyses;
}

/**
 * The list's groups (per class, per race of a multi-race event, per relay leg) and their courses,
 * not analysed: one pass over the list, in steps. A caller that shows a few runners finds their
 * groups here and analyses only those (`analyseGroupSteps`).
 */
export function* groupResultListSteps(
  list: ResultListLike,
  options: AnalyseOptions = {},
): Generator<void, RunnerGroup[], void> {
  const groups: RunnerGroup[] = [];
  let read = 0;
  function* group(
    cls: ClassResultLike,
    race: string | null,
    leg: number | null,
    runners: Runner[],
  ): Generator<void, RunnerGroup, void> {
    const { courses, kept } = yield* coursesOf(runners);
    return { class: cls.class.name, race, leg, courses, runners: kept };
  }
  for (const cls of list.classes) {
    if (options.include && !options.include(cls)) continue;
    const races = new Map<string, Runner[]>();
    for (const person of cls.persons) {
      if (++read % STEP_WORK === 0) yield;
      for (const result of person.results) {
        const key = raceKey(result);
        const runners = races.get(key) ?? [];
        runners.push(
          runnerOf(personName(person, '?'), result, {
            personId: person.person?.id,
            organisationId: person.organisation?.id,
          }),
        );
        races.set(key, runners);
      }
    }
    for (const [race, runners] of races) {
      groups.push(yield* group(cls, races.size > 1 ? race : null, null, runners));
    }

    const legs = new Map<number, Runner[]>();
    for (const team of cls.teams) {
      if (++read % STEP_WORK === 0) yield;
      for (const member of team.members) {
        const leg = member.leg ?? 0;
        const runners = legs.get(leg) ?? [];
        // Relay forks are told apart by their codes; producers name relay courses per team or per fork.
        const who = {
          personId: member.person?.id,
          organisationId: member.organisation?.id ?? team.organisations?.[0]?.id,
        };
        runners.push({ ...runnerOf(personName(member, team.name), member.result, who), course: null });
        legs.set(leg, runners);
      }
    }
    for (const leg of [...legs.keys()].sort((a, b) => a - b)) {
      groups.push(yield* group(cls, null, leg === 0 ? null : leg, legs.get(leg)!));
    }
  }
  return groups;
}
