/**
 * What a picture is asked for with (plain data that crosses to the drawing thread), and the request
 * cut down to the runners the picture shows. A course's analysis holds every runner's every leg; a
 * picture draws a dozen lines, or one runner's bars. Cloning a class of thousands of runners into
 * the drawing thread (or hashing it to tell a changed picture) would cost the event loop more than
 * the drawing saves it, so only what is drawn goes (docs/decisions/chart-worker.md). No Chart.js
 * here: the main thread loads this module.
 */
import type { CourseAnalysis, RunnerAnalysis } from '../splits/analysis.js';
import type { ChartLanguage } from './words.js';

/**
 * Why a course gets no splits graph, or null when it gets one: the one rule of every place that
 * draws (`/splits`, the results thread, the result DM) and of the renderers themselves
 * (docs/splits.md#pictures). `tooLarge`: over the analysis's limits, which those places say in
 * words instead. `noSplits`: no controls, or a leg nobody has a time on (no ideal time to draw
 * from). `tooFew`: fewer than MIN_RUNNERS runners with a time (`tooFewRunners`), where every line
 * would be flat at 0:00 and say nothing.
 */
export function noGraph(course: CourseAnalysis): 'tooLarge' | 'noSplits' | 'tooFew' | null {
  if (course.tooLarge) return 'tooLarge';
  if (course.controls.length === 0 || course.ideal === null) return 'noSplits';
  if (course.tooFewRunners) return 'tooFew';
  return null;
}

/** Whether a course gets a splits graph ({@link noGraph}). */
export function canDrawGraph(course: CourseAnalysis): boolean {
  return noGraph(course) === null;
}

/**
 * Whether a runner of the course gets the time-lost bars: the course gets a graph, and the runner
 * has an estimate of time lost (an OK result; docs/splits.md#time-lost). Otherwise the bars would
 * be empty.
 */
export function canDrawBars(course: CourseAnalysis, runner: number): boolean {
  return canDrawGraph(course) && course.results[runner]?.lost != null;
}

/** The RangeError of a picture asked for a course or runner the rule gives none. */
export function noPicture(what: string, course: CourseAnalysis): RangeError {
  const why = noGraph(course);
  return new RangeError(
    `no ${what} for this course: ${
      why === 'tooLarge'
        ? 'it is over the limits'
        : why === 'noSplits'
          ? 'it has no split times to draw'
          : why === 'tooFew'
            ? 'too few runners'
            : 'the runner has no estimate of time lost'
    }`,
  );
}

export type PictureRequest =
  | {
      kind: 'graph';
      course: CourseAnalysis;
      /** What the picture is of, e.g. the class name `H21`. */
      title: string;
      /** Indices into `course.results` of the runners to draw strong (the club's), at most a dozen. */
      highlight: readonly number[];
      language: ChartLanguage;
      /**
       * Indices into `course.results` of the thin reference lines, once chosen (`shownRunners`
       * chooses them); otherwise the winner and two runners spread over the places.
       */
      references?: readonly number[];
      /** The course's runners in all, when `course.results` holds only those drawn (`shownRunners`). */
      runners?: number;
    }
  | {
      kind: 'bars';
      course: CourseAnalysis;
      title: string;
      /** Index into `course.results` of the runner. */
      runner: number;
      /**
       * The runner's place among the runners drawn strong in the graph of the same message (its
       * `highlight`), so the bars are in the runner's colour there (default 0, the first).
       */
      colour?: number;
      language: ChartLanguage;
    };

/** Reference lines besides the winner in a splits graph. */
export const REFERENCE_RUNNERS = 2;

/**
 * The winner and `others` runners spread evenly over the places after it, short of the last (with
 * two: a third and two thirds down the list); none of the highlighted. The graph's axis fits every
 * line it draws, so the slowest of a large class would squeeze the club's lines to the top.
 */
export function referenceRunners(
  results: readonly RunnerAnalysis[],
  highlighted: ReadonlySet<number>,
  others: number,
): number[] {
  const placed = results
    .map((r, i) => ({ r, i }))
    .filter(({ r, i }) => r.place !== null && !highlighted.has(i))
    .sort((a, b) => a.r.place! - b.r.place!)
    .map(({ i }) => i);
  if (placed.length === 0) return [];
  const chosen = new Set([placed[0]!]);
  for (let k = 1; k <= others && k < placed.length; k++) {
    chosen.add(placed[Math.round((k * (placed.length - 1)) / (others + 1))]!);
  }
  return [...chosen];
}

/** The RangeError of a runner not on the course, the same whichever thread finds it. */
export function notOnCourse(runner: string, course: CourseAnalysis): RangeError {
  return new RangeError(`${runner} is not on the course (it has ${course.results.length} runners)`);
}

/**
 * The request with the course cut down to the runners its picture shows: the highlighted runners
 * and the references of a graph (chosen here, with the course's count kept), the one runner of the
 * bars. The picture drawn from it is the one drawn from the whole course. Throws the renderers'
 * RangeError for a runner not on the course. A request already cut down comes back as it is.
 */
export function shownRunners(request: PictureRequest): PictureRequest {
  const { course } = request;
  if (request.kind === 'bars') {
    const runner = course.results[request.runner];
    if (!Number.isInteger(request.runner) || runner === undefined)
      throw notOnCourse(`runner ${request.runner}`, course);
    return { ...request, course: { ...course, results: [runner] }, runner: 0 };
  }
  for (const i of request.highlight)
    if (!Number.isInteger(i) || i < 0 || i >= course.results.length)
      throw notOnCourse(`runner ${i} to highlight`, course);
  if (request.references !== undefined) return request;
  const references = referenceRunners(course.results, new Set(request.highlight), REFERENCE_RUNNERS);
  const kept = [...new Set([...request.highlight, ...references])];
  const at = new Map(kept.map((index, k) => [index, k]));
  return {
    ...request,
    course: { ...course, results: kept.map((index) => course.results[index]!) },
    highlight: request.highlight.map((index) => at.get(index)!),
    references: references.map((index) => at.get(index)!),
    runners: request.runners ?? course.results.length,
  };
}
