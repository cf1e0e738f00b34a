import { Client, GatewayIntentBits, type Interaction, Routes, SlashCommandBuilder } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loginSandboxClient } from '../../harness/sandbox/discord/client.js';
import {
  type SandboxDiscord,
  type SandboxDiscordOptions,
  type SandboxUser,
  shardOf,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';
import { RawGateway } from '../support/raw-gateway.js';

/**
 * Gateway sharding as Discord documents it (docs/discord.md#sharding): real discord.js clients on
 * different shards of one bot, the close codes 4010 and 4011, `GET /gateway/bot`'s figures and the
 * session start limit, and a raw WebSocket where discord.js hides the wire.
 */

const T0 = Date.parse('2026-11-22T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
/** Milliseconds since Discord's epoch at T0, rounded so that `(id >> 22) % n` is just the offset added. */
const BASE = ((BigInt(T0) - 1_420_070_400_000n) / 1000n) * 1000n;

/** A guild id whose events travel on `shard` of `numShards` (`numShards` must divide 1000). */
const guildIdOn = (shard: number, numShards: number, k: number): string =>
  String(((BASE + BigInt(k * numShards + shard)) << 22n) | (1n << 17n));

/** Resolve with `value()` once it is defined, or reject after `timeoutMs`; polls every 10 ms. */
async function eventually<T>(value: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = value();
    if (found !== undefined) return found;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('sandbox Discord: gateway sharding', () => {
  let clock: number;
  let sandbox: SandboxDiscord;
  let clients: Client[] = [];
  let sockets: RawGateway[] = [];

  const start = async (options: SandboxDiscordOptions = {}): Promise<SandboxDiscord> => {
    clock = T0;
    sandbox = await startSandboxDiscord({ now: () => clock, ...options });
    return sandbox;
  };

  /** A client on the given shards; each interaction it receives is recorded under its name. */
  const login = async (name: string, shards: number[], shardCount: number, seen: string[] = []): Promise<Client> => {
    const client = await loginSandboxClient(sandbox, { shards, shardCount, intents: [GatewayIntentBits.Guilds] });
    clients.push(client);
    client.on('interactionCreate', (interaction: Interaction) => {
      seen.push(`${name}:${interaction.guildId ?? 'dm'}`);
      if (interaction.isChatInputCommand()) void interaction.reply(`answered by ${name}`).catch(() => undefined);
    });
    return client;
  };

  /**
   * A client whose login the sandbox refuses: resolves, once `login()` has settled (a bounded wait),
   * with how it ended and the shard errors and unrecoverable disconnects discord.js reported.
   */
  const refusedLogin = async (options: { shards?: number[]; shardCount?: number }) => {
    const client = new Client({ intents: [GatewayIntentBits.Guilds], ...options, rest: { api: sandbox.restUrl } });
    clients.push(client);
    const errors: string[] = [];
    const disconnects: number[] = [];
    client.on('shardError', (error) => errors.push(error.message));
    client.on('shardDisconnect', (event) => disconnects.push(event.code));
    let ready = false;
    client.once('clientReady', () => (ready = true));
    let outcome: string | undefined;
    client.login(sandbox.token).then(
      () => (outcome = 'resolved'),
      (error: unknown) => (outcome = `rejected: ${(error as Error).message}`),
    );
    const settled = await eventually(() => outcome, 'login() to settle');
    return { errors, disconnects, outcome: settled, ready: () => ready };
  };

  afterEach(async () => {
    for (const client of clients) await client.destroy();
    for (const socket of sockets) socket.ws.terminate();
    clients = [];
    sockets = [];
    await sandbox?.close();
  });

  const raw = async (): Promise<RawGateway> => {
    const gateway = await RawGateway.open(sandbox.gatewayUrl);
    sockets.push(gateway);
    return gateway;
  };

  describe('with discord.js', () => {
    /** Two guilds on each shard of two, a member in all, and a DM-capable command. */
    const world = () => {
      const owner = sandbox.createUser({ username: 'owner' });
      const guilds = [guildIdOn(0, 2, 0), guildIdOn(1, 2, 0), guildIdOn(0, 2, 1), guildIdOn(1, 2, 1)].map((id, i) =>
        sandbox.createGuild({ id, name: `Club ${i}`, owner }),
      );
      const alice = sandbox.createUser({ username: 'alice' });
      const channels = guilds.map((guild) => {
        sandbox.addMember(guild.id, alice);
        return sandbox.createTextChannel(guild.id, { name: 'general' }).id;
      });
      return { guilds: guilds.map((g) => g.id), channels, alice };
    };

    const commands = [
      new SlashCommandBuilder().setName('me').setDescription('About me').setDMPermission(true).toJSON(),
    ];

    it('gives each of two clients exactly its shard’s guilds, their interactions, and DMs to shard 0', async () => {
      await start({ sharding: { maxConcurrency: 2 } });
      const { guilds, channels, alice } = world();
      expect(guilds.map((id) => shardOf(id, 2))).toEqual([0, 1, 0, 1]);
      const seen: string[] = [];
      const zero = await login('shard0', [0], 2, seen);
      const one = await login('shard1', [1], 2, seen);
      await zero.application!.commands.set(commands);

      expect([...zero.guilds.cache.keys()].sort()).toEqual([guilds[0], guilds[2]].sort());
      expect([...one.guilds.cache.keys()].sort()).toEqual([guilds[1], guilds[3]].sort());
      const identifies = sandbox.gatewayFrames().filter((f) => f.op === 2);
      expect(identifies.map((f) => (f.d as { shard: unknown }).shard)).toEqual([
        [0, 2],
        [1, 2],
      ]);

      // Every guild's command reaches the client of its shard, once.
      for (const [i, guildId] of guilds.entries()) {
        const reply = await sandbox
          .runCommand({ guildId, channelId: channels[i]!, user: alice, name: 'me' })
          .reply({ timeoutMs: 10_000 });
        expect(reply.content).toBe(`answered by shard${shardOf(guildId, 2)}`);
      }
      // A DM has no guild: shard 0 only.
      const dm = await sandbox.runCommand({ user: alice, name: 'me' }).reply({ timeoutMs: 10_000 });
      expect(dm.content).toBe('answered by shard0');
      expect(seen).toEqual([
        `shard0:${guilds[0]}`,
        `shard1:${guilds[1]}`,
        `shard0:${guilds[2]}`,
        `shard1:${guilds[3]}`,
        'shard0:dm',
      ]);

      // Later guild events follow the same rule: a channel made in a shard-1 guild reaches only that client.
      const late = sandbox.createTextChannel(guilds[1]!, { name: 'results' });
      await eventually(() => one.channels.cache.get(late.id), 'the channel on shard 1');
      const marker = sandbox.createTextChannel(guilds[0]!, { name: 'marker' });
      await eventually(() => zero.channels.cache.get(marker.id), 'the channel on shard 0');
      expect(zero.channels.cache.has(late.id)).toBe(false);
      expect(one.channels.cache.has(marker.id)).toBe(false);
    });

    it('runs both shards in one client when it asks for shardCount 2', async () => {
      await start({ sharding: { maxConcurrency: 2 } });
      const { guilds } = world();
      const both = await login('both', [0, 1], 2);
      expect([...both.guilds.cache.keys()].sort()).toEqual([...guilds].sort());
      expect(both.guilds.cache.get(guilds[1]!)?.shardId).toBe(1);
      expect(both.guilds.cache.get(guilds[2]!)?.shardId).toBe(0);
    });

    it('closes an invalid shard with 4010, which discord.js reports without reconnecting', async () => {
      await start();
      world();
      // discord.js counts the shards listed when no shardCount is given: shard 1 of 1 does not exist.
      const refused = await refusedLogin({ shards: [1] });
      expect(refused.outcome).toBe('rejected: Invalid shard');
      expect(refused.errors).toEqual(['Invalid shard']);
      expect(refused.disconnects).toEqual([4010]);
      expect(refused.ready()).toBe(false);
      expect(sandbox.gatewayFrames().filter((f) => f.op === 2)).toHaveLength(1);
    });

    it('closes with 4011 when one session would hold more guilds than a shard may, and shards then work', async () => {
      await start({ sharding: { guildsPerShard: 2, maxConcurrency: 2 } });
      const { guilds } = world();
      const gatewayBot = (await clientRest().get(Routes.gatewayBot())) as { shards: number };
      expect(gatewayBot.shards).toBe(2);

      const refused = await refusedLogin({});
      expect(refused.outcome).toBe('rejected: Sharding is required');
      expect(refused.errors).toEqual(['Sharding is required']);
      expect(refused.disconnects).toEqual([4011]);
      expect(refused.ready()).toBe(false);

      const sharded = await login('sharded', [0, 1], 2);
      expect(sharded.guilds.cache.size).toBe(guilds.length);
    });

    it('reports the session start limit, which each IDENTIFY uses and a day restores', async () => {
      await start({ sharding: { sessionStartTotal: 2 } });
      world();
      const before = (await clientRest().get(Routes.gatewayBot())) as GatewayBot;
      expect(before).toEqual({
        url: sandbox.gatewayUrl,
        shards: 1,
        session_start_limit: { total: 2, remaining: 2, reset_after: DAY_MS, max_concurrency: 1 },
      });
      await login('first', [0], 1);
      clock += 60_000;
      const after = (await clientRest().get(Routes.gatewayBot())) as GatewayBot;
      expect(after.session_start_limit).toEqual({
        total: 2,
        remaining: 1,
        reset_after: DAY_MS - 60_000,
        max_concurrency: 1,
      });
      // discord.js itself refuses to start more shards than starts remain.
      const refused = await refusedLogin({ shards: [0, 1], shardCount: 2 });
      expect(refused.outcome).toMatch(/^rejected: Not enough sessions remaining to spawn 2 shards; only 1 remaining/);
      expect(sandbox.gatewayFrames().filter((f) => f.op === 2)).toHaveLength(1);

      clock += DAY_MS;
      expect(sandbox.sessionStartLimit()).toMatchObject({ remaining: 2, reset_after: DAY_MS });
    });
  });

  describe('on the wire', () => {
    it('sends READY with the shard and only its guilds, GUILD_CREATE for those, and no shard when none was asked', async () => {
      await start();
      const ids = [guildIdOn(0, 4, 0), guildIdOn(2, 4, 0), guildIdOn(2, 4, 1), guildIdOn(3, 4, 0)];
      for (const id of ids) sandbox.createGuild({ id, name: `Club ${id}` });

      const two = await raw();
      two.identify(sandbox.token, { shard: [2, 4] });
      const ready = await two.next((f) => f.t === 'READY', 'READY');
      expect(ready.d).toMatchObject({ shard: [2, 4], guilds: [{ id: ids[1] }, { id: ids[2] }] });
      await eventually(() => (two.dispatched('GUILD_CREATE').length === 2 ? true : undefined), 'two GUILD_CREATEs');
      expect(two.dispatched('GUILD_CREATE').map((f) => (f.d as { id: string }).id)).toEqual([ids[1], ids[2]]);

      const whole = await raw();
      whole.identify(sandbox.token);
      const unsharded = await whole.next((f) => f.t === 'READY', 'READY');
      expect(unsharded.d).not.toHaveProperty('shard');
      expect((unsharded.d as { guilds: unknown[] }).guilds).toHaveLength(4);

      // A guild joined later is announced on its own shard only; DM messages go to shard 0 only.
      const late = sandbox.createGuild({ id: guildIdOn(3, 4, 1), name: 'Late' });
      await whole.next((f) => f.t === 'GUILD_CREATE' && (f.d as { id: string }).id === late.id, 'late GUILD_CREATE');
      const user: SandboxUser = sandbox.createUser({ username: 'bob' });
      const zero = await raw();
      zero.identify(sandbox.token, { shard: [0, 4] });
      await zero.next((f) => f.t === 'READY', 'READY');
      sandbox.say({ channelId: sandbox.world.dmChannel(user).id, user, content: 'hello bot' });
      await zero.next((f) => f.t === 'MESSAGE_CREATE', 'the DM on shard 0');
      await whole.next((f) => f.t === 'MESSAGE_CREATE', 'the DM on the unsharded session');
      expect(two.dispatched('GUILD_CREATE')).toHaveLength(2);
      expect(two.dispatched('MESSAGE_CREATE')).toHaveLength(0);

      // Member requests are answered for the shard's own guilds only: one chunk, for ids[1].
      two.ws.send(JSON.stringify({ op: 8, d: { guild_id: [ids[0], ids[1]], query: '', limit: 0, nonce: 'n1' } }));
      await two.next((f) => f.t === 'GUILD_MEMBERS_CHUNK', 'a member chunk');
      expect(two.dispatched('GUILD_MEMBERS_CHUNK').map((f) => (f.d as { guild_id: string }).guild_id)).toEqual([
        ids[1],
      ]);
    });

    it('closes 4010 for every invalid shard and 4011 above the per-shard maximum', async () => {
      await start({ sharding: { guildsPerShard: 1 } });
      for (const shard of [[2, 2], [-1, 2], [0, 0], [0], [0, 1, 2], 'x', [0.5, 2]]) {
        const gateway = await raw();
        gateway.identify(sandbox.token, { shard });
        expect({ shard, code: await gateway.closed(), reason: gateway.closeReason }).toEqual({
          shard,
          code: 4010,
          reason: 'Invalid shard.',
        });
      }
      sandbox.createGuild({ id: guildIdOn(0, 2, 0), name: 'A' });
      sandbox.createGuild({ id: guildIdOn(0, 2, 1), name: 'B' });
      sandbox.createGuild({ id: guildIdOn(1, 2, 0), name: 'C' });
      // Shard 0 of 2 would hold two guilds, one more than allowed; shard 1 of 2 holds one, and shard 0 of 4 one.
      for (const [shard, code] of [
        [[0, 2], 4011],
        [[1, 2], null],
        [[0, 4], null],
      ] as const) {
        const gateway = await raw();
        gateway.identify(sandbox.token, { shard });
        if (code === null) await gateway.next((f) => f.t === 'READY', `READY on ${String(shard)}`);
        else expect([await gateway.closed(), gateway.closeReason]).toEqual([code, 'Sharding required.']);
      }
    });

    it('answers IDENTIFYs beyond max_concurrency with op 9 when asked to enforce it', async () => {
      await start({ sharding: { maxConcurrency: 2, enforceMaxConcurrency: true } });
      sandbox.createGuild({ id: guildIdOn(0, 2, 0), name: 'A' });
      // Shards 0 and 1 have different rate limit keys (0 % 2, 1 % 2): both may start at once.
      const zero = await raw();
      zero.identify(sandbox.token, { shard: [0, 2] });
      const one = await raw();
      one.identify(sandbox.token, { shard: [1, 2] });
      await zero.next((f) => f.t === 'READY', 'READY on shard 0');
      await one.next((f) => f.t === 'READY', 'READY on shard 1');
      // Shard 2 of 4 shares key 0 with shard 0, which identified well within 5 seconds.
      const again = await raw();
      again.identify(sandbox.token, { shard: [2, 4] });
      expect((await again.next((f) => f.op === 9, 'INVALID_SESSION')).d).toBe(false);
      expect(again.closeCode).toBeNull();
      expect(again.dispatched('READY')).toHaveLength(0);
      expect(sandbox.sessionStartLimit().remaining).toBe(998);
    });

    it('when the starts run out, ends every session and resets the token, as Discord does', async () => {
      await start({ sharding: { sessionStartTotal: 2 } });
      const first = await raw();
      first.identify(sandbox.token);
      const ready = await first.next((f) => f.t === 'READY', 'READY');
      const second = await raw();
      second.identify(sandbox.token, { shard: [0, 1] });
      await second.next((f) => f.t === 'READY', 'READY');
      expect(sandbox.sessionStartLimit().remaining).toBe(0);

      const oldToken = sandbox.token;
      const third = await raw();
      third.identify(oldToken);
      expect(await third.closed()).toBe(4004);
      expect(await first.closed()).toBe(4004);
      expect(await second.closed()).toBe(4004);
      expect(sandbox.token).not.toBe(oldToken);

      // The old token is dead on REST and the gateway; the ended sessions cannot resume.
      const rest = await fetch(`${sandbox.restUrl}/v10/gateway/bot`, { headers: { Authorization: `Bot ${oldToken}` } });
      expect(rest.status).toBe(401);
      const resume = await raw();
      resume.ws.send(
        JSON.stringify({
          op: 6,
          d: { token: sandbox.token, session_id: (ready.d as { session_id: string }).session_id, seq: 1 },
        }),
      );
      expect((await resume.next((f) => f.op === 9, 'INVALID_SESSION')).d).toBe(false);

      // A day later the starts are back, for the new token.
      clock += DAY_MS;
      const fresh = await raw();
      fresh.identify(sandbox.token);
      await fresh.next((f) => f.t === 'READY', 'READY with the new token');
      expect(sandbox.sessionStartLimit()).toMatchObject({ total: 2, remaining: 1 });
    });
  });

  /** A REST client for the sandbox with the bot's current token. */
  function clientRest() {
    const client = new Client({ intents: [], rest: { api: sandbox.restUrl } });
    clients.push(client);
    client.rest.setToken(sandbox.token);
    return client.rest;
  }
});

interface GatewayBot {
  url: string;
  shards: number;
  session_start_limit: Record<string, number>;
}
