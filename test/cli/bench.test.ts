import { describe, expect, it } from 'vitest';
import { countResults } from '../../harness/bench/count.js';
import { formatFigure, meetsTarget } from '../../harness/bench/figure.js';
import { runBench, SECTIONS } from '../../harness/bench/main.js';
import { benchMarkdown, MAX_ROW } from '../../harness/bench/markdown.js';
import { iofTreeFigure, wallClockTimes, zoneConversionFigure } from '../../harness/bench/kept.js';
import { smallestFittingLimit } from '../../harness/bench/parse.js';
import { localToInstant } from '../../src/time/zones.js';
import { TZDate } from '@date-fns/tz';
import type { ResultList } from '../../src/eventor/model.js';
import { format, resolveConfig } from 'prettier';

describe('bench output', () => {
  it('prints one figure per line in the agreed shape', () => {
    expect(formatFigure({ name: 'parse-ratio', value: 1.23456, unit: 'x', op: '<=', target: 1.5 })).toBe(
      'BENCH parse-ratio 1.235 x target <= 1.5',
    );
  });

  it('tells whether a figure is within its target, either way round', () => {
    expect(meetsTarget({ name: 'a', value: 1.2, unit: 'x', op: '<=', target: 1.2 })).toBe(true);
    expect(meetsTarget({ name: 'a', value: 1.21, unit: 'x', op: '<=', target: 1.2 })).toBe(false);
    expect(meetsTarget({ name: 'b', value: 3, unit: 'x', op: '>=', target: 4 })).toBe(false);
  });

  it('refuses a section it does not have, naming the ones it has, before measuring anything', async () => {
    const lines: string[] = [];
    await expect(runBench({ only: ['nope'], write: (line) => lines.push(line) })).rejects.toThrow(
      /no bench section named nope \(there are parse, requests/,
    );
    expect(lines).toEqual([]);
  });

  it('leaves the long sections out with --short, each of them saying why it is long', async () => {
    const long = SECTIONS.filter((s) => s.long !== undefined);
    expect(long.length).toBeGreaterThan(0);
    for (const section of long) expect(section.long).toMatch(/\w{3,}/);
    const lines: string[] = [];
    const run = await runBench({ only: long.map((s) => s.name), short: true, write: (line) => lines.push(line) });
    expect(run.sections).toEqual([]);
    expect(run.figures).toEqual([]);
    expect(lines.some((line) => line.startsWith('# section'))).toBe(false);
  });

  it('counts race results and splits, the check that a measured parse read everything', () => {
    const result = {
      raceId: null,
      raceNumber: null,
      bibNumber: null,
      startTime: null,
      finishTime: null,
      time: 60,
      timeBehind: 0,
      position: 1,
      status: 'OK' as const,
      overall: null,
      course: null,
      cards: [],
      splits: [
        { controlCode: '31', time: 20, status: 'OK' as const },
        { controlCode: '32', time: 40, status: 'OK' as const },
      ],
    };
    const list: ResultList = {
      status: 'complete',
      event: { id: '1', name: 'E', event: null },
      classes: [
        {
          class: { id: '1', name: 'H21', shortName: null, resultListMode: 'Default' },
          numberOfEntries: null,
          numberOfStarts: null,
          courses: [],
          teams: [],
          persons: [{ person: null, organisation: null, results: [result, { ...result, splits: [] }] }],
        },
      ],
    };
    expect(countResults(list)).toEqual({ results: 2, splits: 2 });
  });
});

describe('bench: the hand-written pieces kept against their libraries', () => {
  it('times our IOF XML tree and fast-xml-parser on the same document and prints a figure with its target', () => {
    const lines: string[] = [];
    const xml = `<?xml version="1.0"?><ResultList xmlns="http://www.orienteering.org/datastandard/3.0">${'<ClassResult><Class><Name>H21</Name></Class></ClassResult>'.repeat(200)}</ResultList>`;
    const figure = iofTreeFigure(xml, (line) => lines.push(line), 1);
    expect(figure).toMatchObject({ name: 'iof-tree-vs-fast-xml-parser', unit: 'x', op: '<=', target: 1 });
    expect(figure.value).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^# IOF XML tree .*fast-xml-parser \d+ ms, ours \d+ ms$/);
  });

  it('converts the same wall-clock times both ways, and ours agrees with TZDate', () => {
    const times = wallClockTimes(500);
    expect(new Set(times.map((t) => t.date)).size).toBeGreaterThan(300);
    for (const { date, clock } of times.slice(0, 50)) {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const [h, mi, s] = clock.split(':').map(Number) as [number, number, number];
      const instant = new TZDate(y, m - 1, d, h, mi, s, 'Europe/Stockholm').getTime();
      const theirs = new Date(instant).toISOString().replace('.000Z', 'Z');
      // A time the clocks skipped is read differently by design (zones.ts); none of these 50 is one.
      expect(localToInstant(date, clock, 'Europe/Stockholm')).toBe(theirs);
    }
    const figure = zoneConversionFigure(1_000, () => {}, 1);
    expect(figure).toMatchObject({ name: 'zone-conversion-vs-tzdate', unit: 'x', op: '<=', target: 0.5 });
  });
});

describe('bench: the heap limit search', () => {
  // Each probe is a child process parsing the document: the search must need few of them.
  const fitsFrom = (smallest: number) => async (limitMb: number) => limitMb >= smallest;

  it('finds the smallest fitting limit to within 3 % in a few probes from a close guess, either side', async () => {
    for (const [smallest, guess] of [
      [100, 90],
      [100, 110],
      [100, 100],
      [370, 300],
    ] as const) {
      const found = await smallestFittingLimit(fitsFrom(smallest), guess, 10_000);
      expect(found.limitMb).toBeGreaterThanOrEqual(smallest);
      expect(found.limitMb).toBeLessThanOrEqual(smallest * 1.03);
      expect(found.probes).toBeLessThanOrEqual(7);
    }
  });

  it('says Infinity when nothing up to the ceiling fits', async () => {
    const found = await smallestFittingLimit(fitsFrom(5_000), 100, 400);
    expect(found.limitMb).toBe(Number.POSITIVE_INFINITY);
    expect(found.probes).toBeLessThanOrEqual(12);
  });
});

describe('bench: docs/benchmarks.md', () => {
  const figures = [
    {
      name: 'parse-ratio',
      value: 1.0312,
      unit: 'x',
      op: '<=' as const,
      target: 1.2,
      title: 'Reading a native result list over the fastest bare XML parse',
      about: 'CPU time of parsing the list | over the fastest bare parse of the same bytes.',
    },
    {
      name: 'eventor-requests-race-day-100-servers-10-clubs',
      value: 205.53,
      unit: 'req/h',
      op: '<=' as const,
      target: 230.8,
      title: '100 servers of 10 clubs, race day, held to 10 one-club bots',
      about: '100 servers of 10 clubs on the race day alone, held to 10 single-club bots.',
    },
    { name: 'ack-cold-p99', value: 121.4, unit: 'ms', op: '<=' as const, target: 100, title: 'First callback, p99' },
    { name: 'query-cli-ratio', value: 17.93, unit: 'x', title: 'The same query over a bare `node -e 0` (information)' },
  ];
  const markdown = benchMarkdown(
    {
      figures,
      startedAt: new Date('2026-11-26T16:05:30Z'),
      wallSeconds: 73.4,
      peakRssMb: 649.2,
      quick: false,
      loadAverage: { start: 1.04, end: 0.96 },
      sections: [
        { name: 'parse', seconds: 12.2 },
        { name: 'requests', seconds: 9.8 },
        { name: 'interactions', seconds: 41.3, long: 'fresh bots, started one after another' },
        { name: 'startup', seconds: 10.1 },
      ],
    },
    { cores: 2, node: 'v20.19.5', cpu: 'Some CPU @ 2.20GHz' },
  );
  const lines = markdown.split('\n');
  const rows = lines.filter((line) => line.startsWith('|'));

  it('has a table of every figure: name, what it measures, target, the value of this run', () => {
    expect(rows).toHaveLength(2 + figures.length);
    expect(rows[0]).toMatch(/^\| Figure +\| What it measures +\| Target +\| This run +\|$/);
    expect(rows.find((row) => row.includes('`parse-ratio`'))).toMatch(
      /\| Reading a native result list over the fastest bare XML parse +\| ≤ 1\.2× +\| 1\.03× +\|$/,
    );
    expect(rows.find((row) => row.includes('10-clubs'))).toMatch(/\| ≤ 230\.8 req\/h +\| 205\.5 req\/h +\|$/);
    // Missed, and information only (no target, never missed).
    expect(rows.find((row) => row.includes('`ack-cold-p99`'))).toMatch(/\| ≤ 100 ms +\| 121\.4 ms \(missed\) +\|$/);
    expect(rows.find((row) => row.includes('`query-cli-ratio`'))).toMatch(/\| none +\| 17\.9× +\|$/);
  });

  it('keeps every row of the table within the width, the long explanations below it, one item per figure', () => {
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(MAX_ROW);
    expect(new Set(rows.map((row) => row.length)).size).toBe(1);
    const items = lines.slice(lines.indexOf('## The figures') + 2, lines.indexOf('## What the figures say') - 1);
    expect(items).toEqual([
      '- `parse-ratio`: CPU time of parsing the list | over the fastest bare parse of the same bytes.',
      '- `eventor-requests-race-day-100-servers-10-clubs`: 100 servers of 10 clubs on the race day alone, held to 10 single-club bots.',
      '- `ack-cold-p99`: First callback, p99',
      '- `query-cli-ratio`: The same query over a bare `node -e 0` (information)',
    ]);
  });

  it('says when, how long (each section, the long ones named) and on what the run was, how many figures met their target, and what they say', () => {
    expect(markdown).toContain(
      'This run: 2026-11-26 16:05 UTC, sections parse 12 s, requests 10 s, interactions 41 s, startup 10 s; 1 min 13 s wall (long sections: interactions (fresh bots, started one after another); the others 32 s together), peak RSS of the bench process 649 MB; 2 cores (Some CPU @ 2.20GHz), Node v20.19.5, load average 1.0 at the start and 1.0 at the end. 2 of 3 figures within target (missed: `ack-cold-p99`).',
    );
    expect(markdown).toContain('## What the figures say');
    expect(markdown).toContain('`query-cli-ratio-over-floor`');
  });

  it('is laid out as Prettier lays out Markdown, so that `npm run lint` passes on the file as written', async () => {
    const options = await resolveConfig('docs/benchmarks.md');
    expect(await format(markdown, { ...options, parser: 'markdown' })).toBe(markdown);
  });
});
