// `npm run test:dates`: the tests whose worlds start from the test instant (test/support/clock.ts),
// run again with that instant moved to each of many dates, to show that none depends on the day it
// runs. The dates span two years and include a turn of the year, both daylight-saving changes, a
// Monday and a Sunday night, and the last days of February. Each date is one vitest run (its failed
// files once more, so that a timeout on a busy machine is told from a date); the summary names
// every date and test that failed.
//
//   npm run test:dates                       every date, every test that reads the test instant
//   npm run test:dates -- --dates 5          the first 5 dates only
//   npm run test:dates -- test/e2e/next.test.ts   those files only, on every date
//   npm run test:dates -- --projects e2e,security the files of those test folders only
//   npm run test:dates -- --skip 15             every date but the first 15 of the sweep's order
//
// The sweep is about dates, not speed: each test may take three times its usual limit, so that a
// machine busy with something else shows as a slow sweep rather than as a date that failed.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** At least 30 instants over two years; the comment says what each one is there for. */
const DATES = [
  ['2026-01-05T08:00:00Z', 'a Monday morning in winter'],
  ['2026-01-31T22:30:00Z', 'the last evening of January, after midnight in Sweden'],
  ['2026-02-28T12:00:00Z', 'the last day of February'],
  ['2026-03-28T23:30:00Z', 'the night before summer time (Sweden 00:30)'],
  ['2026-03-29T01:30:00Z', 'just after the change to summer time (03:30 in Sweden)'],
  ['2026-04-13T06:00:00Z', 'a Monday morning in spring'],
  ['2026-05-09T09:00:00Z', 'a Saturday race morning'],
  ['2026-05-24T16:00:00Z', 'a Sunday afternoon'],
  ['2026-06-19T21:00:00Z', 'midsummer eve'],
  ['2026-07-06T10:00:00Z', 'a Monday in the summer break'],
  ['2026-07-31T23:59:00Z', 'the last minute of July (UTC)'],
  ['2026-08-17T05:00:00Z', 'a Monday in August, early'],
  ['2026-09-06T19:00:00Z', 'a Sunday evening in September'],
  ['2026-09-30T12:00:00Z', 'the last day of a quarter'],
  ['2026-10-24T08:00:00Z', 'the Saturday before winter time'],
  ['2026-10-25T00:30:00Z', 'the night of the change to winter time (02:30 summer time in Sweden)'],
  ['2026-10-26T07:00:00Z', 'the Monday after winter time'],
  ['2026-11-18T09:00:00Z', "the suite's own instant"],
  ['2026-12-07T09:00:00Z', 'a Monday in December'],
  ['2026-12-24T15:00:00Z', 'Christmas Eve'],
  ['2026-12-31T22:30:00Z', "New Year's Eve, already the new year in Sweden"],
  ['2027-01-01T00:30:00Z', "New Year's Day, just after midnight (UTC)"],
  ['2027-01-04T09:00:00Z', 'the first Monday of the year'],
  ['2027-02-15T12:00:00Z', 'a Monday in February'],
  ['2027-03-27T23:00:00Z', 'the night before summer time, a year on'],
  ['2027-03-28T02:00:00Z', 'after the change to summer time, a year on'],
  ['2027-05-03T08:00:00Z', 'a Monday in May'],
  ['2027-06-26T10:00:00Z', 'a Saturday in June'],
  ['2027-08-29T20:00:00Z', 'a Sunday evening in August'],
  ['2027-10-30T22:00:00Z', 'the evening before winter time, a year on'],
  ['2027-10-31T01:30:00Z', 'after the change to winter time, a year on'],
  ['2027-12-27T09:00:00Z', 'the Monday after Christmas'],
];

function testFiles() {
  // The files that read the test instant: they import support/clock.js, themselves or through a
  // support module that does. Other tests do not move with it, so running them again proves nothing.
  const support = path.join(root, 'test', 'support');
  const importsOf = (file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((m) =>
      path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')),
    );
  const clock = path.join(support, 'clock.ts');
  const reaches = new Map([[clock, true]]);
  const reachesClock = (file, seen = new Set()) => {
    if (reaches.has(file)) return reaches.get(file);
    if (seen.has(file)) return false;
    seen.add(file);
    let found;
    try {
      found = importsOf(file).some((dep) => dep.startsWith(support) && reachesClock(dep, seen));
    } catch {
      found = false;
    }
    reaches.set(file, found);
    return found;
  };
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.test.ts') && (importsOf(full).includes(clock) || reachesClock(full)))
        files.push(path.relative(root, full));
    }
  };
  walk(path.join(root, 'test'));
  return files.sort();
}

