// Loaded first on purpose, as in the bot (whose Eventor client is undici 7): undici 7 then owns the
// process's global dispatcher, the case the sandbox client must survive.
import 'undici';
import {
  AttachmentBuilder,
  type Client,
  DiscordAPIError,
  GatewayIntentBits,
  type Interaction,
  type Message,
  SlashCommandBuilder,
  type TextChannel,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginSandboxClient } from '../../harness/sandbox/discord/client.js';
import { type SandboxDiscord, type SandboxUser, startSandboxDiscord } from '../../harness/sandbox/discord/index.js';

/** A tiny but real PNG header, so discord.js sniffs `image/png` from the bytes as it does for charts. */
const png = (fill: number, size = 64): Buffer => {
  const bytes = Buffer.alloc(size, fill);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
};

const MiB = 1024 * 1024;

/** Rejects after `ms` so a handler that never runs fails the test instead of hanging it. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function apiError(promise: Promise<unknown>): Promise<DiscordAPIError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DiscordAPIError);
  return error as DiscordAPIError;
}

describe('sandbox Discord: attachments over the real wire', () => {
  let sandbox: SandboxDiscord;
  let client: Client;
  let guildId: string;
  let channelId: string;
  let alice: SandboxUser;
  let onInteraction: (interaction: Interaction) => Promise<void>;

  beforeEach(async () => {
    sandbox = await startSandboxDiscord({ heartbeatIntervalMs: 200 });
    guildId = sandbox.createGuild({ name: 'OK Linné' }).id;
    channelId = sandbox.createTextChannel(guildId, { name: 'resultat' }).id;
    alice = sandbox.createMember(guildId, { username: 'alice' });
    onInteraction = async () => undefined;
    client = await loginSandboxClient(sandbox, { intents: [GatewayIntentBits.Guilds] });
    client.on('interactionCreate', (interaction) => void onInteraction(interaction).catch(() => undefined));
  });

  afterEach(async () => {
    await client.destroy();
    await sandbox.close();
  });

  const channel = async (): Promise<TextChannel> => (await client.channels.fetch(channelId)) as TextChannel;

  it('stores a file with its alt text and resolves attachment:// in the embed', async () => {
    const bytes = png(7);
    const sent = await (
      await channel()
    ).send({
      files: [new AttachmentBuilder(bytes, { name: 'chart.png', description: 'Split times, leg by leg' })],
      embeds: [{ title: 'Splits', image: { url: 'attachment://chart.png' } }],
    });
    const [stored] = sandbox.attachments(sent.id);
    expect(sandbox.attachments(sent.id)).toHaveLength(1);
    expect(stored).toMatchObject({
      name: 'chart.png',
      description: 'Split times, leg by leg',
      contentType: 'image/png',
    });
    expect(stored!.bytes.equals(bytes)).toBe(true);
    // What discord.js got back: the attachment object, and the embed pointing at the stored file.
    const attachment = sent.attachments.first()!;
    expect(attachment.name).toBe('chart.png');
    expect(attachment.description).toBe('Split times, leg by leg');
    expect(attachment.size).toBe(bytes.length);
    expect(sent.embeds[0]!.image?.url).toBe(attachment.url);
    // The URL serves the bytes.
    const served = await fetch(attachment.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('drops an embed image whose attachment:// names no uploaded image, keeping the file', async () => {
    const sent = await (
      await channel()
    ).send({
      files: [new AttachmentBuilder(png(1), { name: 'chart.png' })],
      embeds: [{ title: 'Splits', image: { url: 'attachment://other.png' } }],
    });
    expect(sent.embeds[0]!.title).toBe('Splits');
    expect(sent.embeds[0]!.image).toBeNull();
    expect(sent.attachments.size).toBe(1);
  });

  it('sends a file by DM', async () => {
    const user = await client.users.fetch(alice.id);
    const sent = await user.send({ files: [new AttachmentBuilder(png(3), { name: 'leg 3.png' })] });
    // Discord stores names without spaces.
    expect(sandbox.dms(alice).map((m) => m.attachments.map((a) => a.filename))).toEqual([['leg_3.png']]);
    expect(sandbox.attachments(sent.id)[0]!.bytes.equals(png(3))).toBe(true);
  });

  it('replaces the file on edit with attachments: [], appends without attachments', async () => {
    const sent = await (await channel()).send({ files: [new AttachmentBuilder(png(1), { name: 'old.png' })] });
    const replaced = await sent.edit({ files: [new AttachmentBuilder(png(2), { name: 'new.png' })], attachments: [] });
    expect(replaced.attachments.map((a) => a.name)).toEqual(['new.png']);
    expect(sandbox.attachments(sent.id).map((a) => [a.name, a.bytes.equals(png(2))])).toEqual([['new.png', true]]);

    // Keeping the existing one by listing it, adding another.
    const kept = await replaced.edit({
      attachments: [...replaced.attachments.values()],
      files: [new AttachmentBuilder(png(4), { name: 'more.png' })],
    });
    expect(kept.attachments.map((a) => a.name)).toEqual(['new.png', 'more.png']);

    // A plain content edit leaves the files alone.
    const text = await kept.edit({ content: 'updated' });
    expect(text.attachments.map((a) => a.name)).toEqual(['new.png', 'more.png']);

    // Raw PATCH with files and no `attachments` key: the file is appended (what the docs describe).
    await client.rest.patch(`/channels/${channelId}/messages/${sent.id}`, {
      body: { content: 'appended' },
      files: [{ name: 'third.png', data: png(5) }],
    });
    expect(sandbox.attachments(sent.id).map((a) => a.name)).toEqual(['new.png', 'more.png', 'third.png']);
  });

  it('answers an interaction with a file, then replaces it with editReply', async () => {
    await client.application!.commands.set([new SlashCommandBuilder().setName('splits').setDescription('Splits')]);
    let resolveEdited: (m: Message) => void = () => undefined;
    const edited = new Promise<Message>((resolve) => (resolveEdited = resolve));
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply({
        files: [new AttachmentBuilder(png(8), { name: 'first.png', description: 'first' })],
        embeds: [{ image: { url: 'attachment://first.png' } }],
      });
      resolveEdited(
        await interaction.editReply({
          files: [new AttachmentBuilder(png(9), { name: 'second.png', description: 'second' })],
          embeds: [{ image: { url: 'attachment://second.png' } }],
        }),
      );
    };
    const handle = sandbox.runCommand({ user: alice, guildId, channelId, name: 'splits' });
    const reply = await handle.reply({ timeoutMs: 10_000 });
    expect(reply.attachments.map((a) => a.filename)).toEqual(['first.png']);
    const message = await within(edited, 3000, 'editReply');
    expect(message.attachments.map((a) => a.name)).toEqual(['second.png']);
    const files = sandbox.attachments(message.id);
    expect(files.map((f) => [f.name, f.description, f.bytes.equals(png(9))])).toEqual([['second.png', 'second', true]]);
    expect(message.embeds[0]!.image?.url).toBe(files[0]!.url);
  });

  it('answers a follow-up with a file', async () => {
    await client.application!.commands.set([new SlashCommandBuilder().setName('splits').setDescription('Splits')]);
    onInteraction = async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await interaction.followUp({ files: [new AttachmentBuilder(png(6), { name: 'later.png' })] });
    };
    const handle = sandbox.runCommand({ user: alice, guildId, channelId, name: 'splits' });
    const answer = await handle.answer({ timeoutMs: 10_000 });
    expect(sandbox.attachments(answer.id).map((a) => [a.name, a.bytes.equals(png(6))])).toEqual([['later.png', true]]);
  });

  it('carries the attachments in MESSAGE_CREATE and MESSAGE_UPDATE', async () => {
    const watcher = await loginSandboxClient(sandbox, {
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    });
    try {
      const seen: { t: string; names: string[] }[] = [];
      watcher.on('raw', (packet: { t?: string; d?: { attachments?: { filename: string }[] } }) => {
        if (packet.t === 'MESSAGE_CREATE' || packet.t === 'MESSAGE_UPDATE') {
          seen.push({ t: packet.t, names: (packet.d?.attachments ?? []).map((a) => a.filename) });
        }
      });
      const sent = await (await channel()).send({ files: [new AttachmentBuilder(png(1), { name: 'a.png' })] });
      await sent.edit({ files: [new AttachmentBuilder(png(2), { name: 'b.png' })] });
      await sandbox.waitFor(() => seen.length >= 2, { timeoutMs: 10_000, description: 'two dispatches' });
      expect(seen).toEqual([
        { t: 'MESSAGE_CREATE', names: ['a.png'] },
        { t: 'MESSAGE_UPDATE', names: ['b.png'] },
      ]);
    } finally {
      await watcher.destroy();
    }
  });

  it('updates a message with a file from a button (callback type 7)', async () => {
    await client.application!.commands.set([new SlashCommandBuilder().setName('splits').setDescription('Splits')]);
    onInteraction = async (interaction) => {
      if (interaction.isChatInputCommand()) {
        await interaction.reply({
          content: 'Which leg?',
          components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Leg 1', custom_id: 'leg1' }] }],
        });
      } else if (interaction.isButton()) {
        await interaction.update({
          content: 'Leg 1',
          components: [],
          files: [new AttachmentBuilder(png(11), { name: 'leg1.png', description: 'Leg 1' })],
        });
      }
    };
    const reply = await sandbox
      .runCommand({ user: alice, guildId, channelId, name: 'splits' })
      .reply({ timeoutMs: 10_000 });
    const click = sandbox.clickButton({ message: reply, customId: 'leg1', user: alice });
    const updated = await click.reply({ timeoutMs: 10_000 });
    expect(click.responseType).toBe(7);
    expect(updated.id).toBe(reply.id);
    expect(sandbox.attachments(reply.id).map((a) => [a.name, a.description, a.bytes.equals(png(11))])).toEqual([
      ['leg1.png', 'Leg 1', true],
    ]);
  });

  it("refuses what breaks Discord's limits with Discord's codes", async () => {
    const target = await channel();
    const files = (count: number, size: number): AttachmentBuilder[] =>
      Array.from({ length: count }, (_, i) => new AttachmentBuilder(png(i, size), { name: `f${i}.png` }));

    const tooMany = await apiError(target.send({ files: files(11, 16) }));
    expect([tooMany.status, tooMany.code]).toEqual([400, 30015]);
    expect(tooMany.message).toBe('Maximum number of attachments in a message reached (10)');

    const tooBig = await apiError(target.send({ files: files(1, 10 * MiB + 1) }));
    expect([tooBig.status, tooBig.code]).toEqual([400, 50045]);

    // Each file within 10 MiB, together over the 25 MiB a request may carry.
    const tooMuch = await apiError(target.send({ files: files(3, 8.5 * MiB) }));
    expect([tooMuch.status, tooMuch.code]).toEqual([413, 40005]);

    const unknown = await apiError(
      client.rest.post(`/channels/${channelId}/messages`, {
        body: { content: 'x', attachments: [{ id: '1', description: 'no such part' }] },
        files: [{ name: 'a.png', data: png(1) }],
      }),
    );
    expect([unknown.status, unknown.code]).toEqual([400, 50146]);

    const longAlt = await apiError(
      target.send({ files: [new AttachmentBuilder(png(1), { name: 'a.png', description: 'x'.repeat(1025) })] }),
    );
    expect([longAlt.status, longAlt.code]).toEqual([400, 50035]);
    expect(longAlt.rawError).toMatchObject({ errors: { attachments: { 0: { description: {} } } } });

    // Eleven after an edit: ten kept plus one more.
    const full = await target.send({ files: files(10, 16) });
    const overfull = await apiError(full.edit({ attachments: [...full.attachments.values()], files: files(1, 16) }));
    expect([overfull.status, overfull.code]).toEqual([400, 30015]);

    // Nothing was stored by the refused requests.
    expect(sandbox.messages(channelId).map((m) => m.attachments.length)).toEqual([10]);
  });

  it('refuses files without Attach Files (403, 50013) in a channel and its threads, not text or DMs', async () => {
    const target = await channel();
    const sent = await target.send({ content: 'results', files: [new AttachmentBuilder(png(1), { name: 'a.png' })] });
    sandbox.setBotCanAttach(channelId, false);

    const refused = await apiError(target.send({ files: [new AttachmentBuilder(png(2), { name: 'b.png' })] }));
    expect([refused.status, refused.code]).toEqual([403, 50013]);
    const editRefused = await apiError(sent.edit({ files: [new AttachmentBuilder(png(3), { name: 'c.png' })] }));
    expect([editRefused.status, editRefused.code]).toEqual([403, 50013]);
    // The refused edit changed nothing; an edit without files, and dropping the files, still work.
    expect(sandbox.attachments(sent.id).map((a) => a.name)).toEqual(['a.png']);
    const emptied = await sent.edit({ content: 'results, text only', attachments: [] });
    expect(emptied.attachments.size).toBe(0);
    const text = await target.send({ content: 'text only' });
    expect(text.content).toBe('text only');

    // A thread inherits its parent's overwrites.
    const thread = await text.startThread({ name: 'splits' });
    const inThread = await apiError(thread.send({ files: [new AttachmentBuilder(png(4), { name: 'd.png' })] }));
    expect([inThread.status, inThread.code]).toEqual([403, 50013]);

    // DMs know no channel permissions.
    const user = await client.users.fetch(alice.id);
    await user.send({ files: [new AttachmentBuilder(png(5), { name: 'e.png' })] });
    expect(sandbox.dms(alice).map((m) => m.attachments.length)).toEqual([1]);

    sandbox.setBotCanAttach(channelId, true);
    const back = await target.send({ files: [new AttachmentBuilder(png(6), { name: 'f.png' })] });
    expect(sandbox.attachments(back.id).map((a) => a.name)).toEqual(['f.png']);
  });

  it('accepts any file type, taking the type from the part or the name', async () => {
    const sent = await (
      await channel()
    ).send({
      files: [
        new AttachmentBuilder(Buffer.from('leg;time\n1;3:12\n'), { name: 'splits.csv' }),
        new AttachmentBuilder(Buffer.from([1, 2, 3]), { name: 'blob.bin' }),
      ],
    });
    expect(sandbox.attachments(sent.id).map((a) => [a.name, a.contentType])).toEqual([
      ['splits.csv', 'text/csv; charset=utf-8'],
      ['blob.bin', 'application/octet-stream'],
    ]);
  });
});
