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
