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
  TextInputBuilder,
  TextInputStyle,
  type SlashCommandStringOption,
} from 'discord.js';
import { z } from 'zod';
import { customIdCodec, onComponent, UserFacingError, type BotCommand, type CommandContext, type ComponentContext, type CustomIdValue } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { memberChoices } from '../src/bot/lookup.js';
import { EventorError } from '../src/eventor/errors.js';
import type { Person } from '../src/eventor/model.js';
import { languageFor, t } from '../src/i18n/index.js';
import { belongsToClub, clubMember, guildOf, ownLinkChoices, personLabel, personNames, requireClubMember } from './linking-common.js';

const USERNAME = 'username';
const PASSWORD = 'password';
/** Wrong passwords per member and server before a pause: the bot must not be a way to guess Eventor passwords. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
/**
 * Wrong passwords per Eventor user name, from every Discord account and server together: a
 * guesser with many accounts is held to the same pace. The name is folded (trimmed, lower case)
 * and stored only as a keyed hash.
 */
const USERNAME_FAILURE_SCOPE = 'link-failure-username';
const MAX_USERNAME_FAILURES = 5;
const foldUsername = (username: string): string => username.trim().toLowerCase();
/** Requests waiting for the admins per member: enough for a family, too few to flood the admin channel. */
const MAX_PENDING = 5;
/**
 * Recent wrong passwords per server and member, besides the audit log: /forget-me deletes the
 * audit entries, and must not also reset the count a guesser is held to. Bounded, oldest out.
 */
const recentFailures = new Map<string, number[]>();
const FAILURES_TRACKED = 10_000;

function failuresInMemory(key: string, now: number): number[] {
  const kept = (recentFailures.get(key) ?? []).filter((at) => at > now - FAILURE_WINDOW_MS);
  if (kept.length > 0) recentFailures.set(key, kept);
  else recentFailures.delete(key);
  return kept;
}

function noteFailure(key: string, now: number): void {
  const list = failuresInMemory(key, now);
  recentFailures.delete(key);
  recentFailures.set(key, [...list, now]);
  if (recentFailures.size > FAILURES_TRACKED) recentFailures.delete(recentFailures.keys().next().value!);
}

function clearFailure(key: string, at: number): void {
  const list = recentFailures.get(key) ?? [];
  const index = list.indexOf(at);
  if (index >= 0) list.splice(index, 1);
  if (list.length === 0) recentFailures.delete(key);
}

/** What an HTTP header can carry (the client sends the credentials as headers); anything else cannot be a valid login. */
const HEADER_SAFE = /^[\u0020-\u007e\u00a0-\u00ff\t]+$/;

const personOption = (o: SlashCommandStringOption) =>
  localize(o, 'linking.option.person.name', 'linking.option.person.description').setRequired(true).setAutocomplete(true).setMaxLength(100);

/** The form asking for the Eventor user name and password: it carries nothing. */
const credentialsFormId = customIdCodec('link:credentials', z.object({}));
/** The admins' buttons on a link request in the admin channel: which request. */
const requestDecision = z.object({ requestId: z.number().int().min(1) });
export const approveRequestId = customIdCodec('link:approve', requestDecision);
export const denyRequestId = customIdCodec('link:deny', requestDecision);

const definition = localizedCommand('linking.link.name', 'linking.link.description')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((sub) => localize(sub, 'linking.link.eventor.name', 'linking.link.eventor.description'))
  .addSubcommand((sub) => localize(sub, 'linking.link.request.name', 'linking.link.request.description').addStringOption(personOption))
  .addSubcommand((sub) => localize(sub, 'linking.link.default.name', 'linking.link.default.description').addStringOption(personOption))
  .toJSON();

async function startCredentials(ctx: CommandContext): Promise<void> {
  const guildId = guildOf(ctx);
  if (!ctx.store.linkingMethods(guildId).credentials) throw new UserFacingError('linking.credentials.disabled');
  const modal = new ModalBuilder()
    .setCustomId(credentialsFormId.encode({}))
    .setTitle(ctx.t('linking.modal.title'))
    .addLabelComponents(
      new LabelBuilder()
        .setLabel(ctx.t('linking.modal.username'))
        .setTextInputComponent(new TextInputBuilder().setCustomId(USERNAME).setStyle(TextInputStyle.Short).setMaxLength(100).setRequired(true)),
      new LabelBuilder()
        .setLabel(ctx.t('linking.modal.password'))
        .setDescription(ctx.t('linking.modal.hint'))
        .setTextInputComponent(new TextInputBuilder().setCustomId(PASSWORD).setStyle(TextInputStyle.Short).setMaxLength(100).setRequired(true)),
    );
  await ctx.interaction.showModal(modal);
}

