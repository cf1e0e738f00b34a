import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUnlinkId } from '../../commands/admin.js';
import {
  type InteractionHandle,
  type MessageView,
  renderMessageText,
  type SandboxChannel,
  type SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import type { SandboxPerson } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { worldSql, worldTables } from '../support/world-store.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };
const MANAGE_GUILD = 1n << 5n;

describe('linking, /whoami, /unlink, /admin and /forget-me end to end (sandbox Discord, sandbox Eventor)', () => {
  let world: LoopbackWorld;
  let adminChannel: SandboxChannel;
  let home: SandboxPerson[];
  let foreign: SandboxPerson;
  let parent: SandboxUser;
  let closedDms: SandboxUser;
  /** Every password typed into a form in this session, right or wrong. */
  const passwords: string[] = [];

  beforeAll(async () => {
    world = await startTestWorld();
    adminChannel = world.discord.createTextChannel(world.guild.id, { name: 'styrelsen' });
    home = world.eventor.dataset.homeClub.members;
    foreign = world.eventor.dataset.clubs.find((c) => c.id !== world.eventor.dataset.homeClub.id)!.members[0]!;
    parent = world.discord.createMember(world.guild.id, {
      username: 'forälder',
      globalName: 'Förälder',
      locale: 'sv-SE',
    });
    closedDms = world.discord.createMember(world.guild.id, { username: 'tyst', globalName: 'Tyst', locale: 'en-GB' });
  });
  afterAll(async () => {
    await world?.close();
  });

  const run = (
    name: string,
    user: SandboxUser,
    locale: string,
    subcommand?: string,
    options: Record<string, string | boolean> = {},
    extra: { bypassCommandPermissions?: boolean } = {},
  ): InteractionHandle =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user,
      locale,
      name,
      ...(subcommand ? { subcommand } : {}),
      options,
      ...extra,
    });
  const privateText = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return renderMessageText(reply);
  };
  const fullName = (p: SandboxPerson) => `${p.person.name.given} ${p.person.name.family}`;
  const links = async (user: SandboxUser) => await world.bot.store.links.linkedPersons(world.guild.id, user.id);
  const withCredentials = async (
    user: SandboxUser,
    locale: string,
    username: string,
    password: string,
  ): Promise<string> => {
    passwords.push(password);
    const modal = await run('link', user, locale, 'eventor').waitForModal(WAIT);
    expect(modal.custom_id).toBe('link:credentials');
    return privateText(
      world.discord.submitModal({ user, locale, customId: modal.custom_id, fields: { username, password } }),
    );
  };
  const requestPost = async (before: number): Promise<MessageView> => {
    await world.discord.waitForMessage(
      adminChannel.id,
      () => world.discord.messages(adminChannel.id).length > before,
      WAIT,
    );
    return world.discord.messages(adminChannel.id).at(-1)!;
  };
  const buttonId = (message: MessageView, prefix: string): string => {
    const found = JSON.stringify(message.components).match(new RegExp(`"(${prefix}:[^"]*)"`));
    expect(found, `a ${prefix} button`).not.toBeNull();
    return found![1]!;
  };
  const click = (
    message: MessageView | string,
    customId: string,
    user: SandboxUser,
    locale = 'en-GB',
    memberPermissions?: bigint,
  ) =>
    world.discord.clickButton({
      message: typeof message === 'string' ? message : message.id,
      customId,
      user,
      locale,
      ...(memberPermissions !== undefined ? { memberPermissions } : {}),
    });

  it('registers the commands, /admin for Manage Server only, with Swedish and Norwegian names', () => {
    const commands = new Map(world.discord.commands({ guildId: world.guild.id }).map((c) => [c.name, c]));
    for (const name of ['link', 'unlink', 'whoami', 'admin', 'forget-me']) expect(commands.has(name), name).toBe(true);
    expect(commands.get('admin')?.default_member_permissions).toBe(String(MANAGE_GUILD));
    expect(commands.get('unlink')?.name_localizations?.['sv-SE']).toBe('koppla-loss');
    expect(commands.get('forget-me')?.name_localizations?.['sv-SE']).toBe('glöm-mig');
    expect(commands.get('whoami')?.name_localizations?.no).toBe('hvem-er-jeg');
    expect(commands.get('link')?.options?.map((o) => o.name_localizations?.['sv-SE'])).toEqual([
      'eventor',
      'begär',
      'standard',
    ]);
  });

  it('links with the right Eventor user name and password, keeping only the person id', async () => {
    const astrid = home[0]!;
    const text = await withCredentials(world.member, 'en-GB', astrid.username, astrid.password);
    expect(text).toContain(`Linked: your Discord account is now tied to ${fullName(astrid)}`);
    expect(await links(world.member)).toEqual([
      expect.objectContaining({ personId: astrid.person.id, isDefault: true, method: 'credentials' }),
    ]);
    expect((await world.bot.store.audit.auditLog(world.guild.id))[0]).toMatchObject({
      actorId: world.member.id,
      personId: astrid.person.id,
      action: 'link',
      detail: 'credentials',
    });
  });

  it('refuses wrong credentials, in English and Swedish, and links nothing', async () => {
    const astrid = home[0]!;
    expect(await withCredentials(world.swedishMember, 'sv-SE', astrid.username, `${astrid.password}x`)).toContain(
      'Eventor godtog inte det användarnamnet och lösenordet',
    );
    expect(await withCredentials(world.swedishMember, 'en-GB', 'nobody.at.all', 'pw-not-a-real-one')).toContain(
      'Eventor did not accept that user name and password',
    );
    expect(await links(world.swedishMember)).toEqual([]);
    expect(
      (await world.bot.store.audit.auditLog(world.guild.id)).filter(
        (e) => e.action === 'link-failed' && e.actorId === world.swedishMember.id,
      ),
    ).toHaveLength(2);
  });

  it('pauses a member after five wrong passwords, before asking Eventor again', async () => {
    const guesser = world.discord.createMember(world.guild.id, {
      username: 'gissare',
      globalName: 'Gissare',
      locale: 'sv-SE',
    });
    const target = home[7]!;
    // Forms submitted in parallel count too: not one more guess reaches Eventor than allowed.
    const guesses = await Promise.all(
      Array.from({ length: 7 }, (_, i) => withCredentials(guesser, 'en-GB', target.username, `guess-${i}-wrong`)),
    );
    expect(guesses.filter((g) => g.includes('did not accept'))).toHaveLength(5);
    expect(guesses.filter((g) => g.includes('Too many wrong passwords'))).toHaveLength(2);
    const asked = world.eventor.requests.length;
    expect(await withCredentials(guesser, 'sv-SE', target.username, target.password)).toMatch(
      /För många felaktiga lösenord\. Vänta 1[45] min/,
    );
    expect(world.eventor.requests.length).toBe(asked);
    expect(await links(guesser)).toEqual([]);
    // /forget-me deletes the audit entries, but not the pause.
    const ask = await run('forget-me', guesser, 'en-GB').reply(WAIT);
    await click(ask, buttonId(ask, 'forget-me:confirm'), guesser).reply(WAIT);
    expect(
      (await world.bot.store.audit.recentActions(world.guild.id, guesser.id, 'link-failed', new Date(0))).count,
    ).toBe(0);
    expect(await withCredentials(guesser, 'en-GB', target.username, target.password)).toContain(
      'Too many wrong passwords',
    );
    expect(world.eventor.requests.length).toBe(asked);
  });

  it("refuses the credentials of another club's member with the answer a wrong password gets (no password oracle)", async () => {
    expect(await withCredentials(world.swedishMember, 'en-GB', foreign.username, foreign.password)).toContain(
      'Eventor did not accept that user name and password',
    );
    expect(await links(world.swedishMember)).toEqual([]);
  });

  it('a request needs the admin channel: the member is told to ask for /setup channel', async () => {
    const text = await privateText(
      run('link', world.swedishMember, 'sv-SE', 'request', { person: home[1]!.person.id! }),
    );
    expect(text).toContain('`/inställningar kanal`');
    expect(await world.bot.store.links.pendingLinkRequests(world.guild.id, world.swedishMember.id)).toEqual([]);
  });

  it("offers the club's members in autocomplete for a request", async () => {
    const target = home[1]!;
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.swedishMember,
      name: 'link',
      subcommand: 'request',
      focused: 'person',
      value: target.person.name.family,
      ...WAIT,
    });
    expect(choices.map((c) => c.value)).toContain(target.person.id);
  });

  it('admin approval: the request reaches the admin channel; a non-admin cannot approve; an admin can, once; the member gets a DM', async () => {
    await world.bot.store.servers.setChannel(world.guild.id, 'admin', adminChannel.id);
    const sven = home[1]!;
    const before = world.discord.messages(adminChannel.id).length;
    expect(
      await privateText(run('link', world.swedishMember, 'sv-SE', 'request', { person: sven.person.id! })),
    ).toContain('har skickats till administratörerna');
    const post = await requestPost(before);
    expect(post.content).toContain(`<@${world.swedishMember.id}>`);
    expect(post.content).toContain(fullName(sven));
    const approve = buttonId(post, 'link:approve');

    // The button in the channel proves nothing: the click is checked against the clicker.
    expect(await privateText(click(post, approve, world.member))).toContain(
      'Only members with the Manage Server permission',
    );
    expect(await privateText(click(post, approve, world.admin, 'en-GB', 0n))).toContain('Manage Server');
    expect(await links(world.swedishMember)).toEqual([]);

    // Two admins click at once (Approve and Deny): the request is decided once, the other click is refused.
    const secondAdmin = world.discord.createMember(world.guild.id, {
      username: 'ordforande',
      globalName: 'Ordförande',
      locale: 'en-GB',
      manageGuild: true,
    });
    const dmsBefore = world.discord.dms(world.swedishMember).length;
    const answers = await Promise.all(
      [click(post, approve, world.admin, 'sv-SE'), click(post, approve, secondAdmin, 'sv-SE')].map(privateText),
    );
    const won = answers.filter((a) =>
      a.includes(`Godkänd: <@${world.swedishMember.id}> är nu kopplad till ${fullName(sven)}`),
    );
    const refused = answers.filter((a) => /Den här begäran är redan godkänd|En annan administratör beslutade/.test(a));
    expect([won.length, refused.length]).toEqual([1, 1]);
    expect(await links(world.swedishMember)).toEqual([
      expect.objectContaining({ personId: sven.person.id, method: 'approval' }),
    ]);
    await world.discord.waitForDm(
      world.swedishMember,
      () => world.discord.dms(world.swedishMember).length > dmsBefore,
      WAIT,
    );
    expect(world.discord.dms(world.swedishMember)).toHaveLength(dmsBefore + 1);
    expect(world.discord.dms(world.swedishMember).at(-1)!.content).toContain(
      `har godkänt din begäran: ditt Discord-konto är nu kopplat till ${fullName(sven)}`,
    );
    // The post shows the outcome and has no buttons left.
    const edited = world.discord.message(post.id)!;
    expect(edited.components).toEqual([]);
    expect(edited.content).toMatch(new RegExp(`<@(${world.admin.id}|${secondAdmin.id})>`));
    expect((await world.bot.store.links.linkRequest(Number(approve.split(':')[2])))?.state).toBe('approved');
    expect(
      (await world.bot.store.audit.auditLog(world.guild.id)).find(
        (e) => e.action === 'link' && e.detail === 'approval',
      ),
    ).toMatchObject({
      // The admin whose click won: on SQLite always the first, on PostgreSQL either of the two.
      actorId: won[0] === answers[0] ? world.admin.id : secondAdmin.id,
      subjectId: world.swedishMember.id,
      personId: sven.person.id,
    });
  });

  it('admin denial: nothing linked, the member is told by DM in English; closed DMs do not break it', async () => {
    const target = home[2]!;
    let before = world.discord.messages(adminChannel.id).length;
    expect(await privateText(run('link', world.member, 'en-GB', 'request', { person: target.person.id! }))).toContain(
      'went to the admins',
    );
    let post = await requestPost(before);
    const dmsBefore = world.discord.dms(world.member).length;
    expect(await privateText(click(post, buttonId(post, 'link:deny'), world.admin))).toContain('Denied');
    expect((await links(world.member)).map((l) => l.personId)).not.toContain(target.person.id);
    await world.discord.waitForDm(world.member, () => world.discord.dms(world.member).length > dmsBefore, WAIT);
    expect(world.discord.dms(world.member).at(-1)!.content).toContain(
      `denied your request to be linked to ${fullName(target)}`,
    );

    world.discord.closeDms(closedDms);
    before = world.discord.messages(adminChannel.id).length;
    await privateText(run('link', closedDms, 'en-GB', 'request', { person: home[3]!.person.id! }));
    post = await requestPost(before);
    const answer = await privateText(click(post, buttonId(post, 'link:approve'), world.admin));
    expect(answer).toContain('Approved');
    expect(answer).toContain('their DMs are closed');
    expect((await links(closedDms)).map((l) => l.personId)).toEqual([home[3]!.person.id]);
  });

  it('admins link directly, but only persons of the club and only as admins', async () => {
    const child = home[4]!;
    const text = await privateText(
      run('admin', world.admin, 'en-GB', 'link', { member: parent.id, person: child.person.id! }),
    );
    expect(text).toContain(`Linked <@${parent.id}> to ${fullName(child)}`);
    expect(await links(parent)).toEqual([
      expect.objectContaining({ personId: child.person.id, method: 'admin', isDefault: true }),
    ]);
    expect(
      await privateText(run('admin', world.admin, 'en-GB', 'link', { member: parent.id, person: foreign.person.id! })),
    ).toContain("Only members of this server's club");
    expect((await links(parent)).map((l) => l.personId)).not.toContain(foreign.person.id);
    expect(() => run('admin', world.member, 'en-GB', 'links')).toThrow(/default_member_permissions/);
    expect(
      await privateText(
        run(
          'admin',
          world.member,
          'en-GB',
          'link',
          { member: world.member.id, person: child.person.id! },
          { bypassCommandPermissions: true },
        ),
      ),
    ).toContain('Manage Server');
    expect((await links(world.member)).map((l) => l.personId)).not.toContain(child.person.id);
  });

  it('a parent manages several persons: /whoami lists them, /link default changes the default, in Swedish', async () => {
    const [child, second] = [home[4]!, home[5]!];
    await privateText(run('admin', world.admin, 'en-GB', 'link', { member: parent.id, person: second.person.id! }));
    let whoami = await privateText(run('whoami', parent, 'sv-SE'));
    expect(whoami).toContain('Ditt Discord-konto är kopplat till:');
    expect(whoami).toMatch(new RegExp(`${fullName(child)}.*\\(standard\\)`));
    expect(whoami).toContain(fullName(second));
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: parent,
      name: 'link',
      subcommand: 'default',
      focused: 'person',
      value: '',
      ...WAIT,
    });
    expect(choices.map((c) => c.value).sort()).toEqual([child.person.id, second.person.id].sort());
    expect(await privateText(run('link', parent, 'sv-SE', 'default', { person: second.person.id! }))).toMatch(
      new RegExp(`Kommandona använder nu ${fullName(second)}.* som standard`),
    );
    expect((await links(parent))[0]).toMatchObject({ personId: second.person.id, isDefault: true });
    whoami = await privateText(run('whoami', parent, 'en-GB'));
    expect(whoami).toMatch(new RegExp(`${fullName(second)}.*\\(default\\)`));
    expect(await privateText(run('link', parent, 'en-GB', 'default', { person: foreign.person.id! }))).toContain(
      'You are not linked to that person',
    );
    expect(
      (await world.bot.store.audit.auditLog(world.guild.id)).find((e) => e.action === 'link-default'),
    ).toMatchObject({
      actorId: parent.id,
      personId: second.person.id,
    });
  });

  it('/unlink asks which one when there are several, then removes it; the other becomes the default', async () => {
    const [child, second] = [home[4]!, home[5]!];
    expect(await privateText(run('unlink', parent, 'en-GB'))).toContain('choose which one to unlink');
    expect(await privateText(run('unlink', parent, 'sv-SE', undefined, { person: second.person.id! }))).toContain(
      `inte längre kopplat till ${fullName(second)}`,
    );
    expect(await links(parent)).toEqual([expect.objectContaining({ personId: child.person.id, isDefault: true })]);
    expect(await privateText(run('whoami', closedDms, 'en-GB'))).toContain(fullName(home[3]!));
    expect(await privateText(run('unlink', closedDms, 'en-GB'))).toContain(`no longer tied to ${fullName(home[3]!)}`);
    expect(await privateText(run('whoami', closedDms, 'en-GB'))).toContain('is not linked to anyone');
  });

  it('/admin links lists every link and unlinks with a button that re-checks the clicker', async () => {
    const list = await run('admin', world.admin, 'en-GB', 'links').reply(WAIT);
    const text = renderMessageText(list);
    expect(text).toContain(`<@${parent.id}>`);
    expect(text).toContain(fullName(home[4]!));
    expect(text).toContain(`<@${world.member.id}>`);
    const unlink = adminUnlinkId.encode({ userId: parent.id, personId: home[4]!.person.id! });
    expect(JSON.stringify(list.components)).toContain(unlink);
    const refused = await click(list, unlink, world.admin, 'en-GB', 0n).reply(WAIT);
    expect(renderMessageText(refused)).toContain('Manage Server');
    expect(await links(parent)).toHaveLength(1);
    const fresh = await run('admin', world.admin, 'en-GB', 'links').reply(WAIT);
    const after = await click(fresh, unlink, world.admin).reply(WAIT);
    expect(renderMessageText(after)).toContain(`Unlinked <@${parent.id}> from ${fullName(home[4]!)}`);
    expect(await links(parent)).toEqual([]);
  });

  it('/admin audit shows who did what, when, for whom, and never a password', async () => {
    const english = await privateText(run('admin', world.admin, 'en-GB', 'audit'));
    expect(english).toContain('Audit log');
    expect(english).toContain('<t:');
    expect(english).toContain(`<@${world.admin.id}>`);
    expect(english).toContain(`for <@${parent.id}>`);
    expect(english).toContain('entered a wrong Eventor password');
    const swedish = await privateText(run('admin', world.admin, 'sv-SE', 'audit'));
    expect(swedish).toContain('Granskningslogg');
    expect(swedish).toContain('kopplade loss');
    for (const password of passwords) {
      expect(english).not.toContain(password);
      expect(swedish).not.toContain(password);
    }
  });

  it('/setup linking switches a way off, and /link then refuses it', async () => {
    const off = await privateText(run('setup', world.admin, 'en-GB', 'linking', { credentials: false }));
    expect(off).toContain('Linking with the Eventor password: off. Linking by admin approval: allowed.');
    expect(await privateText(run('link', world.member, 'en-GB', 'eventor'))).toContain(
      'switched off linking with the Eventor password',
    );
    await privateText(run('setup', world.admin, 'sv-SE', 'linking', { approval: false }));
    expect(
      await privateText(run('link', world.swedishMember, 'sv-SE', 'request', { person: home[6]!.person.id! })),
    ).toContain('stängt av koppling genom godkännande');
    expect(
      await privateText(run('setup', world.admin, 'en-GB', 'linking', { credentials: true, approval: true })),
    ).toContain('password: allowed. Linking by admin approval: allowed');
  });

  it('/forget-me deletes everything about the member, after the confirm button, and leaves no row naming them', async () => {
    const user = world.swedishMember;
    // Something in every table: a link, a pending request, audit entries as actor and as subject.
    await privateText(run('link', user, 'sv-SE', 'request', { person: home[6]!.person.id! }));
    expect(await links(user)).not.toEqual([]);
    expect(await world.bot.store.links.pendingLinkRequests(world.guild.id, user.id)).not.toEqual([]);

    const ask = await run('forget-me', user, 'sv-SE').reply(WAIT);
    expect(renderMessageText(ask)).toContain('Det går inte att ångra');
    const cancel = await click(ask, 'forget-me:cancel', user, 'sv-SE').reply(WAIT);
    expect(renderMessageText(cancel)).toContain('Ingenting raderades');
    expect(await links(user)).not.toEqual([]);

    const again = await run('forget-me', user, 'en-GB').reply(WAIT);
    const done = await click(again, buttonId(again, 'forget-me:confirm'), user).reply(WAIT);
    expect(renderMessageText(done)).toContain('the bot holds nothing about you any more');

    const tables = await worldTables(world);
    expect(tables).toEqual(expect.arrayContaining(['member_links', 'link_requests', 'audit_log']));
    for (const table of tables) {
      for (const row of (await worldSql(world, `SELECT * FROM "${table}"`)) as Array<Record<string, unknown>>) {
        expect(Object.values(row).map(String), `${table} ${JSON.stringify(row)}`).not.toContain(user.id);
      }
    }
    // Others are untouched.
    expect(await worldSql(world, 'SELECT user_id FROM member_links WHERE user_id = ?', [world.member.id])).not.toEqual(
      [],
    );
    expect(await privateText(run('whoami', user, 'en-GB'))).toContain('is not linked to anyone');
  });

  it('never writes a password to the log or the database', async () => {
    expect(passwords.length).toBeGreaterThanOrEqual(4);
    const logs = world.logLines.join('\n');
    expect(logs).toContain('member linked');
    if (world.databaseUrl === undefined) {
      // SQLite: the file's bytes and its WAL's, deleted rows' leftovers included.
      for (const file of [world.databasePath, `${world.databasePath}-wal`]) {
        const bytes = await readFile(file).catch(() => Buffer.alloc(0));
        for (const password of passwords) expect(bytes.includes(Buffer.from(password)), file).toBe(false);
      }
    } else {
      // PostgreSQL: its files are the server's, so every row of every table.
      for (const table of await worldTables(world)) {
        const rows = JSON.stringify(await worldSql(world, `SELECT * FROM "${table}"`));
        for (const password of passwords) expect(rows.includes(password), table).toBe(false);
      }
    }
    for (const password of passwords) expect(logs).not.toContain(password);
  });
});
