/**
 * The Discord half of the demo: both sandboxes in this process, the real bot as its own process
 * (`eventor-bot start`, configured only through its environment, as an operator would), and a
 * scripted session of members using the commands. Prints what Discord would show.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../bot/deploy.js';
import {
  renderInteractionText,
  renderMessageText,
  renderTimestamps,
  type SandboxDiscord,
  startSandboxDiscord,
  type TimestampReader,
} from '../sandbox/discord/index.js';
import type { SandboxUser } from '../sandbox/discord/types.js';
import type { SandboxDataset, SandboxEvent } from '../sandbox/eventor/dataset.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import { Store } from '../store/store.js';

/** Ids from the sandbox's data that the scripted steps refer to. */
export interface DemoFacts {
  upcomingEventId: string;
  startListEventId: string;
  resultsEventId: string;
  activityId: string;
  linkedPersonId: string;
}

export interface DemoStep {
  who: 'member' | 'swedishMember' | 'admin';
  locale: string;
  name: string;
  subcommand?: string;
  options?: (facts: DemoFacts) => Record<string, string | number | boolean>;
  /** Show the direct message the bot sent the member (one-time links masked). */
  showDm?: boolean;
}

/** The package's own program, found from here whether this runs compiled (dist/) or from source. */
function programPath(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'bin', 'eventor-bot.js');
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('cannot find bin/eventor-bot.js above the demo');
}

/**
 * Discord shows `<t:…>` in the reader's language and zone, and `<#id>`, `<@id>` as names; so does
 * the transcript. The reader's locale is the Discord locale of the member who reads the message.
 */
export function humanize(text: string, reader: TimestampReader, names: ReadonlyMap<string, string>): string {
  return renderTimestamps(text, reader)
    .replace(/<#(\d+)>/g, (whole, id: string) => (names.has(id) ? `#${names.get(id)}` : whole))
    .replace(/<@!?(\d+)>/g, (whole, id: string) => (names.has(id) ? `@${names.get(id)}` : whole));
}

async function waitForReady(bot: ChildProcess, timeoutMs: number, stderr: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bot did not log in within ${timeoutMs / 1000} s`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      stderr.push(text);
      if (text.includes('"msg":"bot ready"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    bot.stderr?.on('data', onData);
    bot.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bot exited with code ${code} before it was ready:\n${stderr.join('').slice(-2000)}`));
    });
  });
}

export interface BotSessionOptions {
  /** The moment the sandbox data is made around (default: now); the bot and the sandbox clock run in real time. */
  dataAround?: Date;
  /** Told the sandbox data as the session starts. */
  onDataset?: (dataset: SandboxDataset) => void;
}

