/**
 * Parsing the sandbox's 20,000-runner native result list with splits (its first classes): speed
 * against the fastest bare parse of the same bytes (fast-xml-parser with the reader's options,
 * txml), peak heap against the document's size, and the hand-written pieces kept because they
 * are faster than the library that could do their job (`kept.ts`). The heavy work runs in child
 * processes (`parse-child.ts`, `heap-child.ts`), which keeps this process small and each
 * parser's heap fresh.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { request } from 'undici';
import { parseResultList } from '../../src/eventor/native/index.js';
import { parseResponse } from '../../src/eventor/operations.js';
import { parseResponseOffThread, stopParseWorker } from '../../src/eventor/parse-worker.js';
import { LARGE_EVENT_ID } from '../sandbox/eventor/dataset.js';
import { writeIofResultList } from '../sandbox/eventor/iof-writer.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import type { BenchFigure } from './figure.js';
import { iofTreeFigure, zoneConversionFigure } from './kept.js';
import type { BenchContext, BenchSection } from './section.js';
import { median } from './stats.js';

const execFileAsync = promisify(execFile);

/** The 20,000-runner multi-day result list with splits, as the sandbox serves it (native XML, UTC). */
export async function largeResultListXml(): Promise<string> {
  const sandbox = await startSandboxEventor({ size: 'large' });
  try {
    const res = await request(`${sandbox.baseUrl}/results/event?eventId=${LARGE_EVENT_ID}&includeSplitTimes=true`, {
      headers: { ApiKey: sandbox.apiKey, TimeZone: 'UTC' },
      bodyTimeout: 300_000,
      headersTimeout: 300_000,
    });
    if (res.statusCode !== 200) throw new Error(`sandbox answered ${res.statusCode}`);
    return await res.body.text();
  } finally {
    await sandbox.close();
  }
}

/** Where a child job of this section runs (`parse-child.ts`, `heap-child.ts`, built beside this file). */
const childScript = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

async function runChild(script: string, args: string[], nodeFlags: string[] = []): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [...nodeFlags, childScript(script), ...args], {
    maxBuffer: 1 << 20,
    timeout: 300_000,
  });
  return stdout;
}

/**
 * The smallest limit in MB for which `fits` holds, to within `precision` of it: from a guess
 * near the expected value, steps of 15 % find a limit that fits and one that does not, then
 * halving the bracket narrows it. Each probe is a child process, so the fewer the better (about
 * five when the guess is close). Infinity when nothing up to `maxMb` fits.
 */
export async function smallestFittingLimit(
  fits: (limitMb: number) => Promise<boolean>,
  guessMb: number,
  maxMb: number,
  precision = 0.03,
): Promise<{ limitMb: number; probes: number }> {
  let probes = 0;
  const probe = (mb: number): Promise<boolean> => {
    probes++;
    return fits(mb);
  };
  let low: number;
  let high: number;
  if (await probe(guessMb)) {
    high = guessMb;
    low = Math.floor(high * 0.85);
    while (low > 1 && (await probe(low))) {
      high = low;
      low = Math.floor(high * 0.85);
    }
  } else {
    low = guessMb;
    high = Math.ceil(low * 1.15);
    while (!(await probe(high))) {
      if (high >= maxMb) return { limitMb: Number.POSITIVE_INFINITY, probes };
      low = high;
      high = Math.min(maxMb, Math.ceil(low * 1.15));
    }
  }
  while (high - low > Math.max(1, high * precision)) {
    const mid = Math.round((low + high) / 2);
    if (await probe(mid)) high = mid;
    else low = mid;
  }
  return { limitMb: high, probes };
}

/**
 * Peak heap of parsing the document in `file`, found as the smallest --max-old-space-size under
 * which a fresh process still reads it completely (a sampled heap figure would miss short
 * peaks), less the heap that process used before it read the document. The document's own text
 * is on that heap too, as it is in the bot.
 */
