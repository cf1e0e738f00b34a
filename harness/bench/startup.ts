/**
 * How fast the command line gets going, each measured on the real `bin/eventor-bot.js` as its own
 * process against loopback sandboxes this section starts:
 *
 * - `ready-seconds`: wall time from spawning `eventor-bot start` to its "bot ready" log line, the
 *   median over runs that alternate between a fresh database (a new file: created and migrated)
 *   and an existing one (the file the previous run left); the figure is the slower of the two
 *   medians, so both have to be within the target. The CPU the process had used by then is shown
 *   beside it: on a shared machine the wall time is mostly waiting for a core.
 * - `query-cli-ratio-over-floor`: CPU time (user + system) of `eventor-bot query organisation-apikey`
 *   divided by that of a bare node that loads undici and zod together (the stack's HTTP client and
 *   validator, which every query needs: the floor no query goes below), medians of alternating
 *   runs. CPU, not wall time: on a shared machine wall time is mostly other people's work.
 * - `query-cli-ratio` (information only): the same query over a bare `node -e 0`. Its old target
 *   of 3 was below the floor: loading undici alone is about 5 times a bare node, zod alone about 4
 *   (the `#` line beside it).
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandboxDiscord } from '../sandbox/discord/index.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import type { BenchFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';
import { median } from './stats.js';

const CLI = fileURLToPath(new URL('../../../bin/eventor-bot.js', import.meta.url));

const require = createRequire(import.meta.url);
/** Bare processes that load one library each (by its resolved path: they run in a scratch folder). */
const FLOOR_LOADS: ReadonlyArray<readonly [string, string[]]> = [
  ['undici', ['-e', `require(${JSON.stringify(require.resolve('undici'))})`]],
  ['zod', ['--input-type=module', '-e', `await import(${JSON.stringify(import.meta.resolve('zod'))})`]],
];
/** The floor under a query: a bare process that loads both, as the query does (ES imports). */
const FLOOR_BOTH = [
  '--input-type=module',
  '-e',
  `await Promise.all([import(${JSON.stringify(import.meta.resolve('undici'))}), import(${JSON.stringify(import.meta.resolve('zod'))})])`,
];

/** Long enough for a start on a busy machine; a run past it fails the bench rather than hanging. */
const READY_TIMEOUT_MS = 60_000;

/** CPU seconds (user + system) the live process `pid` has used so far, from /proc; null where there is none. */
function cpuSecondsSoFar(pid: number | undefined, ticksPerSecond: number): number | null {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and
    // stime are the 14th and 15th of the whole line, so the 12th and 13th after it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return null;
  }
}

/**
 * Seconds from spawning `eventor-bot start` until it logs "bot ready", and the CPU it had used by
 * then (a steadier measure than the wall time on a shared machine, shown beside it); then stops
 * it with SIGTERM (as a service manager would) and waits for it to exit, so runs never overlap.
 */
async function secondsToReady(
  env: NodeJS.ProcessEnv,
  cwd: string,
  ticksPerSecond: number,
): Promise<{ wall: number; cpu: number | null }> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, 'start'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let log = '';
  try {
    return await new Promise<{ wall: number; cpu: number | null }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "bot ready" within ${READY_TIMEOUT_MS} ms:\n${log}`)),
        READY_TIMEOUT_MS,
      );
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        log += chunk;
        if (log.includes('"bot ready"')) {
          clearTimeout(timer);
          const wall = Number(process.hrtime.bigint() - started) / 1e9;
          resolve({ wall, cpu: cpuSecondsSoFar(child.pid, ticksPerSecond) });
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`eventor-bot start exited with ${code} before "bot ready":\n${log}`));
      });
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * CPU seconds (user + system) a child process used. The command runs under bash, whose `times`
 * builtin then prints the CPU of its waited-for children (its own is on the first line, theirs on
 * the second): the kernel's account of the whole process, every thread included, without
 * sampling /proc in a race with the process's exit. Standard input is closed (`ignore`): with a
 * pipe there, as `execFile` gives, even a bare `node -e 0` under it was measured spending ten
 * times its usual CPU.
 */
async function childCpuSeconds(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const child = spawn('bash', ['-c', '"$@" >/dev/null || exit $?; times', 'bash', process.execPath, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${stderr}`);
  const children = stdout.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (seconds.length !== 2) throw new Error(`cannot read the CPU time from bash's times: ${stdout}`);
  return seconds[0]! + seconds[1]!;
}

