/**
 * The Discord half of the demo: both sandboxes in this process, the real bot as its own process
 * (`eventor-bot start`, configured only through its environment, as an operator would), and a
 * scripted session of members using the commands. Prints what Discord would show.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deployCommands } from '../bot/deploy.js';
import { COMMANDS } from '../../commands/index.js';
import { renderInteractionText, renderMessageText, startSandboxDiscord, type SandboxDiscord } from '../sandbox/discord/index.js';
import type { SandboxUser } from '../sandbox/discord/types.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';

export interface DemoStep {
  who: 'member' | 'swedishMember' | 'admin';
  locale: string;
  name: string;
  subcommand?: string;
  options?: Record<string, string | number | boolean>;
  /** Click this button (by label) on the reply afterwards, and show the result too. */
  thenClick?: string;
}

const BIN = fileURLToPath(new URL('../../../bin/eventor-bot.js', import.meta.url));

/** Discord shows `<t:…>` in the reader's zone and `<#id>` as the channel's name; so does the transcript. */
export function humanize(text: string, timeZone: string, channelNames: ReadonlyMap<string, string>): string {
  const full = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium' });
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone, timeStyle: 'short' });
  return text
    .replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, seconds: string, style: string | undefined) => {
      const at = new Date(Number(seconds) * 1000);
      if (style === 'd' || style === 'D') return date.format(at);
      if (style === 't' || style === 'T') return clock.format(at);
      return full.format(at);
    })
    .replace(/<#(\d+)>/g, (whole, id: string) => (channelNames.has(id) ? `#${channelNames.get(id)}` : whole));
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

export async function runBotSession(steps: readonly DemoStep[], write: (line: string) => void): Promise<{ answered: number; total: number }> {
  const eventor = await startSandboxEventor({ port: 0 });
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
      admin: discord.createMember(guild.id, { username: 'kassoren', globalName: 'Kassören', locale: 'sv-SE', manageGuild: true }),
    };
    const channelNames = new Map([[channel.id, channel.name ?? 'allmänt']]);
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS, guildId: guild.id });

    const stderr: string[] = [];
    bot = spawn(process.execPath, [BIN, 'start'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.restUrl,
        EVENTOR_BASE_URL: eventor.baseUrl,
        EVENTOR_API_KEY: eventor.apiKey,
        DATABASE_PATH: path.join(dir, 'eventor-bot.sqlite'),
        SECRET_KEY: 'demo-secret-key-not-for-production-use',
        DEFAULT_TIME_ZONE: 'Europe/Stockholm',
        LOG_LEVEL: 'info',
      },
    });
    await waitForReady(bot, 30_000, stderr);
    write(`The bot runs as its own process (pid ${bot.pid}), logged in to the sandbox Discord; server "${guild.name}", channel #${channelNames.get(channel.id)}.`);

    for (const step of steps) {
      const handle = discord.runCommand({
        guildId: guild.id,
        channelId: channel.id,
        user: users[step.who],
        locale: step.locale,
        name: step.name,
        ...(step.subcommand ? { subcommand: step.subcommand } : {}),
        ...(step.options ? { options: step.options } : {}),
      });
      write(`\n── ${renderInteractionText(handle.payload)}  [${step.locale}]`);
      try {
        const reply = await handle.reply({ timeoutMs: 20_000 });
        write(indent(humanize(renderMessageText(reply), 'Europe/Stockholm', channelNames)));
        if (step.thenClick) {
          const button = findButton(reply, step.thenClick);
          if (!button) throw new Error(`no button labelled ${step.thenClick}`);
          const click = discord.clickButton({ message: reply, customId: button, user: users[step.who], locale: step.locale });
          write(`\n── ${renderInteractionText(click.payload)}`);
          const after = await click.reply({ timeoutMs: 20_000 });
          write(indent(humanize(renderMessageText(after), 'Europe/Stockholm', channelNames)));
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

function indent(text: string): string {
  return text.split('\n').map((line) => `   ${line}`).join('\n');
}

function findButton(message: { components?: Array<{ components?: Array<{ label?: string; custom_id?: string }> }> }, label: string): string | null {
  for (const row of message.components ?? []) {
    for (const c of row.components ?? []) if (c.label?.includes(label) && c.custom_id) return c.custom_id;
  }
  return null;
}
