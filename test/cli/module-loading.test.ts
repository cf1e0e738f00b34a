/**
 * What the command line loads: each command loads only what its path needs, since every module
 * loaded is start-up time (the targets: `query` within 1.5× a bare node that loads undici and zod,
 * `start` to READY within 1.5 s; the figures are in `npm run bench`, docs/benchmarks.md). The real program runs as
 * its own process with a module loader hook that writes down every module it loads.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { PROGRAM } from '../support/cli-process.js';
import { runningTestClock } from '../support/clock.js';

/** Runs in the loader's own thread: appends each module's URL to the file named in the environment. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, nextLoad) {
  if (!url.startsWith('node:')) appendFileSync(process.env.MODULE_LOG, url + '\\n');
  return nextLoad(url, context);
}
`;

let dir: string;
let eventor: SandboxEventor;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-modules-'));
  await writeFile(path.join(dir, 'hooks.mjs'), HOOKS);
  await writeFile(
    path.join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});\n`,
  );
  eventor = await startSandboxEventor({ now: runningTestClock().now });
});

afterAll(async () => {
  await eventor?.close();
  await rm(dir, { recursive: true, force: true });
});

/** `eventor-bot <args>` under the hook; its exit code, standard output and the URLs of the modules it loaded. */
async function modulesLoadedBy(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; modules: string[] }> {
  const log = path.join(dir, `modules-${args[0]}.log`);
  await writeFile(log, '');
  const child = spawn(process.execPath, ['--import', path.join(dir, 'register.mjs'), PROGRAM, ...args], {
    cwd: dir, // no .env here
    env: { PATH: process.env.PATH, MODULE_LOG: log, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`eventor-bot ${args.join(' ')} took more than 60 s: ${stderr}`));
    }, 60_000);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (code !== 0) throw new Error(`eventor-bot ${args.join(' ')} exited with ${code}: ${stderr}`);
  const modules = (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
  return { code, stdout, modules };
}

describe('eventor-bot query', () => {
  it('loads the Eventor client and nothing of Discord, the bot, the feeds, rendering, the store or the sandboxes', async () => {
    const { stdout, modules } = await modulesLoadedBy(['query', 'organisation-apikey'], {
      EVENTOR_BASE_URL: eventor.baseUrl,
      EVENTOR_API_KEY: eventor.apiKey,
    });
    expect(JSON.parse(stdout)).toMatchObject({ id: eventor.dataset.homeClub.id });
    // The hook saw the modules the query needs, so an empty list below means something.
    expect(modules.some((url) => url.endsWith('/src/eventor/client.js'))).toBe(true);
    expect(modules.some((url) => url.includes('/node_modules/undici/'))).toBe(true);

    const unwanted = modules.filter(
      (url) =>
        /\/node_modules\/(discord\.js|@discordjs|better-sqlite3|node-cron|ws)\//.test(url) ||
        /\/dist\/(commands|src\/(bot|app|feeds|render|store|sandbox|i18n|demo|bench))\//.test(url),
    );
    expect(unwanted).toEqual([]);
  });

  it('loads exactly the modules the query path needs: one parser, no IOF reader, no parse worker', async () => {
    const { stdout, modules } = await modulesLoadedBy(['query', 'organisation-apikey'], {
      EVENTOR_BASE_URL: eventor.baseUrl,
      EVENTOR_API_KEY: eventor.apiKey,
    });
    expect(JSON.parse(stdout)).toMatchObject({ id: eventor.dataset.homeClub.id });
    // Every module of ours it loads, by path below dist/src: a module added to this path shows up
    // here, to be let in on purpose (every one is start-up time for every query).
    const ours = modules
      .map((url) => /\/dist\/src\/(.+)\.js$/.exec(url)?.[1])
      .filter((name) => name !== undefined)
      .sort();
    expect(ours).toEqual([
      'cli/args',
      'cli/environment',
      'cli/io',
      'cli/main',
      'cli/query',
      'config/env',
      'config/errors',
      'config/variables',
      'eventor/client',
      'eventor/errors',
      'eventor/http',
      'eventor/instances',
      'eventor/model',
      'eventor/native/common',
      'eventor/native/competitor-xml',
      'eventor/native/people',
      'eventor/native/validate',
      'eventor/operations',
      'eventor/response-cache',
      'eventor/time',
      'eventor/xml',
      // The live results' addresses (constants only), which the configuration checks.
      'live/endpoints',
      'time/zones',
    ]);
    // Of the packages: the client's own, date-fns and @date-fns/tz one function at a time.
    const packages = new Set(modules.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
    expect([...packages].sort()).toEqual(['@date-fns/tz', 'date-fns', 'lru-cache', 'undici', 'zod']);
    expect(modules.filter((url) => /\/node_modules\/@date-fns\/tz\/(index|date|tz)\b/.test(url))).toEqual([]);
  });

  it('loads date-fns one function at a time, not its index of every function', async () => {
    const { modules } = await modulesLoadedBy(['query', 'organisation-apikey'], {
      EVENTOR_BASE_URL: eventor.baseUrl,
      EVENTOR_API_KEY: eventor.apiKey,
    });
    const dateFns = modules.filter((url) => url.includes('/node_modules/date-fns/'));
    expect(dateFns.length).toBeGreaterThan(0);
    expect(dateFns.filter((url) => url.endsWith('/node_modules/date-fns/index.js'))).toEqual([]);
  });
});

describe('eventor-bot --version', () => {
  it('loads neither the Eventor client nor what reading the configuration needs', async () => {
    const { stdout, modules } = await modulesLoadedBy(['--version'], {});
    expect(stdout).toMatch(/^eventor-bot \d+\.\d+\.\d+/);
    expect(modules.some((url) => url.endsWith('/src/cli/main.js'))).toBe(true);
    const unwanted = modules.filter((url) =>
      /\/node_modules\/(undici|zod|fast-xml-parser|date-fns|discord\.js)\/|\/dist\/src\/(eventor|bot|store)\//.test(
        url,
      ),
    );
    expect(unwanted).toEqual([]);
  });
});
