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
      language: ChartLanguage;
    };

/** Reference lines besides the winner in a splits graph. */
export const REFERENCE_RUNNERS = 2;

/** The winner and `others` runners spread evenly over the remaining places; none of the highlighted. */
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
    chosen.add(placed[Math.round((k * (placed.length - 1)) / Math.max(others, 1))]!);
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
