/**
 * `npm run soak` in its smallest configuration (docs/decisions/soak.md): two real `start`
 * processes on one database, a handful of SIGKILLs while a wave of results, its start lists and
 * the weekly digest are posted, and every expected post of each kind present exactly once. Minutes
 * long: the results feed's real 5-minute cadence and the start lists' 15-minute one (on a clock
 * set ahead so that a slot begins soon) set the pace. Its bad arguments are one line and exit 2.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIABLES } from '../../src/config/variables.js';

const SOAK = path.resolve('dist/harness/soak/main.js');
const MINUTE = 60_000;

function runSoak(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SOAK, ...args], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => {
      // SIGTERM first: the soak's own processes go with it (they notice their parent is gone).
      child.kill('SIGTERM');
      reject(new Error(`the soak took more than ${timeoutMs / MINUTE} minutes:\n${out}\n${err}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/**
 * The live run takes five to ten minutes of mostly waiting, so `npm test` leaves it out unless
 * asked (`SOAK_TEST=1 npm test -- test/cli/soak.test.ts`); `npm run soak -- --quick` is the same check.
 */
const LIVE = process.env.SOAK_TEST === '1';

describe('npm run soak', () => {
  it.skipIf(!LIVE)(
    '--quick with 2 processes and 6 kills: every expected results post, start list and digest present once, the SOAK line last [needs SOAK_TEST=1]',
    async () => {
      const { code, out, err } = await runSoak(
        ['--quick', '--database', 'sqlite', '--servers', '6', '--clubs', '3', '--kills', '6'],
        24 * MINUTE,
      );
      const lines = out.trim().split('\n');
      const last = lines.at(-1) ?? '';
      const match =
        /^SOAK processes=(\d+) kills=(\d+) expected=(\d+) present=(\d+) duplicates=(\d+) lost=(\d+) longest_wait_s=(\d+) late=(\d+) results=(\d+)\/(\d+)\/(\d+)\/(\d+)\/(\d+) startlists=(\d+)\/(\d+)\/(\d+)\/(\d+)\/(\d+) digest=(\d+)\/(\d+)\/(\d+)\/(\d+)\/(\d+)$/.exec(
          last,
        );
      expect(match, `${out}\n${err}`).not.toBeNull();
      const [processes, kills, expected, present, duplicates, lost, wait, late] = match!.slice(1, 9).map(Number);
      expect({ processes, duplicates, lost, late }).toEqual({ processes: 2, duplicates: 0, lost: 0, late: 0 });
      // Per kind: expected/present/duplicates/lost/longest wait, each within two of its cadences.
      const [results, startLists, digest] = [9, 14, 19].map((from) => match!.slice(from, from + 5).map(Number));
      for (const [kind, cadence] of [
        [results!, 300],
        [startLists!, 900],
        [digest!, 300],
      ] as const) {
        expect(kind[0]).toBeGreaterThan(0);
        expect(kind.slice(1, 4)).toEqual([kind[0], 0, 0]);
        expect(kind[4]).toBeLessThanOrEqual(2 * cadence);
      }
      expect(wait).toBeLessThanOrEqual(1800);
      // At least the kills asked for; more when the posts were still being made.
      expect(kills).toBeGreaterThanOrEqual(6);
      expect(expected).toBeGreaterThan(0);
      expect(present).toBe(expected);
      // Progress while it ran, then the summary.
      expect(lines.some((line) => /^\[\d\d:\d\d\] kills \d+, processes ready \d\/2/.test(line))).toBe(true);
      expect(lines).toContain('unexpected posts: 0');
      expect(code).toBe(0);
    },
    25 * MINUTE,
  );

  it('a bad argument is one line and exit 2, before anything starts', async () => {
    for (const args of [['--processes', '1'], ['--kills', 'many'], ['--database', 'mysql'], ['--nonsense']]) {
      const { code, out, err } = await runSoak(args, MINUTE);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err.split('\n')[0]).toMatch(/^soak: /);
      expect(err).not.toMatch(/\n\s+at /);
    }
    // PostgreSQL is asked for only once `start` reads DATABASE_URL.
    if (!(VARIABLES as readonly string[]).includes('DATABASE_URL')) {
      const { code, err } = await runSoak(['--database', 'postgres'], MINUTE);
      expect(code).toBe(2);
      expect(err).toContain('does not read DATABASE_URL yet');
    }
  }, 60_000);
});
