/**
 * Why two hand-written pieces stay where the stack has a library
 * (docs/decisions/hand-written-pieces.md): each figure times ours against the library doing the
 * same job, side by side, alternating so drift hits both alike.
 * - The IOF reader's XML tree (`src/eventor/iof/xml-tree.ts`) against fast-xml-parser on the same
 *   IOF 3.0 result list: ours must be at least as fast (it is also namespace-aware, which
 *   fast-xml-parser is not).
 * - The wall clock → instant conversion of `src/time/zones.ts`, with its offset cache per zone and
 *   hour, against `TZDate` from @date-fns/tz, over the same local times: the readers convert
 *   hundreds of thousands of split and start times per large list.
 */
import { performance } from 'node:perf_hooks';
import { TZDate } from '@date-fns/tz';
import { XMLParser } from 'fast-xml-parser';
import { parseXml } from '../../src/eventor/iof/xml-tree.js';
import { addDays } from '../../src/time/days.js';
import { localToInstant } from '../../src/time/zones.js';
import type { BenchFigure } from './figure.js';
import { median } from './stats.js';

/** Median times of `ours` and `theirs` over `runs` alternating runs, in milliseconds. */
export function sideBySide(ours: () => unknown, theirs: () => unknown, runs = 3): { ours: number; theirs: number } {
  const oursTimes: number[] = [];
  const theirTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    theirs();
    theirTimes.push(performance.now() - t);
    t = performance.now();
    ours();
    oursTimes.push(performance.now() - t);
  }
  return { ours: median(oursTimes), theirs: median(theirTimes) };
}

/** Our IOF XML tree against fast-xml-parser on the same document. */
export function iofTreeFigure(iofXml: string, write: (line: string) => void, runs = 3): BenchFigure {
  const library = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true });
  const times = sideBySide(
    () => parseXml(iofXml),
    () => library.parse(iofXml),
    runs,
  );
  write(
    `# IOF XML tree (${(iofXml.length / 1e6).toFixed(1)} MB): fast-xml-parser ${times.theirs.toFixed(0)} ms, ours ${times.ours.toFixed(0)} ms`,
  );
  return {
    name: 'iof-tree-vs-fast-xml-parser',
    value: times.ours / times.theirs,
    unit: 'x',
    op: '<=',
    target: 1,
    title: 'Our IOF XML tree over fast-xml-parser on the same document',
    about:
      "The IOF reader's own XML tree against fast-xml-parser on the same IOF 3.0 result list (1 MB): why the hand-written reader stays (it is also namespace-aware).",
  };
}

/** `count` Stockholm wall-clock times spread over a year, as the readers meet them (many per day). */
export function wallClockTimes(count: number): Array<{ date: string; clock: string }> {
  const times: Array<{ date: string; clock: string }> = [];
  for (let i = 0; i < count; i++) {
    const day = addDays('2026-01-01', i % 365);
    const seconds = (i * 7919) % 86_400;
    const clock = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
      .map((n) => String(n).padStart(2, '0'))
      .join(':');
    times.push({ date: day, clock });
  }
  return times;
}

/** Our cached conversion against TZDate over the same wall-clock times. */
export function zoneConversionFigure(count: number, write: (line: string) => void, runs = 3): BenchFigure {
  const zone = 'Europe/Stockholm';
  const times = wallClockTimes(count);
  const measured = sideBySide(
    () => {
      for (const { date, clock } of times) localToInstant(date, clock, zone);
    },
    () => {
      for (const { date, clock } of times) {
        const [y, m, d] = date.split('-').map(Number) as [number, number, number];
        const [h, mi, s] = clock.split(':').map(Number) as [number, number, number];
        new Date(new TZDate(y, m - 1, d, h, mi, s, zone).getTime()).toISOString();
      }
    },
    runs,
  );
  write(
    `# ${count} wall-clock times to instants: TZDate ${measured.theirs.toFixed(0)} ms, ours ${measured.ours.toFixed(0)} ms`,
  );
  return {
    name: 'zone-conversion-vs-tzdate',
    value: measured.ours / measured.theirs,
    unit: 'x',
    op: '<=',
    target: 0.5,
    title: 'Wall-clock times to instants: `src/time/zones.ts` over `TZDate`',
    about:
      "10,000 wall-clock times to instants through `src/time/zones.ts` (offsets cached per zone and hour) against `TZDate`: why the cache stays on the readers' hot path.",
  };
}
