/**
 * Secrets a member types or the bot fetches never reach the logs in any form, end to end: the real
 * bot (discord.js against the sandbox Discord) links with an Eventor password full of characters
 * that JSON, URLs and HTML escape, and sends a one-time login link, while every log line is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxPerson } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { secretForms } from '../support/secret-forms.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };
const PASSWORD = 'pa"ss\\wo&rd=+ åÅ-42';
const WRONG_PASSWORD = 'wr"ong\\pw&=+ ø-7';
const LINK = /https?:\/\/[^\s"'<>)]+\/login\/[A-Za-z0-9_-]+/;

describe('no secret in the logs in any form (real bot, sandbox Discord and Eventor)', () => {
  let world: LoopbackWorld;
  let person: SandboxPerson;

  beforeAll(async () => {
    world = await startTestWorld();
    person = world.eventor.dataset.homeClub.members[0]!;
    // The member's Eventor password, as the sandbox Eventor checks it.
    person.password = PASSWORD;
  });
  afterAll(async () => {
    await world?.close();
  });

  const linkWith = async (password: string): Promise<string> => {
    const modal = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'link',
        options: {},
        subcommand: 'eventor',
      })
      .waitForModal(WAIT);
    const reply = await world.discord
      .submitModal({
        user: world.member,
        locale: 'en-GB',
        customId: modal.custom_id,
        fields: { username: person.username, password },
      })
      .reply(WAIT);
    return renderMessageText(reply);
  };

  it('a wrong and then the right password with "\\&=+ å, then a login link: the member is served, the log holds none of them', async () => {
    expect(await linkWith(WRONG_PASSWORD)).toContain('Eventor did not accept that user name and password');
    expect(await linkWith(PASSWORD)).toContain(`${person.person.name.given} ${person.person.name.family}`);

    const dmsBefore = world.discord.dms(world.member).length;
    await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'login',
        options: {},
      })
      .reply(WAIT);
    await world.discord.waitForDm(world.member, () => world.discord.dms(world.member).length > dmsBefore, WAIT);
    const link = LINK.exec(JSON.stringify(world.discord.dms(world.member).at(-1)!.components))?.[0];
    expect(link, 'a login link in the DM').toBeTruthy();

    const log = world.logLines.join('');
    // The log is there and speaks of what happened, only without the secrets.
    expect(log).toContain('"command":"link"');
    expect(log).toContain('"command":"login"');
    for (const secret of [PASSWORD, WRONG_PASSWORD, link!, world.eventor.apiKey, world.discord.token]) {
      for (const [form, text] of Object.entries(secretForms(secret)))
        expect(log, `${form} of a secret in the log`).not.toContain(text);
    }
  });
});
