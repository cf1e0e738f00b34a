import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/args.js';
import { type Io, main } from '../../src/cli/main.js';
import { runSandbox } from '../../harness/cli/sandbox.js';
import { startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { runningTestClock } from '../support/clock.js';
import { SandboxDataset } from '../../harness/sandbox/eventor/dataset.js';

type Sandbox = Awaited<ReturnType<typeof startSandboxEventor>>;

function capture(env?: NodeJS.ProcessEnv): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    ...(env ? { env } : {}),
    stdout: () => out,
    stderr: () => err,
  };
}

describe('eventor-bot command line', () => {
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandboxEventor({ port: 0, seed: 7, now: runningTestClock().now });
    env = { EVENTOR_BASE_URL: sandbox.baseUrl, EVENTOR_API_KEY: sandbox.apiKey };
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-cli-'));
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('parses flags with values, = values and bare booleans', () => {
    const parsed = parseFlags(['events', '--fromDate', '2026-05-01', '--includeEntryBreaks', '--top=3']);
    expect(parsed.positionals).toEqual(['events']);
    expect(Object.fromEntries(parsed.flags)).toEqual({ fromDate: '2026-05-01', includeEntryBreaks: true, top: '3' });
  });

  it('prints usage for help and rejects unknown commands with exit 2', async () => {
    const io = capture();
    expect(await main(['help'], io)).toBe(0);
    expect(io.stdout()).toContain('eventor-bot <command>');
    const bad = capture();
    expect(await main(['frobnicate'], bad)).toBe(2);
    expect(bad.stderr()).toContain("unknown command 'frobnicate'");
  });

  it('queries the organisation of the key and prints JSON', async () => {
    const io = capture(env);
    expect(await main(['query', 'organisation-apikey'], io)).toBe(0);
    const org = JSON.parse(io.stdout()) as { id: string; name: string };
    expect(org.id).toBe(sandbox.dataset.homeClub.id);
    expect(org.name).toBe(sandbox.dataset.homeClub.name);
  });

  it('passes parameters by their API names, case-insensitively', async () => {
    const io = capture(env);
    const code = await main(
      ['query', 'events', '--fromDate', '2000-01-01', '--todate', '2100-01-01', '--includeEntryBreaks'],
      io,
    );
    expect(io.stderr()).toBe('');
    expect(code).toBe(0);
    const events = JSON.parse(io.stdout()) as Array<{ id: string; entryBreaks: unknown[] }>;
    expect(events.length).toBeGreaterThan(5);
    expect(events.some((e) => e.entryBreaks.length > 0)).toBe(true);
  });

  it('exits 2 with a clear message for a bad parameter, and sends nothing', async () => {
    const before = sandbox.requests.length;
    const io = capture(env);
    expect(await main(['query', 'events', '--fromDate', 'yesterday-ish'], io)).toBe(2);
    expect(io.stderr()).toMatch(/fromDate/);
    const missing = capture(env);
    expect(await main(['query', 'event'], missing)).toBe(2);
    expect(missing.stderr()).toMatch(/eventId/);
    const unknown = capture(env);
    expect(await main(['query', 'events', '--colour', 'red'], unknown)).toBe(2);
    expect(unknown.stderr()).toContain('--colour');
    expect(sandbox.requests.length).toBe(before);
  });

  it('exits 1 with the typed error when Eventor refuses, without echoing the key', async () => {
    const io = capture({ EVENTOR_BASE_URL: sandbox.baseUrl, EVENTOR_API_KEY: 'not-a-real-key-0123456789abcdef' });
    expect(await main(['query', 'organisation-apikey'], io)).toBe(1);
    expect(io.stderr()).toContain('InvalidApiKey');
    expect(io.stderr()).not.toContain('not-a-real-key');
  });

  it('exits 2 naming each missing configuration variable', async () => {
    const io = capture({});
    expect(await main(['query', 'events'], io)).toBe(2);
    expect(io.stderr()).toContain('EVENTOR_API_KEY');
    expect(io.stderr()).toContain('EVENTOR_INSTANCE');
  });

  it('parses a native file and an IOF XML 3.0 file written by the sandbox', async () => {
    const nativeFile = path.join(dir, 'results.xml');
    const event = sandbox.dataset.events.find((e) => sandbox.dataset.hasResults(e.id));
    expect(event).toBeDefined();
    const res = await fetch(`${sandbox.baseUrl}/results/event?eventId=${event!.id}`, {
      headers: { ApiKey: sandbox.apiKey, TimeZone: 'UTC' },
    });
    await writeFile(nativeFile, Buffer.from(await res.arrayBuffer()));
    const io = capture();
    expect(await main(['parse', nativeFile, '--time-zone', 'UTC'], io)).toBe(0);
    const parsed = JSON.parse(io.stdout()) as { format: string; root: string; data: { classes: unknown[] } };
    expect(parsed.format).toBe('eventor-native');
    expect(parsed.root).toBe('ResultList');
    expect(parsed.data.classes.length).toBeGreaterThan(0);

    const iofFile = path.join(dir, 'results-iof.xml');
    const iof = await fetch(`${sandbox.baseUrl}/results/event/iofxml?eventId=${event!.id}`, {
      headers: { ApiKey: sandbox.apiKey },
    });
    await writeFile(iofFile, Buffer.from(await iof.arrayBuffer()));
    const io2 = capture();
    expect(await main(['parse', iofFile], io2)).toBe(0);
    expect((JSON.parse(io2.stdout()) as { format: string }).format).toBe('iof-xml-3.0');
  });

  it('reports unreadable and non-Eventor files with exit 1', async () => {
    const io = capture();
    expect(await main(['parse', path.join(dir, 'nope.xml')], io)).toBe(1);
    expect(io.stderr()).toContain('no such file');
    const html = path.join(dir, 'page.html');
    await writeFile(html, '<html><body>Maintenance</body></html>');
    const io2 = capture();
    expect(await main(['parse', html], io2)).toBe(1);
    expect(io2.stderr()).toContain('cannot be read');
  });

  it('sandbox prints EVENTOR_BASE_URL and EVENTOR_API_KEY, serves, and stops', async () => {
    const io = capture();
    let stop!: () => void;
    const until = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const running = runSandbox(parseFlags(['--seed', '3']), io, until);
    const deadline = Date.now() + 10_000;
    while (!io.stdout().includes('EVENTOR_API_KEY=') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const lines = Object.fromEntries(
      io
        .stdout()
        .trim()
        .split('\n')
        .map((l) => l.split('=', 2) as [string, string]),
    );
    expect(lines.EVENTOR_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const res = await fetch(`${lines.EVENTOR_BASE_URL}/organisation/apiKey`, {
      headers: { ApiKey: lines.EVENTOR_API_KEY! },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    stop();
    expect(await running).toBe(0);
  });

  it('sandbox --now makes the same races whatever the day, and prints SANDBOX_CLOCK for the bot', async () => {
    const at = new Date('2027-03-28T02:00:00Z');
    const io = capture();
    let stop!: () => void;
    const until = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const running = runSandbox(parseFlags(['--seed', '3', '--now', at.toISOString()]), io, until);
    for (let i = 0; i < 500 && !io.stdout().includes('SANDBOX_CLOCK='); i++)
      await new Promise((r) => setTimeout(r, 20));
    const lines = Object.fromEntries(
      io
        .stdout()
        .trim()
        .split('\n')
        .map((l) => l.split('=', 2) as [string, string]),
    );
    expect(lines.SANDBOX_CLOCK).toBe(at.toISOString());
    try {
      const res = await fetch(`${lines.EVENTOR_BASE_URL}/events?fromDate=2027-01-01&toDate=2027-12-31`, {
        headers: { ApiKey: lines.EVENTOR_API_KEY! },
      });
      const served = [...(await res.text()).matchAll(/<EventId>(\d+)<\/EventId>/g)].map((m) => m[1]);
      // The same seed made around the same instant: the same events, whatever day this runs.
      const expected = new SandboxDataset({ seed: 3, now: at }).events.map((ev) => ev.id);
      expect(served.length).toBeGreaterThan(10);
      expect(served.every((id) => expected.includes(id!))).toBe(true);
    } finally {
      stop();
    }
    expect(await running).toBe(0);
  });

  it('sandbox --now refuses what is not an instant with its zone, starting nothing', async () => {
    for (const bad of ['2026-11-18', 'yesterday']) {
      const io = capture();
      expect(await main(['sandbox', '--now', bad], io, { sandbox: runSandbox })).toBe(2);
      expect(io.stderr()).toContain('--now must be an instant with its zone');
      expect(io.stdout()).toBe('');
    }
  });

  it('the package bin runs as a program', async () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/eventor-bot.js');
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'help'], { timeout: 20_000 });
    expect(stdout).toContain('Usage: eventor-bot');
  });
});
