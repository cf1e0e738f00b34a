import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/args.js';
import { runStart } from '../../src/cli/start.js';
import { capture } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

/** A loopback port nothing listens on (a closed port refuses at once). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('start checks the default Eventor key after "bot ready", in one line, and keeps running', () => {
  let setup: OperatorSetup;

  beforeAll(async () => {
    setup = await startOperatorSetup('eventor-check');
  });
  afterAll(async () => {
    await setup?.close();
  });

  /** Runs `start` until a log line has `text` (20 s at most), then stops it; the lines it logged. */
  async function startUntil(env: NodeJS.ProcessEnv, text: string): Promise<{ code: number; lines: string[] }> {
    const io = capture(env);
    let stop!: () => void;
    const running = runStart(
      parseFlags([]),
      io,
      new Promise<void>((resolve) => {
        stop = resolve;
      }),
    );
    const deadline = Date.now() + 20_000;
    for (let i = 0; i < 800 && !io.stderr().includes(text) && Date.now() < deadline; i++)
      await new Promise((r) => setTimeout(r, 25));
    // Still running after the line: not stopped by it.
    let settled = false;
    void running.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    stop();
    const code = await running;
    return { code, lines: io.stderr().split('\n').filter(Boolean) };
  }

  const indexOf = (lines: string[], text: string): number => lines.findIndex((l) => l.includes(text));

  it('a key Eventor refuses: one warning after ready, never the key', async () => {
    const wrongKey = 'wrong-key-0123456789abcdef';
    const { code, lines } = await startUntil(
      { ...setup.env, EVENTOR_API_KEY: wrongKey, DATABASE_PATH: path.join(setup.dir, 'refused.sqlite') },
      'Eventor refused the default key',
    );
    expect(code).toBe(0);
    const warnings = lines.filter((l) => l.includes('Eventor refused the default key'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', eventor: setup.eventor.baseUrl });
    expect(indexOf(lines, '"msg":"bot ready"')).toBeGreaterThanOrEqual(0);
    expect(indexOf(lines, 'Eventor refused')).toBeGreaterThan(indexOf(lines, '"msg":"bot ready"'));
    expect(indexOf(lines, '"msg":"bot stopped"')).toBeGreaterThan(indexOf(lines, 'Eventor refused'));
    expect(lines.join('\n')).not.toContain(wrongKey);
    expect(lines.join('\n')).not.toContain(setup.discord.token);
  });

  it('an Eventor that cannot be reached: one warning after ready', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/api`;
    const { code, lines } = await startUntil(
      { ...setup.env, EVENTOR_BASE_URL: baseUrl, DATABASE_PATH: path.join(setup.dir, 'unreachable.sqlite') },
      'cannot reach the default Eventor',
    );
    expect(code).toBe(0);
    const warnings = lines.filter((l) => l.includes('cannot reach the default Eventor'));
    expect(warnings).toHaveLength(1);
    const warning = JSON.parse(warnings[0]!) as Record<string, unknown>;
    expect(warning).toMatchObject({ level: 'warn', eventor: baseUrl });
    expect(String(warning.reason)).toContain('could not be reached');
    expect(warning).not.toHaveProperty('stack');
    expect(indexOf(lines, 'cannot reach')).toBeGreaterThan(indexOf(lines, '"msg":"bot ready"'));
    expect(lines.join('\n')).not.toContain(setup.eventor.apiKey);
  });

  it('a key that works: one line naming the club, no warning', async () => {
    const { code, lines } = await startUntil(
      { ...setup.env, DATABASE_PATH: path.join(setup.dir, 'works.sqlite') },
      'default Eventor key accepted',
    );
    expect(code).toBe(0);
    const accepted = lines.filter((l) => l.includes('default Eventor key accepted'));
    expect(accepted).toHaveLength(1);
    expect(JSON.parse(accepted[0]!)).toMatchObject({ organisation: setup.eventor.dataset.homeClub.name });
    expect(lines.some((l) => l.includes('refused') || l.includes('cannot reach'))).toBe(false);
  });
});
