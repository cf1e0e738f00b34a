import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { PROGRAM } from './cli-process.js';

/** `eventor-bot start` (or another long-running command) as its own process, its standard error kept. */
export interface RunningProgram {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  /** Resolves true once `text` is on standard out or error, false if the process exits or `timeoutMs` passes first. */
  waitFor(text: string, timeoutMs?: number): Promise<boolean>;
  /** SIGTERM, then the exit code (SIGKILL after `timeoutMs`, the code then null). */
  stop(timeoutMs?: number): Promise<number | null>;
}

export function startProgram(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; program?: string } = {},
): RunningProgram {
  const child = spawn(process.execPath, [options.program ?? PROGRAM, ...args], {
    env: { PATH: process.env.PATH, ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async waitFor(text, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!out.includes(text) && !err.includes(text) && !done && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25));
      return out.includes(text) || err.includes(text);
    },
    async stop(timeoutMs = 30_000) {
      if (!done) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
