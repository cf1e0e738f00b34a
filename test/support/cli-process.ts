import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Io } from '../../src/cli/main.js';

/** The built program (`npm test` compiles it once first, see build.ts). */
export const PROGRAM = path.resolve('bin/eventor-bot.js');

/** An `Io` for running the command line in-process, keeping what it writes. */
export function capture(env?: NodeJS.ProcessEnv): Io & { stdout: () => string; stderr: () => string } {
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

/**
 * `eventor-bot <args>` as its own process; resolves with its exit code and standard error (and with
 * `captureStdout`, standard output; otherwise it goes nowhere, so that processes it starts hold no
 * pipe of ours), rejects (killing it) after `timeoutMs`.
 */
export function runProgram(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; captureStdout?: boolean } = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROGRAM, ...args], {
      env: { PATH: process.env.PATH, ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdio: ['ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Standard output may still be arriving when the process exits: the answer waits for its end too.
    const stdoutEnded = new Promise<void>((ended) => {
      if (child.stdout === null) ended();
      else child.stdout.once('close', () => ended());
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`eventor-bot ${args.join(' ')} took more than ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      void stdoutEnded.then(() => {
        clearTimeout(timer);
        resolve({ code, stderr, stdout });
      });
    });
  });
}

/** The `NAME=value` lines a command printed (what `sandbox --discord` gives to paste into `.env`). */
export function printedVariables(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
