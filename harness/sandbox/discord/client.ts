import { Client, type ClientOptions, Events, GatewayIntentBits } from 'discord.js';
import type { SandboxDiscord } from './server.js';

export interface SandboxClientOptions extends Partial<ClientOptions> {
  /** Bound on login + READY (default 10 000 ms). */
  timeoutMs?: number;
}

/**
 * A real discord.js Client pointed at the sandbox and logged in (READY and every GUILD_CREATE
 * received). Intents default to Guilds only. Always `await client.destroy()` before
 * `sandbox.close()`, or the client keeps reconnecting (docs/discord.md#stopping-a-client).
 */
export async function loginSandboxClient(sandbox: SandboxDiscord, options: SandboxClientOptions = {}): Promise<Client> {
  const { timeoutMs = 10_000, rest, ...clientOptions } = options;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    ...clientOptions,
    rest: { ...rest, api: sandbox.restUrl },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve())).then(() => undefined),
      client.login(sandbox.token).then(() => new Promise<never>(() => undefined)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`sandbox: client not ready after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    await client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}
