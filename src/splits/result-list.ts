/**
 * From a result list to analysed courses (docs/splits.md#who-is-compared): per class, per race of a
 * multi-race event and per relay leg, runners grouped by the exact sequence of control codes they ran.
 */
import type { PersonName, ResultStatus, SplitTime } from '../eventor/model.js';
import { analyseCourse, type CourseAnalysis, type RunnerInput } from './analysis.js';

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

/** What the analysis reads of a result list; the model's ResultList fits. */
export interface ResultListLike {
  readonly classes: readonly {
    readonly class: { readonly name: string };
    readonly persons: readonly (NamedLike & { readonly results: readonly RaceResultLike[] })[];
    readonly teams: readonly {
      readonly name: string;
      readonly organisations?: readonly { readonly id: string | null }[];
      readonly members: readonly (NamedLike & { readonly leg: number | null; readonly result: RaceResultLike })[];
    }[];
  }[];
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

/** Places among the OK runners with a time, over every course of the group (competition ranking). */
function placeOkRunners(courses: CourseAnalysis[]): void {
  const ok = courses.flatMap((c) => c.results).filter((r) => r.status === 'OK' && r.time !== null);
  const times = ok.map((r) => Math.round(r.time! * 10)).sort((a, b) => a - b);
  for (const r of ok) r.place = times.indexOf(Math.round(r.time! * 10)) + 1;
}

/**
 * One group of runners (a class, or one race or one relay leg of it) split into courses. Runners with
 * no split times at all in a group where others have some, and runners with neither splits nor a
 * time (most often non-starters), are left out: there is nothing of theirs to compare.
 */
function analyseGroup(runners: Runner[]): NamedCourseAnalysis[] {
  const anySplits = runners.some((r) => r.splits.length > 0);
  const byCourse = new Map<string, { course: string | null; controls: string[]; runners: RunnerInput[] }>();
  for (const runner of runners) {
    if ((anySplits || runner.time === null) && runner.splits.length === 0) continue;
    const controls = codesOf(runner.splits);
    // The producer's course name too: lists with only radio controls give two courses the same codes.
    // A code cannot contain a newline, so the joined codes are unambiguous.
    const key = `${runner.course ?? ''}\n${controls.join('\n')}`;
    const course = byCourse.get(key) ?? { course: runner.course, controls, runners: [] };
    course.runners.push(runner);
    byCourse.set(key, course);
  }
  const courses = [...byCourse.values()]
    .sort((a, b) => b.runners.length - a.runners.length)
    .map((c) => ({ course: c.course, ...analyseCourse(c.controls, c.runners) }));
  placeOkRunners(courses);
  for (const course of courses)
    course.results.sort(
      (a, b) => (a.place ?? Infinity) - (b.place ?? Infinity) || (a.time ?? Infinity) - (b.time ?? Infinity),
    );
  return courses;
}

export function analyseResultList(list: ResultListLike): ClassAnalysis[] {
  const analyses: ClassAnalysis[] = [];
  for (const cls of list.classes) {
    const races = new Map<string, Runner[]>();
    for (const person of cls.persons) {
      for (const result of person.results) {
        const key = raceKey(result);
        const group = races.get(key) ?? [];
        group.push(
          runnerOf(personName(person, '?'), result, {
            personId: person.person?.id,
            organisationId: person.organisation?.id,
          }),
        );
        races.set(key, group);
      }
    }
    for (const [race, runners] of races)
      analyses.push({
        class: cls.class.name,
        race: races.size > 1 ? race : null,
        leg: null,
        courses: analyseGroup(runners),
      });

    const legs = new Map<number, Runner[]>();
    for (const team of cls.teams) {
      for (const member of team.members) {
        const leg = member.leg ?? 0;
        const group = legs.get(leg) ?? [];
        // Relay forks are told apart by their codes; producers name relay courses per team or per fork.
        const who = {
          personId: member.person?.id,
          organisationId: member.organisation?.id ?? team.organisations?.[0]?.id,
        };
        group.push({ ...runnerOf(personName(member, team.name), member.result, who), course: null });
        legs.set(leg, group);
      }
    }
    for (const leg of [...legs.keys()].sort((a, b) => a - b))
      analyses.push({
        class: cls.class.name,
        race: null,
        leg: leg === 0 ? null : leg,
        courses: analyseGroup(legs.get(leg)!),
      });
  }
  return analyses;
}