export async function runBotSession(
  steps: readonly DemoStep[],
  write: (line: string) => void,
  options: BotSessionOptions = {},
): Promise<{ answered: number; total: number }> {
  const eventor = await startSandboxEventor({
    port: 0,
    ...(options.dataAround ? { dataAround: options.dataAround } : {}),
  });
  options.onDataset?.(eventor.dataset);
  const discord: SandboxDiscord = await startSandboxDiscord({ port: 0 });
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-demo-'));
  let bot: ChildProcess | null = null;
  let answered = 0;
  try {
    const guild = discord.createGuild({ name: eventor.dataset.homeClub.name, preferredLocale: 'sv-SE' });
    const channel = discord.createTextChannel(guild.id, { name: 'allmänt' });
    const users: Record<DemoStep['who'], SandboxUser> = {
      member: discord.createMember(guild.id, { username: 'astrid', globalName: 'Astrid', locale: 'en-GB' }),
      swedishMember: discord.createMember(guild.id, { username: 'sven', globalName: 'Sven', locale: 'sv-SE' }),
      admin: discord.createMember(guild.id, {
        username: 'kassoren',
        globalName: 'Kassören',
        locale: 'sv-SE',
        manageGuild: true,
      }),
    };
    // What Discord shows for <#channel> and <@user> mentions.
    const channelNames = new Map<string, string>([
      [channel.id, channel.name ?? 'allmänt'],
      ...Object.values(users).map((u): [string, string] => [u.id, u.username]),
    ]);
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS, guildId: guild.id });
    const facts = demoFacts(eventor.dataset, Date.now());
    const databasePath = path.join(dir, 'eventor-bot.sqlite');
    const secretKey = 'demo-secret-key-not-for-production-use';
    // Linking is its own feature; the demo starts with Astrid already linked to her Eventor person, as
    // /link eventor (her own Eventor user name and password) would have linked her.
    const store = Store.open(databasePath, secretKey);
    store.linkPerson(guild.id, users.member.id, facts.linkedPersonId, 'credentials');
    store.close();

    const stderr: string[] = [];
    bot = spawn(process.execPath, [programPath(), 'start'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.restUrl,
        EVENTOR_BASE_URL: eventor.baseUrl,
        EVENTOR_API_KEY: eventor.apiKey,
        EVENTOR_DEFAULT_GUILDS: guild.id,
        DATABASE_PATH: databasePath,
        SECRET_KEY: secretKey,
        DEFAULT_TIME_ZONE: 'Europe/Stockholm',
        LOG_LEVEL: 'info',
      },
    });
    await waitForReady(bot, 30_000, stderr);
    write(
      `The bot runs as its own process (pid ${bot.pid}), logged in to the sandbox Discord; server "${guild.name}", channel #${channelNames.get(channel.id)}.`,
    );

    for (const step of steps) {
      const dmsBefore = discord.dms(users[step.who]).length;
      const handle = discord.runCommand({
        guildId: guild.id,
        channelId: channel.id,
        user: users[step.who],
        locale: step.locale,
        name: step.name,
        ...(step.subcommand ? { subcommand: step.subcommand } : {}),
        ...(step.options ? { options: step.options(facts) } : {}),
      });
      write(`\n── ${renderInteractionText(handle.payload)}  [${step.locale}]`);
      try {
        const reply = await handle.reply({ timeoutMs: 20_000 });
        // The member who ran the command reads the answer, in their own Discord language.
        const reader: TimestampReader = { locale: step.locale, timeZone: 'Europe/Stockholm', now: Date.now() };
        write(indent(humanize(renderMessageText(reply, { reader }), reader, channelNames)));
        if (step.showDm) {
          const user = users[step.who];
          await discord.waitForDm(user, () => discord.dms(user).length > dmsBefore, { timeoutMs: 20_000 });
          const dm = discord.dms(user).at(-1)!;
          write(`\n── direct message to ${user.username}:`);
          write(indent(maskLoginLinks(humanize(renderMessageText(dm, { reader }), reader, channelNames))));
        }
        answered++;
      } catch (error) {
        write(`   NO ANSWER: ${(error as Error).message}`);
      }
    }
  } finally {
    if (bot && bot.exitCode === null) {
      const exited = new Promise((resolve) => bot!.once('exit', resolve));
      bot.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (bot.exitCode === null) bot.kill('SIGKILL');
    }
    await discord.close();
    await eventor.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { answered, total: steps.length };
}

/** Picks, from the sandbox's data, events and a member that make every command show something. */
export function demoFacts(dataset: SandboxDataset, now: number): DemoFacts {
  const home = dataset.homeClub.id;
  const startOf = (e: SandboxEvent) => Date.parse(e.event.start ?? '');
  const clubIn = (e: SandboxEvent, list: 'startList' | 'resultList') =>
    (dataset.details(e)[list]?.classes ?? []).some((c) => c.persons.some((p) => p.organisation?.id === home));
  const upcoming = dataset.events
    .filter((e) => startOf(e) > now && e.event.status !== 'canceled')
    .sort((a, b) => startOf(a) - startOf(b));
  const withEntries =
    upcoming.find((e) => dataset.entriesAt(e).some((x) => x.competitor?.organisation?.id === home)) ?? upcoming[0];
  const withStarts = upcoming.find((e) => dataset.hasStartList(e.id) && clubIn(e, 'startList'));
  const past = dataset.events
    .filter(
      (e) => startOf(e) < now && dataset.hasResults(e.id) && e.event.races.length === 1 && clubIn(e, 'resultList'),
    )
    .sort((a, b) => startOf(b) - startOf(a));
  const results = past[0];
  if (!withEntries || !withStarts || !results) throw new Error('the sandbox data lacks an event the demo needs');
  const runner = dataset
    .details(results)
    .resultList!.classes.flatMap((c) => c.persons)
    .find((p) => p.organisation?.id === home && p.person?.id);
  const activity =
    dataset.activities.find((a) => a.organisationId === home && Date.parse(a.startTime ?? '') > now) ??
    dataset.activities[0];
  if (!runner?.person?.id || !activity)
    throw new Error('the sandbox data lacks a member or an activity the demo needs');
  return {
    upcomingEventId: withEntries.id,
    startListEventId: withStarts.id,
    resultsEventId: results.id,
    activityId: activity.id,
    linkedPersonId: runner.person.id,
  };
}

/** Login links log their holder in: even the sandbox's are not printed. */
function maskLoginLinks(text: string): string {
  return text.replace(/https?:\/\/\S+\/login\/[A-Za-z0-9_-]+/g, '(one-time login link)');
}

/** The transcript's indentation of what Discord shows. */
export function indent(lines: string | readonly string[], by = '   '): string {
  return (typeof lines === 'string' ? lines.split('\n') : lines).map((line) => `${by}${line}`).join('\n');
}
