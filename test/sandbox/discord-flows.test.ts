import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  DiscordAPIError,
  GatewayIntentBits,
  type Interaction,
  MessageFlags,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  UserSelectMenuBuilder,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginSandboxClient } from '../../harness/sandbox/discord/client.js';
import {
  renderMessageText,
  type SandboxDiscord,
  type SandboxUser,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';

/** Less common interaction flows and gateway behaviour, each with a real discord.js client. */
describe('sandbox Discord: more flows', () => {
  let sandbox: SandboxDiscord;
  let clients: Client[];
  let guildId: string;
  let channelId: string;
  let alice: SandboxUser;
  let onInteraction: (interaction: Interaction) => Promise<void>;

  const login = async (intents: GatewayIntentBits[] = [GatewayIntentBits.Guilds]): Promise<Client> => {
    const client = await loginSandboxClient(sandbox, { intents });
    clients.push(client);
    client.on('interactionCreate', (interaction) => void onInteraction(interaction).catch(() => undefined));
    return client;
  };

  beforeEach(async () => {
    sandbox = await startSandboxDiscord({ heartbeatIntervalMs: 200 });
    const guild = sandbox.createGuild({ name: 'IFK Göteborg' });
    guildId = guild.id;
    channelId = sandbox.createTextChannel(guildId, { name: 'orientering' }).id;
    alice = sandbox.createMember(guildId, { username: 'alice', locale: 'no' });
    clients = [];
    onInteraction = async () => undefined;
  });

  afterEach(async () => {
    for (const client of clients) await client.destroy();
    await sandbox.close();
  });

  const register = async (client: Client): Promise<void> => {
    await client.application!.commands.set([
      new SlashCommandBuilder().setName('menu').setDescription('Menu').toJSON(),
      new SlashCommandBuilder().setName('me').setDescription('About me').setDMPermission(true).toJSON(),
    ]);
  };

  it('runs a command in a DM with the bot (user instead of member)', async () => {
    const client = await login();
    await register(client);
    let inGuild: boolean | undefined;
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      inGuild = interaction.inGuild();
      await interaction.reply(`Hei ${interaction.user.username} (${interaction.locale})`);
    };
    const reply = await sandbox.runCommand({ user: alice, name: 'me' }).reply({ timeoutMs: 10_000 });
    expect(reply.content).toBe('Hei alice (no)');
    expect(inGuild).toBe(false);
    expect(sandbox.dms(alice).map((m) => m.content)).toEqual(['Hei alice (no)']);
  });

  it('handles select menus (string and user) and deferUpdate + editReply', async () => {
    const client = await login();
    await register(client);
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) {
        await interaction.reply({
          content: 'Pick',
          components: [
            new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
              new StringSelectMenuBuilder()
                .setCustomId('class')
                .setPlaceholder('Class')
                .addOptions({ label: 'H21', value: 'h21' }, { label: 'D21', value: 'd21' }),
            ),
            new ActionRowBuilder<UserSelectMenuBuilder>().addComponents(new UserSelectMenuBuilder().setCustomId('who')),
          ],
        });
      } else if (interaction.isStringSelectMenu()) {
        await interaction.deferUpdate();
        await interaction.editReply({ content: `Class: ${interaction.values.join(',')}` });
      } else if (interaction.isUserSelectMenu()) {
        await interaction.update({ content: `Runner: ${interaction.users.first()?.username}`, components: [] });
      }
    };
    const menu = await sandbox
      .runCommand({ guildId, channelId, user: alice, name: 'menu' })
      .reply({ timeoutMs: 10_000 });
    expect(renderMessageText(menu)).toBe('eventor-bot (BOT):\nPick\n[v Class: H21 | D21]\n[v Select user]');
    const picked = sandbox.selectMenu({ message: menu, customId: 'class', values: ['d21'], user: alice });
    expect((await picked.reply({ timeoutMs: 10_000 })).content).toBe('Class: d21');
    expect(picked.deferred).toBe(true);
    expect(() => sandbox.selectMenu({ message: menu, customId: 'class', values: ['x'], user: alice })).toThrow(
      /no option/,
    );
    const who = sandbox.selectMenu({ message: menu, customId: 'who', values: [alice.id], user: alice });
    expect((await who.reply({ timeoutMs: 10_000 })).content).toBe('Runner: alice');
  });

  it('supports reply({ withResponse }), fetchReply, deleteReply and a follow-up that fills a deferral', async () => {
    const client = await login();
    await register(client);
    const log: string[] = [];
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      if (log.length === 0) {
        const response = await interaction.reply({ content: 'hello', withResponse: true });
        log.push(`resource:${response.resource?.message?.content}`);
        const fetched = await interaction.fetchReply();
        log.push(`fetched:${fetched.content}`);
        await interaction.deleteReply();
        log.push('deleted');
      } else {
        await interaction.deferReply();
        await interaction.followUp('filled');
        log.push('filled');
      }
    };
    const first = sandbox.runCommand({ guildId, channelId, user: alice, name: 'menu' });
    await sandbox.waitFor(() => log.includes('deleted'), { timeoutMs: 10_000 });
    expect(log).toEqual(['resource:hello', 'fetched:hello', 'deleted']);
    expect(first.original()?.deleted).toBe(true);
    expect(sandbox.messages(channelId)).toEqual([]);

    const second = sandbox.runCommand({ guildId, channelId, user: alice, name: 'menu' });
    const reply = await second.reply({ timeoutMs: 10_000 });
    expect(reply.content).toBe('filled');
    expect(second.followUps()).toEqual([]);
    expect(second.history().map((e) => e.kind)).toEqual(['callback', 'followUp']);
  });

  it('accepts files in interaction replies and edits (multipart callbacks)', async () => {
    const client = await login();
    await register(client);
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply({
        content: 'Results',
        files: [{ attachment: Buffer.from('1;alice'), name: 'results.csv' }],
      });
      await interaction.editReply({
        content: 'Results (final)',
        files: [{ attachment: Buffer.from('1;alice;final'), name: 'final.csv' }],
      });
    };
    const handle = sandbox.runCommand({ guildId, channelId, user: alice, name: 'menu' });
    await sandbox.waitFor(() => handle.history().some((e) => e.kind === 'editOriginal'), { timeoutMs: 10_000 });
    const reply = handle.original()!;
    expect(reply.content).toBe('Results (final)');
    // An edit's `attachments` lists what to keep; discord.js lists only the new file, so it replaces the old one.
    expect(reply.attachments.map((a) => a.filename)).toEqual(['final.csv']);
    expect(reply.attachments[0]?.data.toString()).toBe('1;alice;final');
    expect(reply.edits[0]?.content).toBe('Results');
  });

  it('answers op 8 member requests and delivers MESSAGE_CREATE to bots with message intents', async () => {
    const client = await login([
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMembers,
      GatewayIntentBits.GuildMessages,
    ]);
    const members = await client.guilds.cache.get(guildId)!.members.fetch({ time: 3000 });
    expect([...members.values()].map((m) => m.user.username).sort()).toEqual([
      'alice',
      'eventor-bot',
      'ifk-g-teborg-owner',
    ]);
    const seen: string[] = [];
    client.on('messageCreate', (message) => seen.push(message.content));
    sandbox.say({ channelId, user: alice, content: '!help' });
    await sandbox.waitFor(() => seen.length > 0, { timeoutMs: 10_000 });
    expect(seen).toEqual(['!help']);
  });

  it('resumes after the gateway drops the connection and still delivers interactions', async () => {
    const client = await login();
    await register(client);
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) await interaction.reply('still here');
    };
    sandbox.dropGatewayConnections();
    await sandbox.waitFor(() => sandbox.gatewayFrames().some((f) => f.op === 6), { timeoutMs: 5000 });
    const reply = await sandbox
      .runCommand({ guildId, channelId, user: alice, name: 'menu' })
      .reply({ timeoutMs: 5000 });
    expect(reply.content).toBe('still here');
    // Heartbeats (interval 200 ms) are acknowledged, so the client never declares the connection dead.
    await sandbox.waitFor(() => sandbox.gatewayFrames().filter((f) => f.op === 1).length >= 2, { timeoutMs: 10_000 });
  });

  it('announces guilds created after login, and close() stops a client the test forgot to destroy', async () => {
    const client = await login();
    const late = sandbox.createGuild({ name: 'Late Club' });
    await sandbox.waitFor(() => client.guilds.cache.get(late.id), { timeoutMs: 10_000 });
    const events: string[] = [];
    client.on('shardDisconnect', (event) => events.push(`disconnect ${event.code}`));
    client.on('shardReconnecting', () => events.push('reconnecting'));
    await sandbox.close();
    await new Promise((resolve) => setTimeout(resolve, 600));
    // 4004 is unrecoverable for discord.js: no reconnect loop after the sandbox is gone.
    expect(events).toEqual(['disconnect 4004']);
  });

  it('ends the session on client.destroy(), and a restarted bot receives interactions', async () => {
    const first = await login();
    await register(first);
    await first.destroy();
    await sandbox.waitFor(
      () => {
        try {
          sandbox.runCommand({ guildId, channelId, user: alice, name: 'menu' });
          return false;
        } catch (error) {
          return /no bot is connected/.test((error as Error).message);
        }
      },
      { timeoutMs: 10_000 },
    );
    await login();
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) await interaction.reply('restarted');
    };
    expect(
      (await sandbox.runCommand({ guildId, channelId, user: alice, name: 'menu' }).reply({ timeoutMs: 10_000 }))
        .content,
    ).toBe('restarted');
  });

  it('serves the guild, channel, member, role, user and application lookups discord.js makes', async () => {
    const client = await login();
    const guild = await client.guilds.fetch({ guild: guildId, force: true });
    expect(guild.name).toBe('IFK Göteborg');
    const roles = await guild.roles.fetch();
    expect([...roles.values()].map((r) => r.name).sort()).toEqual(['@everyone', 'eventor-bot']);
    expect((await guild.roles.fetch(guildId))?.name).toBe('@everyone');
    const channels = await guild.channels.fetch();
    expect([...channels.values()].map((c) => c?.name)).toEqual(['orientering']);
    const member = await guild.members.fetch({ user: alice.id, force: true });
    expect(member.user.username).toBe('alice');
    expect((await guild.members.fetchMe()).id).toBe(sandbox.botUser.id);
    await expect(guild.members.fetch({ user: '1', force: true })).rejects.toMatchObject({ code: 10007 });
    expect((await client.users.fetch(alice.id, { force: true })).username).toBe('alice');
    await expect(client.users.fetch('1', { force: true })).rejects.toMatchObject({ code: 10013 });
    const application = await client.application!.fetch();
    expect(application.id).toBe(sandbox.applicationId);
    const channel = await client.channels.fetch(channelId, { force: true });
    expect(channel?.id).toBe(channelId);
    if (!channel?.isSendable()) throw new Error('not sendable');
    await channel.sendTyping();
    const message = await channel.send('React to me');
    await message.react('👍');
    expect(sandbox.messages(channelId)[0]?.reactions).toEqual(['👍']);
    const fetched = await channel.messages.fetch({ limit: 10 });
    expect([...fetched.values()].map((m) => m.content)).toEqual(['React to me']);
  });

  it('rejects a wrong token at login', async () => {
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.restUrl } });
    clients.push(client);
    await expect(client.login('sandbox.bot.wrong')).rejects.toThrow(/token/i);
    expect(sandbox.requests().at(-1)).toMatchObject({ route: '/gateway/bot', status: 401, auth: 'invalid' });
  });

  it('returns real message objects to the bot (embeds and components echo back)', async () => {
    const client = await login();
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error('not sendable');
    const sent = await channel.send({
      content: 'Start list',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('a').setLabel('A').setStyle(ButtonStyle.Primary),
        ),
      ],
      files: [{ attachment: Buffer.from('name;class\nalice;D21\n'), name: 'startlist.csv' }],
    });
    expect(sent.components).toHaveLength(1);
    expect(sent.attachments.first()?.name).toBe('startlist.csv');
    const [stored] = sandbox.messages(channelId);
    expect(stored?.attachments[0]?.data.toString()).toContain('alice;D21');
    const download = await fetch(sent.attachments.first()!.url);
    expect(await download.text()).toContain('alice;D21');
    expect(sent.flags.has(MessageFlags.Ephemeral)).toBe(false);
    const error = await channel.send({ content: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).code).toBe(50006);
  });

  it("a member's delete in the client: refused without Manage Messages; then MESSAGE_DELETE, and the bot's edit gets 10008", async () => {
    const client = await login([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error('not a text channel');
    const posted = await channel.send({ content: 'Results' });
    // Alice has no Manage Messages: the client offers her no delete of the bot's message.
    expect(() => sandbox.deleteMessage(posted.id, alice)).toThrow(/Manage Messages/);
    const deleted = new Promise<string>((resolve) => client.once('messageDelete', (m) => resolve(m.id)));
    const owner = sandbox.world.guilds.get(guildId)!.ownerId;
    sandbox.deleteMessage(posted.id, owner);
    expect(await deleted).toBe(posted.id);
    expect(sandbox.messages(channelId)).toHaveLength(0);
    const edit = await posted.edit({ content: 'Results, corrected' }).catch((error: unknown) => error);
    expect(edit).toBeInstanceOf(DiscordAPIError);
    expect((edit as DiscordAPIError).code).toBe(10008);
    expect((edit as DiscordAPIError).status).toBe(404);
  });
});