/** Eventor's person for these credentials, or null when Eventor says they are wrong. */
async function authenticate(ctx: ComponentContext, username: string, password: string): Promise<Person | null> {
  if (!HEADER_SAFE.test(username) || !HEADER_SAFE.test(password)) return null;
  const eventor = await ctx.guild.eventor();
  try {
    return await eventor.client.authenticatePerson({ username, password });
  } catch (error) {
    if (error instanceof EventorError && error.code === 'AuthenticationFailed') return null;
    throw error;
  }
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
  const guildId = guildOf(ctx);
  const userId = ctx.interaction.user.id;
  if (!ctx.store.linkingMethods(guildId).credentials) throw new UserFacingError('linking.credentials.disabled');
  const now = ctx.now().getTime();
  const key = `${guildId}:${userId}`;
  const audited = ctx.store.recentActions(guildId, userId, 'link-failed', new Date(now - FAILURE_WINDOW_MS));
  const remembered = failuresInMemory(key, now);
  if (Math.max(audited.count, remembered.length) >= MAX_FAILURES) {
    const oldest = audited.count >= remembered.length && audited.oldest ? Date.parse(audited.oldest) : remembered[0]!;
    const left = Math.max(1, Math.ceil((oldest + FAILURE_WINDOW_MS - now) / 60_000));
    throw new UserFacingError('linking.credentials.tooMany', { minutes: left });
  }
  // Per Eventor user name too, whichever Discord account and server the guesses come from. Taken
  // as a failure before Eventor is asked (the check and the record are one step, so parallel forms
  // cannot all pass), and given back only when it was none.
  const folded = foldUsername(username);
  const { attempt, retryAt } = ctx.store.takeThrottle(USERNAME_FAILURE_SCOPE, folded, MAX_USERNAME_FAILURES, FAILURE_WINDOW_MS);
  if (attempt === null) {
    const left = Math.max(1, Math.ceil(((retryAt?.getTime() ?? now) - now) / 60_000));
    throw new UserFacingError('linking.credentials.tooManyForUsername', { minutes: left });
  }
  const giveBackUsernameAttempt = (): void => ctx.store.giveBackThrottle(USERNAME_FAILURE_SCOPE, folded, attempt);
  // Counted as wrong until Eventor says otherwise, so parallel forms cannot all pass the check above.
  noteFailure(key, now);
  let person: Person | null;
  try {
    person = await authenticate(ctx, username, password);
  } catch (error) {
    // Eventor not answering is no wrong password.
    clearFailure(key, now);
    giveBackUsernameAttempt();
    throw error;
  }
  // The right password of someone outside the club gets the very answer of a wrong one, and counts
  // as a failure: anything else would tell a guesser which password is right. Eventor failing in
  // the club check leaves the failure counted, so an outage cannot hand out free guesses.
  if (!person || person.id === null || !(await belongsToClub(await ctx.guild.eventor(), person))) {
    ctx.store.audit({ guildId, actorId: userId, action: 'link-failed' });
    throw new UserFacingError('linking.credentials.wrong');
  }
  clearFailure(key, now);
  giveBackUsernameAttempt();
  ctx.store.linkPerson(guildId, userId, person.id, 'credentials');
  ctx.store.audit({ guildId, actorId: userId, personId: person.id, action: 'link', detail: 'credentials' });
  ctx.log.info('member linked', { method: 'credentials', person: person.id });
  await ctx.interaction.editReply({ content: ctx.t('linking.link.done', { person: personLabel(person) }) });
}

async function request(ctx: CommandContext): Promise<void> {
  const guildId = guildOf(ctx);
  const userId = ctx.interaction.user.id;
  if (!ctx.store.linkingMethods(guildId).approval) throw new UserFacingError('linking.request.disabled');
  const adminChannel = ctx.store.guildSettings(guildId)?.channels.admin;
  if (!adminChannel) throw new UserFacingError('linking.request.noAdminChannel');
  const eventor = await ctx.guild.eventor();
  const person = await requireClubMember(eventor, ctx.interaction.options.getString('person', true));
  const label = personLabel(person);
  if (ctx.store.linkedPersons(guildId, userId).some((l) => l.personId === person.id)) throw new UserFacingError('linking.request.alreadyLinked', { person: label });
  const pending = ctx.store.pendingLinkRequests(guildId, userId);
  if (pending.some((p) => p.personId === person.id)) throw new UserFacingError('linking.request.alreadyPending', { person: label });
  if (pending.length >= MAX_PENDING) throw new UserFacingError('linking.request.tooMany', { max: MAX_PENDING });

  const created = ctx.store.createLinkRequest({ guildId, userId, personId: person.id, locale: ctx.language });
  const others = ctx.store.guildLinks(guildId).filter((l) => l.personId === person.id && l.userId !== userId);
  const language = ctx.guild.language;
  let content = t(language, 'linking.request.adminPost', { user: `<@${userId}>`, person: label, id: person.id });
  if (others.length > 0) content += `\n${t(language, 'linking.request.alsoLinked', { users: others.map((o) => `<@${o.userId}>`).join(', ') })}`;
  const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(approveRequestId.encode({ requestId: created.id })).setStyle(ButtonStyle.Success).setLabel(t(language, 'linking.button.approve')),
    new ButtonBuilder().setCustomId(denyRequestId.encode({ requestId: created.id })).setStyle(ButtonStyle.Danger).setLabel(t(language, 'linking.button.deny')),
  );
  try {
    const channel = await ctx.interaction.client.channels.fetch(adminChannel);
    if (!channel?.isSendable()) throw new Error('the admin channel is not a channel the bot can post in');
    // Names without pinging: the admins read the channel, and the member should not be called out.
    await channel.send({ content, components: [buttons], allowedMentions: { parse: [] } });
  } catch (error) {
    ctx.store.dropLinkRequest(created.id);
    ctx.log.warn('link request could not be posted in the admin channel', { error });
    throw new UserFacingError('linking.request.adminChannelBroken');
  }
  ctx.store.audit({ guildId, actorId: userId, personId: person.id, action: 'link-request' });
  await ctx.interaction.editReply({ content: ctx.t('linking.request.sent', { person: label }) });
}

