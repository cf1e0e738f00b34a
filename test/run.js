// `npm test`: the build, then the type check, the linter and formatter and the dependency rule beside
// every test. With arguments it is a focused run (`npm test -- test/unit`, `npm test --
// test/unit/days.test.ts`): vitest alone with those arguments, so a contributor gets a part's answer
// in seconds.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const args = process.argv.slice(2);
// The checks run while the tests run: the tests spend much of their time waiting on loopback servers
// and the bot's own processes, and the checks fill those gaps (a clean clone's `npm test` is measured
// against six minutes on two cores). Their output is printed after the tests', in this order.
// `eslint .` and `prettier --check .` are `npm run lint`'s two halves. The type check (`tsc -b`, see
// tsconfig.json) checks the tests against the build's declarations, so the build runs before it and
// before vitest: two `tsc -b` must never write dist/ at once, and once it is up to date, the type
// check's and vitest's global setup's builds only see that it is.
const BUILD = ['npm', 'run', '--silent', 'build'];
const CHECKS = [
  ['npm', 'run', '--silent', 'typecheck'],
  ['npx', 'eslint', '.'],
  ['npx', 'prettier', '--check', '.'],
  ['npm', 'run', '--silent', 'deps'],
];

/** Runs a command; with `keep`, its output is kept for later so parallel commands never interleave. */
function run(command, keep) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ command, status: 1, output: [Buffer.from(`${error.message}\n`)] }));
    child.on('close', (status) => resolve({ command, status: status ?? 1, output }));
  });
}

if (args.length > 0)
  process.stdout.write('A focused run: vitest alone (`npm test` with no arguments runs the checks too).\n');
// A build with type errors still writes dist/, so the tests run all the same; its errors are printed
// once, by the type check, which reports them again.
const build = args.length === 0 ? [{ ...(await run(BUILD, true)), output: [] }] : [];
const checks = args.length === 0 ? CHECKS.map((command) => run(command, true)) : [];
const tests = await run(['npx', 'vitest', 'run', ...args], false);
const results = [...build, ...(await Promise.all(checks))];
for (const { output } of results) process.stdout.write(Buffer.concat(output));
const failed = [...results, tests].filter((result) => result.status !== 0);
for (const { command, status } of failed) process.stderr.write(`\`${command.join(' ')}\` failed (exit ${status})\n`);
process.exit(failed.length === 0 ? 0 : failed[0].status);
