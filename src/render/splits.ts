/**
 * Split times as a phone-width code block (docs/iof-xml.md#split-times): times are cumulative, so a leg
 * is the difference from the previous control with a time; Missing controls show `-`, Additional
 * punches are skipped, and the finish leg is the total minus the last split. With the class's
 * analysis (docs/splits.md) each leg also shows its leg rank and the time lost on it.
 */
import type { RaceResult } from '../eventor/answers.js';
import { formatElapsed } from '../eventor/time.js';
import { type Language, t } from '../i18n/index.js';
import type { CourseAnalysis, RunnerAnalysis } from '../splits/analysis.js';
import type { ClassAnalysis } from '../splits/result-list.js';
import { codeSafe } from './format.js';

export interface SplitRow {
  /** 1-based control number on the course; null for the finish. */
  number: number | null;
  code: string;
  /** Seconds, null when unknown (missing punch, unknown time, or the previous time unknown). */
  leg: number | null;
  cumulative: number | null;
}

export function splitRows(result: Pick<RaceResult, 'splits' | 'time'>): SplitRow[] {
  const rows: SplitRow[] = [];
  let previous: number | null = 0;
  let number = 0;
  for (const split of result.splits) {
    if (split.status === 'Additional') continue;
    number += 1;
    if (split.status === 'Missing' || split.time === null) {
      rows.push({ number, code: split.controlCode, leg: null, cumulative: null });
      previous = null;
      continue;
    }
    rows.push({
      number,
      code: split.controlCode,
      leg: previous === null ? null : split.time - previous,
      cumulative: split.time,
    });
    previous = split.time;
  }
  if (result.time !== null) {
    rows.push({
      number: null,
      code: '',
      leg: previous === null ? null : result.time - previous,
      cumulative: result.time,
    });
  }
  return rows;
}

const CODE_WIDTH = 6;
/** The widest line of a table with ranks and losses: a code block line wider than this wraps on a phone. */
export const SPLIT_LINE_MAX = 34;

/** One runner's analysed legs and the course they were compared on. */
export interface RunnerLegs {
  course: CourseAnalysis;
  runner: RunnerAnalysis;
}

/** What identifies a runner's result in an event's analysis. */
export interface AnalysedResult {
  className: string;
  /** The runner's name as the analysis gives it (`Given Family`; a relay member without one, the team's name). */
  name: string;
  /** The relay leg; null for individual results. */
  leg: number | null;
  result: Pick<RaceResult, 'raceNumber' | 'raceId' | 'status' | 'time' | 'splits'>;
}

/** Finds a runner's legs in an event's analysis, or null when the analysis has none (or two) that fit. */
export type SplitLegsLookup = (wanted: AnalysedResult) => RunnerLegs | null;

/**
 * A lookup into `analyseResultList`'s answer for an event. The analysis names runners, not ids, so a
 * result is found by class, race, relay leg, name, status and time; two that fit (namesakes with the
 * same time) find nothing rather than the wrong one. The runners are indexed once by class, leg and
 * name, so a page of the club's runners costs a look-up each, not a pass over the class each
 * (docs/splits.md#how-long-it-takes).
 */
export function splitLegsLookup(analyses: readonly ClassAnalysis[]): SplitLegsLookup {
  const byName = new Map<string, { race: string | null; legs: RunnerLegs }[]>();
  const keyOf = (className: string, leg: number | null, name: string) => JSON.stringify([className, leg, name]);
  for (const analysis of analyses)
    for (const course of analysis.courses)
      for (const runner of course.results) {
        const key = keyOf(analysis.class, analysis.leg, runner.name);
        const entries = byName.get(key) ?? [];
        entries.push({ race: analysis.race, legs: { course, runner } });
        byName.set(key, entries);
      }
  return ({ className, name, leg, result }) => {
    const race = String(result.raceNumber ?? result.raceId ?? '');
    const controls = result.splits.filter((s) => s.status !== 'Additional').length;
    const found = (byName.get(keyOf(className, leg, name)) ?? []).filter(
      (entry) =>
        (entry.race === null || entry.race === race) &&
        entry.legs.course.controls.length === controls &&
        entry.legs.runner.status === result.status &&
        entry.legs.runner.time === result.time,
    );
    return found.length === 1 ? found[0]!.legs : null;
  };
}

/**
 * The table, fenced as a code block: at most 27 characters wide, or with `legs` (the runner's
 * analysis) at most {@link SPLIT_LINE_MAX} with two more columns, the leg rank and the time lost
 * (`+0:42`; `0` when not slower than expected; `-` where the analysis has no figure).
 */
