import { clockFrom, sandboxClockFromEnv } from '../../src/config/sandbox-clock.js';
import { startSandboxDiscord } from '../sandbox/discord/index.js';
import { type SandboxLiveResultat, startSandboxLiveResultat } from '../sandbox/liveresultat/index.js';
import { type SandboxEventor, startSandboxEventor } from '../sandbox/eventor/server.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, takeString, UsageError } from '../../src/cli/args.js';
import type { Io } from '../../src/cli/io.js';

function wholeNumber(name: string, text: string | undefined, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new UsageError(`--${name} must be a whole number from 0 to ${max}`);
  return Number(text);
}

/** `--now`: an instant with its zone (the form SANDBOX_CLOCK takes), or undefined when not given. */
function instant(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const problems: string[] = [];
  // The same check as the bot's: what --now accepts, SANDBOX_CLOCK accepts.
  const at = sandboxClockFromEnv({ SANDBOX_CLOCK: text }, ['http://127.0.0.1/'], problems);
  if (at === undefined) throw new UsageError('--now must be an instant with its zone, e.g. 2026-11-18T09:00:00Z');
  return at;
}

/** Serves the sandbox Eventor until SIGINT or SIGTERM. */
export async function runSandbox(
  args: ParsedArgs,
  io: Io,
  until: Promise<unknown> = shutdownSignal(),
): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const port = wholeNumber('port', takeString(args.flags, 'port'), 65_535) ?? 0;
  const seed = wholeNumber('seed', takeString(args.flags, 'seed'), 2 ** 32 - 1);
  const size = takeString(args.flags, 'size') ?? 'small';
  if (size !== 'small' && size !== 'large') throw new UsageError('--size must be small or large');
  const withDiscord = takeBoolean(args.flags, 'discord');
  const withLive = takeBoolean(args.flags, 'live');
  const now = instant(takeString(args.flags, 'now'));
  rejectLeftovers(args.flags);
  // With --now the data is made around that instant and the sandbox's clock runs on from it, and
  // the bot is told the same (SANDBOX_CLOCK): one seed, the same races whatever the day.
  const clock = now === undefined ? undefined : clockFrom(now);

  let sandbox: SandboxEventor;
  try {
    sandbox = await startSandboxEventor({
      port,
      size,
      ...(seed === undefined ? {} : { seed }),
      ...(clock === undefined ? {} : { now: clock }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      io.err(
        `eventor-bot sandbox: port ${port} is already in use; pick another with --port, or leave --port out for a free one\n`,
      );
      return 1;
    }
    throw error;
  }
  const clockLine = now === undefined ? '' : `SANDBOX_CLOCK=${now.toISOString()}\n`;
  // LiveResultat over the same races on the same clock (docs/live-results.md#the-sandbox).
  const live: SandboxLiveResultat | null = withLive
    ? await startSandboxLiveResultat({ dataset: sandbox.dataset, ...(clock === undefined ? {} : { now: clock }) })
    : null;
  const liveLines =
    live === null ? '' : `LIVERESULTAT_URL=${live.restUrl}\nLIVERESULTAT_LEGACY_URL=${live.legacyUrl}\n`;
  if (!withDiscord) {
    io.out(`EVENTOR_BASE_URL=${sandbox.baseUrl}\nEVENTOR_API_KEY=${sandbox.apiKey}\n${liveLines}${clockLine}`);
    await until;
    await live?.close();
    await sandbox.close();
    return 0;
  }
  // A Discord of its own beside it (REST and gateway on a free port), with a server, a channel and
  // a member, so that `start` can be tried without a Discord account.
  const discord = await startSandboxDiscord({
    port: 0,
    ...(clock === undefined ? {} : { now: () => clock().getTime() }),
  });
  try {
    const guild = discord.createGuild({ name: sandbox.dataset.homeClub.name });
    const channel = discord.createTextChannel(guild.id, { name: 'general' });
    const member = discord.createMember(guild.id, { username: 'member', globalName: 'A member', manageGuild: true });
    io.out(
      [
        '# Paste into .env (with SECRET_KEY), then run: eventor-bot start',
        `EVENTOR_BASE_URL=${sandbox.baseUrl}`,
        `EVENTOR_API_KEY=${sandbox.apiKey}`,
        `DISCORD_TOKEN=${discord.token}`,
        `DISCORD_API_URL=${discord.restUrl}`,
        `EVENTOR_DEFAULT_GUILDS=${guild.id}`,
        ...(live === null ? [] : [`LIVERESULTAT_URL=${live.restUrl}`, `LIVERESULTAT_LEGACY_URL=${live.legacyUrl}`]),
        ...(now === undefined ? [] : [`SANDBOX_CLOCK=${now.toISOString()}`]),
        `# Server '${guild.name}' ${guild.id}, channel #${channel.name} ${channel.id}, member ${member.username} ${member.id} (may manage the server)`,
        '',
      ].join('\n'),
    );
    await until;
  } finally {
    await discord.close();
    await live?.close();
    await sandbox.close();
  }
  return 0;
}

function shutdownSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}