const args = process.argv.slice(2);
let count = DATES.length;
const countAt = args.indexOf('--dates');
if (countAt >= 0) {
  count = Number(args[countAt + 1]);
  args.splice(countAt, 2);
  if (!Number.isInteger(count) || count < 1) {
    process.stderr.write('test:dates: --dates takes a whole number of dates\n');
    process.exit(2);
  }
}
let folders = null;
const projectsAt = args.indexOf('--projects');
if (projectsAt >= 0) {
  folders = new Set(
    String(args[projectsAt + 1] ?? '')
      .split(',')
      .filter(Boolean),
  );
  args.splice(projectsAt, 2);
}
let skip = 0;
const skipAt = args.indexOf('--skip');
if (skipAt >= 0) {
  skip = Number(args[skipAt + 1]);
  args.splice(skipAt, 2);
  if (!Number.isInteger(skip) || skip < 0) {
    process.stderr.write('test:dates: --skip takes a whole number of dates\n');
    process.exit(2);
  }
}
const files = (args.length > 0 ? args : testFiles()).filter(
  (file) => folders === null || folders.has(file.split('/')[1]),
);
// Spread out, so that the first few dates of a shorter sweep (`--dates 8`) already reach the turn of a
// year, both clock changes and a Monday: every fourth date, then the ones between.
const spread = [0, 1, 2, 3].flatMap((offset) => DATES.filter((_, i) => i % 4 === offset));
// `--skip K` leaves out the first K of that order: a sweep cut short goes on where it stopped.
const dates = spread.slice(skip, skip + count);
// Each file in the project `main` only: the postgres-feeds project runs some of them again on the
// other database, which changes nothing about dates and would double the time.
const projects = ['--project', 'main'];
// Built once here; each run is told so (test/support/build.ts), instead of compiling per date.
const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
process.stdout.write(`test:dates: ${files.length} test files on ${dates.length} dates\n`);
const started = performance.now();
const failures = [];

/** One vitest run of `only` on `date`: whether it passed, the tests that failed, its summary line. */
function runOn(date, only) {
  const limits = ['--testTimeout=90000', '--hookTimeout=90000'];
  const run = spawnSync('npx', ['vitest', 'run', '--reporter=dot', ...limits, ...projects, ...only], {
    cwd: root,
    env: { ...process.env, TEST_WORLD_NOW: date, TEST_BUILD_DONE: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const out = run.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  const failed = [
    ...new Set(
      [...out.matchAll(/FAIL\s+.*?(test\/\S+\.test\.ts)[^\n]*?> ([^\n]+)/g)].map((m) => `${m[1]} > ${m[2].trim()}`),
    ),
  ];
  const summary = /Tests\s+(.+)/.exec(out)?.[1]?.trim() ?? 'no summary';
  return { passed: run.status === 0, failed, summary, tail: out.slice(-4000) + run.stderr.slice(-2000) };
}

for (const [date, why] of dates) {
  const at = performance.now();
  let result = runOn(date, files);
  // A test that fails on a loaded machine (a timeout) fails again only if the date is the cause:
  // the failed files run once more on the same date, and only what fails twice counts.
  if (!result.passed && result.failed.length > 0) {
    const again = runOn(date, [...new Set(result.failed.map((line) => line.split(' > ')[0]))]);
    if (again.passed) {
      process.stdout.write(
        `${date}: failed once, passed again (the machine, not the date): ${result.failed.join('; ')}\n`,
      );
      result = { ...result, passed: true };
    } else result = { ...again, summary: `${result.summary}; again: ${again.summary}` };
  }
  const seconds = ((performance.now() - at) / 1000).toFixed(0);
  process.stdout.write(`${date} (${why}): ${result.passed ? 'passed' : 'FAILED'} in ${seconds} s: ${result.summary}\n`);
  if (!result.passed) {
    failures.push({ date, failed: result.failed });
    for (const line of result.failed) process.stdout.write(`  ${line}\n`);
    if (result.failed.length === 0) process.stdout.write(result.tail);
  }
}
const minutes = ((performance.now() - started) / 60_000).toFixed(1);
process.stdout.write(
  `test:dates: ${dates.length - failures.length} of ${dates.length} dates passed, ${files.length} files each, in ${minutes} min\n`,
);
process.exit(failures.length === 0 ? 0 : 1);
