// `npm test`: the type check, the linter and formatter, the dependency rule, then every test project.
// With arguments it is a focused run (`npm test -- --project unit`, `npm test -- test/unit/days.test.ts`):
// vitest alone with those arguments, so a contributor gets a part's answer in seconds.
import { spawnSync } from 'node:child_process';
import process from 'node:process';

const args = process.argv.slice(2);
const steps = [
  ...(args.length === 0
    ? [
        ['npm', 'run', '--silent', 'typecheck'],
        ['npm', 'run', '--silent', 'lint'],
        ['npm', 'run', '--silent', 'deps'],
      ]
    : []),
  ['npx', 'vitest', 'run', ...args],
];
if (args.length > 0)
  process.stdout.write('A focused run: vitest alone (`npm test` with no arguments runs the checks too).\n');
for (const step of steps) {
  const { status } = spawnSync(step[0], step.slice(1), { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
