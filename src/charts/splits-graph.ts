/**
 * The splits graph (docs/splits.md#pictures), as SplitsBrowser draws it: the controls along the x
 * axis, the time behind the ideal down the y axis (the ideal at the top, so ahead is up), a line
 * per runner. The caller's runners are drawn strong in Okabe–Ito colours and named at the line's
 * end; the winner and a few others thin and grey for reference.
 */
import type { CourseAnalysis, RunnerAnalysis } from '../splits/analysis.js';
import {
  clock,
  draw,
  drawKey,
  fitText,
  FONT_FAMILY,
  GREY,
  GRID,
  KEY_HEIGHT,
  type KeyEntry,
  type KeySample,
  MARGIN,
  PALETTE,
  runnerColour,
  TEXT,
  titleOption,
} from './canvas.js';
import { canDrawGraph, noPicture, notOnCourse, REFERENCE_RUNNERS, referenceRunners } from './request.js';
import { pictureCode, pictureName, pictureTitle } from './text.js';
import { ENGLISH, endedStatus, type ChartWords } from './words.js';

export const GRAPH_WIDTH = 1000;
export const GRAPH_HEIGHT = 620;

export interface SplitsGraphInput {
  course: CourseAnalysis;
  /** What the picture is of, e.g. the class name `H21`; its title and the alt text's subject. */
  title: string;
  /** Indices into `course.results` of the runners to draw strong (the club's), at most a dozen. */
  highlight: readonly number[];
  /** Reference runners besides the winner, spread over the places (default 2). */
  references?: number;
  /** Indices into `course.results` of the reference lines, when the caller chose them (`shownRunners`). */
  referenceLines?: readonly number[];
  /** The course's runners in all, for the alt text, when `course.results` holds only those drawn. */
  runners?: number;
  words?: ChartWords;
}

export interface ChartPicture {
  png: Buffer;
  /** What the picture shows, in words: for screen readers and anyone whose image does not load. */
  alt: string;
  width: number;
  height: number;
}

/** A cross drawn where a line ends without a valid finish, and the words beside it. */
export interface GraphMark {
  /** Which line: the highlighted runners in order, then the reference lines. */
  line: number;
  /** The point the line ends at (0 the start, the last the finish). */
  point: number;
  x: number;
  y: number;
  /** The label beside it: the name and the mark, e.g. `Anna Berg · DNF`. */
  text: string;
}

export interface SplitsGraph extends ChartPicture {
  /** The colour of each highlighted runner's line, in the order given. */
  colours: string[];
  /** The crosses where lines end without a valid finish (DNF, MP, DSQ…). */
  marks: GraphMark[];
  /** The key under the chart: where each entry's sample was drawn. */
  key: KeySample[];
  /**
   * Where a value was drawn: `point` 0 is the start, k control k, the last the finish; `behind` in
   * seconds. Chart.js's own geometry, for image maps and tests.
   */
  at(point: number, behind: number): { x: number; y: number };
}

const TICK_FONT = { family: FONT_FAMILY, size: 17 };
const LABEL_FONT_SIZE = 19;
/** The widest name at a line's end (with its mark); a longer one is shortened with an ellipsis. */
const LABEL_MAX_WIDTH = 260;
/** Between a line's end and its name. */
const LABEL_GAP = 10;
/** Half the cross marking where a line ends without a valid finish. */
const MARK_ARM = 8;
const STEPS = [10, 15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600];

/** A step for the y axis that gives at most about eight gridlines of whole, readable times. */
export function niceStep(range: number): number {
  return STEPS.find((s) => range / s <= 8) ?? Math.ceil(range / 8 / 3600) * 3600;
}

/** The leg a runner lost most time on, in words; null when no leg shows a loss. */
export function worstLeg(
  runner: RunnerAnalysis,
  words: ChartWords,
): { control: string; lost: string; seconds: number; leg: number } | null {
  let worst: { leg: number; seconds: number } | null = null;
  runner.legs.forEach((l, k) => {
    if (l.lost !== null && l.lost > 0 && (worst === null || l.lost > worst.seconds))
      worst = { leg: k, seconds: l.lost };
  });
  if (worst === null) return null;
  const { leg, seconds } = worst;
  const last = leg === runner.legs.length - 1;
  return {
    leg,
    seconds,
    lost: clock(seconds),
    control: words.control(last ? null : leg + 1, pictureCode(runner.legs[leg]!.to)),
  };
}

