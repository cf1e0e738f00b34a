/**
 * /link: ties the member's Discord account to their Eventor person in the server's club, in one
 * of the ways the admins allow in `/setup linking`: Eventor user name and password (proof by
 * Eventor itself), or a request that an admin approves in the admin channel. `/link default`
 * picks which linked person (a parent's own, or a child's) commands use by default.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  InteractionContextType,
  LabelBuilder,
  ModalBuilder,
  type SlashCommandStringOption,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { z } from 'zod';
import {
  type BotCommand,
  type CommandContext,
  type ComponentContext,
  type CustomIdValue,
  customIdCodec,
  onComponent,
  UserFacingError,
} from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { guildOf } from '../src/bot/guards.js';
import { memberChoices } from '../src/bot/lookup.js';
import { ownLinkChoices, personLabel, personNames } from '../src/bot/members.js';
import { languageFor, t } from '../src/i18n/index.js';
import { escapeName } from '../src/render/index.js';

const USERNAME = 'username';
const PASSWORD = 'password';

const personOption = (o: SlashCommandStringOption) =>
  localize(o, 'linking.option.person.name', 'linking.option.person.description')
    .setRequired(true)
    .setAutocomplete(true)
    .setMaxLength(100);

/** The form asking for the Eventor user name and password: it carries nothing. */
const credentialsFormId = customIdCodec('link:credentials', z.object({}));
/** The admins' buttons on a link request in the admin channel: which request. */
const requestDecision = z.object({ requestId: z.number().int().min(1) });
export const approveRequestId = customIdCodec('link:approve', requestDecision);
export const denyRequestId = customIdCodec('link:deny', requestDecision);

const definition = localizedCommand('linking.link.name', 'linking.link.description')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((sub) => localize(sub, 'linking.link.eventor.name', 'linking.link.eventor.description'))
  .addSubcommand((sub) =>
    localize(sub, 'linking.link.request.name', 'linking.link.request.description').addStringOption(personOption),
  )
  .addSubcommand((sub) =>
    localize(sub, 'linking.link.default.name', 'linking.link.default.description').addStringOption(personOption),
  )
  .toJSON();

async function startCredentials(ctx: CommandContext): Promise<void> {
  await ctx.services.linking.requireCredentialsAllowed(guildOf(ctx));
  const modal = new ModalBuilder()
    .setCustomId(credentialsFormId.encode({}))
    .setTitle(ctx.t('linking.modal.title'))
    .addLabelComponents(
      new LabelBuilder()
        .setLabel(ctx.t('linking.modal.username'))
        .setTextInputComponent(
          new TextInputBuilder()
            .setCustomId(USERNAME)
            .setStyle(TextInputStyle.Short)
            .setMaxLength(100)
            .setRequired(true),
        ),
      new LabelBuilder()
        .setLabel(ctx.t('linking.modal.password'))
        .setDescription(ctx.t('linking.modal.hint'))
        .setTextInputComponent(
          new TextInputBuilder()
            .setCustomId(PASSWORD)
            .setStyle(TextInputStyle.Short)
            .setMaxLength(100)
            .setRequired(true),
        ),
    );
  await ctx.interaction.showModal(modal);
}

async function submitCredentials(ctx: ComponentContext): Promise<void> {
  if (!ctx.interaction.isModalSubmit()) throw new UserFacingError('error.unexpected');
  const username = ctx.interaction.fields.getTextInputValue(USERNAME).trim();
  // Masked before anything can log; the only copy the bot makes is the header of one request,
  // and the logger lets go of it as soon as the handler is done.
  const password = ctx.interaction.fields.getTextInputValue(PASSWORD);
  const forget = ctx.log.redact(password, 'transient');
  try {
    await linkWithCredentials(ctx, username, password);
  } finally {
    forget();
  }
}

async function linkWithCredentials(ctx: ComponentContext, username: string, password: string): Promise<void> {
  const who = { guildId: guildOf(ctx), userId: ctx.interaction.user.id };
  const person = await ctx.services.linking.linkWithCredentials(
    () => ctx.guild.eventor(),
    who,
    username,
    password,
    ctx.log,
  );
  await ctx.answer({ content: ctx.t('linking.link.done', { person: personLabel(person) }) });
}

