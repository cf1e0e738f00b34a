/**
 * `eventor-bot splits <file>`: the split-time analysis of docs/splits.md over a result list file, as
 * a text table per class or as JSON.
 */
import { EventorError, InvalidResponse } from '../eventor/errors.js';
import type { ResultList } from '../eventor/model.js';
import { parseXmlFile } from '../eventor/parse-file.js';
import { formatElapsed } from '../eventor/time.js';
import type { RunnerAnalysis } from '../splits/analysis.js';
import { MAX_CLASS_RUNNERS, MAX_COURSE_CONTROLS } from '../splits/limits.js';
import { analyseResultList, type ClassAnalysis, type NamedCourseAnalysis } from '../splits/result-list.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, takeString, UsageError } from './args.js';
import { type Io, readInputFile } from './io.js';

const READS = 'an IOF XML 3.0 ResultList or an Eventor native ResultList';

export async function runSplits(args: ParsedArgs, io: Pick<Io, 'out' | 'err'>): Promise<number> {
  const [file, extra] = args.positionals;
  if (file === undefined) throw new UsageError('name the result list file: eventor-bot splits <file>');
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  const className = takeString(args.flags, 'class');
  const json = takeBoolean(args.flags, 'json');
  rejectLeftovers(args.flags);

  const bytes = await readInputFile('splits', file, io);
  if (bytes === null) return 1;
  let list: ResultList;
  try {
    const parsed = parseXmlFile(bytes);
    if (parsed.root !== 'ResultList') {
      io.err(`eventor-bot splits: '${file}' is a ${parsed.root}; splits reads ${READS}\n`);
      return 1;
    }
    list = parsed.data as ResultList;
  } catch (error) {
    if (error instanceof EventorError) {
      const problem =
        error instanceof InvalidResponse ? `${error.problem}${error.path ? ` at ${error.path}` : ''}` : error.message;
      io.err(`eventor-bot splits: '${file}' cannot be read: ${problem}. splits reads ${READS}\n`);
      return 1;
    }
    throw error;
  }

  let classes = analyseResultList(list);
  if (className !== undefined) {
    const wanted = className.trim().toLowerCase();
    classes = classes.filter((c) => c.class.trim().toLowerCase() === wanted);
    if (classes.length === 0) {
      const names = [...new Set(list.classes.map((c) => c.class.name))];
      io.err(
        `eventor-bot splits: no class '${className}' in '${file}'${names.length > 0 ? `; its classes: ${names.join(', ')}` : ' (it has no classes)'}\n`,
      );
      return 1;
    }
  }
  io.out(json ? `${JSON.stringify({ classes }, null, 2)}\n` : classes.map(textClass).join('\n'));
  return 0;
}

const time = (seconds: number | null): string => (seconds === null ? '-' : formatElapsed(seconds));
const signed = (seconds: number | null): string =>
  seconds === null ? '-' : seconds < 0 ? `-${formatElapsed(-seconds)}` : `+${formatElapsed(seconds)}`;

function textClass(analysis: ClassAnalysis): string {
  const title = [
    analysis.class,
    analysis.race === null ? '' : `race ${analysis.race}`,
    analysis.leg === null ? '' : `leg ${analysis.leg}`,
  ]
    .filter(Boolean)
    .join(', ');
  const parts = [`${title}\n${'='.repeat(title.length)}\n`];
  if (analysis.courses.length > 1)
    parts.push(`${analysis.courses.length} courses (forked): runners are compared within their own course.\n`);
  if (analysis.courses.length === 0) parts.push('No runner with split times or a result time.\n');
  for (const course of analysis.courses) parts.push(textCourse(course));
  return parts.join('\n');
}

/**
 * One row per runner: place, name, result, then per leg `leg time (rank)` over `time behind the ideal`,
 * with `!` after a mistake's loss. Columns are as wide as their widest cell.
 */
function textCourse(course: NamedCourseAnalysis): string {
  const header = ['', 'Name', 'Time', ...course.controls.map((code, i) => `${i + 1}:${code}`), 'F'];
  const rows: string[][] = [header];
  rows.push(['', 'best', time(course.ideal), ...course.bestLegs.map(time)]);
  for (const runner of course.results) rows.push(...runnerRows(runner));
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const about = [
    `${course.course === null ? '' : `Course ${course.course}: `}Controls: ${course.controls.length === 0 ? '(none)' : course.controls.join(' ')}`,
    `ideal ${time(course.ideal)}`,
    `${course.results.length} runner${course.results.length === 1 ? '' : 's'}`,
  ].join(', ');
  const warning = [
    course.controls.length === 0 ? '\nNo split times: only the result times are compared.' : '',
    course.tooFewRunners ? '\nToo few runners on this course: ranks and losses say little.' : '',
    course.tooLarge
      ? `\nToo large to analyse (docs/splits.md#limits: at most ${MAX_CLASS_RUNNERS} runners in a class, ${MAX_COURSE_CONTROLS} controls on a course): no legs.`
      : '',
  ].join('');
  return `${about}${warning}\n${rows.map(line).join('\n')}\n`;
}

function runnerRows(runner: RunnerAnalysis): string[][] {
  const result = runner.status === 'OK' ? time(runner.time) : runner.status;
  const legs = runner.legs.map((leg) => (leg.time === null ? '-' : `${time(leg.time)} (${leg.rank})`));
  const behind = runner.legs.map(
    (leg) => `${signed(leg.behind)}${leg.mistake && leg.lost !== null ? ` !${leg.lost}s` : ''}`,
  );
  const lost = runner.lost === null || runner.lost === 0 ? '' : `lost ${runner.lost}s`;
  return [
    [runner.place === null ? '' : `${runner.place}.`, runner.name, result, ...legs],
    ['', lost, '', ...behind],
  ];
}
