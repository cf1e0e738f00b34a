/**
 * One whole session through the real bot: an admin connects the server with its API key, a member
 * links with their Eventor password and asks for a login link. Afterwards nothing the bot wrote
 * (its log lines, its database file and WAL) holds the key, the password or the link.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 15_000 };
const LINK = /https?:\/\/[^\s"'<>)\\]+\/login\/[A-Za-z0-9_-]+/;

describe('a whole session leaves no secret in the logs or the database', () => {
  let world: LoopbackWorld;
  beforeAll(async () => {
    world = await startTestWorld({ defaultEventor: false });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('connects, links with a password, sends a login link, and writes none of them down', async () => {
    const { discord, guild, channel, admin, member, eventor } = world;
    // The admin connects the server: the key goes into a form, never a slash option.
    const opener = discord.runCommand({
      guildId: guild.id,
      channelId: channel.id,
      user: admin,
      locale: 'sv-SE',
      name: 'setup',
      subcommand: 'eventor',
      options: { base_url: eventor.baseUrl },
    });
    const keyForm = await opener.waitForModal(WAIT);
    const connected = await discord
      .submitModal({ user: admin, locale: 'sv-SE', customId: keyForm.custom_id, fields: { key: eventor.apiKey } })
      .reply(WAIT);
    expect(renderMessageText(connected)).toContain(eventor.dataset.homeClub.name);

    // A member links with their Eventor user name and password.
    const person = eventor.dataset.persons.find((p) => p.clubId === eventor.dataset.homeClub.id)!;
    const linkForm = await discord
      .runCommand({
        guildId: guild.id,
        channelId: channel.id,
        user: member,
        locale: 'en-GB',
        name: 'link',
        subcommand: 'eventor',
      })
      .waitForModal(WAIT);
    const linked = await discord
      .submitModal({
        user: member,
        locale: 'en-GB',
        customId: linkForm.custom_id,
        fields: { username: person.username, password: person.password },
      })
      .reply(WAIT);
    expect((await world.bot.store.links.linkedPersons(guild.id, member.id)).map((l) => l.personId)).toEqual([
      person.person.id,
    ]);
    expect(JSON.stringify(linked)).not.toContain(person.password);

    // And asks for a login link, which arrives by DM only.
    const dmsBefore = discord.dms(member).length;
    const answer = await discord
      .runCommand({ guildId: guild.id, channelId: channel.id, user: member, locale: 'en-GB', name: 'login' })
      .reply(WAIT);
    expect(JSON.stringify(answer)).not.toMatch(LINK);
    await discord.waitForDm(member, () => discord.dms(member).length > dmsBefore, WAIT);
    const link = JSON.stringify(discord.dms(member).at(-1)).match(LINK)?.[0];
    expect(link).toBeDefined();

    // Nothing in the channel either.
    expect(JSON.stringify(discord.messages(channel.id, { includeEphemeral: true }))).not.toMatch(LINK);

    const secrets = {
      'API key': eventor.apiKey,
      password: person.password,
      'login link': link!,
      'login token': link!.split('/login/')[1]!,
    };
    const logs = world.logLines.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    const files = await Promise.all(
      [world.databasePath, `${world.databasePath}-wal`].map((f) => readFile(f).catch(() => Buffer.alloc(0))),
    );
    for (const [what, secret] of Object.entries(secrets)) {
      expect(logs.includes(secret), `${what} in the log`).toBe(false);
      for (const bytes of files) expect(bytes.includes(Buffer.from(secret)), `${what} in the database`).toBe(false);
    }
  });
});
