/**
 * The season's pictures (docs/members.md#season-your-year-and-the-clubs-table): a member's year,
 * each race a dot at its day with the share of the class beaten, and the club's year, its starts and
 * podiums per month as bars. Plain data in, PNG and alt text out, drawn like the split pictures
 * (canvas.ts) in the drawing thread (draw.ts); the title and the races' names are cleaned here as
 * the split pictures clean theirs (text.ts), whoever asked for the picture.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { draw, drawKey, FONT_FAMILY, GRID, KEY_HEIGHT, MARGIN, PALETTE, TEXT, titleOption } from './canvas.js';
import type { ChartPicture } from './splits-graph.js';
import { type SeasonChartWords, seasonChartWords } from './season-words.js';
import { pictureName, pictureTitle } from './text.js';

export const SEASON_WIDTH = 1000;
export const SEASON_HEIGHT = 520;
/** Races and months named in the alt text at most; the rest are counted. */
const ALT_ITEMS = 24;

export interface SeasonYearInput {
  /** What the picture is of, e.g. `Anna Berg · 2026`. */
  title: string;
  year: number;
  /** One per race: its local day (YYYY-MM-DD), what to call it in the alt text, and the share beaten (0 to 1). */
  races: ReadonlyArray<{ day: string; label: string; share: number }>;
  words?: SeasonChartWords;
}

export interface ClubYearInput {
  title: string;
  /** Twelve months, January first. */
  months: ReadonlyArray<{ starts: number; podiums: number }>;
  words?: SeasonChartWords;
}

const TICK_FONT = { family: FONT_FAMILY, size: 17 };

/** The picture's title, cleaned and set (and shortened to fit) as the split pictures set theirs. */
function title(measure: SKRSContext2D, text: string, right: number) {
  return titleOption(measure, pictureTitle(text), SEASON_WIDTH - MARGIN - right);
}

/** Days since 1 January of the year (0 to 365). */
function dayOfYear(day: string, year: number): number {
  return Math.round((Date.parse(`${day}T12:00:00Z`) - Date.parse(`${year}-01-01T12:00:00Z`)) / 86_400_000);
}

/** The day of each month's first, for the x axis's ticks. */
function monthStarts(year: number): number[] {
  return Array.from({ length: 12 }, (_, m) => dayOfYear(`${year}-${String(m + 1).padStart(2, '0')}-01`, year));
}

function listed(items: readonly string[], words: SeasonChartWords): string {
  const shown = items.slice(0, ALT_ITEMS);
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; ${words.more(rest)}` : shown.join('; ');
}

/** A member's year: a dot per race at its day, up the share of the class beaten. */
export async function renderSeasonYear(input: SeasonYearInput): Promise<ChartPicture> {
  const words = input.words ?? seasonChartWords('en');
  const starts = monthStarts(input.year);
  const last = dayOfYear(`${input.year}-12-31`, input.year);
  const points = input.races.map((r) => ({ x: dayOfYear(r.day, input.year), y: Math.round(r.share * 100) }));
  const { png } = await draw(SEASON_WIDTH, SEASON_HEIGHT, (measure) => ({
    type: 'line',
    data: {
      datasets: [
        {
          data: points,
          showLine: false,
          // A dot at 100 % (a win) or 0 % is drawn whole, not cut by the chart's edge.
          clip: 10,
          pointRadius: 8,
          pointHoverRadius: 8,
          pointBackgroundColor: PALETTE[0],
          pointBorderColor: '#FFFFFF',
          pointBorderWidth: 2,
        },
      ],
    },
    options: {
      // Room on the right for the last month's name, centred on its first day.
      layout: { padding: { top: MARGIN, left: MARGIN, right: MARGIN + 8, bottom: MARGIN } },
      plugins: { title: title(measure, input.title, MARGIN + 8) },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: last,
          grid: { color: GRID },
          afterBuildTicks: (axis) => {
            axis.ticks = starts.map((value) => ({ value }));
          },
          ticks: {
            font: TICK_FONT,
            color: TEXT,
            autoSkip: false,
            maxRotation: 0,
            callback: (value) => words.months[starts.indexOf(Number(value))] ?? '',
          },
        },
        y: {
          min: 0,
          max: 100,
          grid: { color: GRID },
          ticks: { font: TICK_FONT, color: TEXT, stepSize: 25 },
          title: { display: true, text: words.shareAxis, font: { ...TICK_FONT, size: 18 }, color: TEXT },
        },
      },
    },
  }));
  const items = input.races.map((r) => {
    const month = words.months[Number(r.day.slice(5, 7)) - 1] ?? '';
    return words.raceAlt(`${Number(r.day.slice(8, 10))} ${month}`, pictureName(r.label), Math.round(r.share * 100));
  });
  const head = words.yearAlt(pictureTitle(input.title), input.races.length);
  return {
    png,
    alt: items.length === 0 ? `${head}.` : `${head}: ${listed(items, words)}.`,
    width: SEASON_WIDTH,
    height: SEASON_HEIGHT,
  };
}

/** The club's year: starts and podiums per month as bars. */
export async function renderClubYear(input: ClubYearInput): Promise<ChartPicture> {
  const words = input.words ?? seasonChartWords('en');
  const months = input.months.slice(0, 12);
  const { png } = await draw(SEASON_WIDTH, SEASON_HEIGHT, (measure) => ({
    type: 'bar',
    data: {
      labels: words.months.slice(0, months.length),
      datasets: [
        { label: words.starts, data: months.map((m) => m.starts), backgroundColor: PALETTE[0], borderWidth: 0 },
        { label: words.podiums, data: months.map((m) => m.podiums), backgroundColor: PALETTE[4], borderWidth: 0 },
      ],
    },
    options: {
      layout: { padding: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + KEY_HEIGHT } },
      plugins: { title: title(measure, input.title, MARGIN) },
      scales: {
        x: { grid: { display: false }, ticks: { font: TICK_FONT, color: TEXT, autoSkip: false, maxRotation: 0 } },
        y: {
          min: 0,
          grid: { color: GRID },
          ticks: { font: TICK_FONT, color: TEXT, precision: 0 },
        },
      },
    },
    plugins: [
      {
        // The two bars' key under the chart (Chart.js's legend plugin is not loaded: canvas.ts).
        id: 'eventorBotSeasonKey',
        afterDraw(c) {
          drawKey(
            c.ctx,
            [
              { label: words.starts, colours: [PALETTE[0]], mark: 'box' },
              { label: words.podiums, colours: [PALETTE[4]], mark: 'box' },
            ],
            c.chartArea.left,
            SEASON_HEIGHT - MARGIN - KEY_HEIGHT / 2,
          );
        },
      },
    ],
  }));
  const starts = months.reduce((sum, m) => sum + m.starts, 0);
  const podiums = months.reduce((sum, m) => sum + m.podiums, 0);
  const items = months.flatMap((m, i) => (m.starts > 0 ? [words.monthAlt(words.months[i]!, m.starts, m.podiums)] : []));
  const head = words.clubAlt(pictureTitle(input.title), starts, podiums);
  return {
    png,
    alt: items.length === 0 ? `${head}.` : `${head}: ${listed(items, words)}.`,
    width: SEASON_WIDTH,
    height: SEASON_HEIGHT,
  };
}
