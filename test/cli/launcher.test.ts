/**
 * `eventor-bot start --processes N` as an operator runs it (docs/operators.md#several-processes-sharding):
 * real child processes against the sandbox Discord with Discord's IDENTIFY rate enforced (op 9 for
 * an IDENTIFY within 5 seconds of another). Each child runs its shard and answers its servers; a
 * child killed is started again and answers again; SIGTERM stops them all; a child that keeps
 * failing stops the launcher with exit 1; bad SHARD_COUNT, SHARDS or --processes are one line, exit 2.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import { MAX_PROCESSES } from '../../src/cli/launcher.js';
import { MAX_SHARD_COUNT } from '../../src/config/sharding.js';
import {
  renderMessageText,
  type SandboxDiscord,
  type SandboxUser,
  shardOf,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';
import { type RunningProgram, startProgram } from '../support/bot-process.js';
import { runProgram } from '../support/cli-process.js';

const WAIT = { timeoutMs: 20_000 };
const READY_MS = 60_000;
/** Milliseconds since Discord's epoch, a multiple of 2: `(id >> 22) % 2` is then the offset added. */
const BASE = ((BigInt(Date.now()) - 1_420_070_400_000n) / 1000n) * 1000n;
const guildOn = (shard: number, k: number): string => String(((BASE + BigInt(2 * k + shard)) << 22n) | (1n << 17n));

interface LogLine {
  msg: string;
  pid?: number;
  shards?: string;
  guild?: string | null;
  launcher?: number;
}