async function request(ctx: CommandContext): Promise<void> {
  const guildId = guildOf(ctx);
  const userId = ctx.interaction.user.id;
  const {
    request: created,
    person,
    adminChannel,
    othersLinked,
  } = await ctx.services.linking.createRequest(
    () => ctx.guild.eventor(),
    { guildId, userId, locale: ctx.language },
    ctx.interaction.options.getString('person', true),
    personLabel,
  );
  const label = personLabel(person);
  const language = ctx.guild.language;
  let content = t(language, 'linking.request.adminPost', {
    user: `<@${userId}>`,
    person: label,
    id: escapeName(person.id, { max: 40 }),
  });
  if (othersLinked.length > 0)
    content += `\n${t(language, 'linking.request.alsoLinked', { users: othersLinked.map((other) => `<@${other}>`).join(', ') })}`;
  const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId(approveRequestId.encode({ requestId: created.id }))
      .setStyle(ButtonStyle.Success)
      .setLabel(t(language, 'linking.button.approve')),
    new ButtonBuilder()
      .setCustomId(denyRequestId.encode({ requestId: created.id }))
      .setStyle(ButtonStyle.Danger)
      .setLabel(t(language, 'linking.button.deny')),
  );
  try {
    const channel = await ctx.interaction.client.channels.fetch(adminChannel);
    if (!channel?.isSendable()) throw new Error('the admin channel is not a channel the bot can post in');
    // Names without pinging: the admins read the channel, and the member should not be called out.
    await channel.send({ content, components: [buttons], allowedMentions: { parse: [] } });
  } catch (error) {
    await ctx.services.linking.dropRequest(created.id);
    ctx.log.warn('link request could not be posted in the admin channel', { error });
    throw new UserFacingError('linking.request.adminChannelBroken');
  }
  await ctx.services.linking.requestPosted(created);
  await ctx.answer({ content: ctx.t('linking.request.sent', { person: label }) });
}

async function decide(
  ctx: ComponentContext,
  { requestId: id }: CustomIdValue<typeof approveRequestId>,
  approve: boolean,
): Promise<void> {
  const guildId = guildOf(ctx);
  const adminId = ctx.interaction.user.id;
  const { request: found, person } = await ctx.services.linking.decide(
    () => ctx.guild.eventor(),
    { guildId, adminId },
    id,
    approve,
    ctx.log,
  );
  const label = person ? personLabel(person) : `#${escapeName(found.personId, { max: 40 })}`;

  const post = ctx.interaction.isMessageComponent() ? ctx.interaction.message : null;
  await post
    ?.edit({
      content: t(ctx.guild.language, approve ? 'linking.decide.approvedPost' : 'linking.decide.deniedPost', {
        admin: `<@${adminId}>`,
        user: `<@${found.userId}>`,
        person: label,
      }),
      components: [],
      allowedMentions: { parse: [] },
    })
    .catch((error: unknown) => ctx.log.warn('could not update the request post', { error }));

  // The outcome is in the audit log too, so closed DMs lose the member nothing they cannot ask about.
  const memberLanguage = languageFor(found.locale);
  const server = ctx.interaction.guild?.name ?? '';
  let told = true;
  try {
    await ctx.interaction.client.users.send(found.userId, {
      content: t(memberLanguage, approve ? 'linking.dm.approved' : 'linking.dm.denied', { person: label, server }),
    });
  } catch (error) {
    told = false;
    ctx.log.warn('could not tell the member the outcome by DM', { error });
  }
  const done = ctx.t(approve ? 'linking.decide.approved' : 'linking.decide.denied', {
    user: `<@${found.userId}>`,
    person: label,
  });
  await ctx.answer({
    content: told ? done : `${done}\n${ctx.t('linking.decide.dmClosed')}`,
    allowedMentions: { parse: [] },
  });
}

async function setDefault(ctx: CommandContext): Promise<void> {
  const guildId = guildOf(ctx);
  const userId = ctx.interaction.user.id;
  const personId = ctx.interaction.options.getString('person', true).trim();
  await ctx.services.linking.setDefault(guildId, userId, personId);
  const names = await personNames(ctx, [personId]);
  await ctx.answer({ content: ctx.t('linking.default.done', { person: names.get(personId)! }) });
}

export const link: BotCommand = {
  definition,
  defer: 'ephemeral',
  subcommands: {
    // The form must be the first answer, so it cannot be deferred; it only shows the form, and
    // submitting it asks Eventor and counts then.
    eventor: { defer: 'none', callsEventor: false, execute: startCredentials },
    request,
    default: setDefault,
  },
  async autocomplete(ctx) {
    const typed = String(ctx.interaction.options.getFocused());
    if (ctx.interaction.options.getSubcommand(false) === 'default') return ownLinkChoices(ctx, typed);
    const eventor = await ctx.guild.eventor();
    return memberChoices(eventor.client, eventor.organisationId, typed);
  },
  components: [
    onComponent(credentialsFormId, { defer: 'ephemeral', handle: submitCredentials }),
    onComponent(approveRequestId, {
      defer: 'ephemeral',
      requires: { permission: 'manageGuild' },
      handle: (ctx, value) => decide(ctx, value, true),
    }),
    onComponent(denyRequestId, {
      defer: 'ephemeral',
      requires: { permission: 'manageGuild' },
      handle: (ctx, value) => decide(ctx, value, false),
    }),
  ],
};
