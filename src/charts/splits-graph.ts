/**
 * The splits graph (docs/splits.md#pictures), as SplitsBrowser draws it: the controls along the x
 * axis, the time behind the ideal down the y axis (the ideal at the top, so ahead is up), a line
 * per runner. The caller's runners are drawn strong in Okabe–Ito colours and named at the line's
 * end; the winner and a few others thin and grey for reference.
 */
import type { CourseAnalysis, RunnerAnalysis } from '../splits/analysis.js';
import { clock, draw, FONT_FAMILY, GREY, GRID, PALETTE, TEXT } from './canvas.js';
import { notOnCourse, REFERENCE_RUNNERS, referenceRunners } from './request.js';
import { pictureCode, pictureName, pictureTitle } from './text.js';
import { ENGLISH, type ChartWords } from './words.js';

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

export interface SplitsGraph extends ChartPicture {
  /** The colour of each highlighted runner's line, in the order given. */
  colours: string[];
  /**
   * Where a value was drawn: `point` 0 is the start, k control k, the last the finish; `behind` in
   * seconds. Chart.js's own geometry, for image maps and tests.
   */
  at(point: number, behind: number): { x: number; y: number };
}

const TICK_FONT = { family: FONT_FAMILY, size: 17 };
const LABEL_FONT_SIZE = 19;
/** The widest name at a line's end; a longer one is shortened with an ellipsis. */
const LABEL_MAX_WIDTH = 260;
const STEPS = [10, 15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600];

/** A step for the y axis that gives at most about eight gridlines of whole, readable times. */
export function niceStep(range: number): number {
  return STEPS.find((s) => range / s <= 8) ?? Math.ceil(range / 8 / 3600) * 3600;
}

/** The name shortened with an ellipsis until it fits the labels' room (a long name would leave the picture). */
function fit(name: string, width: (text: string) => number): string {
  if (width(name) <= LABEL_MAX_WIDTH) return name;
  let kept = name.length;
  while (kept > 1 && width(`${name.slice(0, kept).trimEnd()}…`) > LABEL_MAX_WIDTH) kept--;
  return `${name.slice(0, kept).trimEnd()}…`;
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
  const colours = highlight.map((_, n) => PALETTE[n % PALETTE.length]!);
  const lines = [
    ...highlight.map((i, n) => ({ index: i, colour: colours[n]!, strong: true, dash: n >= PALETTE.length })),
    ...references.map((i) => ({ index: i, colour: GREY, strong: false, dash: false })),
  ];
  const valuesOf = (indices: readonly number[]): number[] =>
    indices.flatMap((i) => points(course.results[i]!)).filter((v): v is number => v !== null);
  const values = valuesOf(lines.map((l) => l.index));
  const top = Math.min(0, ...values);
  // The axis fits the highlighted runners and the winner; slower reference lines leave at the bottom.
  const focus = valuesOf(highlight.length > 0 ? [...highlight, ...references.slice(0, 1)] : references);
  const bottom = Math.max(60, ...focus.map((v) => v * 1.15));
  const step = niceStep(bottom - top);
  const names = lines.map((l) => pictureName(course.results[l.index]!.name));

  const { png, chart } = await draw(GRAPH_WIDTH, GRAPH_HEIGHT, (measure) => {
    measure.font = `bold ${LABEL_FONT_SIZE}px "${FONT_FAMILY}"`;
    // Room on the right for the names at the lines' ends.
    const labelWidth = Math.min(LABEL_MAX_WIDTH, Math.max(0, ...names.map((n) => measure.measureText(n).width)));
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
        layout: { padding: { top: 8, left: 8, bottom: 8, right: labelWidth + 16 } },
        plugins: {
          title: { display: true, text: title, font: { family: FONT_FAMILY, size: 26, weight: 'bold' }, color: TEXT },
        },
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
            const placed: { y: number; name: string; colour: string; x: number; strong: boolean }[] = [];
            lines.forEach((l, n) => {
              const meta = c.getDatasetMeta(n);
              const data = points(course.results[l.index]!);
              let last = -1;
              data.forEach((v, k) => (v !== null ? (last = k) : undefined));
              if (last < 0) return;
              const el = meta.data[last]!;
              // A reference line that ends below the axis is not named.
              if (el.y > c.chartArea.bottom + 1) return;
              placed.push({ y: el.y, x: el.x + 10, name: names[n]!, colour: l.colour, strong: l.strong });
            });
            // Push overlapping names apart, top to bottom, keeping each near its line.
            placed.sort((a, b) => a.y - b.y);
            const gap = LABEL_FONT_SIZE + 2;
            for (let k = 1; k < placed.length; k++) {
              if (placed[k]!.y - placed[k - 1]!.y < gap) placed[k]!.y = placed[k - 1]!.y + gap;
            }
            ctx.save();
            ctx.textBaseline = 'middle';
            for (const p of placed) {
              ctx.font = `${p.strong ? 'bold ' : ''}${p.strong ? LABEL_FONT_SIZE : LABEL_FONT_SIZE - 3}px "${FONT_FAMILY}"`;
              ctx.fillStyle = p.colour;
              ctx.fillText(
                fit(p.name, (t) => ctx.measureText(t).width),
                p.x,
                p.y,
              );
            }
            ctx.restore();
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
    const name = pictureName(r.name);
    return words.graphRunnerAlt(
      mark ? words.highlighted(name) : name,
      finish === null ? null : clock(finish),
      worst === null ? null : { control: worst.control, lost: worst.lost },
    );
  };
  const parts = [...highlight.map((i) => describe(i, true)), ...references.slice(0, 1).map((i) => describe(i, false))];
  return `${words.graphAlt(title, runners)}${parts.length === 0 ? '' : `: ${parts.join('; ')}`}.`;
}