/** The JSON log lines in a program's standard error (the launcher's and its children's). */
const logLines = (program: RunningProgram): LogLine[] =>
  program
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/** Waits (bounded) until `count` lines pass `test`; false if the program ends or time runs out first. */
async function lines(program: RunningProgram, test: (line: LogLine) => boolean, count = 1): Promise<LogLine[]> {
  const deadline = Date.now() + READY_MS;
  for (let i = 0; i < 2_400 && Date.now() < deadline; i++) {
    const found = logLines(program).filter(test);
    if (found.length >= count) return found;
    if (program.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} matching log lines:\n${program.stderr()}`);
}

/** Whether `pid` is a live process (a zombie is not). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 400 && pids.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  return !pids.some(alive);
}

describe('start --processes N', () => {
  let discord: SandboxDiscord;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let member: SandboxUser;
  const guilds = [guildOn(0, 0), guildOn(1, 0)];
  const channels: string[] = [];
  const programs: RunningProgram[] = [];

  beforeAll(async () => {
    // Discord's IDENTIFY rate, enforced: max_concurrency 1, so one IDENTIFY per 5 seconds.
    discord = await startSandboxDiscord({ port: 0, sharding: { enforceMaxConcurrency: true } });
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-launcher-'));
    member = discord.createUser({ username: 'astrid', locale: 'en-GB' });
    for (const [i, id] of guilds.entries()) {
      discord.createGuild({ id, name: `Club ${i}` });
      discord.addMember(id, member);
      channels.push(discord.createTextChannel(id, { name: 'general' }).id);
    }
    // Global: /help is offered in DMs too.
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS });
    env = {
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.restUrl,
      DATABASE_PATH: path.join(dir, 'bot.sqlite'),
      SECRET_KEY: 'launcher-test-secret-key-0123456789',
      LOG_LEVEL: 'info',
    };
  });
  afterEach(async () => {
    for (const program of programs.splice(0)) await program.stop(5_000);
  });
  afterAll(async () => {
    await discord?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const help = (guild: number | null) =>
    discord
      .runCommand({
        ...(guild === null ? {} : { guildId: guilds[guild]!, channelId: channels[guild]! }),
        user: member,
        locale: 'en-GB',
        name: 'help',
      })
      .reply(WAIT)
      .then((reply) => renderMessageText(reply));
  /** The shards (as logged) of the process that handled each command, in order. */
  const answeredBy = (program: RunningProgram): Array<[string | null, string | undefined]> =>
    logLines(program)
      .filter((line) => line.msg === 'command')
      .map((line) => [line.guild ?? null, line.shards]);

  // Two IDENTIFYs 5 s apart, a kill and the restart's delay, then a stop: on a busy machine over 30 s.
  it('starts N processes, each answers its own servers; a killed one comes back; SIGTERM stops all', async () => {
    const launcher = startProgram(['start', '--processes', '2'], { env });
    programs.push(launcher);
    const ready = await lines(launcher, (line) => line.msg === 'bot ready', 2);
    expect(ready.map((line) => line.shards)).toEqual(['0', '1']);
    const pids = ready.map((line) => line.pid!);
    // One after another, 5 seconds apart: no IDENTIFY was refused, each shard identified once.
    const identifies = () => discord.gatewayFrames().filter((frame) => frame.op === 2);
    expect(identifies().map((frame) => (frame.d as { shard: unknown }).shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);

    for (const guild of [0, 1, null, 1, 0]) expect(await help(guild)).toContain('/help');
    // The log reaches the launcher's standard error through a pipe, after the reply may have.
    await lines(launcher, (line) => line.msg === 'command', 5);
    expect(answeredBy(launcher)).toEqual([
      [guilds[0], String(shardOf(guilds[0]!, 2))],
      [guilds[1], String(shardOf(guilds[1]!, 2))],
      [null, '0'],
      [guilds[1], '1'],
      [guilds[0], '0'],
    ]);

    // The process of shard 1 dies without a word: it is started again, and shard 1 answers again.
    process.kill(pids[1]!, 'SIGKILL');
    const [restarted] = await lines(
      launcher,
      // In 1 s, or later when the last start was less than 5.5 s ago.
      (line) =>
        /^process 2 of 2 \(shards 1\) exited with signal SIGKILL; starting it again in [\d.]+ s$/.test(line.msg),
    );
    expect(restarted).toBeDefined();
    const again = await lines(launcher, (line) => line.msg === 'bot ready' && line.shards === '1', 2);
    const newPid = again[1]!.pid!;
    expect(newPid).not.toBe(pids[1]);
    expect(await help(1)).toContain('/help');
    await lines(launcher, (line) => line.msg === 'command', 6);
    expect(answeredBy(launcher).at(-1)).toEqual([guilds[1], '1']);
    expect(alive(pids[0]!)).toBe(true);

    // SIGTERM to the launcher: every child stops cleanly, then the launcher, with 0.
    expect(await launcher.stop(20_000)).toBe(0);
    expect(await gone([pids[0]!, newPid])).toBe(true);
    // Its standard error read to the end ('exit' can come before the last of it).
    if (!launcher.child.stderr.closed) await new Promise((resolve) => launcher.child.stderr.once('close', resolve));
    // They stop side by side, in either order.
    expect(
      logLines(launcher)
        .filter((line) => line.msg === 'bot stopped')
        .map((line) => line.shards)
        .sort(),
    ).toEqual(['0', '1']);
    expect(launcher.stderr()).toContain('"msg":"every process stopped"');
  }, 90_000);

  it('SIGINT (Ctrl+C) stops them as SIGTERM does', async () => {
    const launcher = startProgram(['start', '--processes', '1'], { env });
    programs.push(launcher);
    const [ready] = await lines(launcher, (line) => line.msg === 'bot ready');
    const exited = new Promise<number | null>((resolve) => launcher.child.once('exit', (code) => resolve(code)));
    launcher.child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await gone([ready!.pid!])).toBe(true);
    if (!launcher.child.stderr.closed) await new Promise((resolve) => launcher.child.stderr.once('close', resolve));
    expect(logLines(launcher).filter((line) => line.msg === 'bot stopped')).toHaveLength(1);
  });

  it('when the launcher itself is killed, its children stop on their own', async () => {
    const launcher = startProgram(['start', '--processes', '1'], { env });
    programs.push(launcher);
    const [ready] = await lines(launcher, (line) => line.msg === 'bot ready');
    launcher.child.kill('SIGKILL');
    expect(await gone([ready!.pid!])).toBe(true);
  });

  /** The launcher's exit code once it ends by itself (-1 past `ms`), with its output complete. */
  async function launcherExit(launcher: RunningProgram, ms: number): Promise<number | null> {
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(-1), ms);
      launcher.child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    if (!launcher.child.stderr.closed) await new Promise((resolve) => launcher.child.stderr.once('close', resolve));
    return code;
  }

  it('a child that keeps failing stops the launcher with exit 1, saying so once', async () => {
    // Discord out of reach (a port nothing listens on): every start of the child ends at once with
    // exit 1, a failure that may pass, so the launcher starts it again.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const launcher = startProgram(['start', '--processes', '1'], {
      env: { ...env, DISCORD_API_URL: `http://127.0.0.1:${port}/api` },
    });
    programs.push(launcher);
    expect(await launcherExit(launcher, 90_000)).toBe(1);
    const messages = logLines(launcher).map((line) => line.msg);
    expect(messages.filter((msg) => msg.includes('starting it again'))).toEqual([
      // 1, 2, 4 and 8 s, but never sooner than 5.5 s after a start that may have identified.
      'process 1 of 1 (shards 0) exited with code 1; starting it again in 5.5 s',
      'process 1 of 1 (shards 0) exited with code 1; starting it again in 5.5 s',
      'process 1 of 1 (shards 0) exited with code 1; starting it again in 5.5 s',
      'process 1 of 1 (shards 0) exited with code 1; starting it again in 8 s',
    ]);
    expect(messages.filter((msg) => msg.includes('keeps failing'))).toEqual([
      'process 1 of 1 (shards 0) keeps failing (5 exits within a minute, the last with code 1): stopping every process',
    ]);
  }, 120_000);

  it('a token Discord refuses stops the launcher at once with exit 2: no restart can fix it', async () => {
    const launcher = startProgram(['start', '--processes', '2'], { env: { ...env, DISCORD_TOKEN: 'sandbox.wrong' } });
    programs.push(launcher);
    expect(await launcherExit(launcher, 60_000)).toBe(2);
    const messages = logLines(launcher).map((line) => line.msg);
    expect(messages.filter((msg) => msg.includes('starting it again'))).toEqual([]);
    expect(messages).toContain(
      'process 1 of 2 (shards 0) exited with 2: a mistake a restart cannot fix (its log says which): stopping',
    );
    expect(launcher.stderr()).toContain('Discord refused to log in (TokenInvalid)');
  }, 90_000);

  it('a blank SHARD_COUNT (as `SHARD_COUNT=` in .env) is unset: start runs unsharded', async () => {
    const bot = startProgram(['start'], { env: { ...env, SHARD_COUNT: '', SHARDS: ' ' } });
    programs.push(bot);
    const [ready] = await lines(bot, (line) => line.msg === 'bot ready');
    expect(ready!.shards).toBeUndefined();
    expect(await help(1)).toContain('/help');
    expect(await bot.stop(20_000)).toBe(0);
  });

  it('bad SHARD_COUNT, SHARDS or --processes: one line, exit 2, nothing started', async () => {
    const cases: Array<[string[], NodeJS.ProcessEnv, string]> = [
      [
        ['start'],
        { SHARD_COUNT: 'two' },
        `Configuration problem: SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got 'two')`,
      ],
      [
        ['start'],
        { SHARD_COUNT: '2', SHARDS: '2' },
        'Configuration problem: SHARDS: shard 2 does not exist with SHARD_COUNT=2 (shard ids are 0 to 1)',
      ],
      [
        ['start'],
        { SHARDS: '0' },
        'Configuration problem: SHARDS is set but SHARD_COUNT is not: set SHARD_COUNT to how many shards all processes run',
      ],
      [
        ['start', '--processes', '2'],
        { SHARD_COUNT: '0' },
        `Configuration problem: SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got '0')`,
      ],
      [
        ['start', '--processes', '2'],
        { SHARD_COUNT: '4', SHARDS: '0,1' },
        'Configuration problem: SHARDS cannot be set with --processes: the launcher gives each process its shards (SHARD_COUNT may be set)',
      ],
      [
        ['start', '--processes', '3'],
        { SHARD_COUNT: '2' },
        'Configuration problem: SHARD_COUNT=2 is fewer than --processes 3: every process needs at least one shard',
      ],
      [
        ['start', '--processes', '0'],
        {},
        `eventor-bot start: --processes must be a whole number from 1 to ${MAX_PROCESSES}`,
      ],
      [['start', '--processes'], {}, 'eventor-bot start: option --processes needs a value'],
    ];
    const identifies = () => discord.gatewayFrames().filter((frame) => frame.op === 2).length;
    const before = identifies();
    for (const [args, extra, message] of cases) {
      const { code, stderr } = await runProgram(args, { env: { ...env, ...extra }, cwd: dir, timeoutMs: 30_000 });
      expect({ args, extra, code, stderr }).toEqual({ args, extra, code: 2, stderr: `${message}\n` });
    }
    // Nothing reached Discord.
    expect(identifies()).toBe(before);
  });
});