export async function runStartupSection({ quick, write }: BenchContext): Promise<BenchFigure[]> {
  const readyRuns = quick ? 2 : 5;
  const queryRuns = quick ? 3 : 9;
  write(
    `# startup: ${readyRuns} fresh-database and ${readyRuns} existing-database starts, ${queryRuns} query and bare node runs`,
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-bench-startup-'));
  const eventor = await startSandboxEventor({});
  const discord = await startSandboxDiscord({ port: 0 });
  try {
    const guild = discord.createGuild({ name: eventor.dataset.homeClub.name });
    discord.createTextChannel(guild.id, { name: 'general' });
    // Only what the program reads: nothing of the bench's own environment (a LOG_LEVEL, a
    // DATABASE_PATH), and a working folder without a .env.
    const base: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      EVENTOR_BASE_URL: eventor.baseUrl,
      EVENTOR_API_KEY: eventor.apiKey,
      LOG_LEVEL: 'info',
    };
    const startEnv = (databasePath: string): NodeJS.ProcessEnv => ({
      ...base,
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.restUrl,
      EVENTOR_DEFAULT_GUILDS: guild.id,
      SECRET_KEY: 'bench-startup-secret-key-0123456789',
      DATABASE_PATH: databasePath,
    });

    const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const fresh: Array<{ wall: number; cpu: number | null }> = [];
    const existing: Array<{ wall: number; cpu: number | null }> = [];
    const existingDatabase = path.join(dir, 'existing.sqlite');
    await secondsToReady(startEnv(existingDatabase), dir, ticksPerSecond); // creates it; not counted
    for (let run = 0; run < readyRuns; run++) {
      fresh.push(await secondsToReady(startEnv(path.join(dir, `fresh-${run}.sqlite`)), dir, ticksPerSecond));
      existing.push(await secondsToReady(startEnv(existingDatabase), dir, ticksPerSecond));
    }
    const describe = (runs: ReadonlyArray<{ wall: number; cpu: number | null }>): string => {
      const cpu = runs.flatMap((r) => (r.cpu === null ? [] : [r.cpu]));
      return `median ${median(runs.map((r) => r.wall)).toFixed(2)} s (${runs.map((r) => r.wall.toFixed(2)).join(', ')})${cpu.length > 0 ? `, CPU by then median ${median(cpu).toFixed(2)} s` : ''}`;
    };
    write(`# start to "bot ready": fresh database ${describe(fresh)}; existing database ${describe(existing)}`);

    const query: number[] = [];
    const bare: number[] = [];
    const floor: number[] = [];
    for (let run = 0; run < queryRuns; run++) {
      // Alternating, so that a busy moment of the machine weighs on all three alike.
      query.push(await childCpuSeconds([CLI, 'query', 'organisation-apikey'], base, dir));
      floor.push(await childCpuSeconds(FLOOR_BOTH, base, dir));
      bare.push(await childCpuSeconds(['-e', '0'], base, dir));
    }
    write(
      `# CPU time: query organisation-apikey median ${(median(query) * 1000).toFixed(0)} ms, node loading undici and zod median ${(median(floor) * 1000).toFixed(0)} ms, node -e 0 median ${(median(bare) * 1000).toFixed(0)} ms`,
    );
    // What no query can go below: loading the HTTP client and the validator the stack prescribes
    // (undici, zod), each alone in a bare process, as multiples of the bare process.
    const floors: string[] = [];
    for (const [name, args] of FLOOR_LOADS) {
      const runs: number[] = [];
      for (let run = 0; run < Math.min(queryRuns, 5); run++) runs.push(await childCpuSeconds(args, base, dir));
      floors.push(`${name} ${(median(runs) * 1000).toFixed(0)} ms (${(median(runs) / median(bare)).toFixed(1)}x)`);
    }
    write(`# CPU time of loading one library in a bare node, the floor under query: ${floors.join(', ')}`);
    return [
      {
        name: 'ready-seconds',
        value: Math.max(median(fresh.map((r) => r.wall)), median(existing.map((r) => r.wall))),
        unit: 's',
        op: '<=',
        target: 1.5,
        title: 'Spawning `eventor-bot start` to its "bot ready" line',
        about:
          'Wall time from spawning `node bin/eventor-bot.js start` against the sandboxes to its "bot ready" log line; fresh and existing database alternating, the slower of the two medians.',
      },
      {
        name: 'query-cli-ratio-over-floor',
        value: median(query) / median(floor),
        unit: 'x',
        op: '<=',
        target: 1.5,
        title: '`eventor-bot query` over a node loading undici and zod',
        about:
          "CPU time of `node bin/eventor-bot.js query organisation-apikey` over a bare node that loads undici and zod together, the HTTP client and the validator every query needs (bash's `times`, medians of alternating runs).",
      },
      {
        name: 'query-cli-ratio',
        value: median(query) / median(bare),
        unit: 'x',
        title: 'The same query over a bare `node -e 0` (information)',
        about:
          'CPU time of the same query over a bare `node -e 0`, information only: its old target of 3 is below what loading the stack alone takes (a `#` line gives a bare node loading only undici, and only zod).',
      },
    ];
  } finally {
    await discord.close();
    await eventor.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const startupSection: BenchSection = { name: 'startup', run: runStartupSection };