/** The splits graph of one course as PNG bytes, with its alt text. */
export async function renderSplitsGraph(input: SplitsGraphInput): Promise<SplitsGraph> {
  const { course } = input;
  // Eventor's text is drawn and described only as `./text.ts` makes it: here, and at each name and code below.
  const title = pictureTitle(input.title);
  const words = input.words ?? ENGLISH;
  for (const i of [...input.highlight, ...(input.referenceLines ?? [])]) {
    if (!Number.isInteger(i) || i < 0 || i >= course.results.length)
      throw notOnCourse(`runner ${i} to highlight`, course);
  }
  // The one rule of every place that draws: a course too small (or over the limits) gets no graph.
  if (!canDrawGraph(course)) throw noPicture('splits graph', course);
  const highlight = [...new Set(input.highlight)];
  const references =
    input.referenceLines !== undefined
      ? [...input.referenceLines]
      : referenceRunners(course.results, new Set(highlight), input.references ?? REFERENCE_RUNNERS);
  const labels: (string | string[])[] = [
    words.start,
    ...course.controls.map((code, k) => [String(k + 1), pictureCode(code)]),
    words.finish,
  ];
  const points = (r: RunnerAnalysis): (number | null)[] => [0, ...r.legs.map((l) => l.behind)];
  const colours = highlight.map((_, n) => runnerColour(n));
  const lines = [
    ...highlight.map((i, n) => ({ index: i, colour: colours[n]!, strong: true, dash: n >= PALETTE.length })),
    ...references.map((i) => ({ index: i, colour: GREY, strong: false, dash: false })),
  ];
  const values = lines.flatMap((l) => points(course.results[l.index]!)).filter((v): v is number => v !== null);
  const top = Math.min(0, ...values);
  // The axis fits every line drawn, so none leaves the picture (docs/splits.md#pictures).
  const bottom = Math.max(60, ...values.map((v) => v * 1.15));
  const step = niceStep(bottom - top);
  const names = lines.map((l) => pictureName(course.results[l.index]!.name));
  // Where each line ends (its last time), and the mark there of a runner who did not finish, mispunched…
  const ends = lines.map((l) => {
    const data = points(course.results[l.index]!);
    let last = -1;
    data.forEach((v, k) => (v !== null ? (last = k) : undefined));
    const status = endedStatus(course.results[l.index]!.status);
    return { last, mark: status === null ? null : words.endedMark[status] };
  });
  const fontOf = (strong: boolean): string =>
    `${strong ? 'bold ' : ''}${strong ? LABEL_FONT_SIZE : LABEL_FONT_SIZE - 3}px "${FONT_FAMILY}"`;
  const marks: GraphMark[] = [];
  let key: KeySample[] = [];

  const { png, chart } = await draw(GRAPH_WIDTH, GRAPH_HEIGHT, (measure) => {
    // Each line's name at its end, shortened to the labels' room; the mark after it.
    const texts = lines.map((l, n) => {
      measure.font = fontOf(l.strong);
      const mark = ends[n]!.mark;
      const suffix = mark === null ? '' : ` · ${mark}`;
      const room = LABEL_MAX_WIDTH - measure.measureText(suffix).width;
      return `${fitText(measure, names[n]!, room)}${suffix}`;
    });
    const labelWidth = Math.max(
      0,
      ...lines.map((l, n) => {
        measure.font = fontOf(l.strong);
        return measure.measureText(texts[n]!).width;
      }),
    );
    const right = labelWidth + MARK_ARM + LABEL_GAP + MARGIN;
    return {
      type: 'line',
      data: {
        labels,
        // The first dataset is drawn last, on top: the highlighted runners come first.
        datasets: lines.map((l, n) => ({
          label: names[n]!,
          data: points(course.results[l.index]!),
          borderColor: l.colour,
          backgroundColor: l.colour,
          borderWidth: l.strong ? 4 : 2,
          borderDash: l.dash ? [10, 6] : [],
          pointRadius: l.strong ? 4 : 0,
          spanGaps: true,
          tension: 0,
        })),
      },
      options: {
        layout: {
          padding: {
            top: MARGIN,
            left: MARGIN,
            bottom: MARGIN + KEY_HEIGHT,
            right,
          },
        },
        // Centred over the room left of the names, as Chart.js places it.
        plugins: { title: titleOption(measure, title, GRAPH_WIDTH - MARGIN - right) },
        scales: {
          x: {
            grid: { color: GRID },
            ticks: { font: TICK_FONT, color: TEXT, autoSkip: false, maxRotation: 0 },
          },
          y: {
            reverse: true,
            min: Math.floor(top / step) * step,
            max: Math.ceil(bottom / step) * step,
            grid: { color: GRID },
            ticks: { font: TICK_FONT, color: TEXT, stepSize: step, callback: (v) => clock(Number(v)) },
            title: { display: true, text: words.behindAxis, font: { ...TICK_FONT, size: 18 }, color: TEXT },
          },
        },
      },
      plugins: [
        {
          id: 'eventorBotLineNames',
          afterDatasetsDraw(c) {
            const ctx = c.ctx;
            const placed: { y: number; x: number; n: number }[] = [];
            lines.forEach((_, n) => {
              const { last } = ends[n]!;
              if (last < 0) return;
              const el = c.getDatasetMeta(n).data[last]!;
              placed.push({ y: el.y, x: el.x, n });
            });
            ctx.save();
            // A cross where a line ends without a valid finish, in the runner's colour on a white halo.
            for (const p of placed) {
              if (ends[p.n]!.mark === null) continue;
              const colour = lines[p.n]!.colour;
              for (const [width, stroke] of [
                [7, '#FFFFFF'],
                [3, colour],
              ] as const) {
                ctx.lineWidth = width;
                ctx.strokeStyle = stroke;
                ctx.beginPath();
                ctx.moveTo(p.x - MARK_ARM, p.y - MARK_ARM);
                ctx.lineTo(p.x + MARK_ARM, p.y + MARK_ARM);
                ctx.moveTo(p.x - MARK_ARM, p.y + MARK_ARM);
                ctx.lineTo(p.x + MARK_ARM, p.y - MARK_ARM);
                ctx.stroke();
              }
            }
            // Names of lines ending at the same point side by side are pushed apart, top to bottom,
            // then kept clear of the title and the key: a name never leaves the picture.
            const gap = LABEL_FONT_SIZE + 2;
            const lowest = c.chartArea.bottom;
            const highest = Math.max(MARGIN + gap / 2, c.chartArea.top);
            for (const x of new Set(placed.map((p) => p.x))) {
              const column = placed.filter((p) => p.x === x).sort((a, b) => a.y - b.y);
              for (let k = 1; k < column.length; k++)
                if (column[k]!.y - column[k - 1]!.y < gap) column[k]!.y = column[k - 1]!.y + gap;
              for (let k = column.length - 1; k >= 0; k--) {
                const below = k === column.length - 1 ? lowest : column[k + 1]!.y - gap;
                column[k]!.y = Math.max(highest, Math.min(column[k]!.y, below));
              }
            }
            ctx.textBaseline = 'middle';
            ctx.lineJoin = 'round';
            for (const p of placed) {
              const line = lines[p.n]!;
              const text = texts[p.n]!;
              const x = p.x + (ends[p.n]!.mark === null ? LABEL_GAP : MARK_ARM + LABEL_GAP);
              ctx.font = fontOf(line.strong);
              // A white halo, so a name over other lines (one that ends early) reads.
              ctx.lineWidth = 4;
              ctx.strokeStyle = '#FFFFFF';
              ctx.strokeText(text, x, p.y);
              ctx.fillStyle = line.colour;
              ctx.fillText(text, x, p.y);
              if (ends[p.n]!.mark !== null) {
                const el = c.getDatasetMeta(p.n).data[ends[p.n]!.last]!;
                marks.push({ line: p.n, point: ends[p.n]!.last, x: el.x, y: el.y, text });
              }
            }
            ctx.restore();
          },
          afterDraw(c) {
            const entries: KeyEntry[] = [];
            if (highlight.length > 0)
              entries.push({ label: words.keyHighlighted, colours: colours.slice(0, 3), mark: 'line' });
            if (references.length > 0) entries.push({ label: words.keyReference, colours: [GREY], mark: 'thin' });
            key = drawKey(c.ctx, entries, c.chartArea.left, GRAPH_HEIGHT - MARGIN - KEY_HEIGHT / 2);
          },
        },
      ],
    };
  });

  const alt = graphAlt(course, input.runners ?? course.results.length, title, highlight, references, words);
  const x = chart.scales.x!;
  const y = chart.scales.y!;
  return {
    png,
    alt,
    width: GRAPH_WIDTH,
    height: GRAPH_HEIGHT,
    colours,
    marks,
    key,
    at: (point, behind) => ({ x: x.getPixelForValue(point), y: y.getPixelForValue(behind) }),
  };
}

