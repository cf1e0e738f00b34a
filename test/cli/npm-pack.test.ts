import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProgram } from '../support/bot-process.js';
import { printedVariables } from '../support/cli-process.js';
import { testNow } from '../support/clock.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
  version: string;
  dependencies: Record<string, string>;
};

/**
 * The top-level folders of `modules` that the production dependencies need, found as Node would
 * resolve them (a package's own nested node_modules first). A nested package comes along with
 * the folder it sits in; its dependencies are followed all the same.
 */
function productionClosure(modules: string): Set<string> {
  const top = new Set<string>();
  const seen = new Set<string>();
  const queue: Array<[string, string]> = Object.keys(pkg.dependencies).map((name) => [name, path.dirname(modules)]);
  for (let steps = 0; queue.length > 0 && steps < 10_000; steps++) {
    const [name, from] = queue.shift()!;
    let found: string | null = null;
    for (let dir = from; found === null; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) found = candidate;
      else if (dir === path.dirname(dir) || dir === path.dirname(modules)) break;
    }
    // An optional dependency not installed on this platform (npm left it out too).
    if (found === null || seen.has(found)) continue;
    seen.add(found);
    const relative = path.relative(modules, found);
    if (!relative.includes(`${path.sep}node_modules${path.sep}`)) top.add(relative);
    const manifest = JSON.parse(readFileSync(path.join(found, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }))
      queue.push([dep, found]);
  }
  return top;
}

/**
 * `from` recreated at `to` with its files hard-linked, not copied: the same bytes at a new path (Node
 * resolves the copy's dependencies from the new place, as it would a copy) for a tenth of the time
 * and disk. Copied only across file systems, where a link cannot be made.
 */
function linkTree(from: string, to: string): void {
  const entry = lstatSync(from);
  if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (entry.isDirectory()) {
    mkdirSync(to);
    for (const name of readdirSync(from)) linkTree(path.join(from, name), path.join(to, name));
  } else {
    try {
      linkSync(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      copyFileSync(from, to);
    }
  }
}

/**
 * `npm pack`, then the tarball installed into an empty folder and run as an operator would:
 * --version, the sandboxes, and `start` against them until "bot ready".
 *
 * Offline, as CI is: `npm install --offline` takes the tarball, and its dependencies must already be
 * there, so this checkout's production dependencies (followed from package.json) are put into the
 * folder first (hard links: npm must add only the package, so it changes none of them). What this proves: the tarball holds everything the program needs besides its
 * declared dependencies (bin/, the compiled dist/, package.json) and nothing of the tests or the
 * sources; not that the registry's versions of the dependencies install (that needs a network).
 */
describe('installing the packed package', () => {
  let dir: string;
  let tarball: string;
  let files: string[];
  let program: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'eventor-bot-pack-'));
    const packed = await run(npm, ['pack', '--offline', '--json', '--pack-destination', dir], {
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [result] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(dir, result!.filename);
    files = result!.files.map((f) => f.path);

    const app = path.join(dir, 'app');
    mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'operator', private: true }));
    const modules = realpathSync('node_modules');
    const top = productionClosure(modules);
    for (const name of Object.keys(pkg.dependencies)) expect(top).toContain(name);
    for (const name of top) {
      if (name.startsWith('@')) mkdirSync(path.join(app, 'node_modules', path.dirname(name)), { recursive: true });
      linkTree(path.join(modules, name), path.join(app, 'node_modules', name));
    }
    // Their command links too: npm would otherwise take a package without its link as changed and
    // unpack it again, which offline needs it in the npm cache.
    mkdirSync(path.join(app, 'node_modules', '.bin'));
    for (const entry of existsSync(path.join(modules, '.bin')) ? readdirSync(path.join(modules, '.bin')) : []) {
      const link = readlinkSync(path.join(modules, '.bin', entry));
      const parts = path.relative(modules, path.resolve(modules, '.bin', link)).split(path.sep);
      const owner = parts[0]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
      if (top.has(owner)) symlinkSync(link, path.join(app, 'node_modules', '.bin', entry));
    }

    const installed = await run(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball], {
      cwd: app,
      timeout: 180_000,
    });
    // Only the package itself came from the tarball; its dependencies were all there already.
    expect(installed.stdout).toMatch(/added 1 package\b/);
    expect(installed.stdout).not.toMatch(/changed|removed/);
    program = path.join(app, 'node_modules', '.bin', 'eventor-bot');
  }, 400_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the program and its documentation, not the tests or the TypeScript sources', () => {
    for (const file of [
      'package.json',
      'bin/eventor-bot.js',
      'dist/src/cli/main.js',
      'dist/commands/index.js',
      'dist/src/eventor/parse-worker.js',
      '.env.example',
      'docs/operators.md',
      'deploy/eventor-bot.service',
      'README.md',
      'LICENSE',
    ])
      expect(files).toContain(file);
    const unwanted = files.filter(
      (file) =>
        file.startsWith('test/') ||
        file.startsWith('src/') ||
        file.startsWith('commands/') ||
        file.startsWith('node_modules/') ||
        file.endsWith('.map') ||
        file.endsWith('.d.ts') ||
        file.endsWith('.tsbuildinfo') ||
        file === '.env' ||
        /\.sqlite/.test(file),
    );
    expect(unwanted).toEqual([]);
  });

  it('runs --version, the sandboxes, and start until "bot ready"; stops cleanly', async () => {
    const version = await run(process.execPath, [program, '--version'], { cwd: dir, timeout: 30_000 });
    expect(version.stdout).toBe(`eventor-bot ${pkg.version}\n`);

    // On the test instant (support/clock.ts): the bot is told the same clock (SANDBOX_CLOCK).
    const sandbox = startProgram(['sandbox', '--discord', '--now', testNow().toISOString()], { cwd: dir, program });
    try {
      expect(await sandbox.waitFor('EVENTOR_DEFAULT_GUILDS=')).toBe(true);
      const variables = printedVariables(sandbox.stdout());
      expect(Object.keys(variables).sort()).toEqual([
        'DISCORD_API_URL',
        'DISCORD_TOKEN',
        'EVENTOR_API_KEY',
        'EVENTOR_BASE_URL',
        'EVENTOR_DEFAULT_GUILDS',
        'SANDBOX_CLOCK',
      ]);
      const bot = startProgram(['start'], {
        cwd: dir,
        program,
        env: {
          ...variables,
          SECRET_KEY: 'npm-pack-test-secret-0123456789',
          DATABASE_PATH: path.join(dir, 'bot.sqlite'),
        },
      });
      let code: number | null;
      try {
        expect(await bot.waitFor('"msg":"bot ready"')).toBe(true);
      } finally {
        code = await bot.stop();
      }
      expect(code).toBe(0);
      expect(bot.stderr()).toContain('"msg":"bot stopped"');
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 120_000);
});
