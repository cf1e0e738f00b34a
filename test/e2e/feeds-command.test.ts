import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLevels, TEST_FEED } from '../../commands/feeds.js';
import { parseDigestTime } from '../../src/feeds/kinds/digest/admin.js';
import { parseLeadDays } from '../../src/feeds/kinds/reminders/admin.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { KIND_NAMES } from '../../src/feeds/registry.js';
import { KindSettings } from '../../src/feeds/settings.js';
import {
  type InteractionHandle,
  renderMessageText,
  type SandboxChannel,
  type SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };
const MANAGE_GUILD = 1n << 5n;

describe('/feeds parsing', () => {
  it('reads lead days as up to 5 whole numbers 0-60', () => {
    expect(parseLeadDays('7,1')).toEqual([7, 1]);
    expect(parseLeadDays(' 1, 14 ,7,7 ')).toEqual([14, 7, 1]);
    expect(parseLeadDays('0')).toEqual([0]);
    for (const bad of ['', ',', '61', '-1', '1.5', 'seven', '1,2,3,4,5,6', '7;x'])
      expect(parseLeadDays(bad)).toBeNull();
  });

  it('reads levels as numbers 1-6 or names in any of our languages', () => {
    expect(parseLevels('2, 1')).toEqual(['1', '2']);
    expect(parseLevels('national,Distriktstävling, Nærløp')).toEqual(['2', '3', '4']);
    expect(parseLevels('')).toEqual([]);
    expect(parseLevels('1,7')).toEqual({ bad: '7' });
    expect(parseLevels('regional')).toEqual({ bad: 'regional' });
  });

  it("reads the digest's time as a time of day, HH:MM", () => {
    expect(parseDigestTime('18:00')).toBe('18:00');
    expect(parseDigestTime(' 7.30 ')).toBe('07:30');
    expect(parseDigestTime('0645')).toBe('06:45');
    expect(parseDigestTime('9')).toBe('09:00');
    for (const bad of ['', '24:00', '18:60', '18:5', 'six', '-1', '18:00:00', '1:2:3'])
      expect(parseDigestTime(bad)).toBeNull();
  });
});

