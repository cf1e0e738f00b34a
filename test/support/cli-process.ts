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
 * `eventor-bot <args>` as its own process; resolves with its exit code, standard error and standard
 * out, rejects (killing it) after `timeoutMs`.
 */
export function runProgram(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; uid?: number; gid?: number } = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROGRAM, ...args], {
      env: { PATH: process.env.PATH, ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
      // Another user (the tests run as root): what a service's own user meets.
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`eventor-bot ${args.join(' ')} took more than ${timeoutMs} ms`));
    }, timeoutMs);
    // `close`, not `exit`: both streams have ended then, so nothing written is missed.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
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
