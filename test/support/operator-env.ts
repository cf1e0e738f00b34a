import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SandboxDiscord, startSandboxDiscord } from '../../harness/sandbox/discord/index.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { runningTestClock } from './clock.js';

/**
 * Both sandboxes on loopback, a temp folder, and the environment an operator's `.env` would give the
 * bot. The sandboxes run on the test clock (support/clock.ts), and the environment's SANDBOX_CLOCK
 * reads it afresh each time it is read, so a bot process started from `env` at any moment runs on
 * the sandboxes' clock.
 */
export interface OperatorSetup {
  eventor: SandboxEventor;
  discord: SandboxDiscord;
  dir: string;
  env: NodeJS.ProcessEnv;
  secretKey: string;
  close(): Promise<void>;
}

export async function startOperatorSetup(name: string, databaseFile = 'bot.sqlite'): Promise<OperatorSetup> {
  const clock = runningTestClock();
  const eventor = await startSandboxEventor({ port: 0, now: clock.now });
  const discord = await startSandboxDiscord({ port: 0, now: () => clock.now().getTime() });
  const dir = await mkdtemp(path.join(tmpdir(), `eventor-bot-${name}-`));
  const secretKey = `${name}-test-secret-key-0123456789`;
  const env: NodeJS.ProcessEnv = {
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.restUrl,
    EVENTOR_BASE_URL: eventor.baseUrl,
    EVENTOR_API_KEY: eventor.apiKey,
    DATABASE_PATH: path.join(dir, databaseFile),
    SECRET_KEY: secretKey,
    LOG_LEVEL: 'info',
  };
  // A getter, so that a copy made when a process starts (`{ ...env }`) has the sandboxes' time then.
  Object.defineProperty(env, 'SANDBOX_CLOCK', { enumerable: true, get: () => clock.now().toISOString() });
  return {
    eventor,
    discord,
    dir,
    env,
    secretKey,
    async close() {
      await discord.close();
      await eventor.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
