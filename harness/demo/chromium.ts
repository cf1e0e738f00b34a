/**
 * Headless Chromium (Debian's `chromium` package, not an npm download) driven over the DevTools
 * protocol on a pipe: no port is opened, and the page is captured at the height of one element,
 * which `chromium --screenshot` alone cannot do. Used by `npm run docs:screens`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** The names Debian and other distributions give the browser's program. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser'] as const;

function executable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium to use: `CHROMIUM` when set (a path, or a name looked up on PATH), else the first
 * of {@link CHROMIUM_NAMES} on PATH. Null when there is none.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const onPath = (name: string): string | null => {
    if (name.includes('/')) return executable(name) ? path.resolve(name) : null;
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (executable(candidate)) return candidate;
    }
    return null;
  };
  if (env.CHROMIUM) return onPath(env.CHROMIUM);
  for (const name of CHROMIUM_NAMES) {
    const found = onPath(name);
    if (found) return found;
  }
  return null;
}

/** The rectangle of an element in CSS pixels. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CaptureOptions {
  /** Width of the browser window in CSS pixels. */
  width: number;
  /** Device pixels per CSS pixel in the PNG (2: sharp on high-density screens). */
  scale: number;
  /** The CSS selector of the element captured. */
  selector: string;
}

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Each protocol call and page load is bounded, so a stuck browser ends the run with a message. */
const CALL_TIMEOUT_MS = 30_000;

/** One browser, many pages captured in turn; `close` ends the process and removes its profile. */
export class HeadlessChromium {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(message: { method: string; sessionId?: string }) => void>();
  private exited: Error | null = null;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const input = child.stdio[4] as Readable;
    // A browser that dies closes its pipes; the exit below says why, so their errors add nothing.
    input.on('error', () => undefined);
    (child.stdio[3] as Writable).on('error', () => undefined);
    let buffered = '';
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      buffered += chunk;
      // Messages on the pipe end with a NUL byte.
      for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        this.receive(JSON.parse(text) as Record<string, unknown>);
      }
    });
    // The last of what Chromium said, for the message when it ends unasked.
    let said = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      said = (said + chunk).slice(-600);
    });
    child.once('exit', (code, signal) => {
      const last = said.trim().split('\n').at(-1)?.trim();
      this.exited = new Error(`Chromium exited (${signal ?? `code ${code}`})${last ? `: ${last}` : ''}`);
      for (const call of this.pending.values()) {
        clearTimeout(call.timer);
        call.reject(this.exited);
      }
      this.pending.clear();
    });
  }

  static async launch(program: string): Promise<HeadlessChromium> {
    const profile = await mkdtemp(path.join(tmpdir(), 'eventor-bot-chromium-'));
    const args = [
      '--headless',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--disable-extensions',
      '--disable-background-networking',
      '--disable-sync',
      '--hide-scrollbars',
      '--mute-audio',
      // Chromium refuses to start its sandbox as root (containers, CI); the pages are our own files.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      'about:blank',
    ];
    // The protocol runs over file descriptors 3 (to the browser) and 4 (from it).
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    const browser = new HeadlessChromium(child, profile);
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      await browser.call('Browser.getVersion');
    } catch (error) {
      await browser.close();
      throw error;
    }
    return browser;
  }

  private receive(message: Record<string, unknown>): void {
    if (typeof message.id === 'number') {
      const call = this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id);
      clearTimeout(call.timer);
      const error = message.error as { message?: string } | undefined;
      if (error) call.reject(new Error(`Chromium: ${error.message ?? 'error'}`));
      else call.resolve((message.result ?? {}) as Record<string, unknown>);
    } else if (typeof message.method === 'string') {
      for (const listener of this.listeners) listener(message as { method: string; sessionId?: string });
    }
  }

  private call(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`Chromium did not answer ${method} within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });
  }

  private event(method: string, sessionId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`Chromium did not report ${method} within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      const listener = (message: { method: string; sessionId?: string }): void => {
        if (message.method !== method || message.sessionId !== sessionId) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  /**
   * Opens a page (a file:// address), waits for it and its fonts to load, and gives the PNG of the
   * element `selector` at `scale` device pixels per CSS pixel.
   */
  async capture(url: string, options: CaptureOptions): Promise<Buffer> {
    const { targetId } = (await this.call('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    try {
      const { sessionId } = (await this.call('Target.attachToTarget', { targetId, flatten: true })) as {
        sessionId: string;
      };
      const metrics = { width: options.width, deviceScaleFactor: options.scale, mobile: false };
      await this.call('Emulation.setDeviceMetricsOverride', { ...metrics, height: 800 }, sessionId);
      await this.call('Page.enable', {}, sessionId);
      const loaded = this.event('Page.loadEventFired', sessionId);
      const navigated = (await this.call('Page.navigate', { url }, sessionId)) as { errorText?: string };
      if (navigated.errorText) throw new Error(`Chromium could not open ${url}: ${navigated.errorText}`);
      await loaded;
      const measured = (await this.call(
        'Runtime.evaluate',
        {
          expression: `document.fonts.ready.then(() => {
            const r = document.querySelector(${JSON.stringify(options.selector)})?.getBoundingClientRect();
            return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
          })`,
          awaitPromise: true,
          returnByValue: true,
        },
        sessionId,
      )) as { result?: { value?: Box | null } };
      const box = measured.result?.value;
      if (!box) throw new Error(`the page ${url} has no element ${options.selector}`);
      // A window as tall as the element, so nothing of it is cut off or scrolled.
      await this.call(
        'Emulation.setDeviceMetricsOverride',
        { ...metrics, height: Math.ceil(box.y + box.height) },
        sessionId,
      );
      const shot = (await this.call(
        'Page.captureScreenshot',
        {
          format: 'png',
          clip: { x: box.x, y: box.y, width: Math.ceil(box.width), height: Math.ceil(box.height), scale: 1 },
          captureBeyondViewport: true,
        },
        sessionId,
      )) as { data: string };
      return Buffer.from(shot.data, 'base64');
    } finally {
      await this.call('Target.closeTarget', { targetId }).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    // No pid: the program never started, so there is nothing to end.
    if (!this.exited && this.child.pid !== undefined && this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      await this.call('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.profile, { recursive: true, force: true });
  }
}
