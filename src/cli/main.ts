/**
 * The `eventor-bot` command line. Exit codes (exit-codes.ts): 0 success, 1 a failure at run time
 * that may pass, 2 a usage or configuration mistake, or another a restart cannot fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from '../config/errors.js';
import { type ParsedArgs, parseFlags, UsageError } from './args.js';
import { type Io, oneLine } from './io.js';

export type { Io } from './io.js';

const defaultIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** One command of the command line: how it is written, what it does, and its own `--help`. */
interface Command {
  /** What follows `eventor-bot`: the command and its arguments. */
  synopsis: string;
  /** The lines under it in the overview (USAGE). */
  summary: string;
  /** The rest of its own `--help`: options and notes. */
  details?: string;
  run?: CommandRunner;
  /** Run by the harness beside the product (the sandboxes): its runner comes from `main`'s caller. */
  harness?: true;
}

export type CommandRunner = (args: ParsedArgs, io: Io) => Promise<number>;

/** Every command, in the order the overview lists them; `eventor-bot <name> --help` prints one. */
export const CLI_COMMANDS: Readonly<Record<string, Command>> = {
  start: {
    synopsis: 'start [--init-database] [--processes N]',
    summary: 'Run the Discord bot (configuration from the environment or .env; see .env.example).',
    details: `Runs until SIGTERM or SIGINT (Ctrl+C): interactions in flight finish, "bot stopped" is
logged and it exits 0. The database is created on the first start and migrated on upgrades.

Options:
  --init-database  Take an existing empty (0-byte) database file as a new database
                   (the same as DATABASE_INIT=1).
  --processes N    Run the bot as N processes (1 to 32), each with its share of the gateway
                   shards (SHARD_COUNT, default N): started one after another, started again
                   when one dies, all stopped by one SIGTERM or SIGINT.`,
    run: async (args, io) => (await import('./start.js')).runStart(args, io),
  },
  tick: {
    synopsis: 'tick [--init-database]',
    summary: 'Run every turned-on automatic post once, now, and exit (same configuration as start).',
    details: `Safe beside a running bot: nothing is posted twice. Exit 1 when a run failed (the log says
which), so that cron sees it.

Options:
  --init-database  As for start.`,
    run: async (args, io) => (await import('./tick.js')).runTick(args, io),
  },
  'deploy-commands': {
    synopsis: 'deploy-commands [--guild ID]',
    summary: 'Register the slash commands with Discord, globally or in one server (immediate).',
    details: `Needs DISCORD_TOKEN. Global commands can take up to an hour to appear; --guild is immediate.
Prints the invite URL when done (see 'eventor-bot invite').

Options:
  --guild ID  Register in this server only (its id: 17 to 20 digits).`,
    run: async (args, io) => (await import('./deploy-commands.js')).runDeployCommands(args, io),
  },
  invite: {
    synopsis: 'invite [--application-id ID]',
    summary: 'Print the URL that adds the bot to a server, with exactly the permissions it needs.',
    details: `The application id comes from DISCORD_APPLICATION_ID (environment or .env) or the option
(Discord Developer Portal > your application > General Information > Application ID).
Needs no token and no network.

Options:
  --application-id ID  The application id (17 to 20 digits); overrides DISCORD_APPLICATION_ID.`,
    run: async (args, io) => (await import('./invite.js')).runInvite(args, io),
  },
  health: {
    synopsis: 'health',
    summary: 'Say whether the running bot is healthy, from its heartbeats: exit 0 if so, 1 if not.',
    details: `Reads the heartbeat each running process records every 30 s in the database (DATABASE_PATH
or DATABASE_URL) and prints one line: "healthy: ..." (exit 0), or "unhealthy: ..." naming each
process that is stopped, silent for 90 s, without its Discord gateway, whose automatic posts
stopped, or that Discord or Eventor fail for long (exit 1). With SHARDS set, only that process.
For Docker's HEALTHCHECK, systemd timers and monitoring (docs/operators.md#monitoring).`,
    run: async (args, io) => (await import('./health.js')).runHealth(args, io),
  },
  backup: {
    synopsis: 'backup <file>',
    summary: 'Copy the database (DATABASE_PATH) to <file>, safely while the bot runs.',
    details: `Uses SQLite's online backup: a consistent copy even while the bot writes. Refuses to
overwrite an existing file; the copy is readable by its owner only (mode 0600).
Keep SECRET_KEY with the backup: the Eventor keys in it are sealed with it.`,
    run: async (args, io) => (await import('./backup.js')).runBackup(args, io),
  },
  migrate: {
    synopsis: 'migrate --to postgres|sqlite',
    summary: 'Copy the database: SQLite (DATABASE_PATH) into an empty PostgreSQL (DATABASE_URL), or back.',
    details: `Stop the bot first. --to postgres copies every table of the SQLite file DATABASE_PATH into
the PostgreSQL database DATABASE_URL names, which must be empty, in one transaction with every id
kept. --to sqlite copies that PostgreSQL database into a new file DATABASE_PATH (it must not exist).
Sealed Eventor keys are copied as they are: keep the same SECRET_KEY.

Options:
  --to postgres|sqlite  Which database to copy into.`,
    run: async (args, io) => (await import('./migrate.js')).runMigrate(args, io),
  },
  sandbox: {
    synopsis: 'sandbox [--port N] [--seed S] [--size small|large] [--now INSTANT] [--discord] [--live]',
    summary: `Start the loopback sandbox Eventor; prints EVENTOR_BASE_URL and EVENTOR_API_KEY.
--discord: a sandbox Discord too, with a server, a channel and a member; prints
the variables to paste into .env to try 'start' without a Discord account.
--live: a sandbox LiveResultat of the same races; prints LIVERESULTAT_URL and
LIVERESULTAT_LEGACY_URL.`,
    details: `Runs until SIGTERM or SIGINT (Ctrl+C).

Options:
  --port N            The port (default: a free one).
  --seed S            The seed of the made-up data (0 to 4294967295).
  --size small|large  How much data (default small).
  --now INSTANT       Make the data around this instant (e.g. 2026-11-18T09:00:00Z)
                      and run the clock from it; prints SANDBOX_CLOCK for the bot.
  --discord           A sandbox Discord beside it.
  --live              A sandbox LiveResultat beside it (both APIs), its races running on
                      the same clock.`,
    // The sandboxes are not the product (docs/decisions/harness.md): the launcher hands in their
    // runner (`bin/eventor-bot.js`, `main`'s `runners`), so the words are here and the code is not.
    harness: true,
  },
  query: {
    synopsis: 'query <operation> [--<parameter> <value> ...] [--raw]',
    summary: `Call one Eventor operation with the configured key (EVENTOR_INSTANCE or
EVENTOR_BASE_URL, and EVENTOR_API_KEY, from the environment or .env) and print
the normalised result as JSON. 'eventor-bot query --list' lists the operations.`,
    details: `Options:
  --list               List the operations and their parameters.
  --<parameter> VALUE  A parameter of the operation, by its API name (e.g. --fromDate 2026-05-01).
  --raw                For the IOF XML operations (start and result lists): print the IOF XML
                       as Eventor sent it instead of the normalised JSON.`,
    run: async (args, io) => (await import('./query.js')).runQuery(args, io),
  },
  parse: {
    synopsis: 'parse <file> [--time-zone ZONE]',
    summary: 'Parse an Eventor native or IOF XML 3.0 file and print the normalised JSON.',
    details: `Options:
  --time-zone ZONE  The IANA zone of the times in a native file (e.g. Europe/Stockholm).`,
    run: async (args, io) => (await import('./parse.js')).runParse(args, io),
  },
  splits: {
    synopsis: 'splits <file> [--class NAME] [--json]',
    summary: `Analyse the split times of a result list file (IOF XML 3.0 or Eventor native): leg
times and ranks, best legs, the ideal time, time behind it and estimated time lost.`,
    details: `Runners are compared with those who ran the same controls in the same order; a forked
class shows one table per course. A mistake (!) is a leg at least 20 s and 10 % slower
than the runner's own pace predicts. Times are in seconds in the JSON.

Options:
  --class NAME  Only this class (its name as in the file, any case).
  --json        Print the analysis as JSON instead of text tables.`,
    run: async (args, io) => (await import('./splits.js')).runSplits(args, io),
  },
  cup: {
    synopsis: 'cup <files...> --club NAME-OR-ID --scoring winner-ratio|place [--best N] [--json]',
    summary: `Score a club cup over result list files (IOF XML 3.0 or Eventor native), one race per
file, each race of a multi-race file apart (docs/season.md).`,
    details: `winner-ratio: an OK runner gets round(100 × W / T), T their time and W the best OK time in
their class in that race; place: 25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 for places
1 to 15 (ties share a place), then 1 for every other OK runner. Any other status gets 0; relays
do not count. A runner's total is their best N races (all without --best); equal totals share
a rank. A runner is the same person in two files when their name ("Given Family") is the same.

Options:
  --club NAME-OR-ID  The club: its id, name or short name as the files write it.
  --scoring S        winner-ratio or place.
  --best N           Count each runner's best N races only.
  --json             {"scoring","best","races":[{"file","event","race","date"}],
                     "standings":[{"rank","name","points","races","counted":[{"race","points"}]}]}
                     where "race" in "counted" is the index into "races".`,
    run: async (args, io) => (await import('./cup.js')).runCup(args, io),
  },
  live: {
    synopsis: 'live --competition ID --club NAME [--base-url URL] [--legacy-url URL] [--source rest|legacy] [--json]',
    summary: `Print a club's runners in a LiveResultat competition once: class, start, status, place,
time, time behind and the last radio control (LIVERESULTAT_URL and LIVERESULTAT_LEGACY_URL).`,
    details: `The REST API is read first, api.php when it fails (both have the same competition ids).
The club is matched as LiveResultat writes it or in a longer or shorter form ("OK" for
"Orienteringsklubb"); relay teams ("Granskogens OK 2") count as the club.

Options:
  --competition ID   The competition's id, or its LiveResultat address.
  --club NAME        The club.
  --base-url URL     The REST API (default LIVERESULTAT_URL, else the public service).
  --legacy-url URL   api.php (default LIVERESULTAT_LEGACY_URL, else the public service).
  --source rest|legacy  Read only this API.
  --json             JSON: competition (id, name, date, timezone), club, and runners (name,
                     class, status, start HH:MM:SS, time, place, behind, lastControl), by
                     class, place and name; times in whole seconds.`,
    run: async (args, io) => (await import('./live.js')).runLive(args, io),
  },
  help: {
    synopsis: 'help [command]',
    summary: "Show this text, or one command's (the same as 'eventor-bot <command> --help').",
  },
  '--version': {
    synopsis: '--version',
    summary: 'Print the version.',
  },
};

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => (line ? `${by}${line}` : line))
    .join('\n');

