/**
 * The copy of Ctrl-C that npm forwards can reach the bot after a quick stop has already finished
 * (the terminal's SIGINT came first). The process must still end with its own exit code, not be
 * killed by that late signal: npm would otherwise report the clean stop as an interrupted one.
 * Played deterministically in a child process on the compiled program (test/support/build.ts).
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = pathToFileURL(path.resolve('dist/src/cli/stop-signals.js')).href;

/** A process that stops on SIGINT, finishes the stop at once, then receives the forwarded copy. */
const SCRIPT = `
import { StopSignals } from ${JSON.stringify(MODULE)};
const signals = new StopSignals({ out: () => {}, err: (t) => process.stderr.write(t) });
signals.stop.then(() => {
  signals.dispose();
  // npm's forwarded copy, after the stop finished; the process then has nothing left and ends.
  process.kill(process.pid, 'SIGINT');
  setTimeout(() => process.stdout.write('stopped\\n'), 50);
});
process.kill(process.pid, 'SIGINT');
setTimeout(() => {}, 200);
`;

describe('StopSignals: the late copy of the same Ctrl-C', () => {
  it('does not end a process whose stop already finished by the signal', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('stopped\n');
    expect(run.stderr).toBe('');
  });
});
