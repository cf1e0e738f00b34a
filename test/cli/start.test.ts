import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import { parseFlags } from '../../src/cli/args.js';
import { type Io, main } from '../../src/cli/main.js';
import { runStart } from '../../src/cli/start.js';
import { renderMessageText, type SandboxDiscord } from '../../harness/sandbox/discord/index.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

function capture(env: NodeJS.ProcessEnv): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    env,
    stdout: () => out,
    stderr: () => err,
  };
}

describe('eventor-bot start and deploy-commands', () => {
  let setup: OperatorSetup;
  let eventor: SandboxEventor;
  let discord: SandboxDiscord;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let SECRET: string;

  beforeAll(async () => {
    setup = await startOperatorSetup('start', path.join('data', 'bot.sqlite'));
    ({ eventor, discord, dir, env, secretKey: SECRET } = setup);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('deploy-commands registers every command in one server', async () => {
    const guild = discord.createGuild({ name: 'Deploy OK' });
    const io = capture(env);
    expect(await main(['deploy-commands', '--guild', guild.id], io)).toBe(0);
    expect(io.stdout()).toContain(`Registered ${COMMANDS.length} commands`);
    expect(
      discord
        .commands({ guildId: guild.id })
        .map((c) => c.name)
        .sort(),
    ).toEqual(COMMANDS.map((c) => c.definition.name).sort());
    const bad = capture(env);
    expect(await main(['deploy-commands', '--guild', 'abc'], bad)).toBe(2);
    expect(bad.stderr()).toContain('--guild');
  });

  it('runs, answers commands, and on the stop signal finishes and closes the database', async () => {
    const guild = discord.createGuild({ name: 'Start OK' });
    env.EVENTOR_DEFAULT_GUILDS = guild.id;
    const channel = discord.createTextChannel(guild.id, { name: 'general' });
    const member = discord.createMember(guild.id, { username: 'runner', locale: 'en-US' });
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS, guildId: guild.id });
    const io = capture(env);
    let stop!: () => void;
    const running = runStart(
      parseFlags([]),
      io,
      new Promise<void>((resolve) => {
        stop = resolve;
      }),
    );
    const deadline = Date.now() + 15_000;
    while (!io.stderr().includes('"msg":"bot ready"') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect(io.stderr()).toContain('"msg":"bot ready"');
    const reply = await discord
      .runCommand({ guildId: guild.id, channelId: channel.id, user: member, name: 'status' })
      .reply({ timeoutMs: 10_000 });
    expect(renderMessageText(reply)).toContain(eventor.dataset.homeClub.name);
    stop();
    expect(await running).toBe(0);
    expect(io.stderr()).toContain('"msg":"bot stopped"');
    expect(io.stderr()).not.toContain(discord.token);
    expect(io.stderr()).not.toContain(eventor.apiKey);
    // The database was closed cleanly: it opens again, with its schema.
    const store = await openSqliteStore(env.DATABASE_PATH!, SECRET);
    expect(await store.servers.guildSettings('nobody')).toBeNull();
    await store.close();
  });

  it('refuses a damaged database with a clear message instead of starting empty', async () => {
    const file = path.join(dir, 'damaged.sqlite');
    await writeFile(file, 'not a database '.repeat(1000));
    const io = capture({ ...env, DATABASE_PATH: file });
    expect(await runStart(parseFlags([]), io, Promise.resolve())).toBe(2);
    expect(io.stderr()).toMatch(/damaged\.sqlite.*(damaged|not a database)/);
  });

  it('names every configuration problem and exits 2', async () => {
    const io = capture({ DISCORD_TOKEN: '', SECRET_KEY: 'short' });
    expect(await main(['start'], io)).toBe(2);
    expect(io.stderr()).toContain('DISCORD_TOKEN');
    expect(io.stderr()).toContain('SECRET_KEY');
  });

  it('a DISCORD_APPLICATION_ID of another application than the token is said at start, exit 2', async () => {
    const other = '123456789012345678';
    const io = capture({ ...env, DISCORD_APPLICATION_ID: other, DATABASE_PATH: path.join(dir, 'app-id.sqlite') });
    expect(await main(['start'], io)).toBe(2);
    expect(io.stderr()).toBe(
      `Configuration problem: DISCORD_APPLICATION_ID is ${other}, but DISCORD_TOKEN belongs to application ${discord.applicationId}: ` +
        `set DISCORD_APPLICATION_ID=${discord.applicationId}, or use the token of application ${other}\n`,
    );
    // The right one starts (and stops at once: `until` is already resolved).
    const right = capture({
      ...env,
      DISCORD_APPLICATION_ID: discord.applicationId,
      DATABASE_PATH: path.join(dir, 'app-id.sqlite'),
    });
    expect(await runStart(parseFlags([]), right, Promise.resolve())).toBe(0);
    expect(right.stderr()).toContain('"msg":"bot ready"');
  });

  it('reports a refused Discord token without a stack trace, exit 2: a restart cannot fix it', async () => {
    const io = capture({ ...env, DISCORD_TOKEN: 'sandbox.wrong-token', DATABASE_PATH: path.join(dir, 'other.sqlite') });
    expect(await runStart(parseFlags([]), io, Promise.resolve())).toBe(2);
    expect(io.stderr()).toContain('Discord refused');
  });
});
