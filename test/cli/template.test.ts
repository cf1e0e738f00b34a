import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxDiscord, startSandboxDiscord } from '../../harness/sandbox/discord/index.js';

const PROGRAM = path.resolve('bin/eventor-bot.js');

describe('.env.example starts as written', () => {
  let discord: SandboxDiscord;
  let dir: string;

  beforeAll(async () => {
    discord = await startSandboxDiscord({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'eventor-bot-template-'));
  });
  afterAll(async () => {
    await discord?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cp .env.example .env, fill in only the token and SECRET_KEY (and the sandbox Discord): start reaches ready and stops cleanly', async () => {
    const template = readFileSync('.env.example', 'utf8');
    const filled = template
      .replace(/^DISCORD_TOKEN=$/m, `DISCORD_TOKEN=${discord.token}`)
      .replace(/^SECRET_KEY=$/m, 'SECRET_KEY=template-test-secret-0123456789')
      .replace(/^#DISCORD_API_URL=.*$/m, `DISCORD_API_URL=${discord.restUrl}`);
    // Exactly the two blanks and the address were filled: the rest is the template as shipped.
    expect(filled).not.toBe(template);
    expect(filled).toContain(`DISCORD_TOKEN=${discord.token}`);
    expect(filled).toContain(`DISCORD_API_URL=${discord.restUrl}`);
    writeFileSync(path.join(dir, '.env'), filled);

    const child = spawn(process.execPath, [PROGRAM, 'start'], {
      cwd: dir,
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 60_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('"msg":"bot ready"')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const reachedReady = await ready;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    expect(stderr).not.toContain('Configuration problem');
    // Every variable the template names is one the bot knows.
    expect(stderr).not.toContain('unknown variables');
    expect(reachedReady).toBe(true);
    expect(code).toBe(0);
    expect(stderr).toContain('"msg":"bot stopped"');
  });
});
