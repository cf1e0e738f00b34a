/**
 * Chart.js 4 drawn headless on @napi-rs/canvas (docs/splits.md#pictures): the bundled font registered
 * under the project's own family name, only the Chart.js parts the pictures use, and one function
 * that draws a configuration to PNG bytes.
 */
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { type Canvas, createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartType,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Title,
} from 'chart.js';

/** The family every picture draws with: our registration of DejaVu Sans, so å ä ö ø æ look the same on every machine. */
export const FONT_FAMILY = 'EventorBot Sans';

/** Okabe–Ito colours, told apart by the common colour blindnesses; yellow is left out (unreadable on white). */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'] as const;
/** Reference lines and bars that are not the point of the picture. */
export const GREY = '#9A9A9A';
export const TEXT = '#1A1A1A';
export const GRID = '#E3E3E3';
/**
 * Room kept clear at every edge of a picture: no title, label, key or line comes nearer the edge
 * than this (docs/splits.md#pictures), so nothing looks cut where Discord frames the picture.
 */
export const MARGIN = 16;
/** The size of a picture's title, and of the text of its key. */
export const TITLE_FONT_SIZE = 26;
export const KEY_FONT_SIZE = 17;
/** The height the key takes under a chart (docs/splits.md#pictures). */
export const KEY_HEIGHT = 30;

/**
 * A runner's colour: the n-th runner drawn strong has the n-th palette colour, in every picture of
 * a message (the graph's line, the bars), so a runner is one colour wherever they are drawn.
 */
export function runnerColour(n: number): string {
  return PALETTE[((n % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
}

/** `colour` mixed with white: `share` of the colour (0 to 1), as `#RRGGBB`. */
export function tint(colour: string, share: number): string {
  const channel = (i: number): string =>
    Math.round(parseInt(colour.slice(i, i + 2), 16) * share + 255 * (1 - share))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(1)}${channel(3)}${channel(5)}`.toUpperCase();
}

/** The text shortened with an ellipsis until it is at most `max` pixels wide in the context's font. */
export function fitText(ctx: Pick<SKRSContext2D, 'measureText'>, text: string, max: number): string {
  if (ctx.measureText(text).width <= max) return text;
  let kept = text.length;
  while (kept > 1 && ctx.measureText(`${text.slice(0, kept).trimEnd()}…`).width > max) kept--;
  return `${text.slice(0, kept).trimEnd()}…`;
}

/**
 * A picture's title option, shortened with `…` to `room`, the width between the chart's left and
 * right padding, where Chart.js centres it. Chart.js never shortens a title: it squeezes the letters
 * of a long one together until it fits, unreadable.
 */
export function titleOption(measure: SKRSContext2D, text: string, room: number) {
  measure.font = `bold ${TITLE_FONT_SIZE}px "${FONT_FAMILY}"`;
  return {
    display: true,
    text: fitText(measure, text, room),
    font: { family: FONT_FAMILY, size: TITLE_FONT_SIZE, weight: 'bold' as const },
    color: TEXT,
    padding: { top: 0, bottom: 10 },
  };
}

/**
 * One entry of a picture's key: a filled box (bars), a thick line (the runners drawn strong, in
 * segments of their colours) or a thin one (the reference lines).
 */
export interface KeyEntry {
  label: string;
  colours: readonly string[];
  mark: 'box' | 'line' | 'thin';
}

/** Where a key entry's sample was drawn, for tests: its centre. */
export interface KeySample {
  label: string;
  colour: string;
  x: number;
  y: number;
}

/**
 * Draws a key (Chart.js's legend plugin is not loaded) on one line from `left`, centred on `y`:
 * each entry's sample then its words. Gives where each sample was drawn.
 */
export function drawKey(ctx: SKRSContext2D, entries: readonly KeyEntry[], left: number, y: number): KeySample[] {
  const samples: KeySample[] = [];
  ctx.save();
  ctx.font = `${KEY_FONT_SIZE}px "${FONT_FAMILY}"`;
  ctx.textBaseline = 'middle';
  let x = left;
  for (const entry of entries) {
    const width = entry.mark === 'box' ? 18 : 36;
    const colours = entry.colours.length > 0 ? entry.colours : [TEXT];
    if (entry.mark === 'box') {
      ctx.fillStyle = colours[0]!;
      ctx.fillRect(x, y - 9, width, 18);
    } else {
      ctx.lineWidth = entry.mark === 'line' ? 4 : 2;
      const part = width / colours.length;
      colours.forEach((colour, k) => {
        ctx.strokeStyle = colour;
        ctx.beginPath();
        ctx.moveTo(x + k * part, y);
        ctx.lineTo(x + (k + 1) * part, y);
        ctx.stroke();
      });
    }
    samples.push({ label: entry.label, colour: colours[0]!, x: x + width / (2 * colours.length), y });
    ctx.fillStyle = TEXT;
    ctx.fillText(entry.label, x + width + 8, y);
    x += width + 8 + ctx.measureText(entry.label).width + 28;
  }
  ctx.restore();
  return samples;
}

let ready = false;

/** Registers the font and the Chart.js parts once, on the first picture (not at import: the bot may never draw). */
function setUp(): void {
  if (ready) return;
  const require = createRequire(import.meta.url);
  for (const file of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']) {
    GlobalFonts.registerFromPath(require.resolve(`dejavu-fonts-ttf/ttf/${file}`), FONT_FAMILY);
  }
  // Only what the two pictures use, so loading stays small (docs/splits.md#pictures).
  Chart.register(
    LineController,
    LineElement,
    PointElement,
    BarController,
    BarElement,
    CategoryScale,
    LinearScale,
    Title,
  );
  Chart.defaults.font.family = FONT_FAMILY;
  Chart.defaults.color = TEXT;
  ready = true;
}

/** Whether the picture font is registered (after the first picture). */
export function fontRegistered(): boolean {
  return GlobalFonts.has(FONT_FAMILY);
}

/** A white background: a transparent PNG turns black-on-black in Discord's dark theme. */
const whiteBackground = {
  id: 'eventorBotWhiteBackground',
  beforeDraw(chart: Chart): void {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = '#FFFFFF';
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

export interface Drawn<T extends ChartType> {
  png: Buffer;
  /** The chart after drawing, for its geometry (scales); its canvas is released. */
  chart: Chart<T>;
}

/** Draws one configuration at a fixed size, without animation, and encodes it as PNG. */
export async function draw<T extends ChartType>(
  width: number,
  height: number,
  build: (ctx: SKRSContext2D) => ChartConfiguration<T>,
): Promise<Drawn<T>> {
  setUp();
  const canvas: Canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  // The configuration may measure text (names at the lines' ends) in the registered font.
  const config = build(ctx);
  const chart = new Chart(
    ctx as unknown as ConstructorParameters<typeof Chart>[0],
    {
      ...config,
      options: { ...config.options, animation: false, responsive: false, devicePixelRatio: 1 },
      plugins: [whiteBackground, ...(config.plugins ?? [])],
    } as ChartConfiguration<T>,
  );
  try {
    // Off the main thread (the drawing thread, docs/decisions/chart-worker.md) the encoding stays on
    // this thread and at its lower priority; the pool's threads would run it at the process's own.
    const png = isMainThread ? await canvas.encode('png') : canvas.encodeSync('png');
    return { png, chart };
  } finally {
    chart.destroy();
  }
}

/** `m:ss` (or `h:mm:ss`), with a sign when negative; whole seconds. */
export function clock(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const total = Math.round(Math.abs(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, '0')}:${s}` : `${sign}${m}:${s}`;
}
