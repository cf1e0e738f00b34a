/**
 * Pictures are drawn in the drawing thread (src/charts/draw.ts, docs/decisions/chart-worker.md):
 * `drawPicture` against the compiled worker, the way every caller draws. What is checked is the
 * picture (it decodes at its size, is not blank, its alt text speaks the request's language), where
 * it was drawn (the worker's counters), that a failing thread fails the pictures it held and the
 * next picture starts a new one, that the drawing thread runs below the bot's priority (Linux), and
 * that a process is held open only while a picture is drawn.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { constants, getPriority } from 'node:os';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticCourse } from '../../harness/bench/charts.js';
import {
  BARS_HEIGHT,
  BARS_WIDTH,
  chartWorkerStats,
  DrawingFailed,
  drawPicture,
  GRAPH_HEIGHT,
  GRAPH_WIDTH,
  stopChartWorker,
} from '../../src/charts/index.js';
import { decodePng } from '../support/png.js';

afterAll(async () => {
  await stopChartWorker();
});

const course = syntheticCourse(12, 10);
/** This thread's priority before any picture is drawn (no drawing thread exists yet). */
const NICE_AT_START = getPriority();

describe('pictures drawn in the drawing thread', () => {
  it.each([
    ['en', 'Splits graph of H21, 12 runners: Åsa Öberg (club)', 'behind the ideal at the finish'],
    ['sv', 'Sträcktider för H21, 12 löpare: Åsa Öberg (klubben)', 'efter idealtiden i mål'],
    ['nb', 'Strekktider for H21, 12 løpere: Åsa Öberg (klubben)', 'bak idealtiden i mål'],
  ] as const)(
    'a splits graph in %s decodes at its size, is not blank, and its alt text is in that language',
    async (language, opening, finish) => {
      const before = chartWorkerStats();
      const picture = await drawPicture({ kind: 'graph', course, title: 'H21', highlight: [0], language });
      const image = await decodePng(picture.png);
      expect([image.width, image.height]).toEqual([GRAPH_WIDTH, GRAPH_HEIGHT]);
      expect([picture.width, picture.height]).toEqual([GRAPH_WIDTH, GRAPH_HEIGHT]);
      expect(image.ink).toBeGreaterThan(GRAPH_WIDTH * GRAPH_HEIGHT * 0.01);
      expect(picture.alt.startsWith(opening)).toBe(true);
      expect(picture.alt).toContain(finish);
      expect(chartWorkerStats().picturesDrawn).toBe(before.picturesDrawn + 1);
    },
  );

  it.each([
    ['sv', 'Tidsförlust per sträcka för Åsa Öberg, H21: 1 bom', 'vid kontroll 7 (49), sträckplacering'],
    ['nb', 'Tidstap per strekk for Åsa Öberg, H21: 1 bom', 'på post 7 (49), strekkplassering'],
  ] as const)(
    'a bar chart of time lost in %s decodes at its size, is not blank, and speaks that language',
    async (language, opening, mistake) => {
      const picture = await drawPicture({ kind: 'bars', course, title: 'H21', runner: 0, language });
      const image = await decodePng(picture.png);
      expect([image.width, image.height]).toEqual([BARS_WIDTH, BARS_HEIGHT]);
      expect(image.ink).toBeGreaterThan(BARS_WIDTH * BARS_HEIGHT * 0.01);
      expect(picture.alt.startsWith(opening)).toBe(true);
      expect(picture.alt).toContain(mistake);
    },
  );

  it('draws pictures asked for together in one worker, each answered with its own', async () => {
    await drawPicture({ kind: 'bars', course, title: 'H21', runner: 0, language: 'en' });
    const started = chartWorkerStats().workersStarted;
    const pictures = await Promise.all(
      [0, 4, 8].map((runner) => drawPicture({ kind: 'bars', course, title: 'H21', runner, language: 'en' })),
    );
    expect(pictures.map((p) => p.alt.split(',')[0])).toEqual(
      [0, 4, 8].map((runner) => `Time lost per leg by ${course.results[runner]!.name}`),
    );
    expect(chartWorkerStats().workersStarted).toBe(started);
    expect(chartWorkerStats().inFlight).toBe(0);
  });

  it('refuses a runner not on the course with the same RangeError as drawing here, and keeps the worker', async () => {
    const started = chartWorkerStats().workersStarted;
    const error = await drawPicture({ kind: 'bars', course, title: 'H21', runner: 99, language: 'en' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe('runner 99 is not on the course (it has 12 runners)');
    const next = await drawPicture({ kind: 'bars', course, title: 'H21', runner: 1, language: 'en' });
    expect(next.width).toBe(BARS_WIDTH);
    expect(chartWorkerStats().workersStarted).toBe(started);
  });

  it('refuses a class too small for a graph in the drawing thread too, by the one rule (src/charts/request.ts)', async () => {
    const pair = syntheticCourse(2, 10);
    const error = await drawPicture({
      kind: 'graph',
      course: pair,
      title: 'H21',
      highlight: [0],
      language: 'en',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe('no splits graph for this course: too few runners');
  });

  it('fails the pictures a stopped thread held with one clear error, and the next picture starts a new thread', async () => {
    await drawPicture({ kind: 'graph', course, title: 'H21', highlight: [0], language: 'en' });
    const started = chartWorkerStats().workersStarted;
    const held = [1, 2].map((runner) =>
      drawPicture({ kind: 'bars', course, title: 'H21', runner, language: 'en' }).catch((e: unknown) => e),
    );
    await stopChartWorker();
    for (const error of await Promise.all(held)) {
      expect(error).toBeInstanceOf(DrawingFailed);
      expect((error as Error).message).toBe('could not draw the picture: the drawing thread was stopped');
    }
    const next = await drawPicture({ kind: 'graph', course, title: 'H21', highlight: [0], language: 'nb' });
    expect((await decodePng(next.png)).width).toBe(GRAPH_WIDTH);
    expect(chartWorkerStats().workersStarted).toBe(started + 1);
    expect(chartWorkerStats().inFlight).toBe(0);
  });

  it('refuses a request that is not plain data at once, holding nothing', async () => {
    const request = { kind: 'graph', course, title: 'H21', highlight: [0], language: 'en', extra: () => 1 };
    const error = await drawPicture(request as Parameters<typeof drawPicture>[0]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^could not draw the picture: the request is not plain data/);
    expect(chartWorkerStats().inFlight).toBe(0);
  });
});

describe('the drawing thread and the process', () => {
  it.runIf(process.platform === 'linux')(
    "runs below normal priority, while this process's main thread keeps its own (Linux)",
    async () => {
      await drawPicture({ kind: 'graph', course, title: 'H21', highlight: [0], language: 'en' });
      // Field 19 of a thread's stat is its nice value; the name in parentheses may hold spaces.
      const nice = async (tid: string): Promise<number> => {
        const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const tids = await readdir('/proc/self/task');
      const nices = await Promise.all(tids.map(nice));
      // The main thread's as it was before any picture; a thread cannot go below the process's own.
      const main = await nice(String(process.pid));
      expect(main).toBe(NICE_AT_START);
      expect(nices).toContain(Math.max(main, constants.priority.PRIORITY_BELOW_NORMAL));
    },
  );

  it('holds a process open while it draws and lets it end by itself once the picture is in', async () => {
    // The compiled program, as the bot runs it: the test runner's global setup built it.
    const draw = new URL('../../dist/src/charts/draw.js', import.meta.url).href;
    const bench = new URL('../../dist/harness/bench/charts.js', import.meta.url).href;
    const script = `
      const { drawPicture, chartWorkerStats } = await import(${JSON.stringify(draw)});
      const { syntheticCourse } = await import(${JSON.stringify(bench)});
      const picture = await drawPicture({ kind: 'graph', course: syntheticCourse(20, 8), title: 'D21', highlight: [0], language: 'sv' });
      console.log(JSON.stringify({ bytes: picture.png.length, width: picture.width, ...chartWorkerStats() }));
    `;
    const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-chart-worker-'));
    const file = path.join(dir, 'draw-one.mjs');
    await writeFile(file, script);
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Bounded: a worker that kept the process open would end here as a kill, not a hang.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    clearTimeout(timer);
    await rm(dir, { recursive: true, force: true });
    expect(stderr).toBe('');
    expect([code, signal]).toEqual([0, null]);
    const printed = JSON.parse(stdout) as { bytes: number; width: number; workersStarted: number; inFlight: number };
    expect(printed).toMatchObject({ width: GRAPH_WIDTH, workersStarted: 1, inFlight: 0 });
    expect(printed.bytes).toBeGreaterThan(1000);
  });
});
