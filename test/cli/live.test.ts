/**
 * `eventor-bot live` as its own process against the sandbox LiveResultat, on the sandbox's clock
 * (SANDBOX_CLOCK): the `--json` shape, both APIs alike, the table, the fallback, and one clear
 * line for each bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/args.js';
import type { LiveJson } from '../../src/cli/live.js';
import { runSandbox } from '../../harness/cli/sandbox.js';
import { capture, printedVariables, runProgram } from '../support/cli-process.js';
import { testNow } from '../support/clock.js';
import { clubRace, type LiveTestWorld, raceSpan, startLiveTestWorld } from '../support/live-world.js';

let world: LiveTestWorld;
let competitionId: number;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  world = await startLiveTestWorld({ missingStarts: 0 });
  const { competition, race } = clubRace(world);
  competitionId = competition.id;
  // Half a minute past a whole minute, 40 minutes into the race: some home, some out, starts on whole minutes.
  const at = Math.floor((raceSpan(race).firstStart + 40 * 60_000) / 60_000) * 60_000 + 30_000;
  world.setNow(at);
  env = {
    LIVERESULTAT_URL: world.live.restUrl,
    LIVERESULTAT_LEGACY_URL: world.live.legacyUrl,
    SANDBOX_CLOCK: new Date(at).toISOString(),
  };
});
afterAll(async () => {
  await world?.close();
});

const live = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runProgram(['live', ...args], { env: { ...env, ...extra }, timeoutMs: 60_000 });

describe('eventor-bot live', () => {
  it('--json: the fixed shape, the club runners by class, place and name', async () => {
    const { code, stdout, stderr } = await live([
      '--competition',
      String(competitionId),
      '--club',
      world.homeClub,
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as LiveJson;
    expect(Object.keys(json)).toEqual(['competition', 'club', 'runners']);
    expect(Object.keys(json.competition)).toEqual(['id', 'name', 'date', 'timezone']);
    expect(json.competition).toMatchObject({ id: competitionId, timezone: 'Europe/Stockholm' });
    expect(json.club).toBe(world.homeClub);
    const race = world.live.world.race(competitionId)!;
    const expected = race.classes.flatMap((c) => c.runners.filter((r) => !r.ghost && r.club === world.homeClub));
    // A raw tab in a name (the sandbox's invalid-JSON quirk) reads as a space.
    expect(json.runners.map((r) => r.name).sort()).toEqual(expected.map((r) => r.name.replace('\t', ' ')).sort());
    for (const runner of json.runners) {
      expect(Object.keys(runner)).toEqual([
        'name',
        'class',
        'status',
        'start',
        'time',
        'place',
        'behind',
        'lastControl',
      ]);
      expect(['not-started', 'running', 'finished', 'mp', 'dnf', 'dsq', 'dns', 'other']).toContain(runner.status);
      expect(runner.start).toMatch(/^\d\d:\d\d:\d\d$/);
      for (const value of [runner.time, runner.behind, runner.place])
        expect(value === null || (Number.isInteger(value) && value >= 0)).toBe(true);
      if (runner.lastControl !== null) expect(Object.keys(runner.lastControl)).toEqual(['code', 'place', 'behind']);
      if (runner.status === 'finished') expect(runner.time).not.toBeNull();
      else expect([runner.time, runner.place, runner.behind]).toEqual([null, null, null]);
    }
    const statuses = new Set(json.runners.map((r) => r.status));
    expect(statuses.has('finished') && statuses.has('running')).toBe(true);
    // Sorted by class, then place (unplaced last), then name.
    const collator = new Intl.Collator('sv', { numeric: true, sensitivity: 'base' });
    const sorted = [...json.runners].sort(
      (a, b) =>
        collator.compare(a.class, b.class) ||
        (a.place ?? Infinity) - (b.place ?? Infinity) ||
        collator.compare(a.name, b.name),
    );
    expect(json.runners).toEqual(sorted);
  });

  it('--source legacy reads the same from api.php; without --json a table', async () => {
    const [rest, legacy] = await Promise.all([
      live(['--competition', String(competitionId), '--club', world.homeClub, '--json']),
      live(['--competition', String(competitionId), '--club', world.homeClub, '--json', '--source', 'legacy']),
    ]);
    expect(legacy.code).toBe(0);
    // api.php names no zone: Swedish time follows from its timediff 0, so even that is the same.
    expect(JSON.parse(legacy.stdout)).toEqual(JSON.parse(rest.stdout));
    const table = await live(['--competition', String(competitionId), '--club', world.homeClub]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`\\(\\d{4}-\\d\\d-\\d\\d, competition ${competitionId}\\): \\d+ runners of ${world.homeClub}$`),
    );
    expect(lines.length).toBe(1 + (JSON.parse(rest.stdout) as LiveJson).runners.length);
  });

  it('reads api.php when the REST API is down, saying so in one line', async () => {
    const rule = world.live.faults.add({ path: '/competitions', kind: 'status', status: 503 });
    try {
      const { code, stdout, stderr } = await live([
        '--competition',
        String(competitionId),
        '--club',
        world.homeClub,
        '--json',
      ]);
      expect(code).toBe(0);
      expect(stderr).toBe(
        'eventor-bot live: warning: the live-results service answered HTTP 503 for /competitions/' +
          competitionId +
          '; reading api.php instead\n',
      );
      expect((JSON.parse(stdout) as LiveJson).runners.length).toBeGreaterThan(0);
    } finally {
      world.live.faults.remove(rule);
    }
  });

  it('one clear line and the right exit code for each bad input', async () => {
    const unknown = await live(['--competition', '99999999', '--club', world.homeClub]);
    expect(unknown).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'eventor-bot live: /competitions/99999999 is not known to the live-results service (HTTP 404)\n',
    });
    for (const [args, extra, message] of [
      [['--club', 'X'], {}, 'name the competition'],
      [['--competition', '1'], {}, 'name the club'],
      [['--competition', 'https://evil.example/?comp=1', '--club', 'X'], {}, '--competition must be'],
      [['--competition', '1', '--club', 'X', '--source', 'ftp'], {}, '--source must be rest or legacy'],
      [
        ['--competition', '1', '--club', 'X', '--base-url', 'http://user:secret@127.0.0.1/'],
        {},
        'must not contain a user name or password',
      ],
      [
        ['--competition', '1', '--club', 'X'],
        { LIVERESULTAT_URL: 'https://api.orienteering.services' },
        'SANDBOX_CLOCK is for the sandbox LiveResultat only',
      ],
      [['--competition', '1', '--club', 'X', '--colour'], {}, 'unknown option: --colour'],
    ] as const) {
      const result = await live([...args], extra);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toContain('secret');
    }
    const unreachable = await live([
      '--competition',
      '1',
      '--club',
      'X',
      '--source',
      'rest',
      '--base-url',
      'http://127.0.0.1:9/',
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toBe('eventor-bot live: the live-results service could not be reached (ECONNREFUSED)\n');
  });

  it('sandbox --live prints the addresses `live` reads from, on the same clock', async () => {
    let stop = (): void => undefined;
    const io = capture({});
    const serving = runSandbox(
      parseFlags(['--live', '--now', testNow().toISOString()]),
      io,
      new Promise<void>((resolve) => (stop = resolve)),
    );
    try {
      for (let i = 0; i < 200 && !io.stdout().includes('LIVERESULTAT_LEGACY_URL='); i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const printed = printedVariables(io.stdout());
      expect(Object.keys(printed)).toEqual([
        'EVENTOR_BASE_URL',
        'EVENTOR_API_KEY',
        'LIVERESULTAT_URL',
        'LIVERESULTAT_LEGACY_URL',
        'SANDBOX_CLOCK',
      ]);
      const env = {
        LIVERESULTAT_URL: printed.LIVERESULTAT_URL!,
        LIVERESULTAT_LEGACY_URL: printed.LIVERESULTAT_LEGACY_URL!,
        SANDBOX_CLOCK: printed.SANDBOX_CLOCK!,
      };
      const result = await runProgram(['live', '--competition', '50001', '--club', world.homeClub, '--json'], {
        env,
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect((JSON.parse(result.stdout) as LiveJson).competition.id).toBe(50001);
    } finally {
      stop();
      expect(await serving).toBe(0);
    }
  });
});
