import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI_COMMANDS, commandUsage, main, USAGE } from '../../src/cli/main.js';
import { capture, PROGRAM } from '../support/cli-process.js';

const run = promisify(execFile);
/**
 * The commands that do something (help and --version print and return): the product's own, and
 * those the launcher hands in from the harness (`sandbox`: docs/decisions/harness.md).
 */
const RUNNABLE = Object.entries(CLI_COMMANDS)
  .filter(([, command]) => command.run !== undefined || command.harness)
  .map(([name]) => name);

describe('eventor-bot <command> --help', () => {
  it('knows the commands an operator needs', () => {
    expect(RUNNABLE).toEqual(
      expect.arrayContaining(['start', 'tick', 'deploy-commands', 'invite', 'backup', 'sandbox', 'query', 'parse']),
    );
  });

  for (const name of RUNNABLE) {
    it(`${name}: --help, -h and 'help ${name}' print its usage and exit 0 without running it`, async () => {
      const expected = commandUsage(name);
      expect(expected.startsWith(`Usage: eventor-bot ${name}`)).toBe(true);
      // An empty environment: had the command run, it would have failed on its configuration or arguments.
      for (const argv of [
        [name, '--help'],
        [name, '-h'],
        ['help', name],
        [name, 'extra', '--bogus', '--help'],
      ]) {
        const io = capture({});
        expect(await main(argv, io)).toBe(0);
        expect(io.stdout()).toBe(expected);
        expect(io.stderr()).toBe('');
      }
    });
  }

  it('every command, as the installed program runs it', async () => {
    for (const name of RUNNABLE) {
      const { stdout, stderr } = await run(process.execPath, [PROGRAM, name, '--help'], {
        env: { PATH: process.env.PATH },
        timeout: 30_000,
      });
      expect(stdout).toBe(commandUsage(name));
      expect(stderr).toBe('');
    }
  });

  it('the overview lists every command; help for an unknown one is a usage error', async () => {
    for (const command of Object.values(CLI_COMMANDS)) expect(USAGE).toContain(`  ${command.synopsis}\n`);
    const io = capture({});
    expect(await main(['--help'], io)).toBe(0);
    expect(io.stdout()).toBe(USAGE);
    const unknown = capture({});
    expect(await main(['help', 'frobnicate'], unknown)).toBe(2);
    expect(unknown.stderr()).toContain("unknown command 'frobnicate'");
  });
});
