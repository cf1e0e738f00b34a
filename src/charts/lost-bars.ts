/**
 * One runner's time lost per leg as bars (docs/splits.md#pictures), in the runner's colour from the
 * graph of the same message: mistakes in the full colour and labelled with the time lost, the other
 * legs light, a key saying which is which, the leg rank under each leg.
 */
import type { CourseAnalysis } from '../splits/analysis.js';
import {
  clock,
  draw,
  drawKey,
  FONT_FAMILY,
  GRID,
  KEY_HEIGHT,
  type KeySample,
  MARGIN,
  runnerColour,
  TEXT,
  tint,
  titleOption,
} from './canvas.js';
import { canDrawBars, noPicture, notOnCourse } from './request.js';
import { type ChartPicture, niceStep } from './splits-graph.js';
import { pictureCode, pictureName, pictureTitle } from './text.js';
import { ENGLISH, type ChartWords } from './words.js';

export const BARS_WIDTH = 1000;
export const BARS_HEIGHT = 560;
/** How much of the runner's colour a leg without a mistake has (the rest white): lighter, so a mistake stands out. */
const LOST_SHARE = 0.4;

/**
 * The bars' two colours for the runner drawn n-th strong in the graph ({@link runnerColour}): a
 * mistake in the runner's own colour, another leg lighter. Never another runner's colour, so in
 * one message a colour means one runner.
 */
export function barColours(n: number): { lost: string; mistake: string } {
  const colour = runnerColour(n);
  return { lost: tint(colour, LOST_SHARE), mistake: colour };
}

/** The colours of the first runner's bars (the member's, in `/splits` and the DM). */
export const BAR_COLOUR = barColours(0).lost;
export const MISTAKE_COLOUR = barColours(0).mistake;

export interface LostBarsInput {
  course: CourseAnalysis;
  /** What the course is, e.g. the class name `H21`. */
  title: string;
  /** Index into `course.results` of the runner. */
  runner: number;
  /** The runner's place among the runners drawn strong in the graph of the same message (default 0). */
  colour?: number;
  words?: ChartWords;
}

export interface LostBars extends ChartPicture {
  /** The key under the chart: where each entry's sample was drawn. */
  key: KeySample[];
  /** Where a value was drawn: `leg` 0 is the leg to control 1, the last the finish leg; `lost` in seconds. */
  at(leg: number, lost: number): { x: number; y: number };
}

const TICK_FONT = { family: FONT_FAMILY, size: 17 };

/** The bar chart of one runner's time lost per leg, as PNG bytes with its alt text. */
export async function renderLostBars(input: LostBarsInput): Promise<LostBars> {
  const { course } = input;
  // Eventor's text is drawn and described only as `./text.ts` makes it.
  const title = pictureTitle(input.title);
  const words = input.words ?? ENGLISH;
  const runner = course.results[input.runner];
  if (!Number.isInteger(input.runner) || runner === undefined) throw notOnCourse(`runner ${input.runner}`, course);
  // The one rule of every place that draws: no bars without a graph, nor without an estimate to draw.
  if (!canDrawBars(course, input.runner)) throw noPicture('time-lost bars', course);
  const { lost: lostColour, mistake: mistakeColour } = barColours(input.colour ?? 0);
  let key: KeySample[] = [];
  const legs = runner.legs;
  const last = legs.length - 1;
  const labels = legs.map((l, k) => [
    k === last ? words.finish : String(k + 1),
    k === last ? '' : pictureCode(l.to),
    l.rank === null ? '' : words.legRank(l.rank),
  ]);
  const lost = legs.map((l) => l.lost);
  const most = Math.max(30, ...lost.filter((v): v is number => v !== null));
  const step = niceStep(most * 1.15);

  const { png, chart } = await draw(BARS_WIDTH, BARS_HEIGHT, (measure) => ({
    type: 'bar',
    data: {
      labels,
      datasets: [
        {
          label: words.lostAxis,
          data: lost,
          backgroundColor: legs.map((l) => (l.mistake ? mistakeColour : lostColour)),
          borderWidth: 0,
          categoryPercentage: 0.8,
          barPercentage: 0.9,
        },
      ],
    },
    options: {
      layout: { padding: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + KEY_HEIGHT } },
      plugins: { title: titleOption(measure, `${pictureName(runner.name)} · ${title}`, BARS_WIDTH - 2 * MARGIN) },
      scales: {
        x: {
          grid: { display: false },
          ticks: { font: TICK_FONT, color: TEXT, autoSkip: false, maxRotation: 0 },
          title: { display: true, text: words.legsAxis, font: { ...TICK_FONT, size: 16 }, color: TEXT },
        },
        y: {
          min: 0,
          max: Math.ceil((most * 1.15) / step) * step,
          grid: { color: GRID },
          ticks: { font: TICK_FONT, color: TEXT, stepSize: step, callback: (v) => clock(Number(v)) },
          title: { display: true, text: words.lostAxis, font: { ...TICK_FONT, size: 18 }, color: TEXT },
        },
      },
    },
    plugins: [
      {
        id: 'eventorBotMistakeLabels',
        afterDatasetsDraw(c) {
          const ctx = c.ctx;
          ctx.save();
          ctx.font = `bold 17px "${FONT_FAMILY}"`;
          ctx.fillStyle = mistakeColour;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'bottom';
          c.getDatasetMeta(0).data.forEach((bar, k) => {
            const leg = legs[k]!;
            if (leg.mistake && leg.lost !== null) ctx.fillText(`+${clock(leg.lost)}`, bar.x, bar.y - 4);
          });
          ctx.restore();
        },
        afterDraw(c) {
          key = drawKey(
            c.ctx,
            [
              { label: words.keyLost, colours: [lostColour], mark: 'box' },
              { label: words.keyMistake, colours: [mistakeColour], mark: 'box' },
            ],
            c.chartArea.left,
            BARS_HEIGHT - MARGIN - KEY_HEIGHT / 2,
          );
        },
      },
    ],
  }));

  const x = chart.scales.x!;
  const y = chart.scales.y!;
  return {
    png,
    alt: barsAlt(course, input.runner, title, words),
    width: BARS_WIDTH,
    height: BARS_HEIGHT,
    key,
    at: (leg, value) => ({ x: x.getPixelForValue(leg), y: y.getPixelForValue(value) }),
  };
}

function barsAlt(course: CourseAnalysis, index: number, title: string, words: ChartWords): string {
  const runner = course.results[index]!;
  const name = pictureName(runner.name);
  const last = runner.legs.length - 1;
  const mistakes = runner.legs
    .map((l, k) => ({ l, k }))
    .filter(({ l }) => l.mistake && l.lost !== null)
    .sort((a, b) => b.l.lost! - a.l.lost!);
  const head = words.barsAlt(title, name, mistakes.length, clock(runner.lost ?? 0));
  const list = mistakes.map(({ l, k }) =>
    words.mistakeAlt(words.control(k === last ? null : k + 1, pictureCode(l.to)), clock(l.lost!), l.rank),
  );
  return `${head}${list.length === 0 ? '' : `: ${list.join('; ')}`}.`;
}