function graphAlt(
  course: CourseAnalysis,
  runners: number,
  title: string,
  highlight: readonly number[],
  references: readonly number[],
  words: ChartWords,
): string {
  const describe = (i: number, mark: boolean): string => {
    const r = course.results[i]!;
    const finish = r.legs[r.legs.length - 1]?.behind ?? null;
    const worst = worstLeg(r, words);
    const name = mark ? words.highlighted(pictureName(r.name)) : pictureName(r.name);
    const ended = endedStatus(r.status);
    if (ended !== null) {
      // Where the line ends, as the cross on the picture marks it.
      let last = -1;
      r.legs.forEach((l, k) => (l.behind !== null ? (last = k) : undefined));
      const at =
        last < 0 ? null : words.control(last === r.legs.length - 1 ? null : last + 1, pictureCode(r.legs[last]!.to));
      return words.endedAlt(name, ended, at);
    }
    return words.graphRunnerAlt(
      name,
      finish === null ? null : clock(finish),
      worst === null ? null : { control: worst.control, lost: worst.lost },
    );
  };
  const parts = [...highlight.map((i) => describe(i, true)), ...references.slice(0, 1).map((i) => describe(i, false))];
  return `${words.graphAlt(title, runners)}${parts.length === 0 ? '' : `: ${parts.join('; ')}`}.`;
}