async function peakHeapBytes(
  file: string,
  expected: { results: number; splits: number },
  guessMb: number,
  maxMb: number,
): Promise<{ bytes: number; probes: number }> {
  let baselineBytes = 0;
  const fits = async (limitMb: number): Promise<boolean> => {
    try {
      const stdout = await runChild('heap-child.js', [file], [`--max-old-space-size=${limitMb}`, '--expose-gc']);
      const read = JSON.parse(stdout) as { results: number; splits: number; baselineBytes: number };
      if (read.results !== expected.results || read.splits !== expected.splits) {
        throw new Error(`the parse under a heap limit read ${stdout}, expected ${JSON.stringify(expected)}`);
      }
      baselineBytes = read.baselineBytes;
      return true;
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '');
      if (/heap out of memory|Reached heap limit|allocation failed/i.test(stderr)) return false;
      throw error;
    }
  };
  const { limitMb, probes } = await smallestFittingLimit(fits, guessMb, maxMb);
  return { bytes: limitMb * 1024 * 1024 - baselineBytes, probes };
}

/** The longest the event loop waited (ms) while `parse` ran, sampled every 10 ms. */
async function maxLoopDelayDuring(parse: () => unknown): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The monitor records a delay from its second sample on: let it take its first.
  await new Promise((resolve) => setTimeout(resolve, 30));
  await parse();
  // One more turn of the sampling timer, so that a parse that held the loop is recorded.
  await new Promise((resolve) => setTimeout(resolve, 30));
  delay.disable();
  return delay.max / 1e6;
}

/**
 * What the parse worker (src/eventor/parse-worker.ts) is for: the longest event-loop delay while
 * the list is parsed off the main thread, against the same parse on it (the loop is held for
 * the whole parse there). A ratio, so that the machine's speed cancels out.
 */
async function loopDelayFigure(xml: string, write: (line: string) => void): Promise<BenchFigure> {
  const context = { timeZone: 'UTC', nativeTimeZone: 'Europe/Stockholm' };
  const onThread = await maxLoopDelayDuring(() => parseResponse('results-event', xml, context));
  let offThread: number;
  try {
    // The bot starts the worker on its first large document and keeps it: time the next one.
    await parseResponseOffThread('results-event', xml, context);
    offThread = await maxLoopDelayDuring(() => parseResponseOffThread('results-event', xml, context));
  } finally {
    await stopParseWorker();
  }
  write(
    `# longest event-loop delay while the list is parsed: ${offThread.toFixed(0)} ms in the worker (started before), ${onThread.toFixed(0)} ms on the main thread`,
  );
  return {
    name: 'loop-delay-parse-worker-vs-main-thread',
    value: offThread / onThread,
    unit: 'x',
    op: '<=',
    target: 0.25,
    title: 'Longest event-loop delay of that parse, worker over main thread',
    about:
      'The longest event-loop delay while that list is parsed in the parse worker (`src/eventor/parse-worker.ts`), over the same on the main thread.',
  };
}

/** The parsers parse-ratio compares: ours, and the bare parses it is taken against (the fastest of them). */
const BARE_PARSERS = ['fast-xml-parser', 'txml'] as const;

/**
 * How much of the 20,000-runner list each run reads: its first classes up to at least this many
 * bytes (three classes: 3,212 runners, 22 MB; `--quick` one class: 1,008 runners, 6 MB). The whole
 * list (141 MB) would take minutes of CPU and gigabytes for the bare parses alone (fast-xml-parser's
 * process grows to about 28 times the document); the ratios are per byte, and came out close on
 * 6, 22 and 31 MB.
 */
const LIST_BYTES = { full: 10_000_000, quick: 5_000_000 };
/** The IOF document of the kept-pieces figure: the list's first class (its ratio is what counts). */
const IOF_LIST_BYTES = 1;
const TIMED_RUNS = 3;

