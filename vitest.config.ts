import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs both projects: `main`, every test file once, and `postgres-feeds`, some of them
 * again on the other database. The folders of `test/` say what a test exercises (`test/README.md`);
 * one folder or file runs on its own by its path: `npx vitest run test/unit`.
 */

/**
 * The store and feed tests again with every loopback world's store on PostgreSQL (one server per
 * run, a database per world: test/support/postgres-project.ts, test/support/world-database.ts).
 * The files are not copied: the same tests, run a second time on the other database. Not listed:
 * test/unit/store*.test.ts, which are about the SQLite implementation (its file, migrations, gate);
 * the store's behaviour on every dialect is test/postgres/store-contract.test.ts.
 */
const ON_BOTH_DATABASES = [
  'test/e2e/feeds-*.test.ts',
  'test/security/departures.test.ts',
  'test/security/retention.test.ts',
  'test/e2e/linking.test.ts',
  'test/e2e/notify.test.ts',
  'test/security/persons.test.ts',
  'test/security/limits.test.ts',
  'test/e2e/setup.test.ts',
  'test/e2e/notify-day-before.test.ts',
  'test/security/default-connection.test.ts',
  'test/e2e/season.test.ts',
  'test/e2e/cups.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on CI: forks keep native modules and loopback servers isolated per worker.
    pool: 'forks',
    // Files share their worker's loaded modules instead of loading discord.js and the product again
    // for each file: the whole run costs about half the CPU (no test mocks a module or fakes timers;
    // every world starts its own servers, store and clock). A test must leave no global state behind.
    isolate: false,
    // Vitest's default is one file fewer than the cores: a single file at a time on two. Most files
    // spend their time waiting on loopback servers and the bot's own processes, so half again as
    // many files as cores keep both cores busy (`--maxWorkers` on the command line still wins).
    maxWorkers: Math.max(2, Math.ceil(availableParallelism() * 1.5)),
    // The default summary, then one line counting the tests skipped and why.
    reporters: ['default', './test/support/skipped-reporter.ts'],
    projects: [
      {
        extends: true as const,
        test: {
          // One project for every folder, not one each: a project has workers of its own, and each
          // worker loads vitest, discord.js and the product again (about a sixth of the run's CPU).
          name: 'main',
          include: ['test/**/*.test.ts'],
          // Tests that start the bot as its own process run the compiled program: build it first.
          globalSetup: ['test/support/build.ts'],
        },
      },
      {
        extends: true as const,
        test: {
          name: 'postgres-feeds',
          include: ON_BOTH_DATABASES,
          env: { EVENTOR_BOT_TEST_DATABASE: 'postgres' },
          globalSetup: ['test/support/build.ts', 'test/support/postgres-project.ts'],
          setupFiles: ['test/support/world-database.ts'],
        },
      },
    ],
  },
});