/** The overview: every command with its summary. */
export const USAGE = `Usage: eventor-bot <command> [options]

Commands:
${Object.values(CLI_COMMANDS)
  .map((c) => `  ${c.synopsis}\n${indent(c.summary, '      ')}\n`)
  .join('')}
'eventor-bot <command> --help' shows one command's options.
`;

/** One command's own help text. */
export function commandUsage(name: string): string {
  const command = CLI_COMMANDS[name]!;
  return `Usage: eventor-bot ${command.synopsis}\n\n${command.summary}\n${command.details ? `\n${command.details}\n` : ''}`;
}

/** `--help` or `-h` among a command's arguments. */
function asksForHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

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

/**
 * Runs one command. `runners`: the commands of the harness beside the product (the `sandbox`
 * command), which the launcher hands in; without one such a command says it is not installed.
 */
export async function main(
  argv: string[],
  io: Io = defaultIo,
  runners: Readonly<Record<string, CommandRunner>> = {},
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      io.out(USAGE);
      return 2;
    }
    if (command === '--version' || command === 'version') {
      io.out(`eventor-bot ${packageVersion()}\n`);
      return 0;
    }
    if (command === 'help' || command === '--help' || command === '-h') {
      const about = rest[0];
      if (about === undefined || about === '--help' || about === '-h') {
        io.out(USAGE);
        return 0;
      }
      if (!Object.hasOwn(CLI_COMMANDS, about)) {
        io.err(`eventor-bot help: unknown command '${about}'\n\n${USAGE}`);
        return 2;
      }
      io.out(commandUsage(about));
      return 0;
    }
    const entry = Object.hasOwn(CLI_COMMANDS, command) ? CLI_COMMANDS[command] : undefined;
    const run = entry?.harness ? (Object.hasOwn(runners, command) ? runners[command] : undefined) : entry?.run;
    if (entry === undefined || (run === undefined && !entry.harness)) {
      io.err(`eventor-bot: unknown command '${command}'\n\n${USAGE}`);
      return 2;
    }
    if (asksForHelp(rest)) {
      io.out(commandUsage(command));
      return 0;
    }
    if (run === undefined) {
      io.err(
        `eventor-bot ${command}: not part of this installation (it comes with the sandboxes: run it from a clone)\n`,
      );
      return 2;
    }
    return await run(parseFlags(rest), io);
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
