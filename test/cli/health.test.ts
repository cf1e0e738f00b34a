import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProgram, startProgram } from '../support/bot-process.js';
import { runProgram } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';
import { NEEDS_POSTGRES, usePostgres } from '../support/postgres.js';

/**
 * `eventor-bot health` against the real bot, each its own process (docs/operators.md#monitoring):
 * nothing before the start, healthy while it runs, "stopped" after a clean stop; with two
 * processes on one PostgreSQL (as deploy/compose.postgres.yaml runs them), the one that stopped
 * is named, and each process's own check (SHARDS set) judges only itself.
 */

const READY = '"msg":"bot ready"';

async function health(env: NodeJS.ProcessEnv): Promise<{ code: number | null; line: string }> {
  const { code, stdout, stderr } = await runProgram(['health'], { env, timeoutMs: 30_000 });
  const lines = `${stdout}${stderr}`.trim().split('\n');
  // One line, whatever the verdict.
  expect(lines).toHaveLength(1);
  return { code, line: lines[0]! };
}

describe('eventor-bot health', () => {
  let setup: OperatorSetup;
  const running: RunningProgram[] = [];
  beforeAll(async () => {
    setup = await startOperatorSetup('health');
  });
  afterAll(async () => {
    for (const bot of running) await bot.stop();
    await setup?.close();
  });

  it('SQLite, one process: no database yet, healthy once ready, stopped after SIGTERM (exit 1 each time it is not healthy)', async () => {
    const env = { ...setup.env, DATABASE_PATH: path.join(setup.dir, 'one.sqlite') };
    const before = await health(env);
    expect(before).toEqual({
      code: 1,
      line: `unhealthy: there is no database at ${env.DATABASE_PATH}: the bot has not started with this DATABASE_PATH`,
    });

    const bot = startProgram(['start'], { env });
    running.push(bot);
    expect(await bot.waitFor(READY)).toBe(true);
    const up = await health(env);
    expect(up.code).toBe(0);
    expect(up.line).toMatch(/^healthy: the bot, heartbeat \d+ s ago, gateway ready, /);

    // A cron `tick` beside it runs and ends: the running bot's heartbeat is still the one there.
    expect((await runProgram(['tick'], { env })).code).toBe(0);
    expect((await health(env)).code).toBe(0);

    expect(await bot.stop()).toBe(0);
    const down = await health(env);
    expect(down.code).toBe(1);
    expect(down.line).toMatch(
      new RegExp(`^unhealthy: the bot \\(pid ${bot.child.pid} on [^)]+\\): stopped \\d+ s ago$`),
    );
    expect(down.line).not.toContain(setup.env.DISCORD_TOKEN!);
  });

  describe(`PostgreSQL, two processes (shards 0 and 1 of 2) ${NEEDS_POSTGRES}`, () => {
    const server = usePostgres();
    // Registered after the server's own afterAll, so it runs before it (hooks unwind as a stack):
    // a bot still running when its database goes away would spend its stop waiting for it.
    afterAll(async () => {
      for (const bot of running.splice(0)) await bot.stop();
    });

    it('healthy with both; once one stops it is named, and only its own check fails', async () => {
      const admin = new pg.Client({ connectionString: server().url });
      await admin.connect();
      await admin.query('CREATE DATABASE health_two');
      await admin.end();
      const url = new URL(server().url);
      url.pathname = '/health_two';
      const env = { ...setup.env, DATABASE_URL: url.toString(), SHARD_COUNT: '2' };

      const none = await health(env);
      expect(none.code).toBe(1);
      expect(none.line).toContain('no bot process has recorded a heartbeat');

      const bots = ['0', '1'].map((shards) => startProgram(['start'], { env: { ...env, SHARDS: shards } }));
      running.push(...bots);
      for (const bot of bots) expect(await bot.waitFor(READY)).toBe(true);
      const both = await health(env);
      expect(both.code).toBe(0);
      expect(both.line).toMatch(/^healthy: 2 processes, heartbeat \d+ s ago, gateway ready, /);

      expect(await bots[1]!.stop()).toBe(0);
      const one = await health(env);
      expect(one.code).toBe(1);
      expect(one.line).toMatch(
        new RegExp(`^unhealthy: process shards 1 of 2 \\(pid ${bots[1]!.child.pid} on [^)]+\\): stopped \\d+ s ago$`),
      );
      // Each container's own HEALTHCHECK has its SHARDS: the running one is healthy.
      expect((await health({ ...env, SHARDS: '0' })).code).toBe(0);
      const own = await health({ ...env, SHARDS: '1' });
      expect(own.code).toBe(1);
      expect(own.line).toContain('process shards 1 of 2');
      expect(own.line).not.toContain(new URL(server().url).password || 'never-a-password');
    });
  });

  it('a mistake in its own configuration or arguments is still exit 1 and one line (Docker reserves 2)', async () => {
    const bad = await health({ DATABASE_URL: 'mysql://x', PATH: process.env.PATH });
    expect(bad.code).toBe(1);
    expect(bad.line).toMatch(/^unhealthy: Configuration problem: DATABASE_URL must start with postgres:\/\//);
    const { code, stderr } = await runProgram(['health', '--verbose'], { env: {} });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('eventor-bot health: unknown option: --verbose');
  });
});
