import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProgram, startProgram } from '../support/bot-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

/**
 * SIGTERM while `start` is still starting, in each phase that can wait on something outside the
 * process: the database server, Discord's REST API (GET /gateway/bot), Discord's gateway. Each
 * phase is held open for as long as the test wants (a server that accepts and never answers, a
 * delayed route of the sandbox Discord), the signal is sent once the bot's debug line says it is
 * there, and the process ends by itself, cleanly, without waiting for what it was waiting on.
 */

/** A TCP server that accepts connections and never says a word: whatever waits on it waits. */
async function silentServer(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

/** The bot's exit after SIGTERM: its code, or the signal that ended it; bounded. */
async function stoppedAt(bot: RunningProgram, line: string): Promise<{ code: number | null; stderr: string }> {
  expect(await bot.waitFor(line, 30_000), `the bot to reach "${line}"`).toBe(true);
  bot.child.kill('SIGTERM');
  // Well within Docker's and systemd's grace (10 s and 15 s): nothing it waited on is waited for.
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(-1), 8_000);
    bot.child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, stderr: bot.stderr() };
}

describe('SIGTERM while the bot is starting: it stops there, exit 0', () => {
  let setup: OperatorSetup;
  const closers: Array<() => Promise<void> | void> = [];
  const bots: RunningProgram[] = [];
  beforeAll(async () => {
    setup = await startOperatorSetup('stop-starting');
  });
  afterAll(async () => {
    for (const bot of bots) await bot.stop(5_000);
    for (const close of closers) await close();
    await setup?.close();
  });

  const expectStoppedWhileStarting = ({ code, stderr }: { code: number | null; stderr: string }): void => {
    expect(code).toBe(0);
    expect(stderr).toContain('"msg":"stopped while starting: nothing was left half-done"');
    expect(stderr).not.toContain('"msg":"bot ready"');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).not.toContain(setup.env.DISCORD_TOKEN!);
  };

  it('opening the database (a PostgreSQL server that never answers)', async () => {
    const silent = await silentServer();
    closers.push(() => {
      for (const socket of silent.sockets) socket.destroy();
      silent.server.close();
    });
    const bot = startProgram(['start'], {
      env: { ...setup.env, LOG_LEVEL: 'debug', DATABASE_URL: `postgres://bot@127.0.0.1:${silent.port}/eventor` },
    });
    bots.push(bot);
    expectStoppedWhileStarting(await stoppedAt(bot, '"msg":"opening the database"'));
  });

  it("logging in (Discord's GET /gateway/bot held back)", async () => {
    setup.discord.faults.delay({ route: 'GET /gateway/bot', ms: 60_000, times: 1 });
    closers.push(() => setup.discord.faults.clear());
    const bot = startProgram(['start'], {
      env: { ...setup.env, LOG_LEVEL: 'debug', DATABASE_PATH: path.join(setup.dir, 'login.sqlite') },
    });
    bots.push(bot);
    expectStoppedWhileStarting(await stoppedAt(bot, '"msg":"logging in to Discord"'));
    setup.discord.faults.clear();
  });

  it("connecting to Discord's gateway (a gateway that accepts and never says hello)", async () => {
    const silent = await silentServer();
    // Discord's REST, as far as the login asks it: where the gateway is (a gateway that is silent).
    const rest: HttpServer = createHttpServer((request, response) => {
      if (request.url?.endsWith('/gateway/bot')) {
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            url: `ws://127.0.0.1:${silent.port}`,
            shards: 1,
            session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
          }),
        );
        return;
      }
      response.statusCode = 404;
      response.end('{"message":"404: Not Found","code":0}');
    });
    await new Promise<void>((resolve) => rest.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      for (const socket of silent.sockets) socket.destroy();
      silent.server.close();
      rest.closeAllConnections();
      rest.close();
    });
    const bot = startProgram(['start'], {
      env: {
        ...setup.env,
        LOG_LEVEL: 'debug',
        DATABASE_PATH: path.join(setup.dir, 'gateway.sqlite'),
        DISCORD_API_URL: `http://127.0.0.1:${(rest.address() as { port: number }).port}/api`,
      },
    });
    bots.push(bot);
    // The gateway's socket is open and nothing comes: the bot is somewhere in Discord's login.
    expect(await bot.waitFor('"msg":"logging in to Discord"', 30_000)).toBe(true);
    for (let i = 0; i < 200 && silent.sockets.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(silent.sockets.length).toBeGreaterThan(0);
    expectStoppedWhileStarting(await stoppedAt(bot, '"msg":"logging in to Discord"'));
  });
});
