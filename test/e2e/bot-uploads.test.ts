/**
 * Files through discord.js's own calls in the bot process, as the real bot runs: the Eventor
 * client's undici (7) is loaded before discord.js's, so it owns the process's global dispatcher.
 */
import 'undici';
import { AttachmentBuilder, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

/** A PNG signature and some bytes: the sandbox keeps any file. */
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100, 3)]);

describe("files through discord.js's own calls in the bot (sandbox Discord, real discord.js)", () => {
  let world: LoopbackWorld;

  beforeAll(async () => {
    world = await startTestWorld({});
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('sends and replaces a file in a channel', async () => {
    const channelId = world.discord.createTextChannel(world.guild.id, { name: 'filer' }).id;
    const channel = (await world.bot.client.channels.fetch(channelId)) as TextChannel;
    const sent = await channel.send({
      files: [new AttachmentBuilder(png, { name: 'splits.png', description: 'A graph' })],
      embeds: [{ title: 'H21', image: { url: 'attachment://splits.png' } }],
    });
    expect(world.discord.attachments(sent.id).map((a) => [a.name, a.description, a.bytes.equals(png)])).toEqual([
      ['splits.png', 'A graph', true],
    ]);
    const edited = await sent.edit({
      files: [new AttachmentBuilder(Buffer.from(png).fill(4, 8), { name: 'new.png' })],
    });
    expect(edited.attachments.map((a) => a.name)).toEqual(['new.png']);
  });
});
