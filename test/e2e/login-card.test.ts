import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ComponentType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginButton } from '../../src/render/login-button.js';
import { type MessageView, renderMessageText, type SandboxUser } from '../../harness/sandbox/discord/index.js';
import type { SandboxPerson } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { runningTestClock } from '../support/clock.js';

const WAIT = { timeoutMs: 10_000 };
const MINUTE = 60_000;
const LINK = /https?:\/\/[^\s"'<>)]+\/login\/[A-Za-z0-9_-]+/g;

describe('/login, the login button and /card end to end (sandbox Discord, sandbox Eventor)', () => {
  let world: LoopbackWorld;
  // From the test instant at real speed (Discord's deadlines need time to pass), movable forward.
  const clock = runningTestClock();
  const now = clock.now;
  let astrid: SandboxPerson;
  let sven: SandboxPerson;
  let stranger: SandboxPerson;
  const issued: string[] = [];

  beforeAll(async () => {
    world = await startLoopbackWorld({ now });
    const members = world.eventor.dataset.homeClub.members;
    astrid = members.find(
      (m) =>
        m.hasSettings &&
        m.competitor.cards.length === 1 &&
        m.competitor.cards[0]!.type === 'SI' &&
        m.competitor.preselectedClasses.length > 0,
    )!;
    sven = members.find((m) => m !== astrid && m.hasSettings && m.competitor.cards.length > 0)!;
    stranger = members.find((m) => m !== astrid && m !== sven)!;
    expect(astrid && sven && stranger).toBeTruthy();
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, astrid.person.id!, 'credentials');
    await world.bot.store.links.linkPerson(world.guild.id, world.swedishMember.id, sven.person.id!, 'credentials');
  });
  afterAll(async () => {
    await world?.close();
  });

  const run = (name: string, user: SandboxUser, locale: string, options: Record<string, string> = {}) =>
    world.discord.runCommand({ guildId: world.guild.id, channelId: world.channel.id, user, locale, name, options });
  const privateText = async (handle: ReturnType<typeof run>): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    const text = renderMessageText(reply);
    expect(JSON.stringify(reply)).not.toMatch(LINK);
    return text;
  };
  const linkIn = (dm: MessageView): string => {
    const found = JSON.stringify(dm.components).match(LINK);
    expect(found, 'a login link in the DM').not.toBeNull();
    issued.push(found![0]);
    return found![0];
  };
  const newDm = async (user: SandboxUser, before: number): Promise<MessageView> => {
    await world.discord.waitForDm(user, () => world.discord.dms(user).length > before, WAIT);
    return world.discord.dms(user).at(-1)!;
  };
  const open = async (url: string): Promise<{ status: number; body: string }> => {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: await response.text() };
  };
  const loginRequests = () =>
    world.eventor.requests.filter((r) => r.path.toLowerCase() === '/api/externalloginurl').length;
  const fullName = (p: SandboxPerson) => `${p.person.name.given} ${p.person.name.family}`;

  it('/login sends a link by DM that works once; the channel reply only says where it is', async () => {
    const before = world.discord.dms(world.member).length;
    const text = await privateText(run('login', world.member, 'en-GB'));
    expect(text).toContain('in your direct messages');
    expect(text).toContain('five minutes');
    const dm = await newDm(world.member, before);
    expect(dm.content).toContain(fullName(astrid));
    const url = linkIn(dm);
    const first = await open(url);
    expect(first.status).toBe(200);
    expect(first.body).toContain(fullName(astrid));
    expect((await open(url)).status).not.toBe(200);
    // Audited without the link.
    const entry = (await world.bot.store.audit.auditLog(world.guild.id)).find((e) => e.action === 'login-link');
    expect(entry).toMatchObject({ actorId: world.member.id, personId: astrid.person.id });
    expect(entry?.detail ?? '').not.toMatch(/login\//);
  });

  it('a link expires after five minutes', async () => {
    const before = world.discord.dms(world.member).length;
    await privateText(run('login', world.member, 'en-GB'));
    const url = linkIn(await newDm(world.member, before));
    clock.advance(5 * MINUTE + 2_000);
    const late = await open(url);
    expect(late.status).toBe(410);
    expect(late.body).toContain('expired');
  });

  it('a fourth link within ten minutes gets a cooldown with the time left, and nothing is asked of Eventor', async () => {
    const before = world.discord.dms(world.member).length;
    await privateText(run('login', world.member, 'en-GB'));
    linkIn(await newDm(world.member, before));
    const asked = loginRequests();
    const dms = world.discord.dms(world.member).length;
    const text = await privateText(run('login', world.member, 'en-GB'));
    expect(text).toContain('three login links in the last ten minutes');
    const when = Number(/<t:(\d+):R>/.exec(text)?.[1]) * 1000;
    // The first of the three was asked for a little over five minutes ago.
    expect(when).toBeGreaterThan(now().getTime() + 3 * MINUTE);
    expect(when).toBeLessThanOrEqual(now().getTime() + 5 * MINUTE);
    expect(loginRequests()).toBe(asked);
    expect(world.discord.dms(world.member).length).toBe(dms);
    // Once the oldest leaves the window, a new link is allowed.
    clock.advance(5 * MINUTE);
    const again = world.discord.dms(world.member).length;
    await privateText(run('login', world.member, 'en-GB'));
    linkIn(await newDm(world.member, again));
    clock.advance(11 * MINUTE);
  });

  it('closed DMs: the member is told how to open them (Swedish)', async () => {
    world.discord.closeDms(world.swedishMember);
    try {
      const text = await privateText(run('login', world.swedishMember, 'sv-SE'));
      expect(text).toContain('direktmeddelanden');
      expect(text).toContain('Sekretessinställningar');
    } finally {
      world.discord.closeDms(world.swedishMember, false);
    }
  });

  it('a member cannot get a login link for a person not linked to them', async () => {
    const asked = loginRequests();
    const typed = await privateText(run('login', world.member, 'en-GB', { person: stranger.person.id! }));
    expect(typed).toContain('not linked to your Discord account');
    const unlinked = await privateText(run('login', world.admin, 'en-GB'));
    expect(unlinked).toContain('not linked to an Eventor person');
    expect(loginRequests()).toBe(asked);
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'login',
      focused: 'person',
      value: '',
      timeoutMs: 5000,
    });
    expect(choices.map((c) => c.value)).toEqual([astrid.person.id]);
  });

  it("the login button gives each clicker their own link, never the poster's; unlinked clickers get nothing", async () => {
    const channel = await world.bot.client.channels.fetch(world.channel.id);
    if (!channel?.isSendable()) throw new Error('channel not sendable');
    const post = await channel.send({
      content: 'Entry deadline tomorrow',
      components: [{ type: ComponentType.ActionRow, components: [loginButton('en')] }],
    });
    const click = (user: SandboxUser, locale: string) =>
      world.discord.clickButton({ message: post.id, user, locale, customId: 'login:button' });

    const astridDms = world.discord.dms(world.member).length;
    const svenDms = world.discord.dms(world.swedishMember).length;
    const text = await privateText(click(world.swedishMember, 'sv-SE'));
    expect(text).toContain('direktmeddelanden');
    const url = linkIn(await newDm(world.swedishMember, svenDms));
    const page = await open(url);
    expect(page.status).toBe(200);
    expect(page.body).toContain(fullName(sven));
    expect(page.body).not.toContain(fullName(astrid));
    expect(world.discord.dms(world.member).length).toBe(astridDms);

    await privateText(click(world.member, 'en-GB'));
    expect((await open(linkIn(await newDm(world.member, astridDms)))).body).toContain(fullName(astrid));

    const asked = loginRequests();
    expect(await privateText(click(world.admin, 'en-GB'))).toContain('not linked to an Eventor person');
    expect(loginRequests()).toBe(asked);
    // The public post itself never changed.
    expect(JSON.stringify(world.discord.messages(world.channel.id))).not.toMatch(LINK);
  });

  it('/card shows the chips and preselected classes (English and Swedish)', async () => {
    const text = await privateText(run('card', world.member, 'en-GB'));
    expect(text).toContain(`SPORTident ${astrid.competitor.cards[0]!.number}`);
    expect(text).toContain(astrid.competitor.preselectedClasses[0]!.classShortName!);
    const sv = await privateText(run('card', world.swedishMember, 'sv-SE'));
    expect(sv).toContain('Tävlingsinställningar');
    expect(sv).toContain(sven.competitor.cards[0]!.number);
  });

  it("/card refuses numbers outside the type's range before anything is sent", async () => {
    const sent = world.eventor.requests.length;
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ number: '0', type: 'SI' }, 'en-GB', /SPORTident chip number.*1 to 9 999 999.*SI-Card 5/],
      [{ number: '12345678', type: 'SI' }, 'en-GB', /not a valid SPORTident/],
      [{ number: '12ab', type: 'Emit' }, 'en-GB', /"12ab" is not a valid Emit chip number: .*1 to 9 999 999/],
      [{ number: '-5', type: 'emiTag' }, 'en-GB', /not a valid emiTag/],
      [{ number: '99999999', type: 'Emit' }, 'sv-SE', /inte ett giltigt bricknummer för Emit/],
    ];
    for (const [options, locale, expected] of cases) {
      expect(
        await privateText(run('card', locale === 'sv-SE' ? world.swedishMember : world.member, locale, options)),
      ).toMatch(expected);
    }
    expect(world.eventor.requests.length).toBe(sent);
  });

  it('/card confirm: old and new shown, then GET, PUT (other settings kept) and the read-back', async () => {
    const oldNumber = astrid.competitor.cards[0]!.number;
    const classes = structuredClone(astrid.competitor.preselectedClasses);
    const handle = run('card', world.member, 'en-GB', { number: '7 654 321' });
    const prompt = await handle.reply(WAIT);
    expect(renderMessageText(prompt)).toContain(`from **${oldNumber}** to **7654321**`);
    const puts = () => world.eventor.requests.filter((r) => r.method === 'PUT').length;
    expect(puts()).toBe(0);
    const save = JSON.stringify(prompt.components).match(/card:confirm:[^"]+/)![0];

    const done = await world.discord
      .clickButton({ message: prompt.id, user: world.member, locale: 'en-GB', customId: save })
      .reply(WAIT);
    const text = renderMessageText(done);
    expect(text).toContain('Saved');
    expect(text).toContain('SPORTident 7654321');
    expect(text).not.toContain(oldNumber);
    expect(puts()).toBe(1);
    expect(astrid.competitor.cards).toEqual([{ number: '7654321', type: 'SI' }]);
    expect(astrid.competitor.preselectedClasses).toEqual(classes);
    expect((await world.bot.store.audit.auditLog(world.guild.id)).find((e) => e.action === 'card')).toMatchObject({
      actorId: world.member.id,
      personId: astrid.person.id,
      detail: `SI ${oldNumber} -> SI 7654321`,
    });
    expect(done.components).toEqual([]);
  });

  it('/card confirm older than ten minutes asks again and saves nothing', async () => {
    const prompt = await run('card', world.member, 'en-GB', { number: '2345678', type: 'SI' }).reply(WAIT);
    const save = JSON.stringify(prompt.components).match(/card:confirm:[^"]+/)![0];
    const puts = world.eventor.requests.filter((r) => r.method === 'PUT').length;
    clock.advance(11 * MINUTE);
    const done = await world.discord
      .clickButton({ message: prompt.id, user: world.member, locale: 'en-GB', customId: save })
      .reply(WAIT);
    expect(renderMessageText(done)).toContain('more than ten minutes old');
    expect(world.eventor.requests.filter((r) => r.method === 'PUT').length).toBe(puts);
    expect(astrid.competitor.cards[0]!.number).toBe('7654321');
  });

  it('a /card confirm clicked by another member is refused and saves nothing', async () => {
    const prompt = await run('card', world.member, 'en-GB', { number: '3456789', type: 'SI' }).reply(WAIT);
    const save = JSON.stringify(prompt.components).match(/card:confirm:[^"]+/)![0];
    // The sandbox keeps ephemeral buttons to their owner, so the same custom id goes on a public post.
    const channel = await world.bot.client.channels.fetch(world.channel.id);
    if (!channel?.isSendable()) throw new Error('channel not sendable');
    const post = await channel.send({
      content: 'x',
      components: [
        {
          type: ComponentType.ActionRow,
          components: [{ type: ComponentType.Button, style: 1, label: 'Save', custom_id: save }],
        },
      ],
    });
    const puts = world.eventor.requests.filter((r) => r.method === 'PUT').length;
    // The post is public: the refusal goes privately to the clicker, and the post stays as it was.
    // It is known before anything waits, so it is the first answer itself (docs/decisions/first-answer.md), not a
    // follow-up.
    const refused = await world.discord
      .clickButton({ message: post.id, user: world.swedishMember, locale: 'en-GB', customId: save })
      .reply(WAIT);
    expect(refused.ephemeral).toBe(true);
    expect(renderMessageText(refused)).toContain('This button is not yours');
    expect(world.discord.message(post.id)!.content).toBe('x');
    expect(world.eventor.requests.filter((r) => r.method === 'PUT').length).toBe(puts);
    expect(astrid.competitor.cards[0]!.number).toBe('7654321');
  });

  it('/card for a person who never saved settings: shows none, then saves the first chip', async () => {
    const fresh = world.eventor.dataset.homeClub.members.find((m) => !m.hasSettings)!;
    expect(fresh).toBeTruthy();
    await world.bot.store.links.linkPerson(world.guild.id, world.admin.id, fresh.person.id!, 'credentials');
    const shown = await privateText(run('card', world.admin, 'en-GB'));
    expect(shown).toContain('Timing chips: none');
    const prompt = await run('card', world.admin, 'en-GB', { number: '123456', type: 'Emit' }).reply(WAIT);
    expect(renderMessageText(prompt)).toContain('from **none** to **123456**');
    const save = JSON.stringify(prompt.components).match(/card:confirm:[^"]+/)![0];
    const done = await world.discord
      .clickButton({ message: prompt.id, user: world.admin, locale: 'en-GB', customId: save })
      .reply(WAIT);
    expect(renderMessageText(done)).toContain('Emit 123456');
    expect(fresh.hasSettings).toBe(true);
    expect(fresh.competitor.cards).toEqual([{ number: '123456', type: 'Emit' }]);
  });

  it('no login link in any log line or in the database files', async () => {
    expect(issued.length).toBeGreaterThanOrEqual(6);
    const logs = world.logLines.join('\n');
    expect(logs).not.toMatch(LINK);
    await world.bot.store.audit.audit({ guildId: world.guild.id, actorId: 'flush', action: 'noop' });
    const files = [world.databasePath, `${world.databasePath}-wal`].filter((f) => existsSync(f));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = (await readFile(file)).toString('latin1');
      expect(bytes).not.toMatch(/\/login\/[A-Za-z0-9_-]{16,}/);
      for (const url of issued) {
        const token = url.slice(url.lastIndexOf('/') + 1);
        expect(bytes.includes(token)).toBe(false);
        expect(logs.includes(token)).toBe(false);
      }
    }
  });
});