async function runParse({ quick, write }: BenchContext): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-bench-'));
  try {
    // The lists are written by a child process: the sandbox's 20,000-runner event needs about 1 GB.
    const file = path.join(dir, 'results.xml');
    const iofSource = path.join(dir, 'one-class.xml');
    const [list] = JSON.parse(
      await runChild('parse-child.js', [
        'list',
        file,
        String(quick ? LIST_BYTES.quick : LIST_BYTES.full),
        iofSource,
        String(IOF_LIST_BYTES),
      ]),
    ) as Array<{ bytes: number; runners: number; results: number; splits: number }>;
    if (list === undefined) throw new Error('the list child wrote no list');
    const expected = { results: list.results, splits: list.splits };
    write(
      `# the first ${list.runners} runners of the 20,000-runner result list with splits${quick ? ' (quick: about one class)' : ''}: ${(list.bytes / 1e6).toFixed(1)} MB of native XML, ${list.results} race results, ${list.splits} split times`,
    );

    // Each parser in its own fresh process, one after the other, timed by CPU (the machine is
    // shared, so wall time is mostly other people's work); the median of TIMED_RUNS parses.
    const cpu = new Map<string, number>();
    for (const name of [...BARE_PARSERS, 'ours']) {
      const timed = JSON.parse(await runChild('parse-child.js', ['time', name, file, String(TIMED_RUNS)])) as {
        cpuMs: number[];
        read: unknown;
      };
      if (name === 'ours' && JSON.stringify(timed.read) !== JSON.stringify(expected)) {
        throw new Error(`our timed parse read ${JSON.stringify(timed.read)}, expected ${JSON.stringify(expected)}`);
      }
      cpu.set(name, median(timed.cpuMs));
      write(`# ${name}: ${timed.cpuMs.map((ms) => ms.toFixed(0)).join(', ')} ms of CPU per parse`);
    }
    const fastestBare = BARE_PARSERS.reduce((a, b) => (cpu.get(a)! <= cpu.get(b)! ? a : b));
    write(`# parse-ratio is taken against the fastest bare parse: ${fastestBare}`);
    figures.push({
      name: 'parse-ratio',
      value: cpu.get('ours')! / cpu.get(fastestBare)!,
      unit: 'x',
      op: '<=',
      target: 1.2,
      title: 'Reading a native result list over the fastest bare XML parse',
      about:
        "CPU time of parsing, validating and normalising the first 3,212 runners (22 MB; `--quick` 6 MB) of the sandbox's 20,000-runner native result list with splits, over the fastest bare parse of the same bytes among fast-xml-parser (with `src/eventor/xml.ts`'s options) and `txml`; each parser in its own child process, medians of three.",
    });

    figures.push(await loopDelayFigure(await readFile(file, 'utf8'), write));

    // The hand-written pieces kept because they are faster than the library that could do their job.
    const oneClass = parseResultList(await readFile(iofSource, 'utf8'), { timeZone: 'UTC' });
    const iofXml = writeIofResultList(oneClass, { createTime: '2026-10-17T16:00:00Z' });
    figures.push(iofTreeFigure(iofXml, write));
    figures.push(zoneConversionFigure(quick ? 5_000 : 10_000, write));

    const docMb = list.bytes / 1024 / 1024;
    // The last runs came out near 2.5 times the document: start there.
    const peak = await peakHeapBytes(file, expected, Math.ceil(docMb * 2.5), Math.ceil(docMb * 12));
    figures.push({
      name: 'parse-heap',
      value: peak.bytes / list.bytes,
      unit: 'x-document',
      op: '<=',
      target: 3,
      title: "Peak heap of that parse over the document's size",
      about:
        "Peak heap of that parse over the document's size: the smallest `--max-old-space-size` under which a fresh process still reads every result, less the heap it used before reading.",
    });
    write(`# parse peak heap: ${(peak.bytes / 1e6).toFixed(0)} MB, found in ${peak.probes} child processes`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}

export const parseSection: BenchSection = { name: 'parse', run: runParse };
