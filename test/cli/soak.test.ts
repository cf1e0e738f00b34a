/**
 * `npm run soak` in its smallest configuration (docs/decisions/soak.md): two real `start`
 * processes on one database, a handful of SIGKILLs while a wave of results, its start lists, the
 * staged deadline reminders, the weekly digest, the races in Events and members' result DMs are
 * made, and every expected post of each kind present exactly once. Minutes long: the results
 * feed's real 5-minute cadence and the hourly and 15-minute ones (on a clock set ahead so that an
 * hour begins soon) set the pace. Its bad arguments are one line and exit 2.
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
    '--quick with 2 processes and 6 kills: every expected post of every kind present once, the SOAK line last [needs SOAK_TEST=1]',
    async () => {
      const { code, out, err } = await runSoak(
        ['--quick', '--database', 'sqlite', '--servers', '6', '--clubs', '3', '--kills', '6'],
        24 * MINUTE,
      );
      const lines = out.trim().split('\n');
      const last = lines.at(-1) ?? '';
      const match =
        /^SOAK processes=(\d+) kills=(\d+) expected=(\d+) present=(\d+) duplicates=(\d+) lost=(\d+) longest_wait_s=(\d+) late=(\d+)((?: [a-z]+=\d+\/\d+\/\d+\/\d+\/\d+)+)$/.exec(
          last,
        );
      expect(match, `${out}\n${err}`).not.toBeNull();
      const [processes, kills, expected, present, duplicates, lost, wait, late] = match!.slice(1, 9).map(Number);
      expect({ processes, duplicates, lost, late }).toEqual({ processes: 2, duplicates: 0, lost: 0, late: 0 });
      // Per kind: expected/present/duplicates/lost/longest wait, each within two of its cadences (s).
      const perKind = new Map(
        match![9]!
          .trim()
          .split(' ')
          .map((part) => [part.split('=')[0]!, part.split('=')[1]!.split('/').map(Number)] as const),
      );
      const cadences = { results: 300, startlists: 900, reminders: 3600, digest: 300, calendar: 21_600, dms: 300 };
      expect([...perKind.keys()]).toEqual(Object.keys(cadences));
      for (const [name, cadence] of Object.entries(cadences)) {
        const kind = perKind.get(name)!;
        // A member's race may come out in a later wave than the quick soak's one.
        if (name !== 'dms') expect(kind[0], name).toBeGreaterThan(0);
        expect(kind.slice(1, 4), name).toEqual([kind[0], 0, 0]);
        expect(kind[4], name).toBeLessThanOrEqual(2 * cadence);
      }
      expect(wait).toBeLessThanOrEqual(2 * 21_600);
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
