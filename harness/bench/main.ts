/**
 * `npm run bench`: speed and memory figures, each measured side by side in one run so that
 * the machine's speed cancels out. One line per figure:
 *   BENCH <name> <value> <unit> target <op> <target>
 *
 *   npm run bench                    every section
 *   npm run bench -- --short         every section but the long ones (section.ts: `long`)
 *   npm run bench -- --quick         a CI-sized run of every section (same figures, smaller work)
 *   npm run bench -- --only parse    only the named sections (comma-separated)
 *   npm run bench -- --markdown      and write docs/benchmarks.md from the run (markdown.ts)
 *
 * The process exits with 1 when a figure misses its target, so a script can gate on it.
 */
import { writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { analysisSection } from './analysis.js';
import { chartsSection } from './charts.js';
import { type BenchFigure, formatFigure, meetsTarget } from './figure.js';
import { interactionsSection } from './interactions.js';
import { liveSection } from './live.js';
import { nextSection } from './next.js';
import { benchMarkdown, type BenchRunSummary } from './markdown.js';
import { parseSection } from './parse.js';
import { processesSection } from './processes.js';
import { requestsSection } from './requests.js';
import { seasonSection } from './season.js';
import type { BenchSection } from './section.js';
import { startupSection } from './startup.js';

/** Every section, in the order they run: the cheap and noisy-sensitive ones first. */
export const SECTIONS: readonly BenchSection[] = [
  parseSection,
  requestsSection,
  processesSection,
  interactionsSection,
  startupSection,
  chartsSection,
  analysisSection,
  nextSection,
  seasonSection,
  liveSection,
];

export interface BenchOptions {
  quick?: boolean;
  /** Section names to run (default: all). */
  only?: readonly string[];
  /** Leave out the sections that take minutes (`long`). */
  short?: boolean;
  write?: (line: string) => void;
}

export async function runBench(options: BenchOptions = {}): Promise<BenchRunSummary> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const quick = options.quick ?? false;
  const unknown = (options.only ?? []).filter((name) => !SECTIONS.some((s) => s.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `no bench section named ${unknown.join(', ')} (there are ${SECTIONS.map((s) => s.name).join(', ')})`,
    );
  }
  const sections = (options.only ? SECTIONS.filter((s) => options.only!.includes(s.name)) : SECTIONS).filter(
    (s) => !options.short || s.long === undefined,
  );
  const figures: BenchFigure[] = [];
  const timed: Array<{ name: string; seconds: number; long?: string }> = [];
  const startedAt = new Date();
  const loadAtStart = loadavg()[0]!;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (const section of sections) {
    write(`# section ${section.name}${quick ? ' (quick)' : ''}`);
    const sectionStarted = performance.now();
    const measured = await section.run({ quick, write });
    for (const figure of measured) write(formatFigure(figure));
    const seconds = (performance.now() - sectionStarted) / 1000;
    write(`# section ${section.name} took ${seconds.toFixed(1)} s${section.long ? ` (long: ${section.long})` : ''}`);
    timed.push({ name: section.name, seconds, ...(section.long ? { long: section.long } : {}) });
    figures.push(...measured);
  }
  const cpu = process.cpuUsage(cpuStarted);
  const wallSeconds = (performance.now() - started) / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const missed = figures.filter((f) => !meetsTarget(f));
  write(
    `# bench took ${wallSeconds.toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU in this process, peak RSS ${peakRssMb.toFixed(0)} MB`,
  );
  write(
    missed.length === 0
      ? `# all ${figures.length} figures within target`
      : `# ${missed.length} of ${figures.length} figures missed their target: ${missed.map((f) => f.name).join(', ')}`,
  );
  return {
    figures,
    startedAt,
    wallSeconds,
    peakRssMb,
    quick,
    loadAverage: { start: loadAtStart, end: loadavg()[0]! },
    sections: timed,
  };
}

/** docs/benchmarks.md, from the compiled bench (dist/harness/bench/main.js). */
const MARKDOWN_FILE = new URL('../../../docs/benchmarks.md', import.meta.url);

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      short: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
    },
  });
  const run = await runBench({
    quick: values.quick,
    short: values.short,
    ...(values.only ? { only: values.only.split(',').map((s) => s.trim()) } : {}),
  });
  if (values.markdown) {
    const cpu = cpus()[0]?.model.trim();
    await writeFile(
      MARKDOWN_FILE,
      benchMarkdown(run, { cores: availableParallelism(), node: process.version, ...(cpu ? { cpu } : {}) }),
    );
    process.stdout.write(`# wrote ${MARKDOWN_FILE.pathname}\n`);
  }
  if (run.figures.some((f) => !meetsTarget(f))) process.exitCode = 1;
}
