/**
 * One runner's time lost per leg as bars (docs/splits.md#pictures): mistakes in another colour and
 * labelled with the time lost, the leg rank under each leg.
 */
import type { CourseAnalysis } from '../splits/analysis.js';
import { clock, draw, FONT_FAMILY, GRID, PALETTE, TEXT } from './canvas.js';
import { notOnCourse } from './request.js';
import { type ChartPicture, niceStep } from './splits-graph.js';
import { pictureCode, pictureName, pictureTitle } from './text.js';
import { ENGLISH, type ChartWords } from './words.js';

export const BARS_WIDTH = 1000;
export const BARS_HEIGHT = 560;
/** A leg without a mistake, and a mistake. */
export const BAR_COLOUR = PALETTE[0];
export const MISTAKE_COLOUR = PALETTE[1];

export interface LostBarsInput {
  course: CourseAnalysis;
  /** What the course is, e.g. the class name `H21`. */
  title: string;
  /** Index into `course.results` of the runner. */
  runner: number;
  words?: ChartWords;
}

export interface LostBars extends ChartPicture {
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

  const { png, chart } = await draw(BARS_WIDTH, BARS_HEIGHT, () => ({
    type: 'bar',
    data: {
      labels,
      datasets: [
        {
          label: words.lostAxis,
          data: lost,
          backgroundColor: legs.map((l) => (l.mistake ? MISTAKE_COLOUR : BAR_COLOUR)),
          borderWidth: 0,
          categoryPercentage: 0.8,
          barPercentage: 0.9,
        },
      ],
    },
    options: {
      layout: { padding: { top: 8, left: 8, right: 16, bottom: 8 } },
      plugins: {
        title: {
          display: true,
          text: `${pictureName(runner.name)} · ${title}`,
          font: { family: FONT_FAMILY, size: 26, weight: 'bold' },
          color: TEXT,
        },
      },
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
          ctx.fillStyle = MISTAKE_COLOUR;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'bottom';
          c.getDatasetMeta(0).data.forEach((bar, k) => {
            const leg = legs[k]!;
            if (leg.mistake && leg.lost !== null) ctx.fillText(`+${clock(leg.lost)}`, bar.x, bar.y - 4);
          });
          ctx.restore();
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
    at: (leg, value) => ({ x: x.getPixelForValue(leg), y: y.getPixelForValue(value) }),
  };
}

function barsAlt(course: CourseAnalysis, index: number, title: string, words: ChartWords): string {
  const runner = course.results[index]!;
  const name = pictureName(runner.name);
  if (runner.lost === null) return `${words.barsAlt(title, name, 0, clock(0))}: ${words.noEstimate}.`;
  const last = runner.legs.length - 1;
  const mistakes = runner.legs
    .map((l, k) => ({ l, k }))
    .filter(({ l }) => l.mistake && l.lost !== null)
    .sort((a, b) => b.l.lost! - a.l.lost!);
  const head = words.barsAlt(title, name, mistakes.length, clock(runner.lost));
  const list = mistakes.map(({ l, k }) =>
    words.mistakeAlt(words.control(k === last ? null : k + 1, pictureCode(l.to)), clock(l.lost!), l.rank),
  );
  return `${head}${list.length === 0 ? '' : `: ${list.join('; ')}`}.`;
}
