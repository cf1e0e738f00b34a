import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/args.js';
import { type Io, main } from '../../src/cli/main.js';
import { runSandbox } from '../../harness/cli/sandbox.js';
import { runStart } from '../../src/cli/start.js';
import { printedVariables } from '../support/cli-process.js';

describe('eventor-bot sandbox --discord: try start without a Discord account', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-sandbox-discord-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prints the variables; start with them (and a SECRET_KEY) reaches ready and serves the printed server', async () => {
    let out = '';
    let stopSandbox!: () => void;
    const sandboxStopped = new Promise<void>((resolve) => {
      stopSandbox = resolve;
    });
    const sandbox = runSandbox(
      parseFlags(['--discord']),
      {
        out: (t) => {
          out += t;
        },
        err: () => undefined,
      },
      sandboxStopped,
    );
    for (let i = 0; i < 200 && !out.includes('EVENTOR_DEFAULT_GUILDS='); i++)
      await new Promise((r) => setTimeout(r, 25));
    const variables = printedVariables(out);
    expect(Object.keys(variables).sort()).toEqual([
      'DISCORD_API_URL',
      'DISCORD_TOKEN',
      'EVENTOR_API_KEY',
      'EVENTOR_BASE_URL',
      'EVENTOR_DEFAULT_GUILDS',
    ]);
    expect(out).toMatch(/channel #general \d+/);

    let err = '';
    let stopBot!: () => void;
    const botStopped = new Promise<void>((resolve) => {
      stopBot = resolve;
    });
    const io: Io = {
      out: () => undefined,
      err: (t) => {
        err += t;
      },
      env: {
        ...variables,
        SECRET_KEY: 'sandbox-discord-secret-0123456789',
        DATABASE_PATH: path.join(dir, 'bot.sqlite'),
      },
    };
    const running = runStart(parseFlags([]), io, botStopped);
    for (let i = 0; i < 400 && !err.includes('"msg":"default Eventor connection"'); i++)
      await new Promise((r) => setTimeout(r, 25));
    stopBot();
    expect(await running).toBe(0);
    expect(err).toContain('"msg":"bot ready"');
    expect(err).toContain(`"servesGuilds":["${variables.EVENTOR_DEFAULT_GUILDS}"]`);
    stopSandbox();
    expect(await sandbox).toBe(0);
  });

  it('is listed in the usage', async () => {
    let out = '';
    expect(
      await main(['help'], {
        out: (t) => {
          out += t;
        },
        err: () => undefined,
      }),
    ).toBe(0);
    expect(out).toContain('--discord');
  });
});
