import { Client, type ClientOptions, Events, GatewayIntentBits } from 'discord.js';
import type { SandboxDiscord } from './server.js';

export interface SandboxClientOptions extends Partial<ClientOptions> {
  /** Bound on login + READY (default 10 000 ms). */
  timeoutMs?: number;
}

/**
 * discord.js sends files as a `FormData` through its own undici (6), which uses the process's global
 * dispatcher; when the project's undici (7) is loaded first it owns that dispatcher and cannot send
 * the form ("action is not a function"). Node's own fetch turns the form into bytes before it reaches
 * the dispatcher, so the client works whichever undici a test file (or an earlier one) loaded first.
 */
const sendWithGlobalFetch: NonNullable<ClientOptions['rest']>['makeRequest'] = (url, init) =>
  fetch(url, init as RequestInit);

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
    rest: { makeRequest: sendWithGlobalFetch, ...rest, api: sandbox.restUrl },
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
