import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one line saying how many tests were skipped and why, so that a run without
 * `../shared/fixtures` (or another optional tool) is never mistaken for a complete one. A test says
 * why it may skip with a `[needs …]` tag in its name or its suite's (`test/support/shared-fixtures.ts`).
 */
export default class SkippedReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const reasons = new Map<string, number>();
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (test.result().state !== 'skipped') continue;
        skipped++;
        const reason = /\[needs [^\]]+\]/.exec(test.fullName)?.[0] ?? '[no reason given in its name]';
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
    }
    if (skipped === 0) return;
    const why = [...reasons].map(([reason, count]) => `${count} ${reason}`).join(', ');
    process.stdout.write(`\nSkipped ${skipped} test${skipped === 1 ? '' : 's'}: ${why}, absent on this machine.\n`);
  }
}