export function splitTable(
  result: Pick<RaceResult, 'splits' | 'time'>,
  language: Language,
  legs: RunnerLegs | null = null,
): string {
  const time = (seconds: number | null) => (seconds === null ? '-' : formatElapsed(seconds));
  // A course over the analysis's limits has no legs to show: the plain table, and the caller says why.
  if (legs !== null && !legs.course.tooLarge) return analysedTable(result, language, legs, time);
  const line = (number: string, code: string, leg: string, total: string) =>
    `${number.padStart(2)}  ${code.slice(0, CODE_WIDTH).padEnd(CODE_WIDTH)} ${leg.padStart(7)} ${total.padStart(8)}`.trimEnd();
  const lines = [
    line('#', t(language, 'render.splits.code'), t(language, 'render.splits.leg'), t(language, 'render.splits.total')),
  ];
  for (const row of splitRows(result)) {
    lines.push(
      line(
        row.number === null ? '' : String(row.number),
        row.number === null ? t(language, 'render.splits.finish') : codeSafe(row.code),
        time(row.leg),
        time(row.cumulative),
      ),
    );
  }
  return `\`\`\`\n${lines.join('\n')}\n\`\`\``;
}

/** The table with leg ranks and losses: columns as wide as their widest cell, fitted to a phone. */
function analysedTable(
  result: Pick<RaceResult, 'splits' | 'time'>,
  language: Language,
  { course, runner }: RunnerLegs,
  time: (seconds: number | null) => string,
): string {
  const lost = (seconds: number | null) =>
    seconds === null ? '-' : Math.round(seconds) === 0 ? '0' : `+${formatElapsed(seconds)}`;
  const rows: string[][] = [
    [
      '#',
      t(language, 'render.splits.code'),
      t(language, 'render.splits.leg'),
      t(language, 'render.splits.total'),
      t(language, 'render.splits.rank'),
      t(language, 'render.splits.lost'),
    ],
  ];
  for (const row of splitRows(result)) {
    const leg = runner.legs[row.number === null ? course.controls.length : row.number - 1];
    rows.push([
      row.number === null ? '' : String(row.number),
      row.number === null ? t(language, 'render.splits.finish') : codeSafe(row.code),
      time(row.leg),
      time(row.cumulative),
      leg?.rank == null ? '-' : String(leg.rank),
      lost(leg?.lost ?? null),
    ]);
  }
  const finishRow = rows.length - 1;
  const hasFinish = result.time !== null;
  // At least as wide as the plain table's columns, so the two look alike; wider for a wider cell.
  // The finish's word is left out: it may run on into the room before its leg time.
  const widths = [2, 4, 5, 5, 2, 4].map((least, c) =>
    Math.max(
      least,
      ...rows.filter((_, r) => !(c === 1 && hasFinish && r === finishRow)).map((cells) => cells[c]!.length),
    ),
  );
  const width = (gap: number) => widths.reduce((sum, w) => sum + w, 0) + gap * (widths.length - 1);
  const fitFinish = (gap: number) => {
    if (!hasFinish) return;
    const [, word, leg] = rows[finishRow]!;
    widths[1] = Math.max(widths[1]!, word!.length + 1 + leg!.length - gap - widths[2]!);
  };
  // Two spaces between columns where they fit a phone, else one; then the code column gives way
  // (a code of more than a few characters is rare), never below one character.
  fitFinish(2);
  const gap = width(2) <= SPLIT_LINE_MAX ? 2 : 1;
  fitFinish(gap);
  widths[1] = Math.max(1, widths[1]! - Math.max(0, width(gap) - SPLIT_LINE_MAX));
  const space = ' '.repeat(gap);
  const lines = rows.map((cells, r) => {
    const [number, code, leg, ...rest] = cells as [string, string, string, ...string[]];
    const aligned = rest.map((cell, c) => cell.padStart(widths[c + 3]!));
    const head =
      hasFinish && r === finishRow
        ? // The finish's word and its leg time share the code and leg columns.
          `${code.slice(0, widths[1]! + gap + widths[2]! - leg.length - 1).padEnd(widths[1]! + gap + widths[2]! - leg.length)}${leg}`
        : `${code.slice(0, widths[1]).padEnd(widths[1]!)}${space}${leg.padStart(widths[2]!)}`;
    return [number.padStart(widths[0]!), head, ...aligned].join(space).trimEnd();
  });
  return `\`\`\`\n${lines.join('\n')}\n\`\`\``;
}
