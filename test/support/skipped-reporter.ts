import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one line saying how many tests were skipped and why, so that a run without
 * `../shared/fixtures`, PostgreSQL or another optional tool is never mistaken for a complete one. A
 * test says why it may skip with a `[needs …]` tag in its name or its suite's
 * (`test/support/shared-fixtures.ts`, `test/support/postgres.ts`); the note of a `context.skip(note)`
 * says what exactly was missing (PostgreSQL not installed, or not started and why).
 */
export default class SkippedReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const reasons = new Map<string, number>();
    let skipped = 0;
    let sqliteOnly = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        // Not missing anything: a test about SQLite itself, left out where the store is on PostgreSQL.
        if (test.fullName.includes('[SQLite only]')) {
          sqliteOnly++;
          continue;
        }
        skipped++;
        const tag = /\[needs [^\]]+\]/.exec(test.fullName)?.[0];
        const note = result.note?.trim();
        const reason = tag && note ? `${tag} (${note})` : (tag ?? note ?? '[no reason given in its name]');
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
    }
    if (sqliteOnly > 0)
      process.stdout.write(
        `\nLeft out ${sqliteOnly} test${sqliteOnly === 1 ? '' : 's'} tagged [SQLite only] on PostgreSQL: they are about SQLite itself.\n`,
      );
    if (skipped === 0) return;
    const why = [...reasons].map(([reason, count]) => `${count} ${reason}`).join(', ');
    process.stdout.write(
      `\nSkipped ${skipped} test${skipped === 1 ? '' : 's'}: ${why}; they need what this machine lacks.\n`,
    );
  }
}
