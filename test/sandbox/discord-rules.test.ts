import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  renderMessageText,
  type SandboxDiscord,
  type SandboxUser,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';
import { RawGateway } from '../support/raw-gateway.js';

/**
 * Wire-level rules of the sandbox (REST via fetch, gateway via a raw WebSocket), without
 * discord.js: Discord's limits table, error shapes, and the gateway handshake.
 */

const x = (n: number): string => 'x'.repeat(n);

describe('sandbox Discord wire rules', () => {
  let clock: number;
  let sandbox: SandboxDiscord;
  let guildId: string;
  let channelId: string;
  let alice: SandboxUser;
  let sockets: RawGateway[];

  const api = (path: string, init: RequestInit & { auth?: boolean } = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (init.auth !== false) headers.set('Authorization', `Bot ${sandbox.token}`);
    if (typeof init.body === 'string') headers.set('Content-Type', 'application/json');
    return fetch(`${sandbox.restUrl}/v10${path}`, { ...init, headers });
  };
  const post = (path: string, body: unknown, auth = true) =>
    api(path, { method: 'POST', body: JSON.stringify(body), auth });

  /** A raw gateway session that completed IDENTIFY (so interactions can be dispatched). */
  const identify = async (): Promise<RawGateway> => {
    const gateway = await RawGateway.open(sandbox.gatewayUrl);
    sockets.push(gateway);
    await gateway.next((f) => f.op === 10);
    gateway.send(2, { token: sandbox.token, intents: 1, properties: {} });
    await gateway.next((f) => f.t === 'READY');
    return gateway;
  };

  beforeEach(async () => {
    clock = Date.parse('2026-11-22T12:00:00Z');
    sandbox = await startSandboxDiscord({ now: () => clock });
    guildId = sandbox.createGuild({ name: 'Sandbox OK' }).id;
    channelId = sandbox.createTextChannel(guildId, { name: 'general' }).id;
    alice = sandbox.createMember(guildId, { username: 'alice' });
    sockets = [];
  });

  afterEach(async () => {
    for (const socket of sockets) socket.close();
    await sandbox.close();
  });

  describe('gateway', () => {
    it('sends HELLO, READY (with guilds and application), GUILD_CREATE, and ACKs heartbeats', async () => {
      const gateway = await identify();
      const hello = gateway.frames[0]!;
      expect(hello).toMatchObject({ op: 10, d: { heartbeat_interval: 41_250 } });
      const ready = await gateway.next((f) => f.t === 'READY');
      expect(ready.d).toMatchObject({
        v: 10,
        user: { id: sandbox.botUser.id, bot: true },
        guilds: [{ id: guildId, unavailable: true }],
        application: { id: sandbox.applicationId },
      });
      const created = await gateway.next((f) => f.t === 'GUILD_CREATE');
      expect(created.s).toBe(2);
      expect(created.d).toMatchObject({ id: guildId, channels: [{ id: channelId, name: 'general', type: 0 }] });
      gateway.send(1, 2);
      await gateway.next((f) => f.op === 11);
      gateway.send(8, { guild_id: guildId, query: 'ali', limit: 0, nonce: 'n1' });
      const chunk = await gateway.next((f) => f.t === 'GUILD_MEMBERS_CHUNK');
      expect(chunk.d).toMatchObject({ guild_id: guildId, nonce: 'n1', chunk_count: 1 });
      expect((chunk.d as { members: { user: { username: string } }[] }).members.map((m) => m.user.username)).toEqual([
        'alice',
      ]);
    });

    it('closes with 4004 on a wrong token and answers an unknown RESUME with INVALID_SESSION', async () => {
      const bad = await RawGateway.open(sandbox.gatewayUrl);
      sockets.push(bad);
      bad.send(2, { token: 'nope', intents: 1 });
      expect(await bad.closed()).toBe(4004);
      const resume = await RawGateway.open(sandbox.gatewayUrl);
      sockets.push(resume);
      resume.send(6, { token: sandbox.token, session_id: 'unknown', seq: 3 });
      expect(await resume.next((f) => f.op === 9)).toMatchObject({ op: 9, d: false });
    });

    it('refuses to dispatch interactions when no bot is connected', () => {
      expect(() => sandbox.runCommand({ guildId, channelId, user: alice, name: 'x', allowUnregistered: true })).toThrow(
        /no bot is connected/,
      );
    });
  });

  describe('REST basics', () => {
    it('answers auth, routing and body errors in Discord JSON shape', async () => {
      const noAuth = await api('/users/@me', { auth: false });
      expect(noAuth.status).toBe(401);
      expect(noAuth.headers.get('content-type')).toBe('application/json');
      expect(await noAuth.json()).toEqual({ message: '401: Unauthorized', code: 0 });
      const unknown = await api('/nothing/here');
      expect([unknown.status, await unknown.json()]).toEqual([404, { message: '404: Not Found', code: 0 }]);
      const wrongMethod = await api('/users/@me', { method: 'DELETE' });
      expect(wrongMethod.status).toBe(405);
      const badJson = await api(`/channels/${channelId}/messages`, {
        method: 'POST',
        body: '{',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(await badJson.json()).toMatchObject({ code: 50109 });
      const missing = await post('/channels/123/messages', { content: 'x' });
      expect([missing.status, await missing.json()]).toEqual([404, { message: 'Unknown Channel', code: 10003 }]);
      const log = sandbox.requests();
      expect(log.map((r) => r.status)).toEqual([401, 404, 405, 400, 404]);
      expect(log[0]).toMatchObject({ method: 'GET', route: '/users/@me', auth: 'none' });
    });

    it('accepts multipart bodies (payload_json + files)', async () => {
      const form = new FormData();
      form.append(
        'payload_json',
        JSON.stringify({ content: 'with file', attachments: [{ id: 0, description: 'csv' }] }),
      );
      form.append('files[0]', new Blob(['a;b\n'], { type: 'text/csv' }), 'results.csv');
      const response = await api(`/channels/${channelId}/messages`, { method: 'POST', body: form });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        content: string;
        attachments: { filename: string; size: number; description: string }[];
      };
      expect(body.content).toBe('with file');
      expect(body.attachments).toMatchObject([{ filename: 'results.csv', size: 4, description: 'csv' }]);
      expect(sandbox.requests().at(-1)).toMatchObject({ files: ['results.csv'], body: { content: 'with file' } });
    });

    it('injects server errors and delays on chosen routes', async () => {
      sandbox.faults.serverError({ route: `POST /channels/${channelId}/messages`, times: 1 });
      expect((await post(`/channels/${channelId}/messages`, { content: 'a' })).status).toBe(502);
      expect((await post(`/channels/${channelId}/messages`, { content: 'a' })).status).toBe(200);
      sandbox.faults.delay({ route: /GET \/users/, ms: 150, times: 1 });
      const started = Date.now();
      await api('/users/@me');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(sandbox.faults.pending()).toBe(0);
    });

    it('validates command definitions', async () => {
      const path = `/applications/${sandbox.applicationId}/commands`;
      const tooMany = Array.from({ length: 26 }, (_, i) => ({ type: 3, name: `o${i}`, description: 'd' }));
      const cases: [unknown, string][] = [
        [{ name: 'ok', description: 'd', options: tooMany }, 'options'],
        [{ name: 'ok', description: 'x'.repeat(101) }, 'description'],
        [{ name: 'ok', description: 'd', name_localizations: { sv: 'ok' } }, 'name_localizations'],
        [
          {
            name: 'ok',
            description: 'd',
            options: [
              { type: 3, name: 'q', description: 'd', autocomplete: true, choices: [{ name: 'a', value: 'a' }] },
            ],
          },
          'options',
        ],
        [{ name: 'Upper', description: 'd' }, 'name'],
      ];
      for (const [command, field] of cases) {
        const response = await api(path, { method: 'PUT', body: JSON.stringify([command]) });
        expect(response.status).toBe(400);
        const body = (await response.json()) as { code: number; errors: Record<string, Record<string, unknown>> };
        expect(body.code).toBe(50035);
        expect(Object.keys(body.errors['0'] ?? {})).toContain(field);
      }
      expect(sandbox.commands()).toEqual([]);
    });
  });

  describe("Discord's message limits", () => {
    const embed = (extra: Record<string, unknown>) => ({ embeds: [{ title: 't', ...extra }] });
    const button = (id: string) => ({ type: 2, style: 1, label: id, custom_id: id });
    const row = (n: number, prefix = 'b') => ({
      type: 1,
      components: Array.from({ length: n }, (_, i) => button(`${prefix}${i}`)),
    });
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `o${i}`, value: `v${i}` }));

    const rejected: [string, unknown, string, string][] = [
      ['content > 2000', { content: x(2001) }, 'content', 'BASE_TYPE_MAX_LENGTH'],
      ['> 10 embeds', { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }, 'embeds', 'BASE_TYPE_MAX_LENGTH'],
      ['embed title > 256', embed({ title: x(257) }), 'embeds.0.title', 'BASE_TYPE_MAX_LENGTH'],
      ['description > 4096', embed({ description: x(4097) }), 'embeds.0.description', 'BASE_TYPE_MAX_LENGTH'],
      [
        '> 25 fields',
        embed({ fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) }),
        'embeds.0.fields',
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        'field name > 256',
        embed({ fields: [{ name: x(257), value: 'v' }] }),
        'embeds.0.fields.0.name',
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        'field value > 1024',
        embed({ fields: [{ name: 'n', value: x(1025) }] }),
        'embeds.0.fields.0.value',
        'BASE_TYPE_MAX_LENGTH',
      ],
      ['footer > 2048', embed({ footer: { text: x(2049) } }), 'embeds.0.footer.text', 'BASE_TYPE_MAX_LENGTH'],
      ['author name > 256', embed({ author: { name: x(257) } }), 'embeds.0.author.name', 'BASE_TYPE_MAX_LENGTH'],
      [
        'all embeds > 6000',
        { embeds: [{ description: x(3000) }, { description: x(3001) }] },
        'embeds',
        'MAX_EMBED_SIZE_EXCEEDED',
      ],
      [
        '> 5 action rows',
        { components: Array.from({ length: 6 }, (_, i) => row(1, `r${i}`)) },
        'components',
        'BASE_TYPE_MAX_LENGTH',
      ],
      ['> 5 buttons in a row', { components: [row(6)] }, 'components.0.components', 'BASE_TYPE_MAX_LENGTH'],
      [
        'select options > 25',
        { components: [{ type: 1, components: [{ type: 3, custom_id: 's', options: options(26) }] }] },
        'components.0.components.0.options',
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        'custom_id > 100',
        { components: [{ type: 1, components: [button(x(101))] }] },
        'components.0.components.0.custom_id',
        'BASE_TYPE_MAX_LENGTH',
      ],
      [
        'duplicate custom_id',
        { components: [row(1), row(1)] },
        'components.1.components.0.custom_id',
        'COMPONENT_CUSTOM_ID_DUPLICATED',
      ],
      [
        'button label > 80',
        { components: [{ type: 1, components: [{ ...button('b'), label: x(81) }] }] },
        'components.0.components.0.label',
        'BASE_TYPE_MAX_LENGTH',
      ],
    ];

    it.each(rejected)('rejects %s with 50035', async (_name, body, path, code) => {
      const response = await post(`/channels/${channelId}/messages`, body);
      expect(response.status).toBe(400);
      const json = (await response.json()) as { code: number; message: string; errors: Record<string, unknown> };
      expect(json.code).toBe(50035);
      expect(json.message).toBe('Invalid Form Body');
      let node: unknown = json.errors;
      for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
      expect((node as { _errors: { code: string }[] })._errors[0]?.code).toBe(code);
      expect(sandbox.messages(channelId)).toEqual([]);
    });

    it('handles Components V2 messages: 40 components at most, no content/embeds, readable rendering', async () => {
      const V2 = 1 << 15;
      const texts = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 10, content: `line ${i}` }));
      const ok = await post(`/channels/${channelId}/messages`, {
        flags: V2,
        components: [{ type: 17, components: [...texts(2), { type: 1, components: [button('go')] }] }],
      });
      expect(ok.status).toBe(200);
      expect(renderMessageText(sandbox.messages(channelId)[0]!, { header: false })).toBe('| line 0\n| line 1\n| [go]');
      const tooMany = await post(`/channels/${channelId}/messages`, { flags: V2, components: texts(41) });
      expect(((await tooMany.json()) as { code: number }).code).toBe(50035);
      const legacy = await post(`/channels/${channelId}/messages`, { flags: V2, content: 'hi', components: texts(1) });
      expect(((await legacy.json()) as { errors: Record<string, unknown> }).errors).toHaveProperty('content');
    });

    it('accepts payloads exactly at the limits', async () => {
      const atLimits = [
        { content: x(2000) },
        { embeds: Array.from({ length: 10 }, () => ({ title: 't' })) },
        { embeds: [{ title: x(256), description: x(4096), footer: { text: x(1648) } }] },
        { embeds: [{ fields: Array.from({ length: 25 }, () => ({ name: x(10), value: x(10) })) }] },
        { components: Array.from({ length: 5 }, (_, i) => row(5, `r${i}-`)) },
        { components: [{ type: 1, components: [{ type: 3, custom_id: x(100), options: options(25) }] }] },
      ];
      for (const body of atLimits) expect((await post(`/channels/${channelId}/messages`, body)).status).toBe(200);
      expect(sandbox.messages(channelId)).toHaveLength(atLimits.length);
      expect((await post(`/channels/${channelId}/messages`, {})).status).toBe(400);
    });
  });

  describe('interaction callbacks and webhooks', () => {
    const callback = (id: string, token: string, body: unknown) =>
      post(`/interactions/${id}/${token}/callback`, body, false);

    it('checks callback types, autocomplete choices, modals and the token lifecycle', async () => {
      await identify();
      const command = sandbox.runCommand({ guildId, channelId, user: alice, name: 'run', allowUnregistered: true });
      const json = async (r: Response) => [r.status, ((await r.json()) as { code: number }).code];

      expect(await json(await callback(command.id, 'wrong-token', { type: 4, data: { content: 'x' } }))).toEqual([
        404, 10062,
      ]);
      expect(await json(await callback(command.id, command.token, { type: 8, data: { choices: [] } }))).toEqual([
        400, 50035,
      ]);
      expect(await json(await callback(command.id, command.token, { type: 7, data: { content: 'x' } }))).toEqual([
        400, 50035,
      ]);
      expect(
        await json(
          await callback(command.id, command.token, {
            type: 9,
            data: { custom_id: 'm', title: x(46), components: [] },
          }),
        ),
      ).toEqual([400, 50035]);
      // Follow-ups before the initial response: Discord does not know the webhook yet.
      const early = await post(
        `/webhooks/${sandbox.applicationId}/${command.token}?wait=true`,
        { content: 'early' },
        false,
      );
      expect(await json(early)).toEqual([404, 10015]);
      expect(command.acknowledged).toBe(false);

      const withResponse = await callback(command.id, command.token, { type: 4, data: { content: 'ok' } });
      expect(withResponse.status).toBe(204);
      expect(await json(await callback(command.id, command.token, { type: 4, data: { content: 'again' } }))).toEqual([
        400, 40060,
      ]);
      const wrongApp = await post(`/webhooks/123/${command.token}`, { content: 'x' }, false);
      expect(wrongApp.status).toBe(404);
      const followUp = await post(
        `/webhooks/${sandbox.applicationId}/${command.token}?wait=true`,
        { content: 'f' },
        false,
      );
      expect(followUp.status).toBe(200);
      clock += 15 * 60_000 + 1;
      const expired = await api(`/webhooks/${sandbox.applicationId}/${command.token}/messages/%40original`, {
        method: 'PATCH',
        body: JSON.stringify({ content: 'late' }),
        auth: false,
      });
      expect(await json(expired)).toEqual([401, 50027]);
      expect(command.history().map((e) => (e.kind === 'rejected' ? e.code : e.kind))).toEqual([
        10062,
        50035,
        50035,
        50035,
        10015,
        'callback',
        40060,
        10015,
        'followUp',
        50027,
      ]);

      const auto = sandbox.startAutocomplete({
        guildId,
        channelId,
        user: alice,
        name: 'run',
        focused: 'q',
        value: 'a',
        allowUnregistered: true,
      });
      const long = await callback(auto.id, auto.token, { type: 8, data: { choices: [{ name: x(101), value: 'v' }] } });
      expect(await json(long)).toEqual([400, 50035]);
      expect(
        (await callback(auto.id, auto.token, { type: 8, data: { choices: [{ name: 'A', value: x(100) }] } })).status,
      ).toBe(204);
      expect(auto.choices()).toEqual([{ name: 'A', value: x(100) }]);
    });
  });

  describe('helpers', () => {
    it('renders messages as readable text', () => {
      const text = renderMessageText({
        author: { username: 'eventor-bot', bot: true },
        ephemeral: true,
        content: 'Upcoming events',
        embeds: [
          {
            title: 'Linnéstafetten',
            url: 'https://eventor.orientering.se/Events/Show/1',
            description: 'Relay\nUppsala',
            fields: [{ name: 'Date', value: '2026-12-01' }],
            footer: { text: 'Eventor' },
          },
        ],
        components: [
          {
            type: 1,
            components: [
              { type: 2, style: 1, label: 'Sign up', custom_id: 'a' },
              { type: 2, style: 5, label: 'Open', url: 'https://eventor.orientering.se' },
              { type: 2, style: 2, label: 'Closed', custom_id: 'c', disabled: true },
            ],
          },
        ],
        attachments: [{ filename: 'start.csv', size: 12 }],
      });
      expect(text).toBe(
        [
          'eventor-bot (BOT, only you can see this):',
          'Upcoming events',
          '',
          '> **Linnéstafetten** (https://eventor.orientering.se/Events/Show/1)',
          '> Relay',
          '> Uppsala',
          '> Date: 2026-12-01',
          '> Eventor',
          '[Sign up] [Open -> https://eventor.orientering.se] [Closed] (disabled)',
          '[file: start.csv, 12 bytes]',
        ].join('\n'),
      );
    });

    it('bounds waits and explains what it was waiting for', async () => {
      await expect(sandbox.waitFor(() => false, { timeoutMs: 50, description: 'the impossible' })).rejects.toThrow(
        'timed out after 50 ms waiting for the impossible',
      );
      const pending = sandbox.waitForMessage(channelId, (m) => m.content === 'later', { timeoutMs: 2000 });
      await post(`/channels/${channelId}/messages`, { content: 'later' });
      expect((await pending).content).toBe('later');
    });

    it('computes permissions from roles, overwrites and ownership', async () => {
      const guild = sandbox.world.guild(guildId);
      const admin = sandbox.createMember(guildId, { username: 'admin', manageGuild: true });
      const manage = 1n << 5n;
      expect(sandbox.world.basePermissions(guildId, admin.id) & manage).toBe(manage);
      expect(sandbox.world.basePermissions(guildId, alice.id) & manage).toBe(0n);
      expect(sandbox.world.basePermissions(guildId, guild.ownerId) & manage).toBe(manage);
      await identify();
      const handle = sandbox.runCommand({ guildId, channelId, user: admin, name: 'x', allowUnregistered: true });
      const member = handle.payload['member'] as { permissions: string; user: { username: string } };
      expect(BigInt(member.permissions) & manage).toBe(manage);
      expect(handle.payload).toMatchObject({
        entitlements: [],
        authorizing_integration_owners: { '0': guildId },
        context: 0,
        guild_locale: 'en-US',
        locale: 'en-US',
      });
      sandbox.setBotCanPost(channelId, false);
      const blocked = sandbox.runCommand({ guildId, channelId, user: alice, name: 'x', allowUnregistered: true });
      expect(BigInt(blocked.payload['app_permissions'] as string) & (1n << 11n)).toBe(0n);
    });
  });
});
