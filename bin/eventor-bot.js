#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the prepare script). The `sandbox`
// command is the harness's, not the product's (docs/decisions/harness.md): its runner is handed in
// here, and loaded only when that command runs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'eventor-bot is not built yet: run `npm ci` (or `npm run build`) in the project folder first.\n',
  );
  process.exit(1);
}
const sandbox = new URL('../dist/harness/cli/sandbox.js', import.meta.url);
const runners = existsSync(fileURLToPath(sandbox))
  ? { sandbox: async (args, io) => (await import(sandbox.href)).runSandbox(args, io) }
  : {};
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2), undefined, runners);
