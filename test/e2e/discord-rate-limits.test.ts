/**
 * Discord's global rate limit: the sandbox Discord refuses bot-token requests past it (and never
 * interaction-token ones), and the bot keeps discord.js's global limit for its own posts while its
 * answers to members go out whatever that limit says (src/bot/interaction-rest.ts).
 */
import type { TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isInteractionRequest } from '../../src/bot/interaction-rest.js';
import { type SandboxDiscord, startSandboxDiscord } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 15_000 };

describe("the sandbox Discord's global rate limit", () => {
  let sandbox: SandboxDiscord | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('refuses bot-token requests past the limit with a global 429, and never interaction-token ones', async () => {
    // Discord's 50 requests, in a window long enough that a busy machine cannot let it roll over mid-test.
    sandbox = await startSandboxDiscord({ globalRateLimit: { requests: 50, windowMs: 60_000 } });
    const api = `${sandbox.restUrl}/v10`;
    const asBot = { headers: { Authorization: `Bot ${sandbox.token}` } };
    const statuses = await Promise.all(
      Array.from({ length: 60 }, () => fetch(`${api}/users/@me`, asBot).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);

    const limited = await fetch(`${api}/users/@me`, asBot);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('global');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    const body = (await limited.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: true });
    expect(body.retry_after).toBeGreaterThan(0);

    // The interaction routes answer for themselves (here: no such interaction or webhook), not with a 429.
    const callback = await fetch(`${api}/interactions/1/nope/callback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 5 }),
    });
    expect(callback.status).toBe(404);
    const webhook = await fetch(`${api}/webhooks/${sandbox.applicationId}/nope/messages/@original`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'x' }),
    });
    expect(webhook.status).toBe(404);
    // …and the bot token is still limited: the window did not pass in between.
    expect((await fetch(`${api}/users/@me`, asBot)).status).toBe(429);
    expect(sandbox.requests().filter((r) => r.status === 429 && r.auth !== 'bot')).toEqual([]);
  });

  it('counts nothing when turned off', async () => {
    sandbox = await startSandboxDiscord({ globalRateLimit: null });
    const asBot = { headers: { Authorization: `Bot ${sandbox.token}` } };
    const statuses = await Promise.all(
      Array.from({ length: 60 }, () => fetch(`${sandbox!.restUrl}/v10/users/@me`, asBot).then((r) => r.status)),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});

describe("the bot's answers and Discord's global rate limit", () => {
  let world: LoopbackWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('tells interaction-token requests from the rest', () => {
    expect(isInteractionRequest({ fullRoute: '/interactions/1/abc/callback', auth: false })).toBe(true);
    expect(isInteractionRequest({ fullRoute: '/webhooks/1/abc/messages/@original', auth: false })).toBe(true);
    expect(isInteractionRequest({ fullRoute: '/webhooks/1/abc', auth: false })).toBe(true);
    expect(isInteractionRequest({ fullRoute: '/channels/1/messages', auth: true })).toBe(false);
    expect(isInteractionRequest({ fullRoute: '/webhooks/1', auth: true })).toBe(false);
  });

  it('answers a member while a channel post waits out a global 429', async () => {
    world = await startTestWorld();
    const { discord } = world;
    const channel = (await world.bot.client.channels.fetch(world.channel.id)) as TextChannel;
    discord.faults.rateLimit({
      route: 'POST /channels/:channelId/messages',
      times: 1,
      retryAfterSeconds: 4,
      global: true,
    });
    const posted = channel.send('a post that waits');
    // discord.js has heard the global 429: from now on it holds every request under the global limit.
    await discord.waitFor(() => discord.requests().some((r) => r.status === 429), WAIT);

    // /events asks Eventor first (nothing is cached yet), so it defers and then edits @original.
    const handle = discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'events',
      options: {},
    });
    const reply = await handle.reply(WAIT);
    expect(reply.deleted).toBe(false);
    expect(handle.history().some((e) => e.kind === 'editOriginal' || (e.kind === 'callback' && e.type === 4))).toBe(
      true,
    );
    // The answer went out while the post was still held back by discord.js's global limit.
    expect(discord.messages(world.channel.id).map((m) => m.content)).not.toContain('a post that waits');
    await posted;
    expect(discord.messages(world.channel.id).map((m) => m.content)).toContain('a post that waits');
    const posts = discord
      .requests()
      .filter((r) => r.route === '/channels/:channelId/messages' && r.method === 'POST')
      .map((r) => r.status);
    expect(posts).toEqual([429, 200]);
  });
});
