/**
 * `npm run docs:screens` (harness/demo/screens.ts) as its own process, compiled: where Chromium is
 * installed it writes the pictures, and they are real PNGs of the intended width with Discord's
 * dark background and text on it; where it is not, it says so in one line and exits 2.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../harness/demo/chromium.js';
import { NO_CHROMIUM, SCREENS } from '../../harness/demo/screens.js';
import { SCREEN_WIDTH } from '../../harness/demo/screen-html.js';
import { testNow } from '../support/clock.js';

/** The compiled script (vitest's global setup, test/support/build.ts, built it). */
const SCRIPT = path.resolve('dist/harness/demo/screens.js');
const CHROMIUM = findChromium();
const NEEDS_CHROMIUM = '[needs chromium]';
/** The screens whose answer carries split pictures. */
const WITH_PICTURES = new Set(['splits', 'results-thread']);

function runScreens(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`docs:screens took more than ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-screens-test-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('npm run docs:screens', () => {
  it.skipIf(CHROMIUM === null)(
    `writes every screen as a PNG of Discord's dark theme with the answer on it ${NEEDS_CHROMIUM}`,
    async () => {
      const out = await tempDir();
      const run = await runScreens(['--out', out, '--at', testNow().toISOString()], {
        PATH: process.env.PATH,
        CHROMIUM: CHROMIUM!,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect((await readdir(out)).sort()).toEqual(SCREENS.map((s) => `${s.name}.png`).sort());
      for (const screen of SCREENS) {
        const file = path.join(out, `${screen.name}.png`);
        // The run names each file it wrote.
        expect(run.stdout).toContain(`wrote ${file}`);
        const image = await loadImage(await readFile(file));
        // Twice the layout's width (sharp on high-density screens), and as tall as the answer.
        expect(image.width, screen.name).toBe(SCREEN_WIDTH * 2);
        expect(image.height, screen.name).toBeGreaterThan(300);
        expect(image.height, screen.name).toBeLessThan(8_000);
        const canvas = createCanvas(image.width, image.height);
        const ctx = canvas.getContext('2d');
        ctx.drawImage(image, 0, 0);
        const { data } = ctx.getImageData(0, 0, image.width, image.height);
        // Discord's dark background (#313338) in the corner; light text and the embed's darker box on it.
        expect([...data.subarray(0, 3)], screen.name).toEqual([0x31, 0x33, 0x38]);
        let light = 0;
        let embed = 0;
        let white = 0;
        for (let i = 0; i < data.length; i += 4) {
          const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
          if (r > 200 && g > 200 && b > 200) light++;
          if (r === 0x2b && g === 0x2d && b === 0x31) embed++;
          if (r === 255 && g === 255 && b === 255) white++;
        }
        const pixels = image.width * image.height;
        expect(light / pixels, `${screen.name}: text`).toBeGreaterThan(0.005);
        expect(embed / pixels, `${screen.name}: embed`).toBeGreaterThan(0.05);
        // The split pictures the bot attached (white, as drawn) are shown in the message; nothing else is white.
        if (WITH_PICTURES.has(screen.name)) expect(white / pixels, `${screen.name}: pictures`).toBeGreaterThan(0.1);
        else expect(white / pixels, `${screen.name}: no picture`).toBeLessThan(0.01);
      }
    },
    180_000,
  );

  it('says in one line that it needs Chromium, and exits 2, where none is installed', async () => {
    const out = path.join(await tempDir(), 'pictures');
    // A PATH with only an empty folder on it: no chromium, no chromium-browser.
    const run = await runScreens(['--out', out], { PATH: await tempDir() }, 30_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${NO_CHROMIUM}\n`);
    expect(run.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('names the CHROMIUM it was given when that is no program, and exits 2', async () => {
    const missing = path.join(await tempDir(), 'no-chromium-here');
    const run = await runScreens([], { PATH: process.env.PATH, CHROMIUM: missing }, 30_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`docs:screens: CHROMIUM=${missing} is not a program that can be run.\n`);
  });

  it('refuses an unknown option or screen in one line, exit 2', async () => {
    const env = { PATH: process.env.PATH };
    const option = await runScreens(['--colour', 'red'], env, 30_000);
    expect(option.code).toBe(2);
    expect(option.stderr.trim().split('\n')).toHaveLength(1);
    expect(option.stderr).toContain("Unknown option '--colour'");
    const screen = await runScreens(['--only', 'everything'], env, 30_000);
    expect(screen.code).toBe(2);
    expect(screen.stderr).toBe(
      `docs:screens: no screen named everything (there are ${SCREENS.map((s) => s.name).join(', ')}).\n`,
    );
  });
});
