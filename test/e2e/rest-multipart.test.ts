/**
 * Files through discord.js in the bot's own process (src/bot/rest-multipart.ts): there the Eventor
 * client's undici 7 loads first and sets the process's global dispatcher, which cannot send the
 * FormData discord.js builds. Here the same state is made on purpose, and uploads go to the sandbox
 * Discord over real HTTP (docs/discord.md#attachments).
 */
import { REST } from 'discord.js';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRequest } from '../../src/bot/rest-multipart.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../src/loopback/world.js';

describe("files through discord.js when undici 7 set the process's dispatcher", () => {
  let world: LoopbackWorld;
  const before = getGlobalDispatcher();

  beforeAll(async () => {
    world = await startLoopbackWorld();
    // As in `eventor-bot start`: undici 7's agent is the one every undici in the process uses.
    setGlobalDispatcher(new Agent());
  }, 60_000);
  afterAll(async () => {
    setGlobalDispatcher(before);
    await world?.close();
  });

  const upload = (rest: REST) =>
    rest.post(`/channels/${world.channel.id}/messages`, {
      body: {
        content: 'Split times',
        embeds: [{ title: 'H21', image: { url: 'attachment://splits.png' } }],
        attachments: [
          { id: '0', description: 'The graph' },
          { id: '1', description: 'The bars' },
        ],
      },
      files: [
        { name: 'splits.png', data: Buffer.from('graph bytes'), contentType: 'image/png' },
        { name: 'lost-per-leg.png', data: Buffer.from('bar bytes'), contentType: 'image/png' },
      ],
    }) as Promise<{ id: string }>;

  it('sends the files, their alt text and the message with the bot’s request maker', async () => {
    const rest = new REST({ api: world.config.discordApiUrl, makeRequest }).setToken(world.config.discordToken);
    const sent = await upload(rest);
    const files = world.discord.attachments(sent.id);
    expect(files.map((f) => [f.name, f.description, f.contentType, f.bytes.toString()])).toEqual([
      ['splits.png', 'The graph', 'image/png', 'graph bytes'],
      ['lost-per-leg.png', 'The bars', 'image/png', 'bar bytes'],
    ]);
    const message = world.discord.messages(world.channel.id).find((m) => m.id === sent.id)!;
    expect(message.content).toBe('Split times');
    expect(message.embeds[0]!.image!.url).toBe(files[0]!.url);
  });

  it('is the state the bot is in: discord.js’s own request maker fails the same upload', async () => {
    const rest = new REST({ api: world.config.discordApiUrl, retries: 0 }).setToken(world.config.discordToken);
    await expect(upload(rest)).rejects.toThrow(/action is not a function/);
  });

  it('is what the bot’s client sends with', () => {
    expect(world.bot.client.options.rest?.makeRequest).toBe(makeRequest);
  });

  it('leaves a request without files as discord.js sends it', async () => {
    const rest = new REST({ api: world.config.discordApiUrl, makeRequest }).setToken(world.config.discordToken);
    const sent = (await rest.post(`/channels/${world.channel.id}/messages`, { body: { content: 'plain' } })) as {
      id: string;
      attachments: unknown[];
    };
    expect(sent.attachments).toEqual([]);
    expect(world.discord.messages(world.channel.id).find((m) => m.id === sent.id)?.content).toBe('plain');
  });
});
