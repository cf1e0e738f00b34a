import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Vitest global setup: compiles the program once before any test file runs, because some tests
 * start the bot as its own process (`bin/eventor-bot.js` runs `dist/`), and a test must never
 * run yesterday's build.
 */
export default async function build(): Promise<void> {
  await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    timeout: 300_000,
  });
}
