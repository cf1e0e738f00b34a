import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProgram } from '../support/cli-process.js';

/** `eventor-bot <args>` as its own process, as a new user runs it (in the test's folder unless told). */
const run = (args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) =>
  runProgram(args, { ...options, cwd: options.cwd ?? dir });

function expectOneLine(stderr: string): void {
  expect(stderr).not.toContain('    at ');
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
}

let dir: string;

describe('every top-level failure is one clear line, no stack trace', () => {
  let notFound: Server;
  let notFoundUrl: string;
  let base: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'eventor-bot-one-line-'));
    notFound = createServer((_, response) => {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message": "404: Not Found", "code": 0}');
    });
    await new Promise<void>((resolve) => notFound.listen(0, '127.0.0.1', resolve));
    notFoundUrl = `http://127.0.0.1:${(notFound.address() as { port: number }).port}`;
    base = {
      DISCORD_TOKEN: 'some.token',
      SECRET_KEY: 'one-line-test-secret-0123456789',
      DATABASE_PATH: path.join(dir, 'bot.sqlite'),
      LOG_LEVEL: 'warn',
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => notFound?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('start with Discord unreachable', async () => {
    const { code, stderr } = await run(['start'], { env: { ...base, DISCORD_API_URL: 'http://127.0.0.1:1/api' } });
    expect(code).toBe(1);
    expectOneLine(stderr);
    expect(stderr).toContain('cannot reach Discord at http://127.0.0.1:1/api');
  });

  it('tick against an address that answers 404 (no /api): says so, with the hint, exit 2', async () => {
    const { code, stderr } = await run(['tick'], { env: { ...base, DISCORD_API_URL: notFoundUrl } });
    // Exit 2: the address is wrong, and a restart would meet the same 404 (docs/operators.md#exit-codes).
    expect(code).toBe(2);
    expectOneLine(stderr);
    expect(stderr).toContain('answered 404');
    expect(stderr).toContain('/api');
  });

  it('sandbox --port N when the port is taken', async () => {
    const taken = createTcpServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const { code, stderr } = await run(['sandbox', '--port', String(port)]);
      expect(code).toBe(1);
      expectOneLine(stderr);
      expect(stderr).toContain(`port ${port} is already in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a .env that is a folder', async () => {
    const cwd = path.join(dir, 'folder-env');
    mkdirSync(path.join(cwd, '.env'), { recursive: true });
    const { code, stderr } = await run(['start'], { cwd, env: base });
    expect(code).toBe(2);
    expectOneLine(stderr);
    expect(stderr).toContain('.env: it is a folder, not a file');
  });

  it('LOG_LEVEL=debug adds the trace', async () => {
    const { code, stderr } = await run(['start'], {
      env: { ...base, LOG_LEVEL: 'debug', DISCORD_API_URL: 'http://127.0.0.1:1/api' },
    });
    expect(code).toBe(1);
    expect(stderr).toContain('cannot reach Discord');
    expect(stderr).toContain('    at ');
  });
});
