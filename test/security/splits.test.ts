/**
 * /splits names members of this server only, reads links of this server only, and a shared answer
 * shows what the public result list shows and nothing of who is linked to whom.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWorld, startLoopbackWorld } from '../../src/loopback/world.js';
import { type MessageView, renderMessageText } from '../../src/sandbox/discord/index.js';
import type { SandboxGuild, SandboxUser } from '../../src/sandbox/discord/types.js';
import type { SandboxEvent } from '../../src/sandbox/eventor/dataset.js';
import { resultListNames, type SplitsRunner, splitsEvent } from '../support/splits-event.js';

const WAIT = { timeoutMs: 20_000 };

describe('/splits: other servers and shared answers', () => {
  let world: LoopbackWorld;
  let event: SandboxEvent;
  let runner: SplitsRunner;
  let secret: SplitsRunner;
  let other: { guild: SandboxGuild; lobby: { id: string } };
  /** A member of both servers, linked in the other server only. */
  let both: SandboxUser;
  /** A user of the other server only, linked there. */
  let stranger: SandboxUser;

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

  beforeAll(async () => {
    world = await startLoopbackWorld();
    ({ event, first: runner, second: secret } = splitsEvent(world.eventor, Date.now()));
    other = await world.addServer('Same club, second server', { defaultEventor: true });
    both = world.discord.createMember(world.guild.id, { username: 'bada', locale: 'en-GB' });
    world.discord.addMember(other.guild.id, both);
    stranger = world.discord.createMember(other.guild.id, { username: 'framling', locale: 'en-GB' });
    const store = world.bot.store;
    store.linkPerson(world.guild.id, world.member.id, runner.personId, 'admin');
    store.linkPerson(other.guild.id, both.id, secret.personId, 'admin');
    store.linkPerson(other.guild.id, stranger.id, secret.personId, 'admin');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it("a member linked in another server only gets the club's runners here, as an unlinked member does", async () => {
    const own = await run(both, { event: event.id });
    const unlinked = await run(world.admin, { event: event.id });
    expect(own.embeds.map((e) => e.description)).toEqual(unlinked.embeds.map((e) => e.description));
    expect(files(own)).toEqual(['splits.png']);
  });

  it('naming a member linked in another server only says they are not linked here, and shows nothing', async () => {
    const reply = await run(world.member, { event: event.id, member: both.id });
    const text = renderMessageText(reply);
    expect(text).toContain('is not linked to an Eventor person in this server');
    expect(text).not.toContain(secret.name);
    expect(files(reply)).toEqual([]);
  });

  it('naming a user who is not a member of this server is refused, linked elsewhere or not', async () => {
    const reply = await run(world.member, { event: event.id, member: stranger.id });
    const text = renderMessageText(reply);
    expect(text).toContain('That user is not a member of this server');
    expect(text).not.toContain(secret.name);
    expect(files(reply)).toEqual([]);
  });

  it('a shared answer names runners of the public result list only, and no Discord account or person id', async () => {
    const reply = await run(world.member, { event: event.id, share: true });
    expect(reply.ephemeral).toBe(false);
    const text = [
      reply.content,
      ...reply.embeds.flatMap((e) => [e.title, e.description]),
      ...world.discord.attachments(reply.id).map((f) => f.description),
    ].join('\n');
    const public_ = resultListNames(world.eventor, event);
    const bold = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]!);
    expect(bold).toContain(runner.name);
    for (const name of bold) expect(public_.has(name), name).toBe(true);
    expect(text).not.toMatch(/<@!?\d+>/);
    expect(text).not.toContain(world.member.id);
    expect(text).not.toContain(runner.personId);
  });
});
