/**
 * A runner's split analysis in words (docs/splits.md#time-lost): where they lost most, with the leg
 * rank, and how much the mistakes cost over the course. The same lines go under the pictures in
 * `/splits`, in the results thread and in the "your result is in" DM.
 */
import { formatElapsed } from '../eventor/time.js';
import { type Language, t } from '../i18n/index.js';
import type { CourseAnalysis, RunnerAnalysis } from '../splits/analysis.js';
import { MAX_CLASS_RUNNERS, MAX_COURSE_CONTROLS, MAX_THREAD_CLUB_RUNNERS } from '../splits/limits.js';

/** At most this many mistakes are named; the total still counts them all. */
export const MAX_MISTAKE_LINES = 5;

/**
 * The limits as `render.analysis.tooLarge` names them: the one message every place that shows the
 * analysis gives instead when it is over them (docs/splits.md#limits): `/splits`, `/results` with
 * splits, the results thread and the result DM.
 */
export const TOO_LARGE_LIMITS = {
  runners: MAX_CLASS_RUNNERS,
  controls: MAX_COURSE_CONTROLS,
  clubRunners: MAX_THREAD_CLUB_RUNNERS,
} as const;

/** `render.analysis.tooLarge` in a language. */
export function tooLargeText(language: Language): string {
  return t(language, 'render.analysis.tooLarge', TOO_LARGE_LIMITS);
}

/** `control 7` or `the finish`, in the language. */
function controlName(course: CourseAnalysis, leg: number, language: Language): string {
  return leg >= course.controls.length
    ? t(language, 'render.analysis.finish')
    : t(language, 'render.analysis.control', { number: String(leg + 1) });
}

/**
 * The lines for one runner of an analysed course, e.g. `lost 1:12 at control 7 (leg rank 14/22)`
 * per mistake, largest first, then `about 2:40 in mistakes over the course`. Without an estimate
 * (not OK, too few runners) one line says why.
 */
export function runnerAnalysisLines(course: CourseAnalysis, runner: RunnerAnalysis, language: Language): string[] {
  if (course.tooLarge) return [tooLargeText(language)];
  if (runner.lost === null || course.tooFewRunners) {
    return [t(language, runner.status === 'OK' ? 'render.analysis.tooFew' : 'render.analysis.notOk')];
  }
  // Counted once by the analysis: counting here, once per runner, made a thread's words quadratic.
  const of = course.legRunners;
  const mistakes = runner.legs
    .map((leg, k) => ({ leg, k }))
    .filter(({ leg }) => leg.mistake && leg.lost !== null)
    .sort((a, b) => b.leg.lost! - a.leg.lost! || a.k - b.k);
  if (mistakes.length === 0) return [t(language, 'render.analysis.clean')];
  const lines = mistakes.slice(0, MAX_MISTAKE_LINES).map(({ leg, k }) => {
    const at = { lost: formatElapsed(leg.lost!), control: controlName(course, k, language) };
    return leg.rank === null
      ? t(language, 'render.analysis.lostAt', at)
      : t(language, 'render.analysis.lostAtRanked', { ...at, rank: String(leg.rank), of: String(of[k]) });
  });
  lines.push(t(language, 'render.analysis.total', { lost: formatElapsed(runner.lost) }));
  return lines;
}
