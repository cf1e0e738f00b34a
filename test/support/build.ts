import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Vitest global setup: compiles the program once before any test file runs, because some tests
 * start the bot as its own process (`bin/eventor-bot.js` runs `dist/`), and a test must never
 * run yesterday's build. Every project that needs it names this file; the build runs once per run.
 */
const BUILD = Symbol.for('eventor-bot.test.build');

export default async function build(): Promise<void> {
  // `npm run test:dates` builds once, then runs the tests many times on the same sources.
  if (process.env.TEST_BUILD_DONE === '1') return;
  const shared = globalThis as { [BUILD]?: Promise<unknown> };
  shared[BUILD] ??= promisify(execFile)(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'],
    { timeout: 300_000 },
  );
  await shared[BUILD];
}
