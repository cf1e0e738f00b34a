/**
 * /season and /cup, attacked end to end through the real bot (discord.js against the sandbox
 * Discord, the real Eventor client against the sandbox Eventor):
 *
 * - A season is about the club's own members only. Another club's runner (a real, public person
 *   id from the results), a Discord account (linked here, elsewhere, or its mention) and made-up
 *   ids get one refusal, the member option's, as /results and /splits refuse them, with nothing
 *   about anyone in it; a member's own season never reads another server's links.
 * - Hostile names from Eventor reach no mention, embed title, text or alt text unescaped: the
 *   attack on every field of the model runs /season and /cup with the rest (eventor-text.test.ts).
 * - A forged cup button is refused for a member and finds nothing of another server's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cupDeleteId } from '../../commands/cup.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxGuild, SandboxUser } from '../../harness/sandbox/discord/types.js';
import { testNow } from '../support/clock.js';
import { postForgedButton } from '../support/forged-button.js';
import { busiestSeason, type ClubStart } from '../support/season-data.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 30_000 };

function run(
  world: LoopbackWorld,
  name: string,
  subcommand: string,
  options: Record<string, string | number | boolean>,
  user: SandboxUser,
  guildId = world.guild.id,
  channelId = world.channel.id,
): Promise<MessageView> {
  return world.discord
    .runCommand({ guildId, channelId, user, name, subcommand, options, locale: 'en-GB' })
    .answer(WAIT);
}

describe("/season: about the club's own members only, the same refusal for anyone else", () => {
  let world: LoopbackWorld;
  let season: { year: number; personId: string; name: string; starts: ClubStart[] };
  let other: { guild: SandboxGuild; lobby: { id: string } };
  /** In both servers, linked (to the season's runner) in the other one only. */
  let both: SandboxUser;
  /** A runner of the club's races from another club: public in the results, no club member. */
  let guest: { personId: string; name: string };

  beforeAll(async () => {
    const clock = testNow();
    world = await startTestWorld({ now: () => clock });
    season = busiestSeason(world.eventor);
    other = await world.addServer('Same club, second server', { defaultEventor: true });
    both = world.discord.createMember(world.guild.id, { username: 'bada', locale: 'en-GB' });
    world.discord.addMember(other.guild.id, both);
    await world.bot.store.links.linkPerson(other.guild.id, both.id, season.personId, 'admin');
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, season.personId, 'admin');
    const dataset = world.eventor.dataset;
    const members = new Set(dataset.homeClub.members.map((m) => m.person.id));
    for (const start of season.starts) {
      for (const cls of dataset.details(start.event).resultList?.classes ?? [])
        for (const p of cls.persons)
          if (!guest && p.person?.id && p.organisation?.id !== dataset.homeClub.id && !members.has(p.person.id))
            guest = { personId: p.person.id, name: `${p.person.name.given} ${p.person.name.family}` };
    }
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('found the sandbox data the tests need', () => {
    expect(guest).toBeDefined();
    expect(season.starts.length).toBeGreaterThan(0);
  });

  it("another club's runner, a Discord account linked here or elsewhere, a mention, made-up ids: one refusal", async () => {
    const tried = {
      guest: guest.personId,
      linkedHere: world.member.id,
      linkedElsewhere: both.id,
      mention: `<@${both.id}>`,
      madeUp: '999999999',
      guestByName: guest.name,
    };
    const refusals: string[] = [];
    world.eventor.requests.clear();
    for (const [what, value] of Object.entries(tried)) {
      const reply = await run(world, 'season', 'member', { member: value, year: season.year }, world.admin);
      const text = renderMessageText(reply);
      expect(reply.ephemeral, what).toBe(true);
      expect(text, what).toContain('I could not find a club member called');
      for (const name of [season.name, guest.name]) expect(text, what).not.toContain(`**${name}`);
      expect(text, what).not.toContain(season.personId);
      expect(world.discord.attachments(reply.id), what).toEqual([]);
      expect(reply.content, what).not.toMatch(/<@!?\d+>/);
      // The value as typed is echoed back (cut and escaped); past it, each refusal is word for word the same.
      refusals.push(reply.content.replace(/called "[^"]*"/, 'called "…"'));
    }
    expect([...new Set(refusals)]).toEqual([refusals[0]]);
    // Nothing of anyone's results was asked to refuse them.
    expect(world.eventor.requests.count('/api/results/organisation')).toBe(0);
    expect(world.eventor.requests.count('/api/results/person')).toBe(0);
  });

  it("a member linked only in another server has no season of their own here: another server's links are never read", async () => {
    const reply = await run(world, 'season', 'member', { year: season.year }, both);
    expect(renderMessageText(reply)).not.toContain(season.name);
    expect(world.discord.attachments(reply.id)).toEqual([]);
    // Named by their Eventor person, the answer is the same whoever asks.
    const asked = async (user: SandboxUser) => {
      const view = await run(world, 'season', 'member', { member: season.personId, year: season.year }, user);
      return { embeds: view.embeds.map((e) => ({ title: e.title, description: e.description })) };
    };
    const baseline = await asked(world.admin);
    expect(baseline.embeds[0]!.title).toBe(`Season ${season.year} · ${season.name}`);
    expect(await asked(both)).toEqual(baseline);
    expect(await asked(world.member)).toEqual(baseline);
  });

  it("a forged cup button: refused for a member; another server's cup is not found from here", async () => {
    const made = await world.bot.services.cups.create(
      other.guild.id,
      'admin-elsewhere',
      { name: 'Deras cup', scoring: 'place' },
      'Europe/Stockholm',
    );
    const forged = cupDeleteId.encode({ cup: made.id, confirm: true });
    const message = await postForgedButton(world, forged);
    const byMember = await world.discord
      .clickButton({ message, customId: forged, user: world.member, locale: 'en-GB' })
      .reply(WAIT);
    expect(byMember.ephemeral).toBe(true);
    expect(renderMessageText(byMember)).toMatch(/Manage Server/);
    const byAdmin = await world.discord
      .clickButton({ message, customId: forged, user: world.admin, locale: 'en-GB' })
      .answer(WAIT);
    expect(renderMessageText(byAdmin)).toContain('That cup was deleted meanwhile.');
    expect((await world.bot.store.cups.list(other.guild.id)).map((c) => c.name)).toEqual(['Deras cup']);
    const named = await run(world, 'season', 'cup', { cup: String(made.id) }, world.member);
    // This server has none: the other server's cup is not one of them, by id or by name.
    expect(renderMessageText(named)).toContain('This server has no cups yet');
    const byName = await run(world, 'season', 'cup', { cup: 'Deras cup' }, world.member);
    expect(renderMessageText(byName)).toContain('This server has no cups yet');
  });
});
