import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type ChatInputCommandInteraction,
  type Client,
  DiscordAPIError,
  EmbedBuilder,
  type Interaction,
  MessageFlags,
  ModalBuilder,
  Routes,
  SlashCommandBuilder,
  type TextChannel,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginSandboxClient } from '../../harness/sandbox/discord/client.js';
import {
  renderInteractionText,
  type SandboxDiscord,
  type SandboxUser,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';

const T0 = Date.parse('2026-11-22T12:00:00Z');

/** Await a promise that should reject with a Discord API error; return it. */
async function apiError(promise: Promise<unknown>): Promise<DiscordAPIError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DiscordAPIError);
  return error as DiscordAPIError;
}

describe('sandbox Discord with a real discord.js client', () => {
  let clock: number;
  let sandbox: SandboxDiscord;
  let client: Client;
  let guildId: string;
  let channelId: string;
  let alice: SandboxUser;
  let admin: SandboxUser;
  /** The bot-under-test's interaction handler, replaced per test. */
  let onInteraction: (interaction: Interaction) => Promise<void>;
  let handlerErrors: unknown[];

  const commands = [
    new SlashCommandBuilder()
      .setName('ping')
      .setDescription('Ping')
      .setNameLocalizations({ 'sv-SE': 'pingsv', no: 'pingno' })
      .addIntegerOption((o) => o.setName('count').setDescription('How many').setMinValue(1))
      .addBooleanOption((o) => o.setName('loud').setDescription('Loud?'))
      .addUserOption((o) => o.setName('who').setDescription('Who'))
      .addChannelOption((o) => o.setName('where').setDescription('Where')),
    new SlashCommandBuilder()
      .setName('event')
      .setDescription('Events')
      .addSubcommand((s) =>
        s
          .setName('find')
          .setDescription('Find an event')
          .addStringOption((o) => o.setName('query').setDescription('Search').setAutocomplete(true).setRequired(true)),
      ),
  ].map((c) => c.toJSON());

  beforeEach(async () => {
    clock = T0;
    sandbox = await startSandboxDiscord({ now: () => clock });
    const owner = sandbox.createUser({ username: 'owner' });
    const guild = sandbox.createGuild({ name: 'OK Linné', owner, preferredLocale: 'sv-SE' });
    guildId = guild.id;
    channelId = sandbox.createTextChannel(guildId, { name: 'general' }).id;
    alice = sandbox.createMember(guildId, { username: 'alice', locale: 'sv-SE' });
    admin = sandbox.createMember(guildId, { username: 'admin', locale: 'en-GB', manageGuild: true });
    handlerErrors = [];
    onInteraction = async () => undefined;
    client = await loginSandboxClient(sandbox);
    client.on('interactionCreate', (interaction) => {
      onInteraction(interaction).catch((error: unknown) => handlerErrors.push(error));
    });
    await client.application!.commands.set(commands);
  });

  afterEach(async () => {
    await client?.destroy();
    await sandbox?.close();
  });

  it('logs in over the gateway with the world in its caches, and never logs the token', async () => {
    expect(client.user?.id).toBe(sandbox.botUser.id);
    expect(client.application?.id).toBe(sandbox.applicationId);
    const guild = client.guilds.cache.get(guildId)!;
    expect(guild.name).toBe('OK Linné');
    expect(guild.preferredLocale).toBe('sv-SE');
    expect(guild.channels.cache.get(channelId)?.name).toBe('general');
    const requests = sandbox.requests();
    expect(requests[0]).toMatchObject({ method: 'GET', route: '/gateway/bot', status: 200, auth: 'bot' });
    expect(JSON.stringify(requests)).not.toContain(sandbox.token);
    expect(JSON.stringify(sandbox.gatewayFrames())).not.toContain(sandbox.token);
    expect(sandbox.token.startsWith('sandbox.')).toBe(true);
    // A channel created after login reaches the cache through CHANNEL_CREATE.
    const late = sandbox.createTextChannel(guildId, { name: 'results' });
    await sandbox.waitFor(() => client.channels.cache.get(late.id));
  });

  it('stores global and guild commands, keeps ids on overwrite, and rejects invalid definitions', async () => {
    expect(sandbox.commands().map((c) => c.name)).toEqual(['ping', 'event']);
    expect(sandbox.commands()[0]?.name_localizations).toEqual({ 'sv-SE': 'pingsv', no: 'pingno' });
    const firstId = sandbox.commands()[0]!.id;
    await client.application!.commands.set(commands);
    expect(sandbox.commands()[0]!.id).toBe(firstId);

    const guild = client.guilds.cache.get(guildId)!;
    await guild.commands.set([{ name: 'admin', description: 'Admin only', defaultMemberPermissions: '32' }]);
    expect(sandbox.commands({ guildId }).map((c) => [c.name, c.default_member_permissions])).toEqual([['admin', '32']]);
    const fetched = await client.application!.commands.fetch();
    expect(fetched.size).toBe(2);

    const error = await apiError(
      client.rest.put(Routes.applicationCommands(sandbox.applicationId), {
        body: [{ name: 'Bad Name', description: 'x' }],
      }),
    );
    expect(error.code).toBe(50035);
    expect(error.status).toBe(400);
  });

  it('answers a slash command with a reply; options are typed from the registered definition', async () => {
    let seen:
      | {
          count: number | null;
          loud: boolean | null;
          who: string | undefined;
          where: string | null | undefined;
          locale: string;
          guildLocale: string | null;
        }
      | undefined;
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen = {
        count: interaction.options.getInteger('count'),
        loud: interaction.options.getBoolean('loud'),
        who: interaction.options.getUser('who')?.username,
        where: interaction.options.getChannel('where')?.name,
        locale: interaction.locale,
        guildLocale: interaction.guildLocale,
      };
      await interaction.reply(`pong x${seen.count}`);
    };
    const handle = sandbox.runCommand({
      guildId,
      channelId,
      user: alice,
      name: 'ping',
      options: { count: '3', loud: true, who: admin.id, where: channelId },
    });
    expect(renderInteractionText(handle.payload)).toBe(
      `alice used /ping count: 3 loud: true who: ${admin.id} where: ${channelId}`,
    );
    const reply = await handle.reply({ timeoutMs: 10_000 });
    expect(reply.content).toBe('pong x3');
    expect(reply.ephemeral).toBe(false);
    expect(seen).toEqual({
      count: 3,
      loud: true,
      who: 'admin',
      where: 'general',
      locale: 'sv-SE',
      guildLocale: 'sv-SE',
    });
    expect(handle.deferred).toBe(false);
    expect(sandbox.messages(channelId).map((m) => m.content)).toEqual(['pong x3']);
    // Mistakes in the test itself are caught before anything is dispatched.
    expect(() => sandbox.runCommand({ guildId, channelId, user: alice, name: 'nope' })).toThrow(/not registered/);
    expect(() =>
      sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping', options: { count: 1.5 } }),
    ).toThrow(/integer/);
  });

  it('only lets users run commands Discord would offer them (default_member_permissions, locales)', async () => {
    await client.guilds.cache
      .get(guildId)!
      .commands.set([{ name: 'setup', description: 'Admin setup', defaultMemberPermissions: '32' }]);
    const seen: (boolean | undefined)[] = [];
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      seen.push(interaction.memberPermissions?.has('ManageGuild'));
      await interaction.reply({ content: 'ok', flags: MessageFlags.Ephemeral });
    };
    expect(() => sandbox.runCommand({ guildId, channelId, user: alice, name: 'setup' })).toThrow(
      /default_member_permissions/,
    );
    await sandbox.runCommand({ guildId, channelId, user: admin, name: 'setup' }).reply();
    // An admin may grant the command to everyone in Integrations settings; the bot must still check.
    await sandbox
      .runCommand({ guildId, channelId, user: alice, name: 'setup', bypassCommandPermissions: true })
      .reply();
    expect(seen).toEqual([true, false]);
    expect(() => sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping', locale: 'sv' })).toThrow(/sv-SE/);
    expect(() => sandbox.runCommand({ user: alice, name: 'setup' })).toThrow(/not registered/);
  });

  it('supports deferReply + editReply (ephemeral) and follow-ups', async () => {
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      await interaction.editReply({
        content: 'done',
        embeds: [new EmbedBuilder().setTitle('Result').addFields({ name: 'Class', value: 'H21' })],
      });
      await interaction.followUp({ content: 'first follow-up' });
      const second = await interaction.followUp({ content: 'second', flags: MessageFlags.Ephemeral });
      await interaction.webhook.editMessage(second.id, { content: 'second (edited)' });
    };
    const handle = sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping' });
    const reply = await handle.reply({ timeoutMs: 10_000 });
    expect(reply).toMatchObject({ content: 'done', ephemeral: true, loading: false });
    expect(reply.embeds[0]?.fields).toEqual([{ name: 'Class', value: 'H21' }]);
    expect(handle.deferred).toBe(true);
    const followUps = await handle.waitForFollowUps(2, { timeoutMs: 10_000 });
    await sandbox.waitFor(() => handle.history().some((e) => e.kind === 'editFollowUp'));
    expect(handle.followUps().map((m) => [m.content, m.ephemeral])).toEqual([
      ['first follow-up', false],
      ['second (edited)', true],
    ]);
    expect(followUps).toHaveLength(2);
    expect(handle.history().map((e) => e.kind)).toEqual([
      'callback',
      'editOriginal',
      'followUp',
      'followUp',
      'editFollowUp',
    ]);
    // Ephemeral messages are hidden from the channel view unless asked for.
    expect(sandbox.messages(channelId).map((m) => m.content)).toEqual(['first follow-up']);
    expect(sandbox.messages(channelId, { includeEphemeral: true })).toHaveLength(3);
  });

  it('answers autocomplete, and rejects more than 25 choices with 50035', async () => {
    onInteraction = async (interaction) => {
      if (!interaction.isAutocomplete()) return;
      const focused = interaction.options.getFocused(true);
      const count = focused.value === 'many' ? 30 : 2;
      const choices = Array.from({ length: count }, (_, i) => ({ name: `${focused.value} ${i}`, value: `e${i}` }));
      await interaction.respond(choices).catch((error: unknown) => handlerErrors.push(error));
    };
    const choices = await sandbox.autocomplete({
      guildId,
      channelId,
      user: alice,
      name: 'event',
      subcommand: 'find',
      focused: 'query',
      value: 'Lin',
      timeoutMs: 10_000,
    });
    expect(choices).toEqual([
      { name: 'Lin 0', value: 'e0' },
      { name: 'Lin 1', value: 'e1' },
    ]);
    const handle = sandbox.startAutocomplete({
      guildId,
      channelId,
      user: alice,
      name: 'event',
      subcommand: 'find',
      focused: 'query',
      value: 'many',
    });
    await sandbox.waitFor(() => handlerErrors.length > 0, { timeoutMs: 10_000 });
    const error = handlerErrors[0] as DiscordAPIError;
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect(error.code).toBe(50035);
    expect(JSON.stringify(error.rawError)).toContain('BASE_TYPE_MAX_LENGTH');
    expect(handle.choices()).toBeNull();
    expect(handle.history()[0]).toMatchObject({ kind: 'rejected', code: 50035 });
  });

  it('clicks a button that the bot answers with update()', async () => {
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('signup').setLabel('Sign up').setStyle(ButtonStyle.Primary),
          new ButtonBuilder().setURL('https://eventor.orientering.se/').setLabel('Eventor').setStyle(ButtonStyle.Link),
        );
        await interaction.reply({ content: 'Event: Linnéstafetten', components: [row] });
      } else if (interaction.isButton()) {
        await interaction.update({ content: `Signed up: ${interaction.user.username}`, components: [] });
      }
    };
    const reply = await sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping' }).reply();
    const click = sandbox.clickButton({ message: reply, customId: 'signup', user: admin });
    expect(renderInteractionText(click.payload)).toBe('admin clicked [Sign up]');
    const updated = await click.reply({ timeoutMs: 10_000 });
    expect(updated.id).toBe(reply.id);
    expect(updated.content).toBe('Signed up: admin');
    expect(updated.components).toEqual([]);
    expect(updated.edits.map((e) => e.content)).toEqual(['Event: Linnéstafetten']);
    expect(click.responseType).toBe(7);
    expect(() => sandbox.clickButton({ message: updated, customId: 'signup', user: admin })).toThrow(/no component/);
  });

  it('shows a modal and receives its submission', async () => {
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const modal = new ModalBuilder()
          .setCustomId('feedback')
          .setTitle('Feedback')
          .addComponents(
            new ActionRowBuilder<TextInputBuilder>().addComponents(
              new TextInputBuilder().setCustomId('text').setLabel('Your feedback').setStyle(TextInputStyle.Paragraph),
            ),
          );
        await interaction.showModal(modal);
      } else if (interaction.isModalSubmit()) {
        await interaction.reply({
          content: `Thanks: ${interaction.fields.getTextInputValue('text')}`,
          flags: MessageFlags.Ephemeral,
        });
      }
    };
    const opener = sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping' });
    const modal = await opener.waitForModal({ timeoutMs: 10_000 });
    expect(modal).toMatchObject({ custom_id: 'feedback', title: 'Feedback' });
    await expect(opener.reply({ timeoutMs: 1000 })).rejects.toThrow(/modal/);
    expect(() => sandbox.submitModal({ customId: 'feedback', fields: {}, user: alice })).toThrow(/required/);
    const submitted = sandbox.submitModal({ customId: 'feedback', fields: { text: 'Great course' }, user: alice });
    expect(renderInteractionText(submitted.payload)).toBe('alice submitted modal feedback (text: Great course)');
    const reply = await submitted.reply({ timeoutMs: 10_000 });
    expect(reply).toMatchObject({ content: 'Thanks: Great course', ephemeral: true });
  });

  it('posts in a channel, edits the post, creates threads', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    const posted = await channel.send({ content: 'Results are in', embeds: [new EmbedBuilder().setTitle('H21')] });
    await posted.edit('Results are in (corrected)');
    const thread = await posted.startThread({ name: 'Discussion' });
    await thread.send('First!');
    const standalone = await channel.threads.create({ name: 'Standalone' });

    const [message] = sandbox.messages(channelId);
    expect(message?.content).toBe('Results are in (corrected)');
    expect(message?.edits.map((e) => e.content)).toEqual(['Results are in']);
    expect(message?.embeds[0]?.title).toBe('H21');
    expect(message?.threadId).toBe(thread.id);
    expect(sandbox.messages(thread.id).map((m) => m.content)).toEqual(['First!']);
    expect(sandbox.world.channel(standalone.id)?.type).toBe(11);
    expect(
      sandbox
        .requests()
        .filter((r) => r.route?.endsWith('/threads'))
        .map((r) => r.status),
    ).toEqual([200, 200]);
  });

  it('threads from a message: one per message (160004), thread channels, permissions, unknown messages', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    const post = await channel.send('Results: Linnéstafetten');
    const route = Routes.threads(channelId, post.id);
    const created = (await client.rest.post(route, {
      body: { name: 'Linnéstafetten', auto_archive_duration: 10080 },
    })) as { id: string; type: number; parent_id: string; thread_metadata: { auto_archive_duration: number } };
    // A thread started from a message shares its id.
    expect(created).toMatchObject({
      id: post.id,
      type: 11,
      parent_id: channelId,
      thread_metadata: { auto_archive_duration: 10080 },
    });
    expect((await apiError(client.rest.post(route, { body: { name: 'Again' } }))).code).toBe(160004);
    expect(
      (await apiError(client.rest.post(route, { body: { name: 'Archive', auto_archive_duration: 30 } }))).code,
    ).toBe(50035);
    expect(
      (await apiError(client.rest.post(Routes.threads(channelId, '1234567890123'), { body: { name: 'Nothing' } })))
        .code,
    ).toBe(10008);
    // THREAD_CREATE reached the client: the thread is in its cache, under the channel.
    const cached = await sandbox.waitFor(() => client.channels.cache.get(post.id) ?? null, { timeoutMs: 10_000 });
    expect(cached.isThread() && cached.parentId).toBe(channelId);
    expect(await client.rest.get(Routes.channel(post.id))).toMatchObject({
      id: post.id,
      type: 11,
      parent_id: channelId,
      guild_id: guildId,
    });
    await client.rest.post(Routes.channelMessages(post.id), { body: { content: 'Page 1' } });
    expect(sandbox.messages(post.id).map((m) => m.content)).toEqual(['Page 1']);

    // Without Send Messages in Threads, the thread refuses posts; without Create Public Threads, no thread.
    sandbox.world.setBotPermission(channelId, 1n << 38n, false);
    expect(
      (await apiError(client.rest.post(Routes.channelMessages(post.id), { body: { content: 'Page 2' } }))).code,
    ).toBe(50013);
    const other = await channel.send('Results: Sprint');
    sandbox.world.setBotPermission(channelId, 1n << 35n, false);
    const refused = await apiError(client.rest.post(Routes.threads(channelId, other.id), { body: { name: 'Sprint' } }));
    expect([refused.status, refused.code]).toEqual([403, 50013]);
    expect(sandbox.message(other.id)?.threadId).toBeNull();

    // A deleted thread frees its message for a new one.
    sandbox.world.setBotPermission(channelId, (1n << 35n) | (1n << 38n), true);
    sandbox.deleteChannel(post.id);
    expect(sandbox.message(post.id)?.threadId).toBeNull();
    expect(await client.rest.post(route, { body: { name: 'Linnéstafetten' } })).toMatchObject({
      id: post.id,
      type: 11,
    });
  });

  it('enforce_nonce: a resend with the same nonce gives the same message, also after a lost answer', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    const first = await channel.send({ content: 'Results', nonce: 'eb-nonce-1', enforceNonce: true });
    const again = await channel.send({ content: 'Results (resent)', nonce: 'eb-nonce-1', enforceNonce: true });
    expect(again.id).toBe(first.id);
    expect(again.content).toBe('Results');
    expect(sandbox.messages(channelId)).toHaveLength(1);
    expect(sandbox.messages(channelId)[0]).toMatchObject({ id: first.id, nonce: 'eb-nonce-1' });

    // The answer to the first POST is lost (a 502 after the message was made): discord.js sends the
    // same body again, and Discord's nonce check gives back the message instead of a second one.
    sandbox.faults.loseAnswer({ route: `POST /channels/${channelId}/messages`, times: 1 });
    const lost = await channel.send({ content: 'Splits', nonce: 'eb-nonce-2', enforceNonce: true });
    const posts = sandbox
      .requests()
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.route === '/channels/:channelId/messages' &&
          (r.body as { nonce?: string }).nonce === 'eb-nonce-2',
      );
    expect(posts.map((r) => r.status)).toEqual([502, 200]);
    expect((posts[0]!.lostAnswer!.body as { id: string }).id).toBe(lost.id);
    expect(sandbox.messages(channelId).map((m) => m.content)).toEqual(['Results', 'Splits']);

    // Without enforce_nonce, or in another channel, or after the window, the nonce does not de-duplicate.
    await channel.send({ content: 'Plain', nonce: 'eb-nonce-1' });
    const elsewhere = sandbox.createTextChannel(guildId, { name: 'elsewhere' });
    const there = await ((await client.channels.fetch(elsewhere.id)) as TextChannel).send({
      content: 'There',
      nonce: 'eb-nonce-1',
      enforceNonce: true,
    });
    expect(there.id).not.toBe(first.id);
    clock += 5 * 60_000 + 1;
    const later = await channel.send({ content: 'Later', nonce: 'eb-nonce-1', enforceNonce: true });
    expect(later.id).not.toBe(first.id);
    expect(sandbox.messages(channelId).map((m) => m.content)).toEqual(['Results', 'Splits', 'Plain', 'Later']);

    // A message deleted within the window is not made again: Unknown Message.
    await later.delete();
    expect((await apiError(channel.send({ content: 'Later', nonce: 'eb-nonce-1', enforceNonce: true }))).code).toBe(
      10008,
    );
    expect((await apiError(channel.send({ content: 'x', nonce: 'n'.repeat(26), enforceNonce: true }))).code).toBe(
      50035,
    );
  });

  it('sends DMs, and surfaces 50007 when the user has closed them', async () => {
    const user = await client.users.fetch(alice.id);
    await user.send('Your start time is 10:32');
    expect(sandbox.dms(alice).map((m) => m.content)).toEqual(['Your start time is 10:32']);

    sandbox.closeDms(admin);
    const adminUser = await client.users.fetch(admin.id);
    const error = await apiError(adminUser.send('hello'));
    expect(error.code).toBe(50007);
    expect(error.status).toBe(403);
    expect(sandbox.dms(admin)).toEqual([]);

    // Discord also refuses DMs to users who no longer share a server with the bot.
    sandbox.removeMember(guildId, alice);
    expect((await apiError(user.send('still there?'))).code).toBe(50007);
  });

  it('refuses posts where the bot lacks permission (50013/50001) and in deleted channels (10003)', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    sandbox.setBotCanPost(channelId, false);
    // The overwrite reaches discord.js too, so a bot can check before posting.
    await sandbox.waitFor(() => channel.permissionsFor(client.user!)?.has('SendMessages') === false);
    expect((await apiError(channel.send('hi'))).code).toBe(50013);
    sandbox.setBotCanPost(channelId, true);
    sandbox.setBotCanView(channelId, false);
    expect((await apiError(channel.send('hi'))).code).toBe(50001);
    sandbox.setBotCanView(channelId, true);
    await channel.send('works again');

    sandbox.deleteChannel(channelId);
    const error = await apiError(client.rest.post(Routes.channelMessages(channelId), { body: { content: 'hi' } }));
    expect(error).toMatchObject({ code: 10003, status: 404 });
    // Interaction replies do not need channel permissions (they go through the interaction webhook).
  });

  it('enforces content and embed limits with 50035 Invalid Form Body', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    const long = await apiError(channel.send('x'.repeat(2001)));
    expect(long.code).toBe(50035);
    expect(long.message).toContain('Invalid Form Body');
    expect(long.rawError).toMatchObject({ errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } });

    const embeds = [1, 2].map((i) => ({ title: `Part ${i}`, description: 'y'.repeat(3500) }));
    const big = await apiError(channel.send({ embeds }));
    expect(big.code).toBe(50035);
    expect(big.rawError).toMatchObject({ errors: { embeds: { _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED' }] } } });
    await channel.send('x'.repeat(2000));
    expect(sandbox.messages(channelId)).toHaveLength(1);
  });

  it('answers 10062 when the first response comes after 3 s (injected clock), and 40060 for a second one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let late: unknown;
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await gate;
      late = await (interaction as ChatInputCommandInteraction).reply('too late').catch((e: unknown) => e);
    };
    const handle = sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping' });
    clock += 3001;
    release();
    await sandbox.waitFor(() => late, { timeoutMs: 10_000 });
    expect(late).toBeInstanceOf(DiscordAPIError);
    expect((late as DiscordAPIError).code).toBe(10062);
    expect(handle.acknowledged).toBe(false);

    // Second initial response: discord.js refuses locally, so go through REST directly.
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) await interaction.reply('once');
    };
    const second = sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping' });
    await second.reply();
    const again = await apiError(
      client.rest.post(Routes.interactionCallback(second.id, second.token), {
        body: { type: 4, data: { content: 'twice' } },
        auth: false,
      }),
    );
    expect(again).toMatchObject({ code: 40060, status: 400 });
  });

  it('expires the interaction token after 15 minutes (50027)', async () => {
    let followUp!: () => Promise<unknown>;
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply('working on it');
      followUp = () => interaction.followUp('finally');
    };
    const handle = sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping' });
    await handle.reply();
    await sandbox.waitFor(() => followUp);
    clock += 15 * 60_000 + 1;
    const error = await apiError(followUp());
    expect(error).toMatchObject({ code: 50027, status: 401 });
    expect(handle.followUps()).toEqual([]);
  });

  it('returns 429 with Retry-After, which discord.js waits out and retries', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    sandbox.faults.rateLimit({ route: 'POST /channels/:channelId/messages', times: 2, retryAfterSeconds: 0.2 });
    const started = Date.now();
    await channel.send('eventually');
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    const posts = sandbox.requests().filter((r) => r.route === '/channels/:channelId/messages' && r.method === 'POST');
    expect(posts.map((r) => r.status)).toEqual([429, 429, 200]);
    // The JSON body carries retry_after too, like Discord's.
    const raw = await fetch(`${sandbox.restUrl}/v10/users/@me`, { headers: { Authorization: `Bot ${sandbox.token}` } });
    expect(raw.status).toBe(200);
    sandbox.faults.rateLimit({ route: '/users/@me', times: 1, retryAfterSeconds: 0.2, global: true });
    const limited = await fetch(`${sandbox.restUrl}/v10/users/@me`, {
      headers: { Authorization: `Bot ${sandbox.token}` },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('0.2');
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(await limited.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.2, global: true });
    expect(sandbox.faults.pending()).toBe(0);
    expect(sandbox.messages(channelId).map((m) => m.content)).toEqual(['eventually']);
  });

  it('dispatches component and modal interactions only for what a user could really do', async () => {
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('off').setLabel('Off').setStyle(ButtonStyle.Secondary).setDisabled(true),
        );
        await interaction.reply({ content: 'secret', components: [row], flags: MessageFlags.Ephemeral });
      }
    };
    const reply = await sandbox.runCommand({ guildId, channelId, user: alice, name: 'ping' }).reply();
    expect(() => sandbox.clickButton({ message: reply, customId: 'off', user: admin })).toThrow(/ephemeral/);
    expect(() => sandbox.clickButton({ message: reply, customId: 'off', user: alice })).toThrow(/disabled/);
    expect(() => sandbox.submitModal({ customId: 'never', fields: {}, user: alice })).toThrow(/never showed/);
  });
});
