import { createServer } from 'node:net';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_PERMISSIONS } from '../../src/bot/invite.js';
import { main } from '../../src/cli/main.js';
import { POST_PERMISSION_BITS } from '../../src/feeds/delivery/post-channels.js';
import { SCHEDULED_EVENT_PERMISSIONS } from '../../src/feeds/kinds/calendar/permissions.js';
import { type SandboxDiscord, startSandboxDiscord } from '../../harness/sandbox/discord/index.js';
import { capture } from '../support/cli-process.js';

const APP = '123456789012345678';
/** What the bot's features need, written out here on purpose: the product's list must say the same. */
const NEEDED =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.CreateEvents |
  PermissionFlagsBits.ManageEvents;

function inviteOf(text: string): URL {
  const url = new URL(text.trim());
  expect(`${url.origin}${url.pathname}`).toBe('https://discord.com/oauth2/authorize');
  return url;
}

describe('eventor-bot invite', () => {
  let discord: SandboxDiscord;
  beforeAll(async () => {
    discord = await startSandboxDiscord({ port: 0 });
  });
  afterAll(async () => {
    await discord?.close();
  });

  it('prints the URL with both scopes and exactly the permissions the features need', async () => {
    const io = capture({});
    expect(await main(['invite', '--application-id', APP], io)).toBe(0);
    expect(io.stdout()).toBe(
      `https://discord.com/oauth2/authorize?client_id=${APP}&scope=bot%20applications.commands&permissions=17910013742080\n`,
    );
    const url = inviteOf(io.stdout());
    expect(url.searchParams.get('client_id')).toBe(APP);
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(BigInt(url.searchParams.get('permissions')!)).toBe(NEEDED);
    // The channel checks' permissions are among those asked for.
    for (const bit of POST_PERMISSION_BITS) expect(BOT_PERMISSIONS & bit).toBe(bit);
    // And the server-wide ones the races in the server's Events need.
    for (const [bit] of SCHEDULED_EVENT_PERMISSIONS) expect(BOT_PERMISSIONS & bit).toBe(bit);
  });

  it('takes the id from DISCORD_APPLICATION_ID; the option wins', async () => {
    const io = capture({ DISCORD_APPLICATION_ID: APP });
    expect(await main(['invite'], io)).toBe(0);
    expect(inviteOf(io.stdout()).searchParams.get('client_id')).toBe(APP);
    const other = capture({ DISCORD_APPLICATION_ID: APP });
    expect(await main(['invite', '--application-id', '876543210987654321'], other)).toBe(0);
    expect(inviteOf(other.stdout()).searchParams.get('client_id')).toBe('876543210987654321');
  });

  it('says in one line where to find the id when it is missing or wrong (exit 2)', async () => {
    for (const [env, argv, words] of [
      [{}, ['invite'], 'DISCORD_APPLICATION_ID must be set'],
      [{ DISCORD_APPLICATION_ID: 'my-bot' }, ['invite'], 'DISCORD_APPLICATION_ID is not an application id'],
      [{}, ['invite', '--application-id', '12'], '--application-id takes an application id'],
      [{}, ['invite', '--application-id'], '--application-id needs a value'],
    ] as const) {
      const io = capture(env);
      expect(await main([...argv], io)).toBe(2);
      expect(io.stderr()).toContain(words);
      expect(io.stderr().trim().split('\n')).toHaveLength(1);
      expect(io.stdout()).toBe('');
    }
  });

  it('start names a wrong DISCORD_APPLICATION_ID among the configuration problems (exit 2)', async () => {
    const io = capture({ DISCORD_APPLICATION_ID: 'my-bot', DISCORD_TOKEN: 'x', SECRET_KEY: 'invite-test-secret-0123' });
    expect(await main(['start'], io)).toBe(2);
    expect(io.stderr()).toContain('DISCORD_APPLICATION_ID is not an application id');
  });

  it('deploy-commands prints the same URL, with the id Discord gave for the token', async () => {
    const guild = discord.createGuild({ name: 'Invite' });
    const io = capture({ DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.restUrl });
    expect(await main(['deploy-commands', '--guild', guild.id], io)).toBe(0);
    const printed = capture({});
    expect(await main(['invite', '--application-id', discord.applicationId], printed)).toBe(0);
    expect(io.stdout()).toContain(`Add the bot to a server: ${printed.stdout()}`);
    expect(io.stderr()).toBe('');
  });

  it('with DISCORD_TOKEN set, asks Discord whose token it is: the link is for that application, never another', async () => {
    const token = { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.restUrl };
    for (const env of [token, { ...token, DISCORD_APPLICATION_ID: discord.applicationId }]) {
      const io = capture(env);
      expect(await main(['invite'], io)).toBe(0);
      expect(inviteOf(io.stdout()).searchParams.get('client_id')).toBe(discord.applicationId);
      expect(io.stderr()).toBe('');
    }
    for (const [env, argv, source] of [
      [{ ...token, DISCORD_APPLICATION_ID: APP }, ['invite'], 'DISCORD_APPLICATION_ID'],
      [token, ['invite', '--application-id', APP], '--application-id'],
    ] as const) {
      const io = capture(env);
      expect(await main([...argv], io)).toBe(2);
      expect(io.stdout()).toBe('');
      expect(io.stderr()).toBe(
        `eventor-bot invite: ${source} is ${APP}, but DISCORD_TOKEN belongs to application ${discord.applicationId} ` +
          `(${discord.botUser.username}): the link would add another bot; set ${source === '--application-id' ? 'it' : 'DISCORD_APPLICATION_ID'} to ${discord.applicationId}\n`,
      );
    }
  });

  it('a token Discord refuses is exit 2, Discord out of reach exit 1; neither prints a link nor the token', async () => {
    const refused = capture({ DISCORD_TOKEN: 'sandbox.wrong-token', DISCORD_API_URL: discord.restUrl });
    expect(await main(['invite', '--application-id', APP], refused)).toBe(2);
    expect(refused.stderr()).toContain('Discord refused DISCORD_TOKEN (401)');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const away = capture({ DISCORD_TOKEN: discord.token, DISCORD_API_URL: `http://127.0.0.1:${port}/api` });
    expect(await main(['invite'], away)).toBe(1);
    expect(away.stderr()).toMatch(
      /^eventor-bot invite: cannot ask Discord at http:\/\/127\.0\.0\.1:\d+\/api which application/,
    );
    for (const io of [refused, away]) {
      expect(io.stdout()).toBe('');
      expect(io.stderr().trim().split('\n')).toHaveLength(1);
      expect(io.stderr()).not.toContain(discord.token);
    }
  });

  it('deploy-commands says so when DISCORD_APPLICATION_ID is another application than the token', async () => {
    const guild = discord.createGuild({ name: 'Invite mismatch' });
    const io = capture({ DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.restUrl, DISCORD_APPLICATION_ID: APP });
    expect(await main(['deploy-commands', '--guild', guild.id], io)).toBe(0);
    expect(io.stderr()).toBe(
      `eventor-bot deploy-commands: DISCORD_APPLICATION_ID is ${APP}, but DISCORD_TOKEN belongs to application ${discord.applicationId}; set it to ${discord.applicationId}\n`,
    );
  });
});
