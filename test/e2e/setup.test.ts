import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalZone } from '../../commands/setup.js';
import { parseBaseUrl } from '../../src/app/setup.js';
import { INSTANCES } from '../../src/eventor/instances.js';
import {
  type InteractionHandle,
  type MessageView,
  renderMessageText,
  type SandboxChannel,
  type SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { describeEachDialect } from '../support/stores.js';
import { worldSql, worldTables } from '../support/world-store.js';
import { startTestWorld } from '../support/test-world.js';
import { runningTestClock } from '../support/clock.js';

const WAIT = { timeoutMs: 10_000 };
const MADE_UP_KEY = 'f00dfeedf00dfeedf00dfeedf00dfeed';
const MANAGE_GUILD = 1n << 5n;

describe('/setup end to end (sandbox Discord, sandbox Eventor, a server without a default Eventor)', () => {
  let world: LoopbackWorld;
  let results: SandboxChannel;
  let closed: SandboxChannel;
  const handles: InteractionHandle[] = [];

  beforeAll(async () => {
    world = await startTestWorld({ defaultEventor: false });
    results = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
    closed = world.discord.createTextChannel(world.guild.id, { name: 'styrelsen' });
  });
  afterAll(async () => {
    await world?.close();
  });

  const setup = (
    subcommand: string,
    options: Record<string, string | number | boolean> = {},
    who: { user?: SandboxUser; locale?: string; bypassCommandPermissions?: boolean } = {},
  ): InteractionHandle => {
    const handle = world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: who.user ?? world.admin,
      locale: who.locale ?? 'en-GB',
      name: 'setup',
      subcommand,
      options,
      ...(who.bypassCommandPermissions ? { bypassCommandPermissions: true } : {}),
    });
    handles.push(handle);
    return handle;
  };
  const text = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return renderMessageText(reply);
  };
  /** Opens the key modal for a base URL and submits `key`; resolves with the reply. */
  const connect = async (
    key: string,
    options: { locale?: string; baseUrl?: string; memberPermissions?: bigint } = {},
  ): Promise<string> => {
    const opener = setup(
      'eventor',
      { base_url: options.baseUrl ?? world.eventor.baseUrl },
      { locale: options.locale ?? 'en-GB' },
    );
    const modal = await opener.waitForModal(WAIT);
    const handle = world.discord.submitModal({
      user: world.admin,
      locale: options.locale ?? 'en-GB',
      customId: modal.custom_id,
      fields: { key },
      ...(options.memberPermissions !== undefined ? { memberPermissions: options.memberPermissions } : {}),
    });
    handles.push(handle);
    return text(handle);
  };
  const settings = async () => await world.bot.store.servers.guildSettings(world.guild.id);

  it('is registered for Manage Server, in servers only, with localised subcommands', () => {
    const command = world.discord.commands({ guildId: world.guild.id }).find((c) => c.name === 'setup');
    expect(command?.default_member_permissions).toBe(String(MANAGE_GUILD));
    expect(command?.contexts).toEqual([0]);
    const names = (command?.options ?? []).map((o) => o.name_localizations?.['sv-SE']);
    expect(names).toEqual(['eventor', 'språk', 'tidszon', 'kanal', 'visa', 'koppling']);
    expect((command?.options ?? []).map((o) => o.name_localizations?.no)).toEqual([
      'eventor',
      'språk',
      'tidssone',
      'kanal',
      'vis',
      'kobling',
    ]);
  });

  it('starts unconfigured: /status and /setup show say so', async () => {
    const status = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'status',
      })
      .reply(WAIT);
    expect(renderMessageText(status)).toContain('Not connected to Eventor yet');
    expect(await text(setup('show'))).toContain('Not connected. Use `/setup eventor`.');
    expect((await settings())?.hasApiKey ?? false).toBe(false);
  });

  it('refuses members without Manage Server, even when the command is reachable, in their language', async () => {
    expect(() => setup('show', {}, { user: world.member })).toThrow(/default_member_permissions/);
    expect(await text(setup('show', {}, { user: world.member, bypassCommandPermissions: true }))).toContain(
      'Only members with the Manage Server permission',
    );
    const eventor = setup(
      'eventor',
      { base_url: world.eventor.baseUrl },
      { user: world.swedishMember, locale: 'sv-SE', bypassCommandPermissions: true },
    );
    expect(await text(eventor)).toContain('Bara medlemmar med behörigheten Hantera server');
    expect(eventor.modal()).toBeNull();
    expect(
      await text(
        setup(
          'channel',
          { kind: 'results', channel: results.id },
          { user: world.member, bypassCommandPermissions: true },
        ),
      ),
    ).toContain('Manage Server');
    expect((await settings())?.channels.results).toBeUndefined();
  });

  it('re-checks Manage Server when the key form comes back', async () => {
    expect(await connect(world.eventor.apiKey, { memberPermissions: 0n })).toContain(
      'Only members with the Manage Server permission',
    );
    expect((await settings())?.hasApiKey ?? false).toBe(false);
  });

  it('refuses unusable addresses and a choice of both or neither, before asking for the key', async () => {
    expect(await text(setup('eventor', {}))).toContain('Choose exactly one');
    expect(await text(setup('eventor', { instance: 'se', base_url: world.eventor.baseUrl }))).toContain(
      'Choose exactly one',
    );
    expect(await text(setup('eventor', { base_url: 'not an address' }))).toContain('it is not a web address');
    expect(await text(setup('eventor', { base_url: 'http://eventor.example.org/api' }, { locale: 'sv-SE' }))).toContain(
      'den måste börja med https://',
    );
    expect(await text(setup('eventor', { base_url: 'https://intranet.example.org/api' }))).toContain(
      'allows only the listed Eventor instances',
    );
    const credentials = await text(
      setup('eventor', { base_url: 'https://user:pw@eventor.example.org/api' }, { locale: 'no' }),
    );
    expect(credentials).toContain('den kan ikke inneholde brukernavn eller passord');
    expect(credentials).not.toContain('pw@');
    expect((await settings())?.eventorBaseUrl ?? null).toBeNull();
  });

  it('asks for the key in a modal whose custom id carries neither the key nor the address', async () => {
    const opener = setup('eventor', { base_url: world.eventor.baseUrl }, { locale: 'sv-SE' });
    const modal = await opener.waitForModal(WAIT);
    expect(modal.title).toBe('API-nyckel till Eventor');
    expect(modal.title.length).toBeLessThanOrEqual(45);
    expect(modal.custom_id).toMatch(/^setup:key:custom:[\w-]+$/);
    expect(modal.custom_id).not.toContain('127.0.0.1');
    const preset = await setup('eventor', { instance: 'no' }).waitForModal(WAIT);
    expect(preset.custom_id).toBe('setup:key:no');
    // Every preset the option offers, hyphenated names too.
    const hyphenated = await setup('eventor', { instance: 'no-se-host' }).waitForModal(WAIT);
    expect(hyphenated.custom_id).toBe('setup:key:no-se-host');
  });

  it("keeps a custom address waiting for its key to the server that asked: the admin's form sent from another server is refused", async () => {
    // The admin manages both servers; the waiting address is the first server's, whoever submits it where.
    const other = world.discord.createGuild({ name: 'Another club', owner: world.admin });
    const otherChannel = world.discord.createTextChannel(other.id, { name: 'admin' });
    const modal = await setup('eventor', { base_url: world.eventor.baseUrl }).waitForModal(WAIT);
    expect(modal.custom_id).toMatch(/^setup:key:custom:[\w-]+$/);
    const before = world.eventor.requests.length;
    const forged = world.discord.submitModal({
      user: world.admin,
      locale: 'en-GB',
      customId: modal.custom_id,
      fields: { key: world.eventor.apiKey },
      guildId: other.id,
      channelId: otherChannel.id,
    });
    handles.push(forged);
    expect(await text(forged)).toContain('This form has expired. Nothing was changed');
    expect(world.eventor.requests.length).toBe(before);
    expect((await world.bot.store.servers.guildSettings(other.id))?.hasApiKey ?? false).toBe(false);
    expect(await world.bot.store.servers.apiKey(other.id)).toBeNull();
  });

  it('refuses a key of the wrong shape without asking Eventor', async () => {
    const before = world.eventor.requests.length;
    expect(await connect('not a key with spaces')).toContain('does not look like an Eventor API key');
    expect(world.eventor.requests.length).toBe(before);
    expect((await settings())?.hasApiKey ?? false).toBe(false);
  });

  it('stores nothing when Eventor refuses the key', async () => {
    expect(await connect(MADE_UP_KEY)).toMatch(/127\.0\.0\.1:\d+ refused this key\. Nothing was changed/);
    expect(await connect(MADE_UP_KEY, { locale: 'sv-SE' })).toContain('godtog inte nyckeln. Inget har ändrats');
    const after = await settings();
    expect(after?.hasApiKey ?? false).toBe(false);
    expect(after?.eventorBaseUrl ?? null).toBeNull();
    expect(await world.bot.store.servers.apiKey(world.guild.id)).toBeNull();
  });

  it('stores nothing when Eventor is not answering, and says so', async () => {
    world.eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'status', status: 503, times: 50 });
    try {
      expect(await connect(world.eventor.apiKey, { locale: 'no' })).toContain(
        'svarer ikke akkurat nå. Ingenting er endret',
      );
    } finally {
      world.eventor.faults.clear();
    }
    expect((await settings())?.hasApiKey ?? false).toBe(false);
  });

  it("connects with the club's key: stored encrypted, /status then names the club", async () => {
    const club = world.eventor.dataset.homeClub;
    expect(await connect(world.eventor.apiKey)).toContain(`Connected to ${club.name} on 127.0.0.1`);
    const stored = (await settings())!;
    expect(stored).toMatchObject({
      hasApiKey: true,
      eventorInstance: 'custom',
      eventorBaseUrl: world.eventor.baseUrl,
      organisationId: club.id,
      organisationName: club.name,
    });
    expect(await world.bot.store.servers.apiKey(world.guild.id)).toBe(world.eventor.apiKey);
    const status = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.swedishMember,
        locale: 'sv-SE',
        name: 'status',
      })
      .reply(WAIT);
    expect(renderMessageText(status)).toContain(`API-nyckeln fungerar för ${club.name}`);
  });

  it('keeps the working connection when a later key is refused', async () => {
    expect(await connect(MADE_UP_KEY)).toContain('refused this key');
    expect(await world.bot.store.servers.apiKey(world.guild.id)).toBe(world.eventor.apiKey);
    expect((await settings())?.organisationName).toBe(world.eventor.dataset.homeClub.name);
  });

  it("sets the language of automatic posts, answering in the admin's own language", async () => {
    expect(await text(setup('language', { language: 'sv' }, { locale: 'en-GB' }))).toContain(
      'Automatic posts will be in Swedish',
    );
    expect((await settings())?.locale).toBe('sv');
    expect(await text(setup('language', { language: 'nb' }, { locale: 'sv-SE' }))).toContain(
      'Automatiska inlägg skrivs nu på norska (bokmål)',
    );
    expect((await settings())?.locale).toBe('nb');
  });

  it('sets the time zone, with autocomplete, and refuses an unknown one', async () => {
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.admin,
      name: 'setup',
      subcommand: 'timezone',
      focused: 'zone',
      value: 'oslo',
      ...WAIT,
    });
    expect(choices.map((c) => c.value)).toContain('Europe/Oslo');
    const first = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.admin,
      name: 'setup',
      subcommand: 'timezone',
      focused: 'zone',
      value: '',
      ...WAIT,
    });
    expect(first[0]?.value).toBe('Europe/Stockholm');
    expect(first.length).toBeLessThanOrEqual(25);
    expect(await text(setup('timezone', { zone: 'Europe/Oslo' }))).toMatch(
      /Times in automatic posts will be in Europe\/Oslo \(the time there now: \d\d:\d\d\)/,
    );
    expect((await settings())?.timeZone).toBe('Europe/Oslo');
    expect(await text(setup('timezone', { zone: 'Mars/Olympus_Mons' }, { locale: 'sv-SE' }))).toContain(
      '`Mars/Olympus_Mons` är ingen tidszon som jag känner till',
    );
    expect(await text(setup('timezone', { zone: 'CEST' }))).toContain('is not a time zone I know');
    expect((await settings())?.timeZone).toBe('Europe/Oslo');
  });

  it('sets a channel per kind only where the bot can post, and clears one', async () => {
    expect(await text(setup('channel', { kind: 'results', channel: results.id }))).toContain(
      `Results: posted in <#${results.id}> from now on.`,
    );
    expect((await settings())?.channels.results).toBe(results.id);

    world.discord.setBotCanPost(closed.id, false);
    expect(await text(setup('channel', { kind: 'admin', channel: closed.id }))).toContain(
      `I cannot post in <#${closed.id}>: I am missing the permission Send Messages`,
    );
    expect(await text(setup('channel', { kind: 'admin', channel: closed.id }, { locale: 'sv-SE' }))).toContain(
      'jag saknar behörigheten Skicka meddelanden där',
    );
    world.discord.setBotCanView(closed.id, false);
    expect(await text(setup('channel', { kind: 'admin', channel: closed.id }))).toContain(
      'I am missing the permission View Channel, Send Messages there',
    );
    world.discord.setBotCanView(closed.id, true);
    expect((await settings())?.channels.admin).toBeUndefined();

    expect(await text(setup('channel', { kind: 'events' }))).toContain(
      'Give either a channel or `clear: True` (exactly one of them). Nothing was changed.',
    );
    expect(
      await text(setup('channel', { kind: 'events', channel: results.id, clear: true }, { locale: 'sv-SE' })),
    ).toContain('Ange antingen en kanal eller `rensa: True`');
    expect(await text(setup('channel', { kind: 'reminders', channel: results.id }, { locale: 'no' }))).toContain(
      'Påminnelser om påmeldingsfrist: postes i',
    );
    expect(await text(setup('channel', { kind: 'reminders', clear: true }))).toContain(
      'Entry deadline reminders: no channel any more',
    );
    expect((await settings())?.channels).toEqual({ results: results.id });
  });

  it('shows every setting in English and Swedish, with the key only as "stored"', async () => {
    // A channel that lost the bot's permission after it was chosen shows up as such.
    world.discord.setBotCanPost(closed.id, true);
    await text(setup('channel', { kind: 'admin', channel: closed.id }));
    world.discord.setBotCanPost(closed.id, false);
    const club = world.eventor.dataset.homeClub.name;
    const english = await text(setup('show'));
    expect(english).toContain(`${club} on 127.0.0.1`);
    expect(english).toContain('An API key is stored (it is never shown).');
    expect(english).toContain('Language of automatic posts: Norwegian (Bokmål)');
    expect(english).toContain('Time zone: Europe/Oslo');
    expect(english).toContain(`**Results**: <#${results.id}> (can post)`);
    expect(english).toContain(`**Notices for admins**: <#${closed.id}> (cannot post: missing Send Messages)`);
    expect(english).toContain('**Start lists**: not set');
    const swedish = await text(setup('show', {}, { locale: 'sv-SE' }));
    expect(swedish).toContain(`${club} i 127.0.0.1`);
    expect(swedish).toContain('En API-nyckel är sparad (den visas aldrig).');
    expect(swedish).toContain('Språk i automatiska inlägg: norska (bokmål)');
    expect(swedish).toContain('Tidszon: Europe/Oslo');
    expect(swedish).toContain(`**Resultat**: <#${results.id}> (kan posta)`);
    expect(swedish).toContain('**Startlistor**: inte vald');
    for (const shown of [english, swedish]) {
      expect(shown).not.toContain(world.eventor.apiKey);
      expect(shown).not.toContain(world.eventor.apiKey.slice(-4));
    }
  });

  it('never lets the key out: not in any reply, log line or database row', async () => {
    const key = world.eventor.apiKey;
    const replies: MessageView[] = [];
    for (const handle of handles) {
      const original = handle.original();
      if (original) replies.push(original);
      replies.push(...handle.followUps());
      expect(JSON.stringify(handle.modal() ?? {})).not.toContain(key);
    }
    expect(replies.length).toBeGreaterThan(20);
    for (const reply of replies) expect(JSON.stringify(reply)).not.toContain(key);
    for (const message of world.discord.messages(world.channel.id, { includeEphemeral: true }))
      expect(JSON.stringify(message)).not.toContain(key);
    const logs = world.logLines.join('\n');
    expect(logs).toContain('server connected to eventor');
    // The server's first connection had no previous one to tell: no error logged for it.
    expect(logs).not.toContain('error.notConfigured');
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(MADE_UP_KEY);
    // Stored, but sealed: no row of any table holds it in clear text.
    expect(await world.bot.store.servers.apiKey(world.guild.id)).toBe(key);
    const tables = await worldTables(world);
    expect(tables).toContain('guild_settings');
    for (const table of tables)
      expect(JSON.stringify(await worldSql(world, `SELECT * FROM "${table}"`)), table).not.toContain(key);
  });

  it('[SQLite only] never lets the key out: not in any byte of the database file or its write-ahead log', async () => {
    const key = world.eventor.apiKey;
    for (const file of [world.databasePath, `${world.databasePath}-wal`]) {
      const bytes = await readFile(file).catch(() => Buffer.alloc(0));
      expect(bytes.includes(Buffer.from(key)), file).toBe(false);
    }
  });

  it("connects to another club with that club's valid key", async () => {
    const other = world.eventor.dataset.clubs.find((c) => c.id !== world.eventor.dataset.homeClub.id)!;
    expect(await connect(world.eventor.dataset.keyFor(other.id), { locale: 'sv-SE' })).toContain(
      `Kopplad till ${other.name} i 127.0.0.1`,
    );
    expect((await settings())?.organisationId).toBe(other.id);
    expect((await settings())?.channels.results).toBe(results.id);
  });
});

