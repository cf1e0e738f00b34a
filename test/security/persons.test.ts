/**
 * Who may act as a person (SECURITY.md), performed end to end: the real bot (discord.js) against
 * the sandbox Discord over a WebSocket, the real Eventor client against the sandbox Eventor over
 * HTTP, the store in a temporary SQLite file (or a fresh PostgreSQL database in the `postgres-feeds`
 * project, test/README.md).
 *
 * - A link an admin made (/admin link) or approved (/link request) must not give login links or
 *   chip changes: anyone with Manage Server can make one to any member. Only a link made with the
 *   person's Eventor password does; the read-only personal features work with any link.
 * - Moving a server to another Eventor or club forgets the links, requests and /notify
 *   subscriptions made under the old one, and a person who left the club gets no login.
 */
import { ComponentType } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectEventor } from '../../src/app/privacy.js';
import { Subscriptions } from '../../src/feeds/subscriptions.js';
import { loginButton } from '../../src/render/login-button.js';
import {
  type InteractionHandle,
  type MessageView,
  renderMessageText,
  type SandboxChannel,
  type SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import type { SandboxPerson } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import type { Store } from '../../src/store/interfaces.js';
import { describeEachDialect } from '../support/stores.js';
import { guildRows } from '../support/world-store.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };
const LINK = /https?:\/\/[^\s"'<>)]+\/login\/[A-Za-z0-9_-]+/;

/** What every test here drives: commands, buttons and the modal of /link eventor, and what Eventor was asked. */
function driver(world: () => LoopbackWorld) {
  const w = world;
  const run = (
    name: string,
    user: SandboxUser,
    locale: string,
    subcommand?: string,
    options: Record<string, string | boolean> = {},
  ): InteractionHandle =>
    w().discord.runCommand({
      guildId: w().guild.id,
      channelId: w().channel.id,
      user,
      locale,
      name,
      ...(subcommand ? { subcommand } : {}),
      options,
    });
  const privateText = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    expect(JSON.stringify(reply)).not.toMatch(LINK);
    return renderMessageText(reply);
  };
  const withCredentials = async (user: SandboxUser, person: SandboxPerson): Promise<string> => {
    const modal = await run('link', user, 'en-GB', 'eventor').waitForModal(WAIT);
    return privateText(
      w().discord.submitModal({
        user,
        locale: 'en-GB',
        customId: modal.custom_id,
        fields: { username: person.username, password: person.password },
      }),
    );
  };
  const loginCalls = (): number => w().eventor.requests.count('/api/externalloginurl');
  const puts = (): number => w().eventor.requests.filter((r) => r.method === 'PUT').length;
  const links = (user: SandboxUser) => w().bot.store.links.linkedPersons(w().guild.id, user.id);
  const dmCount = (user: SandboxUser): number => w().discord.dms(user).length;
  const fullName = (p: SandboxPerson): string => `${p.person.name.given} ${p.person.name.family}`;
  /** Posts a message with one button whose custom id anyone could have forged (the sandbox keeps ephemeral buttons to their owner). */
  const postButton = async (content: string, button: object): Promise<string> => {
    const channel = await w().bot.client.channels.fetch(w().channel.id);
    if (!channel?.isSendable()) throw new Error('channel not sendable');
    return (
      await channel.send({ content, components: [{ type: ComponentType.ActionRow, components: [button as never] }] })
    ).id;
  };
  const click = (message: string, customId: string, user: SandboxUser, locale = 'en-GB'): InteractionHandle =>
    w().discord.clickButton({ message, customId, user, locale });
  return { run, privateText, withCredentials, loginCalls, puts, links, dmCount, fullName, postButton, click };
}

describe('only a link made with the Eventor password may act as the person (login links, chip changes)', () => {
  let world: LoopbackWorld;
  const d = driver(() => world);
  let adminChannel: SandboxChannel;
  let loginPost: string;
  let victim: SandboxPerson;
  let approved: SandboxPerson;
  let proven: SandboxPerson;
  let upgraded: SandboxPerson;
  let requester: SandboxUser;

  beforeAll(async () => {
    world = await startTestWorld();
    adminChannel = world.discord.createTextChannel(world.guild.id, { name: 'styrelsen' });
    await world.bot.store.servers.setChannel(world.guild.id, 'admin', adminChannel.id);
    const withChips = world.eventor.dataset.homeClub.members.filter(
      (m) => m.hasSettings && m.competitor.cards.some((c) => c.type === 'SI'),
    );
    expect(withChips.length).toBeGreaterThanOrEqual(4);
    [victim, approved, proven, upgraded] = withChips as [SandboxPerson, SandboxPerson, SandboxPerson, SandboxPerson];
    requester = world.discord.createMember(world.guild.id, { username: 'begar', globalName: 'Begär', locale: 'en-GB' });
    loginPost = await d.postButton('Entry deadline tomorrow', loginButton('en'));
  });
  afterAll(async () => {
    await world?.close();
  });

  /**
   * Performs every way of acting as `person` that `user` has: /login (default and named), the
   * login button, /card with a number, and a forged /card confirm; each must be refused with the
   * way to upgrade, and nothing may reach Eventor's login or PUT, nor a DM the user.
   */
  const expectCannotActAs = async (user: SandboxUser, person: SandboxPerson, method: RegExp): Promise<void> => {
    const calls = d.loginCalls();
    const writes = d.puts();
    const dms = d.dmCount(user);
    const cards = structuredClone(person.competitor.cards);

    const login = await d.privateText(d.run('login', user, 'en-GB'));
    expect(login).toContain('link with `/link eventor` to get login links');
    expect(login).toMatch(method);
    expect(login).toContain(d.fullName(person));
    expect(await d.privateText(d.run('login', user, 'en-GB', undefined, { person: person.person.id! }))).toContain(
      '`/link eventor`',
    );
    expect(await d.privateText(d.run('login', user, 'sv-SE'))).toContain(
      'koppla med `/koppla eventor` för att få inloggningslänkar',
    );
    expect(await d.privateText(d.click(loginPost, 'login:button', user))).toContain(
      'link with `/link eventor` to get login links',
    );

    const card = await d.privateText(d.run('card', user, 'en-GB', undefined, { number: '1234567', type: 'SI' }));
    expect(card).toContain('Link with `/link eventor`');
    expect(card).toContain('Nothing was changed');
    // The confirm a /card prompt would have carried, made by hand: the ids in it prove nothing.
    const forged = `card:confirm:${user.id}:${person.person.id}:SI:1234567:${Math.floor(world.eventor.now().getTime() / 1000)}`;
    const post = await d.postButton('Save?', {
      type: ComponentType.Button,
      style: 1,
      label: 'Save',
      custom_id: forged,
    });
    // The button declares `linked: 'credentials'`: with no password link at all, the router refuses
    // the click itself, privately, as the first answer (docs/decisions/first-answer.md), before the
    // handler (which would name the person) runs; the post it sits on stays as it was.
    const refused = await d.click(post, forged, user).reply(WAIT);
    expect(refused.ephemeral).toBe(true);
    expect(refused.id).not.toBe(post);
    expect(renderMessageText(refused)).toContain('link with `/link eventor`');

    expect(d.loginCalls()).toBe(calls);
    expect(d.puts()).toBe(writes);
    expect(d.dmCount(user)).toBe(dms);
    expect(person.competitor.cards).toEqual(cards);
    expect(
      (await world.bot.store.audit.auditLog(world.guild.id)).filter(
        (e) => e.actorId === user.id && (e.action === 'login-link' || e.action === 'card'),
      ),
    ).toEqual([]);
  };

  it("an admin who /admin links themself to another member's person cannot log in as them nor change their chip", async () => {
    const linked = await d.privateText(
      d.run('admin', world.admin, 'en-GB', 'link', { member: world.admin.id, person: victim.person.id! }),
    );
    expect(linked).toContain(`Linked <@${world.admin.id}> to ${d.fullName(victim)}`);
    expect(linked).toContain('login links and chip changes need the member to link with `/link eventor`');
    expect(await d.links(world.admin)).toEqual([
      expect.objectContaining({ personId: victim.person.id, method: 'admin' }),
    ]);
    await expectCannotActAs(world.admin, victim, /\(by an admin\)/);
    // The /login autocomplete offers only persons a login link can be made for.
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.admin,
      name: 'login',
      focused: 'person',
      value: '',
      timeoutMs: 5000,
    });
    expect(choices).toEqual([]);
  });

  it('an admin link still serves the read-only personal features: /card shows, /starts answers, /notify turns on, /whoami says how', async () => {
    const shown = await d.privateText(d.run('card', world.admin, 'en-GB'));
    expect(shown).toContain(`Competitor settings of ${d.fullName(victim)}`);
    expect(shown).toContain(victim.competitor.cards[0]!.number);
    expect(shown).toContain('Changing a chip here needs a link you made yourself');

    const asked = world.eventor.requests.count('/api/starts/person');
    const starts = await d.run('starts', world.admin, 'en-GB').reply(WAIT);
    expect(starts.ephemeral).toBe(true);
    expect(renderMessageText(starts)).not.toContain('not linked');
    expect(world.eventor.requests.count('/api/starts/person')).toBeGreaterThan(asked);

    const dms = d.dmCount(world.admin);
    expect(await d.privateText(d.run('notify', world.admin, 'en-GB', 'on'))).toContain('Turned on');
    await world.discord.waitForDm(world.admin, () => d.dmCount(world.admin) > dms, WAIT);
    expect(world.discord.dms(world.admin).at(-1)!.content).not.toMatch(LINK);

    const whoami = await d.privateText(d.run('whoami', world.admin, 'en-GB'));
    expect(whoami).toMatch(new RegExp(`${d.fullName(victim)}.*by an admin`));
    expect(whoami).toContain(
      'Login links and chip changes (`/login`, `/card`) are only for persons linked with their Eventor password',
    );
  });

  it('a link an admin approved (/link request) cannot log in as the person nor change their chip either', async () => {
    const before = world.discord.messages(adminChannel.id).length;
    expect(
      await d.privateText(d.run('link', requester, 'en-GB', 'request', { person: approved.person.id! })),
    ).toContain('went to the admins');
    const post: MessageView = await world.discord
      .waitForMessage(adminChannel.id, () => world.discord.messages(adminChannel.id).length > before, WAIT)
      .then(() => world.discord.messages(adminChannel.id).at(-1)!);
    const approve = JSON.stringify(post.components).match(/"(link:approve:\d+)"/)![1]!;
    expect(await d.privateText(d.click(post.id, approve, world.admin))).toContain('Approved');
    expect(await d.links(requester)).toEqual([
      expect.objectContaining({ personId: approved.person.id, method: 'approval' }),
    ]);
    await expectCannotActAs(requester, approved, /\(approved by an admin\)/);
    expect(await d.privateText(d.run('whoami', requester, 'en-GB'))).toMatch(
      new RegExp(`${d.fullName(approved)}.*approved by an admin`),
    );
  });

  it('a link made with the Eventor password logs in and changes the chip; an admin relinking it keeps it so', async () => {
    expect(await d.withCredentials(world.member, proven)).toContain(`now tied to ${d.fullName(proven)}`);
    const calls = d.loginCalls();
    let dms = d.dmCount(world.member);
    expect(await d.privateText(d.run('login', world.member, 'en-GB'))).toContain('in your direct messages');
    await world.discord.waitForDm(world.member, () => d.dmCount(world.member) > dms, WAIT);
    expect(JSON.stringify(world.discord.dms(world.member).at(-1)!.components)).toMatch(LINK);
    expect(d.loginCalls()).toBe(calls + 1);

    const prompt = await d.run('card', world.member, 'en-GB', undefined, { number: '7123456', type: 'SI' }).reply(WAIT);
    const save = JSON.stringify(prompt.components).match(/card:confirm:[^"]+/)![0];
    const writes = d.puts();
    expect(renderMessageText(await d.click(prompt.id, save, world.member).reply(WAIT))).toContain('SPORTident 7123456');
    expect(d.puts()).toBe(writes + 1);
    expect(proven.competitor.cards).toContainEqual({ number: '7123456', type: 'SI' });

    // An admin linking the same member to the same person again takes nothing away.
    const relinked = await d.privateText(
      d.run('admin', world.admin, 'en-GB', 'link', { member: world.member.id, person: proven.person.id! }),
    );
    expect(relinked).toContain('the link stays as it was made: with the Eventor password');
    expect(await d.links(world.member)).toEqual([
      expect.objectContaining({ personId: proven.person.id, method: 'credentials' }),
    ]);
    dms = d.dmCount(world.member);
    await d.privateText(d.click(loginPost, 'login:button', world.member));
    await world.discord.waitForDm(world.member, () => d.dmCount(world.member) > dms, WAIT);
    expect(d.loginCalls()).toBe(calls + 2);
  });

  it('an admin link later proven with the Eventor password upgrades, and an admin relinking does not downgrade it', async () => {
    const member = world.swedishMember;
    await d.privateText(
      d.run('admin', world.admin, 'en-GB', 'link', { member: member.id, person: upgraded.person.id! }),
    );
    expect(await d.links(member)).toEqual([expect.objectContaining({ method: 'admin' })]);
    await d.withCredentials(member, upgraded);
    expect(await d.links(member)).toEqual([
      expect.objectContaining({ personId: upgraded.person.id, method: 'credentials' }),
    ]);
    await d.privateText(
      d.run('admin', world.admin, 'en-GB', 'link', { member: member.id, person: upgraded.person.id! }),
    );
    expect(await d.links(member)).toEqual([expect.objectContaining({ method: 'credentials' })]);
    expect(await d.privateText(d.run('whoami', member, 'en-GB'))).toMatch(
      new RegExp(`${d.fullName(upgraded)}.*with the Eventor password`),
    );
    const dms = d.dmCount(member);
    expect(await d.privateText(d.run('login', member, 'sv-SE'))).toContain('direktmeddelanden');
    await world.discord.waitForDm(member, () => d.dmCount(member) > dms, WAIT);
  });

  it("a parent whose default is a child an admin linked gets the login of their own proven person, never the child's", async () => {
    const parent = world.discord.createMember(world.guild.id, {
      username: 'foralder',
      globalName: 'Förälder',
      locale: 'en-GB',
    });
    const [child, own] = world.eventor.dataset.homeClub.members.filter(
      (m) => ![victim, approved, proven, upgraded].includes(m),
    ) as [SandboxPerson, SandboxPerson];
    await d.privateText(d.run('admin', world.admin, 'en-GB', 'link', { member: parent.id, person: child.person.id! }));
    await d.withCredentials(parent, own);
    expect(await d.links(parent)).toEqual([
      expect.objectContaining({ personId: child.person.id, isDefault: true, method: 'admin' }),
      expect.objectContaining({ personId: own.person.id, isDefault: false, method: 'credentials' }),
    ]);
    const dms = d.dmCount(parent);
    await d.privateText(d.run('login', parent, 'en-GB'));
    await world.discord.waitForDm(parent, () => d.dmCount(parent) > dms, WAIT);
    const url = JSON.stringify(world.discord.dms(parent).at(-1)!.components).match(LINK)![0];
    const page = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const body = await page.text();
    expect(page.status).toBe(200);
    expect(body).toContain(d.fullName(own));
    expect(body).not.toContain(d.fullName(child));
    expect(await d.privateText(d.run('login', parent, 'en-GB', undefined, { person: child.person.id! }))).toContain(
      'link with `/link eventor` to get login links',
    );
  });

  /**
   * A /card prompt made while `person` is in the club; then the club removes them in Eventor (the
   * bot's clock stays within the same minute): /login, the login button (clicked in `button`'s
   * language) and the prompt's save button are all refused, Eventor is neither asked for a login
   * nor written to, and no DM goes out. The person is put back afterwards.
   */
  const expectRefusedOnceOutOfClub = async (
    member: SandboxUser,
    person: SandboxPerson,
    chipNumber: string,
    button: { locale: string; says: string },
  ): Promise<void> => {
    const prompt = await d.run('card', member, 'en-GB', undefined, { number: chipNumber, type: 'SI' }).reply(WAIT);
    const save = JSON.stringify(prompt.components).match(/card:confirm:[^"]+/)![0];
    const members = world.eventor.dataset.homeClub.members;
    const index = members.indexOf(person);
    members.splice(index, 1);
    try {
      const calls = d.loginCalls();
      const writes = d.puts();
      const dms = d.dmCount(member);
      expect(await d.privateText(d.run('login', member, 'en-GB'))).toContain(
        "not a member of this server's club in Eventor now",
      );
      expect(await d.privateText(d.click(loginPost, 'login:button', member, button.locale))).toContain(button.says);
      expect(renderMessageText(await d.click(prompt.id, save, member).reply(WAIT))).toContain(
        'their settings cannot be changed here',
      );
      expect(d.loginCalls()).toBe(calls);
      expect(d.puts()).toBe(writes);
      expect(d.dmCount(member)).toBe(dms);
    } finally {
      members.splice(index, 0, person);
    }
  };

  it('a person who left the club gets no login link and no chip change, and Eventor is not asked for one', async () => {
    // A prompt made while they were a member, confirmed after they left.
    await expectRefusedOnceOutOfClub(world.swedishMember, upgraded, '7234567', {
      locale: 'sv-SE',
      says: 'inte medlem i den här serverns klubb',
    });
  });

  it('someone removed from the club in Eventor is refused a login link and a chip change at once, not a minute later', async () => {
    const leaver = world.discord.createMember(world.guild.id, {
      username: 'uttradd',
      globalName: 'Utträdd',
      locale: 'en-GB',
    });
    const person = world.eventor.dataset.homeClub.members
      .filter((m) => m.hasSettings && ![victim, approved, proven, upgraded].includes(m))
      .at(-1)!;
    await d.withCredentials(leaver, person);
    expect(await d.links(leaver)).toEqual([
      expect.objectContaining({ personId: person.person.id, method: 'credentials' }),
    ]);
    // A member a moment ago: a login link comes.
    const dms = d.dmCount(leaver);
    await d.privateText(d.run('login', leaver, 'en-GB'));
    await world.discord.waitForDm(leaver, () => d.dmCount(leaver) > dms, WAIT);
    // Then the club removes them in Eventor, within the same minute.
    await expectRefusedOnceOutOfClub(leaver, person, '7654321', {
      locale: 'en-GB',
      says: "not a member of this server's club in Eventor now",
    });
  });

  it("nothing else acts on someone else's link: /unlink, /link default, a forged /admin unlink button, /notify", async () => {
    // world.member's credentials link to `proven` is the target; world.swedishMember and requester try.
    const target = async () => (await d.links(world.member)).find((l) => l.personId === proven.person.id);
    expect(await target()).toMatchObject({ method: 'credentials' });
    expect(
      await d.privateText(d.run('unlink', requester, 'en-GB', undefined, { person: proven.person.id! })),
    ).toContain('You are not linked to that person');
    expect(await d.privateText(d.run('link', requester, 'en-GB', 'default', { person: proven.person.id! }))).toContain(
      'You are not linked to that person',
    );
    const forged = `admin:unlink:${world.member.id}:${proven.person.id}`;
    const post = await d.postButton('Links', { type: ComponentType.Button, style: 2, label: '1', custom_id: forged });
    // The router refuses before acknowledging anything, so the refusal is the click's own (private) reply.
    const refused = await d.click(post, forged, requester).reply(WAIT);
    expect(refused.ephemeral).toBe(true);
    expect(renderMessageText(refused)).toContain('Manage Server');
    expect(await target()).toMatchObject({ method: 'credentials' });
    expect(await d.links(requester)).toEqual([expect.objectContaining({ personId: approved.person.id })]);
    // /notify acts on the caller's own subscription and links only.
    const subscriptions = new Subscriptions(world.bot.store);
    const adminSubscription = await subscriptions.get(world.guild.id, world.admin.id);
    expect(await d.privateText(d.run('notify', requester, 'en-GB', 'off'))).toContain('Turned off');
    expect(await subscriptions.get(world.guild.id, world.admin.id)).toEqual(adminSubscription);
    expect(await d.privateText(d.run('notify', requester, 'en-GB', 'show'))).not.toContain(d.fullName(victim));
  });

  it('/admin audit records who linked whom and how', async () => {
    const audit = await d.privateText(d.run('admin', world.admin, 'en-GB', 'audit'));
    expect(audit).toMatch(new RegExp(`<@${world.admin.id}> · linked \\(by an admin\\) · ${d.fullName(victim)}`));
    expect(audit).toMatch(
      new RegExp(
        `<@${world.admin.id}> · linked \\(approved by an admin\\) · for <@${requester.id}> · ${d.fullName(approved)}`,
      ),
    );
    expect(audit).toMatch(
      new RegExp(`<@${world.member.id}> · linked \\(with the Eventor password\\) · ${d.fullName(proven)}`),
    );
  });
});

describe('/setup eventor to another club forgets the links, requests and /notify made under the old one', () => {
  let world: LoopbackWorld;
  const d = driver(() => world);
  let adminChannel: SandboxChannel;
  let requestPost: MessageView;
  let waiting: SandboxUser;
  let closed: SandboxUser;

  beforeAll(async () => {
    world = await startTestWorld();
    adminChannel = world.discord.createTextChannel(world.guild.id, { name: 'styrelsen' });
    await world.bot.store.servers.setChannel(world.guild.id, 'admin', adminChannel.id);
    waiting = world.discord.createMember(world.guild.id, { username: 'vantar', globalName: 'Väntar', locale: 'sv-SE' });
    closed = world.discord.createMember(world.guild.id, { username: 'stangd', globalName: 'Stängd', locale: 'en-GB' });
    const home = world.eventor.dataset.homeClub.members;
    // One link of each kind, a pending request, a /notify subscription, and a member whose DMs are closed.
    expect(await d.withCredentials(world.member, home[0]!)).toContain('now tied to');
    await d.privateText(
      d.run('admin', world.admin, 'en-GB', 'link', { member: world.swedishMember.id, person: home[1]!.person.id! }),
    );
    await d.privateText(
      d.run('admin', world.admin, 'en-GB', 'link', { member: closed.id, person: home[3]!.person.id! }),
    );
    const before = world.discord.messages(adminChannel.id).length;
    await d.privateText(d.run('link', waiting, 'sv-SE', 'request', { person: home[2]!.person.id! }));
    requestPost = await world.discord
      .waitForMessage(adminChannel.id, () => world.discord.messages(adminChannel.id).length > before, WAIT)
      .then(() => world.discord.messages(adminChannel.id).at(-1)!);
    const dms = d.dmCount(world.member);
    expect(await d.privateText(d.run('notify', world.member, 'en-GB', 'on'))).toContain('Turned on');
    await world.discord.waitForDm(world.member, () => d.dmCount(world.member) > dms, WAIT);
    world.discord.closeDms(closed);
  });
  afterAll(async () => {
    await world?.close();
  });

  const connect = async (apiKey: string): Promise<string> => {
    const modal = await d
      .run('setup', world.admin, 'en-GB', 'eventor', { base_url: world.eventor.baseUrl })
      .waitForModal(WAIT);
    return d.privateText(
      world.discord.submitModal({
        user: world.admin,
        locale: 'en-GB',
        customId: modal.custom_id,
        fields: { key: apiKey },
      }),
    );
  };
  const subscription = (user: SandboxUser) => new Subscriptions(world.bot.store).get(world.guild.id, user.id);
  const held = async () => ({
    links: (await world.bot.store.links.guildLinks(world.guild.id)).length,
    pending: (await world.bot.store.links.pendingLinkRequests(world.guild.id, waiting.id)).length,
    subscribed: (await subscription(world.member)) !== null,
  });
  /** Waits (bounded) until the bot logged that it finished telling members, as often as `count`. */
  const toldMembers = async (count: number): Promise<void> => {
    for (
      let i = 0;
      i < 200 && world.logLines.filter((l) => l.includes('members told that their links went')).length < count;
      i += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(world.logLines.filter((l) => l.includes('members told that their links went'))).toHaveLength(count);
  };

  it('a new key of the same club on the same Eventor keeps everything and tells nobody', async () => {
    expect(await held()).toEqual({ links: 3, pending: 1, subscribed: true });
    const dms = [world.member, world.swedishMember, waiting].map(d.dmCount);
    const reply = await connect(world.eventor.apiKey);
    expect(reply).toContain(`Connected to ${world.eventor.dataset.homeClub.name}`);
    expect(reply).not.toContain('removed');
    expect(await held()).toEqual({ links: 3, pending: 1, subscribed: true });
    expect([world.member, world.swedishMember, waiting].map(d.dmCount)).toEqual(dms);
    expect((await world.bot.store.audit.auditLog(world.guild.id)).some((e) => e.action === 'eventor-moved')).toBe(
      false,
    );
  });

  it("another club's key: links, requests and subscriptions go in the same step, each member is told once, the audit says so", async () => {
    const other = world.eventor.dataset.clubs.find((c) => c.id !== world.eventor.dataset.homeClub.id)!;
    const dms = new Map([world.member, world.swedishMember, waiting, closed].map((u) => [u.id, d.dmCount(u)]));
    const reply = await connect(other.apiKey);
    expect(reply).toContain(`Connected to ${other.name}`);
    expect(reply).toContain(
      'the member links (3), link requests (1) and `/notify` subscriptions (1) of the old one were removed',
    );
    expect(await held()).toEqual({ links: 0, pending: 0, subscribed: false });
    expect((await world.bot.store.servers.guildSettings(world.guild.id))?.organisationId).toBe(other.id);

    await toldMembers(1);
    for (const user of [world.member, world.swedishMember, waiting])
      expect(d.dmCount(user), user.username).toBe(dms.get(user.id)! + 1);
    expect(d.dmCount(closed)).toBe(dms.get(closed.id));
    expect(world.discord.dms(world.member).at(-1)!.content).toContain(
      `now uses another Eventor or club (${other.name})`,
    );
    // In the language the member used with the bot (their request was in Swedish).
    expect(world.discord.dms(waiting).at(-1)!.content).toContain('använder nu en annan Eventor eller klubb');

    const entry = (await world.bot.store.audit.auditLog(world.guild.id)).find((e) => e.action === 'eventor-moved');
    expect(entry).toMatchObject({ actorId: world.admin.id, detail: '3 1 1' });
    expect(await d.privateText(d.run('admin', world.admin, 'en-GB', 'audit'))).toContain(
      'moved the server to another Eventor or club; removed links: 3, link requests: 1, `/notify` subscriptions: 1',
    );

    // Nothing of the old club is left to act on: no link, no request an admin could still approve.
    const rows = await guildRows(world, world.guild.id);
    for (const table of ['member_links', 'link_requests', 'notify_subscriptions']) expect(rows[table], table).toBe(0);
    const calls = d.loginCalls();
    expect(await d.privateText(d.run('login', world.member, 'en-GB'))).toContain('not linked to an Eventor person');
    expect(d.loginCalls()).toBe(calls);
    const approve = JSON.stringify(requestPost.components).match(/"(link:approve:\d+)"/)![1]!;
    await d.privateText(d.click(requestPost.id, approve, world.admin));
    expect(await d.links(waiting)).toEqual([]);
  });

  it('moving back to the first club is a move too: nothing made under the other club survives', async () => {
    const other = world.eventor.dataset.clubs.find((c) => c.id !== world.eventor.dataset.homeClub.id)!;
    await d.privateText(
      d.run('admin', world.admin, 'en-GB', 'link', {
        member: world.swedishMember.id,
        person: other.members[0]!.person.id!,
      }),
    );
    expect(await d.links(world.swedishMember)).toHaveLength(1);
    const reply = await connect(world.eventor.apiKey);
    expect(reply).toContain('the member links (1)');
    expect(await d.links(world.swedishMember)).toEqual([]);
    await toldMembers(2);
  });
});

describeEachDialect('Store.linkPerson and privacy.connectEventor', (stores) => {
  let store: Store;
  beforeEach(async () => {
    store = await stores().fresh();
  });
  const method = async (userId: string, personId: string) =>
    (await store.links.linkedPersons('g1', userId)).find((l) => l.personId === personId)?.method;

  it('relinking only ever upgrades to credentials', async () => {
    await store.links.linkPerson('g1', 'u1', 'p1', 'credentials');
    await store.links.linkPerson('g1', 'u1', 'p1', 'admin');
    await store.links.linkPerson('g1', 'u1', 'p1', 'approval');
    expect(await method('u1', 'p1')).toBe('credentials');
    await store.links.linkPerson('g1', 'u2', 'p2', 'approval');
    await store.links.linkPerson('g1', 'u2', 'p2', 'admin');
    expect(await method('u2', 'p2')).toBe('approval');
    await store.links.linkPerson('g1', 'u2', 'p2', 'credentials');
    expect(await method('u2', 'p2')).toBe('credentials');
  });

  it('a move forgets links, requests and subscriptions with the connection, in one step; the same club keeps them', async () => {
    const connection = {
      instance: 'custom',
      baseUrl: 'https://eventor.example.org/api',
      apiKey: 'k'.repeat(32),
      organisation: { id: '7', name: 'OK Test' },
    };
    // Each test has a fresh store: the links a move forgets are made here.
    await store.links.linkPerson('g1', 'u1', 'p1', 'credentials');
    await store.links.linkPerson('g1', 'u2', 'p2', 'approval');
    await store.links.createLinkRequest({ guildId: 'g1', userId: 'u3', personId: 'p3', locale: 'sv-SE' });
    await store.links.linkPerson('g2', 'u1', 'p9', 'admin');
    expect(
      (await connectEventor(store, 'g1', connection, { forgetMembers: false, actorId: 'admin' })).forgotten,
    ).toBeNull();
    expect(await store.links.guildLinks('g1')).toHaveLength(2);
    const moved = await connectEventor(
      store,
      'g1',
      { ...connection, organisation: { id: '8', name: 'IFK Test' } },
      { forgetMembers: true, actorId: 'admin' },
    );
    expect(moved.settings.organisationId).toBe('8');
    expect(moved.forgotten).toEqual({
      links: 2,
      requests: 1,
      subscriptions: 0,
      members: [
        { userId: 'u1', locale: null },
        { userId: 'u2', locale: null },
        { userId: 'u3', locale: 'sv-SE' },
      ],
    });
    expect(await store.links.guildLinks('g1')).toEqual([]);
    expect(await store.links.pendingLinkRequests('g1', 'u3')).toEqual([]);
    expect((await store.audit.auditLog('g1'))[0]).toMatchObject({
      actorId: 'admin',
      action: 'eventor-moved',
      detail: '2 1 0',
    });
    // Another server's links are not touched.
    expect(await store.links.guildLinks('g2')).toHaveLength(1);
  });
});
