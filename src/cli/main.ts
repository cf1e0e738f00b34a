/**
 * The `eventor-bot` command line. Exit codes: 0 success, 1 a failure at run time (Eventor or
 * file errors), 2 a usage or configuration error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from '../config/errors.js';
import { parseFlags, UsageError } from './args.js';
import { type Io, oneLine } from './io.js';

export type { Io } from './io.js';

const defaultIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

export const USAGE = `Usage: eventor-bot <command> [options]

Commands:
  start
      Run the Discord bot (configuration from the environment or .env; see .env.example).
  tick
      Run every turned-on automatic post once, now, and exit (same configuration as start).
  deploy-commands [--guild ID]
      Register the slash commands with Discord, globally or in one server (immediate).
  sandbox [--port N] [--seed S] [--size small|large] [--discord]
      Start the loopback sandbox Eventor; prints EVENTOR_BASE_URL and EVENTOR_API_KEY.
      --discord: a sandbox Discord too, with a server, a channel and a member; prints
      the variables to paste into .env to try 'start' without a Discord account.
  query <operation> [--<parameter> <value> ...] [--raw]
      Call one Eventor operation with the configured key (EVENTOR_INSTANCE or
      EVENTOR_BASE_URL, and EVENTOR_API_KEY, from the environment or .env) and print
      the normalised result as JSON. 'eventor-bot query --list' lists the operations.
  parse <file> [--time-zone ZONE]
      Parse an Eventor native or IOF XML 3.0 file and print the normalised JSON.
  help
      Show this text.
  --version
      Print the version.
`;

/** The version in the package's own package.json, found from here in src/ or in dist/. */
export function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url), depth = 0; depth < 5; dir = new URL('..', dir), depth++) {
    const file = new URL('package.json', dir);
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'eventor-bot' && pkg.version) return pkg.version;
  }
  return 'unknown';
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'sandbox':
        return await (await import('./sandbox.js')).runSandbox(parseFlags(rest), io);
      case 'query':
        return await (await import('./query.js')).runQuery(parseFlags(rest), io);
      case 'parse':
        return await (await import('./parse.js')).runParse(parseFlags(rest), io);
      case 'start':
        return await (await import('./start.js')).runStart(parseFlags(rest), io);
      case 'tick':
        return await (await import('./tick.js')).runTick(parseFlags(rest), io);
      case 'deploy-commands':
        return await (await import('./deploy-commands.js')).runDeployCommands(parseFlags(rest), io);
      case '--version':
      case 'version':
        io.out(`eventor-bot ${packageVersion()}\n`);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.err(`eventor-bot: unknown command '${command}'\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`eventor-bot ${command}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(`${error.message}\n`);
      return 2;
    }
    // Anything else is still one line for the operator; the trace only when asked for.
    const env = io.env ?? process.env;
    const debug = env.LOG_LEVEL?.trim().toLowerCase() === 'debug';
    io.err(
      `eventor-bot ${command}: ${oneLine(error)}\n${debug && error instanceof Error && error.stack ? `${error.stack}\n` : ''}`,
    );
    return 1;
  }
}
