/**
 * The checks commands and components declare (`requires`), enforced once by the router, end to end:
 * the real bot against the sandbox Discord and Eventor. A member who forges the custom id of an
 * admin-only button or form, or of a button for linked members while not linked, is refused before
 * any handler runs, with the one message of that case, and Eventor is asked nothing. An id that does
 * not decode (forged, or from an older version) gets the one "no longer valid" message.
 */
import { ComponentType, SlashCommandBuilder } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMMANDS } from '../../commands/index.js';
import { type BotCommand, customIdCodec, onComponent } from '../../src/bot/command.js';
import { t } from '../../src/i18n/index.js';
import { loginButton } from '../../src/render/login-button.js';
import type { InteractionHandle, SandboxUser } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { postForgedButton } from '../support/forged-button.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };

describe('declared checks: the router refuses forged component ids before the handler', () => {
  let world: LoopbackWorld;

  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  const postButton = (customId: string): Promise<string> => postForgedButton(world, customId);
  const privateText = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return reply.content;
  };
  const clickForged = async (customId: string, user: SandboxUser, locale = 'en-GB'): Promise<string> =>
    privateText(world.discord.clickButton({ message: await postButton(customId), customId, user, locale }));

  it('refuses a member without Manage Server on every admin-only button, in their language, asking Eventor nothing', async () => {
    const person = world.eventor.dataset.homeClub.members[0]!.person.id!;
    const before = world.eventor.requests.count();
    const linksBefore = (await world.bot.store.links.guildLinks(world.guild.id)).length;
    for (const forged of [`admin:unlink:${world.member.id}:${person}`, 'link:approve:1', 'link:deny:1']) {
      expect(await clickForged(forged, world.member), forged).toBe(t('en', 'linking.notAdmin'));
      expect(await clickForged(forged, world.swedishMember, 'sv-SE'), forged).toBe(t('sv', 'linking.notAdmin'));
    }
    // Refused before the id is read: a malformed one gets the same answer, and tells nothing.
    expect(await clickForged('admin:unlink:not-an-id', world.member)).toBe(t('en', 'linking.notAdmin'));
    expect(world.eventor.requests.count()).toBe(before);
    expect(await world.bot.store.links.guildLinks(world.guild.id)).toHaveLength(linksBefore);
  });

  it('refuses the key form of /setup eventor when the member no longer has Manage Server, with the same message', async () => {
    const opener = world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.admin,
      locale: 'en-GB',
      name: 'setup',
      subcommand: 'eventor',
      options: { instance: 'se' },
    });
    const modal = await opener.waitForModal(WAIT);
    const before = world.eventor.requests.count();
    const submitted = world.discord.submitModal({
      user: world.admin,
      locale: 'en-GB',
      customId: modal.custom_id,
      fields: { key: 'k'.repeat(32) },
      memberPermissions: 0n,
    });
    expect(await privateText(submitted)).toBe(t('en', 'linking.notAdmin'));
    expect(world.eventor.requests.count()).toBe(before);
    expect((await world.bot.store.servers.guildSettings(world.guild.id))?.hasApiKey ?? false).toBe(false);
  });

  it('refuses an unlinked member on every linked-only button (a forged chip change, the login button), asking Eventor nothing', async () => {
    const stranger = world.discord.createMember(world.guild.id, {
      username: 'framling',
      globalName: 'Främling',
      locale: 'sv-SE',
    });
    const person = world.eventor.dataset.homeClub.members[0]!.person.id!;
    const before = world.eventor.requests.count();
    const forgedCard = `card:confirm:${stranger.id}:${person}:SI:1234567:${Math.floor(world.eventor.now().getTime() / 1000)}`;
    expect(await clickForged(forgedCard, stranger, 'sv-SE')).toBe(t('sv', 'error.notLinked'));
    const post = await (async () => {
      const channel = await world.bot.client.channels.fetch(world.channel.id);
      if (!channel?.isSendable()) throw new Error('channel not sendable');
      return (
        await channel.send({
          content: 'Anmälan stänger i morgon',
          components: [{ type: ComponentType.ActionRow, components: [loginButton('sv')] }],
        })
      ).id;
    })();
    expect(
      await privateText(
        world.discord.clickButton({
          message: post,
          customId: loginButton('sv').custom_id,
          user: stranger,
          locale: 'sv-SE',
        }),
      ),
    ).toBe(t('sv', 'error.notLinked'));
    expect(world.eventor.requests.count()).toBe(before);
    expect(world.discord.dms(stranger)).toHaveLength(0);
  });

  it('refuses a chip change (the /card save button) to a member with no password link, before the handler, asking Eventor nothing', async () => {
    const member = world.discord.createMember(world.guild.id, { username: 'adminkopplad', locale: 'en-GB' });
    const person = world.eventor.dataset.homeClub.members[1]!.person.id!;
    // Linked by an admin: enough for /card to show the settings, not to change them.
    await world.bot.store.links.linkPerson(world.guild.id, member.id, person, 'admin');
    const before = world.eventor.requests.count();
    const forgedCard = `card:confirm:${member.id}:${person}:SI:7654321:${Math.floor(world.eventor.now().getTime() / 1000)}`;
    expect(await clickForged(forgedCard, member)).toBe(t('en', 'linking.whoami.notProven'));
    expect(world.eventor.requests.count()).toBe(before);
    expect((await world.bot.store.audit.auditLog(world.guild.id)).filter((e) => e.actorId === member.id)).toEqual([]);
  });

  it('answers an id that does not decode, or that no component has, with the one "no longer valid" message', async () => {
    const before = world.eventor.requests.count();
    for (const stale of [
      'events:p:0:20261124:14::::en', // page 0 and a field too many
      'events:p:2:2026-11-24:14:::en', // the day in another form
      'results:page:x:1::1:0:1', // neither a person's nor the club's
      'entries:p:1:-:20261124:en', // an older form of "no event"
      'activities:page:2026-11-01:2026-11-30:first',
      'forget-me:confirm:soon',
      'setup:key:SE', // not an instance's name (the admin passes the check first)
      'nothing:here',
    ]) {
      expect(await clickForged(stale, world.admin), stale).toBe(t('en', 'error.staleComponent'));
    }
    expect(world.eventor.requests.count()).toBe(before);
  });

  it("gives a member without Manage Server no suggestions from the admin commands' autocomplete", async () => {
    const before = world.eventor.requests.count();
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'admin',
      subcommand: 'link',
      focused: 'person',
      value: 'a',
      bypassCommandPermissions: true,
      ...WAIT,
    });
    expect(choices).toEqual([]);
    expect(world.eventor.requests.count()).toBe(before);
    const zones = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'setup',
      subcommand: 'timezone',
      focused: 'zone',
      value: 'Europe',
      bypassCommandPermissions: true,
      ...WAIT,
    });
    expect(zones).toEqual([]);
    const allowed = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.admin,
      name: 'setup',
      subcommand: 'timezone',
      focused: 'zone',
      value: 'Europe/Sto',
      ...WAIT,
    });
    expect(allowed.map((c) => c.value)).toContain('Europe/Stockholm');
  });
});

