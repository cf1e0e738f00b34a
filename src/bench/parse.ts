/**
 * Parsing a 20,000-runner native result list with splits: speed against a bare parse of the same
 * bytes, peak heap against the document's size, and the hand-written pieces kept because they are
 * faster than the library that could do their job (`kept.ts`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { request } from 'undici';
import { parseResultList } from '../eventor/native/index.js';
import { LARGE_EVENT_ID } from '../sandbox/eventor/dataset.js';
import { writeIofResultList } from '../sandbox/eventor/iof-writer.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import { countResults } from './count.js';
import type { BenchFigure } from './figure.js';
import { iofTreeFigure, sideBySide, zoneConversionFigure } from './kept.js';
import type { BenchContext, BenchSection } from './section.js';

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

/**
 * Peak heap of parsing the document in `file`, found as the smallest --max-old-space-size under
 * which a fresh process still reads it completely: a sampled heap figure would miss short peaks.
 * The document's own text is on that heap too, as it is in the bot.
 */
async function peakHeapBytes(
  file: string,
  expected: { results: number; splits: number },
  lowMb: number,
  highMb: number,
): Promise<number> {
  const child = fileURLToPath(new URL('./heap-child.js', import.meta.url));
  const fits = async (limitMb: number): Promise<boolean> => {
    try {
      const { stdout } = await execFileAsync(process.execPath, [`--max-old-space-size=${limitMb}`, child, file], {
        maxBuffer: 1 << 20,
        timeout: 600_000,
      });
      const counts = JSON.parse(stdout) as { results: number; splits: number };
      if (counts.results !== expected.results || counts.splits !== expected.splits) {
        throw new Error(`the parse under a heap limit read ${stdout}, expected ${JSON.stringify(expected)}`);
      }
      return true;
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '');
      if (/heap out of memory|Reached heap limit|allocation failed/i.test(stderr)) return false;
      throw error;
    }
  };
  let low = lowMb;
  let high = highMb;
  if (!(await fits(high))) return Number.POSITIVE_INFINITY;
  while (high - low > Math.max(8, high * 0.03)) {
    const mid = Math.round((low + high) / 2);
    if (await fits(mid)) high = mid;
    else low = mid;
  }
  return high * 1024 * 1024;
}

async function runParse({ write }: BenchContext): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const xml = await largeResultListXml();
  const bytes = Buffer.byteLength(xml);
  write(`# 20,000-runner result list with splits: ${(bytes / 1e6).toFixed(1)} MB of native XML`);

  const bare = new XMLParser();
  const ours = () => parseResultList(xml, { timeZone: 'UTC' });
  const expected = countResults(ours());
  write(`# it holds ${expected.results} race results with ${expected.splits} split times`);
  // Side by side, alternating, so that drift in machine speed hits both alike.
  const parse = sideBySide(ours, () => bare.parse(xml));
  write(
    `# parse: fast-xml-parser bare ${parse.theirs.toFixed(0)} ms, eventor-bot ${parse.ours.toFixed(0)} ms (median of 3)`,
  );
  figures.push({ name: 'parse-ratio', value: parse.ours / parse.theirs, unit: 'x', op: '<=', target: 1.2 });

  // The hand-written pieces kept because they are faster than the library that could do their job.
  const iofXml = writeIofResultList(ours(), { createTime: '2026-10-17T16:00:00Z' });
  figures.push(iofTreeFigure(iofXml, write));
  figures.push(zoneConversionFigure(100_000, write));

  const docMb = Math.ceil(bytes / 1024 / 1024);
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-bench-'));
  let peak: number;
  try {
    const file = path.join(dir, 'results.xml');
    await writeFile(file, xml);
    peak = await peakHeapBytes(file, expected, docMb, docMb * 12);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  figures.push({ name: 'parse-heap', value: peak / bytes, unit: 'x-document', op: '<=', target: 3 });
  write(`# parse peak heap: ${(peak / 1e6).toFixed(0)} MB`);
  return figures;
}

export const parseSection: BenchSection = { name: 'parse', run: runParse };
