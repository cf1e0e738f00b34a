/**
 * /splits never tells one member which Eventor person another member's Discord account is linked
 * to: a member is named by their Eventor person (autocomplete of the club's members), never by
 * their Discord account, and the answer about them is the same whoever asks and whoever is linked
 * to them, in this server or another. Links of other servers are never read, and a shared answer
 * shows what the public result list shows.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxGuild, SandboxUser } from '../../harness/sandbox/discord/types.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { resultListNames, type SplitsRunner, splitsEvent } from '../support/splits-event.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 20_000 };

describe('/splits: no Discord-to-Eventor link can be learned, and nothing of other servers', () => {
  let world: LoopbackWorld;
  let event: SandboxEvent;
  let runner: SplitsRunner;
  let secret: SplitsRunner;
  let other: { guild: SandboxGuild; lobby: { id: string } };
  /** A member of both servers, linked (to `secret`) in the other server only. */
  let both: SandboxUser;
  /** A user of the other server only, linked there (to `secret`). */
  let stranger: SandboxUser;
  /** A runner of the event from another club: a real, public person id, but no club member. */
  let guest: { personId: string; name: string };

  const run = (user: SandboxUser, options: Record<string, string | boolean>) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        name: 'splits',
        options,
        locale: 'en-GB',
      })
      .answer(WAIT);
  const files = (view: MessageView) => world.discord.attachments(view.id).map((f) => f.name);
  /** Everything a member sees of an answer: its text, and each picture's name, alt text and bytes. */
  const seen = (view: MessageView) => ({
    ephemeral: view.ephemeral,
    content: view.content,
    embeds: view.embeds.map((e) => ({ title: e.title, description: e.description })),
    pictures: world.discord.attachments(view.id).map((f) => ({
      name: f.name,
      description: f.description,
      sha256: createHash('sha256').update(f.bytes).digest('hex'),
    })),
  });

  beforeAll(async () => {
    world = await startTestWorld();
    ({ event, first: runner, second: secret } = splitsEvent(world.eventor, world.eventor.now().getTime()));
    other = await world.addServer('Same club, second server', { defaultEventor: true });
    both = world.discord.createMember(world.guild.id, { username: 'bada', locale: 'en-GB' });
    world.discord.addMember(other.guild.id, both);
    stranger = world.discord.createMember(other.guild.id, { username: 'framling', locale: 'en-GB' });
    const store = world.bot.store;
    await store.links.linkPerson(world.guild.id, world.member.id, runner.personId, 'admin');
    await store.links.linkPerson(other.guild.id, both.id, secret.personId, 'admin');
    await store.links.linkPerson(other.guild.id, stranger.id, secret.personId, 'admin');
    const home = world.eventor.dataset.homeClub.id;
    const members = new Set(world.eventor.dataset.homeClub.members.map((p) => p.person.id));
    for (const cr of world.eventor.dataset.details(event).resultList!.classes)
      for (const p of cr.persons)
        if (!guest && p.person?.id && p.organisation?.id !== home && !members.has(p.person.id))
          guest = { personId: p.person.id, name: `${p.person.name.given} ${p.person.name.family}` };
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('found the sandbox data the tests need', () => {
    expect(secret.personId).not.toBe(runner.personId);
    expect(guest).toBeDefined();
  });

  it("a member linked in another server only gets the club's runners here, as an unlinked member does", async () => {
    const own = await run(both, { event: event.id });
    const unlinked = await run(world.admin, { event: event.id });
    expect(seen(own)).toEqual(seen(unlinked));
    expect(files(own)).toEqual(['splits.png']);
  });

  it('the answer about a club member is the same whoever asks and whoever is linked to them, here or elsewhere', async () => {
    const ask = async (user: SandboxUser) => seen(await run(user, { event: event.id, member: secret.personId }));
    // Linked in the other server only (to `both` and `stranger`).
    const baseline = await ask(world.admin);
    expect(baseline.embeds[0]!.description).toContain(`**${secret.name}**`);
    expect(baseline.pictures.map((p) => p.name)).toEqual(['splits.png', 'lost-per-leg.png']);
    expect(await ask(world.member)).toEqual(baseline);
    expect(await ask(both)).toEqual(baseline);

    // Linked here too, to a member of this server: the member asking about themself sees no more.
    await world.bot.store.links.linkPerson(world.guild.id, world.swedishMember.id, secret.personId, 'admin');
    expect(await ask(world.admin)).toEqual(baseline);
    expect(await ask(world.swedishMember)).toEqual(baseline);
    expect(await ask(world.member)).toEqual(baseline);

    // Linked to nobody anywhere.
    const store = world.bot.store;
    await store.links.unlinkPerson(world.guild.id, world.swedishMember.id, secret.personId);
    await store.links.unlinkPerson(other.guild.id, both.id, secret.personId);
    await store.links.unlinkPerson(other.guild.id, stranger.id, secret.personId);
    try {
      expect(await ask(world.admin)).toEqual(baseline);
      expect(await ask(both)).toEqual(baseline);
    } finally {
      await store.links.linkPerson(other.guild.id, both.id, secret.personId, 'admin');
      await store.links.linkPerson(other.guild.id, stranger.id, secret.personId, 'admin');
    }
  });

  it("a Discord account's id or mention, a made-up id, a guest's id: one refusal, the same for each", async () => {
    const tried = {
      // Accounts linked here, in the other server only, and in the other server they alone are in.
      linkedHere: world.member.id,
      linkedElsewhere: both.id,
      strangerElsewhere: stranger.id,
      mention: `<@${both.id}>`,
      madeUp: '999999999',
      // A runner of the event, public in the results, but not of the club: autocomplete never offers them.
      guest: guest.personId,
    };
    const refusals: string[] = [];
    for (const [what, value] of Object.entries(tried)) {
      const reply = await run(world.member, { event: event.id, member: value });
      const text = renderMessageText(reply);
      expect(text, what).toContain('I could not find a club member called');
      for (const name of [runner.name, secret.name, guest.name]) expect(text, what).not.toContain(name);
      expect(text, what).not.toContain(runner.personId);
      expect(text, what).not.toContain(secret.personId);
      expect(files(reply), what).toEqual([]);
      expect(reply.content, what).not.toMatch(/<@!?\d+>/);
      // The value as typed is echoed back (cut and escaped); past it, each refusal is word for word the same.
      refusals.push(text.replace(/called "[^"]*"/, 'called "…"'));
    }
    expect(new Set(refusals).size).toBe(1);
  });

  it('a shared answer names runners of the public result list only, and no Discord account or person id', async () => {
    for (const options of [{}, { member: secret.personId }] as Array<Record<string, string>>) {
      const reply = await run(world.member, { event: event.id, share: true, ...options });
      expect(reply.ephemeral).toBe(false);
      const text = [
        reply.content,
        ...reply.embeds.flatMap((e) => [e.title, e.description]),
        ...world.discord.attachments(reply.id).map((f) => f.description),
      ].join('\n');
      const public_ = resultListNames(world.eventor, event);
      const bold = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
      expect(bold).toContain('member' in options ? secret.name : runner.name);
      for (const name of bold) expect(public_.has(name), name).toBe(true);
      expect(text).not.toMatch(/<@!?\d+>/);
      for (const id of [world.member.id, both.id, stranger.id, runner.personId, secret.personId])
        expect(text).not.toContain(id);
    }
  });
});