describe('declared checks on a subcommand table: a linked person, and one linked with the Eventor password', () => {
  let world: LoopbackWorld;
  const ran: string[] = [];
  const probeButton = customIdCodec('probe:act', z.object({ n: z.number().int() }));
  /** A command of the test's own, so each declaration is exercised alone through the real router. */
  const probe: BotCommand = {
    definition: new SlashCommandBuilder()
      .setName('probe')
      .setDescription('probe')
      .addSubcommand((sub) => sub.setName('any').setDescription('any link'))
      .addSubcommand((sub) => sub.setName('proven').setDescription('a password link'))
      .toJSON(),
    defer: 'ephemeral',
    callsEventor: false,
    subcommands: {
      any: {
        requires: { linked: 'any' },
        execute: async (ctx) => {
          ran.push('any');
          await ctx.answer('ran any');
        },
      },
      proven: {
        requires: { linked: 'credentials' },
        execute: async (ctx) => {
          ran.push('proven');
          await ctx.answer('ran proven');
        },
      },
    },
    components: [
      onComponent(probeButton, {
        defer: 'ephemeral',
        callsEventor: false,
        requires: { linked: 'credentials' },
        handle: async (ctx, { n }) => {
          ran.push(`button ${n}`);
          await ctx.answer(`clicked ${n}`);
        },
      }),
    ],
  };

  beforeAll(async () => {
    world = await startTestWorld({ commands: [...COMMANDS, probe] });
  });
  afterAll(async () => {
    await world?.close();
  });

  const run = async (user: SandboxUser, subcommand: string): Promise<string> =>
    (
      await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user,
          locale: 'en-GB',
          name: 'probe',
          subcommand,
        })
        .reply(WAIT)
    ).content;
  const click = async (user: SandboxUser, n: number): Promise<string> => {
    const channel = await world.bot.client.channels.fetch(world.channel.id);
    if (!channel?.isSendable()) throw new Error('channel not sendable');
    const customId = probeButton.encode({ n });
    const button = { type: ComponentType.Button, style: 2, label: 'Go', custom_id: customId };
    const message = await channel.send({
      content: 'probe',
      components: [{ type: ComponentType.ActionRow, components: [button as never] }],
    });
    return (await world.discord.clickButton({ message: message.id, customId, user, locale: 'en-GB' }).reply(WAIT))
      .content;
  };

  it('refuses the unlinked, lets any link through where any will do, and only a password link where one is required', async () => {
    const person = world.eventor.dataset.homeClub.members[0]!.person.id!;
    expect(await run(world.member, 'any')).toBe(t('en', 'error.notLinked'));
    expect(await run(world.member, 'proven')).toBe(t('en', 'error.notLinked'));
    expect(await click(world.member, 1)).toBe(t('en', 'error.notLinked'));
    expect(ran).toEqual([]);

    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, person, 'admin');
    expect(await run(world.member, 'any')).toBe('ran any');
    expect(await run(world.member, 'proven')).toBe(t('en', 'linking.whoami.notProven'));
    expect(await click(world.member, 2)).toBe(t('en', 'linking.whoami.notProven'));
    expect(ran).toEqual(['any']);

    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, person, 'credentials');
    expect(await run(world.member, 'proven')).toBe('ran proven');
    expect(await click(world.member, 3)).toBe('clicked 3');
    expect(ran).toEqual(['any', 'proven', 'button 3']);
  });
});
