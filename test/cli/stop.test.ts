import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import { STOP_DEADLINE_MS } from '../../src/cli/start.js';
import { PROGRAM } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

/**
 * The bot as an operator runs it, as its own process, stopped the way a service manager or Ctrl-C
 * stops it: the signal goes to the process the operator started (npm, npx or node), never to the
 * bot's own node process behind it.
 */

const WAIT_MS = 20_000;
const NPM = 'npm';
const NPX = 'npx';

interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code and signal once the started process has exited and every writer of its stderr has closed. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: ChildProcess[] = [];

function launch(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, {
    cwd: path.resolve('.'),
    // No .env of the checkout's: only these variables.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: whatever is left of it can be found and cleaned up.
    detached: true,
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // 'close': the bot's node process (which holds stderr too) has gone as well.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, output: () => output, ended: Promise.all([exited, closed]).then(([result]) => result) };
}

async function until(condition: () => boolean, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (let i = 0; i < 2_000 && !condition(); i++) {
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  if (!condition()) throw new Error(`no ${what} within ${WAIT_MS} ms:\n${output()}`);
}

function within<T>(promise: Promise<T>, what: string, output: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took more than ${WAIT_MS} ms:\n${output()}`)), WAIT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The bot's own pid, from its "bot ready" line. */
function botPid(output: string): number {
  const line = output.split('\n').find((l) => l.includes('"msg":"bot ready"'));
  const pid = (JSON.parse(line!) as { pid?: unknown }).pid;
  expect(typeof pid).toBe('number');
  return pid as number;
}

/** Whether `pid` is a live process (a zombie waiting for a parent to reap it is not). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

describe('stopping the bot: SIGTERM or SIGINT to npm start, npx eventor-bot start or node', () => {
  let setup: OperatorSetup;
  let env: NodeJS.ProcessEnv;
  let guildId: string;
  let channelId: string;

  beforeAll(async () => {
    setup = await startOperatorSetup('stop');
    const guild = setup.discord.createGuild({ name: 'Stop' });
    guildId = guild.id;
    channelId = setup.discord.createTextChannel(guild.id, { name: 'general' }).id;
    await deployCommands({
      token: setup.discord.token,
      apiUrl: setup.discord.restUrl,
      commands: COMMANDS,
      guildId: guild.id,
    });
    env = { ...setup.env, EVENTOR_DEFAULT_GUILDS: guild.id };
  });
  afterEach(() => {
    setup.eventor.faults.clear();
    // A failed test leaves nothing running: its whole process group goes.
    for (const child of running.splice(0)) {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
  afterAll(async () => {
    await setup?.close();
  });

  const ways: Array<{ name: string; command: string; args: string[]; signal: NodeJS.Signals; code: number | null }> = [
    // prestart builds; the tests' global setup has built already.
    { name: 'npm start', command: NPM, args: ['start', '--ignore-scripts'], signal: 'SIGTERM', code: 0 },
    { name: 'npm start (SIGINT)', command: NPM, args: ['start', '--ignore-scripts'], signal: 'SIGINT', code: 0 },
    // npx runs the bot under `sh -c`: npm's forwarded signal ends the shell, and npx then ends
    // itself with the same signal, whatever the bot does; the bot sees its parent go and stops.
    {
      name: 'npx eventor-bot start',
      command: NPX,
      args: ['--offline', 'eventor-bot', 'start'],
      signal: 'SIGTERM',
      code: null,
    },
    {
      name: 'node bin/eventor-bot.js start',
      command: process.execPath,
      args: [PROGRAM, 'start'],
      signal: 'SIGTERM',
      code: 0,
    },
    {
      name: 'node bin/eventor-bot.js start (SIGINT)',
      command: process.execPath,
      args: [PROGRAM, 'start'],
      signal: 'SIGINT',
      code: 0,
    },
  ];

  for (const way of ways) {
    it(`${way.name}: ${way.signal} stops it cleanly and leaves no process`, async () => {
      const database = path.join(setup.dir, 'bot.sqlite');
      const started = launch(way.command, way.args, { ...env, DATABASE_PATH: database });
      await until(() => started.output().includes('"msg":"bot ready"'), '"bot ready"', started.output);
      const pid = botPid(started.output());
      if (way.command !== process.execPath) expect(pid).not.toBe(started.child.pid);
      started.child.kill(way.signal);
      const { code, signal } = await within(started.ended, 'stopping', started.output);
      if (way.code === null) expect(signal).toBe(way.signal);
      else expect({ code, signal, output: started.output() }).toMatchObject({ code: way.code, signal: null });
      expect(started.output()).toContain('"msg":"bot stopped"');
      expect(started.output()).not.toContain('exiting without waiting');
      expect(alive(pid)).toBe(false);
      // Closed, not abandoned: the last connection's close folds the write-ahead log in and removes it.
      expect(existsSync(`${database}-wal`)).toBe(false);
      expect(started.output()).not.toContain(setup.discord.token);
      expect(started.output()).not.toContain(setup.eventor.apiKey);
    });
  }

  it('Ctrl-C under npm start (the terminal and npm both send SIGINT) is one clean stop', async () => {
    const started = launch(NPM, ['start', '--ignore-scripts'], {
      ...env,
      DATABASE_PATH: path.join(setup.dir, 'ctrl-c.sqlite'),
    });
    await until(() => started.output().includes('"msg":"bot ready"'), '"bot ready"', started.output);
    const pid = botPid(started.output());
    // The terminal's Ctrl-C goes to the whole foreground process group.
    process.kill(-started.child.pid!, 'SIGINT');
    const ended = await within(started.ended, 'stopping', started.output);
    expect(ended, started.output()).toEqual({ code: 0, signal: null });
    expect(started.output()).toContain('"msg":"bot stopped"');
    expect(started.output()).not.toContain('exiting without waiting');
    expect(alive(pid)).toBe(false);
  });

  /** `node bin/eventor-bot.js start` with an /events answer held up `ms` by Eventor, once the request is on its way. */
  async function stuckStop(name: string, ms: number): Promise<{ started: Started; pid: number }> {
    const started = launch(process.execPath, [PROGRAM, 'start'], {
      ...env,
      DATABASE_PATH: path.join(setup.dir, `${name}.sqlite`),
    });
    await until(() => started.output().includes('"msg":"bot ready"'), '"bot ready"', started.output);
    const pid = botPid(started.output());
    setup.eventor.faults.add({ path: '/api/events', kind: 'latency', ms });
    const before = setup.eventor.requests.count('/api/events');
    const member = setup.discord.createMember(guildId, { username: `stuck${Date.now()}`, locale: 'en-US' });
    // Never answered: the process ends first.
    setup.discord.runCommand({ guildId, channelId, user: member, name: 'events', options: { days: 7 } });
    await until(() => setup.eventor.requests.count('/api/events') > before, 'events request', started.output);
    started.child.kill('SIGTERM');
    await until(() => started.output().includes('"msg":"bot stopping"'), '"bot stopping"', started.output);
    return { started, pid };
  }

  it('a second signal during a stop that waits exits at once and says so', async () => {
    const { started, pid } = await stuckStop('second-signal', 15_000);
    // Past the moment in which a signal counts as the same one (Ctrl-C under npm arrives twice).
    await new Promise((r) => setTimeout(r, 1_500));
    started.child.kill('SIGINT');
    const { code } = await within(started.ended, 'the forced exit', started.output);
    expect(code).toBe(1);
    expect(started.output()).toContain('second stop signal (SIGINT): exiting without waiting');
    expect(started.output()).not.toContain('"msg":"bot stopped"');
    expect(alive(pid)).toBe(false);
  });

  it(`a stop that would take longer than ${STOP_DEADLINE_MS / 1000} s ends then, saying so`, async () => {
    const { started, pid } = await stuckStop('deadline', 15_000);
    const { code } = await within(started.ended, 'the stop deadline', started.output);
    expect(code).toBe(1);
    expect(started.output()).toContain(`the stop took longer than ${STOP_DEADLINE_MS / 1000} s`);
    expect(alive(pid)).toBe(false);
  });

  it('an interaction in flight gets its answer before the process exits', async () => {
    const started = launch(NPM, ['start', '--ignore-scripts'], {
      ...env,
      DATABASE_PATH: path.join(setup.dir, 'in-flight.sqlite'),
    });
    await until(() => started.output().includes('"msg":"bot ready"'), '"bot ready"', started.output);
    const pid = botPid(started.output());
    // Eventor is slow to give the events: the answer is still on its way when the signal comes.
    setup.eventor.faults.add({ path: '/api/events', kind: 'latency', ms: 2_000 });
    const before = setup.eventor.requests.count('/api/events');
    const member = setup.discord.createMember(guildId, { username: `runner${Date.now()}`, locale: 'en-US' });
    const answer = setup.discord
      .runCommand({ guildId, channelId, user: member, name: 'events', options: { days: 7 } })
      .answer({ timeoutMs: WAIT_MS });
    await until(() => setup.eventor.requests.count('/api/events') > before, 'events request', started.output);
    started.child.kill('SIGTERM');
    const reply = await answer;
    const { code } = await within(started.ended, 'stopping', started.output);
    expect(code).toBe(0);
    // The events of the week, not an error.
    expect(renderMessageText(reply)).not.toMatch(/not answering|went wrong|try again/i);
    expect(started.output().indexOf('"msg":"bot stopping"')).toBeGreaterThan(0);
    expect(started.output()).toContain('"msg":"bot stopped"');
    expect(alive(pid)).toBe(false);
  });
});
