import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Io, main } from '../../src/cli/main.js';
import type { SandboxDiscord } from '../../harness/sandbox/discord/index.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';
import { resultsLedgerRow, serverWithResultsFeed, withDatabase } from '../support/results-feed.js';
import { recentClubResultsEvent } from '../support/sandbox-events.js';

function capture(env: NodeJS.ProcessEnv): Io & { stderr: () => string } {
  let err = '';
  return {
    out: () => undefined,
    err: (t) => {
      err += t;
    },
    env,
    stderr: () => err,
  };
}

const PROGRAM = path.resolve('bin/eventor-bot.js');

/** The one summary line a tick logs, as its fields. */
function tickSummary(stderr: string): Record<string, unknown> {
  const lines = stderr.split('\n').filter((l) => l.includes('"msg":"tick done"'));
  expect(lines).toHaveLength(1);
  const { feedsRun, servers, posts, edits, failed } = JSON.parse(lines[0]!) as Record<string, unknown>;
  return { feedsRun, servers, posts, edits, failed };
}

interface Child {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
  stderr(): string;
}

/** `eventor-bot tick` as its own process, as an operator's cron would run it. */
function tickProcess(env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, [PROGRAM, 'tick'], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { exited, kill: () => child.kill('SIGKILL'), stderr: () => err };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('eventor-bot tick: every turned-on automatic post once, now', () => {
  let setup: OperatorSetup;
  let eventor: SandboxEventor;
  let discord: SandboxDiscord;
  let env: NodeJS.ProcessEnv;
  let SECRET: string;

  beforeAll(async () => {
    setup = await startOperatorSetup('tick');
    ({ eventor, discord, env, secretKey: SECRET } = setup);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('seeds on the first tick, posts new results on the next, and never twice', async () => {
    const { guild, channel } = await serverWithResultsFeed(discord, env.DATABASE_PATH!, SECRET, 'Tick club');
    env.EVENTOR_DEFAULT_GUILDS = guild.id;
    const event = recentClubResultsEvent(eventor, eventor.now().getTime());

    const first = capture(env);
    expect(await main(['tick'], first)).toBe(0);
    expect(discord.messages(channel)).toHaveLength(0);
    // The first run records what is out already and posts nothing.
    expect(tickSummary(first.stderr())).toEqual({ feedsRun: 1, servers: 1, posts: 0, edits: 0, failed: 0 });

    event.hasResults = true;
    event.materialized = null;
    const second = capture(env);
    expect(await main(['tick'], second)).toBe(0);
    const messages = discord.messages(channel);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]!.title).toContain(event.name);
    expect(tickSummary(second.stderr())).toEqual({ feedsRun: 1, servers: 1, posts: 1, edits: 0, failed: 0 });

    const third = capture(env);
    expect(await main(['tick'], third)).toBe(0);
    expect(discord.messages(channel)).toHaveLength(1);
    expect(tickSummary(third.stderr())).toEqual({ feedsRun: 1, servers: 1, posts: 0, edits: 0, failed: 0 });
    expect(second.stderr()).toContain('"msg":"bot stopped"');
    expect(second.stderr()).not.toContain(eventor.apiKey);
    expect(second.stderr()).not.toContain(discord.token);
  });

  it('refuses arguments it does not know', async () => {
    const io = capture(env);
    expect(await main(['tick', '--now'], io)).toBe(2);
  });

  it('a process SIGKILLed between Discord creating its post and recording it: the restarted one finds the post by its marker, nothing twice, nothing lost', async () => {
    const { guild, channel } = await serverWithResultsFeed(discord, env.DATABASE_PATH!, SECRET, 'Killed mid-post');
    env.EVENTOR_DEFAULT_GUILDS = guild.id;
    const event = recentClubResultsEvent(eventor, eventor.now().getTime());
    expect((await within(tickProcess(env).exited, 30_000, 'the seeding tick')).code).toBe(0);
    expect(discord.messages(channel)).toHaveLength(0);

    // The results appear; Discord creates the post at once but holds its answer back, and the
    // process is killed while it waits: the message exists, the ledger never heard of it.
    event.hasResults = true;
    event.materialized = null;
    discord.faults.slowAnswer({ route: 'POST /channels/:channelId/messages', ms: 60_000, times: 1 });
    const doomed = tickProcess(env);
    for (let i = 0; i < 300 && discord.messages(channel).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(discord.messages(channel)).toHaveLength(1);
    doomed.kill();
    expect((await within(doomed.exited, 10_000, 'the killed process')).signal).toBe('SIGKILL');

    expect(
      await withDatabase(env.DATABASE_PATH!, SECRET, (between) => resultsLedgerRow(between, guild.id, event.id)),
    ).toMatchObject({ state: 'posting', messageId: null });

    const restarted = tickProcess(env);
    expect((await within(restarted.exited, 30_000, 'the restarted tick')).code).toBe(0);
    const messages = discord.messages(channel);
    expect(messages).toHaveLength(1);
    expect(
      await withDatabase(env.DATABASE_PATH!, SECRET, (after) => resultsLedgerRow(after, guild.id, event.id)),
    ).toMatchObject({
      state: 'posted',
      messageId: messages[0]!.id,
    });
    expect(restarted.stderr()).not.toContain(eventor.apiKey);
    expect(restarted.stderr()).not.toContain(discord.token);
  });
});