describe('/setup: the key form of a custom Eventor expires', () => {
  it('after 15 minutes, with nothing stored', async () => {
    const clock = runningTestClock();
    const world = await startTestWorld({ defaultEventor: false, now: clock.now });
    try {
      const opener = world.discord.runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.admin,
        locale: 'sv-SE',
        name: 'setup',
        subcommand: 'eventor',
        options: { base_url: world.eventor.baseUrl },
      });
      const modal = await opener.waitForModal(WAIT);
      clock.advance(16 * 60_000);
      const reply = await world.discord
        .submitModal({ user: world.admin, customId: modal.custom_id, fields: { key: world.eventor.apiKey } })
        .reply(WAIT);
      expect(renderMessageText(reply)).toContain('Formuläret har gått ut. Inget har ändrats');
      expect((await world.bot.store.servers.guildSettings(world.guild.id))?.hasApiKey ?? false).toBe(false);
    } finally {
      await world.close();
    }
  });
});

describe('/setup helpers', () => {
  it('reads base URLs: presets by their address, /api added to a bare host, no plain http off this machine', () => {
    const allowed = ['https://eventor.example.org', 'http://127.0.0.1:8080'];
    expect(parseBaseUrl('https://eventor.orientering.se/api', [])).toBe(INSTANCES.se);
    expect(parseBaseUrl('https://eventor.example.org/', allowed)).toMatchObject({
      name: 'custom',
      baseUrl: 'https://eventor.example.org/api',
    });
    expect(parseBaseUrl('http://127.0.0.1:8080/api', allowed)).toMatchObject({
      name: 'custom',
      baseUrl: 'http://127.0.0.1:8080/api',
    });
    expect(parseBaseUrl('http://eventor.example.org/api', allowed)).toEqual({ reason: 'setup.url.notHttps' });
    expect(parseBaseUrl('https://eventor.example.org/api?x=1', allowed)).toEqual({ reason: 'setup.url.query' });
    expect(parseBaseUrl('javascript:alert(1)', allowed)).toEqual({ reason: 'setup.url.notUrl' });
    // Anything the operator did not list is refused: no pointing the bot at internal hosts.
    expect(parseBaseUrl('https://eventor.example.org/api', [])).toEqual({ reason: 'setup.url.notAllowed' });
    expect(parseBaseUrl('http://127.0.0.1:9999/api', allowed)).toEqual({ reason: 'setup.url.notAllowed' });
    expect(parseBaseUrl('https://metadata.internal/api', allowed)).toEqual({ reason: 'setup.url.notAllowed' });
  });

  it('keeps time zones to canonical IANA names', () => {
    expect(canonicalZone('europe/stockholm')).toBe('Europe/Stockholm');
    expect(canonicalZone('America/New York')).toBe('America/New_York');
    expect(canonicalZone('UTC')).toBe('UTC');
    expect(canonicalZone('Mars/Base')).toBeNull();
    expect(canonicalZone('+01:00')).toBeNull();
    expect(canonicalZone('')).toBeNull();
  });
});