describe('/feeds end to end (sandbox Discord, sandbox Eventor, the real bot)', () => {
  let world: LoopbackWorld;
  let resultsChannel: SandboxChannel;
  let eventsChannel: SandboxChannel;
  let closed: SandboxChannel;
  let feeds: KindSettings;

  beforeAll(async () => {
    world = await startTestWorld();
    resultsChannel = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
    eventsChannel = world.discord.createTextChannel(world.guild.id, { name: 'tävlingar' });
    closed = world.discord.createTextChannel(world.guild.id, { name: 'styrelsen' });
    feeds = new KindSettings(world.bot.store);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  const run = (
    subcommand: string,
    options: Record<string, string | number | boolean> = {},
    who: { user?: SandboxUser; locale?: string; bypassCommandPermissions?: boolean } = {},
  ): InteractionHandle =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: who.user ?? world.admin,
      locale: who.locale ?? 'en-GB',
      name: 'feeds',
      subcommand,
      options,
      ...(who.bypassCommandPermissions ? { bypassCommandPermissions: true } : {}),
    });
  const text = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return renderMessageText(reply);
  };
  const feeds_ = (
    subcommand: string,
    options: Record<string, string | number | boolean> = {},
    locale = 'en-GB',
  ): Promise<string> => text(run(subcommand, options, { locale }));
  const get = (kind: (typeof KIND_NAMES)[number]) => feeds.get(world.guild.id, kind);

  it('is registered for Manage Server, in servers only, with localised subcommands', () => {
    const command = world.discord.commands({ guildId: world.guild.id }).find((c) => c.name === 'feeds');
    expect(command?.default_member_permissions).toBe(String(MANAGE_GUILD));
    expect(command?.contexts).toEqual([0]);
    expect((command?.options ?? []).map((o) => o.name)).toEqual([
      'on',
      'off',
      'pause',
      'resume',
      'role',
      'quiet',
      'events-filter',
      // Each kind's own, in the registry's order.
      'threads',
      'live',
      'reminders',
      'digest',
      'test',
      'show',
    ]);
    expect((command?.options ?? []).map((o) => o.name_localizations?.['sv-SE'])).toContain('återuppta');
  });

  it('starts with every kind off, and show says so', async () => {
    for (const kind of KIND_NAMES) expect((await get(kind)).enabled).toBe(false);
    const shown = await feeds_('show');
    expect(shown).toContain('Automatic posts');
    expect(shown).toContain('Results');
    expect(shown).toContain('Nothing is posted for a kind until it is on and has a channel.');
    expect(shown.match(/\boff\b/g)?.length).toBeGreaterThanOrEqual(KIND_NAMES.length);
  });

  it('refuses members without Manage Server, even when the command is reachable, and changes nothing', async () => {
    expect(() => run('on', { kind: 'results', channel: resultsChannel.id }, { user: world.member })).toThrow(
      /default_member_permissions/,
    );
    expect(
      await text(
        run(
          'on',
          { kind: 'results', channel: resultsChannel.id },
          { user: world.member, bypassCommandPermissions: true },
        ),
      ),
    ).toContain('Only members with the Manage Server permission');
    expect(
      await text(run('show', {}, { user: world.swedishMember, locale: 'sv-SE', bypassCommandPermissions: true })),
    ).toContain('Bara medlemmar med behörigheten Hantera server');
    expect((await get('results')).enabled).toBe(false);
    expect((await get('results')).channelId).toBeNull();
  });

  it('on without any channel for the kind asks for one', async () => {
    expect(await feeds_('on', { kind: 'results' })).toContain('Results has no channel yet');
    expect(await feeds_('on', { kind: 'results' }, 'sv-SE')).toContain('har ingen kanal än');
    expect((await get('results')).enabled).toBe(false);
  });

  it('on with a channel the bot cannot post in is refused with the reason, and nothing is written', async () => {
    world.discord.setBotCanPost(closed.id, false);
    expect(await feeds_('on', { kind: 'events', channel: closed.id })).toContain(
      `I cannot post in <#${closed.id}>: I am missing the permission Send Messages`,
    );
    expect(await feeds_('on', { kind: 'events', channel: closed.id }, 'sv-SE')).toContain(
      'jag saknar behörigheten Skicka meddelanden',
    );
    expect((await get('events')).enabled).toBe(false);
    expect((await get('events')).channelId).toBeNull();
  });

  it('on with a channel sets the channel and turns the kind on in one go; off turns it off', async () => {
    expect(await feeds_('on', { kind: 'results', channel: resultsChannel.id })).toContain(
      `Results: on, posted in <#${resultsChannel.id}>`,
    );
    expect(await get('results')).toMatchObject({ enabled: true, channelId: resultsChannel.id, pausedReason: null });
    expect((await world.bot.store.servers.guildSettings(world.guild.id))?.channels.results).toBe(resultsChannel.id);
    expect(await feeds_('on', { kind: 'events', channel: eventsChannel.id }, 'sv-SE')).toContain(
      `Nya tävlingar: på, postas i <#${eventsChannel.id}>`,
    );
    expect((await get('events')).enabled).toBe(true);
    expect(await feeds_('off', { kind: 'events' })).toContain('New events: off.');
    expect((await get('events')).enabled).toBe(false);
    // The channel stays: on again needs no channel option.
    expect(await feeds_('on', { kind: 'events' }, 'no')).toContain('Nye løp: på');
    expect((await get('events')).enabled).toBe(true);
    expect((await get('reminders')).enabled).toBe(false);
  });

  it('pause and resume; resume re-checks the channel after a pause the bot set', async () => {
    expect(await feeds_('resume', { kind: 'results' })).toContain('Results is not paused');
    expect(await feeds_('pause', { kind: 'results' })).toContain('Results: paused until you run `/feeds resume`');
    expect((await get('results')).pausedReason).toBe('admin');
    expect((await get('results')).pausedAt).not.toBeNull();
    expect(await feeds_('pause', { kind: 'results' }, 'sv-SE')).toContain(
      'Flödet ”Resultat” är redan pausat av en administratör',
    );
    expect(await feeds_('resume', { kind: 'results' }, 'sv-SE')).toContain('Flödet ”Resultat” är återupptaget.');
    expect(await get('results')).toMatchObject({ pausedReason: null, pausedAt: null, enabled: true });

    // The bot paused it because it lost the permission: resume refuses until the channel is fixed.
    await feeds.update(world.guild.id, 'results', { pausedReason: 'no-permission' });
    world.discord.setBotCanPost(resultsChannel.id, false);
    const shown = await feeds_('show');
    expect(shown).toContain('paused: I lost the permission to post in its channel');
    expect(shown).toContain('cannot post: missing Send Messages');
    expect(await feeds_('resume', { kind: 'results' })).toContain(`I cannot post in <#${resultsChannel.id}>`);
    expect((await get('results')).pausedReason).toBe('no-permission');
    world.discord.setBotCanPost(resultsChannel.id, true);
    expect(await feeds_('resume', { kind: 'results' })).toContain('Results: resumed.');
    expect((await get('results')).pausedReason).toBeNull();

    // Paused because Eventor refused the key: resume asks Eventor afresh (not its cache) first.
    await feeds.update(world.guild.id, 'results', { pausedReason: 'invalid-key' });
    const refused = world.eventor.faults.add({ path: '/api/organisation/apiKey', kind: 'status', status: 403 });
    try {
      expect(await feeds_('resume', { kind: 'results' })).toContain("Eventor still refuses the club's API key");
      expect(await feeds_('resume', { kind: 'results' }, 'sv-SE')).toContain('Eventor godtar fortfarande inte');
      expect((await get('results')).pausedReason).toBe('invalid-key');
    } finally {
      world.eventor.faults.remove(refused);
    }
    expect(await feeds_('resume', { kind: 'results' })).toContain('Results: resumed.');
    expect((await get('results')).pausedReason).toBeNull();
  });

  it('a role to mention, and clearing it', async () => {
    const role = world.discord.createRole(world.guild.id, { name: 'Orienterare' });
    expect(await feeds_('role', { kind: 'results', role: role.id })).toContain(
      `Results: posts will mention <@&${role.id}>`,
    );
    expect((await get('results')).roleId).toBe(role.id);
    expect(await feeds_('role', { kind: 'results', role: world.guild.id })).toContain('other than @everyone');
    expect((await get('results')).roleId).toBe(role.id);
    expect(await feeds_('role', { kind: 'results' }, 'sv-SE')).toContain('Resultat: inläggen nämner ingen roll.');
    expect((await get('results')).roleId).toBeNull();
  });

  it('reminder lead times and late entries; bad lead days change nothing', async () => {
    expect((await get('reminders')).options).toMatchObject({ leadDays: [7, 1], lateEntry: true });
    expect(await feeds_('reminders', { lead_days: '14,3,1', late_entry: false })).toContain(
      'Entry deadline reminders: 14, 3, 1 days before each deadline; late-entry deadlines: no.',
    );
    expect((await get('reminders')).options).toMatchObject({ leadDays: [14, 3, 1], lateEntry: false });
    for (const bad of ['61', '1,2,3,4,5,6', 'en vecka', '7,-1']) {
      expect(await feeds_('reminders', { lead_days: bad, late_entry: true })).toContain('is not a list of lead times');
    }
    expect(await feeds_('reminders', { lead_days: '99' }, 'sv-SE')).toContain('är ingen lista med dagar');
    expect((await get('reminders')).options).toMatchObject({ leadDays: [14, 3, 1], lateEntry: false });
    expect(await feeds_('reminders', { late_entry: true }, 'sv-SE')).toContain(
      '14, 3, 1 dagar före varje stopp; efteranmälningsstopp: ja',
    );
    expect((await get('reminders')).options).toMatchObject({ leadDays: [14, 3, 1], lateEntry: true });
  });

  it('quiet hours for every kind or one; bad hours change nothing', async () => {
    expect(await feeds_('quiet', { from: 22, to: 7 })).toContain(
      'Quiet hours for every kind of post: no automatic posts from 22:00 to 07:00 (Europe/Stockholm)',
    );
    for (const kind of KIND_NAMES) expect((await get(kind)).quietHours).toEqual({ from: 22, to: 7 });
    expect(await feeds_('quiet', { from: 22 })).toContain('Give both `from` and `to`');
    expect(await feeds_('quiet', { from: 5, to: 5 }, 'sv-SE')).toContain('`från` och `till` måste skilja sig');
    expect(() => run('quiet', { from: 24, to: 7 })).toThrow();
    for (const kind of KIND_NAMES) expect((await get(kind)).quietHours).toEqual({ from: 22, to: 7 });
    expect(await feeds_('quiet', { kind: 'results' }, 'sv-SE')).toContain('Tysta timmar för Resultat: inga.');
    expect((await get('results')).quietHours).toBeNull();
    expect((await get('events')).quietHours).toEqual({ from: 22, to: 7 });
    expect(await feeds_('quiet', {})).toContain('Quiet hours for every kind of post: none.');
    for (const kind of KIND_NAMES) expect((await get(kind)).quietHours).toBeNull();
  });

  it('the new-events filter by numbers or level names; bad levels change nothing', async () => {
    expect(await feeds_('events-filter', { levels: '1, national' })).toContain(
      "New events: also events of these levels, besides the club's and district's own: Championship, National event.",
    );
    expect((await get('events')).options.classificationIds).toEqual(['1', '2']);
    expect(await feeds_('events-filter', { levels: '2,9' })).toContain('`9` is not a level');
    expect(await feeds_('events-filter', { levels: 'regional' }, 'sv-SE')).toContain('`regional` är ingen nivå');
    expect((await get('events')).options.classificationIds).toEqual(['1', '2']);
    expect(await feeds_('events-filter', { levels: 'Distriktstävling' }, 'sv-SE')).toContain('Distriktstävling');
    expect((await get('events')).options.classificationIds).toEqual(['3']);
    const shown = await feeds_('show');
    expect(shown).toContain("Levels besides the club's and district's: District event");
    expect(await feeds_('events-filter', {})).toContain("New events: only the club's and district's own events.");
    expect((await get('events')).options.classificationIds).toEqual([]);
  });

  it('show lists every kind with state, channel, role and options, in English and Swedish', async () => {
    const shown = await feeds_('show');
    expect(shown).toContain(`<#${resultsChannel.id}> (can post)`);
    expect(shown).toContain('Reminders 14, 3, 1 days before; late-entry deadlines: yes');
    expect(shown).toMatch(/\bon\b/);
    const swedish = await feeds_('show', {}, 'sv-SE');
    expect(swedish).toContain('Automatiska inlägg');
    expect(swedish).toContain('Påminnelser 14, 3, 1 dagar före');
    expect(swedish).toContain('Kanal: inte vald');
    // Turned on but not run yet (see the last test for after a run).
    expect(shown).toContain('Not run yet');
  });

  it('test results posts the newest club result in the results channel, outside the real ledger', async () => {
    const before = world.discord.messages(resultsChannel.id).length;
    expect(await feeds_('test', { kind: 'results' })).toContain(
      `Results: the newest item is posted in <#${resultsChannel.id}> as a test.`,
    );
    const after = world.discord.messages(resultsChannel.id);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.embeds.length).toBeGreaterThan(0);
    const ledger = new Ledger(world.bot.store);
    expect(await ledger.rows(world.guild.id, 'results')).toHaveLength(0);
    expect(await ledger.feedStartedAt(world.guild.id, 'results')).toBeNull();
    expect((await ledger.rows(world.guild.id, TEST_FEED)).map((r) => r.state)).toEqual(['posted']);
  });

  it('test of a kind without a feed module or without a channel says so and posts nothing', async () => {
    expect(await feeds_('test', { kind: 'activities' })).toMatch(/not available yet|has no channel yet/);
    world.discord.setBotCanPost(resultsChannel.id, false);
    expect(await feeds_('test', { kind: 'results' })).toContain('I cannot post in');
    world.discord.setBotCanPost(resultsChannel.id, true);
  });

  it('calendar: on without a channel, naming the permissions the bot lacks; test previews and creates nothing', async () => {
    world.discord.setBotCanCreateEvents(world.guild.id, false);
    world.discord.setBotCanManageEvents(world.guild.id, false);
    const on = await feeds_('on', { kind: 'calendar' });
    expect(on).toContain("Races in the server's Events: on.");
    expect(on).toContain('The bot still lacks Create Events, Manage Events in this server');
    expect((await get('calendar')).enabled).toBe(true);
    expect((await get('calendar')).channelId).toBeNull();
    world.discord.setBotCanCreateEvents(world.guild.id, true);
    world.discord.setBotCanManageEvents(world.guild.id, true);

    const preview = await feeds_('test', { kind: 'calendar' });
    expect(preview).toContain('How the next race would look in Events (nothing was created):');
    // The event itself in the server's language (Swedish here), as members would see it.
    expect(preview).toMatch(/När: .+ – .+/);
    expect(preview).toMatch(/\/Events\/Show\/\d+/);
    expect(world.discord.scheduledEvents(world.guild.id)).toHaveLength(0);

    const eventsLevels = (await get('events')).options.classificationIds;
    expect(await feeds_('events-filter', { levels: '1,2', kind: 'calendar' })).toContain(
      "Races in the server's Events: also events of these levels",
    );
    expect((await get('calendar')).options.classificationIds).toEqual(['1', '2']);
    expect((await get('events')).options.classificationIds).toEqual(eventsLevels);

    const shown = await feeds_('show');
    expect(shown).toContain("no channel: the server's Events");
    expect(shown).toContain('Create Events and Manage Events granted');
    // No role to mention in scheduled events: one clear answer, nothing stored.
    expect(await feeds_('role', { kind: 'calendar', role: world.guild.id })).toContain(
      'makes scheduled events, not posts',
    );
    expect((await get('calendar')).roleId).toBeNull();
    expect(await feeds_('off', { kind: 'calendar' })).toContain("Races in the server's Events");
  });

  it('show says when each turned-on kind last looked at Eventor', async () => {
    await world.bot.scheduler.tick(world.eventor.now(), { force: true });
    expect(await feeds_('show')).toMatch(/Last looked at Eventor <t:\d+:R>\./);
  });
});
