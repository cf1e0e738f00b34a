/**
 * How fast the command line gets going, each measured on the real `bin/eventor-bot.js` as its own
 * process against loopback sandboxes this section starts:
 *
 * - `ready-seconds`: wall time from spawning `eventor-bot start` to its "bot ready" log line, the
 *   median over runs that alternate between a fresh database (a new file: created and migrated)
 *   and an existing one (the file the previous run left); the figure is the slower of the two
 *   medians, so both have to be within the target.
 * - `query-cli-ratio`: CPU time (user + system) of `eventor-bot query organisation-apikey` divided
 *   by that of a bare `node -e 0`, medians of alternating runs. CPU, not wall time: on a shared
 *   machine wall time is mostly other people's work.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandboxDiscord } from '../sandbox/discord/index.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import type { BenchFigure } from './figure.js';
import type { BenchContext, BenchSection } from './section.js';

const CLI = fileURLToPath(new URL('../../../bin/eventor-bot.js', import.meta.url));

/** Long enough for a start on a busy machine; a run past it fails the bench rather than hanging. */
const READY_TIMEOUT_MS = 60_000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Seconds from spawning `eventor-bot start` until it logs "bot ready"; then stops it with SIGTERM
 * (as a service manager would) and waits for it to exit, so runs never overlap.
 */
async function secondsToReady(env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, 'start'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let log = '';
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "bot ready" within ${READY_TIMEOUT_MS} ms:\n${log}`)),
        READY_TIMEOUT_MS,
      );
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        log += chunk;
        if (log.includes('"bot ready"')) {
          clearTimeout(timer);
          resolve(Number(process.hrtime.bigint() - started) / 1e9);
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

    const fresh: number[] = [];
    const existing: number[] = [];
    const existingDatabase = path.join(dir, 'existing.sqlite');
    await secondsToReady(startEnv(existingDatabase), dir); // creates it; not counted
    for (let run = 0; run < readyRuns; run++) {
      fresh.push(await secondsToReady(startEnv(path.join(dir, `fresh-${run}.sqlite`)), dir));
      existing.push(await secondsToReady(startEnv(existingDatabase), dir));
    }
    write(
      `# start to "bot ready": fresh database median ${median(fresh).toFixed(2)} s (${fresh.map((s) => s.toFixed(2)).join(', ')}), existing database median ${median(existing).toFixed(2)} s (${existing.map((s) => s.toFixed(2)).join(', ')})`,
    );

    const query: number[] = [];
    const bare: number[] = [];
    for (let run = 0; run < queryRuns; run++) {
      // Alternating, so that a busy moment of the machine weighs on both alike.
      query.push(await childCpuSeconds([CLI, 'query', 'organisation-apikey'], base, dir));
      bare.push(await childCpuSeconds(['-e', '0'], base, dir));
    }
    write(
      `# CPU time: query organisation-apikey median ${(median(query) * 1000).toFixed(0)} ms, node -e 0 median ${(median(bare) * 1000).toFixed(0)} ms`,
    );
    return [
      {
        name: 'ready-seconds',
        value: Math.max(median(fresh), median(existing)),
        unit: 's',
        op: '<=',
        target: 1.5,
      },
      { name: 'query-cli-ratio', value: median(query) / median(bare), unit: 'x', op: '<=', target: 3 },
    ];
  } finally {
    await discord.close();
    await eventor.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const startupSection: BenchSection = { name: 'startup', run: runStartupSection };
