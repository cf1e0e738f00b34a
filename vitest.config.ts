import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that start the bot as its own process run the compiled program: build it first, once.
    globalSetup: ['test/support/build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on CI: forks keep native modules and loopback servers isolated per file.
    pool: 'forks',
    // The default summary, then one line counting the tests skipped and why.
    reporters: ['default', './test/support/skipped-reporter.ts'],
  },
});
