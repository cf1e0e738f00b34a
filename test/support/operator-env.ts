import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SandboxDiscord, startSandboxDiscord } from '../../src/sandbox/discord/index.js';
import { type SandboxEventor, startSandboxEventor } from '../../src/sandbox/eventor/server.js';

/** Both sandboxes on loopback, a temp folder, and the environment an operator's `.env` would give the bot. */
export interface OperatorSetup {
  eventor: SandboxEventor;
  discord: SandboxDiscord;
  dir: string;
  env: NodeJS.ProcessEnv;
  secretKey: string;
  close(): Promise<void>;
}

export async function startOperatorSetup(name: string, databaseFile = 'bot.sqlite'): Promise<OperatorSetup> {
  const eventor = await startSandboxEventor({ port: 0 });
  const discord = await startSandboxDiscord({ port: 0 });
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