async function decide(ctx: ComponentContext, { requestId: id }: CustomIdValue<typeof approveRequestId>, approve: boolean): Promise<void> {
  const guildId = guildOf(ctx);
  const adminId = ctx.interaction.user.id;
  const found = ctx.store.linkRequest(id);
  if (!found || found.guildId !== guildId) throw new UserFacingError('linking.decide.gone');
  if (found.state !== 'pending') throw new UserFacingError(found.state === 'approved' ? 'linking.decide.alreadyApproved' : 'linking.decide.alreadyDenied');
  const eventor = await ctx.guild.eventor();
  const person = await clubMember(eventor, found.personId);
  // The server may have moved to another club's key since the request was made.
  if (approve && !person) throw new UserFacingError('linking.error.notInClub');
  if (!ctx.store.decideLinkRequest(id, approve, adminId)) throw new UserFacingError('linking.decide.alreadyDecided');
  ctx.store.audit({ guildId, actorId: adminId, subjectId: found.userId, personId: found.personId, action: approve ? 'link' : 'link-deny', detail: approve ? 'approval' : null });
  ctx.log.info(approve ? 'link request approved' : 'link request denied', { request: id, person: found.personId });
  const label = person ? personLabel(person) : `#${found.personId}`;

  const post = ctx.interaction.isMessageComponent() ? ctx.interaction.message : null;
  await post
    ?.edit({
      content: t(ctx.guild.language, approve ? 'linking.decide.approvedPost' : 'linking.decide.deniedPost', { admin: `<@${adminId}>`, user: `<@${found.userId}>`, person: label }),
      components: [],
      allowedMentions: { parse: [] },
    })
    .catch((error: unknown) => ctx.log.warn('could not update the request post', { error }));

  // The outcome is in the audit log too, so closed DMs lose the member nothing they cannot ask about.
  const memberLanguage = languageFor(found.locale);
  const server = ctx.interaction.guild?.name ?? '';
  let told = true;
  try {
    await ctx.interaction.client.users.send(found.userId, { content: t(memberLanguage, approve ? 'linking.dm.approved' : 'linking.dm.denied', { person: label, server }) });
  } catch (error) {
    told = false;
    ctx.log.warn('could not tell the member the outcome by DM', { error });
  }
  const done = ctx.t(approve ? 'linking.decide.approved' : 'linking.decide.denied', { user: `<@${found.userId}>`, person: label });
  await ctx.interaction.editReply({ content: told ? done : `${done}\n${ctx.t('linking.decide.dmClosed')}`, allowedMentions: { parse: [] } });
}

async function setDefault(ctx: CommandContext): Promise<void> {
  const guildId = guildOf(ctx);
  const userId = ctx.interaction.user.id;
  const personId = ctx.interaction.options.getString('person', true).trim();
  if (!ctx.store.setDefaultPerson(guildId, userId, personId)) throw new UserFacingError('linking.default.notLinked');
  ctx.store.audit({ guildId, actorId: userId, personId, action: 'link-default' });
  const names = await personNames(ctx, [personId]);
  await ctx.interaction.editReply({ content: ctx.t('linking.default.done', { person: names.get(personId)! }) });
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
    onComponent(approveRequestId, { defer: 'ephemeral', requires: { permission: 'manageGuild' }, handle: (ctx, value) => decide(ctx, value, true) }),
    onComponent(denyRequestId, { defer: 'ephemeral', requires: { permission: 'manageGuild' }, handle: (ctx, value) => decide(ctx, value, false) }),
  ],
};
