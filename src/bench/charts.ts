/**
 * The split-analysis pictures (docs/splits.md#pictures): what the splits graph of a synthetic
 * 60-runner class with 20 controls costs to draw and encode, and the heap it peaks at.
 *
 * The figure is CPU time (the process's, so the PNG encoder's thread counts too), not wall time: on
 * a machine shared with other work the wall time mostly measures the queue for a core. The wall
 * time is printed beside it.
 */
import { performance } from 'node:perf_hooks';
import { renderLostBars, renderSplitsGraph } from '../charts/index.js';
import { analyseCourse, type CourseAnalysis, type RunnerInput } from '../splits/analysis.js';
import type { BenchFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';
import { median, percentile } from './stats.js';

/**
 * A class of `runners` on `controls` controls with deterministic pace and noise; every fourth runner
 * makes a mistake on one leg, runner 0 on the leg to control 7. Places are the OK runners' order.
 */
export function syntheticCourse(runners: number, controls: number): CourseAnalysis {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const codes = Array.from({ length: controls }, (_, k) => String(31 + k * 3));
  const baseLegs = Array.from({ length: controls + 1 }, () => 60 + Math.round(random() * 180));
  const input: RunnerInput[] = Array.from({ length: runners }, (_, r) => {
    const pace = 1 + r * 0.012 + random() * 0.05;
    let at = 0;
    const splits = codes.map((code, k) => {
      at += Math.round(baseLegs[k]! * pace * (0.95 + random() * 0.1));
      if (r % 4 === 0 && k === (r === 0 ? 6 : (r * 7) % controls)) at += 75 + ((r * 13) % 60);
      return { controlCode: code, time: at, status: 'OK' as const };
    });
    const time = at + Math.round(baseLegs[controls]! * pace);
    const name = r === 0 ? 'Åsa Öberg' : r === 1 ? 'Björn Sæther' : `Runner ${r + 1}`;
    return { name, status: 'OK', time, splits };
  });
  const course = analyseCourse(codes, input);
  const order = course.results.map((r, i) => ({ time: r.time!, i })).sort((a, b) => a.time - b.time);
  order.forEach(({ i }, place) => (course.results[i]!.place = place + 1));
  return course;
}

export const chartsSection: BenchSection = {
  name: 'charts',
  async run({ quick, write }: BenchContext): Promise<BenchFigure[]> {
    const course = syntheticCourse(60, 20);
    const rounds = quick ? 15 : 60;
    write(`# charts: splits graph of 60 runners, 20 controls, 4 highlighted, ${rounds} renders after 3 warm-up`);
    // The first pictures load the font and compile Chart.js's paths; the bot pays that once.
    for (let k = 0; k < 3; k++) await renderSplitsGraph({ course, title: 'H21', highlight: [0, 1, 5, 9] });
    const times: number[] = [];
    const walls: number[] = [];
    let peakHeap = process.memoryUsage().heapUsed;
    for (let k = 0; k < rounds; k++) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      await renderSplitsGraph({ course, title: 'H21', highlight: [0, 1, 5, 9] });
      const used = process.cpuUsage(cpu);
      times.push((used.user + used.system) / 1000);
      walls.push(performance.now() - started);
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    write(
      `# charts: splits graph wall time p50 ${median(walls).toFixed(1)} ms, p95 ${percentile(walls, 95).toFixed(1)} ms`,
    );
    const bars: number[] = [];
    for (let k = 0; k < Math.ceil(rounds / 3); k++) {
      const started = performance.now();
      await renderLostBars({ course, title: 'H21', runner: 0 });
      bars.push(performance.now() - started);
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    write(`# charts: lost-per-leg bars p95 ${percentile(bars, 95).toFixed(1)} ms`);
    return [
      {
        name: 'chart-render-p95',
        value: percentile(times, 95),
        unit: 'ms',
        op: '<=',
        target: 150,
        title: 'Splits graph of 60 runners and 20 controls to PNG, CPU p95',
        about:
          'CPU time (the process, PNG encoder thread included) of drawing the splits graph of a synthetic 60-runner class with 20 controls (4 runners highlighted) with Chart.js on @napi-rs/canvas and encoding it as PNG, p95 after three warm-up pictures.',
      },
      {
        name: 'chart-render-peak-heap',
        value: peakHeap / 1024 / 1024,
        unit: 'MB',
        title: 'JS heap at its peak while drawing (information)',
        about:
          'The largest V8 heap in use seen after each picture of the section; the canvas pixels live outside it, in @napi-rs/canvas.',
      },
    ];
  },
};