describeEachDialect('store.connectEventor', (stores) => {
  it('writes instance, address, sealed key and club together, and a preset clears an earlier address', async () => {
    const store = await stores().fresh();
    await store.servers.updateGuildSettings('g1', { locale: 'sv', timeZone: 'Europe/Stockholm' });
    const custom = await store.servers.connectEventor('g1', {
      instance: 'custom',
      baseUrl: 'https://eventor.example.org/api',
      apiKey: 'k'.repeat(32),
      organisation: { id: '7', name: 'OK Test' },
    });
    expect(custom).toMatchObject({
      eventorInstance: 'custom',
      eventorBaseUrl: 'https://eventor.example.org/api',
      hasApiKey: true,
      organisationId: '7',
      organisationName: 'OK Test',
      locale: 'sv',
    });
    expect(await store.servers.apiKey('g1')).toBe('k'.repeat(32));
    const preset = await store.servers.connectEventor('g1', {
      instance: 'se',
      baseUrl: null,
      apiKey: 'm'.repeat(32),
      organisation: { id: '8', name: 'IFK Test' },
    });
    expect(preset).toMatchObject({
      eventorInstance: 'se',
      eventorBaseUrl: null,
      organisationId: '8',
      organisationName: 'IFK Test',
      timeZone: 'Europe/Stockholm',
    });
    expect(await store.servers.apiKey('g1')).toBe('m'.repeat(32));
  });
});
