/**
 * /next shows only the persons a member linked in this server: the `person` option naming someone
 * else's, a refresh button forged with another member's id or another person, and a link made in
 * another server are all refused with one message, and Eventor is never asked about the victim.
 * The real bot (real discord.js) against the sandbox Discord and Eventor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextRefreshId } from '../../commands/next.js';
import { t } from '../../src/i18n/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { type InteractionHandle, renderMessageText, type SandboxUser } from '../../harness/sandbox/discord/index.js';
import { postForgedButton } from '../support/forged-button.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };

describe('/next: only your own linked persons, in this server', () => {
  let world: LoopbackWorld;
  let mine: string;
  let victim: string;
  let victimName: string;

  beforeAll(async () => {
    world = await startTestWorld();
    const members = world.eventor.dataset.homeClub.members;
    mine = members[0]!.person.id!;
    victim = members[1]!.person.id!;
    victimName = `${members[1]!.person.name.given} ${members[1]!.person.name.family}`;
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, mine, 'credentials');
    await world.bot.store.links.linkPerson(world.guild.id, world.swedishMember.id, victim, 'credentials');
  });
  afterAll(async () => {
    await world?.close();
  });

  const postButton = (customId: string): Promise<string> => postForgedButton(world, customId);
  const privateText = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return renderMessageText(reply);
  };
  const clickForged = async (customId: string, user: SandboxUser): Promise<string> =>
    privateText(world.discord.clickButton({ message: await postButton(customId), customId, user, locale: 'en-GB' }));
  /** Whether Eventor was asked anything naming the victim's person since `from`. */
  const askedAboutVictim = (from: number): boolean =>
    world.eventor.requests.slice(from).some((r) => JSON.stringify(r).includes(victim));
  const refused = t('en', 'next.error.notYours');

  it("refuses the person option naming another member's person, asking Eventor nothing about them", async () => {
    const from = world.eventor.requests.count();
    const text = await privateText(
      world.discord.runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'next',
        options: { person: victim },
      }),
    );
    expect(text).toContain(refused.slice(0, 40));
    expect(text).not.toContain(victimName);
    expect(askedAboutVictim(from)).toBe(false);
  });

  it("refuses a refresh button forged with another member's id, or with a person the clicker did not link", async () => {
    const from = world.eventor.requests.count();
    for (const forged of [
      nextRefreshId.encode({ userId: world.swedishMember.id }),
      nextRefreshId.encode({ userId: world.swedishMember.id, personId: victim }),
      nextRefreshId.encode({ userId: world.member.id, personId: victim }),
    ]) {
      const text = await clickForged(forged, world.member);
      expect(text, forged).toContain(refused.slice(0, 40));
      expect(text, forged).not.toContain(victimName);
    }
    expect(askedAboutVictim(from)).toBe(false);
  });

  it('refuses an unlinked member on the refresh button before the handler', async () => {
    const stranger = world.discord.createMember(world.guild.id, { username: 'framling', locale: 'en-GB' });
    const from = world.eventor.requests.count();
    const text = await clickForged(nextRefreshId.encode({ userId: stranger.id, personId: victim }), stranger);
    expect(text).toContain(t('en', 'error.notLinked').slice(0, 30));
    expect(world.eventor.requests.count()).toBe(from);
  });

  it('does not count a link made in another server', async () => {
    const { guild: other, lobby } = await world.addServer('Another server of the club', { defaultEventor: true });
    const traveller = world.discord.createMember(world.guild.id, { username: 'resenar', locale: 'en-GB' });
    world.discord.addMember(other.id, traveller);
    await world.bot.store.links.linkPerson(other.id, traveller.id, victim, 'credentials');
    const from = world.eventor.requests.count();
    const here = await privateText(
      world.discord.runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: traveller,
        locale: 'en-GB',
        name: 'next',
        options: { person: victim },
      }),
    );
    expect(here).toContain(t('en', 'error.notLinked').slice(0, 30));
    expect(askedAboutVictim(from)).toBe(false);
    // In the server where the link was made, the same member sees the person's races.
    const there = await privateText(
      world.discord.runCommand({
        guildId: other.id,
        channelId: lobby.id,
        user: traveller,
        locale: 'en-GB',
        name: 'next',
      }),
    );
    expect(there).toContain('Your next races');
  });
});
